// SPDX-License-Identifier: GPL-2.0
/*
 * skidless userland: symbol tables from ELF files (through libelf), from
 * kallsyms text and from lists stored in capture files.
 *
 * Every source is first turned into an array of candidate entries in one
 * pass, then table_build() sorts it once, folds aliases, derives missing
 * sizes and copies the surviving names into one string block. Lookups are a
 * binary search over the result.
 *
 * All inputs are untrusted: ELF files may be truncated or hostile, so every
 * offset, size and index read from them is checked before use, and anything
 * libelf refuses makes the open fail with ENOEXEC rather than guess.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "readall.h"
#include "symbols.h"

/* Longest build-id we accept; GNU ld makes 16 (md5, uuid) or 20 (sha1). */
#define BUILD_ID_MAX		64
/* Upper bound for a kallsyms file read into memory (a big kernel: ~20 MiB). */
#define KALLSYMS_MAX		(1UL << 30)
/* How many preceding symbols a lookup checks for one nested around addr. */
#define LOOKUP_NEST		4
/* Mapping granularity: maps offsets are page aligned, segments need not be. */
#define SEG_PAGE		4096ULL

struct seg {
	uint64_t off;
	uint64_t filesz;
	uint64_t vaddr;
	bool exec;
};

struct skd_symtab {
	struct skd_sym *syms;
	size_t n;
	char *names;		/* every syms[].name points in here */
	struct seg *segs;	/* PT_LOAD segments, for offset_to_vaddr */
	size_t nsegs;
	bool is_elf;
};

/* A candidate symbol, before sorting and alias folding. */
struct ent {
	uint64_t addr;
	uint64_t size;
	uint64_t limit;		/* end of the containing section, or UINT64_MAX */
	const char *name;	/* NUL-terminated, valid until the table is built */
	size_t len;		/* strlen(name) */
	size_t idx;		/* input order: last tie-break, so output is stable */
	uint8_t rank;		/* among aliases at one address, the lowest wins */
	bool marker;		/* only ends the symbol before it, never returned */
};

enum { BIND_GLOBAL, BIND_WEAK, BIND_LOCAL };

/*
 * Alias preference: a global name beats a weak one beats a local one; at
 * equal binding, a name without a leading underscore beats one with
 * (malloc over __libc_malloc).
 */
static uint8_t ent_rank(int bind, const char *name)
{
	return (uint8_t)(bind * 2 + (name[0] == '_'));
}

static int ent_cmp(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Real symbols first: they win their address over boundary markers. */
	if (x->marker != y->marker)
		return x->marker ? 1 : -1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->idx != y->idx)
		return x->idx < y->idx ? -1 : 1;
	return 0;
}

/*
 * Sort the candidates, keep one per address, give zero-size symbols the
 * room up to the next address (or the end of their section), and copy the
 * names. Reorders v. NULL + ENOMEM on allocation failure.
 */
static struct skd_symtab *table_build(struct ent *v, size_t n)
{
	struct skd_symtab *t;
	size_t i, j, k, nsyms = 0, namesz = 0;
	char *p;

	t = calloc(1, sizeof(*t));
	if (!t)
		goto fail;
	if (n > 1)
		qsort(v, n, sizeof(*v), ent_cmp);

	/* The first entry of each address group is its winner. */
	for (i = 0, k = 0; i < n; i = j) {
		struct ent w = v[i];

		for (j = i + 1; j < n && v[j].addr == w.addr; j++) {
			/* An alias may carry the size the winner lacks. */
			if (!v[j].marker && v[j].size > w.size)
				w.size = v[j].size;
		}
		v[k++] = w;
	}
	n = k;

	for (i = 0; i < n; i++) {
		uint64_t end = v[i].limit;
		bool known = end != UINT64_MAX;

		if (v[i].marker)
			continue;
		nsyms++;
		namesz += v[i].len + 1;
		if (v[i].size)
			continue;
		/*
		 * The next address ends it, even one at UINT64_MAX: that is
		 * an address, unlike the limit that stands for no section.
		 */
		if (i + 1 < n && (!known || v[i + 1].addr < end)) {
			end = v[i + 1].addr;
			known = true;
		}
		/* No next symbol and no section end: the size stays unknown. */
		if (known && end > v[i].addr)
			v[i].size = end - v[i].addr;
	}

