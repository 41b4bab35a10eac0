// SPDX-License-Identifier: GPL-2.0
/*
 * skidless diff BASE NEW: how each symbol's share of its capture changed.
 * Shares are self (the sample's own function), period-weighted and
 * normalized to each capture's total per event, so captures of different
 * lengths compare; rows are sorted by the size of the change.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph.h"
#include "hmap.h"
#include "outfile.h"
#include "profile.h"
#include "report_common.h"
#include "stacks.h"
#include "subcommands.h"

static const char usage_text[] =
	"Usage: %s %s [options] BASE NEW\n"
	"\n"
	"Compare two captures symbol by symbol: each symbol's self share of its\n"
	"capture's period (per event), and the change from BASE to NEW in\n"
	"percentage points, largest change first.\n"
	"\n"
	"      --threshold PCT  hide changes smaller than PCT points\n"
	"      --json           one JSON document instead of text\n"
	"      --svg FILE       also write a differential flame graph: NEW's\n"
	"                       stacks, red where a path's share grew against\n"
	"                       BASE, blue where it shrank\n"
	"      --event NAME     the event the flame graph shows (default: the\n"
	"                       first event of NEW)\n";

struct row {
	char *sym;
	char *dso;
	uint64_t period[2];	/* BASE, NEW */
	double share[2], delta;
	struct row *next;	/* same hash */
};

struct event_tab {
	char *name;
	uint64_t total[2], samples[2];
	struct skd_hmap map;	/* hash of sym and dso -> row chain */
	struct row **rows;
	size_t n, cap;
};

struct diff {
	struct event_tab ev[2 * SKD_MAX_EVENTS];
	unsigned int nev;
};

static struct event_tab *event_tab(struct diff *d, const char *name)
{
	unsigned int i;

	for (i = 0; i < d->nev; i++)
		if (!strcmp(d->ev[i].name, name))
			return &d->ev[i];
	if (d->nev == sizeof(d->ev) / sizeof(d->ev[0]))
		return NULL;
	d->ev[d->nev].name = strdup(name);
	return d->ev[d->nev].name ? &d->ev[d->nev++] : NULL;
}

static struct row *row(struct event_tab *t, const char *sym, const char *dso)
{
	uint64_t h = skd_hash_str(skd_hash_str(SKD_HASH_INIT, sym), dso);
	struct row *head = skd_hmap_get(&t->map, h), *r;

	for (r = head; r; r = r->next)
		if (!strcmp(r->sym, sym) && !strcmp(r->dso, dso))
			return r;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct row **v = realloc(t->rows, cap * sizeof(*v));

		if (!v)
			return NULL;
		t->rows = v;
		t->cap = cap;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->sym = strdup(sym);
	r->dso = strdup(dso);
	if (!r->sym || !r->dso || skd_hmap_put(&t->map, h, r)) {
		free(r->sym);
		free(r->dso);
		free(r);
		return NULL;
	}
	r->next = head;
	t->rows[t->n++] = r;
	return r;
}

/* Add @p's samples as side @side (0 BASE, 1 NEW). */
static int add_capture(struct diff *d, struct skd_profile *p, int side)
{
	size_t i, n = skd_profile_nr_samples(p);
	struct skd_event ev;
	struct skd_frame f;

	for (i = 0; i < n; i++) {
		struct event_tab *t;
		struct row *r;

		skd_profile_sample(p, i, &ev);
		t = event_tab(d, stacks_event_label(p, ev.sample.rec->event));
		if (!t)
			return -ENOMEM;
		skd_profile_frame(p, &ev, 0, &f);
		r = row(t, f.sym ? f.sym : "[unknown]", f.dso);
		if (!r)
			return -ENOMEM;
		r->period[side] += ev.sample.rec->period;
		t->total[side] += ev.sample.rec->period;
		t->samples[side]++;
	}
	return 0;
}

