// SPDX-License-Identifier: GPL-2.0
/* Tests for userland/lib/maps.c: /proc/PID/maps text and live processes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "maps.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static int parse_str(const char *text, struct skd_maps *m)
{
	return skd_maps_parse(text, strlen(text), m);
}

static void test_parse(void **state)
{
	static const char text[] =
		"55d0c5a00000-55d0c5a02000 r--p 00000000 08:01 1234                       /usr/bin/foo\n"
		"55d0c5a02000-55d0c5a07000 r-xp 00002000 08:01 1234                       /usr/bin/foo\n"
		"55d0c5a07000-55d0c5a09000 rw-p 00007000 08:01 1234                       /usr/bin/foo\n"
		"55d0c6000000-55d0c6021000 rw-p 00000000 00:00 0                          [heap]\n"
		"7f0000000000-7f0000001000 rwxp 00000000 00:00 0 \n"
		"7f1000000000-7f1000100000 r-xp 00026000 fd:00 987654321                  "
		"/opt/my app/lib x.so (deleted)\n"
		"7f2000000000-7f2000002000 r-xs 00000000 00:05 42 /dev/zero\n"
		"7ffd1c5f3000-7ffd1c5f5000 r-xp 00000000 00:00 0                          [vdso]\n"
		"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]";
	struct skd_maps m;

	(void)state;
	assert_int_equal(parse_str(text, &m), 0);
	assert_int_equal(m.n, 6);
	assert_int_equal(m.v[0].start, 0x55d0c5a02000ULL);
	assert_int_equal(m.v[0].end, 0x55d0c5a07000ULL);
	assert_int_equal(m.v[0].pgoff, 0x2000);
	assert_string_equal(m.v[0].path, "/usr/bin/foo");
	/* An anonymous executable mapping (a JIT): empty path. */
	assert_string_equal(m.v[1].path, "");
	/* Spaces inside the path are kept, the suffix too. */
	assert_string_equal(m.v[2].path, "/opt/my app/lib x.so (deleted)");
	assert_int_equal(m.v[2].pgoff, 0x26000);
	assert_string_equal(m.v[3].path, "/dev/zero");
	assert_string_equal(m.v[4].path, "[vdso]");
	assert_string_equal(m.v[5].path, "[vsyscall]");
	assert_int_equal(m.v[5].end, 0xffffffffff601000ULL);
	assert_int_equal(skd_map_file_offset(&m.v[0], 0x55d0c5a02345ULL), 0x2345);
	skd_maps_free(&m);
	assert_null(m.v);
	assert_int_equal(m.n, 0);
	skd_maps_free(&m);
	skd_maps_free(NULL);
}

static void test_find(void **state)
{
	/* Out of order on purpose: parse sorts. */
	static const char text[] =
		"3000-4000 r-xp 00000000 00:00 0 /c\n"
		"1000-2000 r-xp 00000000 00:00 0 /a\n"
		"2000-3000 r-xp 00001000 00:00 0 /b\n"
		"8000-9000 r-xp 00000000 00:00 0 /d\n";
	struct skd_maps m;

	(void)state;
	assert_int_equal(parse_str(text, &m), 0);
	assert_int_equal(m.n, 4);
	assert_null(skd_maps_find(&m, 0));
	assert_null(skd_maps_find(&m, 0xfff));
	assert_string_equal(skd_maps_find(&m, 0x1000)->path, "/a");
	assert_string_equal(skd_maps_find(&m, 0x1fff)->path, "/a");
	assert_string_equal(skd_maps_find(&m, 0x2000)->path, "/b");
	assert_string_equal(skd_maps_find(&m, 0x3fff)->path, "/c");
	assert_null(skd_maps_find(&m, 0x4000));
	assert_null(skd_maps_find(&m, 0x7fff));
	assert_string_equal(skd_maps_find(&m, 0x8000)->path, "/d");
	assert_null(skd_maps_find(&m, 0x9000));
	assert_null(skd_maps_find(&m, UINT64_MAX));
	assert_null(skd_maps_find(NULL, 0x1000));
	skd_maps_free(&m);
}

static void test_empty(void **state)
{
	struct skd_maps m = { (void *)1, 5 };

	(void)state;
	assert_int_equal(skd_maps_parse("", 0, &m), 0);
	assert_int_equal(m.n, 0);
	assert_null(m.v);
	assert_int_equal(skd_maps_parse(NULL, 0, &m), 0);
	assert_int_equal(parse_str("\n\n", &m), 0);
	assert_int_equal(m.n, 0);
	/* Nothing executable. */
	assert_int_equal(parse_str("1000-2000 rw-p 00000000 00:00 0 [heap]\n", &m), 0);
	assert_int_equal(m.n, 0);
	assert_null(skd_maps_find(&m, 0x1000));
	skd_maps_free(&m);
	assert_int_equal(skd_maps_parse(NULL, 5, &m), -EINVAL);
	assert_int_equal(skd_maps_parse("", 0, NULL), -EINVAL);
}

static void test_malformed(void **state)
{
	static const char *bad[] = {
		"garbage",
		"1000 r-xp 00000000 00:00 0 /a",
		"1000-2000",
		"1000-2000 ",
		"1000-2000 r-x",
		"1000-2000 r-xq 00000000 00:00 0 /a",
		"1000-2000 x-rp 00000000 00:00 0 /a",
		"1000-2000 r-xp",
		"1000-2000 r-xp 0000zz00 00:00 0 /a",
		"1000-2000 r-xp 00000000 0000 0 /a",
		"1000-2000 r-xp 00000000 00:00 /a",
		"1000-2000 r-xp 00000000 00:00 0x1 /a",
		"1000-2000  r-xp 00000000 00:00 0 /a",
		"2000-1000 r-xp 00000000 00:00 0 /a",
		"1000-1000 r-xp 00000000 00:00 0 /a",
		"-1000 r-xp 00000000 00:00 0 /a",
		"g000-2000 r-xp 00000000 00:00 0 /a",
		"10000000000000000-10000000000000001 r-xp 00000000 00:00 0 /a",
		"1000-2000 r-xp 10000000000000000 00:00 0 /a",
		"1000-2000 r-xp 00000000 00:00 99999999999999999999 /a",
		/* A bad line after good ones fails the whole text. */
		"1000-2000 r-xp 00000000 00:00 0 /a\n3000-4000 r-xp 0 00:00 0 /b\nbroken\n",
		/* Non-executable lines must be well-formed too. */
		"1000-2000 r-xp 00000000 00:00 0 /a\n3000-4000 rw-p zz 00:00 0\n",
		/* Overlapping executable mappings. */
		"1000-3000 r-xp 00000000 00:00 0 /a\n2000-4000 r-xp 00000000 00:00 0 /b\n",
	};
	static const char nul[] = "1000-2000 r-xp 00000000 00:00 0 /a\0b\n";
	struct skd_maps m;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		m.v = (void *)1;
		m.n = 7;
		if (parse_str(bad[i], &m) != -EINVAL)
			fail_msg("accepted: \"%s\"", bad[i]);
		assert_null(m.v);
		assert_int_equal(m.n, 0);
	}
	assert_int_equal(skd_maps_parse(nul, sizeof(nul) - 1, &m), -EINVAL);
	/* Exactly the first line, without what follows. */
	assert_int_equal(skd_maps_parse(nul, 34, &m), 0);
	assert_int_equal(m.n, 1);
	assert_string_equal(m.v[0].path, "/a");
	skd_maps_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
