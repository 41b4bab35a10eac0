// SPDX-License-Identifier: GPL-2.0
/*
 * report's entries. Names are interned once (the profile hands out the
 * same pointers for the same name again and again, so a pointer-keyed
 * cache answers before any string is hashed), a function is one struct
 * rh_sym, and an entry is found by the values of its sort keys.
 *
 * Children, as perf counts them: a sample charges its period to the
 * entry of every distinct function on its chain once, recursion or not.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "report_callgraph.h"
#include "report_hist.h"

/* Open addressing over a stored hash; values are never removed. */
struct slot {
	uint64_t h;
	void *v;
};

struct table {
	struct slot *s;
	size_t cap, n;		/* cap: power of two, or 0 */
};

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

typedef bool (*eq_fn)(const void *val, const void *key);

/* The value under @h that @eq accepts, or NULL with *@at its free slot. */
static void *tab_find(const struct table *t, uint64_t h, eq_fn eq,
		      const void *key, size_t *at)
{
	size_t i;

	if (!t->cap) {
		*at = 0;
		return NULL;
	}
	for (i = h & (t->cap - 1); t->s[i].v; i = (i + 1) & (t->cap - 1))
		if (t->s[i].h == h && eq(t->s[i].v, key))
			return t->s[i].v;
	*at = i;
	return NULL;
}

/* Store @v at the slot tab_find() gave, growing first when needed. */
static int tab_put(struct table *t, uint64_t h, void *v, size_t at)
{
	size_t i, j;

	if ((t->n + 1) * 2 > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct slot *s = calloc(cap, sizeof(*s));

		if (!s)
			return -ENOMEM;
		for (i = 0; i < t->cap; i++) {
			if (!t->s[i].v)
				continue;
			for (j = t->s[i].h & (cap - 1); s[j].v; j = (j + 1) & (cap - 1))
				;
			s[j] = t->s[i];
		}
		free(t->s);
		t->s = s;
		t->cap = cap;
		for (at = h & (cap - 1); s[at].v; at = (at + 1) & (cap - 1))
			;
	}
	t->s[at].h = h;
	t->s[at].v = v;
	t->n++;
	return 0;
}

static void tab_free(struct table *t, bool values)
{
	size_t i;

	for (i = 0; values && i < t->cap; i++)
		free(t->s[i].v);
	free(t->s);
	memset(t, 0, sizeof(*t));
}

/* A string seen at @ptr, interned as @str. */
struct alias {
	const char *ptr, *str;
};

/* The pointers a frame came with, and the function they name. */
struct frame_alias {
	const char *sym, *dso;
	uint64_t ip;
	bool kernel;
	const struct rh_sym *to;
};

/* A self entry's graph path for a stack of callers (rh_sample.callers_key). */
#define PATH_SLOTS	4096
#define PATH_MAX_NODES	16

struct path_memo {
	uint64_t key;			/* 0: empty */
	const struct rh_entry *e;
	unsigned int n;
	struct rh_node *nodes[PATH_MAX_NODES];
};

struct rh_hist {
	struct rh_config c;
	struct table strings;	/* char * (owned) */
	struct table aliases;	/* struct alias */
	struct table syms;	/* struct rh_sym */
	struct table frames;	/* struct frame_alias */
	struct table entries;	/* struct rh_entry */
	struct rh_graph_index graph;
	struct path_memo *paths;	/* PATH_SLOTS, made when first needed */
	struct rh_totals totals[SKD_REPORT_EVENTS];
	/* The sample being added: its functions, entries charged, paths. */
	const struct rh_sym **fsyms;
	const char **flines;
	struct rh_entry **charged;
	const struct rh_sym **path;
	unsigned int scratch;
	struct rh_entry **sorted;
	size_t nr_sorted;
};

static bool str_eq(const void *val, const void *key)
{
	return !strcmp(val, key);
}

static bool alias_eq(const void *val, const void *key)
{
	return ((const struct alias *)val)->ptr == key;
}

