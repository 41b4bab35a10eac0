// SPDX-License-Identifier: GPL-2.0
/* The --binary of the optimizer feeds: see opt_binary.h. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt_binary.h"
#include "plt.h"
#include "subcommands.h"
#include "symbols.h"

static int by_addr(const void *a, const void *b)
{
	const struct opt_func *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

struct raw_sym {
	uint64_t addr, size;
	const char *name;
	size_t index;		/* in the symbol table: ties in address order */
	unsigned int rank;	/* locals: N of NAME/N */
	bool local, func;
};

static int raw_by_addr(const void *a, const void *b)
{
	const struct raw_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int raw_by_name(const void *a, const void *b)
{
	const struct raw_sym *const *x = a, *const *y = b;
	int c = strcmp((*x)->name, (*y)->name);

	return c ? c : raw_by_addr(*x, *y);
}

/* Number the locals of each name in address order. */
static int rank_locals(struct raw_sym *raw, size_t n)
{
	struct raw_sym **v = calloc(n ? n : 1, sizeof(*v));
	size_t i, nl = 0;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (raw[i].local)
			v[nl++] = &raw[i];
	qsort(v, nl, sizeof(*v), raw_by_name);
	for (i = 0; i < nl; i++)
		v[i]->rank = i && !strcmp(v[i - 1]->name, v[i]->name) ?
			     v[i - 1]->rank + 1 : 1;
	free(v);
	return 0;
}

/*
 * PLT stubs are functions to BOLT too, named NAME@PLT (perf's and our
 * symbolizer's NAME@plt): calls into shared libraries go through them.
 * The header that binds lazily is BOLT's __BOLT_PSEUDO_.plt.
 */
static int read_plt(struct opt_binary *b, Elf *e)
{
	struct skd_symtab *t = skd_plt_symtab(e);
	struct opt_func *v;
	size_t n, i;

	if (!t)
		return errno == ENOMEM ? -ENOMEM : 0;
	n = skd_symtab_count(t);
	v = realloc(b->funcs, (b->nr_funcs + n + 1) * sizeof(*v));
	if (!v) {
		skd_symtab_free(t);
		return -ENOMEM;
	}
	b->funcs = v;
	for (i = 0; i < n; i++) {
		const struct skd_sym *sym = skd_symtab_at(t, i);
		const char *at = strrchr(sym->name, '@');
		int len = at ? (int)(at - sym->name) : 0;
		struct opt_func *f = &b->funcs[b->nr_funcs];
		int ret;

		f->addr = sym->addr;
		f->size = sym->size;
		/* The header (".plt"): BOLT's pseudo function for the section */
		if (at)
			ret = asprintf(&f->name, "%.*s@PLT", len, sym->name);
		else
			ret = asprintf(&f->name, "__BOLT_PSEUDO_%s", sym->name);
		if (ret < 0) {
			skd_symtab_free(t);
			return -ENOMEM;
		}
		b->nr_funcs++;
	}
	skd_symtab_free(t);
	return 0;
}

/*
 * BOLT's names: every local symbol it takes is made unique as NAME/N, N
 * counting from 1 over the local symbols of that name in address order
 * (functions and data alike, as RewriteInstance::discoverFileObjects
 * walks them); globals keep their name.
 */
static int read_funcs(struct opt_binary *b, Elf *e)
{
	struct raw_sym *raw = NULL;
	size_t n = 0, i;
	Elf_Scn *scn = NULL;
	int ret = 0;

	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t cnt, strndx;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		cnt = sh.sh_size / sh.sh_entsize;
		strndx = sh.sh_link;
		raw = calloc(cnt ? cnt : 1, sizeof(*raw));
		if (!raw)
			return -ENOMEM;
		for (i = 0; i < cnt; i++) {
			GElf_Sym s;
			const char *name;
			int type;

			if (!gelf_getsym(d, (int)i, &s) || s.st_shndx == SHN_UNDEF ||
			    s.st_shndx == SHN_ABS)
				continue;
			type = GELF_ST_TYPE(s.st_info);
			if (type != STT_FUNC && type != STT_OBJECT &&
			    type != STT_NOTYPE)
				continue;
			name = elf_strptr(e, strndx, s.st_name);
			if (!name || !*name)
				continue;
			raw[n++] = (struct raw_sym){ s.st_value, s.st_size, name,
				i, 0, GELF_ST_BIND(s.st_info) == STB_LOCAL,
				type == STT_FUNC };
		}
		break;
	}
	if (!raw)
		return 0;	/* stripped: every address is [unknown] */
	b->funcs = calloc(n ? n : 1, sizeof(*b->funcs));
	if (!b->funcs || rank_locals(raw, n)) {
		free(raw);
		return -ENOMEM;
	}
	for (i = 0; i < n && !ret; i++) {
		unsigned int rank = raw[i].rank;
		struct opt_func *f;

		/* Size 0 (crtstuff's, hand-written assembly): sized below. */
		if (!raw[i].func)
			continue;
		f = &b->funcs[b->nr_funcs];
		f->addr = raw[i].addr;
		f->size = raw[i].size;
		if (rank ? asprintf(&f->name, "%s/%u", raw[i].name, rank) < 0 :
			   !(f->name = strdup(raw[i].name)))
			ret = -ENOMEM;
		else
			b->nr_funcs++;
	}
	free(raw);
	return ret;
}

