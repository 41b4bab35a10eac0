// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for userland/lib/symbols.c against real files: ELF fixtures built by
 * symbols.mk (expected values from readelf, in SYM_FX/fx_*.h), this test
 * program and libc found through /proc/self/maps, kallsyms text, and
 * truncated or corrupted copies of the fixtures.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit_tmp.h"
#include "maps.h"
#include "symbols.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#include "fixtures/fx_types.h"
#include "fx_nopie.h"
#include "fx_pie.h"
#include "fx_lib.h"
#include "fx_strip.h"

struct fixture {
	const char *path;
	const struct fx_sym *syms;
	size_t nsyms;
	size_t naddr;
	const struct fx_load *loads;
	size_t nloads;
	const char *build_id;
	bool symtab;		/* has .symtab, so local functions resolve */
};

#define FIXTURE(file, p, full) {						\
	.path = SYM_FX "/" file, .syms = p##_syms, .nsyms = ARRAY_SIZE(p##_syms),	\
	.naddr = p##_naddr, .loads = p##_loads, .nloads = ARRAY_SIZE(p##_loads),	\
	.build_id = p##_build_id, .symtab = full }

static const struct fixture fx_nopie = FIXTURE("fx_nopie", fx_nopie, true);
static const struct fixture fx_pie = FIXTURE("fx_pie", fx_pie, true);
static const struct fixture fx_lib = FIXTURE("libfx.so", fx_lib, true);
static const struct fixture fx_strip = FIXTURE("libfx_strip.so", fx_strip, false);

static char tmpdir[PATH_MAX];

/* ---- helpers ------------------------------------------------------------ */

static uint8_t *slurp(const char *path, size_t *lenp)
{
	struct stat st;
	uint8_t *buf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	assert_non_null(buf);
	assert_int_equal(read(fd, buf, (size_t)st.st_size), st.st_size);
	close(fd);
	*lenp = (size_t)st.st_size;
	return buf;
}

static void spill(const char *path, const void *buf, size_t len)
{
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	if (len)
		assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
}

static void copy_file(const char *from, const char *to)
{
	uint8_t *buf;
	size_t len;

	buf = slurp(from, &len);
	spill(to, buf, len);
	free(buf);
}

static void tmp_path(char *buf, size_t len, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", tmpdir, name);

	assert_true(n > 0 && (size_t)n < len);
}

/* Where ld puts the function at addr: the PT_LOAD whose file image has it. */
static const struct fx_load *load_of(const struct fixture *fx, uint64_t addr)
{
	size_t i;

	for (i = 0; i < fx->nloads; i++) {
		const struct fx_load *l = &fx->loads[i];

		if (addr >= l->vaddr && addr - l->vaddr < l->filesz)
			return l;
	}
	return NULL;
}

static const struct fx_sym *fx_find(const struct fixture *fx, const char *name)
{
	size_t i;

	for (i = 0; i < fx->nsyms; i++) {
		if (!strcmp(fx->syms[i].name, name))
			return &fx->syms[i];
	}
	return NULL;
}

/* Is name one of the names readelf lists at addr? */
static bool fx_alias_of(const struct fixture *fx, uint64_t addr, const char *name)
{
	size_t i;

	for (i = 0; i < fx->nsyms; i++) {
		if (fx->syms[i].addr == addr && !strcmp(fx->syms[i].name, name))
			return true;
	}
	return false;
}

static void assert_lookup(const struct skd_symtab *t, uint64_t addr, const char *name)
{
	const struct skd_sym *s = skd_symtab_lookup(t, addr);

	if (!name) {
		if (s)
			fail_msg("%#jx: expected nothing, got %s", (uintmax_t)addr, s->name);
		return;
	}
	if (!s)
		fail_msg("%#jx: expected %s, got nothing", (uintmax_t)addr, name);
	assert_string_equal(s->name, name);
}

/* ---- ELF fixtures ------------------------------------------------------- */

static void check_fixture(const struct fixture *fx, const struct skd_symtab *t)
{
	const struct skd_sym *s, *first, *last;
	size_t i, n;
	uint64_t v;

	n = skd_symtab_count(t);
	/* One entry per distinct function address readelf shows. */
	assert_int_equal(n, fx->naddr);
	for (i = 1; i < n; i++) {
		const struct skd_sym *a = skd_symtab_at(t, i - 1), *b = skd_symtab_at(t, i);

		assert_true(a->addr < b->addr);
		assert_true(a->addr + a->size <= b->addr);
	}
	assert_null(skd_symtab_at(t, n));

	for (i = 0; i < fx->nsyms; i++) {
		const struct fx_sym *e = &fx->syms[i];

		s = skd_symtab_lookup(t, e->addr);
		if (!s)
			fail_msg("%s: %s at %#jx not found", fx->path, e->name, (uintmax_t)e->addr);
		assert_int_equal(s->addr, e->addr);
		assert_int_equal(s->size, e->size);
		if (!fx_alias_of(fx, e->addr, s->name))
			fail_msg("%s: %#jx resolved to %s, not an alias of %s", fx->path,
				 (uintmax_t)e->addr, s->name, e->name);
		if (e->size > 1) {
			assert_ptr_equal(skd_symtab_lookup(t, e->addr + e->size / 2), s);
			assert_ptr_equal(skd_symtab_lookup(t, e->addr + e->size - 1), s);
		}
	}

	first = skd_symtab_at(t, 0);
	last = skd_symtab_at(t, n - 1);
	assert_non_null(first);
	assert_non_null(last);
	assert_null(skd_symtab_lookup(t, 0));
	assert_null(skd_symtab_lookup(t, first->addr - 1));
	assert_true(last->size > 0);
	assert_null(skd_symtab_lookup(t, last->addr + last->size));
	assert_null(skd_symtab_lookup(t, last->addr + last->size + 0x10000));
	assert_null(skd_symtab_lookup(t, UINT64_MAX));

	/* Offsets inside each PT_LOAD, as readelf -l gives them. */
	for (i = 0; i < fx->nloads; i++) {
		const struct fx_load *l = &fx->loads[i];
		uint64_t d[] = { 0, l->filesz / 2, l->filesz - 1 };
		size_t k;

		for (k = 0; k < ARRAY_SIZE(d); k++) {
			assert_int_equal(skd_symtab_offset_to_vaddr(t, l->off + d[k], &v), 0);
			assert_int_equal(v, l->vaddr + d[k]);
		}
	}
	assert_int_equal(skd_symtab_offset_to_vaddr(t, 1ULL << 40, &v), -ENOENT);

	/* What a sample gives: file offset of each function, back to its name. */
	for (i = 0; i < fx->nsyms; i++) {
		const struct fx_sym *e = &fx->syms[i];
		const struct fx_load *l = load_of(fx, e->addr);

		assert_non_null(l);
		assert_true(l->exec);
		assert_int_equal(skd_symtab_offset_to_vaddr(t, e->addr - l->vaddr + l->off, &v), 0);
		assert_int_equal(v, e->addr);
		s = skd_symtab_lookup(t, v);
		assert_non_null(s);
		assert_true(fx_alias_of(fx, e->addr, s->name));
	}
}

