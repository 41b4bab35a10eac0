// SPDX-License-Identifier: GPL-2.0
/*
 * Objects through libdwfl: one Dwfl per object, reported at bias 0, so a
 * module address is the ELF's own virtual address. libdwfl finds symbol
 * tables (main file, separate debug file, .gnu_debugdata) and DWARF; this
 * file adds what it does not do: the build-id policy, PLT names, and the
 * shape of inline chains.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildid.h"
#include "buildid_cache.h"
#include "demangle.h"
#include "dso.h"
#include "hmap.h"
#include "plt.h"
#include "symbols.h"

#define ERR(...) (err ? (void)snprintf(err, errlen, __VA_ARGS__) : (void)0)

struct seg {
	uint64_t off, filesz, vaddr;
};

/* One looked-up address: every string but the name is owned here. */
struct entry {
	struct skd_dso_sym sym;
	struct skd_srcloc *inl;
	char *strings[];	/* 2 + 2 * nr_inline slots, NULL allowed */
};

/*
 * Which symbol libdwfl names an address by depends only on which symbols
 * start at or below it, which of them still cover it and which section
 * it is in: between two consecutive symbol starts, symbol ends or
 * section bounds the answer is the same. dwfl_module_addrinfo() walks
 * the whole symbol table on every call; asking it once per such span
 * keeps its answers and makes a profile of many addresses fast.
 */
struct span {
	char *name;		/* NULL: no symbol */
	uint64_t start;		/* the symbol's address (vaddr) */
	uint64_t size;		/* its st_size: 0 for a sizeless label */
	int state;		/* 0 not asked yet, 1 asked */
};

struct skd_dso {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwfl_Callbacks cb;
	char *debuginfo_path;
	char *file;
	char bid[SKD_BUILD_ID_HEX];
	uint64_t bias;
	struct seg *segs;
	size_t nsegs;
	struct skd_symtab *plt;
	uint64_t plt_lo, plt_hi;	/* what the PLT stubs cover */
	struct skd_hmap cache;	/* vaddr -> struct entry */
	/* Span i is [bounds[i - 1], bounds[i]): module addresses. */
	uint64_t *bounds;
	struct span *spans;	/* nbounds + 1 */
	size_t nbounds;
	/* By 4 KiB page from bounds[0]: bounds at or below the page's start. */
	uint32_t *page_first;
	size_t npages;
	int spans_state;	/* 0 not built, 1 built, -1 unavailable */
};

static int file_matches(const char *file, const char *want, char *have,
			size_t havelen)
{
	int ret = skd_build_id_file(file, have, havelen);

	if (ret < 0)
		return ret;
	return skd_build_id_equal(have, want) ? 0 : -ESTALE;
}

int skd_dso_find_file(const char *path, const char *build_id,
		      const struct skd_dso_opts *o, char *out, size_t outlen,
		      char *err, size_t errlen)
{
	const char *cache = o ? o->cache_dir : NULL;
	char have[SKD_BUILD_ID_HEX], why[PATH_MAX + 256];
	int ret, cret;

	if (!path || !out || (build_id && !skd_build_id_valid(build_id))) {
		ERR("no object path, or a malformed build-id");
		return -EINVAL;
	}
	if (!build_id) {
		if (path[0] != '/') {
			ERR("%s: not a file, and the capture has no build-id "
			    "to find it in the build-id cache", path);
			return -ENOENT;
		}
		if (access(path, R_OK)) {
			ret = -errno;
			ERR("%s: %s: its addresses stay unnamed", path,
			    strerror(errno));
			return ret;
		}
		if ((size_t)snprintf(out, outlen, "%s", path) >= outlen)
			return -ENAMETOOLONG;
		return 0;
	}
	why[0] = '\0';
	if (path[0] == '/') {
		ret = file_matches(path, build_id, have, sizeof(have));
		if (!ret) {
			if ((size_t)snprintf(out, outlen, "%s", path) >= outlen)
				return -ENAMETOOLONG;
			return 0;
		}
		if (ret == -ESTALE)
			snprintf(why, sizeof(why), "%s has build-id %s, the "
				 "capture saw %s (rebuilt or upgraded since)",
				 path, have, build_id);
		else if (ret == -ENODATA)
			snprintf(why, sizeof(why), "%s has no build-id, the "
				 "capture saw %s", path, build_id);
		else
			snprintf(why, sizeof(why), "%s: %s", path,
				 strerror(-ret));
	} else {
		ret = -ENOENT;
		snprintf(why, sizeof(why), "%s is not a file", path);
	}
	if (!cache || *cache) {
		cret = skd_buildid_cache_lookup(cache, build_id, out, outlen);
		if (!cret && !file_matches(out, build_id, have, sizeof(have)))
			return 0;
	}
	ERR("%s, and the build-id cache (%s) has no copy of %s: its addresses "
	    "stay unnamed (record on this machine, which caches what it "
	    "sampled, or add the original with `perf buildid-cache --add`)",
	    why, cache && *cache ? cache : "~/.debug", build_id);
	return ret == -ESTALE || ret == -ENODATA ? -ESTALE : -ENOENT;
}