static int by_delta(const void *a, const void *b)
{
	const struct row *x = *(struct row *const *)a;
	const struct row *y = *(struct row *const *)b;
	double dx = fabs(x->delta), dy = fabs(y->delta);
	int c;

	if (dx != dy)
		return dx < dy ? 1 : -1;
	c = strcmp(x->sym, y->sym);
	return c ? c : strcmp(x->dso, y->dso);
}

static void compute(struct diff *d)
{
	unsigned int e, s;
	size_t i;

	for (e = 0; e < d->nev; e++) {
		struct event_tab *t = &d->ev[e];

		for (i = 0; i < t->n; i++) {
			struct row *r = t->rows[i];

			for (s = 0; s < 2; s++)
				r->share[s] = t->total[s] ?
					100.0 * r->period[s] / t->total[s] : 0;
			r->delta = r->share[1] - r->share[0];
		}
		qsort(t->rows, t->n, sizeof(*t->rows), by_delta);
	}
}

static void print_text(const struct diff *d, const char *const path[2],
		       double threshold)
{
	unsigned int e;
	size_t i, hidden;

	printf("# skidless diff: base %s, new %s\n", path[0], path[1]);
	for (e = 0; e < d->nev; e++) {
		const struct event_tab *t = &d->ev[e];

		printf("#\n# event: %s; base %" PRIu64 " samples, period %" PRIu64
		       "; new %" PRIu64 " samples, period %" PRIu64 "\n#\n",
		       t->name, t->samples[0], t->total[0], t->samples[1],
		       t->total[1]);
		printf("#    Base      New     Delta  Symbol                        "
		       "           Object\n");
		for (i = hidden = 0; i < t->n; i++) {
			const struct row *r = t->rows[i];

			if (fabs(r->delta) < threshold) {
				hidden++;
				continue;
			}
			printf("%8.2f%% %8.2f%% %+8.2f  %-40s %s\n", r->share[0],
			       r->share[1], r->delta, r->sym, r->dso);
		}
		if (hidden)
			printf("# %zu symbols changed by less than %.2f points "
			       "(--threshold)\n", hidden, threshold);
	}
}

static json_object *side(const struct event_tab *t, int s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "samples", json_object_new_uint64(t->samples[s]));
	json_object_object_add(o, "period", json_object_new_uint64(t->total[s]));
	return o;
}

static int print_json(const struct diff *d, const char *const path[2],
		      double threshold)
{
	json_object *root = json_object_new_object(), *events;
	unsigned int e;
	size_t i;

	if (!root)
		return -ENOMEM;
	json_object_object_add(root, "base", json_object_new_string(path[0]));
	json_object_object_add(root, "new", json_object_new_string(path[1]));
	json_object_object_add(root, "threshold", json_object_new_double(threshold));
	events = json_object_new_array();
	for (e = 0; e < d->nev; e++) {
		const struct event_tab *t = &d->ev[e];
		json_object *o = json_object_new_object(), *syms;
		uint64_t hidden = 0;

		json_object_object_add(o, "event", json_object_new_string(t->name));
		json_object_object_add(o, "base", side(t, 0));
		json_object_object_add(o, "new", side(t, 1));
		syms = json_object_new_array();
		for (i = 0; i < t->n; i++) {
			const struct row *r = t->rows[i];
			json_object *x;

			if (fabs(r->delta) < threshold) {
				hidden++;
				continue;
			}
			x = json_object_new_object();
			json_object_object_add(x, "symbol", json_object_new_string(r->sym));
			json_object_object_add(x, "dso", json_object_new_string(r->dso));
			json_object_object_add(x, "base", json_object_new_double(r->share[0]));
			json_object_object_add(x, "new", json_object_new_double(r->share[1]));
			json_object_object_add(x, "delta", json_object_new_double(r->delta));
			json_object_array_add(syms, x);
		}
		json_object_object_add(o, "symbols", syms);
		json_object_object_add(o, "hidden", json_object_new_uint64(hidden));
		json_object_array_add(events, o);
	}
	json_object_object_add(root, "events", events);
	return put_json(root);
}