/* The one copy of @s, by its text alone; NULL when out of memory. */
static const char *intern_text(struct rh_hist *h, const char *s)
{
	uint64_t sh = skd_hash_str(SKD_HASH_INIT, s);
	char *str;
	size_t at;

	str = tab_find(&h->strings, sh, str_eq, s, &at);
	if (str)
		return str;
	str = strdup(s);
	if (!str || tab_put(&h->strings, sh, str, at)) {
		free(str);
		return NULL;
	}
	return str;
}

/*
 * The one copy of @s, a string that stays at its address with its text
 * (the profile's names): its address is looked up first.
 */
static const char *intern(struct rh_hist *h, const char *s)
{
	uint64_t ph = mix((uintptr_t)s);
	struct alias *a;
	size_t at;

	a = tab_find(&h->aliases, ph, alias_eq, s, &at);
	if (a)
		return a->str;
	a = malloc(sizeof(*a));
	if (!a)
		return NULL;
	a->ptr = s;
	a->str = intern_text(h, s);
	if (!a->str) {
		free(a);
		return NULL;
	}
	tab_find(&h->aliases, ph, alias_eq, s, &at);
	if (tab_put(&h->aliases, ph, a, at)) {
		free(a);
		return NULL;
	}
	return a->str;
}

static bool sym_eq(const void *val, const void *key)
{
	const struct rh_sym *x = val, *y = key;

	return x->name == y->name && x->dso == y->dso && x->ip == y->ip &&
	       x->kernel == y->kernel;
}

static uint64_t sym_hash(const struct rh_sym *s)
{
	return mix((uintptr_t)s->name ^ mix((uintptr_t)s->dso ^
					    mix(s->ip + s->kernel)));
}

static bool frame_eq(const void *val, const void *key)
{
	const struct frame_alias *x = val;
	const struct rh_frame *y = key;

	return x->sym == y->sym && x->dso == y->dso && x->kernel == y->kernel &&
	       (y->sym || x->ip == y->ip);
}

/*
 * kallsyms names a module's function "name [module]": as perf, the
 * function is "name" and its object "[module]". 0 or -ENOMEM.
 */
static int split_module(struct rh_hist *h, struct rh_sym *s)
{
	const char *br = strrchr(s->name, '[');
	size_t len = strlen(s->name);
	char buf[512];

	if (!br || br == s->name || br[-1] != ' ' || s->name[len - 1] != ']' ||
	    len >= sizeof(buf))
		return 0;
	s->dso = intern_text(h, br);
	memcpy(buf, s->name, (size_t)(br - 1 - s->name));
	buf[br - 1 - s->name] = '\0';
	s->name = intern_text(h, buf);
	return s->dso && s->name ? 0 : -ENOMEM;
}

/* The function @f is in; NULL when out of memory. */
static const struct rh_sym *sym_of(struct rh_hist *h, const struct rh_frame *f)
{
	uint64_t fh = mix((uintptr_t)f->sym ^ mix((uintptr_t)f->dso ^
			  mix((f->sym ? 0 : f->ip) + f->kernel)));
	struct frame_alias *fa;
	struct rh_sym key, *s;
	size_t at;

	fa = tab_find(&h->frames, fh, frame_eq, f, &at);
	if (fa)
		return fa->to;
	key = (struct rh_sym){
		.name = f->sym ? intern(h, f->sym) : NULL,
		.dso = intern(h, f->dso),
		/* An unknown function is its address, as perf shows it. */
		.ip = f->sym ? 0 : f->ip,
		.kernel = f->kernel,
	};
	if ((f->sym && !key.name) || !key.dso)
		return NULL;
	if (key.kernel && key.name && split_module(h, &key))
		return NULL;
	s = tab_find(&h->syms, sym_hash(&key), sym_eq, &key, &at);
	if (!s) {
		s = malloc(sizeof(*s));
		if (!s)
			return NULL;
		*s = key;
		if (tab_put(&h->syms, sym_hash(&key), s, at)) {
			free(s);
			return NULL;
		}
	}
	fa = malloc(sizeof(*fa));
	if (!fa)
		return NULL;
	*fa = (struct frame_alias){ f->sym, f->dso, f->sym ? 0 : f->ip,
				    f->kernel, s };
	tab_find(&h->frames, fh, frame_eq, f, &at);
	if (tab_put(&h->frames, fh, fa, at)) {
		free(fa);
		return NULL;
	}
	return s;
}