static void test_elf_fixture(void **state)
{
	const struct fixture *fx = *state;
	struct skd_symtab *t;

	t = skd_symtab_open_elf(fx->path);
	if (!t)
		fail_msg("%s: %s", fx->path, strerror(errno));
	check_fixture(fx, t);
	skd_symtab_free(t);
}

/* Alias folding and binding, on every fixture. */
static void test_elf_aliases(void **state)
{
	const struct fixture *all[] = { &fx_nopie, &fx_pie, &fx_lib, &fx_strip };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(all); i++) {
		const struct fixture *fx = all[i];
		const struct fx_sym *pick = fx_find(fx, "fx_pick");
		const struct fx_sym *lonely = fx_find(fx, "__fx_lonely_g");
		const struct fx_sym *ifunc = fx_find(fx, "fx_ifunc");
		const struct fx_sym *weak = fx_find(fx, "fx_weak");
		const struct fx_sym *gamma;
		struct skd_symtab *t;

		t = skd_symtab_open_elf(fx->path);
		assert_non_null(t);
		assert_non_null(pick);
		assert_non_null(lonely);
		assert_non_null(ifunc);
		assert_non_null(weak);
		/* fx_pick, _fx_pick (global) and fx_pick_local: no underscore, global. */
		assert_lookup(t, pick->addr, "fx_pick");
		/* fx_lonely (local) and __fx_lonely_g (global): global first. */
		assert_lookup(t, lonely->addr, "__fx_lonely_g");
		/* IFUNC vs its local resolver. */
		assert_lookup(t, ifunc->addr, "fx_ifunc");
		assert_lookup(t, weak->addr + 1, "fx_weak");
		assert_lookup(t, fx_find(fx, "fx_beta")->addr + 17, "fx_beta");
		if (fx->symtab) {
			gamma = fx_find(fx, "fx_gamma");
			assert_non_null(gamma);
			assert_lookup(t, gamma->addr, "fx_gamma");
			assert_lookup(t, fx_find(fx, "fx_call_all")->addr, "fx_call_all");
		} else {
			/* Locals are gone with .symtab; their code is no one's. */
			gamma = fx_find(&fx_lib, "fx_gamma");
			assert_lookup(t, gamma->addr, NULL);
			assert_null(fx_find(fx, "fx_gamma"));
		}
		skd_symtab_free(t);
	}
}

/* ---- separate debug files ---------------------------------------------- */

static void make_debug_root(const char *root, const char *build_id, const char *debug_src,
			    size_t cut)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	uint8_t *buf;
	size_t len;

	assert_true(mkdir(root, 0755) == 0 || errno == EEXIST);
	snprintf(dir, sizeof(dir), "%s/.build-id", root);
	assert_true(mkdir(dir, 0755) == 0 || errno == EEXIST);
	snprintf(dir, sizeof(dir), "%s/.build-id/%.2s", root, build_id);
	assert_true(mkdir(dir, 0755) == 0 || errno == EEXIST);
	snprintf(path, sizeof(path), "%s/%s.debug", dir, build_id + 2);
	buf = slurp(debug_src, &len);
	spill(path, buf, cut && cut < len ? cut : len);
	free(buf);
}

static void test_elf_debug_file(void **state)
{
	char good[PATH_MAX], stale[PATH_MAX], broken[PATH_MAX];
	const struct fx_sym *gamma = fx_find(&fx_lib, "fx_gamma");
	struct skd_symtab *t;

	(void)state;
	/* strip keeps the build-id: the stripped library finds its debug file. */
	assert_string_equal(fx_strip.build_id, fx_lib.build_id);
	tmp_path(good, sizeof(good), "debug-good");
	tmp_path(stale, sizeof(stale), "debug-stale");
	tmp_path(broken, sizeof(broken), "debug-broken");
	make_debug_root(good, fx_lib.build_id, SYM_FX "/libfx.debug", 0);
	/* Right place, wrong build: the PIE's file under the library's id. */
	make_debug_root(stale, fx_lib.build_id, SYM_FX "/fx_pie", 0);
	make_debug_root(broken, fx_lib.build_id, SYM_FX "/libfx.debug", 700);

	t = skd_symtab_open_elf_debug(fx_strip.path, good);
	assert_non_null(t);
	assert_int_equal(skd_symtab_count(t), fx_lib.naddr);
	assert_lookup(t, gamma->addr, "fx_gamma");
	assert_lookup(t, gamma->addr + 1, "fx_gamma");
	/* Segments still come from the stripped file itself. */
	check_fixture(&fx_lib, t);
	skd_symtab_free(t);

	t = skd_symtab_open_elf_debug(fx_strip.path, stale);
	assert_non_null(t);
	assert_int_equal(skd_symtab_count(t), fx_strip.naddr);
	assert_lookup(t, gamma->addr, NULL);
	skd_symtab_free(t);

	t = skd_symtab_open_elf_debug(fx_strip.path, broken);
	assert_non_null(t);
	check_fixture(&fx_strip, t);
	skd_symtab_free(t);

	/* No debug root at all, and one that does not exist. */
	t = skd_symtab_open_elf_debug(fx_strip.path, NULL);
	assert_non_null(t);
	check_fixture(&fx_strip, t);
	skd_symtab_free(t);
	t = skd_symtab_open_elf_debug(fx_strip.path, "/nonexistent/skidless");
	assert_non_null(t);
	assert_int_equal(skd_symtab_count(t), fx_strip.naddr);
	skd_symtab_free(t);
}

