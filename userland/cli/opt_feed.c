// SPDX-License-Identifier: GPL-2.0
/* What the optimizer feeds (write_autofdo.c, write_bolt.c) share. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "opt_writers.h"
#include "subcommands.h"

void opt_counts_add(struct opt_counts *c, uint64_t key, bool mispred)
{
	struct opt_count *e = skd_hmap_get_or_new(&c->m, key, sizeof(*e));

	if (!e) {
		c->err = -ENOMEM;
		return;
	}
	e->key = key;
	e->n++;
	e->mispred += mispred;
}

struct sorted {
	struct opt_count **v;
	size_t n;
};

static void collect(uint64_t key, void *val, void *arg)
{
	struct sorted *s = arg;

	(void)key;
	s->v[s->n++] = val;
}

static int by_key(const void *a, const void *b)
{
	const struct opt_count *const *x = a, *const *y = b;

	return (*x)->key < (*y)->key ? -1 : (*x)->key > (*y)->key;
}

int opt_counts_sorted(const struct opt_counts *c, struct opt_count ***v,
		      size_t *n)
{
	struct sorted s = { NULL, 0 };

	if (c->err)
		return c->err;
	s.v = malloc((c->m.len ? c->m.len : 1) * sizeof(*s.v));
	if (!s.v)
		return -ENOMEM;
	skd_hmap_each(&c->m, collect, &s);
	qsort(s.v, s.n, sizeof(*s.v), by_key);
	*v = s.v;
	*n = s.n;
	return 0;
}

static void free_count(uint64_t key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	free(val);
}

void opt_counts_free(struct opt_counts *c)
{
	skd_hmap_each(&c->m, free_count, NULL);
	skd_hmap_free(&c->m);
}

int opt_feed_open(struct opt_binary *b, struct skd_profile *p,
		  const struct writer_args *a, const char *fmt,
		  bool need_branches)
{
	int ret;

	if (!a->binary) {
		fprintf(stderr, "%s convert: -f %s needs --binary PATH, the "
			"program to optimize\n", PROG_NAME, fmt);
		return -EINVAL;
	}
	ret = opt_binary_open(b, a->binary, "convert");
	if (ret)
		return ret;
	ret = opt_binary_check(b, p, a->input, "convert", need_branches);
	if (ret)
		opt_binary_close(b);
	return ret;
}

int opt_feed_close(struct opt_binary *b, int ret)
{
	if (ret == -ENOMEM)
		fprintf(stderr, "%s convert: out of memory\n", PROG_NAME);
	opt_binary_close(b);
	return ret;
}
