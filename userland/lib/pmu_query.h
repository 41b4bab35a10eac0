/* SPDX-License-Identifier: GPL-2.0 */
/* Asking the module what a PMU backend has (SKD_IOC_GET_PMU). */
#ifndef _SKD_PMU_QUERY_H
#define _SKD_PMU_QUERY_H

#include <stdbool.h>
#include <stdint.h>

#include "skidless.h"

/*
 * Parse "intel", "sim" or "sim:MODEL" into backend and model; false with a
 * message naming the accepted forms.
 */
bool pmu_parse_name(const char *opt, const char *name, uint32_t *backend,
		    uint32_t *sim_model);
/* 0 or -errno. */
int pmu_query(int fd, uint32_t backend, uint32_t sim_model,
	      struct skd_pmu_info *info);
/* The name of sim model @id, or NULL. */
const char *pmu_sim_model_name(uint32_t id);

#endif /* _SKD_PMU_QUERY_H */
