// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "events.h"
#include "explain.h"
#include "plan.h"
#include "pmu_models.h"
#include "pmu_query.h"
#include "record_pmu.h"
#include "subcommands.h"

bool record_pmu_add_events(struct record_pmu *rp, const char *arg)
{
	unsigned int room = SKD_MAX_EVENTS - rp->nr_event_args;
	char *copy;
	int n;

	/* Each -e adds at least one event, so bufs[] cannot run out first. */
	if (!room) {
		fprintf(stderr, "-e %s: at most %d events in a session\n", arg,
			SKD_MAX_EVENTS);
		return false;
	}
	copy = strdup(arg);
	if (!copy) {
		fprintf(stderr, "-e: out of memory\n");
		return false;
	}
	rp->bufs[rp->nr_bufs++] = copy;
	n = skd_event_list_split(copy, rp->event_args + rp->nr_event_args,
				 room);
	if (n == -E2BIG) {
		fprintf(stderr, "-e %s: at most %d events in a session\n", arg,
			SKD_MAX_EVENTS);
		return false;
	}
	if (n < 0) {
		fprintf(stderr, "-e %s: an event name is missing between "
			"commas\n", arg);
		return false;
	}
	rp->nr_event_args += n;
	return true;
}

void record_pmu_free(struct record_pmu *rp)
{
	while (rp->nr_bufs)
		free(rp->bufs[--rp->nr_bufs]);
}

bool record_pmu_backend_arg(struct record_pmu *rp, const char *arg)
{
	rp->backend_arg = arg;
	if (!strcmp(arg, "timer")) {
		rp->backend = SKD_BACKEND_TIMER;
		return true;
	}
	return pmu_parse_name("--backend", arg, &rp->backend, &rp->sim_model);
}

/*
 * A hybrid part samples one core type per session (the module compares
 * every CPU's PMU with the first's): name the CPUs of each type and the
 * -C that picks them.
 */
static void refuse_mixed(const struct record_pmu *rp,
			 const struct pmu_group *groups, unsigned int nr)
{
	char list[256], type[32];
	unsigned int g;

	fprintf(stderr, "%s: the session's CPUs are of %u core types, and a "
		"session samples one (each type has its own PMU and event "
		"list):", PROG_NAME, nr);
	for (g = 0; g < nr; g++) {
		skd_cpulist_format(groups[g].cpus, PMU_CPU_WORDS, list,
				   sizeof(list));
		const char *name = pmu_core_type_name(groups[g].info.core_type,
						      type, sizeof(type));
		bool many = groups[g].nr_cpus > 1;

		fprintf(stderr, "%s CPU%s %s %s %s%s (%s)", g ? ";" : "",
			many ? "s" : "", list,
			many ? "are" : strchr("AEIOU", name[0]) ? "is an" : "is a",
			name, many ? "s" : "",
			groups[g].info.model_name[0] ?
			groups[g].info.model_name : "not in Intel's lists");
	}
	skd_cpulist_format(groups[0].cpus, PMU_CPU_WORDS, list, sizeof(list));
	fprintf(stderr, ". Choose CPUs of one type with -C, e.g. -C %s%s\n",
		list, rp->cpus ? "" : " (-C samples everything those CPUs "
		"run, not one process)");
}

static bool query_pmu(struct record_pmu *rp, int fd)
{
	struct pmu_group groups[PMU_MAX_GROUPS];
	struct skd_pmu_info *q = &rp->pmu;
	int n;

	n = pmu_query_groups(fd, rp->backend, rp->sim_model, rp->cpus, groups,
			     PMU_MAX_GROUPS);
	if (n < 0) {
		fprintf(stderr, "%s: asking the module about its PMU: %s\n",
			PROG_NAME, skd_explain(SKD_OP_INFO, -n));
		return false;
	}
	if (n > 1 && rp->follows && !rp->cpus) {
		/* Like perf's cpu_core events: the process on those cores. */
		char list[256], type[32];

		skd_cpulist_format(groups[0].cpus, PMU_CPU_WORDS, list,
				   sizeof(list));
		if (!rp->quiet)
			fprintf(stderr, "%s: a hybrid part: the process is "
				"sampled while it runs on the %ss (CPUs %s, "
				"%s), not on the other core type; -C picks "
				"CPUs (and samples all they run)\n", PROG_NAME,
				pmu_core_type_name(groups[0].info.core_type,
						   type, sizeof(type)), list,
				groups[0].info.model_name);
		memcpy(rp->picked_cpus, groups[0].cpus,
		       sizeof(rp->picked_cpus));
		rp->picked = true;
		n = 1;
	}
	if (n > 1) {
		refuse_mixed(rp, groups, (unsigned int)n);
		return false;
	}
	/* The module plans with the session's first CPU; so does the command. */
	*q = groups[0].info;
	if (!(q->flags & SKD_PMU_USABLE)) {
		fprintf(stderr, "%s: the %s backend cannot run here: %s; "
			"--backend sim:skylake samples a simulated PMU instead, "
			"and without -e the timer backend needs no PMU\n",
			PROG_NAME, rp->backend == SKD_BACKEND_SIM ? "sim" : "intel",
			q->why);
		return false;
	}
	rp->sim_model = q->sim_model;
	skd_caps_from_info(q, &rp->caps);
	snprintf(rp->pmu_name, sizeof(rp->pmu_name), "%s:%s",
		 rp->backend == SKD_BACKEND_SIM ? "sim" : "intel",
		 q->model_name[0] ? q->model_name : "unknown");
	return true;
}

