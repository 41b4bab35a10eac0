// SPDX-License-Identifier: GPL-2.0
/*
 * The pprof encoder: tables of strings, mappings, functions, locations
 * and samples deduplicated as they come, packed by protobuf-c (code
 * generated from userland/proto/profile.proto at build time) and
 * gzipped by zlib. Identical samples (same event, thread, comm and
 * location list) are merged. A location is an object and address, its
 * lines the inlined functions innermost first then the function they
 * were inlined into.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "hmap.h"
#include "profile.pb-c.h"
#include "pprof_encode.h"
#include "subcommands.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__ValueType ValueType;

/* Hash -> chain of entry indexes (+1), for each deduplicated table. */
struct index {
	struct skd_hmap map;
	uint32_t *next;
	size_t cap;
};

struct sample_key {
	unsigned int event;		/* slot: values 2 * event and the next */
	uint32_t pid, tid;
	int64_t comm;
	uint64_t *locs;
	size_t n;
};

struct pprof {
	char **strs;
	size_t nstr, capstr;
	struct index istr;
	Mapping **maps;
	size_t nmap, capmap;
	struct index imap;
	Function **funcs;
	size_t nfunc, capfunc;
	struct index ifunc;
	Location **locs;
	size_t nloc, caploc;
	struct index iloc;
	Sample **samples;
	struct sample_key *skeys;
	size_t nsample, capsample;
	struct index isample;
	uint64_t *map_leaves;		/* samples whose leaf is in each map */
	size_t nleaf;
	ValueType **types;
	size_t ntype;
	int64_t duration;
	int64_t key_pid, key_tid, key_comm;
};

