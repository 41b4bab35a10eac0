// SPDX-License-Identifier: GPL-2.0
/* convert -f pprof: every sample of the capture through pprof_encode.c. */
#include <errno.h>
#include <stdio.h>

#include "pprof_encode.h"
#include "stacks.h"
#include "subcommands.h"
#include "writers.h"

/* Events in the order they first appear: slot of each event index. */
static unsigned int event_slots(struct skd_profile *p, int *slot,
				const char **names)
{
	size_t i, n = skd_profile_nr_samples(p);
	unsigned int e, nslots = 0;
	struct skd_event ev;

	for (e = 0; e < SKD_MAX_EVENTS; e++)
		slot[e] = -1;
	for (i = 0; i < n; i++) {
		skd_profile_sample(p, i, &ev);
		e = ev.sample.rec->event;
		if (e < SKD_MAX_EVENTS && slot[e] < 0) {
			names[nslots] = stacks_event_label(p, e);
			slot[e] = (int)nslots++;
		}
	}
	return nslots;
}

/* Time span of the samples (they are in time order). */
static int64_t duration(struct skd_profile *p)
{
	size_t n = skd_profile_nr_samples(p);
	struct skd_event a, b;

	if (n < 2)
		return 0;
	skd_profile_sample(p, 0, &a);
	skd_profile_sample(p, n - 1, &b);
	return (int64_t)(b.id->time - a.id->time);
}

int write_pprof(struct skd_profile *p, FILE *out, const struct writer_args *a)
{
	struct skd_frame frames[SKD_MAX_CALLCHAIN];
	const char *names[SKD_MAX_EVENTS];
	int slot[SKD_MAX_EVENTS], ret = 0;
	size_t i, n = skd_profile_nr_samples(p);
	unsigned int nf;
	struct skd_event ev;
	struct pprof *pp;
	char comm[16];

	(void)a;
	pp = pprof_new(names, event_slots(p, slot, names));
	for (i = 0; pp && !ret && i < n; i++) {
		skd_profile_sample(p, i, &ev);
		if (ev.sample.rec->event >= SKD_MAX_EVENTS)
			continue;
		nf = stacks_frames(p, &ev, frames);
		ret = pprof_add_sample(pp, (unsigned int)slot[ev.sample.rec->event],
				       ev.id->pid, ev.id->tid,
				       stacks_comm(p, &ev, comm, sizeof(comm)),
				       frames, nf, ev.sample.rec->period);
	}
	if (pp && !ret) {
		pprof_set_duration(pp, duration(p));
		ret = pprof_write(pp, out);
	}
	if (!pp || ret == -ENOMEM)
		fprintf(stderr, "%s: out of memory\n", PROG_NAME);
	else if (ret)
		fprintf(stderr, "%s: writing the compressed profile failed\n",
			PROG_NAME);
	if (pp)
		pprof_free(pp);
	return pp ? ret : -ENOMEM;
}
