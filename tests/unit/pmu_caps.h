/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PMU descriptions for host tests and fuzzers (pmu_caps.c): the simulated
 * PMU's CPUs, each with its Intel event list ("skylakex", ...).
 */
#ifndef _SKD_TEST_PMU_CAPS_H
#define _SKD_TEST_PMU_CAPS_H

#include "pmu.h"

/* Skylake server ("skylakex"), 4 GP: PEBS format 3, 32 LBRs with INFO. */
void pmu_caps_skylake(struct skd_pmu_caps *c);
/* The same part with hyper-threading off: 8 GP counters. */
void pmu_caps_skylake_htoff(struct skd_pmu_caps *c);
/* Ice Lake server ("icelakex"): adaptive PEBS format 4, legacy LBR. */
void pmu_caps_icelake(struct skd_pmu_caps *c);
/* Sapphire Rapids: adaptive PEBS format 5, architectural LBR. */
void pmu_caps_sapphirerapids(struct skd_pmu_caps *c);
/* Alder Lake P-core ("alderlake_goldencove"): 8 GP, fixed 0-3, arch LBR. */
void pmu_caps_alderlake_p(struct skd_pmu_caps *c);
/* Alder Lake E-core ("alderlake_gracemont"): 6 GP, fixed 0-2, arch LBR. */
void pmu_caps_alderlake_e(struct skd_pmu_caps *c);
/* Ivy Bridge: PEBS format 1, 16 LBRs, in none of skidless's lists. */
void pmu_caps_ivybridge(struct skd_pmu_caps *c);

#endif /* _SKD_TEST_PMU_CAPS_H */
