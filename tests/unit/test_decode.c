// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for userland/lib/decode.c. Records are assembled byte by byte from
 * the layouts documented in uapi/skidless.h (the static asserts below tie
 * the offsets used here to that header), never from decode.c's view of
 * them, so a decoder that misreads a field disagrees with these tests.
 *
 * Every decode runs on a copy placed right before a PROT_NONE page: a
 * decoder that looks at one byte past @len faults instead of reading
 * whatever follows in memory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "decode.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ---- the uapi layout, as this file assembles it ------------------------ */

#define OFF_TYPE	0
#define OFF_MISC	4
#define OFF_SIZE	6
#define OFF_TIME	8
#define OFF_CPU		16
#define OFF_PID		20
#define OFF_TID		24
#define ID_END		32
#define OFF_S_IP	32
#define OFF_S_PERIOD	40
#define OFF_S_FIELDS	48
#define OFF_S_EVENT	52
#define SAMPLE_FIXED	56
#define OFF_CC_NR	56
#define OFF_CC_NRK	58
#define OFF_CC_IPS	64
#define OFF_LOST	32
#define LOST_SIZE	40
#define OFF_COMM	32
#define COMM_SIZE	48
#define OFF_OLD_TID	32
#define OFF_PATH	40
#define OFF_PPID	32
#define OFF_PTID	36
#define TASK_SIZE	40
#define OFF_M_START	32
#define OFF_M_LEN	40
#define OFF_M_PGOFF	48
#define OFF_M_MAJ	56
#define OFF_M_MIN	60
#define OFF_M_INO	64
#define OFF_M_GEN	72
#define OFF_M_PROT	80
#define OFF_M_FLAGS	84
#define OFF_M_PATH	88
#define US_ABI		0	/* offsets within struct skd_user_stack */
#define US_SIZE		4
#define US_REGS		8
#define US_DATA		168

_Static_assert(offsetof(struct skd_rec_header, misc) == OFF_MISC, "misc");
_Static_assert(offsetof(struct skd_rec_header, size) == OFF_SIZE, "size");
_Static_assert(sizeof(struct skd_rec_header) + offsetof(struct skd_rec_id, cpu) ==
	       OFF_CPU, "cpu");
_Static_assert(sizeof(struct skd_rec_header) + offsetof(struct skd_rec_id, tid) ==
	       OFF_TID, "tid");
_Static_assert(offsetof(struct skd_rec_sample, ip) == OFF_S_IP, "ip");
_Static_assert(offsetof(struct skd_rec_sample, fields) == OFF_S_FIELDS, "fields");
_Static_assert(offsetof(struct skd_rec_sample, event) == OFF_S_EVENT, "event");
_Static_assert(sizeof(struct skd_rec_sample) == SAMPLE_FIXED, "sample");
_Static_assert(offsetof(struct skd_callchain, ips) == OFF_CC_IPS - OFF_CC_NR, "ips");
_Static_assert(offsetof(struct skd_rec_lost, lost) == OFF_LOST, "lost");
_Static_assert(sizeof(struct skd_rec_lost) == LOST_SIZE, "lost size");
_Static_assert(offsetof(struct skd_rec_comm, comm) == OFF_COMM, "comm");
_Static_assert(sizeof(struct skd_rec_comm) == COMM_SIZE, "comm size");
_Static_assert(offsetof(struct skd_rec_exec, path) == OFF_PATH, "path");
_Static_assert(offsetof(struct skd_rec_task, ptid) == OFF_PTID, "ptid");
_Static_assert(sizeof(struct skd_rec_task) == TASK_SIZE, "task size");
_Static_assert(offsetof(struct skd_rec_mmap, start) == OFF_M_START, "m start");
_Static_assert(offsetof(struct skd_rec_mmap, len) == OFF_M_LEN, "m len");
_Static_assert(offsetof(struct skd_rec_mmap, pgoff) == OFF_M_PGOFF, "m pgoff");
_Static_assert(offsetof(struct skd_rec_mmap, maj) == OFF_M_MAJ, "m maj");
_Static_assert(offsetof(struct skd_rec_mmap, min) == OFF_M_MIN, "m min");
_Static_assert(offsetof(struct skd_rec_mmap, ino) == OFF_M_INO, "m ino");
_Static_assert(offsetof(struct skd_rec_mmap, ino_generation) == OFF_M_GEN, "m gen");
_Static_assert(offsetof(struct skd_rec_mmap, prot) == OFF_M_PROT, "m prot");
_Static_assert(offsetof(struct skd_rec_mmap, flags) == OFF_M_FLAGS, "m flags");
_Static_assert(offsetof(struct skd_rec_mmap, path) == OFF_M_PATH, "m path");
_Static_assert(offsetof(struct skd_user_stack, size) == US_SIZE, "us size");
_Static_assert(offsetof(struct skd_user_stack, regs) == US_REGS, "us regs");
_Static_assert(offsetof(struct skd_user_stack, data) == US_DATA, "us data");

#define REC_CAP		2048	/* a full call chain is 1080 bytes */

struct rec {
	_Alignas(8) uint8_t b[REC_CAP];
	size_t n;		/* bytes assembled; becomes hdr.size */
};

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int bytes)
{
	uint64_t v = 0;
	int i;

	for (i = bytes; i--;)
		v = v << 8 | p[i];
	return v;
}

static void set16(struct rec *r, size_t off, uint16_t v) { put_le(r->b + off, v, 2); }
static void set32(struct rec *r, size_t off, uint32_t v) { put_le(r->b + off, v, 4); }
static void set64(struct rec *r, size_t off, uint64_t v) { put_le(r->b + off, v, 8); }