	if (nsyms) {
		t->syms = malloc(nsyms * sizeof(*t->syms));
		t->names = malloc(namesz);
		if (!t->syms || !t->names)
			goto fail;
	}
	p = t->names;
	for (i = 0; i < n; i++) {
		struct skd_sym *s;

		if (v[i].marker)
			continue;
		s = &t->syms[t->n++];
		s->addr = v[i].addr;
		s->size = v[i].size;
		s->name = p;
		memcpy(p, v[i].name, v[i].len);
		p[v[i].len] = '\0';
		p += v[i].len + 1;
	}
	return t;

fail:
	skd_symtab_free(t);
	errno = ENOMEM;
	return NULL;
}

void skd_symtab_free(struct skd_symtab *t)
{
	if (!t)
		return;
	free(t->syms);
	free(t->names);
	free(t->segs);
	free(t);
}

size_t skd_symtab_count(const struct skd_symtab *t)
{
	return t ? t->n : 0;
}

const struct skd_sym *skd_symtab_at(const struct skd_symtab *t, size_t i)
{
	return t && i < t->n ? &t->syms[i] : NULL;
}

const struct skd_sym *skd_symtab_lookup(const struct skd_symtab *t, uint64_t addr)
{
	size_t lo = 0, hi, k;

	if (!t)
		return NULL;
	/* lo ends as the number of symbols starting at or below addr. */
	hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/*
	 * The closest symbol below may end before addr while an earlier one
	 * still spans it (an assembly entry point inside a larger routine), so
	 * look back a few symbols before giving up.
	 */
	for (k = lo; k > 0 && lo - k < LOOKUP_NEST; k--) {
		const struct skd_sym *s = &t->syms[k - 1];

		if (addr == s->addr || addr - s->addr < s->size)
			return s;
	}
	return NULL;
}

struct skd_symtab *skd_symtab_from_list(const struct skd_sym *syms, size_t n)
{
	struct skd_symtab *t = NULL;
	struct ent *v = NULL;
	size_t i;
	int err = 0;

	if (n && !syms) {
		err = EINVAL;
		goto out;
	}
	if (n > SIZE_MAX / sizeof(*v)) {
		err = ENOMEM;
		goto out;
	}
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v) {
		err = ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (!syms[i].name) {
			err = EINVAL;
			goto out;
		}
		v[i] = (struct ent) {
			.addr = syms[i].addr,
			.size = syms[i].size,
			.limit = UINT64_MAX,
			.name = syms[i].name,
			.len = strlen(syms[i].name),
			.idx = i,
			.rank = ent_rank(BIND_GLOBAL, syms[i].name),
		};
	}
	t = table_build(v, n);
	if (!t)
		err = errno;
out:
	free(v);
	if (err)
		errno = err;
	return t;
}

/* ---- ELF ---------------------------------------------------------------- */

/*
 * Open path for libelf. ELF_C_READ rather than ELF_C_READ_MMAP: a binary
 * truncated under us (a package upgrade) must not turn into SIGBUS, and
 * reading only the parts we need is cheaper than mapping debug files.
 */
static int elf_open(const char *path, int *fdp, Elf **ep)
{
	struct stat st;
	Elf *e = NULL;
	int fd, err;

	*fdp = -1;
	*ep = NULL;
	if (!path)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		err = S_ISDIR(st.st_mode) ? -EISDIR : -ENOEXEC;
		goto fail;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		err = -ENOSYS;
		goto fail;
	}
	err = -ENOEXEC;
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF)
		goto fail;
	*fdp = fd;
	*ep = e;
	return 0;

fail:
	if (e)
		elf_end(e);
	close(fd);
	return err;
}

/*
 * Section and program header tables must lie whole inside the file with the
 * entry size of their class. libelf quietly clamps the counts of tables that
 * run past the end, which would make a truncated file look like a valid one
 * with fewer sections.
 */
