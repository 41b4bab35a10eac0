// SPDX-License-Identifier: GPL-2.0
/*
 * skidless report --mem: the memory samples of a capture (PEBS load and
 * store latency events: data address, latency, data source). The data
 * source is perf's perf_mem_data_src encoding, as every perf.data holds
 * it (skidless's writer decodes the PEBS field per model through
 * data_src.c); it is sorted into the levels a load is served from. The
 * latency is the load's (on Golden Cove and Gracemont, which report two,
 * the cache access latency: the one perf calls weight).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "params.h"
#include "perf_data.h"
#include "profile.h"
#include "report_common.h"
#include "subcommands.h"

/* Latency buckets: [0,1), [1,2), [2,4), ... [2^(NB-2), inf). */
#define NB		18
/* Code locations shown per data address; the rest are summed. */
#define MAX_CODE	4

static const char usage_text[] =
	"Usage: %s report --mem [-i FILE] [-n N] [--json]\n"
	"\n"
	"Show the memory samples of a capture (PEBS load/store latency events,\n"
	"e.g. mem_trans_retired.load_latency_gt_32/ldlat=30/p): latency\n"
	"histograms by the level that served the access (L1, LFB, L2, L3,\n"
	"remote cache, local/remote DRAM, PMEM, ...), then the data addresses\n"
	"with the most samples and the code that touched them.\n"
	"\n"
	"  -i, --input FILE   capture to read (default perf.data)\n"
	"  -n, --top N        data addresses shown (default 20; 0: all)\n"
	"      --json         one JSON document instead of text\n";

enum level {
	LV_L1, LV_LFB, LV_L2, LV_L3, LV_L4, LV_REMOTE_CACHE, LV_LOCAL_DRAM,
	LV_REMOTE_DRAM, LV_PMEM, LV_IO, LV_UNCACHED, LV_ANY_CACHE, LV_NA,
	NR_LEVELS
};

static const char *const level_names[NR_LEVELS] = {
	"L1", "LFB", "L2", "L3", "L4", "remote cache", "local DRAM",
	"remote DRAM", "PMEM", "I/O", "uncached", "any cache", "N/A",
};

enum outcome { HIT, MISS, NEITHER };
static const char *const outcome_names[] = { " hit", " miss", "" };

/* perf_mem_data_src's fields (see perf_data.h for where they sit). */
#define FIELD(ds, f, bits)	(((ds) >> PD_MEM_##f##_SHIFT) & ((1ULL << (bits)) - 1))

/*
 * Which level served an access, from the LVL bits first (they keep
 * apart what a level number does not: remote RAM behind an L3 number),
 * then the level number.
 */
static enum level level_of(uint64_t ds, enum outcome *out)
{
	uint64_t lvl = FIELD(ds, LVL, 14), num = FIELD(ds, LVLNUM, 4);
	bool remote = FIELD(ds, REMOTE, 1);

	*out = lvl & PD_MEM_LVL_HIT ? HIT : lvl & PD_MEM_LVL_MISS ? MISS
								: NEITHER;
	if (lvl & (PD_MEM_LVL_REM_CCE1 | PD_MEM_LVL_REM_CCE2))
		return LV_REMOTE_CACHE;
	if (lvl & (PD_MEM_LVL_REM_RAM1 | PD_MEM_LVL_REM_RAM2))
		return LV_REMOTE_DRAM;
	if (num == PD_MEM_LVLNUM_PMEM)
		return LV_PMEM;
	if (lvl & PD_MEM_LVL_LOC_RAM || num == PD_MEM_LVLNUM_RAM)
		return remote ? LV_REMOTE_DRAM : LV_LOCAL_DRAM;
	if (lvl & PD_MEM_LVL_LFB || num == PD_MEM_LVLNUM_LFB)
		return LV_LFB;
	if (num == PD_MEM_LVLNUM_L4)
		return remote ? LV_REMOTE_CACHE : LV_L4;
	if (lvl & PD_MEM_LVL_L3 || num == PD_MEM_LVLNUM_L3)
		return remote ? LV_REMOTE_CACHE : LV_L3;
	if (lvl & PD_MEM_LVL_L2 || num == PD_MEM_LVLNUM_L2)
		return LV_L2;
	if (lvl & PD_MEM_LVL_L1 || num == PD_MEM_LVLNUM_L1)
		return LV_L1;
	if (lvl & PD_MEM_LVL_IO)
		return LV_IO;
	if (lvl & PD_MEM_LVL_UNC)
		return LV_UNCACHED;
	if (num == PD_MEM_LVLNUM_ANY_CACHE)
		return remote ? LV_REMOTE_CACHE : LV_ANY_CACHE;
	return LV_NA;
}

