// SPDX-License-Identifier: GPL-2.0
/*
 * userland/lib/dso.c, symbolize.c, buildid_cache.c, plt.c, jitmap.c and
 * demangle.c against fixtures dso_fx.sh builds at test time (expected
 * addresses from nm, objdump and readelf in dso_expect.h).
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
#include <sys/stat.h>
#include <unistd.h>

#include "unit_tmp.h"
#include "buildid.h"
#include "buildid_cache.h"
#include "demangle.h"
#include "dso.h"
#include "jitmap.h"
#include "symbolize.h"
#include "dso_expect.h"

static char tmpdir[PATH_MAX];
static char cachedir[PATH_MAX + 16];
static char emptydir[PATH_MAX + 16];
static const struct skd_dso_opts no_cache = { .cache_dir = "",
					      .debug_dir = emptydir };

static int setup(void **state)
{
	(void)state;
	unsetenv("DEBUGINFOD_URLS");
	if (unit_tmpdir_make(tmpdir, sizeof(tmpdir), unit_tmp_parent(), "skd-dso"))
		return -1;
	snprintf(cachedir, sizeof(cachedir), "%s/cache", tmpdir);
	snprintf(emptydir, sizeof(emptydir), "%s/empty", tmpdir);
	return mkdir(emptydir, 0755);
}

static int teardown(void **state)
{
	(void)state;
	return unit_tmpdir_remove(tmpdir);
}

static void copy(const char *from, const char *to)
{
	char cmd[3 * PATH_MAX];

	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", from, to);
	assert_int_equal(system(cmd), 0);
}

/* The name at @vaddr of @d, or NULL. */
static const char *name_at(struct skd_dso *d, uint64_t vaddr)
{
	struct skd_dso_sym s;

	assert_int_equal(skd_dso_lookup(d, vaddr, &s), 0);
	return s.name;
}

static void expect_name(struct skd_dso *d, uint64_t vaddr, const char *want)
{
	const char *got = name_at(d, vaddr);

	if (!got || strcmp(got, want))
		fail_msg("%#llx: want %s, got %s", (unsigned long long)vaddr,
			 want, got ? got : "(none)");
}

static void test_pie(void **state)
{
	char err[1024];
	struct skd_dso *d;
	struct skd_dso_sym s;
	uint64_t v;

	(void)state;
	d = skd_dso_open(DSO_FX "/pie", PIE_BUILD_ID, &no_cache, err, sizeof(err));
	assert_non_null(d);
	assert_string_equal(skd_dso_build_id(d), PIE_BUILD_ID);
	expect_name(d, PIE_ALPHA, "dso_alpha");
	expect_name(d, PIE_ALPHA + 2, "dso_alpha");
	assert_int_equal(skd_dso_lookup(d, PIE_ALPHA + 2, &s), 0);
	assert_int_equal(s.start, PIE_ALPHA);
	expect_name(d, PIE_LOCAL, "dso_local");
	/* The ELF header: no function there, so no name. */
	assert_null(name_at(d, 0x10));
	/* A PIE's text: file offset and virtual address agree. */
	assert_int_equal(skd_dso_offset_to_vaddr(d, PIE_ALPHA, &v), 0);
	assert_int_equal(v, PIE_ALPHA);
	assert_int_equal(skd_dso_offset_to_vaddr(d, 1ULL << 40, &v), -ENOENT);
	skd_dso_free(d);
	/* No build-id from the capture: the file as it is. */
	d = skd_dso_open(DSO_FX "/pie", NULL, &no_cache, err, sizeof(err));
	assert_non_null(d);
	expect_name(d, PIE_ALPHA, "dso_alpha");
	skd_dso_free(d);
}

