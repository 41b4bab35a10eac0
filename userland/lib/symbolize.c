// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildid.h"
#include "buildid_cache.h"
#include "hmap.h"
#include "jitmap.h"
#include "symbolize.h"

/* A (path, build-id) seen, opened or not. */
struct obj {
	struct obj *next;	/* same hash */
	char *path;
	char *bid;		/* NULL: the capture had none */
	struct skd_dso *dso;	/* NULL: failed, reported */
};

struct skd_symbolizer {
	struct skd_symbolizer_opts o;
	struct skd_dso_opts dopts;
	struct skd_hmap objs;		/* hash -> struct obj chain */
	struct skd_hmap jits;		/* pid + 1 -> struct skd_symtab or s */
	struct skd_symtab *kernel;
	char *kernel_bid;
	bool kernel_tried;
	bool names_only;
	/* The objects last asked for, by the caller's pointers (stable:
	 * a profile's map paths and build-ids), before any hashing. */
	struct {
		const char *path, *bid;
		struct skd_dso *dso;
	} recent[16];
	unsigned int next_recent;	/* the one to replace */
};

static void warn(struct skd_symbolizer *s, const char *msg)
{
	if (s->o.warn)
		s->o.warn(msg, s->o.warn_arg);
	else
		fprintf(stderr, "skidless: %s\n", msg);
}

struct skd_symbolizer *skd_symbolizer_new(const struct skd_symbolizer_opts *o)
{
	struct skd_symbolizer *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	if (o)
		s->o = *o;
	s->dopts.cache_dir = s->o.cache_dir;
	s->dopts.debug_dir = s->o.debug_dir;
	return s;
}

static void free_obj(uint64_t key, void *val, void *arg)
{
	struct obj *ob = val, *next;

	(void)key;
	(void)arg;
	for (; ob; ob = next) {
		next = ob->next;
		skd_dso_free(ob->dso);
		free(ob->path);
		free(ob->bid);
		free(ob);
	}
}

static void free_jit(uint64_t key, void *val, void *arg)
{
	(void)key;
	if (val != arg)
		skd_symtab_free(val);
}

void skd_symbolizer_free(struct skd_symbolizer *s)
{
	if (!s)
		return;
	skd_hmap_each(&s->objs, free_obj, NULL);
	skd_hmap_free(&s->objs);
	skd_hmap_each(&s->jits, free_jit, s);
	skd_hmap_free(&s->jits);
	skd_symtab_free(s->kernel);
	free(s->kernel_bid);
	free(s);
}

int skd_symbolizer_set_kernel(struct skd_symbolizer *s,
			      const struct skd_sym *syms, size_t n,
			      const char *build_id)
{
	if (build_id && !skd_build_id_valid(build_id))
		return -EINVAL;
	skd_symtab_free(s->kernel);
	s->kernel = NULL;
	free(s->kernel_bid);
	s->kernel_bid = build_id ? strdup(build_id) : NULL;
	if (build_id && !s->kernel_bid)
		return -ENOMEM;
	s->kernel_tried = false;
	if (n) {
		s->kernel = skd_symtab_from_list(syms, n);
		if (!s->kernel)
			return -errno;
		s->kernel_tried = true;
	}
	return 0;
}

static void load_kernel(struct skd_symbolizer *s)
{
	char file[PATH_MAX], running[SKD_BUILD_ID_HEX], msg[PATH_MAX + 256];
	const char *kallsyms = s->o.kallsyms ? s->o.kallsyms : "/proc/kallsyms";

	s->kernel_tried = true;
	if (!s->kernel_bid) {
		warn(s, "the capture carries neither kernel symbols nor the "
		     "kernel's build-id: kernel frames stay addresses (record "
		     "with /proc/kallsyms readable: as root, or kptr_restrict 0)");
		return;
	}
	if ((!s->o.cache_dir || *s->o.cache_dir) &&
	    !skd_buildid_cache_lookup(s->o.cache_dir, s->kernel_bid, file,
				      sizeof(file))) {
		s->kernel = skd_symtab_open_kallsyms(file);
		if (s->kernel)
			return;
		snprintf(msg, sizeof(msg), "%s: %s: kernel frames stay "
			 "addresses", file, strerror(errno));
		warn(s, msg);
		return;
	}
	if (skd_build_id_kernel(s->o.kernel_notes, running,
				sizeof(running)) > 0 &&
	    skd_build_id_equal(running, s->kernel_bid)) {
		s->kernel = skd_symtab_open_kallsyms(kallsyms);
		if (s->kernel)
			return;
		snprintf(msg, sizeof(msg), "%s: %s: kernel frames stay "
			 "addresses (read it as root, or set kptr_restrict to "
			 "0)", kallsyms, strerror(errno));
		warn(s, msg);
		return;
	}
	snprintf(msg, sizeof(msg), "the capture's kernel (build-id %s) is not "
		 "this machine's and the build-id cache has no kallsyms for "
		 "it: kernel frames stay addresses (report on the recording "
		 "machine, or copy its ~/.debug/[kernel.kallsyms])",
		 s->kernel_bid);
	warn(s, msg);
}

