// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"

static size_t slot_of(uint64_t key, size_t cap)
{
	/* Fibonacci hashing spreads sequential pids and aligned addresses. */
	return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & (cap - 1);
}

static size_t find(const struct skd_hmap *m, uint64_t key)
{
	size_t i = slot_of(key, m->cap);

	while (m->used[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int grow(struct skd_hmap *m)
{
	struct skd_hmap bigger = { .cap = m->cap ? m->cap * 2 : 64 };
	size_t i, j;

	bigger.keys = calloc(bigger.cap, sizeof(*bigger.keys));
	bigger.vals = calloc(bigger.cap, sizeof(*bigger.vals));
	bigger.used = calloc(bigger.cap, sizeof(*bigger.used));
	if (!bigger.keys || !bigger.vals || !bigger.used) {
		skd_hmap_free(&bigger);
		return -ENOMEM;
	}
	for (i = 0; i < m->cap; i++) {
		if (!m->used[i])
			continue;
		j = find(&bigger, m->keys[i]);
		bigger.used[j] = 1;
		bigger.keys[j] = m->keys[i];
		bigger.vals[j] = m->vals[i];
	}
	bigger.len = m->len;
	skd_hmap_free(m);
	*m = bigger;
	return 0;
}

void *skd_hmap_get(const struct skd_hmap *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	i = find(m, key);
	return m->used[i] ? m->vals[i] : NULL;
}

int skd_hmap_has(const struct skd_hmap *m, uint64_t key)
{
	return m->cap && m->used[find(m, key)];
}

int skd_hmap_put(struct skd_hmap *m, uint64_t key, void *val)
{
	size_t i;

	/* Keep the load under one half so probes stay short. */
	if ((m->len + 1) * 2 > m->cap && grow(m))
		return -ENOMEM;
	i = find(m, key);
	if (!m->used[i]) {
		m->used[i] = 1;
		m->keys[i] = key;
		m->len++;
	}
	m->vals[i] = val;
	return 0;
}

void *skd_hmap_get_or_new(struct skd_hmap *m, uint64_t key, size_t size)
{
	void *val = skd_hmap_get(m, key);

	if (val)
		return val;
	val = calloc(1, size);
	if (val && skd_hmap_put(m, key, val)) {
		free(val);
		return NULL;
	}
	return val;
}

void skd_hmap_each(const struct skd_hmap *m,
		   void (*fn)(uint64_t key, void *val, void *arg), void *arg)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		if (m->used[i])
			fn(m->keys[i], m->vals[i], arg);
}

void skd_hmap_free(struct skd_hmap *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof(*m));
}
