// SPDX-License-Identifier: GPL-2.0
/* Tests for userland/lib/cpulist.c, hmap.c and explain.c. */
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
#include <sys/resource.h>

#include "cpulist.h"
#include "explain.h"
#include "memlock_explain.h"
#include "reader.h"
#include "hmap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ---- cpulist ------------------------------------------------------------ */

#define WORDS	4	/* 256 CPUs */

static void test_cpulist_valid(void **state)
{
	static const struct {
		const char *s;
		int cpus[12];		/* the CPUs set, -1 terminated */
	} cases[] = {
		{ "0", { 0, -1 } },
		{ "7", { 7, -1 } },
		{ "007", { 7, -1 } },
		{ "0-3", { 0, 1, 2, 3, -1 } },
		{ "2-2", { 2, -1 } },
		{ "0-3,8,10-11", { 0, 1, 2, 3, 8, 10, 11, -1 } },
		{ "5,1,3", { 1, 3, 5, -1 } },
		/* Overlaps count once. */
		{ "1,1,0-3,2-2,3", { 0, 1, 2, 3, -1 } },
		{ "0-3\n", { 0, 1, 2, 3, -1 } },
		{ "8\n", { 8, -1 } },
		{ "62-65", { 62, 63, 64, 65, -1 } },	/* across a word */
		{ "255", { 255, -1 } },			/* the last bit */
		{ "0,255", { 0, 255, -1 } },
		{ "63,64,127,128,191,192", { 63, 64, 127, 128, 191, 192, -1 } },
	};
	uint64_t mask[WORDS], want[WORDS];
	size_t c, i;
	int n;

	(void)state;
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		memset(want, 0, sizeof(want));
		for (n = 0; cases[c].cpus[n] >= 0; n++)
			want[cases[c].cpus[n] / 64] |= 1ULL << (cases[c].cpus[n] % 64);
		/* Whatever was in the mask before is gone. */
		memset(mask, 0xff, sizeof(mask));
		if (skd_cpulist_parse(cases[c].s, mask, WORDS) != n)
			fail_msg("\"%s\": count", cases[c].s);
		for (i = 0; i < WORDS; i++)
			if (mask[i] != want[i])
				fail_msg("\"%s\": word %zu is %#jx, want %#jx",
					 cases[c].s, i, (uintmax_t)mask[i],
					 (uintmax_t)want[i]);
		for (n = 0; cases[c].cpus[n] >= 0; n++)
			assert_true(skd_cpu_isset(mask, (unsigned int)cases[c].cpus[n]));
	}

	/* The largest range the bitmap holds. */
	assert_int_equal(skd_cpulist_parse("0-255", mask, WORDS), 256);
	for (i = 0; i < WORDS; i++)
		assert_int_equal(mask[i], UINT64_MAX);
}

static void test_cpulist_invalid(void **state)
{
	static const struct {
		const char *s;
		size_t words;
		int err;
	} cases[] = {
		{ "", WORDS, -EINVAL },
		{ "\n", WORDS, -EINVAL },
		{ ",", WORDS, -EINVAL },
		{ ",1", WORDS, -EINVAL },
		{ "1,", WORDS, -EINVAL },
		{ "1,\n", WORDS, -EINVAL },
		{ "0-3,", WORDS, -EINVAL },
		{ "1,,2", WORDS, -EINVAL },
		{ "-1", WORDS, -EINVAL },
		{ "1-", WORDS, -EINVAL },
		{ "1-\n", WORDS, -EINVAL },
		{ "3-1", WORDS, -EINVAL },
		{ "1--2", WORDS, -EINVAL },
		{ "1-2-3", WORDS, -EINVAL },
		{ "a", WORDS, -EINVAL },
		{ "1a", WORDS, -EINVAL },
		{ "1 ", WORDS, -EINVAL },
		{ " 1", WORDS, -EINVAL },
		{ "1, 2", WORDS, -EINVAL },
		{ "1;2", WORDS, -EINVAL },
		{ "0x1", WORDS, -EINVAL },
		{ "+1", WORDS, -EINVAL },
		{ "1-+2", WORDS, -EINVAL },
		{ "1.5", WORDS, -EINVAL },
		{ "1\t", WORDS, -EINVAL },
		/* Beyond the bitmap. */
		{ "256", WORDS, -ERANGE },
		{ "0-256", WORDS, -ERANGE },
		{ "1,300", WORDS, -ERANGE },
		{ "64", 1, -ERANGE },
		{ "0", 0, -ERANGE },
		{ "4294967296", WORDS, -ERANGE },
		{ "18446744073709551615", WORDS, -ERANGE },
		/* Too big for any integer: still a CPU beyond the bitmap. */
		{ "18446744073709551616", WORDS, -ERANGE },
		{ "99999999999999999999999", WORDS, -ERANGE },
		{ "0-99999999999999999999999", WORDS, -ERANGE },
	};
	uint64_t mask[WORDS];
	size_t c;
	int ret;

	(void)state;
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		ret = skd_cpulist_parse(cases[c].s, mask, cases[c].words);
		if (ret != cases[c].err)
			fail_msg("\"%s\" (%zu words): %d, want %d", cases[c].s,
				 cases[c].words, ret, cases[c].err);
	}
}