/* ---- build-id ----------------------------------------------------------- */

static void test_build_id(void **state)
{
	const struct fixture *all[] = { &fx_nopie, &fx_pie, &fx_lib, &fx_strip };
	char hex[2 * 64 + 1];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(all); i++) {
		assert_int_equal(strlen(all[i]->build_id), 40);
		assert_int_equal(skd_elf_build_id(all[i]->path, hex, sizeof(hex)), 20);
		assert_string_equal(hex, all[i]->build_id);
	}
	/* Debug files: note sections, while their phdrs are meaningless. */
	assert_int_equal(skd_elf_build_id(SYM_FX "/libfx.debug", hex, sizeof(hex)), 20);
	assert_string_equal(hex, fx_lib.build_id);

	assert_int_equal(skd_elf_build_id(fx_lib.path, hex, 41), 20);
	assert_string_equal(hex, fx_lib.build_id);
	assert_int_equal(skd_elf_build_id(fx_lib.path, hex, 40), -ENOSPC);
	assert_int_equal(skd_elf_build_id(fx_lib.path, hex, 0), -ENOSPC);
	assert_int_equal(skd_elf_build_id(fx_lib.path, NULL, 41), -EINVAL);
	assert_int_equal(skd_elf_build_id(SYM_FX "/libfx_noid.so", hex, sizeof(hex)), -ENODATA);
	assert_int_equal(skd_elf_build_id(SYM_SRC "/not_elf.txt", hex, sizeof(hex)), -ENOEXEC);
	assert_int_equal(skd_elf_build_id(SYM_FX "/nonexistent", hex, sizeof(hex)), -ENOENT);
	assert_int_equal(skd_elf_build_id(SYM_FX, hex, sizeof(hex)), -EISDIR);
	assert_int_equal(skd_elf_build_id(NULL, hex, sizeof(hex)), -EINVAL);
}

static void test_elf_no_build_id(void **state)
{
	struct skd_symtab *t;

	(void)state;
	/* Without build-id there is no debug file to find; .symtab still works. */
	t = skd_symtab_open_elf(SYM_FX "/libfx_noid.so");
	assert_non_null(t);
	assert_true(skd_symtab_count(t) > 0);
	assert_non_null(skd_symtab_lookup(t, skd_symtab_at(t, 0)->addr));
	skd_symtab_free(t);
}

/* ---- real files through /proc/self/maps --------------------------------- */

static __attribute__((noinline, used)) int self_marker(int x)
{
	return x * 7 + (x >> 3) - 1;
}

/* What `skidless script` does for a user ip: map, file offset, vaddr, name. */
static const struct skd_sym *resolve_ip(uint64_t ip, const char *debug_root,
					struct skd_symtab **tp, char *path, size_t pathlen)
{
	const struct skd_map *m;
	struct skd_maps maps;
	uint64_t vaddr;

	assert_int_equal(skd_maps_read_pid(getpid(), &maps), 0);
	m = skd_maps_find(&maps, ip);
	assert_non_null(m);
	assert_true(strlen(m->path) < pathlen);
	strcpy(path, m->path);
	*tp = skd_symtab_open_elf_debug(m->path, debug_root);
	if (!*tp)
		fail_msg("%s: %s", m->path, strerror(errno));
	assert_int_equal(skd_symtab_offset_to_vaddr(*tp, skd_map_file_offset(m, ip), &vaddr), 0);
	skd_maps_free(&maps);
	return skd_symtab_lookup(*tp, vaddr);
}

static void test_self(void **state)
{
	uint64_t ip = (uint64_t)(uintptr_t)&self_marker;
	char path[PATH_MAX], exe[PATH_MAX];
	const struct skd_sym *s, *s2;
	struct skd_symtab *t;

	(void)state;
	assert_int_equal(self_marker(3), 20);
	s = resolve_ip(ip, SKD_DEBUG_ROOT, &t, path, sizeof(path));
	assert_non_null(realpath("/proc/self/exe", exe));
	assert_string_equal(path, exe);
	assert_non_null(s);
	assert_string_equal(s->name, "self_marker");
	assert_true(s->size > 1);
	skd_symtab_free(t);

	/* An ip inside the function, not at its start. */
	s2 = resolve_ip(ip + 1, SKD_DEBUG_ROOT, &t, path, sizeof(path));
	assert_non_null(s2);
	assert_string_equal(s2->name, "self_marker");
	skd_symtab_free(t);

	s = resolve_ip((uint64_t)(uintptr_t)&test_self, SKD_DEBUG_ROOT, &t, path, sizeof(path));
	assert_non_null(s);
	assert_string_equal(s->name, "test_self");
	skd_symtab_free(t);
}

static void test_libc(void **state)
{
	char path[PATH_MAX], hex[2 * 64 + 1], dbg[PATH_MAX + 64];
	struct skd_symtab *t, *td;
	const struct skd_sym *s;
	void *h, *fn;
	uint64_t ip;

	(void)state;
	/* libc's own malloc, not the sanitizer's interposed one. */
	h = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	assert_non_null(h);
	fn = dlsym(h, "malloc");
	assert_non_null(fn);
	ip = (uint64_t)(uintptr_t)fn;

	/* .dynsym only, as on a Debian system without libc6-dbg. */
	s = resolve_ip(ip, NULL, &td, path, sizeof(path));
	assert_non_null(strstr(path, "libc.so"));
	assert_non_null(s);
	assert_string_equal(s->name, "malloc");
	assert_non_null(skd_symtab_lookup(td, s->addr + s->size / 2));

	/* The default: the dbgsym .symtab when installed. */
	s = resolve_ip(ip + 4, SKD_DEBUG_ROOT, &t, path, sizeof(path));
	assert_non_null(s);
	assert_string_equal(s->name, "malloc");
	assert_int_equal(skd_elf_build_id(path, hex, sizeof(hex)), 20);
	snprintf(dbg, sizeof(dbg), SKD_DEBUG_ROOT "/.build-id/%.2s/%s.debug", hex, hex + 2);
	if (!access(dbg, R_OK))
		assert_true(skd_symtab_count(t) > skd_symtab_count(td));
	else
		assert_int_equal(skd_symtab_count(t), skd_symtab_count(td));
	skd_symtab_free(t);
	skd_symtab_free(td);
	dlclose(h);
}

/* ---- kallsyms ----------------------------------------------------------- */

