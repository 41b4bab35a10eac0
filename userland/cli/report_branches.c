// SPDX-License-Identifier: GPL-2.0
/*
 * skidless report --branches: what the LBR stacks of a capture say.
 * Every entry of every sampled branch stack counts once, as perf's
 * brstack lists them: taken branches by (source, target) with their
 * mispredict rate and mean cycles (LBR_INFO's cycle count: cycles since
 * the previous taken branch); basic blocks between consecutive entries
 * (from the older branch's target to the newer branch's source, which
 * ran in the newer entry's cycles); and where branches land, per
 * function. Call-stack LBR captures carry open calls, not branches, and
 * are refused.
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
#include "profile.h"
#include "report_common.h"
#include "subcommands.h"

/* A block longer than this is no block: the LBR missed a branch. */
#define MAX_BLOCK_BYTES	4096

static const char usage_text[] =
	"Usage: %s report --branches [-i FILE] [-n N] [--json]\n"
	"\n"
	"Show what the LBR branch stacks of a capture (record -b) say: the\n"
	"hottest taken branches with their mispredict rate and mean cycles,\n"
	"basic blocks with the cycles they took (between consecutive branches\n"
	"of a stack), and where branches land in each function.\n"
	"\n"
	"  -i, --input FILE   capture to read (default perf.data)\n"
	"  -n, --top N        rows per table (default 20; 0: all)\n"
	"      --json         one JSON document instead of text\n";

/* Two addresses and what was counted for them. */
struct pair {
	uint64_t a, b;
	uint64_t count, mispred, cyc_sum, cyc_n;
	size_t sample;		/* one sample holding it, to name it */
};

struct pairs {
	struct skd_hmap index;	/* hash(a, b) (+ probe) -> index + 1 */
	struct pair *v;
	size_t n, cap;
};

static struct pair *pair_get(struct pairs *t, uint64_t a, uint64_t b,
			     size_t sample)
{
	uint64_t h = (a * 0x9e3779b97f4a7c15ULL) ^ (b + 0x632be59bd9b4e019ULL);
	uintptr_t idx;
	struct pair *p;

	while ((idx = (uintptr_t)skd_hmap_get(&t->index, h))) {
		p = &t->v[idx - 1];
		if (p->a == a && p->b == b)
			return p;
		h++;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		struct pair *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		t->v = v;
		t->cap = cap;
	}
	p = &t->v[t->n];
	memset(p, 0, sizeof(*p));
	p->a = a;
	p->b = b;
	p->sample = sample;
	if (skd_hmap_put(&t->index, h, (void *)(uintptr_t)(t->n + 1)))
		return NULL;
	t->n++;
	return p;
}

static void pairs_free(struct pairs *t)
{
	free(t->v);
	skd_hmap_free(&t->index);
}

static int by_count(const void *x, const void *y)
{
	const struct pair *a = x, *b = y;

	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return a->b < b->b ? -1 : a->b > b->b;
}

static int by_cycles(const void *x, const void *y)
{
	const struct pair *a = x, *b = y;

	if (a->cyc_sum != b->cyc_sum)
		return a->cyc_sum < b->cyc_sum ? 1 : -1;
	return by_count(x, y);
}

/* A branch target, named, for the per-function histogram. */
struct target {
	const char *sym, *dso;
	uint64_t to, off, count;
};

static int by_function(const void *x, const void *y)
{
	const struct target *a = x, *b = y;
	int c = strcmp(a->sym, b->sym);

	if (c)
		return c;
	c = strcmp(a->dso, b->dso);
	if (c)
		return c;
	return a->to < b->to ? -1 : a->to > b->to;
}

/* One function's run in a by_function-sorted array. */
struct func {
	size_t first, n;	/* targets[first..first+n) */
	uint64_t total;
};

static int by_total(const void *x, const void *y)
{
	const struct func *a = x, *b = y;

	return a->total < b->total ? 1 : a->total > b->total ? -1 : 0;
}

struct view {
	struct skd_profile *p;
	struct pairs branches, blocks;
	struct target *targets;
	size_t nr_targets;
	struct func *funcs;
	size_t nr_funcs;
	uint64_t samples, entries, cyc_entries, call_stack, top;
};

