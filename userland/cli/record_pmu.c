// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "explain.h"
#include "models.h"
#include "plan.h"
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

/* The capabilities the planner needs, from what GET_PMU reported. */
static void caps_of(const struct skd_pmu_info *q, struct skd_pmu_caps *caps)
{
	u32 sig = q->cpu_signature;

	memset(caps, 0, sizeof(*caps));
	caps->signature = sig;
	caps->family = ((sig >> 8) & 0xf) + ((sig >> 20) & 0xff);
	caps->model = ((sig >> 4) & 0xf) | ((sig >> 12) & 0xf0);
	caps->version = q->perfmon_version;
	caps->nr_gp = q->nr_gp;
	caps->gp_width = q->gp_width;
	caps->nr_fixed = q->nr_fixed;
	caps->fixed_width = q->fixed_width;
	caps->fixed_mask = q->fixed_mask;
	caps->perf_cap = q->perf_capabilities;
	caps->pebs_fmt = q->pebs_format;
	caps->lbr_fmt = q->lbr_format;
	caps->lbr_nr = q->lbr_depth;
	/* Not reported: assume every arch LBR filter, so only real limits show. */
	caps->arch_lbr_ebx = 0x7;
	caps->flags = q->flags;
	caps->cpu = skd_cpu_model_by_name(q->model_name);
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
	struct skd_pmu_caps caps;
	char why[256];

	if (rp->backend == SKD_BACKEND_TIMER)
		return false;
	if (cfg->flags & SKD_CFG_FREQ)
		req.default_freq = cfg->sample_freq;
	else
		req.default_period = cfg->sample_period;
	caps_of(&rp->pmu, &caps);
	if (!skd_pmu_plan(&caps, &req, &plan, why, sizeof(why)))
		return false;
	fprintf(stderr, "%s: %s\n", PROG_NAME, why);
	return true;
}