/*
 * A function symbol without a size reaches the next function, or the end
 * of its segment: llvm-bolt sizes such symbols so and perf2bolt counts
 * samples in them (crtstuff's register_tm_clones and its siblings).
 */
static void size_unsized(struct opt_binary *b)
{
	size_t i, j, k;

	for (i = 0; i < b->nr_funcs; i++) {
		struct opt_func *f = &b->funcs[i];

		if (f->size)
			continue;
		for (j = i + 1; j < b->nr_funcs && b->funcs[j].addr == f->addr; j++)
			;
		if (j < b->nr_funcs) {
			f->size = b->funcs[j].addr - f->addr;
			continue;
		}
		for (k = 0; k < b->nr_seg; k++)
			if (f->addr >= b->seg[k].vaddr &&
			    f->addr < b->seg[k].vaddr + b->seg[k].filesz)
				f->size = b->seg[k].vaddr + b->seg[k].filesz - f->addr;
	}
}

int opt_binary_open(struct opt_binary *b, const char *path, const char *cmd)
{
	Elf *e = NULL;
	size_t nph, i;
	int fd, ret;

	memset(b, 0, sizeof(*b));
	snprintf(b->path, sizeof(b->path), "%s", path);
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		fprintf(stderr, "%s %s: --binary %s: %s; give the program the "
			"capture was recorded from\n", PROG_NAME, cmd, path,
			strerror(errno));
		return ret;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getphdrnum(e, &nph)) {
		fprintf(stderr, "%s %s: --binary %s is not an ELF file; give "
			"the program the capture was recorded from\n",
			PROG_NAME, cmd, path);
		ret = -ENOEXEC;
		goto out;
	}
	for (i = 0; i < nph && b->nr_seg < sizeof(b->seg) / sizeof(b->seg[0]); i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
			b->seg[b->nr_seg++] = (struct opt_segment){
				ph.p_vaddr, ph.p_offset, ph.p_filesz };
	}
	if (skd_build_id_elf(e, b->build_id, sizeof(b->build_id)) <= 0)
		b->build_id[0] = '\0';
	ret = read_funcs(b, e);
	if (!ret)
		ret = read_plt(b, e);
	if (!ret) {
		qsort(b->funcs, b->nr_funcs, sizeof(*b->funcs), by_addr);
		size_unsized(b);
	}
	if (ret)
		fprintf(stderr, "%s %s: reading the symbols of %s: %s\n",
			PROG_NAME, cmd, path, strerror(-ret));
out:
	elf_end(e);
	close(fd);
	if (ret)
		opt_binary_close(b);
	return ret;
}