void skd_symbolizer_set_lines(struct skd_symbolizer *s, bool lines)
{
	s->names_only = !lines;
}

void skd_symbolize_kernel(struct skd_symbolizer *s, uint64_t ip,
			  uint64_t lookup, struct skd_symbol *out)
{
	const struct skd_sym *sym;

	memset(out, 0, sizeof(*out));
	if (!s->kernel_tried)
		load_kernel(s);
	sym = s->kernel ? skd_symtab_lookup(s->kernel, lookup) : NULL;
	if (sym) {
		out->name = sym->name;
		out->off = ip - sym->addr;
	}
}

static uint64_t obj_hash(const char *path, const char *bid)
{
	uint64_t h = skd_hash_str(SKD_HASH_INIT, path);

	/* Build-ids in any case are one id. */
	for (; bid && *bid; bid++)
		h = (h ^ (unsigned char)(*bid | 0x20)) * 0x100000001b3ULL;
	return h;
}

static struct skd_dso *get_dso(struct skd_symbolizer *s, const char *path,
			       const char *bid)
{
	uint64_t h = obj_hash(path, bid);
	struct obj *head = skd_hmap_get(&s->objs, h), *ob;
	char msg[2 * PATH_MAX];

	for (ob = head; ob; ob = ob->next)
		if (!strcmp(ob->path, path) &&
		    (bid ? ob->bid && skd_build_id_equal(ob->bid, bid) : !ob->bid))
			return ob->dso;
	ob = calloc(1, sizeof(*ob));
	if (!ob || !(ob->path = strdup(path)) ||
	    (bid && !(ob->bid = strdup(bid))) || skd_hmap_put(&s->objs, h, ob)) {
		if (ob) {
			free(ob->path);
			free(ob->bid);
		}
		free(ob);
		return NULL;
	}
	ob->next = head;
	msg[0] = '\0';
	ob->dso = skd_dso_open(path, bid, &s->dopts, msg, sizeof(msg));
	if (!ob->dso && msg[0] && !(errno == ENOENT && !bid))
		warn(s, msg);
	return ob->dso;
}

static const struct skd_symtab *get_jit(struct skd_symbolizer *s, uint32_t pid)
{
	char path[PATH_MAX];
	void *t = skd_hmap_get(&s->jits, (uint64_t)pid + 1);

	if (t)
		return t == s ? NULL : t;
	if (!skd_jitmap_path(s->o.jit_dir, pid, path, sizeof(path)))
		t = skd_jitmap_open(path);
	if (skd_hmap_put(&s->jits, (uint64_t)pid + 1, t ? t : s)) {
		skd_symtab_free(t);
		return NULL;
	}
	return t;
}

void skd_symbolize_user(struct skd_symbolizer *s, uint32_t pid,
			const char *path, uint64_t start, uint64_t pgoff,
			const char *build_id, uint64_t ip, uint64_t lookup,
			struct skd_symbol *out)
{
	const struct skd_sym *sym;
	const struct skd_symtab *jit;
	struct skd_dso_sym ds;
	struct skd_dso *d;
	uint64_t vaddr;
	size_t r;

	memset(out, 0, sizeof(*out));
	/* The first bytes decide before any string compare (every frame). */
	if (!path[0] || (path[0] == '/' && path[1] == '/' &&
			 !strncmp(path, "//anon", 6)) ||
	    (path[1] == 'm' && !strncmp(path, "/memfd:", 7)) ||
	    (path[0] == '[' && !strcmp(path, "[anon]"))) {
		jit = get_jit(s, pid);
		sym = jit ? skd_symtab_lookup(jit, lookup) : NULL;
		if (sym) {
			out->name = sym->name;
			out->off = ip - sym->addr;
		}
		return;
	}
	if (path[0] != '/' && !(build_id && !strcmp(path, SKD_VDSO_NAME)))
		return;
	/* A profile has one copy of each path: a few objects are hot. */
	for (r = 0; r < sizeof(s->recent) / sizeof(s->recent[0]); r++)
		if (s->recent[r].path == path && s->recent[r].bid == build_id)
			break;
	if (r < sizeof(s->recent) / sizeof(s->recent[0])) {
		d = s->recent[r].dso;
	} else {
		d = get_dso(s, path, build_id);
		r = s->next_recent++ % (sizeof(s->recent) / sizeof(s->recent[0]));
		s->recent[r].path = path;
		s->recent[r].bid = build_id;
		s->recent[r].dso = d;
	}
	if (!d || skd_dso_offset_to_vaddr(d, lookup - start + pgoff, &vaddr) ||
	    (s->names_only ? skd_dso_lookup_name(d, vaddr, &ds) :
			     skd_dso_lookup(d, vaddr, &ds)) || !ds.name)
		return;
	out->name = ds.name;
	out->off = vaddr + (ip - lookup) - ds.start;
	out->file = ds.file;
	out->line = ds.line;
	out->nr_inline = ds.nr_inline;
	out->inl = ds.inl;
}
