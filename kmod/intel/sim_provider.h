/* SPDX-License-Identifier: GPL-2.0 */
/* The simulated PMU's models, while skidless_sim.ko is loaded. */
#ifndef _SKD_INTEL_SIM_PROVIDER_H
#define _SKD_INTEL_SIM_PROVIDER_H

#include <linux/types.h>

struct skd_pmu_ops;

/*
 * The accessors of sim model *@model (0: the provider's default, written
 * back), holding a reference to the provider's module; NULL when no
 * provider is loaded or it has no such model. Process context.
 */
const struct skd_pmu_ops *skd_sim_get(u32 *model);
/* Drop what skd_sim_get() took. */
void skd_sim_put(void);
/* Bit (1 << id) per model the loaded provider has; 0: none. */
u32 skd_sim_models(void);

#endif /* _SKD_INTEL_SIM_PROVIDER_H */
