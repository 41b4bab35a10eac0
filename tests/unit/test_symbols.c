// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for userland/lib/symbols.c: kallsyms text and lists. ELF objects
 * are dso.c's (libdwfl), tested in test_dso.c.
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


static char tmpdir[PATH_MAX];

/* ---- helpers ------------------------------------------------------------ */

static void spill(const char *path, const void *buf, size_t len)
{
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	if (len)
		assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
}

static void tmp_path(char *buf, size_t len, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", tmpdir, name);

	assert_true(n > 0 && (size_t)n < len);
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

/* ---- kallsyms ----------------------------------------------------------- */

static void test_kallsyms_fixture(void **state)
{
	const struct skd_sym *s;
	struct skd_symtab *t;

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
	assert_null(skd_symtab_open_kallsyms(SYM_FX "/libfx.so"));
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
		cmocka_unit_test(test_kallsyms_fixture),
		cmocka_unit_test(test_kallsyms_errors),
		cmocka_unit_test(test_kallsyms_proc),
		cmocka_unit_test(test_from_list),
		cmocka_unit_test(test_from_list_large),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