static void test_kallsyms_fixture(void **state)
{
	const struct skd_sym *s;
	struct skd_symtab *t;
	uint64_t v;

	(void)state;
	t = skd_symtab_open_kallsyms(SYM_SRC "/kallsyms.txt");
	assert_non_null(t);
	assert_int_equal(skd_symtab_count(t), 10);

	assert_lookup(t, 0, NULL);
	assert_lookup(t, 0xffffffff80ffffffULL, NULL);
	/* _text, _stext, __pre_text, srso_alias_untrain_ret at one address. */
	assert_lookup(t, 0xffffffff81000000ULL, "srso_alias_untrain_ret");
	assert_lookup(t, 0xffffffff81000fffULL, "srso_alias_untrain_ret");
	assert_lookup(t, 0xffffffff81001000ULL, "startup_64");
	assert_lookup(t, 0xffffffff81001150ULL, "secondary_startup_64");
	/* T beats W even with an underscore. */
	assert_lookup(t, 0xffffffff81001200ULL, "__weak_fn_strong");
	assert_lookup(t, 0xffffffff81001fffULL, "do_work");
	s = skd_symtab_lookup(t, 0xffffffff81001300ULL);
	assert_non_null(s);
	assert_int_equal(s->size, 0xd00);
	/* Data ends the function before it; skipped lines do not. */
	assert_lookup(t, 0xffffffff81002000ULL, NULL);
	assert_lookup(t, 0xffffffff81002a00ULL, NULL);
	assert_lookup(t, 0xffffffff81003000ULL, "text_after_data");
	assert_lookup(t, 0xffffffff810030ffULL, "text_after_data");
	assert_lookup(t, 0xffffffff81003100ULL, NULL);
	/* Modules: tab or spaces before [module], one space after. */
	assert_lookup(t, 0xffffffffc0001040ULL, "mod_init_fn [mymod]");
	assert_lookup(t, 0xffffffffc0001fffULL, "mod_func [mymod]");
	assert_lookup(t, 0xffffffffc0002000ULL, NULL);
	assert_lookup(t, 0xffffffffc0003000ULL, "other_fn [othermod]");
	assert_lookup(t, 0xffffffffc000303fULL, "other_fn [othermod]");
	/* Last symbol: nothing after it, so only its own address. */
	s = skd_symtab_lookup(t, 0xffffffffc0003040ULL);
	assert_non_null(s);
	assert_string_equal(s->name, "last_fn [othermod]");
	assert_int_equal(s->size, 0);
	assert_lookup(t, 0xffffffffc0003041ULL, NULL);
	assert_lookup(t, UINT64_MAX, NULL);
	/* Not an ELF table. */
	assert_int_equal(skd_symtab_offset_to_vaddr(t, 0, &v), -EINVAL);
	skd_symtab_free(t);
}

static void test_kallsyms_errors(void **state)
{
	static const char garbage[] = "hello world\n\n  \nffff\n0x1234 T foo\n";
	static const char one[] = "ffffffff81000000 T only";
	char path[PATH_MAX];
	struct skd_symtab *t;

	(void)state;
	errno = 0;
	assert_null(skd_symtab_open_kallsyms(SYM_SRC "/kallsyms_zero.txt"));
	assert_int_equal(errno, EPERM);
	assert_null(skd_symtab_open_kallsyms(SYM_FX "/nonexistent"));
	assert_int_equal(errno, ENOENT);
	assert_null(skd_symtab_open_kallsyms(SYM_FX));
	assert_int_equal(errno, EISDIR);
	assert_null(skd_symtab_open_kallsyms(NULL));
	assert_int_equal(errno, EINVAL);

	tmp_path(path, sizeof(path), "kallsyms-empty");
	spill(path, "", 0);
	assert_null(skd_symtab_open_kallsyms(path));
	assert_int_equal(errno, ENOEXEC);
	spill(path, garbage, sizeof(garbage) - 1);
	assert_null(skd_symtab_open_kallsyms(path));
	assert_int_equal(errno, ENOEXEC);
	/* An ELF file is not kallsyms either. */
	assert_null(skd_symtab_open_kallsyms(fx_lib.path));
	assert_int_equal(errno, ENOEXEC);

	/* No trailing newline; a lone symbol of unknown size. */
	spill(path, one, sizeof(one) - 1);
	t = skd_symtab_open_kallsyms(path);
	assert_non_null(t);
	assert_int_equal(skd_symtab_count(t), 1);
	assert_lookup(t, 0xffffffff81000000ULL, "only");
	assert_lookup(t, 0xffffffff81000001ULL, NULL);
	skd_symtab_free(t);
}

/* The running kernel's, when readable: one known symbol must come back. */
static void test_kallsyms_proc(void **state)
{
	uint64_t addr = 0;
	struct skd_symtab *t;
	char *line = NULL;
	size_t cap = 0;
	bool found = false;
	FILE *f;

	(void)state;
	f = fopen("/proc/kallsyms", "re");
	if (!f)
		skip();
	while (getline(&line, &cap, f) > 0) {
		char type, name[128];

		if (sscanf(line, "%" SCNx64 " %c %127s", &addr, &type, name) == 3 &&
		    type == 'T' && !strcmp(name, "schedule") && !strchr(line, '[')) {
			found = true;
			break;
		}
	}
	free(line);
	fclose(f);
	if (!found)
		skip();

	t = skd_symtab_open_kallsyms("/proc/kallsyms");
	if (!addr) {
		assert_null(t);
		assert_int_equal(errno, EPERM);
		return;
	}
	assert_non_null(t);
	assert_true(skd_symtab_count(t) > 1000);
	assert_lookup(t, addr, "schedule");
	assert_lookup(t, addr + 1, "schedule");
	skd_symtab_free(t);
}

/* ---- from_list ---------------------------------------------------------- */

