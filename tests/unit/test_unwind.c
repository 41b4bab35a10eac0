// SPDX-License-Identifier: GPL-2.0
/*
 * userland/lib/unwind_dwarf.c against a real program: fixtures/unw_prog.c,
 * built by dso.mk with -fomit-frame-pointer, with -g (.debug_frame and
 * .eh_frame) and without (.eh_frame only), captures its registers and stack
 * at known points. The unwinder, then the symbolizer, must name the calls
 * it made, in order, through libc's qsort() too.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit_tmp.h"
#include "maps.h"
#include "symbolize.h"
#include "unwind_dwarf.h"

static char tmpdir[PATH_MAX];

struct capture {
	uint64_t regs[SKD_UREG_NR];
	unsigned char *stack;
	uint64_t stack_len;
	struct skd_maps maps;
	struct skd_unwind_map *umaps;
};

static int setup(void **state)
{
	(void)state;
	unsetenv("DEBUGINFOD_URLS");
	return unit_tmpdir_make(tmpdir, sizeof(tmpdir), unit_tmp_parent(),
				"skd-unwind");
}

static int teardown(void **state)
{
	(void)state;
	return unit_tmpdir_remove(tmpdir);
}

/* Run @prog, which writes <prefix>.deep and <prefix>.qsort. */
static void run_prog(const char *prog, const char *prefix)
{
	char cmd[2 * PATH_MAX];

	snprintf(cmd, sizeof(cmd), "%s %s", prog, prefix);
	assert_int_equal(system(cmd), 0);
}

static void load(const char *path, struct capture *c)
{
	char *maps;
	long size, rest;
	size_t i;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	assert_int_equal(fread(c->regs, 8, SKD_UREG_NR, f), SKD_UREG_NR);
	assert_int_equal(fread(&c->stack_len, 8, 1, f), 1);
	assert_true(c->stack_len > 0 && c->stack_len <= 65536);
	c->stack = malloc(c->stack_len);
	assert_non_null(c->stack);
	assert_int_equal(fread(c->stack, 1, c->stack_len, f), c->stack_len);
	size = ftell(f);
	fseek(f, 0, SEEK_END);
	rest = ftell(f) - size;
	fseek(f, size, SEEK_SET);
	maps = calloc(1, (size_t)rest + 1);
	assert_non_null(maps);
	assert_int_equal(fread(maps, 1, (size_t)rest, f), (size_t)rest);
	fclose(f);
	assert_int_equal(skd_maps_parse(maps, (size_t)rest, &c->maps), 0);
	free(maps);
	c->umaps = calloc(c->maps.n, sizeof(*c->umaps));
	assert_non_null(c->umaps);
	for (i = 0; i < c->maps.n; i++)
		c->umaps[i] = (struct skd_unwind_map) {
			.path = c->maps.v[i].path,
			.start = c->maps.v[i].start,
			.len = c->maps.v[i].end - c->maps.v[i].start,
			.pgoff = c->maps.v[i].pgoff,
		};
}

static void unload(struct capture *c)
{
	free(c->stack);
	free(c->umaps);
	skd_maps_free(&c->maps);
}

struct named {
	const char *name;	/* NULL: unknown */
	const char *dso;
};