/* Symbol sizes (nm's) and code bytes (the file's, at the same offset). */
static void test_size_and_bytes(void **state)
{
	uint8_t got[16], want[16];
	char err[1024];
	struct skd_dso *d;
	struct skd_dso_sym s;
	FILE *f;

	(void)state;
	d = skd_dso_open(DSO_FX "/pie", PIE_BUILD_ID, &no_cache, err, sizeof(err));
	assert_non_null(d);
	assert_int_equal(skd_dso_lookup(d, PIE_OUTER + 1, &s), 0);
	assert_int_equal(s.start, PIE_OUTER);
	assert_int_equal(s.size, PIE_OUTER_SIZE);
	/* A PIE's text: file offset and virtual address agree (test_pie). */
	f = fopen(DSO_FX "/pie", "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, PIE_OUTER, SEEK_SET), 0);
	assert_int_equal(fread(want, 1, sizeof(want), f), sizeof(want));
	fclose(f);
	assert_int_equal(skd_dso_read(d, PIE_OUTER, got, sizeof(got)), 0);
	assert_memory_equal(got, want, sizeof(want));
	assert_int_equal(skd_dso_read(d, 1ULL << 40, got, 1), -ENOENT);
	skd_dso_free(d);
}

static void test_cxx(void **state)
{
	struct skd_dso *d = skd_dso_open(DSO_FX "/pie", NULL, &no_cache, NULL, 0);

	(void)state;
	assert_non_null(d);
	expect_name(d, PIE_SPIN + 1, "ns::Widget::spin(int)");
	skd_dso_free(d);
}

static void test_demangle_strings(void **state)
{
	static const char *const cases[][2] = {
		{ "_ZN2ns6Widget4spinEi", "ns::Widget::spin(int)" },
		{ "_ZNSt6vectorIiSaIiEE9push_backERKi",
		  "std::vector<int, std::allocator<int> >::push_back(int const&)" },
		/* Rust legacy: the hash goes, as rustc-demangle drops it. */
		{ "_ZN4core3fmt9Formatter3pad17h0123456789abcdefE",
		  "core::fmt::Formatter::pad" },
		/* Rust v0. */
		{ "_RNvNtCs1234_7mycrate3foo3bar", "mycrate::foo::bar" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = skd_demangle(cases[i][0]);

		assert_non_null(s);
		assert_string_equal(s, cases[i][1]);
		free(s);
	}
	assert_null(skd_demangle("main"));
	assert_null(skd_demangle("_Zgarbage"));
	assert_null(skd_demangle(NULL));
}

static void test_shared_lib(void **state)
{
	struct skd_symbolizer_opts o = { .cache_dir = "", .debug_dir = emptydir };
	struct skd_symbolizer *s = skd_symbolizer_new(&o);
	/* The text segment mapped at some address, from its page. */
	uint64_t pgoff = LIB_TEXT_OFF & ~0xfffULL, start = 0x7f1234560000ULL;
	uint64_t ip = start + (LIB_TWO - LIB_TEXT_VADDR) + (LIB_TEXT_OFF - pgoff) + 4;
	struct skd_symbol sym;

	(void)state;
	assert_non_null(s);
	skd_symbolize_user(s, 1, DSO_FX "/libdso.so", start, pgoff, NULL, ip,
			   ip, &sym);
	assert_non_null(sym.name);
	assert_string_equal(sym.name, "dsolib_two");
	assert_int_equal(sym.off, 4);
	assert_non_null(sym.file);
	assert_non_null(strstr(sym.file, "dso_lib.c"));
	assert_true(sym.line > 0);
	skd_symbolizer_free(s);
}

static void test_debuglink(void **state)
{
	struct skd_dso *d;

	(void)state;
	/* dso_local is in the debug file's .symtab only. */
	d = skd_dso_open(DSO_FX "/dl/pie_strip", PIE_BUILD_ID, &no_cache, NULL, 0);
	assert_non_null(d);
	expect_name(d, PIE_LOCAL, "dso_local");
	expect_name(d, PIE_ALPHA, "dso_alpha");
	skd_dso_free(d);
}

static void test_debug_by_build_id(void **state)
{
	struct skd_dso_opts o = { .cache_dir = "", .debug_dir = DSO_FX "/debugroot" };
	struct skd_dso *d;

	(void)state;
	d = skd_dso_open(DSO_FX "/pie_nolink", PIE_BUILD_ID, &no_cache, NULL, 0);
	assert_non_null(d);
	assert_null(name_at(d, PIE_LOCAL));	/* no debug file: not found */
	skd_dso_free(d);
	d = skd_dso_open(DSO_FX "/pie_nolink", PIE_BUILD_ID, &o, NULL, 0);
	assert_non_null(d);
	expect_name(d, PIE_LOCAL, "dso_local");
	skd_dso_free(d);
}

static void test_minidebuginfo(void **state)
{
	struct skd_dso *d;

	(void)state;
	d = skd_dso_open(DSO_FX "/pie_mini", PIE_BUILD_ID, &no_cache, NULL, 0);
	assert_non_null(d);
	expect_name(d, PIE_LOCAL, "dso_local");
	skd_dso_free(d);
}

static void test_inline(void **state)
{
	struct skd_dso *d = skd_dso_open(DSO_FX "/pie", NULL, &no_cache, NULL, 0);
	struct skd_dso_sym s;
	bool found = false;
	uint64_t a;

	(void)state;
	assert_non_null(d);
	for (a = PIE_OUTER; a < PIE_OUTER + PIE_OUTER_SIZE && !found; a++) {
		assert_int_equal(skd_dso_lookup(d, a, &s), 0);
		assert_string_equal(s.name, "dso_outer");
		if (!s.nr_inline)
			continue;
		found = true;
		assert_string_equal(s.inl[0].func, "dso_inl");
		assert_non_null(strstr(s.inl[0].file, "dso_main.c"));
		assert_true(s.inl[0].line > 0 && s.inl[0].line < INLINE_CALL_LINE);
		/* The outer function's line is the call. */
		assert_non_null(strstr(s.file, "dso_main.c"));
		assert_int_equal(s.line, INLINE_CALL_LINE);
	}
	assert_true(found);
	skd_dso_free(d);
}

static void test_plt(void **state)
{
	struct skd_dso *d = skd_dso_open(DSO_FX "/pie", NULL, &no_cache, NULL, 0);

	(void)state;
	assert_non_null(d);
	expect_name(d, PIE_PUTS_PLT, "puts@plt");
	expect_name(d, PIE_PUTS_PLT + 6, "puts@plt");
	/*
	 * The header that binds lazily: ".plt", as perf names it since
	 * Linux 6.2 (tools/perf/util/symbol-elf.c); perf 6.1 said _init+N,
	 * past _init's end.
	 */
	expect_name(d, PIE_PLT, ".plt");
	expect_name(d, PIE_PLT + 15, ".plt");
	/* In .plt.got, bound at load time: named as objdump names it. */
	expect_name(d, PIE_CXA_PLTGOT, "__cxa_finalize@plt");
	skd_dso_free(d);
}

static void test_rebuilt(void **state)
{
	struct skd_dso_opts cached = { .cache_dir = cachedir, .debug_dir = emptydir };
	char app[PATH_MAX + 16], err[1024], bid[SKD_BUILD_ID_HEX];
	struct skd_dso *d;

	(void)state;
	snprintf(app, sizeof(app), "%s/app", tmpdir);
	copy(DSO_FX "/pie_v1", app);
	/* Record time: the object a sample hit goes to the cache. */
	assert_int_equal(skd_buildid_cache_add(cachedir, app, PIE_BUILD_ID, bid,
					       err, sizeof(err)), 0);
	assert_string_equal(bid, PIE_BUILD_ID);
	/* Then it is rebuilt. */
	copy(DSO_FX "/pie_v2", app);
	errno = 0;
	d = skd_dso_open(app, PIE_BUILD_ID, &no_cache, err, sizeof(err));
	assert_null(d);
	assert_int_equal(errno, ESTALE);
	assert_non_null(strstr(err, V2_BUILD_ID));
	assert_non_null(strstr(err, "build-id cache"));
	/* The rebuilt file would have named something else there. */
	d = skd_dso_open(app, V2_BUILD_ID, &no_cache, err, sizeof(err));
	assert_non_null(d);
	assert_true(!name_at(d, PIE_ALPHA) ||
		    strcmp(name_at(d, PIE_ALPHA), "dso_alpha"));
	expect_name(d, V2_ALPHA, "dso_alpha");
	skd_dso_free(d);
	/* With the cache: the original. */
	d = skd_dso_open(app, PIE_BUILD_ID, &cached, err, sizeof(err));
	assert_non_null(d);
	expect_name(d, PIE_ALPHA, "dso_alpha");
	assert_non_null(strstr(skd_dso_file(d), cachedir));
	skd_dso_free(d);
	/* A capture-time add of a changed file is refused. */
	assert_int_equal(skd_buildid_cache_add(cachedir, app, PIE_BUILD_ID, NULL,
					       err, sizeof(err)), -ESTALE);
}

static int nwarn;
static char lastwarn[1024];

static void count_warn(const char *msg, void *arg)
{
	(void)arg;
	nwarn++;
	snprintf(lastwarn, sizeof(lastwarn), "%s", msg);
}

/* A mismatch through the symbolizer: unnamed, and said once. */
static void test_rebuilt_warn_once(void **state)
{
	struct skd_symbolizer_opts o = { .cache_dir = "", .debug_dir = emptydir,
					 .warn = count_warn };
	struct skd_symbolizer *s = skd_symbolizer_new(&o);
	struct skd_symbol sym;
	int i;

	(void)state;
	nwarn = 0;
	for (i = 0; i < 3; i++) {
		skd_symbolize_user(s, 1, DSO_FX "/pie_v2", 0x555500000000ULL, 0,
				   PIE_BUILD_ID, 0x555500000000ULL + PIE_ALPHA,
				   0x555500000000ULL + PIE_ALPHA, &sym);
		assert_null(sym.name);
	}
	assert_int_equal(nwarn, 1);
	assert_non_null(strstr(lastwarn, "rebuilt"));
	skd_symbolizer_free(s);
}

static void test_cache_layout(void **state)
{
	static char dir[PATH_MAX + 16], link[2 * PATH_MAX], target[PATH_MAX];
	static char abs[PATH_MAX], want[4 * PATH_MAX], file[4 * PATH_MAX];
	static char bid[SKD_BUILD_ID_HEX], err[512], cmd[8 * PATH_MAX];
	struct stat st;
	ssize_t n;
	FILE *p;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/layout", tmpdir);
	assert_non_null(realpath(DSO_FX "/pie", abs));
	assert_int_equal(skd_buildid_cache_add(dir, abs, NULL, bid, err,
					       sizeof(err)), 0);
	assert_string_equal(bid, PIE_BUILD_ID);
	/* Again: already there, fine. */
	assert_int_equal(skd_buildid_cache_add(dir, abs, NULL, NULL, err,
					       sizeof(err)), 0);
	snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", dir, bid, bid + 2);
	n = readlink(link, target, sizeof(target) - 1);
	assert_true(n > 0);
	target[n] = '\0';
	snprintf(want, sizeof(want), "../..%s/%s", abs, bid);
	assert_string_equal(target, want);
	snprintf(file, sizeof(file), "%s%s/%s/elf", dir, abs, bid);
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(skd_buildid_cache_lookup(dir, bid, file, sizeof(file)), 0);
	assert_int_equal(skd_buildid_cache_lookup(dir, V2_BUILD_ID, file,
						  sizeof(file)), -ENOENT);
	assert_int_equal(skd_buildid_cache_lookup(dir, "xyz", file,
						  sizeof(file)), -EINVAL);
	/* perf itself reads it (HOME/.debug is perf's cache). */
	if (access("/usr/bin/perf", X_OK))
		return;
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/home && ln -sfn %s %s/home/.debug"
		 " && HOME=%s/home perf buildid-cache --list 2>/dev/null",
		 tmpdir, dir, tmpdir, tmpdir);
	p = popen(cmd, "r");
	assert_non_null(p);
	snprintf(want, sizeof(want), "%s %s", bid, abs);
	bool seen = false;

	while (fgets(file, sizeof(file), p))
		if (!strncmp(file, want, strlen(want)))
			seen = true;
	pclose(p);
	assert_true(seen);
}

static void test_vdso(void **state)
{
	char dir[PATH_MAX + 16], bid[SKD_BUILD_ID_HEX], err[512];
	char file[PATH_MAX + 256], cmd[PATH_MAX * 2], line[512];
	struct skd_dso_opts o = { .cache_dir = dir, .debug_dir = emptydir };
	unsigned long long addr = 0;
	struct skd_dso *d;
	FILE *p;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/vdso", tmpdir);
	{
		const void *image;
		size_t len;

		/* valgrind hides the vdso from its guest. */
		if (skd_vdso_image(&image, &len) == -ENOENT)
			skip();
	}
	assert_int_equal(skd_buildid_cache_add(dir, SKD_VDSO_NAME, NULL, bid,
					       err, sizeof(err)), 0);
	assert_int_equal(skd_buildid_cache_lookup(dir, bid, file, sizeof(file)), 0);
	assert_string_equal(file + strlen(file) - 5, "/vdso");
	{
		char real[PATH_MAX];

		assert_non_null(realpath(file, real));
		assert_non_null(strstr(real, "/[vdso]/"));
	}
	snprintf(cmd, sizeof(cmd), "nm -D '%s'", file);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p))
		if (strstr(line, " __vdso_clock_gettime"))
			addr = strtoull(line, NULL, 16);
	pclose(p);
	assert_true(addr != 0);
	/* Without a build-id, [vdso] is not a file: unknown. */
	assert_null(skd_dso_open(SKD_VDSO_NAME, NULL, &o, err, sizeof(err)));
	d = skd_dso_open(SKD_VDSO_NAME, bid, &o, err, sizeof(err));
	assert_non_null(d);
	expect_name(d, addr, "__vdso_clock_gettime");
	skd_dso_free(d);
}

