// SPDX-License-Identifier: GPL-2.0
/*
 * Bytes per SAMPLE record, perf's against ours, for the same samples:
 * reads a perf.data that perf wrote (cpu-clock -g: IP, TID, TIME,
 * CALLCHAIN, PERIOD), turns each sample back into the skidless record
 * the timer backend would deliver (same ip, pid/tid, time, period and
 * call chain), writes those through the real converter and writer into
 * OUT, then counts the SAMPLE records of both files and their bytes.
 *
 *   perfdata_bytes PERF.DATA OUT
 *
 * Prints "perf N BYTES sample_type" and "skidless N BYTES sample_type".
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode.h"
#include "perfdata_conv.h"
#include "perfdata_read.h"
#include "perfdata_write.h"

static _Alignas(8) uint8_t rec[65536];

/* SAMPLE records of @path: how many, how many bytes. */
static int measure(const char *path, uint64_t *n, uint64_t *bytes,
		   uint64_t *st)
{
	const struct pd_header *h;
	struct pd_file f;
	size_t off, bad = 0;
	char err[256];

	if (pd_file_open(path, &f, err, sizeof(err))) {
		fprintf(stderr, "perfdata_bytes: %s: %s\n", path, err);
		return -1;
	}
	*n = *bytes = 0;
	*st = f.sample_type;
	off = f.data_off;
	while ((h = pd_file_next(&f, &off, &bad)))
		if (h->type == PD_REC_SAMPLE) {
			(*n)++;
			*bytes += h->size;
		}
	pd_file_close(&f);
	return 0;
}

/* The skidless record for perf's sample @s; 0 or -1. */
static int to_skd(const struct pd_sample *s, uint16_t misc, struct skd_event *ev)
{
	struct skd_rec_sample *r = (void *)rec;
	struct skd_callchain *cc = (void *)(r + 1);
	uint64_t i, ctx = 0;
	unsigned int nr = 0, nk = 0;

	memset(r, 0, sizeof(*r) + sizeof(*cc));
	r->hdr = (struct skd_rec_header){ SKD_REC_SAMPLE, misc, 0 };
	r->id = (struct skd_rec_id){ s->time, s->cpu, s->pid, s->tid, 0 };
	r->ip = s->ip;
	r->period = s->period;
	r->fields = SKD_SAMPLE_CALLCHAIN;
	for (i = 0; i < s->nr_ips && nr < 1000; i++) {
		if (s->ips[i] >= PD_CONTEXT_MAX) {
			ctx = s->ips[i];
			continue;
		}
		if (ctx == PD_CONTEXT_KERNEL)
			nk++;
		cc->ips[nr++] = s->ips[i];
	}
	cc->nr = (uint16_t)nr;
	cc->nr_kernel = (uint16_t)nk;
	r->hdr.size = (uint16_t)(sizeof(*r) + sizeof(*cc) + 8 * nr);
	return skd_decode(rec, sizeof(rec), ev) < 0 ? -1 : 0;
}

int main(int argc, char *argv[])
{
	struct pd_conv_config cfg = {
		.backend = SKD_BACKEND_TIMER, .cfg_flags = SKD_CFG_FREQ,
		.sample = 1000, .callchain_depth = 127,
	};
	const struct pd_event_spec *specs;
	const struct pd_header *h;
	uint64_t n[2], b[2], st[2];
	struct pd_writer *w;
	struct pd_conv *c;
	struct pd_file f;
	size_t off, bad = 0;
	unsigned int nr;
	char err[256];
	int fd;

	if (argc != 3)
		return 2;
	if (pd_file_open(argv[1], &f, err, sizeof(err))) {
		fprintf(stderr, "perfdata_bytes: %s: %s\n", argv[1], err);
		return 1;
	}
	c = pd_conv_new(&cfg);
	specs = c ? pd_conv_events(c, &nr) : NULL;
	fd = open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0644);
	w = specs && fd >= 0 ? pd_writer_open(fd, false, specs, nr) : NULL;
	if (!w)
		return 1;
	off = f.data_off;
	while ((h = pd_file_next(&f, &off, &bad))) {
		struct skd_event ev;
		struct pd_sample s;
		const struct pd_header *o;
		int e = 0;

		if (h->type != PD_REC_SAMPLE || pd_parse_sample(&f, h, &s) ||
		    to_skd(&s, h->misc, &ev))
			continue;
		o = pd_conv_record(c, &ev, &e);
		if (!o || pd_writer_put(w, o))
			return 1;
	}
	pd_file_close(&f);
	if (pd_writer_close(w, NULL))
		return 1;
	close(fd);
	pd_conv_free(c);
	if (measure(argv[1], &n[0], &b[0], &st[0]) ||
	    measure(argv[2], &n[1], &b[1], &st[1]))
		return 1;
	printf("perf %llu %llu %#llx\n", (unsigned long long)n[0],
	       (unsigned long long)b[0], (unsigned long long)st[0]);
	printf("skidless %llu %llu %#llx\n", (unsigned long long)n[1],
	       (unsigned long long)b[1], (unsigned long long)st[1]);
	return 0;
}