static void test_from_list(void **state)
{
	char mutable[] = "b";
	struct skd_sym in[] = {
		{ 0x3000, 0, "c_nosize" },
		{ 0x1000, 0x100, "a" },
		{ 0x1000, 0, "_a_alias" },
		{ 0x1040, 0x10, "nested" },
		{ 0x2000, 0x10, mutable },
		{ 0x3100, 0, "d_last" },
		{ 0x5000, 0, "e" },
		{ 0x5000, 0x20, "_e_sized" },
	};
	struct skd_sym in2[2];
	const struct skd_sym *s;
	struct skd_symtab *t;
	uint64_t v;

	(void)state;
	t = skd_symtab_from_list(in, ARRAY_SIZE(in));
	assert_non_null(t);
	mutable[0] = 'X';	/* names are copies */
	assert_int_equal(skd_symtab_count(t), 6);
	assert_lookup(t, 0xfff, NULL);
	assert_lookup(t, 0x1000, "a");
	assert_lookup(t, 0x103f, "a");
	assert_lookup(t, 0x1045, "nested");
	/* Past the nested symbol, still inside the outer one. */
	assert_lookup(t, 0x1080, "a");
	assert_lookup(t, 0x10ff, "a");
	assert_lookup(t, 0x1100, NULL);
	assert_lookup(t, 0x2000, "b");
	assert_lookup(t, 0x2010, NULL);
	s = skd_symtab_lookup(t, 0x30ff);
	assert_non_null(s);
	assert_string_equal(s->name, "c_nosize");
	assert_int_equal(s->size, 0x100);
	assert_lookup(t, 0x3100, "d_last");
	/* d_last has a next symbol (e), so it runs up to it. */
	assert_lookup(t, 0x4fff, "d_last");
	/* e: no size of its own, its alias' size. */
	s = skd_symtab_lookup(t, 0x501f);
	assert_non_null(s);
	assert_string_equal(s->name, "e");
	assert_int_equal(s->size, 0x20);
	assert_lookup(t, 0x5020, NULL);
	assert_int_equal(skd_symtab_offset_to_vaddr(t, 0x1000, &v), -EINVAL);
	skd_symtab_free(t);

	/* A symbol at the top of the address space still ends the one before. */
	in2[0] = (struct skd_sym){ 0xffffffff81000000ULL, 0, "below_top" };
	in2[1] = (struct skd_sym){ UINT64_MAX, 0, "top" };
	t = skd_symtab_from_list(in2, ARRAY_SIZE(in2));
	assert_non_null(t);
	s = skd_symtab_lookup(t, 0xffffffff81000001ULL);
	assert_non_null(s);
	assert_string_equal(s->name, "below_top");
	assert_int_equal(s->size, UINT64_MAX - 0xffffffff81000000ULL);
	assert_lookup(t, UINT64_MAX - 1, "below_top");
	assert_lookup(t, UINT64_MAX, "top");
	skd_symtab_free(t);

	t = skd_symtab_from_list(NULL, 0);
	assert_non_null(t);
	assert_int_equal(skd_symtab_count(t), 0);
	assert_null(skd_symtab_lookup(t, 0));
	assert_null(skd_symtab_at(t, 0));
	skd_symtab_free(t);

	errno = 0;
	assert_null(skd_symtab_from_list(NULL, 3));
	assert_int_equal(errno, EINVAL);
	in[3].name = NULL;
	errno = 0;
	assert_null(skd_symtab_from_list(in, ARRAY_SIZE(in)));
	assert_int_equal(errno, EINVAL);

	assert_null(skd_symtab_lookup(NULL, 0x1000));
	assert_int_equal(skd_symtab_count(NULL), 0);
	assert_int_equal(skd_symtab_offset_to_vaddr(NULL, 0, &v), -EINVAL);
	skd_symtab_free(NULL);
}

/* 50k symbols in scrambled order: every one found, in the middle too. */
static void test_from_list_large(void **state)
{
	enum { N = 50000 };
	struct skd_sym *in;
	struct skd_symtab *t;
	char *names;
	size_t i;

	(void)state;
	in = calloc(N, sizeof(*in));
	names = calloc(N, 16);
	assert_non_null(in);
	assert_non_null(names);
	for (i = 0; i < N; i++) {
		size_t k = (i * 7919) % N;	/* 7919 is prime: a permutation */

		snprintf(names + 16 * i, 16, "f%zu", k);
		in[i] = (struct skd_sym) { 0x400000 + 0x40 * k, k % 3 ? 0x20 : 0, names + 16 * i };
	}
	t = skd_symtab_from_list(in, N);
	assert_non_null(t);
	assert_int_equal(skd_symtab_count(t), N);
	for (i = 0; i < N; i++) {
		const struct skd_sym *s = skd_symtab_lookup(t, 0x400000 + 0x40 * i + 0x1f);
		char want[16];

		snprintf(want, sizeof(want), "f%zu", i);
		assert_non_null(s);
		assert_string_equal(s->name, want);
		s = skd_symtab_lookup(t, 0x400000 + 0x40 * i + 0x30);
		if (i % 3)
			assert_null(s);
		else
			assert_non_null(s);
	}
	skd_symtab_free(t);
	free(names);
	free(in);
}

/* ---- malformed ELF ------------------------------------------------------ */

static void test_not_elf(void **state)
{
	static const uint8_t magic_only[] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0 };
	char path[PATH_MAX];

	(void)state;
	errno = 0;
	assert_null(skd_symtab_open_elf(SYM_SRC "/not_elf.txt"));
	assert_int_equal(errno, ENOEXEC);
	assert_null(skd_symtab_open_elf(SYM_FX "/nonexistent"));
	assert_int_equal(errno, ENOENT);
	assert_null(skd_symtab_open_elf(SYM_FX));
	assert_int_equal(errno, EISDIR);
	assert_null(skd_symtab_open_elf("/dev/null"));
	assert_int_equal(errno, ENOEXEC);
	assert_null(skd_symtab_open_elf(NULL));
	assert_int_equal(errno, EINVAL);

	tmp_path(path, sizeof(path), "empty");
	spill(path, "", 0);
	assert_null(skd_symtab_open_elf(path));
	assert_int_equal(errno, ENOEXEC);
	tmp_path(path, sizeof(path), "magic");
	spill(path, magic_only, sizeof(magic_only));
	assert_null(skd_symtab_open_elf(path));
	assert_int_equal(errno, ENOEXEC);
}

