/* SPDX-License-Identifier: GPL-2.0 */
/*
 * skidless userland: executable mappings of a process, from the text of
 * /proc/PID/maps, to turn a user ip into (file, file offset).
 */
#ifndef _SKD_MAPS_H
#define _SKD_MAPS_H

#include <stddef.h>
#include <stdint.h>

struct skd_map {
	uint64_t start, end;	/* [start, end) */
	uint64_t pgoff;		/* file offset of start */
	char *path;		/* "" when anonymous; may be "[vdso]", "... (deleted)" */
};

struct skd_maps {
	struct skd_map *v;	/* sorted by start, non-overlapping */
	size_t n;
};

/*
 * Parse maps text (the format of /proc/PID/maps), keeping only executable
 * mappings ('x' in the permissions). Empty lines are ignored. On success
 * out owns the result (skd_maps_free). Returns 0, -EINVAL on a malformed
 * line or overlapping mappings (out is then empty), -ENOMEM.
 */
int skd_maps_parse(const char *text, size_t len, struct skd_maps *out);

/* The mapping containing addr, or NULL. */
const struct skd_map *skd_maps_find(const struct skd_maps *m, uint64_t addr);

void skd_maps_free(struct skd_maps *m);

/* Offset in the mapped file of an address inside m. */
static inline uint64_t skd_map_file_offset(const struct skd_map *m, uint64_t addr)
{
	return addr - m->start + m->pgoff;
}

#endif /* _SKD_MAPS_H */