static void test_jitmap(void **state)
{
	struct skd_symbolizer_opts o = { .cache_dir = "", .jit_dir = tmpdir };
	struct skd_symbolizer *s = skd_symbolizer_new(&o);
	char path[PATH_MAX + 32];
	struct skd_symbol sym;
	FILE *f;

	(void)state;
	assert_int_equal(skd_jitmap_path(tmpdir, 4242, path, sizeof(path)), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("7f0000001000 40 LazyCompile:~foo bar.js:1\n"
	      "0x7f0000002000 0x20 jit_two\n"
	      "garbage line\n", f);
	fclose(f);
	skd_symbolize_user(s, 4242, "", 0x7f0000000000ULL, 0, NULL,
			   0x7f0000001010ULL, 0x7f0000001010ULL, &sym);
	assert_non_null(sym.name);
	assert_string_equal(sym.name, "LazyCompile:~foo bar.js:1");
	assert_int_equal(sym.off, 0x10);
	skd_symbolize_user(s, 4242, "//anon", 0x7f0000000000ULL, 0, NULL,
			   0x7f0000002004ULL, 0x7f0000002004ULL, &sym);
	assert_string_equal(sym.name, "jit_two");
	/* Past an entry's size: unknown. */
	skd_symbolize_user(s, 4242, "", 0x7f0000000000ULL, 0, NULL,
			   0x7f0000002030ULL, 0x7f0000002030ULL, &sym);
	assert_null(sym.name);
	/* No map for another process. */
	skd_symbolize_user(s, 4243, "", 0x7f0000000000ULL, 0, NULL,
			   0x7f0000001010ULL, 0x7f0000001010ULL, &sym);
	assert_null(sym.name);
	skd_symbolizer_free(s);
}

/* A notes file holding one NT_GNU_BUILD_ID of @bid (20 bytes of hex). */
static void write_notes(const char *path, const char *bid)
{
	unsigned char buf[12 + 4 + 20];
	uint32_t hdr[3] = { 4, 20, 3 };
	unsigned int i, b;
	FILE *f = fopen(path, "w");

	memcpy(buf, hdr, 12);
	memcpy(buf + 12, "GNU", 4);
	for (i = 0; i < 20; i++) {
		sscanf(bid + 2 * i, "%2x", &b);
		buf[16 + i] = (unsigned char)b;
	}
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, sizeof(buf), f), sizeof(buf));
	fclose(f);
}

