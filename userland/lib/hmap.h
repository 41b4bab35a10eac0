/* SPDX-License-Identifier: GPL-2.0 */
/* A u64 -> pointer hash map with open addressing; keys are never removed. */
#ifndef _SKD_HMAP_H
#define _SKD_HMAP_H

#include <stddef.h>
#include <stdint.h>

struct skd_hmap {
	uint64_t *keys;
	void **vals;
	uint8_t *used;
	size_t cap;		/* power of two */
	size_t len;
};

/* NULL when @key is absent. */
void *skd_hmap_get(const struct skd_hmap *m, uint64_t key);
/* Insert or replace; 0 or -ENOMEM. */
int skd_hmap_put(struct skd_hmap *m, uint64_t key, void *val);
int skd_hmap_has(const struct skd_hmap *m, uint64_t key);
/*
 * The value of @key, or a new zeroed allocation of @size bytes stored
 * under it. NULL only when out of memory. The caller frees the values.
 */
void *skd_hmap_get_or_new(struct skd_hmap *m, uint64_t key, size_t size);
/* Calls fn for every entry, in no particular order. */
void skd_hmap_each(const struct skd_hmap *m,
		   void (*fn)(uint64_t key, void *val, void *arg), void *arg);
void skd_hmap_free(struct skd_hmap *m);

/* FNV-1a keys for strings: start from SKD_HASH_INIT, chain calls. */
#define SKD_HASH_INIT	0xcbf29ce484222325ULL

static inline uint64_t skd_hash_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
	return h;
}

#endif /* _SKD_HMAP_H */