/* Unwind @c and name each frame into @out; the number of frames. */
static size_t unwind_and_name(struct capture *c, struct named *out, size_t max)
{
	struct skd_symbolizer_opts so = { .cache_dir = "", .jit_dir = tmpdir };
	struct skd_dso_opts o = { .cache_dir = "" };
	struct skd_symbolizer *s = skd_symbolizer_new(&so);
	struct skd_unwinder *u = skd_unwinder_new(&o);
	uint64_t ips[64];
	char err[512] = "";
	int n, i;

	assert_non_null(s);
	assert_non_null(u);
	n = skd_unwind_dwarf(u, 1, c->regs, c->stack, c->stack_len, c->umaps,
			     c->maps.n, ips, 64, err, sizeof(err));
	if (n < 0)
		fail_msg("unwind: %s", err);
	/* Twice in one address space: the second reuses the objects. */
	assert_int_equal(skd_unwind_dwarf(u, 1, c->regs, c->stack,
					  c->stack_len, c->umaps, c->maps.n,
					  ips, 64, err, sizeof(err)), n);
	assert_true((size_t)n <= max);
	for (i = 0; i < n; i++) {
		uint64_t look = i ? ips[i] - 1 : ips[i];
		const struct skd_map *m = skd_maps_find(&c->maps, look);
		struct skd_symbol sym;

		out[i].dso = m ? strrchr(m->path, '/') : NULL;
		out[i].dso = out[i].dso ? out[i].dso + 1 : "?";
		out[i].name = NULL;
		if (!m)
			continue;
		skd_symbolize_user(s, 1, m->path, m->start, m->pgoff, NULL,
				   ips[i], look, &sym);
		out[i].name = sym.name ? strdup(sym.name) : NULL;
		print_message("# %d %#llx %s %s\n", i, (unsigned long long)ips[i],
			      sym.name ? sym.name : "?", out[i].dso);
	}
	skd_unwinder_free(u);
	skd_symbolizer_free(s);
	return (size_t)n;
}

static void free_named(struct named *v, size_t n)
{
	while (n--)
		free((char *)v[n].name);
}

static bool is(const struct named *f, const char *name)
{
	return f->name && !strcmp(f->name, name);
}

static void check_deep(const char *prog)
{
	char prefix[PATH_MAX + 64], path[PATH_MAX + 80];
	struct named f[64];
	struct capture c;
	size_t n;

	snprintf(prefix, sizeof(prefix), "%s/%s", tmpdir, strrchr(prog, '/') + 1);
	run_prog(prog, prefix);
	snprintf(path, sizeof(path), "%s.deep", prefix);
	load(path, &c);
	n = unwind_and_name(&c, f, 64);
	assert_true(n >= 4);
	assert_true(is(&f[0], "unw_c"));
	assert_true(is(&f[1], "unw_b"));
	assert_true(is(&f[2], "unw_a"));
	assert_true(is(&f[3], "main"));
	/* Then libc's start code, named or not, but in libc. */
	if (n > 4)
		assert_string_equal(f[4].dso, "libc.so.6");
	free_named(f, n);

	snprintf(path, sizeof(path), "%s.qsort", prefix);
	unload(&c);
	load(path, &c);
	n = unwind_and_name(&c, f, 64);
	assert_true(n >= 4);
	assert_true(is(&f[0], "unw_cmp"));
	/* qsort's own frames: in libc, never named after our functions. */
	size_t i = 1;

	while (i < n && !strcmp(f[i].dso, "libc.so.6"))
		i++;
	assert_true(i >= 2);
	assert_true(i + 1 < n);
	/* qsort_r is exported: named even without libc's .symtab. */
	assert_true(is(&f[i - 1], "qsort_r"));
	assert_true(is(&f[i], "sort_it"));
	assert_true(is(&f[i + 1], "main"));
	free_named(f, n);
	unload(&c);
}

static void test_unwind_debug(void **state)
{
	(void)state;
	check_deep(DSO_FX "/unw_g");
}

static void test_unwind_eh_frame(void **state)
{
	(void)state;
	check_deep(DSO_FX "/unw_eh");
}

static void test_unwind_errors(void **state)
{
	struct skd_unwinder *u = skd_unwinder_new(NULL);
	uint64_t regs[SKD_UREG_NR] = { 0 }, ips[4];
	struct skd_unwind_map m = { .path = "/nonexistent/x", .start = 0x1000,
				    .len = 0x1000 };
	char err[256];

	(void)state;
	assert_non_null(u);
	assert_int_equal(skd_unwind_dwarf(u, 0, NULL, NULL, 0, NULL, 0, ips, 4,
					  err, sizeof(err)), -EINVAL);
	regs[SKD_UREG_IP] = 0x1234;
	/* Nothing mapped that libdwfl can read: refused, not a crash. */
	assert_true(skd_unwind_dwarf(u, 0, regs, NULL, 0, &m, 1, ips, 4, err,
				     sizeof(err)) < 0);
	assert_true(strlen(err) > 0);
	skd_unwinder_free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unwind_debug),
		cmocka_unit_test(test_unwind_eh_frame),
		cmocka_unit_test(test_unwind_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
