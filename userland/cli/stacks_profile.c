// SPDX-License-Identifier: GPL-2.0
/* Folded stacks from a loaded capture; the table itself is in stacks.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "stacks.h"
#include "subcommands.h"

const char *stacks_event_label(const struct skd_profile *p, unsigned int index)
{
	const char *name = skd_profile_event_name(p, index);

	/* The timer backend's samples are written as perf's cpu-clock. */
	return name[0] ? name : "cpu-clock";
}

unsigned int stacks_frames(struct skd_profile *p, const struct skd_event *ev,
			   struct skd_frame *frames)
{
	unsigned int j, nf = skd_profile_nr_frames(p, ev);

	if (nf > SKD_MAX_CALLCHAIN)
		nf = SKD_MAX_CALLCHAIN;
	for (j = 0; j < nf; j++)
		skd_profile_frame(p, ev, j, &frames[j]);
	return nf;
}

const char *stacks_comm(const struct skd_profile *p, const struct skd_event *ev,
			char *buf, size_t len)
{
	const char *comm = skd_profile_comm(p, ev->id->pid, ev->id->tid,
					    ev->id->time);

	if (comm)
		return comm;
	if (!ev->id->pid)
		return "swapper";
	snprintf(buf, len, ":%u", ev->id->tid);
	return buf;
}

/* "; events in it: a, b" on stderr, for --event. */
static void print_events(struct skd_profile *p)
{
	bool seen[SKD_MAX_EVENTS] = { false };
	size_t i, n = skd_profile_nr_samples(p);
	const char *sep = "; events in it: ";
	struct skd_event ev;

	for (i = 0; i < n; i++) {
		skd_profile_sample(p, i, &ev);
		if (ev.sample.rec->event >= SKD_MAX_EVENTS ||
		    seen[ev.sample.rec->event])
			continue;
		seen[ev.sample.rec->event] = true;
		fprintf(stderr, "%s%s", sep,
			stacks_event_label(p, ev.sample.rec->event));
		sep = ", ";
	}
}

int stacks_collect(struct skd_profile *p, const char *event, struct stacks *s)
{
	struct skd_frame frames[SKD_MAX_CALLCHAIN];
	size_t i, n = skd_profile_nr_samples(p);
	struct skd_event ev;
	char commbuf[16];
	int ret;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		unsigned int nf;
		const char *evname;

		skd_profile_sample(p, i, &ev);
		evname = stacks_event_label(p, ev.sample.rec->event);
		if (!event)
			event = evname;
		if (strcmp(evname, event)) {
			s->other_events++;
			continue;
		}
		nf = stacks_frames(p, &ev, frames);
		ret = stacks_add(s, stacks_comm(p, &ev, commbuf, sizeof(commbuf)),
				 frames, nf, ev.sample.rec->period);
		if (ret)
			return ret;
	}
	s->event = event;
	if (!s->total_samples) {
		fprintf(stderr, "%s: no samples%s%s in the capture", PROG_NAME,
			event ? " of event " : "", event ? event : "");
		print_events(p);
		fputc('\n', stderr);
		return -ENOENT;
	}
	return 0;
}