static void test_cpus_possible(void **state)
{
	uint64_t mask[128], again[128];	/* 8192 CPUs, the kernel's maximum */
	char buf[4096];
	size_t n;
	FILE *f;

	(void)state;
	memset(mask, 0, sizeof(mask));
	assert_int_equal(skd_cpus_possible(mask, ARRAY_SIZE(mask)), 0);
	/* CPU 0 always exists. */
	assert_true(skd_cpu_isset(mask, 0));

	/* The same bits as parsing the file ourselves. */
	f = fopen("/sys/devices/system/cpu/possible", "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	assert_true(skd_cpulist_parse(buf, again, ARRAY_SIZE(again)) > 0);
	assert_memory_equal(mask, again, sizeof(mask));
}

/* Formatting a mask gives the list that parses back into it. */
static void test_cpulist_format(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "0", "0" },
		{ "0-3", "0-3" },
		{ "3,1,2,0", "0-3" },
		{ "0,2-3,8", "0,2-3,8" },
		{ "62-65,255", "62-65,255" },
		{ "0-255", "0-255" },
	};
	uint64_t mask[WORDS], again[WORDS];
	char buf[64], tiny[6];
	size_t c;

	(void)state;
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		assert_true(skd_cpulist_parse(cases[c].in, mask, WORDS) > 0);
		skd_cpulist_format(mask, WORDS, buf, sizeof(buf));
		assert_string_equal(buf, cases[c].out);
		assert_true(skd_cpulist_parse(buf, again, WORDS) > 0);
		assert_memory_equal(mask, again, sizeof(mask));
	}
	/* Too small: the whole ranges that fit, never half a number. */
	assert_true(skd_cpulist_parse("0-3,100-103,200", mask, WORDS) > 0);
	skd_cpulist_format(mask, WORDS, tiny, sizeof(tiny));
	assert_string_equal(tiny, "0-3");
	memset(mask, 0, sizeof(mask));
	skd_cpulist_format(mask, WORDS, buf, sizeof(buf));
	assert_string_equal(buf, "");
	skd_cpulist_format(mask, WORDS, buf, 0);

	/* The online CPUs are possible ones, CPU 0 among them here. */
	memset(mask, 0, sizeof(mask));
	memset(again, 0, sizeof(again));
	if (skd_cpus_online(mask, WORDS) || skd_cpus_possible(again, WORDS))
		skip();
	for (c = 0; c < WORDS; c++)
		assert_int_equal(mask[c] & ~again[c], 0);
}

/* ---- hmap --------------------------------------------------------------- */

static void test_hmap_basic(void **state)
{
	struct skd_hmap m = { 0 };
	int a, b, c;

	(void)state;
	/* An empty map answers without allocating. */
	assert_null(skd_hmap_get(&m, 1));
	assert_false(skd_hmap_has(&m, 0));
	assert_false(skd_hmap_has(&m, 1));

	assert_int_equal(skd_hmap_put(&m, 1, &a), 0);
	assert_ptr_equal(skd_hmap_get(&m, 1), &a);
	assert_true(skd_hmap_has(&m, 1));
	assert_int_equal(m.len, 1);

	/* Overwrite keeps one entry. */
	assert_int_equal(skd_hmap_put(&m, 1, &b), 0);
	assert_ptr_equal(skd_hmap_get(&m, 1), &b);
	assert_int_equal(m.len, 1);

	/* Key 0 and ~0 are ordinary keys, not markers. */
	assert_false(skd_hmap_has(&m, 0));
	assert_null(skd_hmap_get(&m, 0));
	assert_false(skd_hmap_has(&m, UINT64_MAX));
	assert_int_equal(skd_hmap_put(&m, 0, &c), 0);
	assert_int_equal(skd_hmap_put(&m, UINT64_MAX, &a), 0);
	assert_ptr_equal(skd_hmap_get(&m, 0), &c);
	assert_ptr_equal(skd_hmap_get(&m, UINT64_MAX), &a);
	assert_ptr_equal(skd_hmap_get(&m, 1), &b);
	assert_int_equal(m.len, 3);

	/* A NULL value is stored: has() tells it from absence. */
	assert_int_equal(skd_hmap_put(&m, 42, NULL), 0);
	assert_true(skd_hmap_has(&m, 42));
	assert_null(skd_hmap_get(&m, 42));
	assert_false(skd_hmap_has(&m, 43));
	assert_int_equal(m.len, 4);

	skd_hmap_free(&m);
	assert_null(m.keys);
	assert_int_equal(m.cap, 0);
	assert_int_equal(m.len, 0);
	assert_false(skd_hmap_has(&m, 1));
	/* Usable again after free. */
	assert_int_equal(skd_hmap_put(&m, 7, &a), 0);
	assert_ptr_equal(skd_hmap_get(&m, 7), &a);
	skd_hmap_free(&m);
	skd_hmap_free(&m);
}

