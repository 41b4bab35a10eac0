// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stacks.h"
#include "subcommands.h"

bool stacks_frame_name(const struct skd_frame *f, char *buf, size_t len)
{
	const char *src = f->sym, *cut = NULL, *p;
	char raw[512];
	size_t o = 0;

	if (!len)
		return false;
	/* The script drops such frames (it takes them for process names). */
	if (src && src[0] == '(')
		return false;
	if (!src) {
		/* perf prints the full path; the script keeps its base name. */
		const char *obj = f->path && f->path[0] ? f->path : f->dso;
		const char *slash = strrchr(obj, '/');

		snprintf(raw, sizeof(raw), "[%s]", strcmp(obj, "[unknown]") ?
			 (slash ? slash + 1 : obj) : "unknown");
		src = raw;
	}
	/* Go's "pkg.(*T).M" keeps its parentheses; C++ loses its parameters. */
	p = strstr(src, ".(");
	if (!(p && strstr(p + 2, ").")))
		for (p = src; (p = strchr(p, '(')); p++)
			if (strncmp(p + 1, "anonymous namespace)", 20)) {
				cut = p;
				break;
			}
	for (p = src; *p && (!cut || p < cut) && o + 1 < len; p++)
		if (*p != '"' && *p != '\'')
			buf[o++] = *p == ';' ? ':' : *p;
	buf[o] = 0;
	return true;
}