static int grow(void **v, size_t *cap, size_t n, size_t size)
{
	void *nv;
	size_t ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	nv = realloc(*v, ncap * size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = ncap;
	return 0;
}

static uint32_t index_head(const struct index *x, uint64_t h)
{
	return (uint32_t)(uintptr_t)skd_hmap_get(&x->map, h);
}

/* Chain entry @i (0-based) under @h. */
static int index_add(struct index *x, uint64_t h, size_t i)
{
	if (grow((void **)&x->next, &x->cap, i, sizeof(*x->next)))
		return -ENOMEM;
	x->next[i] = index_head(x, h);
	return skd_hmap_put(&x->map, h, (void *)(uintptr_t)(i + 1));
}

static void index_free(struct index *x)
{
	skd_hmap_free(&x->map);
	free(x->next);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ULL;
}

/* String table index of @s; -1 when out of memory. */
static int64_t str(struct pprof *pp, const char *s)
{
	uint64_t h = skd_hash_str(SKD_HASH_INIT, s);
	uint32_t i;

	for (i = index_head(&pp->istr, h); i; i = pp->istr.next[i - 1])
		if (!strcmp(pp->strs[i - 1], s))
			return i - 1;
	if (grow((void **)&pp->strs, &pp->capstr, pp->nstr, sizeof(char *)))
		return -1;
	pp->strs[pp->nstr] = strdup(s);
	if (!pp->strs[pp->nstr] || index_add(&pp->istr, h, pp->nstr)) {
		free(pp->strs[pp->nstr]);
		return -1;
	}
	return (int64_t)pp->nstr++;
}

/* Mapping id (1-based) of @f's object; 0 for none, -1 out of memory. */
static int64_t mapping(struct pprof *pp, const struct skd_frame *f)
{
	uint64_t h;
	int64_t file, bid;
	uint32_t i;
	Mapping *m;

	if (!f->path || !f->path[0])
		return 0;
	file = str(pp, f->path);
	bid = str(pp, f->build_id ? f->build_id : "");
	if (file < 0 || bid < 0)
		return -1;
	h = mix(mix(mix(SKD_HASH_INIT, (uint64_t)file), f->map_start),
		f->map_pgoff);
	for (i = index_head(&pp->imap, h); i; i = pp->imap.next[i - 1]) {
		m = pp->maps[i - 1];
		if (m->filename == file && m->memory_start == f->map_start &&
		    m->file_offset == f->map_pgoff)
			return i;
	}
	if (grow((void **)&pp->maps, &pp->capmap, pp->nmap, sizeof(m)) ||
	    !(m = malloc(sizeof(*m))))
		return -1;
	perftools__profiles__mapping__init(m);
	m->id = pp->nmap + 1;
	m->memory_start = f->map_start;
	m->memory_limit = f->map_end;
	m->file_offset = f->map_pgoff;
	m->filename = file;
	m->build_id = bid;
	/* Symbolized here: pprof must not look the addresses up again. */
	m->has_functions = m->has_filenames = m->has_line_numbers =
		m->has_inline_frames = true;
	pp->maps[pp->nmap] = m;
	if (index_add(&pp->imap, h, pp->nmap))
		return -1;
	return (int64_t)++pp->nmap;
}

static int64_t function(struct pprof *pp, const char *name, const char *file)
{
	int64_t n = str(pp, name), fl = str(pp, file ? file : "");
	uint64_t h = mix(mix(SKD_HASH_INIT, (uint64_t)n), (uint64_t)fl);
	uint32_t i;
	Function *fn;

	if (n < 0 || fl < 0)
		return -1;
	for (i = index_head(&pp->ifunc, h); i; i = pp->ifunc.next[i - 1])
		if (pp->funcs[i - 1]->name == n && pp->funcs[i - 1]->filename == fl)
			return i;
	if (grow((void **)&pp->funcs, &pp->capfunc, pp->nfunc, sizeof(fn)) ||
	    !(fn = malloc(sizeof(*fn))))
		return -1;
	perftools__profiles__function__init(fn);
	fn->id = pp->nfunc + 1;
	fn->name = fn->system_name = n;
	fn->filename = fl;
	pp->funcs[pp->nfunc] = fn;
	if (index_add(&pp->ifunc, h, pp->nfunc))
		return -1;
	return (int64_t)++pp->nfunc;
}

static Line *line(int64_t fn, unsigned int lineno)
{
	Line *l = malloc(sizeof(*l));

	if (l) {
		perftools__profiles__line__init(l);
		l->function_id = (uint64_t)fn;
		l->line = lineno;
	}
	return l;
}

/* A location's lines: inlined functions innermost first, then the caller. */
static int location_lines(struct pprof *pp, Location *loc,
			  const struct skd_frame *f)
{
	unsigned int i;
	int64_t fn;

	if (!f->sym)
		return 0;
	loc->line = calloc(f->nr_inline + 1, sizeof(*loc->line));
	if (!loc->line)
		return -ENOMEM;
	for (i = 0; i < f->nr_inline; i++) {
		const struct skd_srcloc *s = &f->inl[i];

		fn = function(pp, s->func ? s->func : "[inlined]", s->file);
		if (fn < 0 || !(loc->line[loc->n_line] = line(fn, s->line)))
			return -ENOMEM;
		loc->n_line++;
	}
	fn = function(pp, f->sym, f->file);
	if (fn < 0 || !(loc->line[loc->n_line] = line(fn, f->line)))
		return -ENOMEM;
	loc->n_line++;
	return 0;
}

/* Location id of @f; -1 when out of memory. */
static int64_t location(struct pprof *pp, const struct skd_frame *f)
{
	int64_t map = mapping(pp, f), sym = str(pp, f->sym ? f->sym : "");
	uint64_t h;
	uint32_t i;
	Location *loc;

	if (map < 0 || sym < 0)
		return -1;
	/* A return address may name another line than the same ip as a leaf. */
	h = mix(mix(mix(mix(SKD_HASH_INIT, (uint64_t)map), f->ip),
		    (uint64_t)sym), f->line);
	for (i = index_head(&pp->iloc, h); i; i = pp->iloc.next[i - 1]) {
		loc = pp->locs[i - 1];
		if (loc->mapping_id == (uint64_t)map && loc->address == f->ip &&
		    (loc->n_line ? pp->funcs[loc->line[loc->n_line - 1]->
				   function_id - 1]->name == sym : !f->sym) &&
		    (!loc->n_line || loc->line[loc->n_line - 1]->line == f->line))
			return i;
	}
	if (grow((void **)&pp->locs, &pp->caploc, pp->nloc, sizeof(loc)) ||
	    !(loc = malloc(sizeof(*loc))))
		return -1;
	perftools__profiles__location__init(loc);
	loc->id = pp->nloc + 1;
	loc->mapping_id = (uint64_t)map;
	loc->address = f->ip;
	pp->locs[pp->nloc++] = loc;
	if (location_lines(pp, loc, f) || index_add(&pp->iloc, h, pp->nloc - 1))
		return -1;
	return (int64_t)pp->nloc;
}

static Label *label(int64_t key, int64_t s, int64_t num)
{
	Label *l = malloc(sizeof(*l));

	if (l) {
		perftools__profiles__label__init(l);
		l->key = key;
		l->str = s;
		l->num = num;
	}
	return l;
}

static Sample *new_sample(struct pprof *pp, const struct sample_key *k)
{
	Sample *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	perftools__profiles__sample__init(s);
	s->location_id = malloc((k->n ? k->n : 1) * sizeof(uint64_t));
	s->value = calloc(pp->ntype, sizeof(int64_t));
	s->label = calloc(3, sizeof(*s->label));
	if (!s->location_id || !s->value || !s->label)
		return s;
	memcpy(s->location_id, k->locs, k->n * sizeof(uint64_t));
	s->n_location_id = k->n;
	s->n_value = pp->ntype;
	s->label[0] = label(pp->key_pid, 0, k->pid);
	s->label[1] = label(pp->key_tid, 0, k->tid);
	s->label[2] = label(pp->key_comm, k->comm, 0);
	s->n_label = 3;
	return s;
}

static int add_sample(struct pprof *pp, const struct sample_key *k,
		      uint64_t period)
{
	uint64_t h = mix(mix(mix(SKD_HASH_INIT, k->event), k->tid),
			 (uint64_t)k->comm);
	struct sample_key *o;
	Sample *s = NULL;
	uint32_t i;
	size_t j;

	for (j = 0; j < k->n; j++)
		h = mix(h, k->locs[j]);
	for (i = index_head(&pp->isample, h); i; i = pp->isample.next[i - 1]) {
		o = &pp->skeys[i - 1];
		if (o->event == k->event && o->pid == k->pid &&
		    o->tid == k->tid && o->comm == k->comm && o->n == k->n &&
		    !memcmp(o->locs, k->locs, k->n * sizeof(*k->locs))) {
			s = pp->samples[i - 1];
			break;
		}
	}
	if (!s) {
		size_t cap = pp->capsample;

		if (grow((void **)&pp->samples, &pp->capsample, pp->nsample,
			 sizeof(s)))
			return -ENOMEM;
		if (cap != pp->capsample) {
			o = realloc(pp->skeys, pp->capsample * sizeof(*o));
			if (!o)
				return -ENOMEM;
			pp->skeys = o;
		}
		s = new_sample(pp, k);
		pp->samples[pp->nsample] = s;
		o = &pp->skeys[pp->nsample];
		*o = *k;
		o->locs = s ? s->location_id : NULL;
		pp->nsample++;
		if (!s || !s->n_label || !s->label[0] || !s->label[1] ||
		    !s->label[2] || index_add(&pp->isample, h, pp->nsample - 1))
			return -ENOMEM;
	}
	s->value[2 * k->event] += 1;
	s->value[2 * k->event + 1] += (int64_t)period;
	return 0;
}

static int count_leaf(struct pprof *pp, uint64_t map)
{
	uint64_t *v;

	if (!map)
		return 0;
	if (map > pp->nleaf) {
		v = realloc(pp->map_leaves, pp->capmap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		memset(v + pp->nleaf, 0, (pp->capmap - pp->nleaf) * sizeof(*v));
		pp->map_leaves = v;
		pp->nleaf = pp->capmap;
	}
	pp->map_leaves[map - 1]++;
	return 0;
}

/*
 * pprof names the profile after mapping[0], "the main binary": the
 * object most samples were taken in goes first.
 */
static void main_mapping_first(struct pprof *pp)
{
	size_t i, best = 0;
	Mapping *m;

	for (i = 1; i < pp->nmap && i < pp->nleaf; i++)
		if (pp->map_leaves[i] > pp->map_leaves[best])
			best = i;
	if (!best)
		return;
	m = pp->maps[0];
	pp->maps[0] = pp->maps[best];
	pp->maps[best] = m;
	pp->maps[0]->id = 1;
	pp->maps[best]->id = best + 1;
	for (i = 0; i < pp->nloc; i++) {
		if (pp->locs[i]->mapping_id == 1)
			pp->locs[i]->mapping_id = best + 1;
		else if (pp->locs[i]->mapping_id == best + 1)
			pp->locs[i]->mapping_id = 1;
	}
}

static int gzip_write(const uint8_t *buf, size_t len, FILE *out)
{
	uint8_t chunk[64 * 1024];
	z_stream z = { 0 };
	int zr;

	/* windowBits 15 + 16: a gzip header and trailer, as pprof expects. */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	z.next_in = (uint8_t *)buf;
	z.avail_in = (uInt)len;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		zr = deflate(&z, Z_FINISH);
		if (zr == Z_STREAM_ERROR)
			break;
		if (fwrite(chunk, 1, sizeof(chunk) - z.avail_out, out) !=
		    sizeof(chunk) - z.avail_out) {
			zr = Z_ERRNO;
			break;
		}
	} while (zr != Z_STREAM_END);
	deflateEnd(&z);
	return zr == Z_STREAM_END ? 0 : -EIO;
}

void pprof_free(struct pprof *pp)
{
	size_t i, j;

	for (i = 0; i < pp->nstr; i++)
		free(pp->strs[i]);
	for (i = 0; i < pp->nmap; i++)
		free(pp->maps[i]);
	for (i = 0; i < pp->nfunc; i++)
		free(pp->funcs[i]);
	for (i = 0; i < pp->nloc; i++) {
		for (j = 0; j < pp->locs[i]->n_line; j++)
			free(pp->locs[i]->line[j]);
		free(pp->locs[i]->line);
		free(pp->locs[i]);
	}
	for (i = 0; i < pp->nsample; i++) {
		Sample *s = pp->samples[i];

		if (!s)
			continue;
		for (j = 0; s->label && j < 3; j++)
			free(s->label[j]);
		free(s->label);
		free(s->location_id);
		free(s->value);
		free(s);
	}
	for (i = 0; i < pp->ntype; i++)
		free(pp->types[i]);
	free(pp->strs);
	free(pp->maps);
	free(pp->funcs);
	free(pp->locs);
	free(pp->samples);
	free(pp->skeys);
	free(pp->map_leaves);
	free(pp->types);
	index_free(&pp->istr);
	index_free(&pp->imap);
	index_free(&pp->ifunc);
	index_free(&pp->iloc);
	index_free(&pp->isample);
	free(pp);
}

static const char *period_unit(const char *event)
{
	return !strncmp(event, "cpu-clock", 9) || !strncmp(event, "task-clock", 10)
	       ? "nanoseconds" : "events";
}

static ValueType *value_type(struct pprof *pp, const char *type,
			     const char *unit)
{
	ValueType *v = malloc(sizeof(*v));

	if (!v)
		return NULL;
	perftools__profiles__value_type__init(v);
	v->type = str(pp, type);
	v->unit = str(pp, unit);
	if (v->type < 0 || v->unit < 0) {
		free(v);
		return NULL;
	}
	return v;
}

struct pprof *pprof_new(const char *const *events, unsigned int n)
{
	struct pprof *pp = calloc(1, sizeof(*pp));
	char name[256];
	unsigned int e;

	/* string_table[0] must be "". */
	if (!pp || str(pp, "") != 0)
		goto fail;
	pp->types = calloc(2 * n + 1, sizeof(*pp->types));
	if (!pp->types)
		goto fail;
	for (e = 0; e < n; e++) {
		/* One event: pprof's usual "samples"; several: told apart. */
		if (n == 1)
			snprintf(name, sizeof(name), "samples");
		else
			snprintf(name, sizeof(name), "%s-samples", events[e]);
		pp->types[pp->ntype] = value_type(pp, name, "count");
		if (!pp->types[pp->ntype++])
			goto fail;
		pp->types[pp->ntype] = value_type(pp, events[e],
						  period_unit(events[e]));
		if (!pp->types[pp->ntype++])
			goto fail;
	}
	pp->key_pid = str(pp, "pid");
	pp->key_tid = str(pp, "tid");
	pp->key_comm = str(pp, "comm");
	if (pp->key_pid < 0 || pp->key_tid < 0 || pp->key_comm < 0)
		goto fail;
	return pp;
fail:
	if (pp)
		pprof_free(pp);
	return NULL;
}

int pprof_add_sample(struct pprof *pp, unsigned int event, uint32_t pid,
		     uint32_t tid, const char *comm,
		     const struct skd_frame *frames, unsigned int n,
		     uint64_t period)
{
	uint64_t locs[SKD_MAX_CALLCHAIN];
	struct sample_key k = { .event = event, .pid = pid, .tid = tid,
				.locs = locs };
	unsigned int j;
	int64_t loc;

	if (2 * event >= pp->ntype)
		return -EINVAL;
	if (n > SKD_MAX_CALLCHAIN)
		n = SKD_MAX_CALLCHAIN;
	for (j = 0; j < n; j++) {
		loc = location(pp, &frames[j]);
		if (loc < 0)
			return -ENOMEM;
		if (!j && count_leaf(pp, pp->locs[loc - 1]->mapping_id))
			return -ENOMEM;
		locs[k.n++] = (uint64_t)loc;
	}
	k.comm = str(pp, comm);
	if (k.comm < 0)
		return -ENOMEM;
	return add_sample(pp, &k, period);
}

void pprof_set_duration(struct pprof *pp, int64_t ns)
{
	pp->duration = ns;
}

int pprof_write(struct pprof *pp, FILE *out)
{
	Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	uint8_t *buf;
	size_t len;
	int ret;

	main_mapping_first(pp);
	prof.n_sample_type = pp->ntype;
	prof.sample_type = pp->types;
	prof.n_sample = pp->nsample;
	prof.sample = pp->samples;
	prof.n_mapping = pp->nmap;
	prof.mapping = pp->maps;
	prof.n_location = pp->nloc;
	prof.location = pp->locs;
	prof.n_function = pp->nfunc;
	prof.function = pp->funcs;
	prof.n_string_table = pp->nstr;
	prof.string_table = pp->strs;
	prof.duration_nanos = pp->duration;
	/* The first event's period is what pprof shows unless told. */
	if (pp->ntype)
		prof.default_sample_type = pp->types[1]->type;
	len = perftools__profiles__profile__get_packed_size(&prof);
	buf = malloc(len ? len : 1);
	if (!buf)
		return -ENOMEM;
	perftools__profiles__profile__pack(&prof, buf);
	ret = gzip_write(buf, len, out);
	free(buf);
	return ret;
}
