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
 * leaf first; an unnamed frame is "[unknown]" as perf prints it, and a
 * frame's address is the one perf prints (relative to its file).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "stacks.h"
#include "writers.h"

/*
 * As perf shows a call chain's address: in a file-backed mapping (or the
 * vdso) relative to the file, ip - start + offset, whatever the object's
 * type; elsewhere (kernel, anonymous code, unmapped) the ip itself.
 */
static uint64_t shown_addr(const struct skd_frame *f)
{
	if (f->kernel || f->map_end <= f->map_start || !f->path ||
	    (f->path[0] != '/' && strcmp(f->path, "[vdso]")))
		return f->ip;
	return f->ip - f->map_start + f->map_pgoff;
}

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
		fprintf(out, "\t%16" PRIx64 " ", shown_addr(&f));
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
