/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Planning a session on a PMU: which counter each event gets and the value
 * of every register while the session samples. A pure function of the
 * CPU's capabilities and the session's request, so the exact MSR values
 * are checked on the host against Intel's data and the SDM
 * (tests/unit/test_plan.c, test_event_data.c), and the programming and PMI
 * code only copy them out.
 */
#ifndef _SKD_INTEL_PLAN_H
#define _SKD_INTEL_PLAN_H

#include "msrs.h"
#include "pmu.h"

/* Counter index space of a planned event: GP i, or fixed j at 32 + j. */
#define SKD_IDX_FIXED(j)	(32 + (j))
#define SKD_IDX_IS_FIXED(idx)	((idx) >= 32)

/* The load-latency auxiliary event has no event of the session. */
#define SKD_PLAN_NO_EVENT	0xffff

struct skd_planned_event {
	u32 idx;		/* counter, SKD_IDX_* */
	u64 config;		/* EVENTSEL event bits (edge/inv/cmask too) */
	u64 period;		/* events between samples (freq: first period) */
	u64 max_period;		/* the longest the counter can take */
	u64 freq;		/* samples/s to aim for; 0: fixed period */
	u64 ldlat;		/* load-latency threshold, 0: none */
	u64 config1;		/* frontend or offcore value, 0: none */
	u64 reset;		/* counter value that overflows after period */
	u32 precise;		/* 0-3 */
	u32 flags;		/* SKD_PLAN_* below */
	u16 event;		/* index in the session's events, or NO_EVENT */
};

#define SKD_PLAN_PEBS		0x001	/* sampled through PEBS */
#define SKD_PLAN_EXACT		0x002	/* the record has the eventing IP */
#define SKD_PLAN_DATA_LA	0x004	/* the record has the data address */
#define SKD_PLAN_LDLAT		0x008	/* a load-latency event */
#define SKD_PLAN_AUX		0x010	/* counts for another, never samples */

/* What the session wants besides its events. */
struct skd_plan_request {
	const struct skd_event_attr *events;
	unsigned int nr_events;
	u32 branch_sample;		/* enum skd_branch_sample */
	u32 exclude;			/* SKD_EV_EXCLUDE_* of the whole session */
	bool callchain;			/* call chains or user stacks: the PMI's */
					/* regs, so one PEBS record per PMI */
	u64 default_period;		/* events with neither period nor freq */
	u64 default_freq;
	u32 max_freq;			/* highest frequency an event may ask */
	u32 pebs_buffer_bytes;		/* PEBS buffer per CPU */
};

struct skd_pmu_plan {
	unsigned int nr;		/* planned events, the aux one included */
	struct skd_planned_event ev[SKD_MAX_EVENTS + 1];

	/* Register values while sampling; unused counters stay 0. */
	u32 pmc_base;			/* MSR of GP counter 0: 0xc1 or 0x4c1 */
	u64 eventsel[SKD_MAX_GP];
	u64 fixed_ctrl;			/* our nibbles (and adaptive bits) */
	u64 fixed_ctrl_mask;		/* every bit of our fixed counters */
	u64 global_ctrl;		/* every counter the session uses */
	u64 pebs_enable;
	u64 pebs_data_cfg;		/* adaptive PEBS only */
	u64 ld_lat;			/* MSR_PEBS_LD_LAT_THRESHOLD */
	u64 frontend;			/* MSR_PEBS_FRONTEND, 0: unused */
	u64 offcore[2];			/* MSR_OFFCORE_RSP_0/1, 0: unused */
	u64 debugctl;			/* bits we set in IA32_DEBUGCTL */
	u64 lbr_select;			/* legacy LBR */
	u64 arch_lbr_ctl;		/* architectural LBR */
	u32 arch_lbr_depth;
	u32 extra_msrs;			/* SKD_RULE_* extra MSRs in use */

	u32 lbr_nr;			/* LBR entries per sample; 0: none */
	bool lbr_from_record;		/* adaptive PEBS carries the LBRs */
	bool lat_split;			/* meminfo latency is two fields */
	u64 pebs_counters;		/* counters sampled by PEBS */
	u64 pmi_counters;		/* counters that interrupt on overflow */
	u64 gp_reserved;		/* GP counters held for the session */

	/* The DS area. */
	u32 pebs_record_size;
	u32 pebs_max_records;		/* records the buffer holds */
	u32 pebs_threshold_records;	/* PMI once this many are written */
	u32 ds_fixed_reset_slot;	/* pebs_event_reset[] of fixed 0 */
	bool large_pebs;		/* several records per PMI */
	bool exact_ip;			/* records carry the eventing IP */
};

/*
 * Plan @req on a PMU with @caps into @plan. 0, or -errno with a sentence
 * in @why naming the event and the reason:
 *   -EINVAL	a field that can never be valid: config bits outside the
 *		event fields, a period of 0, a load-latency event without a
 *		threshold or without PEBS, an extra-MSR value (config1) for
 *		an event that has no extra MSR or with reserved bits set
 *   -EOPNOTSUPP	not on this CPU: unknown flag or branch_sample bits,
 *		PEBS on an event or counter Intel's list gives none, :ppp
 *		without precise distribution, an LBR filter the LBR lacks
 *   -ENOSPC	more events than counters, constraints that cannot all be
 *		met (TakenAlone, extra MSRs with different values)
 *   -ERANGE	a frequency above max_sample_rate
 *   -EPERM	PEBS while page-table isolation is on
 *   -ENODEV	the PMU is not usable
 */
int skd_pmu_plan(const struct skd_pmu_caps *caps,
		 const struct skd_plan_request *req, struct skd_pmu_plan *plan,
		 char *why, size_t whylen);

/* The reset value for @period on a counter of @width bits. */
u64 skd_counter_reset(u64 period, u32 width);

#endif /* _SKD_INTEL_PLAN_H */