/*
 * "file.c:12" as perf's srcline shows it (the file's base name); without
 * line information "sym+OFFSET" (decimal, as perf), else "??:0".
 */
static const char *srcline_of(struct rh_hist *h, const struct rh_frame *f)
{
	const char *slash;
	char buf[512];

	if (!f->file && f->sym) {
		snprintf(buf, sizeof(buf), "%s+%" PRIu64, f->sym, f->off);
		return intern_text(h, buf);
	}
	if (!f->file)
		return intern_text(h, "??:0");
	slash = strrchr(f->file, '/');
	snprintf(buf, sizeof(buf), "%s:%u", slash ? slash + 1 : f->file,
		 f->line);
	return intern_text(h, buf);
}

struct rh_hist *rh_hist_new(const struct rh_config *c)
{
	struct rh_hist *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->c = *c;
	if (!h->c.nr_keys) {
		h->c.keys[0] = RH_SYM;
		h->c.nr_keys = 1;
	}
	return h;
}


void rh_hist_free(struct rh_hist *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; i < h->entries.cap; i++)
		if (h->entries.s[i].v)
			free(h->entries.s[i].v);
	tab_free(&h->entries, false);
	rh_graph_index_free(&h->graph);
	free(h->paths);
	tab_free(&h->strings, true);
	tab_free(&h->aliases, true);
	tab_free(&h->syms, true);
	tab_free(&h->frames, true);
	free(h->fsyms);
	free(h->flines);
	free(h->charged);
	free(h->path);
	free(h->sorted);
	free(h);
}

const struct rh_config *rh_hist_config(const struct rh_hist *h)
{
	return &h->c;
}

static bool entry_eq(const void *val, const void *key)
{
	const struct rh_entry *x = val, *y = key;
	unsigned int i;

	if (x->event != y->event)
		return false;
	for (i = 0; i < RH_MAX_KEYS; i++)
		if (x->val[i] != y->val[i])
			return false;
	return true;
}

/* The entry of frame @i of @s (with the sample's own comm, pid, ...). */
static struct rh_entry *entry_of(struct rh_hist *h, const struct rh_sample *s,
				 unsigned int i, const char *comm,
				 const char *tname)
{
	struct rh_entry key = { .event = s->event }, *e;
	uint64_t hash = mix(s->event);
	unsigned int k;
	size_t at;

	for (k = 0; k < h->c.nr_keys; k++) {
		uint64_t v = 0;

		switch (h->c.keys[k]) {
		case RH_SYM: v = (uintptr_t)h->fsyms[i]; break;
		case RH_DSO: v = (uintptr_t)h->fsyms[i]->dso; break;
		case RH_COMM: v = (uintptr_t)comm; break;
		case RH_PID: v = s->pid; break;
		case RH_TID: v = s->tid; break;
		case RH_CPU: v = s->cpu; break;
		case RH_SRCLINE: v = (uintptr_t)h->flines[i]; break;
		case RH_IP: v = s->f[i].ip; break;
		case RH_NR_KEYS: break;
		}
		key.val[k] = v;
		hash = mix(hash ^ v) + k;
	}
	e = tab_find(&h->entries, hash, entry_eq, &key, &at);
	if (e)
		return e;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	*e = key;
	e->sym = h->fsyms[i];
	e->comm = tname;
	if (tab_put(&h->entries, hash, e, at)) {
		free(e);
		return NULL;
	}
	return e;
}

static int grow_scratch(struct rh_hist *h, unsigned int nr)
{
	unsigned int n = h->scratch ? h->scratch : 64;
	void *a, *b, *c, *d;

	while (n < nr)
		n *= 2;
	a = realloc(h->fsyms, n * sizeof(*h->fsyms));
	if (a)
		h->fsyms = a;
	b = realloc(h->flines, n * sizeof(*h->flines));
	if (b)
		h->flines = b;
	c = realloc(h->charged, n * sizeof(*h->charged));
	if (c)
		h->charged = c;
	d = realloc(h->path, n * sizeof(*h->path));
	if (d)
		h->path = d;
	if (!a || !b || !c || !d)
		return -ENOMEM;
	h->scratch = n;
	return 0;
}