#define NKEYS	100000

static uint64_t *keys;

/* Pids, page-aligned addresses, kernel addresses and random bits. */
static uint64_t key_of(size_t i)
{
	uint64_t x = i;

	switch (i % 4) {
	case 0:
		return i;
	case 1:
		return 0x7f0000000000ULL + (x << 12);
	case 2:
		return 0xffffffff81000000ULL + (x << 4);
	default:
		x = x * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
		x ^= x >> 29;
		x *= 0xbf58476d1ce4e5b9ULL;
		return (x ^ x >> 32) | 3;	/* odd: distinct from the others */
	}
}

struct visit {
	uint8_t *seen;
	size_t calls;
};

static void visit(uint64_t key, void *val, void *arg)
{
	struct visit *v = arg;
	size_t i = (size_t)((uintptr_t)val - 1);

	v->calls++;
	assert_true(i < NKEYS);
	assert_int_equal(keys[i], key);
	assert_int_equal(v->seen[i], 0);
	v->seen[i] = 1;
}

static void test_hmap_many(void **state)
{
	struct skd_hmap m = { 0 };
	struct visit v = { 0 };
	size_t i, resizes = 0, cap = 0;

	(void)state;
	keys = malloc(NKEYS * sizeof(*keys));
	v.seen = calloc(NKEYS, 1);
	assert_non_null(keys);
	assert_non_null(v.seen);
	for (i = 0; i < NKEYS; i++)
		keys[i] = key_of(i);

	for (i = 0; i < NKEYS; i++) {
		/* Values are i + 1: never NULL, and they name their key. */
		assert_int_equal(skd_hmap_put(&m, keys[i], (void *)(uintptr_t)(i + 1)), 0);
		if (m.cap != cap) {
			resizes++;
			cap = m.cap;
		}
		/* Spot-check earlier keys survive each resize. */
		if ((i & (i - 1)) == 0)
			assert_ptr_equal(skd_hmap_get(&m, keys[i / 2]),
					 (void *)(uintptr_t)(i / 2 + 1));
	}
	assert_int_equal(m.len, NKEYS);
	assert_true(resizes >= 10);
	assert_int_equal(m.cap & (m.cap - 1), 0);
	assert_true(m.len * 2 <= m.cap);

	for (i = 0; i < NKEYS; i++) {
		if (skd_hmap_get(&m, keys[i]) != (void *)(uintptr_t)(i + 1))
			fail_msg("key %#jx (#%zu) lost", (uintmax_t)keys[i], i);
		/* Neighbours of present keys are absent. */
		if (i % 4 == 1)
			assert_false(skd_hmap_has(&m, keys[i] + 1));
	}

	/* Overwriting every key changes no count. */
	for (i = 0; i < NKEYS; i += 7)
		assert_int_equal(skd_hmap_put(&m, keys[i], (void *)(uintptr_t)(i + 1)), 0);
	assert_int_equal(m.len, NKEYS);

	skd_hmap_each(&m, visit, &v);
	assert_int_equal(v.calls, NKEYS);
	for (i = 0; i < NKEYS; i++)
		assert_int_equal(v.seen[i], 1);

	skd_hmap_free(&m);
	free(v.seen);
	free(keys);
}

static void count_call(uint64_t key, void *val, void *arg)
{
	(void)key;
	(void)val;
	(*(int *)arg)++;
}