static int elf_check_headers(Elf *e, int fd)
{
	size_t shnum, phnum, shsz, phsz;
	struct stat st;
	GElf_Ehdr eh;
	uint64_t fsize;

	if (fstat(fd, &st) || st.st_size < 0)
		return -ENOEXEC;
	fsize = (uint64_t)st.st_size;
	if (!gelf_getehdr(e, &eh) || elf_getshdrnum(e, &shnum) || elf_getphdrnum(e, &phnum))
		return -ENOEXEC;
	shsz = gelf_fsize(e, ELF_T_SHDR, 1, EV_CURRENT);
	phsz = gelf_fsize(e, ELF_T_PHDR, 1, EV_CURRENT);
	if (!shsz || !phsz)
		return -ENOEXEC;
	if (eh.e_shoff || shnum) {
		if (eh.e_shentsize != shsz || eh.e_shoff > fsize ||
		    (fsize - eh.e_shoff) / shsz < shnum || (eh.e_shnum && eh.e_shnum != shnum))
			return -ENOEXEC;
	}
	if (eh.e_phnum) {
		if (eh.e_phentsize != phsz || eh.e_phoff > fsize ||
		    (fsize - eh.e_phoff) / phsz < phnum ||
		    (eh.e_phnum != PN_XNUM && eh.e_phnum != phnum))
			return -ENOEXEC;
	}
	return 0;
}

static void elf_close(int fd, Elf *e)
{
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
}

/* The GNU build-id in a block of notes: its length, or -errno. */
static int notes_build_id(Elf_Data *d, uint8_t *id, size_t cap)
{
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	if (!d->d_buf)
		return -ENODATA;
	/* gelf_getnote() checks that name and descriptor lie inside d. */
	while (off < d->d_size &&
	       (next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		const char *base = d->d_buf;

		off = next;
		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != sizeof(ELF_NOTE_GNU) ||
		    memcmp(base + name_off, ELF_NOTE_GNU, sizeof(ELF_NOTE_GNU)))
			continue;
		if (!nh.n_descsz || desc_off > d->d_size || d->d_size - desc_off < nh.n_descsz)
			return -ENOEXEC;
		if (nh.n_descsz > cap)
			return -ENOEXEC;
		memcpy(id, base + desc_off, nh.n_descsz);
		return (int)nh.n_descsz;
	}
	return -ENODATA;
}

/*
 * Note sections first: separate debug files keep them while their program
 * headers no longer describe the file's layout. Then PT_NOTE segments, for
 * files whose section headers were stripped or are damaged.
 */
static int elf_get_build_id(Elf *e, uint8_t *id, size_t cap)
{
	Elf_Scn *scn = NULL;
	size_t shnum, phnum, i;
	GElf_Shdr sh;
	GElf_Phdr ph;
	Elf_Data *d;
	int r;

	if (!elf_getshdrnum(e, &shnum) && shnum) {
		while ((scn = elf_nextscn(e, scn))) {
			if (!gelf_getshdr(scn, &sh))
				break;
			if (sh.sh_type != SHT_NOTE || (sh.sh_flags & SHF_COMPRESSED))
				continue;
			d = elf_getdata(scn, NULL);
			if (!d)
				continue;
			r = notes_build_id(d, id, cap);
			if (r != -ENODATA)
				return r;
		}
	}
	if (elf_getphdrnum(e, &phnum))
		return -ENODATA;
	for (i = 0; i < phnum && i <= INT_MAX; i++) {
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_NOTE || !ph.p_filesz)
			continue;
		d = elf_getdata_rawchunk(e, (int64_t)ph.p_offset, ph.p_filesz,
					 ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
		if (!d)
			continue;
		r = notes_build_id(d, id, cap);
		if (r != -ENODATA)
			return r;
	}
	return -ENODATA;
}

static void hex_encode(const uint8_t *id, size_t len, char *hex)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		hex[2 * i] = digits[id[i] >> 4];
		hex[2 * i + 1] = digits[id[i] & 15];
	}
	hex[2 * len] = '\0';
}

int skd_elf_build_id(const char *path, char *hex, size_t hexlen)
{
	uint8_t id[BUILD_ID_MAX];
	Elf *e;
	int fd, r;

	if (!hex)
		return -EINVAL;
	r = elf_open(path, &fd, &e);
	if (r)
		return r;
	r = elf_get_build_id(e, id, sizeof(id));
	if (r > 0 && hexlen < 2 * (size_t)r + 1)
		r = -ENOSPC;
	if (r > 0)
		hex_encode(id, (size_t)r, hex);
	elf_close(fd, e);
	return r;
}