/* Round the record up to 8 bytes of zeros and write its size. */
static void finish(struct rec *r)
{
	while (r->n % 8)
		r->b[r->n++] = 0;
	set16(r, OFF_SIZE, (uint16_t)r->n);
}

/* Header plus skd_rec_id; the body follows at ID_END. */
static void start(struct rec *r, uint32_t type, uint16_t misc, size_t body)
{
	memset(r, 0, sizeof(*r));
	set32(r, OFF_TYPE, type);
	set16(r, OFF_MISC, misc);
	set64(r, OFF_TIME, 0x1122334455667788ULL);
	set32(r, OFF_CPU, 3);
	set32(r, OFF_PID, 1000);
	set32(r, OFF_TID, 1001);
	r->n = ID_END + body;
}

/* A sample; nr < 0 means no call chain. */
static void mk_sample(struct rec *r, int nr, int nr_kernel)
{
	int i;

	start(r, SKD_REC_SAMPLE, SKD_MISC_USER | SKD_MISC_EXACT_IP,
	      SAMPLE_FIXED - ID_END);
	set64(r, OFF_S_IP, 0x401234);
	set64(r, OFF_S_PERIOD, 1000000);
	set16(r, OFF_S_EVENT, 2);
	if (nr >= 0) {
		set32(r, OFF_S_FIELDS, SKD_SAMPLE_CALLCHAIN);
		set16(r, OFF_CC_NR, (uint16_t)nr);
		set16(r, OFF_CC_NRK, (uint16_t)nr_kernel);
		for (i = 0; i < nr; i++)
			set64(r, OFF_CC_IPS + 8 * i, 0xffffffff81000000ULL + i);
		r->n = OFF_CC_IPS + 8 * (size_t)nr;
	}
	finish(r);
}

/*
 * A sample with a branch stack of @nr_br entries (< 0: none) and a user
 * stack of @stack bytes with ABI @abi after it (@stack < 0: none).
 */
static void mk_ustack(struct rec *r, int nr_br, uint32_t abi, int stack)
{
	size_t at = SAMPLE_FIXED;
	uint32_t fields = 0;
	int i;

	start(r, SKD_REC_SAMPLE, SKD_MISC_USER, SAMPLE_FIXED - ID_END);
	set64(r, OFF_S_IP, 0x401234);
	if (nr_br >= 0) {
		fields |= SKD_SAMPLE_BRANCHES;
		set16(r, at, (uint16_t)nr_br);
		for (i = 0; i < 3 * nr_br; i++)
			set64(r, at + 8 + 8 * i, 0x400000 + i);
		at += 8 + 24 * (size_t)nr_br;
	}
	if (stack >= 0) {
		fields |= SKD_SAMPLE_USER_STACK;
		set32(r, at + US_ABI, abi);
		set32(r, at + US_SIZE, (uint32_t)stack);
		for (i = 0; i < SKD_USER_REGS_NR; i++)
			set64(r, at + US_REGS + 8 * i, 0x1000 + i);
		for (i = 0; i < stack; i++)
			r->b[at + US_DATA + i] = (uint8_t)(0xa0 + i);
		at += US_DATA + (size_t)stack;
	}
	set32(r, OFF_S_FIELDS, fields);
	r->n = at;
	finish(r);
}

static void mk_mmap(struct rec *r, const char *path)
{
	size_t len = strlen(path);

	start(r, SKD_REC_MMAP, SKD_MISC_SYNTHESIZED, OFF_M_PATH - ID_END);
	set64(r, OFF_M_START, 0x7f0000001000ULL);
	set64(r, OFF_M_LEN, 0x5000);
	set64(r, OFF_M_PGOFF, 0x2000);
	set32(r, OFF_M_MAJ, 254);
	set32(r, OFF_M_MIN, 3);
	set64(r, OFF_M_INO, 123456789);
	set64(r, OFF_M_GEN, 42);
	set32(r, OFF_M_PROT, 5);
	set32(r, OFF_M_FLAGS, 2);
	memcpy(r->b + OFF_M_PATH, path, len + 1);
	r->n = OFF_M_PATH + len + 1;
	finish(r);
}

static void mk_lost(struct rec *r)
{
	start(r, SKD_REC_LOST, 0, LOST_SIZE - ID_END);
	set32(r, OFF_PID, 0);
	set32(r, OFF_TID, 0);
	set64(r, OFF_LOST, 77);
	finish(r);
}

static void mk_comm(struct rec *r, const char *comm)
{
	start(r, SKD_REC_COMM, SKD_MISC_COMM_EXEC, COMM_SIZE - ID_END);
	memcpy(r->b + OFF_COMM, comm, strnlen(comm, SKD_COMM_LEN));
	finish(r);
}

static void mk_exec(struct rec *r, const char *path)
{
	size_t len = strlen(path);

	start(r, SKD_REC_EXEC, 0, OFF_PATH - ID_END);
	set32(r, OFF_OLD_TID, 1005);
	memcpy(r->b + OFF_PATH, path, len + 1);
	r->n = OFF_PATH + len + 1;
	finish(r);
}

static void mk_task(struct rec *r, uint32_t type)
{
	start(r, type, 0, TASK_SIZE - ID_END);
	set32(r, OFF_PPID, 900);
	set32(r, OFF_PTID, 901);
	finish(r);
}

/* ---- the guard page ----------------------------------------------------- */

static uint8_t *guard_base;	/* two pages, the second PROT_NONE */
static size_t page;

static int group_setup(void **state)
{
	(void)state;
	page = (size_t)sysconf(_SC_PAGESIZE);
	guard_base = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guard_base == MAP_FAILED)
		return -1;
	return mprotect(guard_base + page, page, PROT_NONE);
}