static bool parse_events(struct record_pmu *rp)
{
	static const char *const default_event = "cycles";
	const char *spec;
	char why[320];
	unsigned int i, n = rp->nr_event_args ? rp->nr_event_args : 1;
	int ret;

	for (i = 0; i < n; i++) {
		struct skd_event_attr *attr = &rp->events[i];

		spec = rp->nr_event_args ? rp->event_args[i] : default_event;
		ret = skd_event_parse(spec, &rp->caps, attr, why, sizeof(why));
		if (ret) {
			size_t n = strlen(spec);

			/* The planner's refusals start with the spec already. */
			if (!strncmp(why, spec, n) && why[n] == ':')
				fprintf(stderr, "-e %s\n", why);
			else
				fprintf(stderr, "-e %s: %s\n", spec, why);
			return false;
		}
		if (why[0])
			fprintf(stderr, "%s: note: %s\n", PROG_NAME, why);
		/* Named as given: -c is the session's, not the event's. */
		skd_event_name(attr, &rp->caps, rp->names[i],
			       sizeof(rp->names[i]));
		if (rp->period && !attr->sample_period) {
			attr->sample_period = rp->period;
			attr->flags &= ~SKD_EV_FREQ;
		}
		if (!skd_event_carries_mem(&rp->caps, attr))
			rp->no_mem_events |= 1U << i;
	}
	rp->nr_events = n;
	return true;
}

bool record_pmu_resolve(struct record_pmu *rp, int fd,
			const struct skd_info *info)
{
	bool want_pmu = rp->nr_event_args || rp->branch_sample || rp->period;

	if (!rp->backend_arg) {
		rp->backend = info->default_backend;
		/* Events need a PMU: the CPU's, unless told otherwise. */
		if (rp->backend == SKD_BACKEND_TIMER && want_pmu)
			rp->backend = SKD_BACKEND_INTEL;
	}
	if (rp->backend == SKD_BACKEND_TIMER) {
		if (want_pmu) {
			fprintf(stderr, "-e, -c, -b and -j need a PMU backend: "
				"--backend intel, or --backend sim:MODEL where "
				"the CPU has no PMU\n");
			return false;
		}
		snprintf(rp->pmu_name, sizeof(rp->pmu_name), "timer");
		return true;
	}
	return query_pmu(rp, fd) && parse_events(rp);
}

bool record_pmu_explain(const struct record_pmu *rp,
			const struct skd_config *cfg)
{
	struct skd_plan_request req = {
		.events = rp->events,
		.nr_events = rp->nr_events,
		.branch_sample = cfg->branch_sample,
		.callchain = cfg->callchain_depth > 0,
		.max_freq = rp->pmu.max_sample_rate,
		.pebs_buffer_bytes = 64 * 1024,
	};
	static struct skd_pmu_plan plan;
	char why[320];

	if (rp->backend == SKD_BACKEND_TIMER)
		return false;
	if (cfg->flags & SKD_CFG_FREQ)
		req.default_freq = cfg->sample_freq;
	else
		req.default_period = cfg->sample_period;
	/* The session's own exclude flags, as the module applies them. */
	if (cfg->flags & SKD_CFG_EXCLUDE_USER)
		req.exclude |= SKD_EV_EXCLUDE_USER;
	if (cfg->flags & SKD_CFG_EXCLUDE_KERNEL)
		req.exclude |= SKD_EV_EXCLUDE_KERNEL;
	if (!skd_pmu_plan(&rp->caps, &req, &plan, why, sizeof(why)))
		return false;
	fprintf(stderr, "%s: %s\n", PROG_NAME, why);
	return true;
}
