/* SPDX-License-Identifier: GPL-2.0 */
/* Asking the module what a PMU backend has (SKD_IOC_GET_PMU). */
#ifndef _SKD_PMU_QUERY_H
#define _SKD_PMU_QUERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "skidless.h"

/*
 * Parse "intel", "sim" or "sim:MODEL" into backend and model; false with a
 * message naming the accepted forms.
 */
bool pmu_parse_name(const char *opt, const char *name, uint32_t *backend,
		    uint32_t *sim_model);
/* What the backend has on CPU 0 (uapi version 1 fields): 0 or -errno. */
int pmu_query(int fd, uint32_t backend, uint32_t sim_model,
	      struct skd_pmu_info *info);
/*
 * The same about CPU @cpu, which differs from CPU 0 on hybrid parts.
 * 0 or -errno (-ENXIO: no such CPU, or it is offline for a sim model).
 */
int pmu_query_cpu(int fd, uint32_t backend, uint32_t sim_model, uint32_t cpu,
		  struct skd_pmu_info *info);
/* CPUs a session can name: SKD_CPUMASK_MAX_BYTES of bitmap. */
#define PMU_CPU_WORDS	(SKD_CPUMASK_MAX_BYTES / 8)
#define PMU_MAX_GROUPS	4

/* CPUs whose PMU is the same: one core type of a hybrid part. */
struct pmu_group {
	struct skd_pmu_info info;	/* what its first CPU reported */
	uint64_t cpus[PMU_CPU_WORDS];
	unsigned int nr_cpus;
};

/*
 * Ask about each CPU of @cpus (PMU_CPU_WORDS words; NULL: each online
 * CPU) and group them by core type and event list, in the order of their
 * first CPU: one group, or one per core type on a hybrid part. CPUs the
 * module does not know are left out. A module that cannot be asked about
 * one CPU (uapi version 0) gives one group, CPU 0's PMU. Returns the
 * number of groups, or -errno of the query that failed (-E2BIG: more
 * kinds of CPU than @max).
 */
int pmu_query_groups(int fd, uint32_t backend, uint32_t sim_model,
		     const uint64_t *cpus, struct pmu_group *groups,
		     unsigned int max);

/* "P-core" (0x40, Core), "E-core" (0x20, Atom), or "core type 0xNN". */
const char *pmu_core_type_name(uint32_t core_type, char *buf, size_t len);

/* The name of sim model @id, or NULL. */
const char *pmu_sim_model_name(uint32_t id);

#endif /* _SKD_PMU_QUERY_H */