static int group_teardown(void **state)
{
	(void)state;
	return munmap(guard_base, 2 * page);
}

/*
 * Copy the first @len bytes of @src so that they end where the guard page
 * starts (or, when @len is not a multiple of 8, as close to it as the
 * 8-byte alignment decode requires) and return the copy.
 */
static const uint8_t *at_guard(const void *src, size_t len)
{
	size_t room = (len + 7) & ~(size_t)7;
	uint8_t *dst = guard_base + page - room;

	assert_true(room <= page);
	memcpy(dst, src, len);
	return dst;
}

static int decode_at_guard(const struct rec *r, size_t len, struct skd_event *ev)
{
	return skd_decode(at_guard(r->b, len), len, ev);
}

/* ---- well-formed records ------------------------------------------------ */

static void check_id(const struct skd_event *ev, const uint8_t *buf)
{
	assert_ptr_equal(ev->hdr, buf);
	assert_ptr_equal(ev->id, buf + sizeof(struct skd_rec_header));
	assert_int_equal(ev->id->time, 0x1122334455667788ULL);
	assert_int_equal(ev->id->cpu, 3);
}

static void test_sample_plain(void **state)
{
	struct skd_event ev;
	const uint8_t *buf;
	struct rec r;

	(void)state;
	mk_sample(&r, -1, 0);
	assert_int_equal(r.n, SAMPLE_FIXED);
	buf = at_guard(r.b, r.n);
	assert_int_equal(skd_decode(buf, r.n, &ev), SAMPLE_FIXED);
	check_id(&ev, buf);
	assert_int_equal(ev.type, SKD_REC_SAMPLE);
	assert_int_equal(ev.misc, SKD_MISC_USER | SKD_MISC_EXACT_IP);
	assert_int_equal(ev.size, SAMPLE_FIXED);
	assert_int_equal(ev.id->pid, 1000);
	assert_int_equal(ev.id->tid, 1001);
	assert_ptr_equal(ev.sample.rec, buf);
	assert_int_equal(ev.sample.rec->ip, 0x401234);
	assert_int_equal(ev.sample.rec->period, 1000000);
	assert_int_equal(ev.sample.rec->event, 2);
	assert_null(ev.sample.ips);
	assert_int_equal(ev.sample.nr, 0);
	assert_int_equal(ev.sample.nr_kernel, 0);

	/* Bytes after the fixed part without the chain flag are ignored. */
	r.n += 16;
	finish(&r);
	assert_int_equal(decode_at_guard(&r, r.n, &ev), SAMPLE_FIXED + 16);
	assert_null(ev.sample.ips);
}

static void test_sample_chain(void **state)
{
	static const struct { int nr, nr_kernel; } cases[] = {
		{ 0, 0 }, { 1, 0 }, { 1, 1 }, { 5, 2 }, { 5, 5 },
		{ SKD_MAX_CALLCHAIN, 0 }, { SKD_MAX_CALLCHAIN, SKD_MAX_CALLCHAIN },
	};
	struct skd_event ev;
	const uint8_t *buf;
	struct rec r;
	size_t c;
	int i;

	(void)state;
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		mk_sample(&r, cases[c].nr, cases[c].nr_kernel);
		assert_int_equal(r.n, OFF_CC_IPS + 8 * cases[c].nr);
		buf = at_guard(r.b, r.n);
		assert_int_equal(skd_decode(buf, r.n, &ev), r.n);
		check_id(&ev, buf);
		assert_int_equal(ev.sample.nr, cases[c].nr);
		assert_int_equal(ev.sample.nr_kernel, cases[c].nr_kernel);
		assert_ptr_equal(ev.sample.ips, buf + OFF_CC_IPS);
		for (i = 0; i < cases[c].nr; i++)
			assert_int_equal(ev.sample.ips[i], 0xffffffff81000000ULL + i);
	}
}

static void test_lost(void **state)
{
	struct skd_event ev;
	const uint8_t *buf;
	struct rec r;

	(void)state;
	mk_lost(&r);
	buf = at_guard(r.b, r.n);
	assert_int_equal(skd_decode(buf, r.n, &ev), LOST_SIZE);
	check_id(&ev, buf);
	assert_int_equal(ev.type, SKD_REC_LOST);
	assert_ptr_equal(ev.lost, buf);
	assert_int_equal(ev.lost->lost, 77);
	assert_int_equal(ev.id->pid, 0);
}

static void test_comm(void **state)
{
	static const char *const names[] = { "", "a", "fifteen_chars__" };
	struct skd_event ev;
	const uint8_t *buf;
	struct rec r;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		mk_comm(&r, names[i]);
		buf = at_guard(r.b, r.n);
		assert_int_equal(skd_decode(buf, r.n, &ev), COMM_SIZE);
		check_id(&ev, buf);
		assert_int_equal(ev.type, SKD_REC_COMM);
		assert_int_equal(ev.misc, SKD_MISC_COMM_EXEC);
		assert_ptr_equal(ev.comm, buf);
		assert_string_equal(ev.comm->comm, names[i]);
	}
}

static void test_exec(void **state)
{
	char path[64];
	struct skd_event ev;
	const uint8_t *buf;
	struct rec r;
	size_t len;

	(void)state;
	/* Every padding length, and a NUL that is the record's last byte. */
	for (len = 0; len < 20; len++) {
		memset(path, 'p', len);
		path[0] = '/';
		path[len] = '\0';
		mk_exec(&r, path);
		assert_int_equal(r.n, (OFF_PATH + len + 1 + 7) & ~(size_t)7);
		buf = at_guard(r.b, r.n);
		assert_int_equal(skd_decode(buf, r.n, &ev), r.n);
		check_id(&ev, buf);
		assert_int_equal(ev.type, SKD_REC_EXEC);
		assert_ptr_equal(ev.exec.rec, buf);
		assert_ptr_equal(ev.exec.path, buf + OFF_PATH);
		assert_int_equal(ev.exec.rec->old_tid, 1005);
		assert_string_equal(ev.exec.path, path);
	}
}