static int load_segs(struct skd_dso *d, Elf *e)
{
	size_t phnum, i;

	if (elf_getphdrnum(e, &phnum))
		return -ENOEXEC;
	d->segs = calloc(phnum ? phnum : 1, sizeof(*d->segs));
	if (!d->segs)
		return -ENOMEM;
	for (i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		d->segs[d->nsegs++] = (struct seg) {
			.off = ph.p_offset,
			.filesz = ph.p_filesz,
			.vaddr = ph.p_vaddr,
		};
	}
	return 0;
}

struct skd_dso *skd_dso_open(const char *path, const char *build_id,
			     const struct skd_dso_opts *o, char *err,
			     size_t errlen)
{
	const char *debug = o && o->debug_dir ? o->debug_dir : "/usr/lib/debug";
	char file[PATH_MAX];
	struct skd_dso *d;
	Dwarf_Addr low;
	Elf *e;
	int ret;

	ret = skd_dso_find_file(path, build_id, o, file, sizeof(file), err,
				errlen);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d || !(d->file = strdup(file)) ||
	    asprintf(&d->debuginfo_path, "+:.debug:%s", debug) < 0) {
		if (d)
			d->debuginfo_path = NULL;
		ret = -ENOMEM;
		goto fail;
	}
	d->cb.find_elf = dwfl_build_id_find_elf;
	d->cb.find_debuginfo = dwfl_standard_find_debuginfo;
	d->cb.section_address = dwfl_offline_section_address;
	d->cb.debuginfo_path = &d->debuginfo_path;
	d->dwfl = dwfl_begin(&d->cb);
	if (!d->dwfl) {
		ret = -ENOMEM;
		goto fail;
	}
	dwfl_report_begin(d->dwfl);
	d->mod = dwfl_report_elf(d->dwfl, path, file, -1, 0, true);
	dwfl_report_end(d->dwfl, NULL, NULL);
	if (!d->mod) {
		ERR("%s: not an ELF object libdwfl can read (%s): its "
		    "addresses stay unnamed", file, dwfl_errmsg(-1));
		ret = -ENOEXEC;
		goto fail;
	}
	e = dwfl_module_getelf(d->mod, &d->bias);
	if (!e || gelf_getclass(e) == ELFCLASSNONE) {
		ERR("%s: unreadable ELF (%s)", file, dwfl_errmsg(-1));
		ret = -ENOEXEC;
		goto fail;
	}
	dwfl_module_info(d->mod, NULL, &low, NULL, NULL, NULL, NULL, NULL);
	if (skd_build_id_elf(e, d->bid, sizeof(d->bid)) < 0)
		d->bid[0] = '\0';
	ret = load_segs(d, e);
	if (ret)
		goto fail;
	d->plt = skd_plt_symtab(e);
	if (!d->plt) {
		ret = -errno;
		goto fail;
	}
	if (skd_symtab_count(d->plt)) {
		size_t i;

		d->plt_lo = skd_symtab_at(d->plt, 0)->addr;
		for (i = 0; i < skd_symtab_count(d->plt); i++) {
			const struct skd_sym *ps = skd_symtab_at(d->plt, i);
			/* A stub's own address matches even when sizeless. */
			uint64_t end = ps->addr + (ps->size ? ps->size : 1);

			if (end > d->plt_hi)
				d->plt_hi = end;
		}
	}
	return d;
fail:
	if (ret == -ENOMEM)
		ERR("out of memory opening %s", path);
	skd_dso_free(d);
	errno = -ret;
	return NULL;
}

