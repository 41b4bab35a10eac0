// SPDX-License-Identifier: GPL-2.0
/*
 * Feeds event attrs and a branch filter, as SKD_IOC_CONFIG copies them in
 * from any process that may open the device, to kmod/intel/plan.c on the
 * sim models' PMUs: it must refuse with a sentence or plan coherently.
 */
#include <string.h>

#include "fuzzlib.h"
#include "models.h"
#include "pebs.h"
#include "plan.h"
#include "pmu_caps.h"

#define PEBS_BUFFER_BYTES	(64 * 1024)	/* intel/backend.c's */

/* The host tests' PMUs (tests/unit/pmu_caps.c), and variants of them. */
static void caps_of(unsigned int pick, struct skd_pmu_caps *c)
{
	switch (pick % 10) {
	case 0:	/* Skylake server: PEBS format 3, legacy LBR */
	case 4:	/* ... without full-width writes */
	case 5:	/* ... with page-table isolation */
	case 6:	/* ... in a guest without PEBS */
	case 7:	/* ... with PEBS format 1 */
		pmu_caps_skylake(c);
		if (pick % 10 == 4)
			c->flags &= ~SKD_PMU_FW_WRITES;
		if (pick % 10 == 5)
			c->flags |= SKD_PMU_PTI;
		if (pick % 10 == 6) {
			c->pebs_fmt = 0;
			c->flags &= ~(SKD_PMU_PEBS | SKD_PMU_PEBS_TRAP);
			c->flags |= SKD_PMU_HYPERVISOR;
		}
		if (pick % 10 == 7)
			c->pebs_fmt = 1;
		break;
	case 1:	/* Ice Lake: adaptive PEBS format 4 */
	case 9:	/* ... without LBR */
		pmu_caps_icelake(c);
		if (pick % 10 == 9) {
			c->lbr_nr = 0;
			c->lbr_fmt = 0;
			c->flags &= ~SKD_PMU_LBR;
		}
		break;
	case 2:	/* Sapphire Rapids: PEBS format 5, arch LBR */
	case 8:	/* ... whose arch LBR filters nothing */
		pmu_caps_sapphirerapids(c);
		if (pick % 10 == 8)
			c->arch_lbr_ebx = 0;
		break;
	case 3:	/* Ivy Bridge: PEBS format 1, not in the tables */
		pmu_caps_ivybridge(c);
		break;
	}
}

#define MAX_FREQ	100000	/* the module's default max_sample_rate */

/* What a plan promises the programming code and the PMI. */
static void check_plan(const struct skd_pmu_caps *c,
		       const struct skd_pmu_plan *plan, unsigned int nr)
{
	bool adaptive = (c->flags & SKD_PMU_PEBS_BASELINE) && c->pebs_fmt >= 4;
	u64 used = 0, bit;
	unsigned int i, j;

	FUZZ_CHECK(plan->nr == nr);
	for (i = 0; i < nr; i++) {
		const struct skd_planned_event *ev = &plan->ev[i];
		bool fixed = SKD_IDX_IS_FIXED(ev->idx);
		u32 width = fixed ? c->fixed_width : c->gp_width;

		/* A frequency the throttle would always defeat is refused. */
		FUZZ_CHECK(ev->freq <= MAX_FREQ);

		if (fixed) {
			j = ev->idx - SKD_IDX_FIXED(0);
			FUZZ_CHECK(j < c->nr_fixed && (c->fixed_mask & BIT(j)));
		} else {
			FUZZ_CHECK(ev->idx < c->nr_gp);
			FUZZ_CHECK(plan->eventsel[ev->idx] & SKD_EVSEL_EN);
		}
		bit = BIT_ULL(ev->idx);
		FUZZ_CHECK(!(used & bit));
		used |= bit;
		FUZZ_CHECK(ev->event == i && ev->precise <= 3);
		FUZZ_CHECK(ev->period >= 2);
		FUZZ_CHECK(ev->reset == skd_counter_reset(ev->period, width));
		FUZZ_CHECK(!!(ev->flags & SKD_PLAN_PEBS) ==
			   !!(plan->pebs_counters & bit));
	}
	for (i = 0; i < SKD_MAX_GP; i++)
		FUZZ_CHECK(!plan->eventsel[i] == !(used & BIT_ULL(i)));
	FUZZ_CHECK(plan->global_ctrl == used);
	FUZZ_CHECK((plan->pebs_counters | plan->pmi_counters) == used);
	FUZZ_CHECK(!(plan->pebs_counters & plan->pmi_counters));
	FUZZ_CHECK(plan->lbr_nr <= SKD_MAX_LBR);
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
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Input: u8 PMU (low bits) | 0x40 call chains | 0x80 frequency mode,
 * u16 branch_sample, u64 the session's period or frequency, then
 * struct skd_event_attr after struct skd_event_attr.
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
	u64 deflt = fuzz_take(&data, &size, 8);
	struct skd_event_attr *events;
	struct skd_pmu_plan plan;
	struct skd_pmu_caps caps;
	unsigned int nr, i;
	char why[160];
	int ret;

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

	caps_of(opts & 0x3f, &caps);
	memset(why, 'x', sizeof(why));
	ret = skd_pmu_plan(&caps, &req, &plan, why, sizeof(why));
	FUZZ_CHECK(memchr(why, '\0', sizeof(why)));
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL || ret == -EOPNOTSUPP ||
			   ret == -ENOSPC || ret == -EPERM || ret == -ERANGE);
		FUZZ_CHECK(why[0]);
	} else {
		FUZZ_CHECK(!why[0]);
		check_plan(&caps, &plan, nr);
	}
	free(events);
	return 0;
}