static void test_mmap(void **state)
{
	char path[64];
	struct skd_event ev;
	const uint8_t *buf;
	struct rec r;
	size_t len;

	(void)state;
	for (len = 0; len < 20; len++) {
		memset(path, 'm', len);
		path[len] = '\0';
		mk_mmap(&r, path);
		assert_int_equal(r.n, (OFF_M_PATH + len + 1 + 7) & ~(size_t)7);
		buf = at_guard(r.b, r.n);
		assert_int_equal(skd_decode(buf, r.n, &ev), r.n);
		check_id(&ev, buf);
		assert_int_equal(ev.type, SKD_REC_MMAP);
		assert_int_equal(ev.misc, SKD_MISC_SYNTHESIZED);
		assert_ptr_equal(ev.mmap.rec, buf);
		assert_ptr_equal(ev.mmap.path, buf + OFF_M_PATH);
		assert_string_equal(ev.mmap.path, path);
		assert_int_equal(ev.mmap.rec->start, 0x7f0000001000ULL);
		assert_int_equal(ev.mmap.rec->len, 0x5000);
		assert_int_equal(ev.mmap.rec->pgoff, 0x2000);
		assert_int_equal(ev.mmap.rec->maj, 254);
		assert_int_equal(ev.mmap.rec->min, 3);
		assert_int_equal(ev.mmap.rec->ino, 123456789);
		assert_int_equal(ev.mmap.rec->ino_generation, 42);
		assert_int_equal(ev.mmap.rec->prot, 5);
		assert_int_equal(ev.mmap.rec->flags, 2);
	}
	assert_string_equal(skd_rec_type_name(SKD_REC_MMAP), "MMAP");
}

static void test_sample_ustack(void **state)
{
	static const int sizes[] = { 0, 1, 7, 8, 9, 64, 250, 1024 };
	struct skd_event ev;
	const uint8_t *buf, *us;
	struct rec r;
	size_t i, at;
	int nr_br, j;

	(void)state;
	for (nr_br = -1; nr_br <= 2; nr_br++) {
		for (i = 0; i < ARRAY_SIZE(sizes); i++) {
			mk_ustack(&r, nr_br, SKD_USER_ABI_64, sizes[i]);
			at = SAMPLE_FIXED + (nr_br >= 0 ? 8 + 24 * (size_t)nr_br : 0);
			assert_int_equal(r.n, (at + US_DATA + sizes[i] + 7) & ~(size_t)7);
			buf = at_guard(r.b, r.n);
			assert_int_equal(skd_decode(buf, r.n, &ev), r.n);
			us = buf + at;
			assert_ptr_equal(ev.sample.ustack, us);
			assert_ptr_equal(ev.sample.stack, us + US_DATA);
			assert_int_equal(ev.sample.ustack->abi, SKD_USER_ABI_64);
			assert_int_equal(ev.sample.ustack->size, sizes[i]);
			for (j = 0; j < SKD_USER_REGS_NR; j++)
				assert_int_equal(ev.sample.ustack->regs[j], 0x1000 + j);
			for (j = 0; j < sizes[i]; j++)
				assert_int_equal(ev.sample.stack[j], (uint8_t)(0xa0 + j));
			if (nr_br >= 0)
				assert_int_equal(ev.sample.nr_branches, nr_br);
			else
				assert_null(ev.sample.branches);
		}
	}
	/* A kernel thread's: no registers, no stack. */
	mk_ustack(&r, -1, SKD_USER_ABI_NONE, 0);
	buf = at_guard(r.b, r.n);
	assert_int_equal(skd_decode(buf, r.n, &ev), r.n);
	assert_int_equal(ev.sample.ustack->abi, SKD_USER_ABI_NONE);
	/* Without the field: no user stack. */
	mk_sample(&r, 3, 1);
	assert_int_equal(skd_decode(at_guard(r.b, r.n), r.n, &ev), r.n);
	assert_null(ev.sample.ustack);
	assert_null(ev.sample.stack);
}

static void test_task(void **state)
{
	static const uint32_t types[] = { SKD_REC_FORK, SKD_REC_EXIT };
	struct skd_event ev;
	const uint8_t *buf;
	struct rec r;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		mk_task(&r, types[i]);
		buf = at_guard(r.b, r.n);
		assert_int_equal(skd_decode(buf, r.n, &ev), TASK_SIZE);
		check_id(&ev, buf);
		assert_int_equal(ev.type, types[i]);
		assert_ptr_equal(ev.task, buf);
		assert_int_equal(ev.task->ppid, 900);
		assert_int_equal(ev.task->ptid, 901);
	}
}