/*
 * /proc/kallsyms of a 6.12 kernel starts with per-CPU symbols at address
 * 0 (fixed_percpu_data, __per_cpu_start): that text is cached. Text where
 * kptr_restrict zeroed every address names nothing and is refused.
 */
static void test_kallsyms_zero_percpu_first(void **state)
{
	char notes[PATH_MAX + 16], dir[PATH_MAX + 16], ks[PATH_MAX + 16];
	char bid[SKD_BUILD_ID_HEX], err[512];
	FILE *f;

	(void)state;
	snprintf(notes, sizeof(notes), "%s/notes-pcpu", tmpdir);
	snprintf(dir, sizeof(dir), "%s/kcache-pcpu", tmpdir);
	snprintf(ks, sizeof(ks), "%s/kallsyms-pcpu", tmpdir);
	write_notes(notes, "0123456789abcdef0123456789abcdef01234567");
	f = fopen(ks, "w");
	assert_non_null(f);
	fputs("0000000000000000 A fixed_percpu_data\n"
	      "0000000000000000 A __per_cpu_start\n"
	      "ffffffff81000000 T _text\n"
	      "ffffffff81000010 T startup_64\n", f);
	fclose(f);
	assert_int_equal(skd_buildid_cache_add_kallsyms(dir, ks, notes, bid,
							err, sizeof(err)), 0);
	f = fopen(ks, "w");
	assert_non_null(f);
	fputs("0000000000000000 A fixed_percpu_data\n"
	      "0000000000000000 T _text\n"
	      "0000000000000000 T startup_64\n", f);
	fclose(f);
	assert_int_equal(skd_buildid_cache_add_kallsyms(dir, ks, notes, bid,
							err, sizeof(err)),
			 -EPERM);
	assert_non_null(strstr(err, "kptr_restrict"));
}

