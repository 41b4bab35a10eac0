// SPDX-License-Identifier: GPL-2.0
/*
 * skidless userland: symbol tables from kallsyms text and from lists
 * (symbols stored in capture files, JIT maps, PLT stubs). ELF objects are
 * read through libdwfl in dso.c.
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
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "readall.h"
#include "symbols.h"

/* Upper bound for a kallsyms file read into memory (a big kernel: ~20 MiB). */
#define KALLSYMS_MAX		(1UL << 30)
/* How many preceding symbols a lookup checks for one nested around addr. */
#define LOOKUP_NEST		4

struct skd_symtab {
	struct skd_sym *syms;
	size_t n;
	char *names;		/* every syms[].name points in here */
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
