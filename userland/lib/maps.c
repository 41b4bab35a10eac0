// SPDX-License-Identifier: GPL-2.0
/*
 * skidless userland: maps text parsing (the format of /proc/PID/maps),
 * and the lookup of an address in the mappings the capture's records give.
 * Nothing here reads /proc: a live process's maps are never needed.
 *
 * A line is "start-end perms offset major:minor inode [path]", the numbers
 * in hex except the inode. Only executable mappings matter to us: they are
 * the only places a sampled ip or a frame-pointer return address can be.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maps.h"

/* A process with this much maps text is not one we can make sense of. */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A number in base 16 or 10, at most 64 bits wide, at *pp before end. */
static bool parse_num(const char **pp, const char *end, unsigned int base, uint64_t *v)
{
	const char *p = *pp;
	uint64_t x = 0;
	int d;

	while (p < end && (d = hexval(*p)) >= 0 && (unsigned int)d < base) {
		if (x > (UINT64_MAX - (uint64_t)d) / base)
			return false;
		x = x * base + (uint64_t)d;
		p++;
	}
	if (p == *pp)
		return false;
	*pp = p;
	*v = x;
	return true;
}

static bool expect(const char **pp, const char *end, char c)
{
	if (*pp == end || **pp != c)
		return false;
	(*pp)++;
	return true;
}

/*
 * One line [p, end) without its newline. *keep tells whether it is an
 * executable mapping, in which case m is filled (path still borrowed).
 */
static bool parse_line(const char *p, const char *end, struct skd_map *m, bool *keep,
		       const char **pathp, size_t *pathlen)
{
	uint64_t dev, inode;
	const char *perms;

	if (!parse_num(&p, end, 16, &m->start) || !expect(&p, end, '-') ||
	    !parse_num(&p, end, 16, &m->end) || !expect(&p, end, ' '))
		return false;
	if (end - p < 4)
		return false;
	perms = p;
	if ((perms[0] != 'r' && perms[0] != '-') || (perms[1] != 'w' && perms[1] != '-') ||
	    (perms[2] != 'x' && perms[2] != '-') || (perms[3] != 'p' && perms[3] != 's'))
		return false;
	p += 4;
	if (!expect(&p, end, ' ') || !parse_num(&p, end, 16, &m->pgoff) ||
	    !expect(&p, end, ' ') || !parse_num(&p, end, 16, &dev) || !expect(&p, end, ':') ||
	    !parse_num(&p, end, 16, &dev) || !expect(&p, end, ' ') ||
	    !parse_num(&p, end, 10, &inode))
		return false;
	if (m->start >= m->end)
		return false;
	/* The path, if any, follows padding; it may itself contain spaces. */
	if (p < end && *p != ' ')
		return false;
	while (p < end && *p == ' ')
		p++;
	if (memchr(p, '\0', (size_t)(end - p)))
		return false;
	*keep = perms[2] == 'x';
	*pathp = p;
	*pathlen = (size_t)(end - p);
	return true;
}

static int map_cmp(const void *a, const void *b)
{
	const struct skd_map *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

void skd_maps_free(struct skd_maps *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++)
		free(m->v[i].path);
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

int skd_maps_parse(const char *text, size_t len, struct skd_maps *out)
{
	const char *p, *end, *eol, *path;
	struct skd_maps res = { 0 };
	size_t cap = 0, i, plen;
	int err = 0;

	if (!out)
		return -EINVAL;
	out->v = NULL;
	out->n = 0;
	if (!len)
		return 0;
	if (!text)
		return -EINVAL;

	end = text + len;
	for (p = text; p < end; p = eol + 1) {
		struct skd_map m;
		bool keep;

		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		if (eol == p)
			continue;
		if (!parse_line(p, eol, &m, &keep, &path, &plen)) {
			err = -EINVAL;
			goto out;
		}
		if (!keep)
			continue;
		if (res.n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct skd_map *nv = realloc(res.v, ncap * sizeof(*nv));

			if (!nv) {
				err = -ENOMEM;
				goto out;
			}
			res.v = nv;
			cap = ncap;
		}
		m.path = strndup(path, plen);
		if (!m.path) {
			err = -ENOMEM;
			goto out;
		}
		res.v[res.n++] = m;
	}

	/* /proc gives them sorted; text from elsewhere may not be. */
	if (res.n > 1)
		qsort(res.v, res.n, sizeof(*res.v), map_cmp);
	for (i = 1; i < res.n; i++) {
		if (res.v[i].start < res.v[i - 1].end) {
			err = -EINVAL;
			goto out;
		}
	}
	*out = res;
	res.v = NULL;
	res.n = 0;
out:
	skd_maps_free(&res);
	return err;
}

const struct skd_map *skd_maps_find(const struct skd_maps *m, uint64_t addr)
{
	size_t lo = 0, hi;

	if (!m)
		return NULL;
	hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr < m->v[lo - 1].end)
		return &m->v[lo - 1];
	return NULL;
}