static void test_elf_truncated(void **state)
{
	char path[PATH_MAX], hex[2 * 64 + 1];
	size_t len, cuts[256], ncut = 0, i;
	const Elf64_Ehdr *eh;
	uint64_t shend;
	uint8_t *buf;

	(void)state;
	buf = slurp(fx_lib.path, &len);
	eh = (const Elf64_Ehdr *)buf;
	/* GNU ld puts the section headers last: any cut loses some of them. */
	shend = eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize;
	assert_int_equal(shend, len);

	static const size_t fixed[] = { 0, 1, 3, 4, 5, 15, 16, 52, 63, 64, 65, 120, 500, 1000 };
	for (i = 0; i < ARRAY_SIZE(fixed); i++)
		cuts[ncut++] = fixed[i];
	cuts[ncut++] = len / 4;
	cuts[ncut++] = len / 2;
	cuts[ncut++] = eh->e_shoff - 1;
	cuts[ncut++] = eh->e_shoff;
	cuts[ncut++] = eh->e_shoff + 1;
	cuts[ncut++] = eh->e_shoff + eh->e_shentsize;
	cuts[ncut++] = len - eh->e_shentsize;
	cuts[ncut++] = len - 1;
	for (i = 4096; i < len && ncut < ARRAY_SIZE(cuts); i += 211)
		cuts[ncut++] = i;

	tmp_path(path, sizeof(path), "truncated.so");
	for (i = 0; i < ncut; i++) {
		struct skd_symtab *t;
		int r;

		assert_true(cuts[i] < len);
		spill(path, buf, cuts[i]);
		errno = 0;
		t = skd_symtab_open_elf_debug(path, NULL);
		if (t)
			fail_msg("cut at %zu of %zu: opened", cuts[i], len);
		assert_int_equal(errno, ENOEXEC);
		/* The PT_NOTE may survive a cut; if an id comes back, it is right. */
		r = skd_elf_build_id(path, hex, sizeof(hex));
		if (r > 0)
			assert_string_equal(hex, fx_lib.build_id);
		else
			assert_true(r == -ENOEXEC || r == -ENODATA);
	}
	free(buf);
}

/* A copy of libfx.so with pointers to its headers, to damage them. */
struct elfcopy {
	uint8_t *b;
	size_t len;
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;
	Elf64_Shdr *symtab, *strtab, *dynsym, *note;
	size_t symtab_ndx;
};

static void elfcopy_load(struct elfcopy *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->b = slurp(fx_lib.path, &c->len);
	c->eh = (Elf64_Ehdr *)c->b;
	assert_int_equal(c->eh->e_ident[EI_CLASS], ELFCLASS64);
	assert_int_equal(c->eh->e_shoff % 8, 0);
	c->sh = (Elf64_Shdr *)(c->b + c->eh->e_shoff);
	for (i = 0; i < c->eh->e_shnum; i++) {
		if (c->sh[i].sh_type == SHT_SYMTAB) {
			c->symtab = &c->sh[i];
			c->symtab_ndx = i;
		}
		if (c->sh[i].sh_type == SHT_DYNSYM)
			c->dynsym = &c->sh[i];
		if (c->sh[i].sh_type == SHT_NOTE && !c->note)
			c->note = &c->sh[i];
	}
	assert_non_null(c->symtab);
	assert_non_null(c->dynsym);
	assert_non_null(c->note);
	c->strtab = &c->sh[c->symtab->sh_link];
}

static Elf64_Sym *elfcopy_syms(struct elfcopy *c, size_t *n)
{
	*n = c->symtab->sh_size / sizeof(Elf64_Sym);
	return (Elf64_Sym *)(c->b + c->symtab->sh_offset);
}

static void p_symtab_size(struct elfcopy *c) { c->symtab->sh_size = 1ULL << 40; }
static void p_symtab_off(struct elfcopy *c) { c->symtab->sh_offset = c->len + 4096; }
static void p_symtab_off_wrap(struct elfcopy *c) { c->symtab->sh_offset = UINT64_MAX - 16; }
static void p_link_range(struct elfcopy *c) { c->symtab->sh_link = 0xfff0; }
static void p_link_zero(struct elfcopy *c) { c->symtab->sh_link = 0; }
static void p_link_self(struct elfcopy *c) { c->symtab->sh_link = (Elf64_Word)c->symtab_ndx; }
static void p_strtab_tiny(struct elfcopy *c) { c->strtab->sh_size = 1; }
static void p_strtab_huge(struct elfcopy *c) { c->strtab->sh_size = 1ULL << 40; }
static void p_strtab_unterminated(struct elfcopy *c)
{
	memset(c->b + c->strtab->sh_offset, 'A', c->strtab->sh_size);
}
static void p_names_oob(struct elfcopy *c)
{
	Elf64_Sym *s;
	size_t n, i;

	s = elfcopy_syms(c, &n);
	for (i = 0; i < n; i++)
		s[i].st_name = 0xfffffff0u - (Elf64_Word)i;
}
static void p_names_at_end(struct elfcopy *c)
{
	Elf64_Sym *s;
	size_t n, i;

	/* Every name is the strtab's last byte: empty, so skipped. */
	s = elfcopy_syms(c, &n);
	for (i = 0; i < n; i++)
		s[i].st_name = (Elf64_Word)(c->strtab->sh_size - 1);
}
static void p_shnum_huge(struct elfcopy *c) { c->eh->e_shnum = 0xfff0; }
static void p_shoff_past(struct elfcopy *c) { c->eh->e_shoff = c->len * 2; }
static void p_shoff_wrap(struct elfcopy *c) { c->eh->e_shoff = UINT64_MAX - 8; }
static void p_shentsize(struct elfcopy *c) { c->eh->e_shentsize = 7; }
static void p_phoff_past(struct elfcopy *c) { c->eh->e_phoff = c->len * 2; }
static void p_phnum_huge(struct elfcopy *c) { c->eh->e_phnum = 0xfff0; }
static void p_class_none(struct elfcopy *c) { c->eh->e_ident[EI_CLASS] = ELFCLASSNONE; }
static void p_data_none(struct elfcopy *c) { c->eh->e_ident[EI_DATA] = ELFDATANONE; }
static void p_type_rel(struct elfcopy *c) { c->eh->e_type = ET_REL; }
static void p_type_core(struct elfcopy *c) { c->eh->e_type = ET_CORE; }
static void p_entsize_zero(struct elfcopy *c) { c->symtab->sh_entsize = 0; }
static void p_size_odd(struct elfcopy *c) { c->symtab->sh_size -= 5; }
static void p_symtab_nobits(struct elfcopy *c) { c->symtab->sh_type = SHT_NOBITS; }
static void p_no_tables(struct elfcopy *c)
{
	c->symtab->sh_type = SHT_PROGBITS;
	c->dynsym->sh_type = SHT_PROGBITS;
}
static void p_shstrndx(struct elfcopy *c) { c->eh->e_shstrndx = 0xfff0; }
static void p_addr_wrap(struct elfcopy *c)
{
	size_t i;

	for (i = 0; i < c->eh->e_shnum; i++)
		c->sh[i].sh_addr = UINT64_MAX - 16;
}
static void p_sym_extreme(struct elfcopy *c)
{
	Elf64_Sym *s;
	size_t n, i;

	s = elfcopy_syms(c, &n);
	for (i = 1; i < n; i += 2) {
		s[i].st_value = UINT64_MAX - i;
		s[i].st_size = UINT64_MAX;
		s[i].st_shndx = (Elf64_Section)(0xff00 + i);
	}
}
static void p_note_descsz(struct elfcopy *c)
{
	Elf64_Nhdr *nh = (Elf64_Nhdr *)(c->b + c->note->sh_offset);

	nh->n_descsz = 0xfffffff0u;
}
static void p_note_size(struct elfcopy *c) { c->note->sh_size = 1ULL << 40; }