/* Readers skip what they do not know, by its size, whatever its body. */
static void test_unknown(void **state)
{
	static const uint32_t types[] = {
		0, __SKD_REC_MAX, 0x3fff, 0x8001, 0x8005, 0xffffffffU,
	};
	static const uint16_t sizes[] = { 8, 16, 40, 0xfff8 };
	static uint8_t big[0x10000] __attribute__((aligned(8)));
	struct skd_event ev;
	const uint8_t *buf;
	size_t t, s;

	(void)state;
	for (t = 0; t < ARRAY_SIZE(types); t++) {
		for (s = 0; s < ARRAY_SIZE(sizes); s++) {
			memset(big, 0xee, sizes[s]);
			put_le(big + OFF_TYPE, types[t], 4);
			put_le(big + OFF_MISC, 0x1234, 2);
			put_le(big + OFF_SIZE, sizes[s], 2);
			/* The largest one does not fit before the guard. */
			buf = sizes[s] <= page ? at_guard(big, sizes[s]) : big;
			assert_int_equal(skd_decode(buf, sizes[s], &ev), sizes[s]);
			assert_null(ev.id);
			assert_ptr_equal(ev.hdr, buf);
			assert_int_equal(ev.type, types[t]);
			assert_int_equal(ev.misc, 0x1234);
			assert_int_equal(ev.size, sizes[s]);
		}
	}
}

/* A ring's worth of records back to back, walked by returned sizes. */
static void test_stream(void **state)
{
	static const uint32_t want[] = {
		SKD_REC_COMM, SKD_REC_SAMPLE, 0x77, SKD_REC_EXEC, SKD_REC_SAMPLE,
		SKD_REC_FORK, SKD_REC_LOST, SKD_REC_EXIT,
	};
	static uint8_t stream[4096] __attribute__((aligned(8)));
	struct skd_event ev;
	const uint8_t *buf;
	size_t len = 0, off, i;
	struct rec r;
	int ret;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		switch (want[i]) {
		case SKD_REC_COMM: mk_comm(&r, "bash"); break;
		case SKD_REC_SAMPLE: mk_sample(&r, i == 1 ? -1 : 9, 4); break;
		case SKD_REC_EXEC: mk_exec(&r, "/usr/bin/true"); break;
		case SKD_REC_LOST: mk_lost(&r); break;
		case 0x77:
			start(&r, 0x77, 0, 24);
			finish(&r);
			break;
		default: mk_task(&r, want[i]); break;
		}
		memcpy(stream + len, r.b, r.n);
		len += r.n;
	}
	buf = at_guard(stream, len);
	for (off = 0, i = 0; off < len; off += (size_t)ret, i++) {
		ret = skd_decode(buf + off, len - off, &ev);
		assert_true(ret > 0);
		assert_int_equal(ev.type, want[i]);
		assert_true((ev.id == NULL) == (want[i] == 0x77));
	}
	assert_int_equal(i, ARRAY_SIZE(want));
	assert_int_equal(off, len);
}

/* ---- malformed records -------------------------------------------------- */

enum mk {
	MK_SAMPLE, MK_CHAIN, MK_LOST, MK_COMM, MK_EXEC, MK_FORK, MK_EXIT,
	MK_USTACK, MK_MMAP,
};

struct bad_case {
	const char *what;
	enum mk mk;
	int size;		/* hdr.size to write; -1 keeps the built one */
	int len;		/* bytes readable; -1: hdr.size, -2: built length */
	void (*patch)(struct rec *r);
	int want;		/* -EINVAL, or 0 for "decodes" (the control rows) */
};

static void p_nr128(struct rec *r) { set16(r, OFF_CC_NR, 128); }
static void p_nr_max(struct rec *r) { set16(r, OFF_CC_NR, 0xffff); }
static void p_nrk_gt(struct rec *r) { set16(r, OFF_CC_NRK, 5); }
static void p_nrk_eq(struct rec *r) { set16(r, OFF_CC_NRK, 4); }
static void p_unknown(struct rec *r) { set32(r, OFF_TYPE, 0x8001); }
static void p_nr_past(struct rec *r) { set16(r, OFF_CC_NR, 5); }
static void p_path_full(struct rec *r) { memset(r->b + OFF_PATH, 'x', r->n - OFF_PATH); }
static void p_path_last(struct rec *r)
{
	memset(r->b + OFF_PATH, 'x', r->n - OFF_PATH - 1);
	r->b[r->n - 1] = 0;
}
static void p_comm_full(struct rec *r) { memset(r->b + OFF_COMM, 'c', SKD_COMM_LEN); }
static void p_comm_last(struct rec *r)
{
	memset(r->b + OFF_COMM, 'c', SKD_COMM_LEN - 1);
	r->b[OFF_COMM + SKD_COMM_LEN - 1] = 0;
}
static void p_chain_flag(struct rec *r) { set32(r, OFF_S_FIELDS, SKD_SAMPLE_CALLCHAIN); }
static void p_us_flag(struct rec *r) { set32(r, OFF_S_FIELDS, SKD_SAMPLE_USER_STACK); }

/* The user stack of MK_USTACK (no branches) starts at SAMPLE_FIXED. */
static void p_us_abi1(struct rec *r) { set32(r, SAMPLE_FIXED + US_ABI, 1); }
static void p_us_abi3(struct rec *r) { set32(r, SAMPLE_FIXED + US_ABI, 3); }
static void p_us_none_size(struct rec *r) { set32(r, SAMPLE_FIXED + US_ABI, 0); }
static void p_us_size_big(struct rec *r)
{
	set32(r, SAMPLE_FIXED + US_SIZE, SKD_MAX_USER_STACK + 8);
}
static void p_us_size_past(struct rec *r) { set32(r, SAMPLE_FIXED + US_SIZE, 25); }
static void p_us_size_huge(struct rec *r) { set32(r, SAMPLE_FIXED + US_SIZE, 0xfffffff8U); }
static void p_us_size_less(struct rec *r) { set32(r, SAMPLE_FIXED + US_SIZE, 9); }
static void p_us_after_br(struct rec *r)
{
	/* A branch count that pushes the user stack past the end. */
	set32(r, OFF_S_FIELDS, SKD_SAMPLE_BRANCHES | SKD_SAMPLE_USER_STACK);
	set16(r, SAMPLE_FIXED, 7);
}
static void p_mpath_full(struct rec *r)
{
	memset(r->b + OFF_M_PATH, 'x', r->n - OFF_M_PATH);
}
static void p_mpath_last(struct rec *r)
{
	memset(r->b + OFF_M_PATH, 'x', r->n - OFF_M_PATH - 1);
	r->b[r->n - 1] = 0;
}