static void test_hmap_each_empty(void **state)
{
	struct skd_hmap m = { 0 };
	int calls = 0;

	(void)state;
	skd_hmap_each(&m, count_call, &calls);
	assert_int_equal(calls, 0);
	assert_int_equal(skd_hmap_put(&m, 0, NULL), 0);
	skd_hmap_each(&m, count_call, &calls);
	assert_int_equal(calls, 1);
	skd_hmap_free(&m);
}

/* ---- explain ------------------------------------------------------------ */

/* Every pair the module documents an errno for, and a word of its advice. */
static const struct {
	enum skd_op op;
	int err;
	const char *words;
} explained[] = {
	{ SKD_OP_OPEN, ENOENT, "skidless load" },
	{ SKD_OP_OPEN, ENODEV, "no driver" },
	{ SKD_OP_OPEN, EACCES, "adduser" },
	{ SKD_OP_OPEN, EPERM, "access_gid" },
	{ SKD_OP_CONFIG, EOPNOTSUPP, "does not know a setting" },
	{ SKD_OP_CONFIG, E2BIG, "older than this skidless" },
	{ SKD_OP_CONFIG, ENODEV, "skidless info" },
	{ SKD_OP_CONFIG, ESRCH, "-p PID" },
	{ SKD_OP_CONFIG, ERANGE, "max_freq" },
	{ SKD_OP_CONFIG, ENXIO, "-C" },
	{ SKD_OP_CONFIG, EINVAL, "power of two" },
	{ SKD_OP_CONFIG, EACCES, "your own processes" },
	{ SKD_OP_CONFIG, EBUSY, "configured already" },
	{ SKD_OP_CONFIG, ENOMEM, "smaller -m" },
	{ SKD_OP_CONFIG, ENOSPC, "fewer -e events" },
	{ SKD_OP_CONFIG, EPERM, "pti=off" },
	{ SKD_OP_START, EBUSY, "nmi_watchdog=0" },
	{ SKD_OP_MMAP, EINVAL, "ring layout" },
	{ SKD_OP_MMAP, EPERM, "read-only" },
	{ SKD_OP_MMAP, EPROTO, "load the module that came with this skidless" },
	{ SKD_OP_START, EBADFD, "configured before" },
	{ SKD_OP_START, EALREADY, "running already" },
	{ SKD_OP_STOP, EALREADY, "not running" },
	{ SKD_OP_INFO, ENOTTY, "does not understand" },
};

static const enum skd_op all_ops[] = {
	SKD_OP_OPEN, SKD_OP_INFO, SKD_OP_CONFIG, SKD_OP_MMAP, SKD_OP_START,
	SKD_OP_STOP, SKD_OP_STATS,
};

static int explained_index(enum skd_op op, int err)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(explained); i++)
		if (explained[i].op == op && explained[i].err == err)
			return (int)i;
	return -1;
}

static void test_explain_table(void **state)
{
	const char *text[ARRAY_SIZE(explained)];
	size_t i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(explained); i++) {
		text[i] = skd_explain(explained[i].op, explained[i].err);
		assert_non_null(text[i]);
		if (!strstr(text[i], explained[i].words))
			fail_msg("op %d errno %d: \"%s\" lacks \"%s\"", explained[i].op,
				 explained[i].err, text[i], explained[i].words);
		/* Advice, not the errno's generic text. */
		assert_string_not_equal(text[i], strerror(explained[i].err));
		/* Each pair has its own sentence: none hides behind another. */
		for (j = 0; j < i; j++)
			assert_string_not_equal(text[i], text[j]);
	}
}

static void test_explain_fallback(void **state)
{
	char generic[256];
	const char *got;
	size_t o;
	int err;

	(void)state;
	for (o = 0; o < ARRAY_SIZE(all_ops); o++) {
		/* EFAULT is our bug whatever the operation. */
		got = skd_explain(all_ops[o], EFAULT);
		assert_non_null(strstr(got, "report"));

		for (err = 0; err < 200; err++) {
			if (err == EFAULT || explained_index(all_ops[o], err) >= 0)
				continue;
			/* Anything else is strerror's text, exactly. */
			snprintf(generic, sizeof(generic), "%s", strerror(err));
			got = skd_explain(all_ops[o], err);
			assert_non_null(got);
			if (strcmp(got, generic))
				fail_msg("op %d errno %d: \"%s\", want \"%s\"",
					 all_ops[o], err, got, generic);
		}
	}
}