enum outcome {
	FAILS,		/* NULL, errno ENOEXEC */
	FULL,		/* .symtab: fx_gamma resolves */
	DYNSYM,		/* fell back to .dynsym: exported names only */
	EMPTY,		/* opens with no symbols */
	ANY,		/* anything but a crash */
};

static void test_elf_corrupt(void **state)
{
	static const struct {
		const char *what;
		void (*patch)(struct elfcopy *c);
		enum outcome want;
	} cases[] = {
		{ "symtab size beyond the file", p_symtab_size, FAILS },
		{ "symtab offset beyond the file", p_symtab_off, FAILS },
		{ "symtab offset wraps", p_symtab_off_wrap, FAILS },
		{ "symtab link out of range", p_link_range, FAILS },
		{ "symtab link zero", p_link_zero, FAILS },
		{ "symtab links to itself", p_link_self, FAILS },
		{ "strtab size beyond the file", p_strtab_huge, FAILS },
		{ "strtab of one byte", p_strtab_tiny, DYNSYM },
		{ "strtab without NUL", p_strtab_unterminated, DYNSYM },
		{ "names out of bounds", p_names_oob, DYNSYM },
		{ "names all empty", p_names_at_end, DYNSYM },
		{ "e_shnum huge", p_shnum_huge, FAILS },
		{ "e_shoff beyond the file", p_shoff_past, FAILS },
		{ "e_shoff wraps", p_shoff_wrap, FAILS },
		{ "e_shentsize wrong", p_shentsize, FAILS },
		{ "e_phoff beyond the file", p_phoff_past, FAILS },
		{ "e_phnum huge", p_phnum_huge, FAILS },
		{ "class none", p_class_none, FAILS },
		{ "data encoding none", p_data_none, FAILS },
		{ "ET_REL", p_type_rel, FAILS },
		{ "ET_CORE", p_type_core, FAILS },
		{ "symtab sh_entsize 0", p_entsize_zero, ANY },
		{ "symtab size not a multiple", p_size_odd, ANY },
		{ "symtab is NOBITS", p_symtab_nobits, DYNSYM },
		{ "no symbol tables", p_no_tables, EMPTY },
		{ "e_shstrndx bogus", p_shstrndx, FULL },
		{ "section addresses wrap", p_addr_wrap, FULL },
		{ "symbols at the top of memory", p_sym_extreme, ANY },
		{ "build-id descsz bogus", p_note_descsz, FULL },
		{ "note section beyond the file", p_note_size, FULL },
	};
	const struct fx_sym *alpha = fx_find(&fx_lib, "fx_alpha");
	const struct fx_sym *gamma = fx_find(&fx_lib, "fx_gamma");
	char path[PATH_MAX], hex[2 * 64 + 1];
	size_t i, k;

	(void)state;
	tmp_path(path, sizeof(path), "corrupt.so");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct skd_symtab *t;
		struct elfcopy c;
		uint64_t v;
		int r;

		elfcopy_load(&c);
		cases[i].patch(&c);
		spill(path, c.b, c.len);
		free(c.b);

		errno = 0;
		t = skd_symtab_open_elf_debug(path, NULL);
		r = skd_elf_build_id(path, hex, sizeof(hex));
		assert_true(r == 20 || r == -ENOEXEC || r == -ENODATA);
		if (cases[i].want == FAILS) {
			if (t)
				fail_msg("%s: opened", cases[i].what);
			if (errno != ENOEXEC)
				fail_msg("%s: errno %d", cases[i].what, errno);
			continue;
		}
		if (!t && cases[i].want == ANY) {
			assert_int_equal(errno, ENOEXEC);
			continue;
		}
		if (!t)
			fail_msg("%s: %s", cases[i].what, strerror(errno));
		for (k = 0; k < skd_symtab_count(t); k++) {
			const struct skd_sym *s = skd_symtab_at(t, k);

			assert_ptr_equal(skd_symtab_lookup(t, s->addr), s);
			skd_symtab_lookup(t, s->addr + s->size);
		}
		skd_symtab_offset_to_vaddr(t, 0x1000, &v);
		switch (cases[i].want) {
		case FULL:
			assert_lookup(t, gamma->addr, "fx_gamma");
			assert_lookup(t, alpha->addr, "fx_alpha");
			break;
		case DYNSYM:
			assert_int_equal(skd_symtab_count(t), fx_strip.naddr);
			assert_lookup(t, gamma->addr, NULL);
			assert_lookup(t, alpha->addr, "fx_alpha");
			break;
		case EMPTY:
			assert_int_equal(skd_symtab_count(t), 0);
			assert_lookup(t, alpha->addr, NULL);
			/* Segments are still there for offset_to_vaddr. */
			assert_int_equal(skd_symtab_offset_to_vaddr(t, fx_lib.loads[1].off, &v), 0);
			assert_int_equal(v, fx_lib.loads[1].vaddr);
			break;
		default:
			break;
		}
		skd_symtab_free(t);
	}
}

