// SPDX-License-Identifier: GPL-2.0
/* convert -f jsonl: every sample, in time order, through jsonl_encode.c. */
#include <errno.h>
#include <stdio.h>

#include "jsonl_encode.h"
#include "stacks.h"
#include "subcommands.h"
#include "writers.h"

struct jsonl {
	FILE *out;
	struct skd_profile *p;
	const struct skd_event *ev;	/* the sample being written */
	int err;
};

static void name(void *ctx, uint64_t addr, struct skd_frame *f)
{
	const struct jsonl *j = ctx;

	skd_profile_addr(j->p, j->ev, addr, f);
}

static void sample(struct skd_profile *p, const struct skd_event *ev,
		   void *arg)
{
	struct skd_frame frames[SKD_MAX_CALLCHAIN];
	struct jsonl *j = arg;
	char comm[16];
	struct jsonl_sample s = {
		.time = ev->id->time, .period = ev->sample.rec->period,
		.ip = ev->sample.rec->ip, .cpu = ev->id->cpu,
		.pid = ev->id->pid, .tid = ev->id->tid, .misc = ev->misc,
		.comm = stacks_comm(p, ev, comm, sizeof(comm)),
		.event = stacks_event_label(p, ev->sample.rec->event),
		.frames = frames, .mem = ev->sample.mem,
		.branches = ev->sample.branches,
		.nr_branches = ev->sample.nr_branches,
		.name = name, .ctx = j,
	};
	unsigned int i;

	if (j->err)
		return;
	s.nr_frames = skd_profile_nr_frames(p, ev);
	if (s.nr_frames > SKD_MAX_CALLCHAIN)
		s.nr_frames = SKD_MAX_CALLCHAIN;
	for (i = 0; i < s.nr_frames; i++)
		skd_profile_frame(p, ev, i, &frames[i]);
	j->ev = ev;
	j->err = jsonl_write_sample(j->out, &s);
}

int write_jsonl(struct skd_profile *p, FILE *out, const struct writer_args *a)
{
	struct jsonl j = { .out = out, .p = p };

	(void)a;
	skd_profile_walk(p, false, sample, &j);
	if (j.err == -ENOMEM)
		fprintf(stderr, "%s: out of memory\n", PROG_NAME);
	return j.err ? j.err : ferror(out) ? -EIO : 0;
}