static void test_kallsyms_by_build_id(void **state)
{
	const char *kbid = "00112233445566778899aabbccddeeff00112233";
	const char *other = "ffeeddccbbaa99887766554433221100ffeeddcc";
	char notes[PATH_MAX + 16], dir[PATH_MAX + 16], bid[SKD_BUILD_ID_HEX];
	char err[512];
	struct skd_symbolizer_opts o = {
		.cache_dir = dir, .kallsyms = SYM_SRC "/kallsyms.txt",
		.kernel_notes = notes, .warn = count_warn,
	};
	struct skd_symbolizer *s;
	struct skd_symbol sym;
	uint64_t ip = 0xffffffff81000010ULL;

	(void)state;
	snprintf(notes, sizeof(notes), "%s/notes", tmpdir);
	snprintf(dir, sizeof(dir), "%s/kcache", tmpdir);
	write_notes(notes, kbid);
	assert_int_equal(skd_build_id_kernel(notes, bid, sizeof(bid)), 20);
	assert_string_equal(bid, kbid);
	/* Record time: kallsyms under the kernel's build-id. */
	assert_int_equal(skd_buildid_cache_add_kallsyms(dir, SYM_SRC "/kallsyms.txt",
							notes, bid, err,
							sizeof(err)), 0);
	/* Report elsewhere (another kernel runs): found in the cache. */
	write_notes(notes, other);
	s = skd_symbolizer_new(&o);
	assert_int_equal(skd_symbolizer_set_kernel(s, NULL, 0, kbid), 0);
	skd_symbolize_kernel(s, ip, ip, &sym);
	assert_non_null(sym.name);
	skd_symbolizer_free(s);
	/* Not cached, another kernel: never this machine's kallsyms. */
	o.cache_dir = "";
	nwarn = 0;
	s = skd_symbolizer_new(&o);
	assert_int_equal(skd_symbolizer_set_kernel(s, NULL, 0, kbid), 0);
	skd_symbolize_kernel(s, ip, ip, &sym);
	assert_null(sym.name);
	skd_symbolize_kernel(s, ip, ip, &sym);
	assert_int_equal(nwarn, 1);
	assert_non_null(strstr(lastwarn, kbid));
	skd_symbolizer_free(s);
	/* Same kernel running: its kallsyms is the capture's. */
	write_notes(notes, kbid);
	s = skd_symbolizer_new(&o);
	assert_int_equal(skd_symbolizer_set_kernel(s, NULL, 0, kbid), 0);
	skd_symbolize_kernel(s, ip, ip, &sym);
	assert_non_null(sym.name);
	skd_symbolizer_free(s);
	/* No build-id at all: addresses, said once. */
	nwarn = 0;
	s = skd_symbolizer_new(&o);
	skd_symbolize_kernel(s, ip, ip, &sym);
	assert_null(sym.name);
	assert_int_equal(nwarn, 1);
	skd_symbolizer_free(s);
}