static void free_entry(uint64_t key, void *val, void *arg)
{
	struct entry *en = val;
	unsigned int i;

	(void)key;
	(void)arg;
	for (i = 0; i < 2 + 2 * en->sym.nr_inline; i++)
		free(en->strings[i]);
	free(en->inl);
	free(en);
}

void skd_dso_free(struct skd_dso *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; d->spans && i <= d->nbounds; i++)
		free(d->spans[i].name);
	free(d->spans);
	free(d->bounds);
	free(d->page_first);
	skd_hmap_each(&d->cache, free_entry, NULL);
	skd_hmap_free(&d->cache);
	if (d->dwfl)
		dwfl_end(d->dwfl);
	skd_symtab_free(d->plt);
	free(d->segs);
	free(d->debuginfo_path);
	free(d->file);
	free(d);
}

const char *skd_dso_file(const struct skd_dso *d)
{
	return d->file;
}

const char *skd_dso_build_id(const struct skd_dso *d)
{
	return d->bid;
}

int skd_dso_offset_to_vaddr(const struct skd_dso *d, uint64_t off,
			    uint64_t *vaddr)
{
	size_t i;

	if (!d || !vaddr)
		return -EINVAL;
	for (i = 0; i < d->nsegs; i++) {
		const struct seg *s = &d->segs[i];

		if (off >= s->off && off - s->off < s->filesz) {
			*vaddr = s->vaddr + (off - s->off);
			return 0;
		}
	}
	/* A mapping's page-aligned head before the segment's first byte. */
	for (i = 0; i < d->nsegs; i++) {
		const struct seg *s = &d->segs[i];

		if (off < s->off && s->off - off < 4096 &&
		    (s->off & ~4095ULL) <= off) {
			*vaddr = s->vaddr - (s->off - off);
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * A name for people: without its symbol version ("@@GLIBC_2.34", as perf
 * shows it), demangled when mangled, else a copy.
 */
static char *nice_name(const char *name)
{
	const char *at;
	char *s, *plain;

	if (!name)
		return NULL;
	at = strchr(name, '@');
	plain = at ? strndup(name, (size_t)(at - name)) : strdup(name);
	if (!plain)
		return NULL;
	s = skd_demangle(plain);
	if (!s)
		return plain;
	free(plain);
	return s;
}

static char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name;

	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name,
						     &attr));
	if (!name)
		name = dwarf_formstring(dwarf_attr_integrate(die,
					DW_AT_MIPS_linkage_name, &attr));
	if (name) {
		char *s = skd_demangle(name);

		if (s)
			return s;
	}
	name = dwarf_diename(die);
	return name ? strdup(name) : NULL;
}

static char *call_file(Dwarf_Die *cu, Dwarf_Die *die, unsigned int *line)
{
	Dwarf_Attribute attr;
	Dwarf_Files *files;
	Dwarf_Word idx, ln;
	size_t nfiles;
	const char *f;

	*line = 0;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &attr), &ln) == 0)
		*line = ln > UINT_MAX ? 0 : (unsigned int)ln;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &attr), &idx) ||
	    dwarf_getsrcfiles(cu, &files, &nfiles) || idx >= nfiles)
		return NULL;
	f = dwarf_filesrc(files, idx, NULL, NULL);
	return f ? strdup(f) : NULL;
}

/* Inline chain and source lines of module address @addr into @en. */
static struct entry *describe(struct skd_dso *d, Dwarf_Addr addr)
{
	Dwarf_Die *scopes = NULL, *cu;
	Dwarf_Addr cubias;
	struct entry *en;
	Dwfl_Line *l;
	const char *src;
	char *file = NULL;
	unsigned int line = 0, nin = 0, i;
	int n = 0, lineno = 0;

	l = dwfl_module_getsrc(d->mod, addr);
	if (l && (src = dwfl_lineinfo(l, NULL, &lineno, NULL, NULL, NULL))) {
		file = strdup(src);
		line = lineno > 0 ? (unsigned int)lineno : 0;
	}
	cu = dwfl_module_addrdie(d->mod, addr, &cubias);
	if (cu)
		n = dwarf_getscopes(cu, addr - cubias, &scopes);
	for (i = 0; n > 0 && i < (unsigned int)n; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram)
			break;
		if (tag == DW_TAG_inlined_subroutine)
			nin++;
	}
	en = calloc(1, sizeof(*en) + (2 + 2 * nin) * sizeof(char *));
	if (!en || (nin && !(en->inl = calloc(nin, sizeof(*en->inl))))) {
		free(en);
		free(file);
		free(scopes);
		return NULL;
	}
	en->sym.nr_inline = nin;
	en->sym.inl = en->inl;
	for (i = 0, nin = 0; n > 0 && nin < en->sym.nr_inline; i++) {
		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		en->strings[2 + 2 * nin] = die_name(&scopes[i]);
		en->strings[3 + 2 * nin] = file;
		en->inl[nin] = (struct skd_srcloc) {
			.func = en->strings[2 + 2 * nin],
			.file = file,
			.line = line,
		};
		file = call_file(cu, &scopes[i], &line);
		nin++;
	}
	en->strings[1] = file;
	en->sym.file = file;
	en->sym.line = line;
	free(scopes);
	return en;
}

