/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_INTEL_HW_H
#define _SKD_INTEL_HW_H

#include "pmu.h"

/* The CPU's own PMU. */
extern const struct skd_pmu_ops skd_hw_ops;

/* Detect every CPU as it is online (at load and later); forget at unload. */
int skd_hw_detect(void);
void skd_hw_forget(void);
/* What @cpu has; a CPU never online since load gets CPU 0's answer. */
/* A copy of what detection found on @cpu (CPU 0's if never online). */
void skd_hw_caps(unsigned int cpu, struct skd_pmu_caps *caps);

#endif /* _SKD_INTEL_HW_H */
