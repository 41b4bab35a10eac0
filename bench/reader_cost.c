// SPDX-License-Identifier: GPL-2.0
/*
 * The reader's cost per sample, from the ring to perf.data: `skidless
 * record`'s per-record path (userland/cli/record_sink.c, as cmd_record.c
 * calls it for every record it drains, and record_output.c behind it)
 * fed timer samples with a 3-frame kernel and 6-frame user call chain in
 * a process with an executable and two libraries mapped, written to a
 * perf.data file in a scratch directory.
 *
 * Run under callgrind by bench/reader_cost.sh: the program marks the
 * measured loop with two calls to marker(), whose inclusive cost is read
 * off callgrind's output, and copies the same records with memcpy() as
 * the peer measured in the same run.
 *
 *   reader_cost NSAMPLES MODE DIR		MODE: record | memcpy
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "record_output.h"
#include "record_pmu.h"
#include "record_sink.h"
#include "skidless.h"

#define PID		4242
#define KFRAMES		3
#define UFRAMES		6

struct krec {
	_Alignas(8) uint8_t b[512];
};

static struct skd_config cfg;
static struct record_pmu pmu;

static void id_fill(struct skd_rec_id *id, uint64_t time)
{
	id->time = time;
	id->cpu = 0;
	id->pid = PID;
	id->tid = PID;
}

static void mk_mmap(struct krec *r, uint64_t start, uint64_t len,
		    const char *path)
{
	struct skd_rec_mmap *m = (void *)r->b;
	size_t n = strlen(path) + 1;

	memset(r, 0, sizeof(*r));
	m->hdr.type = SKD_REC_MMAP;
	m->hdr.size = (uint16_t)(sizeof(*m) + ((n + 7) & ~(size_t)7));
	id_fill(&m->id, 1);
	m->start = start;
	m->len = len;
	m->prot = PROT_READ | PROT_EXEC;
	m->flags = MAP_PRIVATE;
	memcpy(m->path, path, n);
}

/* A timer sample: the kernel frames, then the user ones (main at the root). */
static void mk_sample(struct krec *r, uint64_t time, unsigned int i)
{
	struct skd_rec_sample *s = (void *)r->b;
	struct skd_callchain *cc = (void *)(s + 1);
	unsigned int k;

	memset(r, 0, sizeof(*r));
	s->hdr.type = SKD_REC_SAMPLE;
	s->hdr.misc = SKD_MISC_USER;
	s->hdr.size = (uint16_t)(sizeof(*s) + sizeof(*cc) +
				 8 * (KFRAMES + UFRAMES));
	id_fill(&s->id, time);
	s->period = 1000000;
	s->fields = SKD_SAMPLE_CALLCHAIN;
	cc->nr = KFRAMES + UFRAMES;
	cc->nr_kernel = KFRAMES;
	for (k = 0; k < KFRAMES; k++)
		cc->ips[k] = 0xffffffff81000000ull + 0x1000 * k + (i & 0xff);
	/* a libc leaf, four frames of the program, libc's start at the root */
	cc->ips[KFRAMES] = 0x7f0000001000ull + (i & 0xfff);
	for (k = 1; k < UFRAMES - 1; k++)
		cc->ips[KFRAMES + k] = 0x555555555000ull + 0x100 * k + (i & 7);
	cc->ips[KFRAMES + UFRAMES - 1] = 0x7f0000002000ull;
	s->ip = cc->ips[KFRAMES];
}

/* The measured loops: callgrind collects inside these only. */
__attribute__((noinline)) void feed_record(struct record_sink *rs,
					  struct record_output *o,
					  struct krec *recs, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		record_sink_put(rs, (void *)recs[i].b);
		if (i % 64 == 63)	/* one drain per 64 records */
			record_output_round(o);
	}
}

__attribute__((noinline)) size_t feed_memcpy(uint8_t *sink, size_t len,
					    struct krec *recs, unsigned long n)
{
	unsigned long i;
	size_t off = 0;

	for (i = 0; i < n; i++) {
		const struct skd_rec_header *h = (void *)recs[i].b;

		if (off + h->size > len)
			off = 0;
		memcpy(sink + off, h, h->size);
		off += h->size;
	}
	return off;
}

int main(int argc, char **argv)
{
	static char *args[] = { "skidless", "record", "-g", NULL };
	struct record_output_params p = {
		.format = RECORD_FORMAT_PERF, .cfg = &cfg, .pmu = &pmu,
		.argc = 3, .argv = args,
	};
	struct record_sink rs = { 0 };
	struct record_output *o;
	struct krec *recs, m;
	char path[4096];
	unsigned long n, i;
	static uint8_t sink[1 << 20];
	size_t off = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: reader_cost NSAMPLES record|memcpy DIR\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 0);
	recs = calloc(n ? n : 1, sizeof(*recs));
	if (!recs)
		return 1;
	for (i = 0; i < n; i++)
		mk_sample(&recs[i], 1000 + i, (unsigned int)i);

	if (!strcmp(argv[2], "memcpy")) {
		off = feed_memcpy(sink, sizeof(sink), recs, n);
		return sink[off / 2] == 0xee;
	}

	cfg.size = sizeof(cfg);
	cfg.flags = SKD_CFG_FREQ;
	cfg.backend = SKD_BACKEND_TIMER;
	cfg.ring_pages = 64;
	cfg.sample_freq = 997;
	cfg.callchain_depth = 127;
	pmu.backend = SKD_BACKEND_TIMER;
	snprintf(pmu.pmu_name, sizeof(pmu.pmu_name), "timer");
	snprintf(path, sizeof(path), "%s/perf.data", argv[3]);
	p.path = path;
	o = record_output_open(&p);
	if (!o)
		return 1;
	rs.out = o;
	mk_mmap(&m, 0x555555554000ull, 0x10000, "/usr/bin/true");
	record_sink_put(&rs, (void *)m.b);
	mk_mmap(&m, 0x7f0000000000ull, 0x200000,
		"/usr/lib/x86_64-linux-gnu/libc.so.6");
	record_sink_put(&rs, (void *)m.b);
	mk_mmap(&m, 0x7f0000400000ull, 0x40000,
		"/usr/lib/x86_64-linux-gnu/libm.so.6");
	record_sink_put(&rs, (void *)m.b);

	feed_record(&rs, o, recs, n);
	return record_output_commit(o) ? 1 : 0;
}
