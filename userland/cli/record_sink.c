// SPDX-License-Identifier: GPL-2.0
#include "decode.h"
#include "record_ksyms.h"
#include "record_output.h"
#include "record_sink.h"

/* Kernel frames, and kernel branch sources and targets, get names. */
static void note_kernel(struct ksym_hits *kh, const struct skd_event *ev)
{
	unsigned int i;

	if (!ev->sample.ips) {
		if (skd_is_kernel_addr(ev->sample.rec->ip))
			ksym_hits_add(kh, ev->sample.rec->ip);
	}
	for (i = 0; ev->sample.ips && i < ev->sample.nr_kernel; i++)
		ksym_hits_add(kh, ev->sample.ips[i]);
	for (i = 0; i < ev->sample.nr_branches; i++) {
		uint64_t from = ev->sample.branches[i].from;
		uint64_t to = ev->sample.branches[i].to;

		if (from && skd_is_kernel_addr(from))
			ksym_hits_add(kh, from);
		if (to && skd_is_kernel_addr(to))
			ksym_hits_add(kh, to);
	}
}

void record_sink_put(struct record_sink *s, const struct skd_rec_header *h)
{
	struct skd_event ev;

	if (skd_decode(h, h->size, &ev) < 0) {
		s->malformed++;
		return;
	}
	s->records++;
	switch (ev.type) {
	case SKD_REC_SAMPLE:
		s->samples++;
		if (s->khits)
			note_kernel(s->khits, &ev);
		break;
	case SKD_REC_LOST:
		s->lost_reported += ev.lost->lost;
		break;
	case SKD_REC_THROTTLE:
		s->throttled++;
		break;
	}
	record_output_put(s->out, h, &ev);
}
