// SPDX-License-Identifier: GPL-2.0
/*
 * skidless report: where the samples landed, by function, one table per
 * event. Shares are of the event's total period, as perf reports them:
 * in frequency mode the period changes from sample to sample, and a
 * count of samples would over-weigh whatever ran while it was short.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "params.h"
#include "profile.h"
#include "report_common.h"
#include "subcommands.h"

static const char usage_text[] =
	"Usage: %s %s [-i FILE] [-n N]\n"
	"\n"
	"Show the functions that were running when samples were taken (self\n"
	"time), per event, with each one's share of the event's total period\n"
	"(events counted, or ns for the timer backend) and its samples.\n"
	"\n"
	"  -i, --input FILE   capture to read (default perf.data)\n"
	"  -n, --top N        show the N busiest functions (default 20; 0: all)\n";

struct entry {
	char *sym;		/* "name" or "[unknown]" */
	const char *dso;
	uint64_t samples;
	uint64_t period;
};

/* One event's functions. */
struct table {
	struct skd_hmap index;	/* hash of sym and dso -> entry index + 1 */
	struct entry *v;
	size_t n, cap;
	uint64_t samples, period;
};

static uint64_t hash_of(const char *sym, const char *dso)
{
	uint64_t h = skd_hash_str(SKD_HASH_INIT, sym);

	/* A separator no name holds: "ab"+"c" is not "a"+"bc". */
	h = (h ^ 0xff) * 0x100000001b3ULL;
	return skd_hash_str(h, dso);
}

static int count(struct table *t, const char *sym, const char *dso,
		 uint64_t period)
{
	uint64_t h = hash_of(sym, dso);
	struct entry *e;
	uintptr_t idx;

	t->samples++;
	t->period += period;
	/* Walk past hash collisions to the slot holding this very pair. */
	while ((idx = (uintptr_t)skd_hmap_get(&t->index, h))) {
		e = &t->v[idx - 1];
		if (!strcmp(e->sym, sym) && !strcmp(e->dso, dso)) {
			e->samples++;
			e->period += period;
			return 0;
		}
		h++;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct entry *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	e = &t->v[t->n];
	e->sym = strdup(sym);
	e->dso = dso;
	e->samples = 1;
	e->period = period;
	if (!e->sym || skd_hmap_put(&t->index, h, (void *)(uintptr_t)(t->n + 1)))
		return -ENOMEM;
	t->n++;
	return 0;
}

static int by_period(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->period != y->period)
		return x->period < y->period ? 1 : -1;
	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return strcmp(x->sym, y->sym);
}

static void free_table(struct table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i].sym);
	free(t->v);
	skd_hmap_free(&t->index);
}

static void print_table(struct skd_profile *p, unsigned int event,
			struct table *t, uint64_t top)
{
	const char *name = skd_profile_event_name(p, event);
	size_t i;

	if (t->n > 1)
		qsort(t->v, t->n, sizeof(*t->v), by_period);
	printf("#\n# event: %s, %" PRIu64 " samples, period %" PRIu64 "\n#\n",
	       name[0] ? name : "timer", t->samples, t->period);
	printf("# %8s %9s  %-40s %s\n", "Overhead", "Samples", "Symbol",
	       "Object");
	for (i = 0; i < t->n && (!top || i < top); i++)
		printf("  %7.2f%% %9" PRIu64 "  %-40s %s\n",
		       t->period ? 100.0 * (double)t->v[i].period /
				   (double)t->period : 0,
		       t->v[i].samples, t->v[i].sym, t->v[i].dso);
}

static void print_header(const struct skd_profile *p, const char *input,
			 uint64_t samples)
{
	const struct skd_profile_totals *t = skd_profile_totals(p);

	printf("# skidless report of %s\n", input);
	printf("# command: %s\n", skd_profile_session_string(p, 2));
	printf("# host: %s, kernel %s\n", skd_profile_session_string(p, 0),
	       skd_profile_session_string(p, 1));
	printf("# samples: %" PRIu64 ", records lost: %" PRIu64 "\n", samples,
	       (uint64_t)t->stats.lost);
}

int report_main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "top", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = "perf.data";
	struct table t[SKD_MAX_EVENTS] = { 0 };
	struct skd_profile *p;
	struct skd_event ev;
	struct skd_frame f;
	uint64_t top = 20;
	unsigned int e;
	size_t i, n;
	int c, ret = 1;

	/* The branch and memory views are commands of their own. */
	for (c = 1; c < argc && strcmp(argv[c], "--"); c++) {
		if (!strcmp(argv[c], "--branches"))
			return report_branches_main(argc, argv);
		if (!strcmp(argv[c], "--mem"))
			return report_mem_main(argc, argv);
	}
	while ((c = getopt_long(argc, argv, "i:n:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'n':
			if (!parse_uint("-n", optarg, 0, UINT32_MAX, &top))
				return 1;
			break;
		case 'h':
			printf(usage_text, PROG_NAME, argv[0]);
			return 0;
		default:
			fprintf(stderr, usage_text, PROG_NAME, argv[0]);
			return 1;
		}
	}
	p = load_input(argc, argv, optind, input);
	if (!p)
		return 1;

	n = skd_profile_nr_samples(p);
	for (i = 0; i < n; i++) {
		skd_profile_sample(p, i, &ev);
		skd_profile_frame(p, &ev, 0, &f);
		e = ev.sample.rec->event;
		if (e >= SKD_MAX_EVENTS) {
			fprintf(stderr, "%s: sample %zu names event %u, which "
				"no session has: the capture is damaged\n",
				PROG_NAME, i, e);
			continue;
		}
		if (count(&t[e], f.sym ? f.sym : "[unknown]", f.dso,
			  ev.sample.rec->period)) {
			fprintf(stderr, "%s: out of memory\n", PROG_NAME);
			goto out;
		}
	}

	print_header(p, input, n);
	for (e = 0; e < SKD_MAX_EVENTS; e++)
		if (t[e].samples)
			print_table(p, e, &t[e], top);
	if (!n)
		printf("#\n# no samples\n");
	warn_capture_problems(input, skd_profile_totals(p));
	ret = 0;
out:
	for (e = 0; e < SKD_MAX_EVENTS; e++)
		free_table(&t[e]);
	skd_profile_free(p);
	return ret;
}