static const struct bad_case bad_cases[] = {
	{ "ustack header cut", MK_USTACK, SAMPLE_FIXED + 160, -1, NULL, -EINVAL },
	{ "ustack flag, nothing", MK_SAMPLE, -1, -1, p_us_flag, -EINVAL },
	{ "ustack abi 1", MK_USTACK, -1, -1, p_us_abi1, -EINVAL },
	{ "ustack abi 3", MK_USTACK, -1, -1, p_us_abi3, -EINVAL },
	{ "ustack abi none with bytes", MK_USTACK, -1, -1, p_us_none_size, -EINVAL },
	{ "ustack above the maximum", MK_USTACK, -1, -1, p_us_size_big, -EINVAL },
	{ "ustack bytes past the end", MK_USTACK, -1, -1, p_us_size_past, -EINVAL },
	{ "ustack size 2^32-8", MK_USTACK, -1, -1, p_us_size_huge, -EINVAL },
	{ "ustack cut by size", MK_USTACK, SAMPLE_FIXED + US_DATA + 8, -1, NULL, -EINVAL },
	{ "ustack after branches past end", MK_USTACK, -1, -1, p_us_after_br, -EINVAL },
	{ "mmap without path", MK_MMAP, OFF_M_PATH, -1, NULL, -EINVAL },
	{ "mmap short", MK_MMAP, 80, -1, NULL, -EINVAL },
	{ "mmap path without NUL", MK_MMAP, -1, -1, p_mpath_full, -EINVAL },
	{ "ustack size 9 of 24", MK_USTACK, -1, -1, p_us_size_less, 0 },
	{ "mmap NUL last", MK_MMAP, -1, -1, p_mpath_last, 0 },
	{ "len 0", MK_LOST, -1, 0, NULL, -EINVAL },
	{ "len 4", MK_LOST, -1, 4, NULL, -EINVAL },
	{ "len 7", MK_LOST, -1, 7, NULL, -EINVAL },
	{ "size 0", MK_LOST, 0, -2, NULL, -EINVAL },
	{ "size 4", MK_LOST, 4, -2, NULL, -EINVAL },
	{ "size 12", MK_LOST, 12, -2, NULL, -EINVAL },
	{ "size 44", MK_LOST, 44, 48, NULL, -EINVAL },
	{ "size 39", MK_LOST, 39, -2, NULL, -EINVAL },
	{ "size > len", MK_LOST, -1, LOST_SIZE - 8, NULL, -EINVAL },
	{ "size > len by 1", MK_LOST, -1, LOST_SIZE - 1, NULL, -EINVAL },
	{ "unknown, size > len", MK_LOST, 48, -2, p_unknown, -EINVAL },
	{ "known type without id", MK_FORK, 24, -1, NULL, -EINVAL },
	{ "known type header only", MK_COMM, 8, -1, NULL, -EINVAL },
	{ "sample short", MK_SAMPLE, 48, -1, NULL, -EINVAL },
	{ "sample id only", MK_SAMPLE, 32, -1, NULL, -EINVAL },
	{ "chain flag, no chain", MK_SAMPLE, -1, -1, p_chain_flag, -EINVAL },
	{ "chain nr 128", MK_CHAIN, 64 + 128 * 8, -1, p_nr128, -EINVAL },
	{ "chain nr 0xffff", MK_CHAIN, -1, -1, p_nr_max, -EINVAL },
	{ "chain nr_kernel > nr", MK_CHAIN, -1, -1, p_nrk_gt, -EINVAL },
	{ "chain past the end", MK_CHAIN, -1, -1, p_nr_past, -EINVAL },
	{ "chain cut by size", MK_CHAIN, 64 + 3 * 8, -1, NULL, -EINVAL },
	{ "lost short", MK_LOST, 32, -1, NULL, -EINVAL },
	{ "comm short", MK_COMM, 40, -1, NULL, -EINVAL },
	{ "comm without NUL", MK_COMM, -1, -1, p_comm_full, -EINVAL },
	{ "exec without path", MK_EXEC, 40, -1, NULL, -EINVAL },
	{ "exec path without NUL", MK_EXEC, -1, -1, p_path_full, -EINVAL },
	{ "exec NUL only beyond size", MK_EXEC, 48, -1, NULL, -EINVAL },
	{ "fork short", MK_FORK, 32, -1, NULL, -EINVAL },
	{ "exit short", MK_EXIT, 32, -1, NULL, -EINVAL },
	/* Controls: the same records one step inside the limits decode. */
	{ "chain nr 4 of 4", MK_CHAIN, -1, -1, NULL, 0 },
	{ "chain nr_kernel == nr", MK_CHAIN, -1, -1, p_nrk_eq, 0 },
	{ "unknown type, size == len", MK_LOST, -1, -1, p_unknown, 0 },
	{ "chain with slack", MK_CHAIN, 64 + 6 * 8, -1, NULL, 0 },
	{ "comm NUL last", MK_COMM, -1, -1, p_comm_last, 0 },
	{ "exec NUL last", MK_EXEC, -1, -1, p_path_last, 0 },
	{ "len > size", MK_LOST, -1, LOST_SIZE + 16, NULL, 0 },
};

