/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `skidless record` needs to sample with a PMU backend: which backend
 * and model (--backend), the events (-e, -c) and the branch stacks (-b,
 * -j, --call-graph lbr), resolved against what the module reports.
 */
#ifndef _SKD_RECORD_PMU_H
#define _SKD_RECORD_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu.h"
#include "pmu_query.h"
#include "skidless.h"

struct record_pmu {
	/* From the command line. */
	const char *backend_arg;	/* --backend, NULL: default */
	const char *event_args[SKD_MAX_EVENTS];
	unsigned int nr_event_args;
	char *bufs[SKD_MAX_EVENTS];	/* -e arguments, split in place */
	unsigned int nr_bufs;
	uint64_t period;		/* -c, 0: none */
	uint32_t branch_sample;		/* -b, -j, --call-graph lbr */
	/* The session's CPUs (-C), PMU_CPU_WORDS words; NULL: all. */
	const uint64_t *cpus;
	/* The session follows a process (-p, or COMMAND without -a/-C). */
	bool follows;
	bool quiet;			/* no note on stderr (said already) */

	/* Resolved. */
	uint32_t backend;		/* enum skd_backend_id */
	uint32_t sim_model;
	struct skd_pmu_info pmu;	/* for PMU backends: the first CPU's */
	struct skd_pmu_caps caps;	/* the planner's view of that PMU */
	struct skd_event_attr events[SKD_MAX_EVENTS];
	char names[SKD_MAX_EVENTS][160];
	unsigned int nr_events;
	uint32_t no_mem_events;		/* bit i: event i has no memory info */
	char pmu_name[48];		/* "timer", "intel:skylake", ... */
	/*
	 * A hybrid part and a followed process without -C: the CPUs of CPU
	 * 0's core type, which the session is then limited to.
	 */
	bool picked;
	uint64_t picked_cpus[PMU_CPU_WORDS];
};

/*
 * Add the events of one -e argument: one spec, or several separated by
 * commas as perf takes them ("cycles:pp,instructions"); commas inside a
 * cpu/.../ term list stay with their event. False after saying why.
 */
bool record_pmu_add_events(struct record_pmu *rp, const char *arg);
/* Free what record_pmu_add_events() kept. */
void record_pmu_free(struct record_pmu *rp);

/* Parse --backend's argument: timer, intel, sim or sim:MODEL. */
bool record_pmu_backend_arg(struct record_pmu *rp, const char *arg);

/*
 * Pick the backend (the module's default, or intel when events are asked
 * for and the default is the timer), ask the module about the PMU of the
 * session's CPUs and turn the -e specs into events. On a hybrid part the
 * CPUs must be of one core type, as the module requires: -C or -a over
 * both is refused; a followed process is sampled on CPU 0's core type
 * (->picked), which is said on stderr. Prints why on failure.
 */
bool record_pmu_resolve(struct record_pmu *rp, int fd,
			const struct skd_info *info);

/*
 * CONFIG refused @cfg: say why in the module's own words, by running its
 * planner (kmod/intel/plan.c) on what GET_PMU reported. False when the
 * planner finds nothing wrong, so the caller falls back to the errno.
 */
bool record_pmu_explain(const struct record_pmu *rp,
			const struct skd_config *cfg);

#endif /* _SKD_RECORD_PMU_H */