static bool needs_srcline(const struct rh_config *c)
{
	unsigned int k;

	for (k = 0; k < c->nr_keys; k++)
		if (c->keys[k] == RH_SRCLINE)
			return true;
	return false;
}

/*
 * The graph under the entry of frame @i: its callees (frames below it,
 * nearest first) in caller order, its callers in callee order.
 */
static int add_path(struct rh_hist *h, struct rh_entry *e, unsigned int i,
		    unsigned int nr, uint64_t period)
{
	unsigned int n = 0, j;

	if (h->c.order == RH_CALLER && h->c.children) {
		for (j = i; j-- > 0;)
			h->path[n++] = h->fsyms[j];
	} else if (h->c.order == RH_CALLER) {
		/* Self entries in caller order: from the root down to it. */
		for (j = nr; j-- > i + 1;)
			h->path[n++] = h->fsyms[j];
	} else {
		for (j = i + 1; j < nr; j++)
			h->path[n++] = h->fsyms[j];
	}
	return rh_graph_add(&h->graph, &e->root, h->path, n, period);
}

/* The slot of @key, or NULL when the table cannot be had. */
static struct path_memo *path_memo_of(struct rh_hist *h, uint64_t key)
{
	if (!h->paths)
		h->paths = calloc(PATH_SLOTS, sizeof(*h->paths));
	return h->paths ? &h->paths[mix(key) % PATH_SLOTS] : NULL;
}

/* add_path() of a self entry in callee order, keeping its nodes. */
static int add_path_nodes(struct rh_hist *h, struct rh_entry *e,
			  unsigned int nr, uint64_t period,
			  struct rh_node **nodes)
{
	unsigned int n = 0, j;

	if (h->c.order == RH_CALLER) {
		for (j = nr; j-- > 1;)
			h->path[n++] = h->fsyms[j];
	} else {
		for (j = 1; j < nr; j++)
			h->path[n++] = h->fsyms[j];
	}
	return rh_graph_add_path(&h->graph, &e->root, h->path, n, period,
				 nodes);
}

int rh_hist_add(struct rh_hist *h, const struct rh_sample *s)
{
	/* Without children or a graph only the leaf is ever looked at. */
	unsigned int nr = h->c.children || h->c.callgraph ? s->nr : 1;
	unsigned int i, j, nc = 0;
	bool lines = needs_srcline(&h->c);
	const char *comm, *tname;
	struct path_memo *pm;
	struct rh_entry *e;

	if (s->event >= SKD_REPORT_EVENTS || !s->nr)
		return -EINVAL;
	if (s->hidden) {
		h->totals[s->event].samples++;
		h->totals[s->event].period += s->period;
		return 0;
	}
	if (nr > h->scratch && grow_scratch(h, nr))
		return -ENOMEM;
	comm = s->comm[0] ? intern_text(h, s->comm) : "";
	tname = s->thread_name ? intern_text(h, s->thread_name) : comm;
	if (!comm || !tname)
		return -ENOMEM;
	/* Self with a graph: a stack seen before has its path; callers
	 * are looked at only to find a new one. */
	pm = !h->c.children && h->c.callgraph && s->callers_key &&
	     nr - 1 <= PATH_MAX_NODES ? path_memo_of(h, s->callers_key) : NULL;
	for (i = 0; i < (pm ? 1 : nr); i++) {
		h->fsyms[i] = sym_of(h, &s->f[i]);
		h->flines[i] = lines ? srcline_of(h, &s->f[i]) : NULL;
		if (!h->fsyms[i] || (lines && !h->flines[i]))
			return -ENOMEM;
	}
	h->totals[s->event].samples++;
	h->totals[s->event].period += s->period;

	e = entry_of(h, s, 0, comm, tname);
	if (!e)
		return -ENOMEM;
	e->self += s->period;
	e->samples++;
	if (pm && pm->key == s->callers_key && pm->e == e &&
	    pm->n == nr - 1) {
		for (i = 0; i < pm->n; i++) {
			pm->nodes[i]->period += s->period;
			pm->nodes[i]->samples++;
		}
		return 0;
	}
	if (pm) {
		for (i = 1; i < nr; i++) {
			h->fsyms[i] = sym_of(h, &s->f[i]);
			h->flines[i] = lines ? srcline_of(h, &s->f[i]) : NULL;
			if (!h->fsyms[i] || (lines && !h->flines[i]))
				return -ENOMEM;
		}
		pm->key = 0;	/* until the path is whole */
		if (add_path_nodes(h, e, nr, s->period, pm->nodes))
			return -ENOMEM;
		pm->key = s->callers_key;
		pm->e = e;
		pm->n = nr - 1;
		return 0;
	}
	if (!h->c.children) {
		return h->c.callgraph ? add_path(h, e, 0, nr, s->period) : 0;
	}
	for (i = 0; i < nr; i++) {
		e = i ? entry_of(h, s, i, comm, tname) : e;
		if (!e)
			return -ENOMEM;
		for (j = 0; j < nc && h->charged[j] != e; j++)
			;
		if (j < nc)
			continue;	/* recursion: once per sample */
		h->charged[nc++] = e;
		e->children += s->period;
		if (h->c.callgraph && add_path(h, e, i, nr, s->period))
			return -ENOMEM;
	}
	return 0;
}

