// SPDX-License-Identifier: GPL-2.0
/*
 * A one-line description of this CPU's PMU, or of why there is none
 * skidless could use, from what detection found at load.
 */
#include <linux/kernel.h>

#include "intel/hw.h"
#include "intel/event_rules.h"
#include "pmu_info.h"

void skd_pmu_describe(char *buf, size_t len)
{
	struct skd_pmu_caps caps, *c = &caps;

	skd_hw_caps(0, &caps);

	if (!(c->flags & SKD_PMU_USABLE)) {
		snprintf(buf, len, "none: %s", c->why);
		return;
	}
	snprintf(buf, len,
		 "%s (family %u model 0x%x): perfmon v%u, %u+%u counters, PEBS %s%u%s, %s %u%s",
		 c->events ? c->events->name : "Intel", c->family, c->model,
		 c->version, c->nr_gp, c->nr_fixed,
		 c->flags & SKD_PMU_PEBS ? "format " : "none",
		 c->flags & SKD_PMU_PEBS ? c->pebs_fmt : 0,
		 c->flags & SKD_PMU_PEBS_BASELINE ? " adaptive" : "",
		 c->flags & SKD_PMU_ARCH_LBR ? "arch LBR" : "LBR", c->lbr_nr,
		 c->flags & SKD_PMU_PTI ? "; page-table isolation on: no PEBS" : "");
}