static int grow(void **v, size_t *cap, size_t n, size_t size)
{
	void *nv;
	size_t ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 256;
	nv = realloc(*v, ncap * size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = ncap;
	return 0;
}

/*
 * The index of the frame named @name (@comm: the root), added if new.
 * Frames are their folded names, as the folded text tells them apart:
 * two objects' memmove are one frame, coloured by the first seen.
 */
static int frame_id(struct stacks *s, const char *name, const char *dso,
		    bool kernel, bool comm, uint32_t *out)
{
	uint64_t h = skd_hash_str(SKD_HASH_INIT, name) ^ (comm ? 2 : 0);
	uintptr_t head = (uintptr_t)skd_hmap_get(&s->frame_map, h);
	uint32_t i;
	struct stack_frame *f;
	size_t cap = s->cap_frames;

	for (i = (uint32_t)head; i; i = s->frame_next[i - 1]) {
		f = &s->frames[i - 1];
		if (f->comm == comm && !strcmp(f->name, name)) {
			*out = i - 1;
			return 0;
		}
	}
	if (grow((void **)&s->frames, &s->cap_frames, s->nr_frames,
		 sizeof(*s->frames)))
		return -ENOMEM;
	if (s->cap_frames != cap) {
		uint32_t *nn = realloc(s->frame_next,
				       s->cap_frames * sizeof(*nn));

		if (!nn)
			return -ENOMEM;
		s->frame_next = nn;
	}
	f = &s->frames[s->nr_frames];
	f->name = strdup(name);
	/* Object names live as long as the profile; the comm has none. */
	f->dso = dso;
	f->kernel = kernel;
	f->comm = comm;
	if (!f->name)
		return -ENOMEM;
	s->frame_next[s->nr_frames] = (uint32_t)head;
	if (skd_hmap_put(&s->frame_map, h,
			 (void *)(uintptr_t)(s->nr_frames + 1))) {
		free(f->name);
		return -ENOMEM;
	}
	*out = (uint32_t)s->nr_frames++;
	return 0;
}

static int add_stack(struct stacks *s, const uint32_t *ids, unsigned int n,
		     uint64_t period)
{
	uint64_t h = SKD_HASH_INIT;
	struct stack *st, *head;
	unsigned int i;

	for (i = 0; i < n; i++)
		h = (h ^ ids[i]) * 0x100000001b3ULL;
	head = skd_hmap_get(&s->stack_map, h);
	for (st = head; st; st = st->next)
		if (st->n == n && !memcmp(st->ids, ids, n * sizeof(*ids)))
			break;
	if (!st) {
		if (grow((void **)&s->v, &s->cap, s->n, sizeof(*s->v)))
			return -ENOMEM;
		st = calloc(1, sizeof(*st));
		if (!st)
			return -ENOMEM;
		st->ids = malloc(n * sizeof(*ids));
		if (!st->ids || skd_hmap_put(&s->stack_map, h, st)) {
			free(st->ids);
			free(st);
			return -ENOMEM;
		}
		memcpy(st->ids, ids, n * sizeof(*ids));
		st->n = n;
		st->next = head;
		s->v[s->n++] = st;
	}
	st->period += period;
	st->samples++;
	s->total_period += period;
	s->total_samples++;
	return 0;
}

int stacks_add(struct stacks *s, const char *comm,
	       const struct skd_frame *frames, unsigned int n, uint64_t period)
{
	uint32_t ids[SKD_MAX_CALLCHAIN + 1];
	char name[512];
	unsigned int j, k = 0;
	int ret;

	snprintf(name, sizeof(name), "%s", comm);
	/* stackcollapse-perf.pl turns the comm's spaces into '_'. */
	for (char *c = name; *c; c++)
		if (*c == ' ')
			*c = '_';
	ret = frame_id(s, name, "", false, true, &ids[k++]);
	if (n > SKD_MAX_CALLCHAIN)
		n = SKD_MAX_CALLCHAIN;
	for (j = n; !ret && j--;) {
		if (!stacks_frame_name(&frames[j], name, sizeof(name)))
			continue;
		ret = frame_id(s, name, frames[j].dso, frames[j].kernel, false,
			       &ids[k++]);
	}
	return ret ? ret : add_stack(s, ids, k, period);
}

void stacks_free(struct stacks *s)
{
	size_t i;

	for (i = 0; i < s->nr_frames; i++)
		free(s->frames[i].name);
	for (i = 0; i < s->n; i++) {
		free(s->v[i]->ids);
		free(s->v[i]);
	}
	free(s->frames);
	free(s->frame_next);
	free(s->v);
	skd_hmap_free(&s->frame_map);
	skd_hmap_free(&s->stack_map);
	memset(s, 0, sizeof(*s));
}

void stacks_format(const struct stacks *s, const struct stack *st, char *buf,
		   size_t len)
{
	size_t o = 0;
	unsigned int i;

	if (!len)
		return;
	buf[0] = 0;
	for (i = 0; i < st->n && o + 1 < len; i++) {
		int w = snprintf(buf + o, len - o, "%s%s", i ? ";" : "",
				 s->frames[st->ids[i]].name);

		if (w < 0)
			break;
		o += (size_t)w;
	}
}

/* qsort has no context argument: the table being sorted. */
static const struct stacks *sorting;

/* Compare as the joined strings would compare (Perl's cmp: bytes). */
static int by_text(const void *a, const void *b)
{
	const struct stack *x = *(struct stack *const *)a;
	const struct stack *y = *(struct stack *const *)b;
	unsigned int cx = 0, cy = 0;
	const char *px = sorting->frames[x->ids[0]].name;
	const char *py = sorting->frames[y->ids[0]].name;

	/* Walk both texts byte by byte, ';' between frames, NUL at the end. */
	for (;;) {
		unsigned char bx, by;

		if (*px) {
			bx = (unsigned char)*px;
		} else if (cx + 1 < x->n) {
			bx = ';';
		} else {
			bx = 0;
		}
		if (*py) {
			by = (unsigned char)*py;
		} else if (cy + 1 < y->n) {
			by = ';';
		} else {
			by = 0;
		}
		if (bx != by)
			return bx < by ? -1 : 1;
		if (!bx)
			return 0;
		if (*px)
			px++;
		else
			px = sorting->frames[x->ids[++cx]].name;
		if (*py)
			py++;
		else
			py = sorting->frames[y->ids[++cy]].name;
	}
}

void stacks_sort(struct stacks *s)
{
	sorting = s;
	qsort(s->v, s->n, sizeof(*s->v), by_text);
	sorting = NULL;
}

void stacks_report_skipped(const struct stacks *s)
{
	if (s->other_events)
		fprintf(stderr, "%s: %" PRIu64 " samples of events other than "
			"%s skipped (--event NAME picks one)\n", PROG_NAME,
			s->other_events, s->event);
}
