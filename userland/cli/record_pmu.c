// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "events.h"
#include "explain.h"
#include "models.h"
#include "pmu_query.h"
#include "record_pmu.h"
#include "subcommands.h"

bool record_pmu_backend_arg(struct record_pmu *rp, const char *arg)
{
	rp->backend_arg = arg;
	if (!strcmp(arg, "timer")) {
		rp->backend = SKD_BACKEND_TIMER;
		return true;
	}
	return pmu_parse_name("--backend", arg, &rp->backend, &rp->sim_model);
}

static bool query_pmu(struct record_pmu *rp, int fd)
{
	struct skd_pmu_info *q = &rp->pmu;
	int ret;

	ret = pmu_query(fd, rp->backend, rp->sim_model, q);
	if (ret) {
		fprintf(stderr, "%s: asking the module about its PMU: %s\n",
			PROG_NAME, skd_explain(SKD_OP_INFO, -ret));
		return false;
	}
	if (!(q->flags & SKD_PMU_USABLE)) {
		fprintf(stderr, "%s: the %s backend cannot run here: %s; "
			"--backend sim:skylake samples a simulated PMU instead, "
			"and without -e the timer backend needs no PMU\n",
			PROG_NAME, rp->backend == SKD_BACKEND_SIM ? "sim" : "intel",
			q->why);
		return false;
	}
	rp->sim_model = q->sim_model;
	rp->model = skd_cpu_model_by_name(q->model_name);
	snprintf(rp->pmu_name, sizeof(rp->pmu_name), "%s:%s",
		 rp->backend == SKD_BACKEND_SIM ? "sim" : "intel",
		 q->model_name[0] ? q->model_name : "unknown");
	return true;
}

static bool parse_events(struct record_pmu *rp)
{
	static const char *const default_event = "cycles";
	const char *spec;
	char why[256];
	unsigned int i, n = rp->nr_event_args ? rp->nr_event_args : 1;
	int ret;

	for (i = 0; i < n; i++) {
		struct skd_event_attr *attr = &rp->events[i];

		spec = rp->nr_event_args ? rp->event_args[i] : default_event;
		ret = skd_event_parse(spec, rp->model, attr, why, sizeof(why));
		if (ret) {
			fprintf(stderr, "-e %s: %s\n", spec, why);
			return false;
		}
		if (why[0])
			fprintf(stderr, "%s: note: %s\n", PROG_NAME, why);
		/* Named as given: -c is the session's, not the event's. */
		skd_event_name(attr, rp->model, rp->names[i],
			       sizeof(rp->names[i]));
		if (rp->period && !attr->sample_period) {
			attr->sample_period = rp->period;
			attr->flags &= ~SKD_EV_FREQ;
		}
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
