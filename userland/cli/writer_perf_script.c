// SPDX-License-Identifier: GPL-2.0
/*
 * perf script's default layout for samples with call chains, which
 * FlameGraph's stackcollapse-perf.pl and other perf consumers parse:
 *
 *   comm pid/tid [cpu] secs.usecs: period event:
 *   \t        addr sym+0xoff (/full/path)
 *   ...
 *   (blank line)
 *
 * The comm starts the line (the script wants no leading blank); frames
 * leaf first; an unnamed frame is "[unknown]" as perf prints it. As perf
 * does, a frame in an object shows the address in the object's own terms
 * (what addr2line takes: stackcollapse-perf.pl --inline runs it).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "stacks.h"
#include "writers.h"

static void sample(struct skd_profile *p, const struct skd_event *ev,
		   void *arg)
{
	unsigned int i, n = skd_profile_nr_frames(p, ev);
	FILE *out = arg;
	struct skd_frame f;
	char comm[16];

	fprintf(out, "%s %u/%u [%03u] %" PRIu64 ".%06" PRIu64 ": %" PRIu64
		" %s: \n", stacks_comm(p, ev, comm, sizeof(comm)), ev->id->pid,
		ev->id->tid, ev->id->cpu, (uint64_t)ev->id->time / 1000000000,
		(uint64_t)ev->id->time % 1000000000 / 1000,
		(uint64_t)ev->sample.rec->period,
		stacks_event_label(p, ev->sample.rec->event));
	for (i = 0; i < n; i++) {
		skd_profile_frame(p, ev, i, &f);
		/* As perf: a user frame's address in its object's terms. */
		fprintf(out, "\t%16" PRIx64 " ", f.obj_addr ? f.obj_addr : f.ip);
		if (f.sym)
			fprintf(out, "%s+0x%" PRIx64, f.sym, f.off);
		else
			fputs("[unknown]", out);
		fprintf(out, " (%s)\n", f.path && f.path[0] ? f.path : f.dso);
	}
	fputc('\n', out);
}

int write_perf_script(struct skd_profile *p, FILE *out,
		      const struct writer_args *a)
{
	(void)a;
	skd_profile_walk(p, false, sample, out);
	return ferror(out) ? -EIO : 0;
}