static int by_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/*
 * The page index that narrows span_of()'s search to the bounds of one
 * page; none (a search over all) when the bounds spread over more than
 * 4 GiB or memory is short.
 */
static void build_pages(struct skd_dso *d)
{
	uint64_t base, n, k;
	size_t i = 0;

	if (d->nbounds < 2 || d->nbounds > UINT32_MAX)
		return;
	base = d->bounds[0] & ~4095ULL;
	n = ((d->bounds[d->nbounds - 1] - base) >> 12) + 2;
	if (n > (1ULL << 20))
		return;
	d->page_first = malloc(n * sizeof(*d->page_first));
	if (!d->page_first)
		return;
	for (k = 0; k < n; k++) {
		while (i < d->nbounds && d->bounds[i] <= base + (k << 12))
			i++;
		d->page_first[k] = (uint32_t)i;
	}
	d->npages = (size_t)n;
}

/* Every symbol start and end and every section bound, sorted, unique. */
static int build_spans(struct skd_dso *d)
{
	int n = dwfl_module_getsymtab(d->mod), i;
	size_t cap, nb = 0, k;
	Elf_Scn *scn = NULL;
	GElf_Addr bias;
	uint64_t *b;
	Elf *e;

	if (n < 0)
		return -ENOENT;
	cap = 2 * (size_t)n + 64;
	b = malloc(cap * sizeof(*b));
	if (!b)
		return -ENOMEM;
	for (i = 1; i < n; i++) {
		GElf_Word shndx;
		GElf_Addr addr;
		GElf_Sym sym;

		if (!dwfl_module_getsym_info(d->mod, i, &sym, &addr, &shndx,
					     NULL, NULL))
			continue;
		b[nb++] = addr;
		if (sym.st_size)
			b[nb++] = addr + sym.st_size;
	}
	e = dwfl_module_getelf(d->mod, &bias);
	while (e && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (nb + 2 > cap) {
			uint64_t *nbp = realloc(b, (cap *= 2) * sizeof(*b));

			if (!nbp) {
				free(b);
				return -ENOMEM;
			}
			b = nbp;
		}
		b[nb++] = sh.sh_addr + bias;
		b[nb++] = sh.sh_addr + sh.sh_size + bias;
	}
	if (nb > 1)
		qsort(b, nb, sizeof(*b), by_u64);
	for (i = 0, k = 0; (size_t)i < nb; i++)
		if (!k || b[k - 1] != b[i])
			b[k++] = b[i];
	d->spans = calloc(k + 1, sizeof(*d->spans));
	if (!d->spans) {
		free(b);
		return -ENOMEM;
	}
	d->bounds = b;
	d->nbounds = k;
	build_pages(d);
	return 0;
}

/* The span of module address @addr, or NULL when spans are unavailable. */
static struct span *span_of(struct skd_dso *d, uint64_t addr)
{
	size_t lo = 0, hi;

