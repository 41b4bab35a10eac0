/* SPDX-License-Identifier: GPL-2.0 */
/* PMU descriptions for host tests and fuzzers (pmu_caps.c). */
#ifndef _SKD_TEST_PMU_CAPS_H
#define _SKD_TEST_PMU_CAPS_H

#include "pmu.h"

/* Skylake server: PEBS format 3, 32 legacy LBRs with LBR_INFO. */
void pmu_caps_skylake(struct skd_pmu_caps *c);
/* Ice Lake: adaptive PEBS format 4, legacy LBR. */
void pmu_caps_icelake(struct skd_pmu_caps *c);
/* Sapphire Rapids: PEBS format 5, architectural LBR. */
void pmu_caps_sapphirerapids(struct skd_pmu_caps *c);
/* Ivy Bridge: PEBS format 1, 16 LBRs, not in skidless's tables. */
void pmu_caps_ivybridge(struct skd_pmu_caps *c);

#endif /* _SKD_TEST_PMU_CAPS_H */