static void build(struct rec *r, enum mk mk)
{
	switch (mk) {
	case MK_SAMPLE: mk_sample(r, -1, 0); break;
	case MK_CHAIN: mk_sample(r, 4, 2); break;
	case MK_LOST: mk_lost(r); break;
	case MK_COMM: mk_comm(r, "short"); break;
	case MK_EXEC: mk_exec(r, "/bin/sh-with-a-long-name"); break;
	case MK_FORK: mk_task(r, SKD_REC_FORK); break;
	case MK_EXIT: mk_task(r, SKD_REC_EXIT); break;
	case MK_USTACK: mk_ustack(r, -1, SKD_USER_ABI_64, 24); break;
	case MK_MMAP: mk_mmap(r, "/usr/lib/x86_64-linux-gnu/libc.so.6"); break;
	}
}

static void test_malformed(void **state)
{
	struct skd_event ev;
	struct rec r;
	size_t i, len;
	int ret;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];
		size_t built;

		build(&r, c->mk);
		built = r.n;
		if (c->patch)
			c->patch(&r);
		if (c->size >= 0)
			set16(&r, OFF_SIZE, (uint16_t)c->size);
		if (c->len >= 0)
			len = (size_t)c->len;
		else
			len = c->len == -1 ? get_le(r.b + OFF_SIZE, 2) : built;
		assert_true(len <= REC_CAP);
		ret = decode_at_guard(&r, len, &ev);
		if (c->want ? ret != c->want : ret != (int)get_le(r.b + OFF_SIZE, 2))
			fail_msg("%s: decode returned %d", c->what, ret);
	}
}

