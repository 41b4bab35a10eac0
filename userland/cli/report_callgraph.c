// SPDX-License-Identifier: GPL-2.0
/*
 * Call-graph trees for report: one node per function on the way, as
 * perf's default "function" key merges addresses of one function.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report_callgraph.h"

static size_t slot_hash(const struct rh_node *parent, const struct rh_sym *sym)
{
	uint64_t h = (uintptr_t)parent * 0x9e3779b97f4a7c15ULL ^
		     (uintptr_t)sym * 0xc2b2ae3d27d4eb4fULL;

	return (size_t)(h ^ h >> 29);
}

static int grow(struct rh_graph_index *ix)
{
	size_t cap = ix->cap ? ix->cap * 2 : 1024, i, j;
	struct rh_graph_slot *v = calloc(cap, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (i = 0; i < ix->cap; i++) {
		if (!ix->v[i].node)
			continue;
		for (j = slot_hash(ix->v[i].parent, ix->v[i].node->sym) & (cap - 1);
		     v[j].node; j = (j + 1) & (cap - 1))
			;
		v[j] = ix->v[i];
	}
	free(ix->v);
	ix->v = v;
	ix->cap = cap;
	return 0;
}

#define BLOCK_NODES	65536

static struct rh_node *new_node(struct rh_graph_index *ix)
{
	struct rh_node **b;

	if (!ix->nr_blocks || ix->used == BLOCK_NODES) {
		b = realloc(ix->blocks, (ix->nr_blocks + 1) * sizeof(*b));
		if (!b)
			return NULL;
		ix->blocks = b;
		b[ix->nr_blocks] = calloc(BLOCK_NODES, sizeof(**b));
		if (!b[ix->nr_blocks])
			return NULL;
		ix->nr_blocks++;
		ix->used = 0;
	}
	return &ix->blocks[ix->nr_blocks - 1][ix->used++];
}

static struct rh_node *child_of(struct rh_graph_index *ix,
				struct rh_node *parent,
				const struct rh_sym *sym)
{
	struct rh_node *c;
	size_t i;

	if ((ix->n + 1) * 2 > ix->cap && grow(ix))
		return NULL;
	for (i = slot_hash(parent, sym) & (ix->cap - 1); (c = ix->v[i].node);
	     i = (i + 1) & (ix->cap - 1))
		if (ix->v[i].parent == parent && c->sym == sym)
			return c;
	c = new_node(ix);
	if (!c)
		return NULL;
	c->sym = sym;
	c->next = parent->child;
	parent->child = c;
	ix->v[i].parent = parent;
	ix->v[i].node = c;
	ix->n++;
	return c;
}

int rh_graph_add_path(struct rh_graph_index *ix, struct rh_node *root,
		      const struct rh_sym *const *path, unsigned int n,
		      uint64_t period, struct rh_node **nodes)
{
	struct rh_node *node = root;
	unsigned int i;

	for (i = 0; i < n; i++) {
		node = child_of(ix, node, path[i]);
		if (!node)
			return -ENOMEM;
		node->period += period;
		node->samples++;
		if (nodes)
			nodes[i] = node;
	}
	return 0;
}

int rh_graph_add(struct rh_graph_index *ix, struct rh_node *root,
		 const struct rh_sym *const *path, unsigned int n,
		 uint64_t period)
{
	return rh_graph_add_path(ix, root, path, n, period, NULL);
}

void rh_graph_index_free(struct rh_graph_index *ix)
{
	size_t i;

	for (i = 0; i < ix->nr_blocks; i++)
		free(ix->blocks[i]);
	free(ix->blocks);
	free(ix->v);
	memset(ix, 0, sizeof(*ix));
}

static int by_period(const void *a, const void *b)
{
	const struct rh_node *x = *(struct rh_node *const *)a;
	const struct rh_node *y = *(struct rh_node *const *)b;

	if (x->period != y->period)
		return x->period < y->period ? 1 : -1;
	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	if (x->sym->name && y->sym->name)
		return strcmp(x->sym->name, y->sym->name);
	return (x->sym->ip > y->sym->ip) - (x->sym->ip < y->sym->ip);
}

struct scratch {
	struct rh_node **v;
	size_t cap;
};

bool rh_graph_shown(const struct rh_node *n, uint64_t total, double limit)
{
	return (total ? 100.0 * (double)n->period / (double)total : 0.0) >= limit;
}

static int sort_level(struct rh_node *root, struct scratch *sc, size_t base,
		      uint64_t total, double limit)
{
	struct rh_node *c, *hidden = NULL, **tail = &hidden;
	size_t n = 0, i;
	int ret = 0;

	/* The shown children into the buffer, the rest kept aside in order. */
	for (c = root->child; c; c = c->next) {
		if (!rh_graph_shown(c, total, limit)) {
			*tail = c;
			tail = &c->next;
			continue;
		}
		if (base + n >= sc->cap) {
			size_t cap = (base + n + 1) * 2;
			struct rh_node **v = realloc(sc->v, cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			sc->v = v;
			sc->cap = cap;
		}
		sc->v[base + n++] = c;
	}
	*tail = NULL;
	if (n > 1)
		qsort(sc->v + base, n, sizeof(*sc->v), by_period);
	/* The levels below reuse the buffer past this level's part. */
	for (i = 0; i < n; i++)
		sc->v[base + i]->next = i + 1 < n ? sc->v[base + i + 1] : hidden;
	root->child = n ? sc->v[base] : hidden;
	for (i = 0; i < n && !ret; i++)
		ret = sort_level(sc->v[base + i], sc, base + n, total, limit);
	return ret;
}

int rh_graph_sort(struct rh_node *root, uint64_t total, double limit)
{
	struct scratch sc = { 0 };
	int ret = sort_level(root, &sc, 0, total, limit);

	free(sc.v);
	return ret;
}