static void free_diff(struct diff *d)
{
	unsigned int e;
	size_t i;

	for (e = 0; e < d->nev; e++) {
		for (i = 0; i < d->ev[e].n; i++) {
			free(d->ev[e].rows[i]->sym);
			free(d->ev[e].rows[i]->dso);
			free(d->ev[e].rows[i]);
		}
		free(d->ev[e].rows);
		free(d->ev[e].name);
		skd_hmap_free(&d->ev[e].map);
	}
}

struct svg_job {
	struct stacks s[2];
	struct flame_opts o;
};

static int draw_svg(FILE *f, void *arg)
{
	struct svg_job *j = arg;

	return flamegraph_write(&j->s[1], &j->o, f);
}

/* NEW's stacks of @event, coloured against BASE's, into @path. */
static int write_diff_svg(struct skd_profile *p[2], const char *const path[2],
			  const char *event, const char *out)
{
	struct svg_job j = { .o = { .base = &j.s[0] } };
	char title[512];
	int ret;

	ret = stacks_collect(p[1], event, &j.s[1]);
	if (!ret)
		ret = stacks_collect(p[0], j.s[1].event, &j.s[0]);
	if (ret == -ENOENT)
		fprintf(stderr, "%s diff: no flame graph written\n", PROG_NAME);
	else if (ret)
		fprintf(stderr, "%s: out of memory\n", PROG_NAME);
	if (!ret) {
		snprintf(title, sizeof(title), "%s against %s", path[1], path[0]);
		j.o.title = title;
		ret = write_atomically(out, draw_svg, &j);
	}
	stacks_free(&j.s[0]);
	stacks_free(&j.s[1]);
	return ret;
}

int diff_main(int argc, char *argv[])
{
	enum { OPT_THRESHOLD = 256, OPT_JSON, OPT_SVG, OPT_EVENT };
	static const struct option longopts[] = {
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "svg", required_argument, NULL, OPT_SVG },
		{ "event", required_argument, NULL, OPT_EVENT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *svg = NULL, *event = NULL, *path[2];
	struct skd_profile *p[2] = { NULL, NULL };
	struct diff d = { .nev = 0 };
	double threshold = 0;
	bool json = false;
	char *end;
	int c, i, ret = 1;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_THRESHOLD:
			threshold = strtod(optarg, &end);
			if (end == optarg || *end || !(threshold >= 0)) {
				fprintf(stderr, "%s %s: --threshold takes a number "
					"of percentage points, like 0.5 (not '%s')\n",
					PROG_NAME, argv[0], optarg);
				return 1;
			}
			break;
		case OPT_JSON:
			json = true;
			break;
		case OPT_SVG:
			svg = optarg;
			break;
		case OPT_EVENT:
			event = optarg;
			break;
		case 'h':
			printf(usage_text, PROG_NAME, argv[0]);
			return 0;
		default:
			fprintf(stderr, usage_text, PROG_NAME, argv[0]);
			return 1;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "%s %s: give two captures, BASE and NEW "
			"(`%s %s --help`)\n", PROG_NAME, argv[0], PROG_NAME,
			argv[0]);
		return 1;
	}
	path[0] = argv[optind];
	path[1] = argv[optind + 1];
	for (i = 0; i < 2; i++) {
		/* Both operands are the captures: nothing is left over. */
		p[i] = load_input(0, argv, 0, path[i]);
		if (!p[i])
			goto out;
	}
	if (add_capture(&d, p[1], 1) || add_capture(&d, p[0], 0)) {
		fprintf(stderr, "%s: out of memory\n", PROG_NAME);
		goto out;
	}
	compute(&d);
	if (json) {
		if (print_json(&d, path, threshold))
			goto out;
	} else {
		print_text(&d, path, threshold);
	}
	if (svg && write_diff_svg(p, path, event, svg))
		goto out;
	for (i = 0; i < 2; i++)
		warn_capture_problems(path[i], skd_profile_totals(p[i]));
	ret = finish_stdout(0) ? 1 : 0;
out:
	free_diff(&d);
	for (i = 0; i < 2; i++)
		if (p[i])
			skd_profile_free(p[i]);
	return ret;
}