	if (!d->spans_state)
		d->spans_state = build_spans(d) ? -1 : 1;
	if (d->spans_state < 0)
		return NULL;
	hi = d->nbounds;
	if (d->page_first && addr >= (d->bounds[0] & ~4095ULL)) {
		uint64_t k = (addr - (d->bounds[0] & ~4095ULL)) >> 12;

		/* Beyond the last page every bound is at or below it. */
		if (k + 1 < d->npages) {
			lo = d->page_first[k];
			hi = d->page_first[k + 1];
		} else {
			lo = hi;
		}
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->bounds[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return &d->spans[lo];
}

/*
 * The symbol libdwfl names @addr by, when it is one to show: inside a
 * sized symbol; or after a sizeless code label (assembly without .size,
 * such as ld.so's _start), which libdwfl gives only up to the next
 * symbol: as perf does. *@name is NULL when there is none.
 */
static void symbol_at(struct skd_dso *d, uint64_t addr, char **name,
		      uint64_t *start, uint64_t *size)
{
	const char *n;
	GElf_Off off = 0;
	GElf_Sym sym;

	*name = NULL;
	n = dwfl_module_addrinfo(d->mod, addr, &off, &sym, NULL, NULL, NULL);
	/*
	 * Inside a sized symbol; or after a sizeless code label (assembly
	 * without .size, such as ld.so's _start), which libdwfl gives only
	 * up to the next symbol: as perf does.
	 */
	if (n && ((sym.st_size && off < sym.st_size) ||
		  (!sym.st_size && (GELF_ST_TYPE(sym.st_info) == STT_FUNC ||
				    GELF_ST_TYPE(sym.st_info) == STT_NOTYPE)))) {
		*name = nice_name(n);
		*start = addr - off - d->bias;
		*size = sym.st_size;
	}
}

int skd_dso_lookup(struct skd_dso *d, uint64_t vaddr, struct skd_dso_sym *out)
{
	struct span *sp;
	char *name;
	uint64_t start = 0, size = 0;
	const struct skd_sym *ps;
	Dwarf_Addr addr;
	struct entry *en;

	if (!d || !out)
		return -EINVAL;
	en = skd_hmap_get(&d->cache, vaddr);
	if (en) {
		*out = en->sym;
		return 0;
	}
	addr = vaddr + d->bias;
	en = describe(d, addr);
	if (!en)
		return -ENOMEM;
	ps = skd_symtab_lookup(d->plt, vaddr);
	if (ps) {
		en->strings[0] = strdup(ps->name);
		en->sym.start = ps->addr;
		en->sym.size = ps->size;
		en->sym.name = en->strings[0];
	} else if ((sp = span_of(d, addr))) {
		/* The span owns the name: entries of its addresses share it. */
		if (!sp->state) {
			symbol_at(d, addr, &sp->name, &sp->start, &sp->size);
			sp->state = 1;
		}
		en->sym.name = sp->name;
		en->sym.start = sp->start;
		en->sym.size = sp->size;
	} else {
		symbol_at(d, addr, &name, &start, &size);
		en->strings[0] = name;
		en->sym.name = name;
		en->sym.start = start;
		en->sym.size = size;
	}
	if (skd_hmap_put(&d->cache, vaddr, en)) {
		free_entry(0, en, NULL);
		return -ENOMEM;
	}
	*out = en->sym;
	return 0;
}

int skd_dso_read(const struct skd_dso *d, uint64_t vaddr, void *buf,
		 size_t len)
{
	GElf_Addr bias;
	const char *raw;
	size_t i, size;
	Elf *e;

	e = dwfl_module_getelf(d->mod, &bias);
	raw = e ? elf_rawfile(e, &size) : NULL;
	if (!raw)
		return -EIO;
	for (i = 0; i < d->nsegs; i++) {
		const struct seg *s = &d->segs[i];

		if (vaddr < s->vaddr || vaddr - s->vaddr > s->filesz ||
		    len > s->filesz - (vaddr - s->vaddr))
			continue;
		if (s->off + (vaddr - s->vaddr) + len > size)
			return -EIO;
		memcpy(buf, raw + s->off + (vaddr - s->vaddr), len);
		return 0;
	}
	return -ENOENT;
}

int skd_dso_lookup_name(struct skd_dso *d, uint64_t vaddr,
			struct skd_dso_sym *out)
{
	const struct skd_sym *ps;
	struct span *sp;
	int ret;

	if (!d || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	/* PLT stubs and addresses without spans: the full, cached lookup. */
	ps = vaddr >= d->plt_lo && vaddr < d->plt_hi ?
	     skd_symtab_lookup(d->plt, vaddr) : NULL;
	sp = ps ? NULL : span_of(d, vaddr + d->bias);
	if (!sp) {
		ret = skd_dso_lookup(d, vaddr, out);
		out->file = NULL;
		out->line = 0;
		out->nr_inline = 0;
		out->inl = NULL;
		return ret;
	}
	if (!sp->state) {
		symbol_at(d, vaddr + d->bias, &sp->name, &sp->start,
			  &sp->size);
		sp->state = 1;
	}
	out->name = sp->name;
	out->start = sp->start;
	out->size = sp->size;
	return 0;
}