static void test_type_names(void **state)
{
	static const struct { uint32_t type; const char *name; } names[] = {
		{ SKD_REC_SAMPLE, "SAMPLE" }, { SKD_REC_LOST, "LOST" },
		{ SKD_REC_COMM, "COMM" }, { SKD_REC_EXEC, "EXEC" },
		{ SKD_REC_FORK, "FORK" }, { SKD_REC_EXIT, "EXIT" },
		{ 0, "UNKNOWN" }, { __SKD_REC_MAX, "UNKNOWN" },
		{ 0x8001, "UNKNOWN" }, { 0xffffffffU, "UNKNOWN" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(names); i++)
		assert_string_equal(skd_rec_type_name(names[i].type), names[i].name);
}

/* ---- randomized --------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* xorshift64*: reproducible from the seed printed on failure. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static size_t rnd_below(size_t n)
{
	return (size_t)(rnd() % n);
}

/*
 * What the uapi says about @len bytes at @b: the record's size when it is
 * well-formed, else -EINVAL. Written from uapi/skidless.h, independently of
 * decode.c, so the two have to agree on every mutated record.
 */
static int spec_verdict(const uint8_t *b, size_t len)
{
	uint32_t type, fields;
	size_t size, nr, nrk, at;

	if (len < 8)
		return -EINVAL;
	type = (uint32_t)get_le(b + OFF_TYPE, 4);
	size = get_le(b + OFF_SIZE, 2);
	if (size < 8 || size % 8 || size > len)
		return -EINVAL;
	if (type == 0 || type >= __SKD_REC_MAX)
		return (int)size;
	if (size < ID_END)
		return -EINVAL;
	switch (type) {
	case SKD_REC_SAMPLE:
		if (size < SAMPLE_FIXED)
			return -EINVAL;
		fields = get_le(b + OFF_S_FIELDS, 4);
		at = SAMPLE_FIXED;
		/* Sections in bit order: chain, memory (32), branches (8 + 24n). */
		if (fields & SKD_SAMPLE_CALLCHAIN) {
			if (size < at + 8)
				return -EINVAL;
			nr = get_le(b + at, 2);
			nrk = get_le(b + at + 2, 2);
			if (nr > SKD_MAX_CALLCHAIN || nrk > nr ||
			    at + 8 + 8 * nr > size)
				return -EINVAL;
			at += 8 + 8 * nr;
		}
		if (fields & SKD_SAMPLE_MEM) {
			if (at + 32 > size)
				return -EINVAL;
			at += 32;
		}
		if (fields & SKD_SAMPLE_BRANCHES) {
			if (at + 8 > size)
				return -EINVAL;
			nr = get_le(b + at, 2);
			if (at + 8 + 24 * nr > size)
				return -EINVAL;
			at += 8 + 24 * nr;
		}
		/* Then abi, size, 20 registers, size bytes padded to 8. */
		if (fields & SKD_SAMPLE_USER_STACK) {
			uint32_t abi, bytes;

			if (at + 168 > size)
				return -EINVAL;
			abi = (uint32_t)get_le(b + at, 4);
			bytes = (uint32_t)get_le(b + at + 4, 4);
			if ((abi != 0 && abi != 2) || bytes > 32768 ||
			    (abi == 0 && bytes) ||
			    at + 168 + (((size_t)bytes + 7) & ~(size_t)7) > size)
				return -EINVAL;
		}
		break;
	case SKD_REC_LOST:
	case SKD_REC_FORK:
	case SKD_REC_EXIT:
	case SKD_REC_THROTTLE:
	case SKD_REC_UNTHROTTLE:
		if (size < 40)
			return -EINVAL;
		break;
	case SKD_REC_COMM:
		if (size < COMM_SIZE || !memchr(b + OFF_COMM, 0, SKD_COMM_LEN))
			return -EINVAL;
		break;
	case SKD_REC_EXEC:
		if (size <= OFF_PATH || !memchr(b + OFF_PATH, 0, size - OFF_PATH))
			return -EINVAL;
		break;
	case SKD_REC_MMAP:
		if (size <= OFF_M_PATH ||
		    !memchr(b + OFF_M_PATH, 0, size - OFF_M_PATH))
			return -EINVAL;
		break;
	}
	return (int)size;
}

static void mutate(struct rec *r, size_t *len)
{
	static const uint32_t types[] = {
		0, SKD_REC_SAMPLE, SKD_REC_LOST, SKD_REC_COMM, SKD_REC_EXEC,
		SKD_REC_FORK, SKD_REC_EXIT, SKD_REC_MMAP, __SKD_REC_MAX, 0x8002,
	};
	size_t off;

	switch (rnd_below(9)) {
	case 0:		/* any size at all */
		set16(r, OFF_SIZE, (uint16_t)rnd());
		break;
	case 1:		/* a plausible size: multiple of 8, near the real one */
		set16(r, OFF_SIZE, (uint16_t)(8 * rnd_below(r->n / 8 + 4)));
		break;
	case 2:		/* chain counts around the limits */
		set16(r, OFF_CC_NR, (uint16_t)(rnd() & 1 ? rnd_below(140) : rnd()));
		set16(r, OFF_CC_NRK, (uint16_t)rnd_below(140));
		break;
	case 3:		/* any combination of sections, and unknown bits */
		set32(r, OFF_S_FIELDS, (uint32_t)rnd_below(16));
		break;
	case 4:
		set32(r, OFF_TYPE, types[rnd_below(ARRAY_SIZE(types))]);
		break;
	case 5:		/* strings without their NUL */
		off = OFF_COMM + rnd_below(r->n > OFF_COMM ? r->n - OFF_COMM : 1);
		memset(r->b + off, 'z', r->n > off ? r->n - off : 0);
		break;
	case 6:		/* random bytes anywhere */
		r->b[rnd_below(r->n + 16)] = (uint8_t)rnd();
		break;
	case 7:		/* fewer readable bytes than the record claims */
		*len = rnd_below(r->n + 1);
		break;
	default:	/* readable length rounded to 8, or beyond the record */
		*len = 8 * rnd_below(REC_CAP / 8 / 2 + 1);
		break;
	}
}

static void test_fuzz(void **state)
{
	const unsigned long iters = 200000;
	const char *env = getenv("SKD_FUZZ_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) : 0x5eed5eed1234ULL;
	unsigned long i, accepted = 0;
	struct skd_event ev;
	const uint8_t *buf;
	struct rec r;
	size_t len;
	int k, ret, want;

	(void)state;
	rng_state = seed;
	for (i = 0; i < iters; i++) {
		switch (rnd_below(8)) {
		case 0: mk_sample(&r, -1, 0); break;
		case 6:
			mk_ustack(&r, rnd() & 1 ? -1 : (int)rnd_below(4),
				  rnd() & 1 ? SKD_USER_ABI_64 : SKD_USER_ABI_NONE,
				  (int)rnd_below(100));
			break;
		case 7: mk_mmap(&r, rnd() & 1 ? "[vdso]" : "/usr/lib/x86_64-linux-gnu/libc.so.6"); break;
		case 1:
			k = (int)rnd_below(SKD_MAX_CALLCHAIN + 1);
			mk_sample(&r, k, (int)rnd_below((size_t)k + 1));
			break;
		case 2: mk_lost(&r); break;
		case 3: mk_comm(&r, "comm"); break;
		case 4: mk_exec(&r, rnd() & 1 ? "/a" : "/usr/lib/x86_64-linux-gnu/libc.so.6"); break;
		default: mk_task(&r, rnd() & 1 ? SKD_REC_FORK : SKD_REC_EXIT); break;
		}
		len = r.n;
		for (k = 1 + (int)rnd_below(3); k; k--)
			mutate(&r, &len);
		if (len > REC_CAP)
			len = REC_CAP;

		buf = at_guard(r.b, len);
		want = spec_verdict(buf, len);
		ret = skd_decode(buf, len, &ev);
		if (ret != want)
			fail_msg("seed %#" PRIx64 " iteration %lu: decode %d, uapi says %d",
				 seed, i, ret, want);
		if (ret < 0)
			continue;
		accepted++;
		/* What decode hands out must lie inside the record. */
		assert_true((size_t)ret <= len);
		assert_int_equal(ev.size, ret);
		if (ev.type == SKD_REC_SAMPLE && ev.sample.ips)
			assert_true((const uint8_t *)(ev.sample.ips + ev.sample.nr) <=
				    buf + ret);
		if (ev.type == SKD_REC_EXEC)
			assert_true(strnlen(ev.exec.path, buf + ret - (const uint8_t *)ev.exec.path) <
				    (size_t)(buf + ret - (const uint8_t *)ev.exec.path));
		if (ev.type == SKD_REC_MMAP)
			assert_true(strnlen(ev.mmap.path, buf + ret - (const uint8_t *)ev.mmap.path) <
				    (size_t)(buf + ret - (const uint8_t *)ev.mmap.path));
		if (ev.type == SKD_REC_SAMPLE && ev.sample.ustack)
			assert_true(ev.sample.stack + ev.sample.ustack->size <= buf + ret);
	}
	/* Both verdicts must be common, or the mutations test nothing. */
	assert_in_range(accepted, iters / 20, iters - iters / 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample_plain),
		cmocka_unit_test(test_sample_chain),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_comm),
		cmocka_unit_test(test_exec),
		cmocka_unit_test(test_mmap),
		cmocka_unit_test(test_sample_ustack),
		cmocka_unit_test(test_task),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_type_names),
		cmocka_unit_test(test_fuzz),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