void opt_binary_close(struct opt_binary *b)
{
	size_t i;

	for (i = 0; i < b->nr_funcs; i++)
		free(b->funcs[i].name);
	free(b->funcs);
	b->funcs = NULL;
	b->nr_funcs = 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

bool opt_binary_place(struct opt_binary *b, struct skd_profile *p,
		      const struct skd_event *ev, uint64_t addr,
		      uint64_t *file_off, bool *in)
{
	struct skd_object m;
	bool same;

	*in = false;
	if (skd_is_kernel_addr(addr)) {
		*file_off = addr;
		return true;
	}
	if (skd_profile_object(p, ev, addr, &m))
		return false;
	*file_off = m.file_offset;
	same = m.path[0] && !strcmp(base_name(m.path), base_name(b->path));
	if (m.build_id && b->build_id[0]) {
		if (same && !skd_build_id_equal(m.build_id, b->build_id) &&
		    !b->other_id[0])
			snprintf(b->other_id, sizeof(b->other_id), "%s",
				 m.build_id);
		same = skd_build_id_equal(m.build_id, b->build_id);
	}
	if (!same)
		return true;
	b->in++;
	*in = true;
	return true;
}

bool opt_binary_offset(struct opt_binary *b, struct skd_profile *p,
		       const struct skd_event *ev, uint64_t addr,
		       uint64_t *file_off)
{
	bool in;

	return opt_binary_place(b, p, ev, addr, file_off, &in) && in;
}

const struct opt_func *opt_binary_func(const struct opt_binary *b,
				       uint64_t off, uint64_t *func_off)
{
	size_t lo = 0, hi = b->nr_funcs, i;
	uint64_t vaddr = 0;
	bool found = false;

	for (i = 0; i < b->nr_seg && !found; i++)
		if (off >= b->seg[i].offset &&
		    off < b->seg[i].offset + b->seg[i].filesz) {
			vaddr = off - b->seg[i].offset + b->seg[i].vaddr;
			found = true;
		}
	if (!found)
		return NULL;
	/* The last function starting at or below vaddr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->funcs[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || vaddr >= b->funcs[lo - 1].addr + b->funcs[lo - 1].size)
		return NULL;
	/* Aliases share an address: the first by name, the same each time. */
	i = lo - 1;
	while (i && b->funcs[i - 1].addr == b->funcs[i].addr)
		i--;
	*func_off = vaddr - b->funcs[i].addr;
	return &b->funcs[i];
}

int opt_binary_check(struct opt_binary *b, struct skd_profile *p,
		     const char *input, const char *cmd, bool need_branches)
{
	size_t n = skd_profile_nr_samples(p), i, traces = 0, call_stacks = 0;
	const struct skd_branch_entry *br;
	uint64_t off;
	unsigned int k, nr;

	for (i = 0; i < n; i++) {
		struct skd_event ev;

		skd_profile_sample(p, i, &ev);
		br = opt_trace(&ev, &nr);
		traces += !!br;
		call_stacks += !br && ev.sample.branches && ev.sample.nr_branches;
		if (b->in)
			continue;	/* counting the stacks only */
		if (opt_binary_offset(b, p, &ev, ev.sample.rec->ip, &off))
			continue;
		for (k = 0; k < nr; k++)
			if (opt_binary_offset(b, p, &ev, br[k].from, &off) ||
			    opt_binary_offset(b, p, &ev, br[k].to, &off))
				break;
	}
	if (call_stacks && !traces)
		fprintf(stderr, "%s %s: %s has LBR call stacks (--call-graph "
			"lbr), the open calls, not the branches taken%s; "
			"record with `%s record -b` for them\n", PROG_NAME,
			cmd, input, need_branches ? "" : ": sample addresses "
			"only", PROG_NAME);
	if (need_branches && !traces) {
		if (!call_stacks)
			fprintf(stderr, "%s %s: %s has no branch stacks (%zu "
				"samples); record with `%s record -b` (LBR) "
				"for this format\n", PROG_NAME, cmd, input, n,
				PROG_NAME);
		return -ENODATA;
	}
	if (!b->in && b->other_id[0]) {
		fprintf(stderr, "%s %s: %s has build-id %s, the capture's "
			"program of that name has %s: rebuilt since? give "
			"--binary the file recorded (the build-id cache keeps "
			"it)\n",
			PROG_NAME, cmd, b->path, b->build_id, b->other_id);
		return -ESTALE;
	}
	if (!b->in) {
		fprintf(stderr, "%s %s: no sample or branch of %s lies in %s "
			"(build-id %s); give --binary the program the capture "
			"was recorded from\n", PROG_NAME, cmd, input, b->path,
			b->build_id[0] ? b->build_id : "none");
		return -ENOENT;
	}
	b->in = 0;
	return 0;
}
