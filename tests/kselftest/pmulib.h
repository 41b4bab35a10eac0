/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the PMU backend tests share: sessions on a sim model with events
 * named as on the command line, and the sim's debugfs hooks (MSR file,
 * counters, held counters, page-table isolation).
 */
#ifndef _SKD_PMULIB_H
#define _SKD_PMULIB_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu.h"
#include "testlib.h"

#define SIM_DEBUGFS	"/sys/kernel/debug/skidless-sim"

struct pmu_test {
	bool hw;				/* the real PMU ("hw") */
	uint32_t backend;			/* SKD_BACKEND_SIM or _INTEL */
	uint32_t sim_model;			/* enum skd_sim_model; 0: hw */
	const char *model_name;			/* "skylake", ..., "hw" */
	struct skd_pmu_info pmu;		/* what GET_PMU says of CPU 0 */
	struct skd_pmu_caps caps;		/* the planner's view of it */
	uint64_t cpu_mask;			/* CPUs of CPU 0's core type */
};

/*
 * Resolve argv[1] (a sim model name, or "hw" for the machine's own PMU)
 * and ask the module about it. Ends the test as failed when the module
 * cannot give that model: the VM lane always loads the simulated PMU. With
 * "hw" on a machine without a PMU (no architectural perfmon, or a
 * hypervisor that hides it) the test needs hardware: not run, not
 * skipped (ktap_needs_hardware()).
 */
void pmu_test_init(struct pmu_test *t, int argc, char **argv);

/*
 * A sim session config for @nr events spelled as for -e, each with
 * @period (0: the spec's own). @ev must hold @nr entries and outlive the
 * config. On a hybrid model the session takes CPU 0's core type only
 * (t->cpu_mask). Returns 0, or -errno with a diagnostic naming the spec.
 */
int pmu_config(const struct pmu_test *t, struct skd_config *cfg,
	       struct skd_event_attr *ev, const char *const *specs,
	       unsigned int nr, uint64_t period, uint32_t ring_pages);

/* CONFIG's errno for @cfg on a fresh fd (0 on success), START not run. */
int pmu_config_errno(const struct skd_config *cfg);
/* CONFIG then START on a fresh fd: the first errno (0: it ran, stopped). */
int pmu_start_errno(const struct skd_config *cfg);

/* Cases that need the device model's debugfs run only on a sim model. */
static inline bool pmu_is_sim(const struct pmu_test *t)
{
	return !t->hw;
}

/* The model's counters of one CPU, from cpuN/stats. */
struct sim_stats {
	uint64_t ticks, overflows, records, records_dropped, pmis, pmis_late,
		 pmis_masked, events_skipped, lbr_ticks, lbr_frozen_ticks,
		 uncounted;
};
int sim_stats_read(unsigned int cpu, struct sim_stats *st);

/* The MSR file of one CPU as cpuN/msrs lists it. */
#define SIM_MAX_MSRS	64
struct sim_msrs {
	unsigned int nr;
	uint32_t msr[SIM_MAX_MSRS];
	uint64_t val[SIM_MAX_MSRS];
};
int sim_msrs_read(unsigned int cpu, struct sim_msrs *m);
int sim_msr_write(unsigned int cpu, uint32_t msr, uint64_t val);
/* Value of @msr in @m; false when it is not listed. */
bool sim_msr_get(const struct sim_msrs *m, uint32_t msr, uint64_t *val);

/* Write @text to @path; 0 or -errno. */
int write_text(const char *path, const char *text);
/* Read an unsigned number from @path; 0 or -errno. */
int read_u64(const char *path, uint64_t *val);

/* A branch entry lands on @fn: its target is the function's first byte. */
bool branch_to(const struct skd_branch_entry *e, const void *fn);

#endif /* _SKD_PMULIB_H */