static void test_errors(void **state)
{
	char err[512], bogus[PATH_MAX + 16];
	struct skd_dso *d;

	(void)state;
	err[0] = '\0';
	errno = 0;
	d = skd_dso_open(SYM_SRC "/not_elf.txt", NULL, &no_cache, err, sizeof(err));
	assert_null(d);
	assert_int_equal(errno, ENOEXEC);
	assert_true(strlen(err) > 0);
	d = skd_dso_open(DSO_FX "/pie", "not-hex", &no_cache, err, sizeof(err));
	assert_null(d);
	assert_int_equal(errno, EINVAL);
	d = skd_dso_open("/nonexistent/x", PIE_BUILD_ID, &no_cache, err, sizeof(err));
	assert_null(d);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "build-id cache"));
	/* A truncated copy of the PIE: refused or unnamed, never a crash. */
	snprintf(bogus, sizeof(bogus), "%s/trunc", tmpdir);
	assert_int_equal(truncate(bogus, 0) == 0 || errno == ENOENT, 1);
	copy(DSO_FX "/pie", bogus);
	assert_int_equal(truncate(bogus, 3000), 0);
	d = skd_dso_open(bogus, NULL, &no_cache, err, sizeof(err));
	if (d) {
		name_at(d, PIE_ALPHA);
		skd_dso_free(d);
	}
	assert_int_equal(skd_buildid_cache_add(cachedir, "relative/x", NULL, NULL,
					       err, sizeof(err)), -EINVAL);
	assert_int_equal(skd_buildid_cache_add(cachedir, SYM_SRC "/not_elf.txt",
					       NULL, NULL, err, sizeof(err)),
			 -ENOEXEC);
}