const struct rh_totals *rh_hist_totals(const struct rh_hist *h,
				       unsigned int event)
{
	static const struct rh_totals none;

	return event < SKD_REPORT_EVENTS ? &h->totals[event] : &none;
}

void rh_sym_format(const struct rh_sym *s, char *buf, size_t len)
{
	if (s->name)
		snprintf(buf, len, "[%c] %s", s->kernel ? 'k' : '.', s->name);
	else
		snprintf(buf, len, "[%c] 0x%016" PRIx64, s->kernel ? 'k' : '.',
			 s->ip);
}

void rh_key_format(const struct rh_hist *h, const struct rh_entry *e,
		   unsigned int pos, char *buf, size_t len)
{
	uint64_t v = e->val[pos];

	switch (h->c.keys[pos]) {
	case RH_SYM:
		rh_sym_format(e->sym, buf, len);
		break;
	case RH_DSO:
		snprintf(buf, len, "%s", e->sym->dso);
		break;
	case RH_COMM:
	case RH_SRCLINE:
		snprintf(buf, len, "%s", (const char *)(uintptr_t)v);
		break;
	case RH_PID:
	case RH_TID:
		snprintf(buf, len, "%7" PRIu64 ":%s", v, e->comm);
		break;
	case RH_CPU:
		snprintf(buf, len, "%03" PRIu64, v);
		break;
	case RH_IP:
		snprintf(buf, len, "0x%016" PRIx64, v);
		break;
	default:
		snprintf(buf, len, "?");
	}
}

/* The hist sorting, for qsort's comparison (which has no argument). */
static const struct rh_hist *sorting;

static int by_share(const void *a, const void *b)
{
	const struct rh_entry *x = *(struct rh_entry *const *)a;
	const struct rh_entry *y = *(struct rh_entry *const *)b;
	char bx[512], by[512];
	unsigned int k;
	int d;

	if (sorting->c.children && x->children != y->children)
		return x->children < y->children ? 1 : -1;
	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	/* A tie: the keys as printed, so runs agree. */
	for (k = 0; k < sorting->c.nr_keys; k++) {
		rh_key_format(sorting, x, k, bx, sizeof(bx));
		rh_key_format(sorting, y, k, by, sizeof(by));
		d = strcmp(bx, by);
		if (d)
			return d;
	}
	return 0;
}

struct rh_entry **rh_hist_sorted(struct rh_hist *h, unsigned int event,
				 size_t *n)
{
	size_t i;

	*n = 0;
	free(h->sorted);
	h->sorted = malloc((h->entries.n ? h->entries.n : 1) *
			   sizeof(*h->sorted));
	if (!h->sorted)
		return NULL;
	for (i = 0; i < h->entries.cap; i++) {
		struct rh_entry *e = h->entries.s[i].v;

		if (e && e->event == event)
			h->sorted[(*n)++] = e;
	}
	sorting = h;
	if (*n > 1)
		qsort(h->sorted, *n, sizeof(*h->sorted), by_share);
	sorting = NULL;
	return h->sorted;
}