/*
 * Collect the function symbols of the first section of the given type
 * (SHT_SYMTAB or SHT_DYNSYM). No such section: 0 with *np == 0. A section
 * libelf cannot read (out of the file, bad link): -ENOEXEC. Symbols whose
 * name is out of bounds or unterminated are skipped.
 */
static int elf_collect(Elf *e, Elf64_Word type, struct ent **vp, size_t *np)
{
	size_t shnum, nsyms, symsz, strsz, i, n = 0;
	Elf_Scn *scn = NULL, *symscn = NULL, *strscn;
	GElf_Shdr sh, symsh, strsh;
	Elf_Data *symd, *strd;
	uint64_t *sec_end = NULL;
	struct ent *v = NULL;
	const char *strs;
	int err;

	*vp = NULL;
	*np = 0;
	if (elf_getshdrnum(e, &shnum))
		return -ENOEXEC;
	sec_end = calloc(shnum ? shnum : 1, sizeof(*sec_end));
	if (!sec_end)
		return -ENOMEM;

	err = -ENOEXEC;
	while ((scn = elf_nextscn(e, scn))) {
		size_t ndx = elf_ndxscn(scn);

		if (!gelf_getshdr(scn, &sh))
			goto out;
		/* Section ends bound symbols that come without a size. */
		if (ndx < shnum && (sh.sh_flags & SHF_ALLOC) &&
		    sh.sh_addr + sh.sh_size > sh.sh_addr)
			sec_end[ndx] = sh.sh_addr + sh.sh_size;
		if (sh.sh_type == type && !symscn) {
			symscn = scn;
			symsh = sh;
		}
	}
	err = 0;
	if (!symscn)
		goto out;

	err = -ENOEXEC;
	if ((symsh.sh_flags & SHF_COMPRESSED) || !symsh.sh_link || symsh.sh_link >= shnum)
		goto out;
	strscn = elf_getscn(e, symsh.sh_link);
	if (!strscn || !gelf_getshdr(strscn, &strsh) || strsh.sh_type != SHT_STRTAB ||
	    (strsh.sh_flags & SHF_COMPRESSED))
		goto out;
	symd = elf_getdata(symscn, NULL);
	strd = elf_getdata(strscn, NULL);
	if (!symd || !strd || (symd->d_size && !symd->d_buf) || (strd->d_size && !strd->d_buf))
		goto out;
	symsz = gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
	if (!symsz)
		goto out;
	nsyms = symd->d_size / symsz;
	if (nsyms > INT_MAX)
		goto out;
	strs = strd->d_buf;
	strsz = strd->d_size;

	v = malloc((nsyms ? nsyms : 1) * sizeof(*v));
	if (!v) {
		err = -ENOMEM;
		goto out;
	}
	/* Index 0 is the reserved null symbol. */
	for (i = 1; i < nsyms; i++) {
		const char *name, *nul;
		GElf_Sym s;
		int bind, st;

		if (!gelf_getsym(symd, (int)i, &s))
			continue;
		st = GELF_ST_TYPE(s.st_info);
		if ((st != STT_FUNC && st != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF ||
		    !s.st_value || s.st_name >= strsz)
			continue;
		name = strs + s.st_name;
		nul = memchr(name, '\0', strsz - s.st_name);
		if (!nul || nul == name)
			continue;
		switch (GELF_ST_BIND(s.st_info)) {
		case STB_GLOBAL:
		case STB_GNU_UNIQUE:
			bind = BIND_GLOBAL;
			break;
		case STB_WEAK:
			bind = BIND_WEAK;
			break;
		default:
			bind = BIND_LOCAL;
			break;
		}
		v[n] = (struct ent) {
			.addr = s.st_value,
			.size = s.st_size,
			.limit = s.st_shndx < shnum && sec_end[s.st_shndx] ?
				 sec_end[s.st_shndx] : UINT64_MAX,
			.name = name,
			.len = (size_t)(nul - name),
			.idx = i,
			.rank = ent_rank(bind, name),
		};
		n++;
	}
	*vp = v;
	*np = n;
	v = NULL;
	err = 0;
out:
	free(v);
	free(sec_end);
	return err;
}

/* PT_LOAD segments with a file image, kept for offset_to_vaddr. */
static int elf_load_segs(Elf *e, struct skd_symtab *t)
{
	size_t phnum, i;
	GElf_Phdr ph;

	if (elf_getphdrnum(e, &phnum))
		return -ENOEXEC;
	if (!phnum)
		return 0;
	if (phnum > INT_MAX)
		return -ENOEXEC;
	t->segs = calloc(phnum, sizeof(*t->segs));
	if (!t->segs)
		return -ENOMEM;
	for (i = 0; i < phnum; i++) {
		if (!gelf_getphdr(e, (int)i, &ph))
			return -ENOEXEC;
		if (ph.p_type != PT_LOAD || !ph.p_filesz)
			continue;
		if (ph.p_offset + ph.p_filesz < ph.p_offset)
			return -ENOEXEC;
		t->segs[t->nsegs++] = (struct seg) {
			.off = ph.p_offset,
			.filesz = ph.p_filesz,
			.vaddr = ph.p_vaddr,
			.exec = ph.p_flags & PF_X,
		};
	}
	return 0;
}

/*
 * The separate debug file of e under root, if there is one and it carries
 * e's build-id: a stale debug file from another package version describes
 * another build and would give wrong names, worse than none.
 */
static void debug_open(Elf *e, const char *root, int *fdp, Elf **ep)
{
	uint8_t id[BUILD_ID_MAX], did[BUILD_ID_MAX];
	char hex[2 * BUILD_ID_MAX + 1];
	char *path = NULL;
	int len, dlen;

	*fdp = -1;
	*ep = NULL;
	len = elf_get_build_id(e, id, sizeof(id));
	if (len < 2)
		return;
	hex_encode(id, (size_t)len, hex);
	if (asprintf(&path, "%s/.build-id/%.2s/%s.debug", root, hex, hex + 2) < 0)
		return;
	if (elf_open(path, fdp, ep))
		goto out;
	dlen = elf_check_headers(*ep, *fdp) ? -ENOEXEC : elf_get_build_id(*ep, did, sizeof(did));
	if (dlen != len || memcmp(id, did, (size_t)len)) {
		elf_close(*fdp, *ep);
		*fdp = -1;
		*ep = NULL;
	}
out:
	free(path);
}

struct skd_symtab *skd_symtab_open_elf_debug(const char *path, const char *debug_root)
{
	struct skd_symtab *t = NULL;
	struct ent *v = NULL;
	Elf *e = NULL, *de = NULL;
	int fd = -1, dfd = -1, err;
	GElf_Ehdr eh;
	size_t n = 0;

	err = elf_open(path, &fd, &e);
	if (err)
		goto out;
	err = elf_check_headers(e, fd);
	if (err)
		goto out;
	err = -ENOEXEC;
	if (!gelf_getehdr(e, &eh) || (eh.e_type != ET_EXEC && eh.e_type != ET_DYN))
		goto out;

	/* A debug file is a bonus: anything wrong with it means "not there". */
	if (debug_root)
		debug_open(e, debug_root, &dfd, &de);
	if (de && elf_collect(de, SHT_SYMTAB, &v, &n)) {
		free(v);
		v = NULL;
		n = 0;
	}
	if (!n) {
		free(v);
		err = elf_collect(e, SHT_SYMTAB, &v, &n);
		if (err)
			goto out;
	}
	/* No .symtab, or one without functions (strip --strip-debug keeps it). */
	if (!n) {
		free(v);
		err = elf_collect(e, SHT_DYNSYM, &v, &n);
		if (err)
			goto out;
	}

	t = table_build(v, n);
	if (!t) {
		err = -ENOMEM;
		goto out;
	}
	t->is_elf = true;
	err = elf_load_segs(e, t);
	if (err) {
		skd_symtab_free(t);
		t = NULL;
	}
out:
	free(v);
	elf_close(dfd, de);
	elf_close(fd, e);
	if (err)
		errno = -err;
	return t;
}

struct skd_symtab *skd_symtab_open_elf(const char *path)
{
	return skd_symtab_open_elf_debug(path, SKD_DEBUG_ROOT);
}

int skd_symtab_offset_to_vaddr(const struct skd_symtab *t, uint64_t offset, uint64_t *vaddr)
{
	const struct seg *best = NULL;
	size_t i;

	if (!t || !vaddr || !t->is_elf)
		return -EINVAL;
	/* Inside a segment's file image; code (where ips are) wins ties. */
	for (i = 0; i < t->nsegs; i++) {
		const struct seg *s = &t->segs[i];

		if (offset >= s->off && offset - s->off < s->filesz &&
		    (!best || (s->exec && !best->exec)))
			best = s;
	}
	/*
	 * In the page-aligned head of a segment that starts mid-page: mapped
	 * along with the segment, so still at a fixed distance from it.
	 */
	for (i = 0; !best && i < t->nsegs; i++) {
		const struct seg *s = &t->segs[i];

		if (offset >= (s->off & ~(SEG_PAGE - 1)) && offset < s->off)
			best = s;
	}
	if (!best)
		return -ENOENT;
	/* Unsigned wrap-around gives vaddr - (off - offset) for the head case. */
	*vaddr = best->vaddr + (offset - best->off);
	return 0;
}

/* ---- kallsyms ----------------------------------------------------------- */

static int read_all(const char *path, char **bufp, size_t *lenp)
{
	struct stat st;
	int fd, err;

	*bufp = NULL;
	*lenp = 0;
	if (!path)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		err = -errno;
	else if (!S_ISREG(st.st_mode))
		err = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	else
		/* st_size is 0 for /proc files: read until EOF. */
		err = skd_read_fd(fd, KALLSYMS_MAX, bufp, lenp);
	close(fd);
	return err;
}

static bool ks_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool ks_namech(char c)
{
	return (unsigned char)c > ' ' && c != 0x7f;
}

static int ks_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * One line [p, end) where *end is writable ('\n' or the final NUL).
 * Rewrites it in place so that *namep is "name" or "name [module]",
 * NUL-terminated. false: the line does not parse.
 */
static bool ks_parse(char *p, char *end, uint64_t *addrp, char *typep, char **namep,
		     size_t *lenp)
{
	char *name, *ne, *ms, *me;
	uint64_t addr = 0;
	int digits = 0, h;

	while (p < end && (h = ks_hex(*p)) >= 0) {
		if (++digits > 16)
			return false;
		addr = addr << 4 | (uint64_t)h;
		p++;
	}
	if (!digits || p == end || !ks_blank(*p))
		return false;
	while (p < end && ks_blank(*p))
		p++;
	if (p == end || !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return false;
	*typep = *p++;
	if (p == end || !ks_blank(*p))
		return false;
	while (p < end && ks_blank(*p))
		p++;
	name = p;
	while (p < end && ks_namech(*p) && *p != '[')
		p++;
	ne = p;
	if (ne == name)
		return false;
	while (p < end && ks_blank(*p))
		p++;
	if (p == end) {
		*ne = '\0';
		*lenp = (size_t)(ne - name);
		goto done;
	}
	if (*p != '[' || ne == p)
		return false;
	ms = p++;
	while (p < end && ks_namech(*p) && *p != '[' && *p != ']')
		p++;
	if (p == end || *p != ']' || p == ms + 1)
		return false;
	me = ++p;
	while (p < end && ks_blank(*p))
		p++;
	if (p != end)
		return false;
	/* "name\t[mod]" -> "name [mod]": the module only moves left. */
	*ne = ' ';
	memmove(ne + 1, ms, (size_t)(me - ms));
	ne[1 + (me - ms)] = '\0';
	*lenp = (size_t)(ne - name) + 1 + (size_t)(me - ms);
done:
	*addrp = addr;
	*namep = name;
	return true;
}

struct skd_symtab *skd_symtab_open_kallsyms(const char *path)
{
	size_t len, lines = 1, n = 0, parsed = 0, nonzero = 0;
	struct skd_symtab *t = NULL;
	struct ent *v = NULL;
	char *buf = NULL, *p, *end, *eol;
	int err;

	err = read_all(path, &buf, &len);
	if (err)
		goto out;
	end = buf + len;
	for (p = buf; (p = memchr(p, '\n', (size_t)(end - p))); p++)
		lines++;
	v = malloc(lines * sizeof(*v));
	if (!v) {
		err = -ENOMEM;
		goto out;
	}

	for (p = buf; p < end; p = eol + 1) {
		uint64_t addr;
		size_t nlen;
		char type, *name;
		bool text;

		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		if (!ks_parse(p, eol, &addr, &type, &name, &nlen))
			continue;
		parsed++;
		if (!addr)
			continue;
		nonzero++;
		text = strchr("tTwW", type) != NULL;
		/* Absolute and undefined symbols are no place in the kernel. */
		if (!text && strchr("aAuU", type))
			continue;
		/* Data symbols stay as markers: they end the function before them. */
		v[n] = (struct ent) {
			.addr = addr,
			.limit = UINT64_MAX,
			.name = name,
			.len = nlen,
			.idx = n,
			.rank = ent_rank(type == 'T' ? BIND_GLOBAL :
					 type == 'W' || type == 'w' ? BIND_WEAK : BIND_LOCAL,
					 name),
			.marker = !text,
		};
		n++;
	}
	if (!parsed) {
		err = -ENOEXEC;
		goto out;
	}
	/* kptr_restrict shows every address as zero: no symbols, no guesses. */
	if (!nonzero) {
		err = -EPERM;
		goto out;
	}
	t = table_build(v, n);
	if (!t)
		err = -ENOMEM;
out:
	free(v);
	free(buf);
	if (err)
		errno = -err;
	return t;
}

/* ---- cache -------------------------------------------------------------- */

struct cache_slot {
	char *path;		/* NULL: empty slot */
	struct skd_symtab *t;	/* NULL: the open failed with err */
	uint64_t hash;
	int err;
};

struct skd_symcache {
	struct cache_slot *slots;
	size_t cap;		/* a power of two */
	size_t n;
};

/* FNV-1a: paths are short and this is not exposed to adversarial keys. */
static uint64_t path_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static struct cache_slot *cache_slot(struct cache_slot *slots, size_t cap, const char *path,
				     uint64_t hash)
{
	size_t i = hash & (cap - 1);

	while (slots[i].path && (slots[i].hash != hash || strcmp(slots[i].path, path)))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int cache_grow(struct skd_symcache *c)
{
	size_t ncap = c->cap * 2, i;
	struct cache_slot *ns;

	ns = calloc(ncap, sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	for (i = 0; i < c->cap; i++) {
		if (c->slots[i].path)
			*cache_slot(ns, ncap, c->slots[i].path, c->slots[i].hash) = c->slots[i];
	}
	free(c->slots);
	c->slots = ns;
	c->cap = ncap;
	return 0;
}

struct skd_symcache *skd_symcache_new(void)
{
	struct skd_symcache *c;

	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->cap = 16;
	c->slots = calloc(c->cap, sizeof(*c->slots));
	if (!c->slots) {
		free(c);
		errno = ENOMEM;
		return NULL;
	}
	return c;
}

const struct skd_symtab *skd_symcache_get(struct skd_symcache *c, const char *path)
{
	struct cache_slot *s;
	uint64_t hash;
	char *key;

	if (!c || !path) {
		errno = EINVAL;
		return NULL;
	}
	hash = path_hash(path);
	s = cache_slot(c->slots, c->cap, path, hash);
	if (s->path) {
		if (!s->t)
			errno = s->err;
		return s->t;
	}
	/* Keep the load under 3/4 so probe chains stay short. */
	if ((c->n + 1) * 4 > c->cap * 3) {
		if (cache_grow(c)) {
			errno = ENOMEM;
			return NULL;
		}
		s = cache_slot(c->slots, c->cap, path, hash);
	}
	key = strdup(path);
	if (!key) {
		errno = ENOMEM;
		return NULL;
	}
	s->t = skd_symtab_open_elf(path);
	s->err = s->t ? 0 : errno;
	/* Out of memory says nothing about the file: let a later call retry. */
	if (!s->t && s->err == ENOMEM) {
		free(key);
		errno = ENOMEM;
		return NULL;
	}
	s->path = key;
	s->hash = hash;
	c->n++;
	if (!s->t)
		errno = s->err;
	return s->t;
}

void skd_symcache_free(struct skd_symcache *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->cap; i++) {
		free(c->slots[i].path);
		skd_symtab_free(c->slots[i].t);
	}
	free(c->slots);
	free(c);
}