/* Random damage to headers and tables; only a clean result is acceptable. */
static void test_elf_fuzz(void **state)
{
	char path[PATH_MAX], hex[2 * 64 + 1];
	struct elfcopy c;
	unsigned int seed = 0x5eed;
	size_t iter, opened = 0;

	(void)state;
	tmp_path(path, sizeof(path), "fuzz.so");
	elfcopy_load(&c);
	for (iter = 0; iter < 1500; iter++) {
		uint8_t *b = malloc(c.len);
		struct skd_symtab *t;
		int k, nflip;

		assert_non_null(b);
		memcpy(b, c.b, c.len);
		nflip = 1 + rand_r(&seed) % 6;
		for (k = 0; k < nflip; k++) {
			size_t base, span, pos;

			switch (rand_r(&seed) % 5) {
			case 0:
				base = 0;
				span = sizeof(Elf64_Ehdr);
				break;
			case 1:
				base = c.eh->e_phoff;
				span = (size_t)c.eh->e_phnum * sizeof(Elf64_Phdr);
				break;
			case 2:
				base = c.eh->e_shoff;
				span = (size_t)c.eh->e_shnum * sizeof(Elf64_Shdr);
				break;
			case 3:
				base = c.symtab->sh_offset;
				span = c.symtab->sh_size;
				break;
			default:
				base = c.note->sh_offset;
				span = c.note->sh_size;
				break;
			}
			pos = base + (size_t)rand_r(&seed) % span;
			b[pos] = rand_r(&seed) % 3 ? (uint8_t)rand_r(&seed) : 0xff;
		}
		spill(path, b, c.len);
		free(b);

		errno = 0;
		t = skd_symtab_open_elf_debug(path, NULL);
		if (t) {
			size_t i, n = skd_symtab_count(t);
			uint64_t v;

			opened++;
			for (i = 0; i < n; i++) {
				const struct skd_sym *s = skd_symtab_at(t, i);

				assert_non_null(s->name);
				assert_true(s->name[0] != '\0');
				assert_non_null(skd_symtab_lookup(t, s->addr));
			}
			skd_symtab_offset_to_vaddr(t, (uint64_t)rand_r(&seed) % 0x4000, &v);
			skd_symtab_free(t);
		} else {
			assert_true(errno == ENOEXEC);
		}
		skd_elf_build_id(path, hex, sizeof(hex));
	}
	free(c.b);
	/* Most single-byte damage is survivable: the test must exercise both. */
	assert_true(opened > 100 && opened < 1500);
}

/* ---- cache -------------------------------------------------------------- */

static void test_symcache(void **state)
{
	const struct skd_symtab *a, *b, *s;
	char path[PATH_MAX], miss[PATH_MAX];
	struct skd_symcache *c;
	int i;

	(void)state;
	c = skd_symcache_new();
	assert_non_null(c);
	a = skd_symcache_get(c, fx_lib.path);
	assert_non_null(a);
	assert_ptr_equal(skd_symcache_get(c, fx_lib.path), a);
	b = skd_symcache_get(c, fx_pie.path);
	assert_non_null(b);
	assert_ptr_not_equal(a, b);
	assert_int_equal(skd_symtab_count(b), fx_pie.naddr);

	/* A failure is remembered, even once the file appears. */
	tmp_path(path, sizeof(path), "appears-later.so");
	unlink(path);
	errno = 0;
	assert_null(skd_symcache_get(c, path));
	assert_int_equal(errno, ENOENT);
	copy_file(fx_lib.path, path);
	errno = 0;
	assert_null(skd_symcache_get(c, path));
	assert_int_equal(errno, ENOENT);

	errno = 0;
	assert_null(skd_symcache_get(c, SYM_SRC "/not_elf.txt"));
	assert_int_equal(errno, ENOEXEC);
	errno = 0;
	assert_null(skd_symcache_get(c, SYM_SRC "/not_elf.txt"));
	assert_int_equal(errno, ENOEXEC);

	/* Enough entries to grow the table several times over. */
	for (i = 0; i < 300; i++) {
		snprintf(miss, sizeof(miss), "/nonexistent/skidless/%d", i);
		assert_null(skd_symcache_get(c, miss));
	}
	assert_ptr_equal(skd_symcache_get(c, fx_lib.path), a);
	assert_ptr_equal(skd_symcache_get(c, fx_pie.path), b);
	for (i = 0; i < 300; i += 37) {
		snprintf(miss, sizeof(miss), "/nonexistent/skidless/%d", i);
		errno = 0;
		assert_null(skd_symcache_get(c, miss));
		assert_int_equal(errno, ENOENT);
	}
	s = skd_symcache_get(c, fx_strip.path);
	assert_non_null(s);
	assert_lookup(s, fx_find(&fx_strip, "fx_alpha")->addr, "fx_alpha");

	errno = 0;
	assert_null(skd_symcache_get(c, NULL));
	assert_int_equal(errno, EINVAL);
	assert_null(skd_symcache_get(NULL, fx_lib.path));
	skd_symcache_free(c);
	skd_symcache_free(NULL);
}

/* ---- main --------------------------------------------------------------- */

static int group_setup(void **state)
{
	(void)state;
	return unit_tmpdir_make(tmpdir, sizeof(tmpdir), SYM_FX, "tmp");
}

static int group_teardown(void **state)
{
	(void)state;
	return unit_tmpdir_remove(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_prestate(test_elf_fixture, (void *)&fx_nopie),
		cmocka_unit_test_prestate(test_elf_fixture, (void *)&fx_pie),
		cmocka_unit_test_prestate(test_elf_fixture, (void *)&fx_lib),
		cmocka_unit_test_prestate(test_elf_fixture, (void *)&fx_strip),
		cmocka_unit_test(test_elf_aliases),
		cmocka_unit_test(test_elf_debug_file),
		cmocka_unit_test(test_build_id),
		cmocka_unit_test(test_elf_no_build_id),
		cmocka_unit_test(test_self),
		cmocka_unit_test(test_libc),
		cmocka_unit_test(test_kallsyms_fixture),
		cmocka_unit_test(test_kallsyms_errors),
		cmocka_unit_test(test_kallsyms_proc),
		cmocka_unit_test(test_from_list),
		cmocka_unit_test(test_from_list_large),
		cmocka_unit_test(test_not_elf),
		cmocka_unit_test(test_elf_truncated),
		cmocka_unit_test(test_elf_corrupt),
		cmocka_unit_test(test_elf_fuzz),
		cmocka_unit_test(test_symcache),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