static void name(struct view *v, size_t sample, uint64_t addr,
		 struct skd_frame *f)
{
	struct skd_event ev;

	skd_profile_sample(v->p, sample, &ev);
	skd_profile_addr(v->p, &ev, addr, f);
}

static int collect(struct view *v)
{
	size_t i, n = skd_profile_nr_samples(v->p);
	struct skd_event ev;
	unsigned int j;

	for (i = 0; i < n; i++) {
		const struct skd_branch_entry *b;

		skd_profile_sample(v->p, i, &ev);
		b = ev.sample.branches;
		if (!b || !ev.sample.nr_branches)
			continue;
		if (ev.sample.branch_flags & SKD_BR_CALL_STACK) {
			v->call_stack++;
			continue;
		}
		v->samples++;
		for (j = 0; j < ev.sample.nr_branches; j++) {
			struct pair *p = pair_get(&v->branches, b[j].from,
						  b[j].to, i);
			bool cyc = b[j].info & SKD_BR_INFO_CYC_VALID;
			uint64_t cycles = b[j].info & SKD_BR_INFO_CYCLES;

			if (!p)
				return -ENOMEM;
			v->entries++;
			p->count++;
			p->mispred += !!(b[j].info & SKD_BR_INFO_MISPRED);
			if (cyc) {
				v->cyc_entries++;
				p->cyc_sum += cycles;
				p->cyc_n++;
			}
			/* Entry j ran from entry j+1's target to its source. */
			if (j + 1 < ev.sample.nr_branches &&
			    b[j + 1].to <= b[j].from &&
			    b[j].from - b[j + 1].to < MAX_BLOCK_BYTES) {
				p = pair_get(&v->blocks, b[j + 1].to,
					     b[j].from, i);
				if (!p)
					return -ENOMEM;
				p->count++;
				if (cyc) {
					p->cyc_sum += cycles;
					p->cyc_n++;
				}
			}
		}
	}
	return 0;
}