static unsigned int bucket_of(uint64_t lat)
{
	unsigned int b = 0;

	while (lat && b < NB - 1) {
		lat >>= 1;
		b++;
	}
	return b;
}

static uint64_t bucket_low(unsigned int b)
{
	return b ? 1ULL << (b - 1) : 0;
}

struct level_stats {
	uint64_t samples, lat_sum, lat_min, lat_max;
	uint64_t hist[NB];
};

/* One instruction's accesses to one data address. */
struct code {
	uint64_t addr, ip, samples;
	size_t sample;		/* one sample with it, to name it */
};

struct daddr {
	uint64_t addr, samples, lat_sum;
};

/* A table of entries keyed by one or two u64 (hash + linear probe). */
struct table {
	struct skd_hmap index;	/* key hash (+ probe) -> index + 1 */
	void *v;
	size_t n, cap, size;	/* size: of an entry */
	unsigned int keys;	/* its first 1 or 2 u64 are the key */
};

struct view {
	struct skd_profile *p;
	/* [level][outcome] */
	struct level_stats lv[NR_LEVELS][3];
	struct table addrs;	/* struct daddr by data address */
	struct table codes;	/* struct code by (data address, ip) */
	uint64_t samples, lat_sum, top;
};

/*
 * The entry of @t keyed @a (and @b with two keys), made zeroed (with its
 * key set) when new; NULL when out of memory.
 */
static void *table_get(struct table *t, uint64_t a, uint64_t b)
{
	uint64_t h = (a * 0x9e3779b97f4a7c15ULL) ^ (b + 0x632be59bd9b4e019ULL);
	uintptr_t idx;
	uint64_t *e;

	while ((idx = (uintptr_t)skd_hmap_get(&t->index, h))) {
		e = (uint64_t *)((char *)t->v + (idx - 1) * t->size);
		if (e[0] == a && (t->keys < 2 || e[1] == b))
			return e;
		h++;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		void *nv = realloc(t->v, cap * t->size);

		if (!nv)
			return NULL;
		t->v = nv;
		t->cap = cap;
	}
	e = (uint64_t *)((char *)t->v + t->n * t->size);
	memset(e, 0, t->size);
	e[0] = a;
	if (t->keys == 2)
		e[1] = b;
	if (skd_hmap_put(&t->index, h, (void *)(uintptr_t)(t->n + 1)))
		return NULL;
	t->n++;
	return e;
}

static void table_free(struct table *t)
{
	free(t->v);
	skd_hmap_free(&t->index);
}

static uint64_t latency_of(const struct skd_sample_mem *m)
{
	/* Split: bits 47:32 are the cache access latency, perf's weight. */
	if (m->flags & SKD_MEM_LAT_SPLIT)
		return (m->latency >> 32) & 0xffff;
	return m->latency;
}

static int collect(struct view *v)
{
	size_t i, n = skd_profile_nr_samples(v->p);
	struct skd_event ev;

	for (i = 0; i < n; i++) {
		const struct skd_sample_mem *m;
		struct level_stats *ls;
		struct daddr *d;
		enum outcome oc;
		enum level lv;
		struct code *c;
		uint64_t lat;

		skd_profile_sample(v->p, i, &ev);
		m = ev.sample.mem;
		if (!m)
			continue;
		lat = latency_of(m);
		lv = level_of(m->source, &oc);
		ls = &v->lv[lv][oc];
		if (!ls->samples || lat < ls->lat_min)
			ls->lat_min = lat;
		if (lat > ls->lat_max)
			ls->lat_max = lat;
		ls->samples++;
		ls->lat_sum += lat;
		ls->hist[bucket_of(lat)]++;
		v->samples++;
		v->lat_sum += lat;

		d = table_get(&v->addrs, m->addr, 0);
		c = table_get(&v->codes, m->addr, ev.sample.rec->ip);
		if (!d || !c)
			return -ENOMEM;
		d->samples++;
		d->lat_sum += lat;
		if (!c->samples)
			c->sample = i;
		c->samples++;
	}
	return 0;
}

