// SPDX-License-Identifier: GPL-2.0
/*
 * Feeds event attrs (config1 included), a branch filter and session-wide
 * exclude flags, as SKD_IOC_CONFIG copies them in from any process that
 * may open the device, to kmod/intel/plan.c on the sim models' PMUs,
 * variants of them, and a PMU for each of Intel's event lists: it must
 * refuse with a sentence or plan coherently.
 */
#include <string.h>

#include "event_rules.h"
#include "fuzzlib.h"
#include "models.h"
#include "pebs.h"
#include "plan.h"
#include "pmu_caps.h"

#define PEBS_BUFFER_BYTES	(64 * 1024)	/* intel/backend.c's */
#define MAX_FREQ	100000	/* the module's default max_sample_rate */
#define LDLAT_AUX	0x8203	/* core.c: the mem-loads auxiliary event */

/* IA32_PERFEVTSELx and IA32_FIXED_CTR_CTRL bits (SDM). */
#define EVSEL_USR	(1ULL << 16)
#define EVSEL_OS	(1ULL << 17)
#define EVSEL_INT	(1ULL << 20)
#define FIXED_OS(j)	(1ULL << (4 * (j)))
#define FIXED_USR(j)	(1ULL << (4 * (j) + 1))
#define FIXED_BITS(j)	((0xfULL << (4 * (j))) | (1ULL << (32 + 4 * (j))))

#define NR_VARIANTS	18

/*
 * The host tests' PMUs (tests/unit/pmu_caps.c), variants of them, and
 * then one per Intel list: the sim model of its family with that list.
 * @knob: CPUID.1CH:EBX for the arch LBR variant.
 */
static void caps_of(unsigned int pick, unsigned int knob,
		    struct skd_pmu_caps *c)
{
	const struct skd_event_list *l;
	const struct skd_cpu_model *m;

	pick %= NR_VARIANTS + skd_nr_event_lists;
	switch (pick) {
	case 0:	/* Skylake server: PEBS format 3, legacy LBR */
	case 4:	/* ... without full-width writes */
	case 5:	/* ... with page-table isolation */
	case 6:	/* ... in a guest without PEBS */
	case 7:	/* ... with PEBS format 1 */
	case 10: /* ... with TSX force-abort off */
	case 16: /* ... with PEBS format 2 */
		pmu_caps_skylake(c);
		if (pick == 4)
			c->flags &= ~SKD_PMU_FW_WRITES;
		if (pick == 5)
			c->flags |= SKD_PMU_PTI;
		if (pick == 6) {
			c->pebs_fmt = 0;
			c->flags &= ~(SKD_PMU_PEBS | SKD_PMU_PEBS_TRAP);
			c->flags |= SKD_PMU_HYPERVISOR;
		}
		if (pick == 7)
			c->pebs_fmt = 1;
		if (pick == 10)
			c->flags |= SKD_PMU_TFA;
		if (pick == 16)
			c->pebs_fmt = 2;
		return;
	case 11: /* ... with hyper-threading off: 8 GP */
		pmu_caps_skylake_htoff(c);
		return;
	case 1:	/* Ice Lake: adaptive PEBS format 4 */
	case 9:	/* ... without LBR */
	case 14: /* ... without PEBS baseline */
	case 17: /* ... in a guest that hides fixed counter 3 */
		pmu_caps_icelake(c);
		if (pick == 9) {
			c->lbr_nr = 0;
			c->lbr_fmt = 0;
			c->flags &= ~SKD_PMU_LBR;
		}
		if (pick == 14)
			c->flags &= ~SKD_PMU_PEBS_BASELINE;
		if (pick == 17) {
			c->fixed_mask = 0x7;
			c->nr_fixed = 3;
		}
		return;
	case 2:	/* Sapphire Rapids: PEBS format 5, arch LBR */
	case 8:	/* ... whose arch LBR filters nothing */
	case 15: /* ... whose arch LBR has some of the filters */
		pmu_caps_sapphirerapids(c);
		if (pick == 8)
			c->arch_lbr_ebx = 0;
		if (pick == 15)
			c->arch_lbr_ebx = knob & 7;
		return;
	case 3:	/* Ivy Bridge: PEBS format 1, not in the lists */
		pmu_caps_ivybridge(c);
		return;
	case 12: /* Alder Lake P-core */
		pmu_caps_alderlake_p(c);
		return;
	case 13: /* Alder Lake E-core */
		pmu_caps_alderlake_e(c);
		return;
	}
	l = &skd_event_lists[pick - NR_VARIANTS];
	m = skd_cpu_model_of(l);
	FUZZ_CHECK(m);
	if (m->flags & SKD_MODEL_PEBS_GP0_3) {
		if (knob & 8)
			pmu_caps_skylake_htoff(c);
		else
			pmu_caps_skylake(c);
	} else if (m->lbr_nr) {
		pmu_caps_icelake(c);
	} else if (!m->frontend[0].mask) {	/* Gracemont */
		pmu_caps_alderlake_e(c);
	} else {
		pmu_caps_sapphirerapids(c);
	}
	c->events = l;
	c->cpu = m;
}