static void test_explain_never_null(void **state)
{
	static const int odd[] = { 0, -1, -EPERM, 4095, 100000, INT_MAX, INT_MIN };
	const char *got;
	size_t o, e;

	(void)state;
	for (o = 0; o < ARRAY_SIZE(all_ops) + 1; o++) {
		/* One operation past the last: not a crash either. */
		enum skd_op op = o < ARRAY_SIZE(all_ops) ? all_ops[o] :
							  (enum skd_op)99;

		for (e = 0; e < ARRAY_SIZE(odd); e++) {
			got = skd_explain(op, odd[e]);
			assert_non_null(got);
			assert_true(got[0] != '\0');
		}
	}
	/* The op matters: a pair from the table under another op falls back. */
	assert_string_equal(skd_explain(SKD_OP_STATS, ENOENT), strerror(ENOENT));
	assert_string_equal(skd_explain((enum skd_op)99, ENOENT), strerror(ENOENT));
}

/*
 * The module's charge (kmod/memlock.c): mlock_kb (516 KiB unless the
 * module says otherwise) per online CPU, the rest against RLIMIT_MEMLOCK.
 * Under a 64 KiB limit, rings of 4096 pages on 4096 CPUs (64 GiB) exceed
 * it and the sentence names the limit and -m; one page on one CPU fits.
 */
static void test_memlock_explain(void **state)
{
	struct rlimit old, low = { 64 * 1024, 64 * 1024 };
	char why[512] = "";
	bool over, under;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_MEMLOCK, &old), 0);
	if (old.rlim_max != RLIM_INFINITY && old.rlim_max < low.rlim_max)
		low.rlim_cur = low.rlim_max = old.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_MEMLOCK, &low), 0);
	over = skd_memlock_explain(4096, 4096, why, sizeof(why));
	under = skd_memlock_explain(1, 1, why + 256, sizeof(why) - 256);
	/* Raising it back needs the privilege lowering it did not: best effort. */
	setrlimit(RLIMIT_MEMLOCK, &old);
	assert_true(over);
	assert_non_null(strstr(why, "RLIMIT_MEMLOCK"));
	assert_non_null(strstr(why, "smaller -m"));
	/* 4096 CPUs x 4097 pages (a control page each) x 4 KiB */
	assert_non_null(strstr(why, "67125248 KiB"));
	assert_false(under);
}

/*
 * The control page as uapi/skidless.h lays it out: a reader takes a ring
 * whose layout it knows (compat_version at most ours), whose page covers
 * data_head and data_tail, and that is the ring it asked for.
 */
static void test_ring_ctrl_check(void **state)
{
	struct skd_ring_ctrl c;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.version = SKD_RING_VERSION;
	c.compat_version = SKD_RING_VERSION;
	c.size = sizeof(c);
	c.cpu = 3;
	c.data_size = 1 << 20;
	assert_int_equal(skd_ring_ctrl_check(&c, 3, 1 << 20), 0);
	assert_int_equal(skd_ring_ctrl_check(&c, 2, 1 << 20), -EPROTO);
	assert_int_equal(skd_ring_ctrl_check(&c, 3, 1 << 21), -EPROTO);

	/* A newer module that still serves our layout is fine. */
	c.version = SKD_RING_VERSION + 1;
	assert_int_equal(skd_ring_ctrl_check(&c, 3, 1 << 20), 0);
	/* One that no longer does is not. */
	c.compat_version = SKD_RING_VERSION + 1;
	assert_int_equal(skd_ring_ctrl_check(&c, 3, 1 << 20), -EPROTO);

	c.version = c.compat_version = SKD_RING_VERSION;
	c.size = 32;				/* not up to data_tail */
	assert_int_equal(skd_ring_ctrl_check(&c, 3, 1 << 20), -EPROTO);
	c.size = sizeof(c);
	c.version = 0;				/* never initialized */
	assert_int_equal(skd_ring_ctrl_check(&c, 3, 1 << 20), -EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist_valid),
		cmocka_unit_test(test_cpulist_invalid),
		cmocka_unit_test(test_cpus_possible),
		cmocka_unit_test(test_cpulist_format),
		cmocka_unit_test(test_hmap_basic),
		cmocka_unit_test(test_hmap_many),
		cmocka_unit_test(test_hmap_each_empty),
		cmocka_unit_test(test_explain_table),
		cmocka_unit_test(test_explain_fallback),
		cmocka_unit_test(test_explain_never_null),
		cmocka_unit_test(test_memlock_explain),
		cmocka_unit_test(test_ring_ctrl_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