static int by_samples(const void *x, const void *y)
{
	const struct daddr *a = x, *b = y;

	if (a->samples != b->samples)
		return a->samples < b->samples ? 1 : -1;
	if (a->lat_sum != b->lat_sum)
		return a->lat_sum < b->lat_sum ? 1 : -1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* By data address, then busiest first. */
static int code_by_addr(const void *x, const void *y)
{
	const struct code *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples < b->samples ? 1 : -1;
	return a->ip < b->ip ? -1 : a->ip > b->ip;
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

static size_t rows(const struct view *v)
{
	return v->top && v->top < v->addrs.n ? v->top : v->addrs.n;
}

static const struct daddr *daddr_at(const struct view *v, size_t i)
{
	return (const struct daddr *)v->addrs.v + i;
}

/* The code entries of data address @addr: *@n of them from the result. */
static const struct code *codes_of(const struct view *v, uint64_t addr,
				   size_t *n)
{
	const struct code *c = v->codes.v;
	size_t lo = 0, hi = v->codes.n, k;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < v->codes.n && c[k].addr == addr; k++)
		;
	*n = k - lo;
	return c + lo;
}

static void name(struct view *v, const struct code *c, struct skd_frame *f)
{
	struct skd_event ev;

	skd_profile_sample(v->p, c->sample, &ev);
	skd_profile_addr(v->p, &ev, c->ip, f);
}

static void print_text(void *view, const char *input)
{
	struct view *v = view;
	struct skd_frame f;
	unsigned int l, o, b;
	size_t i, k, nc;

	printf("# skidless report --mem of %s\n", input);
	printf("# %" PRIu64 " memory samples, mean latency %.1f cycles\n",
	       v->samples, ratio(v->lat_sum, v->samples));
	printf("#\n# Latency (core cycles) by data source\n");
	printf("# %-20s %9s %7s %8s %7s %7s\n", "Source", "Samples", "Share",
	       "Mean", "Min", "Max");
	for (l = 0; l < NR_LEVELS; l++)
		for (o = 0; o < 3; o++) {
			const struct level_stats *ls = &v->lv[l][o];
			char label[32];

			if (!ls->samples)
				continue;
			snprintf(label, sizeof(label), "%s%s", level_names[l],
				 outcome_names[o]);
			printf("  %-20s %9" PRIu64 " %6.2f%% %8.1f %7" PRIu64
			       " %7" PRIu64 "\n", label, ls->samples,
			       100 * ratio(ls->samples, v->samples),
			       ratio(ls->lat_sum, ls->samples), ls->lat_min,
			       ls->lat_max);
		}
	for (l = 0; l < NR_LEVELS; l++)
		for (o = 0; o < 3; o++) {
			const struct level_stats *ls = &v->lv[l][o];

			if (!ls->samples)
				continue;
			printf("#\n# %s%s: latency histogram\n", level_names[l],
			       outcome_names[o]);
			for (b = 0; b < NB; b++) {
				int bar;

				if (!ls->hist[b])
					continue;
				bar = (int)(40 * ratio(ls->hist[b],
						       ls->samples) + 0.5);
				if (b == NB - 1)
					printf("  [%6" PRIu64 ",    inf)",
					       bucket_low(b));
				else
					printf("  [%6" PRIu64 ", %6" PRIu64
					       ")", bucket_low(b),
					       bucket_low(b + 1));
				printf(" %9" PRIu64 " %6.2f%%  %.*s\n",
				       ls->hist[b],
				       100 * ratio(ls->hist[b], ls->samples),
				       bar, "########################################");
			}
		}

	printf("#\n# Data addresses with the most samples, and the code that "
	       "touched them\n");
	printf("# %18s %9s %7s %8s  %s\n", "Data address", "Samples", "Share",
	       "Mean", "Code");
	for (i = 0; i < rows(v); i++) {
		const struct daddr *d = daddr_at(v, i);
		const struct code *c = codes_of(v, d->addr, &nc);
		uint64_t other = 0;

		printf("  %#18" PRIx64 " %9" PRIu64 " %6.2f%% %8.1f ", d->addr,
		       d->samples, 100 * ratio(d->samples, v->samples),
		       ratio(d->lat_sum, d->samples));
		for (k = 0; k < nc; k++) {
			if (k >= MAX_CODE) {
				other += c[k].samples;
				continue;
			}
			name(v, &c[k], &f);
			printf("%s", k ? ", " : " ");
			print_frame(stdout, &f);
			printf(" %" PRIu64, c[k].samples);
		}
		if (other)
			printf(", other code (%zu places) %" PRIu64,
			       nc - MAX_CODE, other);
		putchar('\n');
	}
	if (!v->samples)
		printf("#\n# no memory samples\n");
}

static json_object *u64(uint64_t x)
{
	return json_object_new_int64((int64_t)x);
}

static json_object *hex(uint64_t x)
{
	char s[24];

	snprintf(s, sizeof(s), "0x%" PRIx64, x);
	return json_object_new_string(s);
}

static int print_json(void *view, const char *input)
{
	struct view *v = view;
	json_object *root = json_object_new_object(), *a, *o, *h, *e;
	struct skd_frame f;
	unsigned int l, oc, b;
	size_t i, k, nc;

	json_object_object_add(root, "input", json_object_new_string(input));
	json_object_object_add(root, "samples", u64(v->samples));
	json_object_object_add(root, "latency_sum", u64(v->lat_sum));
	a = json_object_new_array();
	for (l = 0; l < NR_LEVELS; l++)
		for (oc = 0; oc < 3; oc++) {
			const struct level_stats *ls = &v->lv[l][oc];

			if (!ls->samples)
				continue;
			o = json_object_new_object();
			json_object_object_add(o, "level",
				json_object_new_string(level_names[l]));
			json_object_object_add(o, "outcome",
				json_object_new_string(oc == HIT ? "hit" :
						       oc == MISS ? "miss" : ""));
			json_object_object_add(o, "samples", u64(ls->samples));
			json_object_object_add(o, "latency_sum", u64(ls->lat_sum));
			json_object_object_add(o, "latency_min", u64(ls->lat_min));
			json_object_object_add(o, "latency_max", u64(ls->lat_max));
			h = json_object_new_array();
			for (b = 0; b < NB; b++) {
				if (!ls->hist[b])
					continue;
				e = json_object_new_object();
				json_object_object_add(e, "from", u64(bucket_low(b)));
				json_object_object_add(e, "to", b == NB - 1 ? NULL :
						       u64(bucket_low(b + 1)));
				json_object_object_add(e, "samples", u64(ls->hist[b]));
				json_object_array_add(h, e);
			}
			json_object_object_add(o, "histogram", h);
			json_object_array_add(a, o);
		}
	json_object_object_add(root, "levels", a);
	a = json_object_new_array();
	for (i = 0; i < rows(v); i++) {
		const struct daddr *d = daddr_at(v, i);
		const struct code *c = codes_of(v, d->addr, &nc);
		uint64_t other = 0;

		o = json_object_new_object();
		json_object_object_add(o, "addr", hex(d->addr));
		json_object_object_add(o, "samples", u64(d->samples));
		json_object_object_add(o, "latency_sum", u64(d->lat_sum));
		h = json_object_new_array();
		for (k = 0; k < nc; k++) {
			if (k >= MAX_CODE) {
				other += c[k].samples;
				continue;
			}
			name(v, &c[k], &f);
			e = json_object_new_object();
			json_object_object_add(e, "ip", hex(c[k].ip));
			json_object_object_add(e, "sym", f.sym ?
				json_object_new_string(f.sym) : NULL);
			json_object_object_add(e, "off", u64(f.off));
			json_object_object_add(e, "dso", json_object_new_string(f.dso));
			json_object_object_add(e, "samples", u64(c[k].samples));
			json_object_array_add(h, e);
		}
		json_object_object_add(o, "code", h);
		json_object_object_add(o, "other_code_samples", u64(other));
		json_object_array_add(a, o);
	}
	json_object_object_add(root, "addresses", a);
	return put_json(root);
}

int report_mem_main(int argc, char *argv[])
{
	struct view_opts o;
	const char *input;
	struct view *v;
	int ret;

	ret = view_opts_parse(argc, argv, usage_text, "mem", &o);
	if (ret >= 0)
		return ret;
	input = o.input;
	v = calloc(1, sizeof(*v));
	if (!v) {
		fprintf(stderr, "%s: out of memory\n", PROG_NAME);
		return 1;
	}
	ret = 1;
	v->top = o.top;
	v->addrs = (struct table){ .size = sizeof(struct daddr), .keys = 1 };
	v->codes = (struct table){ .size = sizeof(struct code), .keys = 2 };
	v->p = load_input(argc, argv, optind, input);
	if (!v->p)
		goto out;
	if (skd_profile_totals(v->p)->native) {
		/* Its data source is the raw PEBS field, model-specific. */
		fprintf(stderr, "%s: %s is a native skidless capture, whose "
			"data sources are raw PEBS fields: record to perf.data "
			"(the default; the model's decoding is applied there) "
			"for --mem\n", PROG_NAME, input);
		goto out;
	}
	if (collect(v)) {
		fprintf(stderr, "%s: out of memory\n", PROG_NAME);
		goto out;
	}
	if (!v->samples) {
		fprintf(stderr, "%s: %s has no memory samples: record a PEBS "
			"load or store latency event (e.g. -e "
			"mem_trans_retired.load_latency_gt_32/ldlat=30/p) for "
			"--mem\n", PROG_NAME, input);
		goto out;
	}
	qsort(v->addrs.v, v->addrs.n, v->addrs.size, by_samples);
	qsort(v->codes.v, v->codes.n, v->codes.size, code_by_addr);
	ret = view_print(v, input, v->p, o.json, print_text, print_json);
out:
	if (v->p)
		skd_profile_free(v->p);
	table_free(&v->addrs);
	table_free(&v->codes);
	free(v);
	return ret;
}