static u64 width_mask(u32 width)
{
	return width >= 64 ? ~0ULL : (1ULL << width) - 1;
}

/* The counters an event may take by its rule: slots of event_rules.h. */
static u16 rule_slots(const struct skd_pmu_caps *c, u32 config)
{
	const struct skd_event_rule *r = skd_event_rule_find(c->events, config);
	int alias = skd_fixed_alias(config);
	u16 slots;

	if (r)
		slots = c->nr_gp > 4 ? r->counters_htoff : r->counters;
	else
		slots = SKD_SLOTS_GP;
	if (alias >= 0)
		slots |= SKD_SLOT_FIXED(alias);
	return slots;
}

static u16 idx_slot(u32 idx)
{
	return SKD_IDX_IS_FIXED(idx) ? SKD_SLOT_FIXED(idx - SKD_IDX_FIXED(0)) :
				       SKD_SLOT_GP(idx);
}

/* What a plan promises the programming code and the PMI. */
static void check_plan(const struct skd_pmu_caps *c,
		       const struct skd_plan_request *req,
		       const struct skd_pmu_plan *plan)
{
	bool adaptive = (c->flags & SKD_PMU_PEBS_BASELINE) && c->pebs_fmt >= 4;
	bool fw = c->flags & SKD_PMU_FW_WRITES;
	u32 excl = req->exclude & (SKD_EV_EXCLUDE_USER | SKD_EV_EXCLUDE_KERNEL);
	unsigned int nr = req->nr_events, i, j;
	u64 used = 0, fixed_bits = 0, bit, config1s = 0;
	bool alone = false;

	/* The load-latency auxiliary event, where the model needs it. */
	FUZZ_CHECK(plan->nr == nr || plan->nr == nr + 1);
	if (plan->nr == nr + 1) {
		const struct skd_planned_event *aux = &plan->ev[nr];

		FUZZ_CHECK(c->cpu && (c->cpu->flags & SKD_MODEL_LDLAT_AUX));
		FUZZ_CHECK(plan->ld_lat);
		FUZZ_CHECK(aux->flags == SKD_PLAN_AUX);
		FUZZ_CHECK(aux->config == LDLAT_AUX && !aux->config1);
		FUZZ_CHECK(aux->event == SKD_PLAN_NO_EVENT);
		FUZZ_CHECK(!SKD_IDX_IS_FIXED(aux->idx));
		FUZZ_CHECK(!(plan->eventsel[aux->idx] & EVSEL_INT));
	} else if (c->cpu && (c->cpu->flags & SKD_MODEL_LDLAT_AUX)) {
		FUZZ_CHECK(!plan->ld_lat);
	}

	FUZZ_CHECK(plan->pmc_base == (fw ? 0x4c1 : 0xc1));
	FUZZ_CHECK(plan->gp_reserved == (1ULL << c->nr_gp) - 1);
	for (i = 0; i < plan->nr; i++) {
		const struct skd_planned_event *ev = &plan->ev[i];
		bool fixed = SKD_IDX_IS_FIXED(ev->idx), aux = i >= nr;
		u32 width = fixed ? c->fixed_width : c->gp_width;
		u64 max = width_mask(width) >> 1;
		const struct skd_event_rule *r;

		if (!fw && max > 0x7fffffff)
			max = 0x7fffffff;
		/* A frequency the throttle would always defeat is refused. */
		FUZZ_CHECK(ev->freq <= MAX_FREQ);

		if (fixed) {
			j = ev->idx - SKD_IDX_FIXED(0);
			FUZZ_CHECK(j < c->nr_fixed && (c->fixed_mask & BIT(j)));
			fixed_bits |= FIXED_BITS(j);
			FUZZ_CHECK(!(excl & SKD_EV_EXCLUDE_USER) ||
				   !(plan->fixed_ctrl & FIXED_USR(j)));
			FUZZ_CHECK(!(excl & SKD_EV_EXCLUDE_KERNEL) ||
				   !(plan->fixed_ctrl & FIXED_OS(j)));
		} else {
			u64 sel = plan->eventsel[ev->idx];

			FUZZ_CHECK(ev->idx < c->nr_gp);
			FUZZ_CHECK(sel & ARCH_PERFMON_EVENTSEL_ENABLE);
			FUZZ_CHECK((sel & 0xffffffffULL & ~(EVSEL_USR |
				   EVSEL_OS | EVSEL_INT | ARCH_PERFMON_EVENTSEL_ENABLE)) ==
				   ev->config);
			FUZZ_CHECK(!(excl & SKD_EV_EXCLUDE_USER) ||
				   !(sel & EVSEL_USR));
			FUZZ_CHECK(!(excl & SKD_EV_EXCLUDE_KERNEL) ||
				   !(sel & EVSEL_OS));
			FUZZ_CHECK(sel & (EVSEL_USR | EVSEL_OS));
			/* TSX force-abort off: counter 3 is TSX's. */
			FUZZ_CHECK(!(c->flags & SKD_PMU_TFA) || ev->idx != 3);
		}
		bit = BIT_ULL(ev->idx);
		FUZZ_CHECK(!(used & bit));
		used |= bit;
		FUZZ_CHECK(ev->event == (aux ? SKD_PLAN_NO_EVENT : i));
		FUZZ_CHECK(ev->precise <= 3);
		FUZZ_CHECK(ev->period >= 2 && ev->period <= ev->max_period);
		FUZZ_CHECK(ev->max_period == max);
		FUZZ_CHECK(ev->reset == skd_counter_reset(ev->period, width));
		FUZZ_CHECK(!!(ev->flags & SKD_PLAN_PEBS) ==
			   !!(plan->pebs_counters & bit));
		FUZZ_CHECK(!!(ev->flags & SKD_PLAN_PEBS) == (ev->precise > 0));
		if (ev->precise == 3 && c->cpu &&
		    (c->cpu->flags & SKD_MODEL_PDIST_MIN128))
			FUZZ_CHECK(ev->period >= 128);
		if (aux)
			continue;

		/* Where Intel's list lets it count, or any GP counter. */
		FUZZ_CHECK(ev->config == req->events[i].config ||
			   (ev->config & ~0xffffULL) ==
			   (req->events[i].config & ~0xffffULL));
		if (c->events)
			FUZZ_CHECK(rule_slots(c, (u32)ev->config) &
				   idx_slot(ev->idx));
		r = skd_event_rule_find(c->events, (u32)ev->config);
		if (r && (r->flags & SKD_RULE_TAKEN_ALONE))
			alone = true;
		/* config1 is the value of the event's own extra MSR. */
		FUZZ_CHECK(ev->config1 == req->events[i].config1);
		if (ev->config1) {
			FUZZ_CHECK(ev->config1 == plan->frontend ||
				   ev->config1 == plan->offcore[0] ||
				   ev->config1 == plan->offcore[1]);
			config1s++;
		}
	}
	for (i = 0; i < SKD_MAX_GP; i++)
		FUZZ_CHECK(!plan->eventsel[i] == !(used & BIT_ULL(i)));
	FUZZ_CHECK(plan->global_ctrl == used);
	FUZZ_CHECK(plan->fixed_ctrl_mask == fixed_bits);
	FUZZ_CHECK(!(plan->fixed_ctrl & ~plan->fixed_ctrl_mask));
	FUZZ_CHECK((plan->pebs_counters | plan->pmi_counters) ==
		   (used & ~(plan->nr > nr ? BIT_ULL(plan->ev[nr].idx) : 0)));
	FUZZ_CHECK(!(plan->pebs_counters & plan->pmi_counters));
	/* PEBS: GP 0-3 on the Skylake family, fixed only with baseline. */
	if (c->cpu && (c->cpu->flags & SKD_MODEL_PEBS_GP0_3))
		FUZZ_CHECK(!(plan->pebs_counters & ~0xfULL));
	if (!adaptive)
		FUZZ_CHECK(!(plan->pebs_counters & ~0xffULL));
	/* TakenAlone: nothing else on a GP counter but the aux event. */
	if (alone)
		for (i = 0; i < nr; i++)
			for (j = i + 1; j < nr; j++)
				FUZZ_CHECK(SKD_IDX_IS_FIXED(plan->ev[i].idx) ||
					   SKD_IDX_IS_FIXED(plan->ev[j].idx));
	/* An extra MSR in use is named, and one not in use is 0. */
	FUZZ_CHECK(!!plan->offcore[0] ==
		   !!(plan->extra_msrs & SKD_RULE_OFFCORE));
	FUZZ_CHECK(!!plan->offcore[1] ==
		   !!(plan->extra_msrs & SKD_RULE_OFFCORE1));
	FUZZ_CHECK(!!plan->frontend ==
		   !!(plan->extra_msrs & SKD_RULE_FRONTEND));
	FUZZ_CHECK(!!plan->ld_lat == !!(plan->extra_msrs & SKD_RULE_LDLAT));
	FUZZ_CHECK(!config1s || (plan->extra_msrs &
				 (SKD_RULE_FRONTEND | SKD_RULE_OFFCORE |
				  SKD_RULE_OFFCORE1)));
	FUZZ_CHECK(plan->lbr_nr <= SKD_MAX_LBR);
	FUZZ_CHECK(!req->branch_sample || plan->lbr_nr);
	if (!plan->pebs_counters)
		return;
	/* The drain walks records of exactly the size the decoder sees. */
	FUZZ_CHECK(plan->pebs_record_size ==
		   skd_pebs_record_size(c->pebs_fmt, adaptive,
					plan->pebs_data_cfg));
	FUZZ_CHECK(plan->pebs_max_records &&
		   (u64)plan->pebs_max_records * plan->pebs_record_size <=
		   PEBS_BUFFER_BYTES);
	FUZZ_CHECK(plan->pebs_threshold_records >= 1 &&
		   plan->pebs_threshold_records <= plan->pebs_max_records);
	FUZZ_CHECK(plan->lat_split ==
		   (c->cpu && (c->cpu->flags & SKD_MODEL_LAT_SPLIT)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Input: u8 PMU (low bits) | 0x40 call chains | 0x80 frequency mode,
 * u16 branch_sample, u8 the session's exclude flags (any bits) and in
 * its high nibble a knob for the PMU, u64 the session's period or
 * frequency, then struct skd_event_attr after struct skd_event_attr.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int opts = (unsigned int)fuzz_take(&data, &size, 1);
	struct skd_plan_request req = {
		.branch_sample = (u32)fuzz_take(&data, &size, 2) &
				 __SKD_BRANCH_ALL,
		.callchain = opts & 0x40,
		.max_freq = MAX_FREQ,
		.pebs_buffer_bytes = PEBS_BUFFER_BYTES,
	};
	unsigned int knob = (unsigned int)fuzz_take(&data, &size, 1);
	u64 deflt = fuzz_take(&data, &size, 8);
	struct skd_event_attr *events;
	struct skd_pmu_plan plan;
	struct skd_pmu_caps caps;
	unsigned int nr, i;
	char why[160];
	int ret;

	req.exclude = knob & 0x0f;
	nr = size / sizeof(*events);
	if (!nr || nr > SKD_MAX_EVENTS)
		return 0;
	/* As copy_events() leaves them: exactly nr, each sized. */
	events = malloc(nr * sizeof(*events));
	FUZZ_CHECK(events);
	memcpy(events, data, nr * sizeof(*events));
	for (i = 0; i < nr; i++)
		events[i].size = sizeof(*events);
	req.events = events;
	req.nr_events = nr;
	if (opts & 0x80)
		req.default_freq = deflt;
	else
		req.default_period = deflt;

	caps_of(opts & 0x3f, knob >> 4, &caps);
	memset(why, 'x', sizeof(why));
	ret = skd_pmu_plan(&caps, &req, &plan, why, sizeof(why));
	FUZZ_CHECK(memchr(why, '\0', sizeof(why)));
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL || ret == -EOPNOTSUPP ||
			   ret == -ENOSPC || ret == -EPERM || ret == -ERANGE);
		FUZZ_CHECK(why[0]);
	} else {
		FUZZ_CHECK(!why[0]);
		check_plan(&caps, &req, &plan);
	}
	free(events);
	return 0;
}