/* Name every target and group them by function. */
static int histogram(struct view *v)
{
	size_t i, nf = 0;
	struct skd_frame f;

	v->targets = calloc(v->branches.n ? v->branches.n : 1,
			    sizeof(*v->targets));
	if (!v->targets)
		return -ENOMEM;
	for (i = 0; i < v->branches.n; i++) {
		const struct pair *p = &v->branches.v[i];
		struct target *t = &v->targets[i];

		name(v, p->sample, p->b, &f);
		t->sym = f.sym ? f.sym : "[unknown]";
		t->dso = f.dso;
		t->to = p->b;
		t->off = f.sym ? f.off : 0;
		t->count = p->count;
	}
	v->nr_targets = v->branches.n;
	qsort(v->targets, v->nr_targets, sizeof(*v->targets), by_function);
	/* Several sources of one target: one row. */
	for (i = 0; i < v->nr_targets; i++) {
		struct target *t = &v->targets[i];

		if (nf && !by_function(&v->targets[nf - 1], t)) {
			v->targets[nf - 1].count += t->count;
			continue;
		}
		v->targets[nf++] = *t;
	}
	v->nr_targets = nf;
	v->funcs = calloc(nf ? nf : 1, sizeof(*v->funcs));
	if (!v->funcs)
		return -ENOMEM;
	for (i = 0; i < v->nr_targets; i++) {
		const struct target *t = &v->targets[i];
		struct func *fn = v->nr_funcs ? &v->funcs[v->nr_funcs - 1] : NULL;

		if (!fn || strcmp(v->targets[fn->first].sym, t->sym) ||
		    strcmp(v->targets[fn->first].dso, t->dso)) {
			fn = &v->funcs[v->nr_funcs++];
			fn->first = i;
		}
		fn->n++;
		fn->total += t->count;
	}
	qsort(v->funcs, v->nr_funcs, sizeof(*v->funcs), by_total);
	return 0;
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

static size_t rows(const struct view *v, size_t n)
{
	return v->top && v->top < n ? v->top : n;
}

static void print_place(const struct skd_frame *f)
{
	print_symbol(stdout, f);
	printf(" (%s)", f->dso);
}

static void print_text(void *view, const char *input)
{
	struct view *v = view;
	struct skd_frame from, to;
	size_t i, k;

	printf("# skidless report --branches of %s\n", input);
	printf("# %" PRIu64 " samples with a branch stack, %" PRIu64
	       " taken branches (%" PRIu64 " with a cycle count)\n",
	       v->samples, v->entries, v->cyc_entries);
	printf("#\n# Hottest taken branches\n");
	printf("# %9s %7s %8s %8s  %s\n", "Count", "Share", "Mispred",
	       "Cycles", "Source -> target");
	for (i = 0; i < rows(v, v->branches.n); i++) {
		const struct pair *p = &v->branches.v[i];

		name(v, p->sample, p->a, &from);
		name(v, p->sample, p->b, &to);
		printf("  %9" PRIu64 " %6.2f%% %7.2f%% ", p->count,
		       100 * ratio(p->count, v->entries),
		       100 * ratio(p->mispred, p->count));
		if (p->cyc_n)
			printf("%8.1f  ", ratio(p->cyc_sum, p->cyc_n));
		else
			printf("%8s  ", "-");
		print_place(&from);
		fputs(" -> ", stdout);
		print_place(&to);
		putchar('\n');
	}

	printf("#\n# Basic blocks (a branch's target to the next branch's "
	       "source) by the cycles they took\n");
	printf("# %9s %9s %8s %6s  %s\n", "Cycles", "Count", "Mean",
	       "Bytes", "Start -> end");
	for (i = 0; i < rows(v, v->blocks.n); i++) {
		const struct pair *p = &v->blocks.v[i];

		name(v, p->sample, p->a, &from);
		name(v, p->sample, p->b, &to);
		printf("  %9" PRIu64 " %9" PRIu64 " ", p->cyc_sum, p->count);
		if (p->cyc_n)
			printf("%8.1f ", ratio(p->cyc_sum, p->cyc_n));
		else
			printf("%8s ", "-");
		printf("%6" PRIu64 "  ", p->b - p->a);
		print_place(&from);
		fputs(" -> ", stdout);
		print_symbol(stdout, &to);
		putchar('\n');
	}

	printf("#\n# Branch targets per function\n");
	for (i = 0; i < rows(v, v->nr_funcs); i++) {
		const struct func *fn = &v->funcs[i];
		const struct target *t0 = &v->targets[fn->first];

		printf("#\n# %s (%s): %" PRIu64 " branches land in it, %.2f%%\n",
		       t0->sym, t0->dso, fn->total,
		       100 * ratio(fn->total, v->entries));
		for (k = 0; k < fn->n; k++) {
			const struct target *t = &v->targets[fn->first + k];
			int bar = (int)(40 * ratio(t->count, fn->total) + 0.5);

			if (strcmp(t->sym, "[unknown]"))
				printf("  %10s+0x%-6" PRIx64, "", t->off);
			else
				printf("  %#18" PRIx64, t->to);
			printf(" %9" PRIu64 " %6.2f%%  %.*s\n", t->count,
			       100 * ratio(t->count, fn->total), bar,
			       "########################################");
		}
	}
	if (!v->samples)
		printf("#\n# no branch stacks (record with -b)\n");
}

static json_object *place_json(const struct skd_frame *f)
{
	json_object *o = json_object_new_object();
	char addr[24];

	snprintf(addr, sizeof(addr), "0x%" PRIx64, f->ip);
	json_object_object_add(o, "addr", json_object_new_string(addr));
	json_object_object_add(o, "sym", f->sym ? json_object_new_string(f->sym)
					       : NULL);
	json_object_object_add(o, "off", json_object_new_int64((int64_t)f->off));
	json_object_object_add(o, "dso", json_object_new_string(f->dso));
	return o;
}

static int print_json(void *view, const char *input)
{
	struct view *v = view;
	json_object *root = json_object_new_object(), *a, *o, *h;
	struct skd_frame from, to;
	size_t i, k;

	json_object_object_add(root, "input", json_object_new_string(input));
	json_object_object_add(root, "samples",
			       json_object_new_int64((int64_t)v->samples));
	json_object_object_add(root, "branches",
			       json_object_new_int64((int64_t)v->entries));
	a = json_object_new_array();
	for (i = 0; i < rows(v, v->branches.n); i++) {
		const struct pair *p = &v->branches.v[i];

		name(v, p->sample, p->a, &from);
		name(v, p->sample, p->b, &to);
		o = json_object_new_object();
		json_object_object_add(o, "from", place_json(&from));
		json_object_object_add(o, "to", place_json(&to));
		json_object_object_add(o, "count", json_object_new_int64((int64_t)p->count));
		json_object_object_add(o, "mispredicted", json_object_new_int64((int64_t)p->mispred));
		json_object_object_add(o, "cycle_counts", json_object_new_int64((int64_t)p->cyc_n));
		json_object_object_add(o, "cycles", json_object_new_int64((int64_t)p->cyc_sum));
		json_object_array_add(a, o);
	}
	json_object_object_add(root, "taken", a);
	a = json_object_new_array();
	for (i = 0; i < rows(v, v->blocks.n); i++) {
		const struct pair *p = &v->blocks.v[i];

		name(v, p->sample, p->a, &from);
		name(v, p->sample, p->b, &to);
		o = json_object_new_object();
		json_object_object_add(o, "start", place_json(&from));
		json_object_object_add(o, "end", place_json(&to));
		json_object_object_add(o, "count", json_object_new_int64((int64_t)p->count));
		json_object_object_add(o, "cycle_counts", json_object_new_int64((int64_t)p->cyc_n));
		json_object_object_add(o, "cycles", json_object_new_int64((int64_t)p->cyc_sum));
		json_object_array_add(a, o);
	}
	json_object_object_add(root, "blocks", a);
	a = json_object_new_array();
	for (i = 0; i < rows(v, v->nr_funcs); i++) {
		const struct func *fn = &v->funcs[i];
		const struct target *t0 = &v->targets[fn->first];

		o = json_object_new_object();
		json_object_object_add(o, "sym", json_object_new_string(t0->sym));
		json_object_object_add(o, "dso", json_object_new_string(t0->dso));
		json_object_object_add(o, "count", json_object_new_int64((int64_t)fn->total));
		h = json_object_new_array();
		for (k = 0; k < fn->n; k++) {
			const struct target *t = &v->targets[fn->first + k];
			json_object *e = json_object_new_object();
			char addr[24];

			snprintf(addr, sizeof(addr), "0x%" PRIx64, t->to);
			json_object_object_add(e, "addr", json_object_new_string(addr));
			json_object_object_add(e, "off", json_object_new_int64((int64_t)t->off));
			json_object_object_add(e, "count", json_object_new_int64((int64_t)t->count));
			json_object_array_add(h, e);
		}
		json_object_object_add(o, "targets", h);
		json_object_array_add(a, o);
	}
	json_object_object_add(root, "functions", a);
	return put_json(root);
}

int report_branches_main(int argc, char *argv[])
{
	struct view_opts o;
	struct view v = { 0 };
	const char *input;
	int ret;

	ret = view_opts_parse(argc, argv, usage_text, "branches", &o);
	if (ret >= 0)
		return ret;
	input = o.input;
	v.top = o.top;
	ret = 1;
	v.p = load_input(argc, argv, optind, input);
	if (!v.p)
		return 1;
	if (collect(&v) || histogram(&v)) {
		fprintf(stderr, "%s: out of memory\n", PROG_NAME);
		goto out;
	}
	if (!v.samples && v.call_stack) {
		fprintf(stderr, "%s: %s has LBR call stacks (record "
			"--call-graph lbr), which hold open calls, not "
			"branches: record with -b for --branches\n", PROG_NAME,
			input);
		goto out;
	}
	if (!v.samples) {
		fprintf(stderr, "%s: %s has no branch stacks: record with -b "
			"(a PMU backend with LBR) for --branches\n", PROG_NAME,
			input);
		goto out;
	}
	qsort(v.branches.v, v.branches.n, sizeof(*v.branches.v), by_count);
	qsort(v.blocks.v, v.blocks.n, sizeof(*v.blocks.v), by_cycles);
	ret = view_print(&v, input, v.p, o.json, print_text, print_json);
out:
	free(v.targets);
	free(v.funcs);
	pairs_free(&v.branches);
	pairs_free(&v.blocks);
	skd_profile_free(v.p);
	return ret;
}