/*
 * skd_dso_lookup_name() answers by spans of symbol bounds, asking libdwfl
 * once per span: it must name every address as skd_dso_lookup() does
 * (one libdwfl call per address). Every address of the fixtures' first
 * 64 KiB, and a spread over glibc (thousands of symbols and aliases,
 * with its debug file when libc6-dbg is there).
 */
static void same_names(const char *path, uint64_t from, uint64_t to,
		       uint64_t step)
{
	struct skd_dso *a = skd_dso_open(path, NULL, &no_cache, NULL, 0);
	struct skd_dso *b = skd_dso_open(path, NULL, &no_cache, NULL, 0);
	struct skd_dso_sym x, y;
	uint64_t v, named = 0;

	assert_non_null(a);
	assert_non_null(b);
	for (v = from; v < to; v += step) {
		assert_int_equal(skd_dso_lookup(a, v, &x), 0);
		assert_int_equal(skd_dso_lookup_name(b, v, &y), 0);
		if (!x.name || !y.name) {
			if (x.name != y.name)
				fail_msg("%s 0x%llx: %s vs %s", path,
					 (unsigned long long)v,
					 x.name ? x.name : "(none)",
					 y.name ? y.name : "(none)");
			continue;
		}
		if (strcmp(x.name, y.name) || x.start != y.start)
			fail_msg("%s 0x%llx: %s@0x%llx vs %s@0x%llx", path,
				 (unsigned long long)v, x.name,
				 (unsigned long long)x.start, y.name,
				 (unsigned long long)y.start);
		assert_null(y.file);
		named++;
	}
	assert_true(named > 0);
	skd_dso_free(a);
	skd_dso_free(b);
}

static void test_lookup_name_same(void **state)
{
	(void)state;
	same_names(DSO_FX "/pie", 0, 0x10000, 1);
	same_names(DSO_FX "/pie_mini", 0, 0x10000, 1);
	same_names(DSO_FX "/libdso.so", 0, 0x10000, 1);
	same_names("/usr/lib/x86_64-linux-gnu/libc.so.6", 0x20000, 0x1a0000,
		   4093);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pie),
		cmocka_unit_test(test_size_and_bytes),
		cmocka_unit_test(test_cxx),
		cmocka_unit_test(test_demangle_strings),
		cmocka_unit_test(test_shared_lib),
		cmocka_unit_test(test_debuglink),
		cmocka_unit_test(test_debug_by_build_id),
		cmocka_unit_test(test_minidebuginfo),
		cmocka_unit_test(test_inline),
		cmocka_unit_test(test_plt),
		cmocka_unit_test(test_rebuilt),
		cmocka_unit_test(test_rebuilt_warn_once),
		cmocka_unit_test(test_cache_layout),
		cmocka_unit_test(test_vdso),
		cmocka_unit_test(test_jitmap),
		cmocka_unit_test(test_kallsyms_zero_percpu_first),
		cmocka_unit_test(test_kallsyms_by_build_id),
		cmocka_unit_test(test_lookup_name_same),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
