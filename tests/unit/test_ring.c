// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the per-CPU ring, kmod/ring_core.c, compiled in unmodified.
 *
 * The data region is a memfd mapped twice back to back, as the module's
 * vmap() does, so records that straddle the end of the ring really go
 * through the alias. The producer writes through a read-write double
 * mapping; the reader reads through a second, read-only double mapping of
 * the same memfd, the way a profiler process sees the module's pages. Each
 * double mapping sits between PROT_NONE guard pages: a write outside the
 * ring faults instead of passing silently.
 *
 * Nesting: an NMI can only interrupt the producer between instructions, and
 * a test cannot interrupt a function it calls. So the few kernel_shim.h
 * primitives that mark the interesting points of the protocol are wrapped
 * with a hook before ring_core.c is included; a test arms the hook and the
 * nested writer runs right there, inside skd_ring_begin()/skd_ring_end().
 * With no hook armed the wrappers only add a compare and a call.
 */
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kernel_shim.h"

/* ------------------------------------------------------------------ */
/* Hook points inside the ring, for simulated NMIs                     */

enum hook_point {
	HOOK_NONE,
	HOOK_PENDING_TAKEN,	/* begin: lost_pending swapped out */
	HOOK_RESERVE,		/* begin: right before the head cmpxchg */
	HOOK_PUBLISHED,		/* end: right after the data_head store */
	HOOK_NEST_DROPPED,	/* end: right after nest was decremented */
};

static struct {
	enum hook_point at;
	void (*fn)(void *arg);
	void *arg;
	unsigned int fired;
	unsigned int cmpxchgs;	/* head reservation attempts */
} hook;

/* One shot: disarm first so the nested writer runs through unhooked. */
static void ring_hook(enum hook_point point)
{
	if (hook.at != point)
		return;
	hook.at = HOOK_NONE;
	hook.fired++;
	hook.fn(hook.arg);
}

static inline long hooked_xchg(local_t *l, long v)
{
	long old = __atomic_exchange_n(&l->a, v, __ATOMIC_RELAXED);

	ring_hook(HOOK_PENDING_TAKEN);
	return old;
}

static inline long hooked_cmpxchg(local_t *l, long old, long new)
{
	hook.cmpxchgs++;
	ring_hook(HOOK_RESERVE);
	return local_cmpxchg(l, old, new);
}

#undef local_xchg
#define local_xchg(l, v)	hooked_xchg((l), (v))
#define local_cmpxchg(l, o, n)	hooked_cmpxchg((l), (o), (n))
#undef smp_store_release
#define smp_store_release(p, v)						\
	do {								\
		__atomic_store_n((p), (v), __ATOMIC_RELEASE);		\
		ring_hook(HOOK_PUBLISHED);				\
	} while (0)
#undef local_dec
#define local_dec(l)							\
	do {								\
		__atomic_fetch_sub(&(l)->a, 1, __ATOMIC_RELAXED);	\
		ring_hook(HOOK_NEST_DROPPED);				\
	} while (0)

#include "ring_core.c"

/* The tests below use plain __atomic builtins, never the hooked names. */
#undef local_xchg
#undef local_cmpxchg
#undef smp_store_release
#undef local_dec

#include <cmocka.h>

/* ------------------------------------------------------------------ */
/* Ring under test: double-mapped memfd, control page                  */

#define TEST_CPU	3
#define RING_4K		4096
#define LOST_SIZE	((u32)sizeof(struct skd_rec_lost))
#define MAX_REC		4096	/* largest record any test writes */

_Static_assert(sizeof(struct skd_ring_ctrl) <= RING_4K,
	       "the control page holds struct skd_ring_ctrl");
_Static_assert(sizeof(struct skd_rec_lost) % 8 == 0, "LOST is 8-aligned");

struct ring {
	struct skd_ring_core core;
	struct skd_ring_ctrl *ctrl;	/* its own shared page */
	u8 *prod;			/* producer view: RW, twice */
	const u8 *view;			/* reader view: RO, twice */
	u8 *before;			/* snapshot of the data */
	u64 size;
	int fd;
};

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/* Guard page, @size bytes of @fd, the same bytes again, guard page. */
static u8 *map_twice(int fd, u64 size, int prot)
{
	size_t pg = page_size();
	u8 *base, *data;
	int copy;

	base = mmap(NULL, 2 * size + 2 * pg, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	data = base + pg;
	for (copy = 0; copy < 2; copy++) {
		if (mmap(data + copy * size, size, prot, MAP_SHARED | MAP_FIXED,
			 fd, 0) == MAP_FAILED) {
			munmap(base, 2 * size + 2 * pg);
			return NULL;
		}
	}
	return data;
}

static void unmap_twice(const u8 *data, u64 size)
{
	size_t pg = page_size();

	if (data)
		munmap((void *)(data - pg), 2 * size + 2 * pg);
}

static void ring_free(struct ring *t)
{
	if (!t)
		return;
	unmap_twice(t->prod, t->size);
	unmap_twice(t->view, t->size);
	if (t->ctrl)
		munmap(t->ctrl, page_size());
	if (t->fd >= 0)
		close(t->fd);
	free(t->before);
	free(t);
}

/* A ring of @size bytes owned by the test's state (freed in teardown). */
static struct ring *ring_new(void **state, u64 size, u64 watermark)
{
	struct ring *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	*state = t;
	t->fd = -1;
	t->size = size;
	t->before = malloc(size);
	assert_non_null(t->before);
	t->fd = memfd_create("skd-ring-test", MFD_CLOEXEC);
	assert_true(t->fd >= 0);
	assert_int_equal(ftruncate(t->fd, (off_t)size), 0);
	t->prod = map_twice(t->fd, size, PROT_READ | PROT_WRITE);
	assert_non_null(t->prod);
	t->view = map_twice(t->fd, size, PROT_READ);
	assert_non_null(t->view);
	t->ctrl = mmap(NULL, page_size(), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(t->ctrl != MAP_FAILED);

	skd_ring_core_init(&t->core, t->ctrl, t->prod, size, watermark,
			   TEST_CPU);
	return t;
}

static int ring_teardown(void **state)
{
	ring_free(*state);
	*state = NULL;
	memset(&hook, 0, sizeof(hook));
	return 0;
}

static u64 data_head(const struct ring *t)
{
	return __atomic_load_n(&t->ctrl->data_head, __ATOMIC_ACQUIRE);
}

static u64 data_tail(const struct ring *t)
{
	return __atomic_load_n(&t->ctrl->data_tail, __ATOMIC_RELAXED);
}

/* What a reader (honest or not) does to the control page. */
static void set_tail(struct ring *t, u64 tail)
{
	__atomic_store_n(&t->ctrl->data_tail, tail, __ATOMIC_RELEASE);
}

static u64 nest_depth(const struct ring *t)
{
	return (u64)local_read(&t->core.nest);
}

static struct skd_cpu_stats ring_stats(const struct ring *t)
{
	struct skd_cpu_stats st;

	/* Poison first: every field must be written. */
	memset(&st, 0xa5, sizeof(st));
	skd_ring_stats(&t->core, &st);
	return st;
}

/* The uapi promise, checked whenever no record is in flight. */
static void assert_accounting(const struct ring *t)
{
	struct skd_cpu_stats st = ring_stats(t);

	assert_int_equal(st.generated, st.delivered + st.lost);
	assert_true(st.lost_unreported <= st.lost);
}

/* ------------------------------------------------------------------ */
/* Test records: sequence number, pattern, checksum                    */

/* hdr, id (time = seq), seq; pattern words; checksum word. */
struct test_rec {
	struct skd_rec_header hdr;
	struct skd_rec_id id;
	u64 seq;
};

#define REC_MIN		((u32)sizeof(struct test_rec) + 8)
#define REC_GOLDEN	0x9e3779b97f4a7c15ULL

/* splitmix64 finaliser: cheap, deterministic, well spread. */
static u64 mix64(u64 x)
{
	x += REC_GOLDEN;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Size of record @seq: a multiple of 8 in [REC_MIN, max]. */
static u32 rec_size(u64 seq, u32 max)
{
	u32 steps = (max - REC_MIN) / 8 + 1;

	return REC_MIN + 8 * (u32)(mix64(seq ^ 0x5125e) % steps);
}

static u64 checksum(const u64 *w, u32 nwords)
{
	u64 h = 0xcbf29ce484222325ULL;
	u32 i;

	for (i = 0; i < nwords; i++)
		h = ((h ^ w[i]) * 0x100000001b3ULL) ^ (h >> 29);
	return h;
}

/* The exact image of record @seq of @size bytes. */
static void make_rec(u64 *w, u32 size, u64 seq)
{
	u32 nw = size / 8, j;
	u64 m = mix64(seq);
	struct test_rec head = {
		.hdr = { .type = SKD_REC_SAMPLE, .misc = 0, .size = (u16)size },
		.id = { .time = seq, .cpu = (u32)m, .pid = (u32)(m >> 32),
			.tid = (u32)(m >> 16), .reserved = 0 },
		.seq = seq,
	};

	memcpy(w, &head, sizeof(head));
	for (j = sizeof(head) / 8; j < nw - 1; j++)
		w[j] = m ^ (j * REC_GOLDEN);
	w[nw - 1] = checksum(w, nw - 1);
}

static void write_rec(void *dst, u32 size, u64 seq)
{
	u64 img[MAX_REC / 8];

	make_rec(img, size, seq);
	memcpy(dst, img, size);
}

/* One non-nested writer, begin to end. Returns whether it was written. */
static bool emit_flags(struct ring *t, u32 size, u64 seq, unsigned int flags,
		       bool *woke)
{
	void *p = skd_ring_begin(&t->core, size, seq, flags);
	bool w;

	if (p)
		write_rec(p, size, seq);
	w = skd_ring_end(&t->core, p != NULL);
	if (woke)
		*woke = w;
	return p != NULL;
}

static bool emit(struct ring *t, u32 size, u64 seq)
{
	return emit_flags(t, size, seq, SKD_RING_SAMPLE, NULL);
}

/*
 * Emit records from *seq on until exactly @room bytes are left. A pending
 * loss makes the first record carry a LOST, so look at the ring each time.
 */
static void fill_until_free(struct ring *t, u64 room, u64 *seq)
{
	for (;;) {
		u64 rem = t->size - room - skd_ring_unread(&t->core);
		u64 extra = ring_stats(t).lost_unreported ? LOST_SIZE : 0;
		u32 s;

		if (!rem)
			break;
		assert_true(rem >= extra + REC_MIN);
		rem -= extra;
		/* 64 at a time, never leaving less than one record. */
		s = rem >= 64 + REC_MIN || rem == 64 ? 64 : (u32)rem;
		assert_true(emit(t, s, (*seq)++));
	}
}

/* ------------------------------------------------------------------ */
/* Reader: the uapi loop, with record checks                           */

struct seen {
	u32 type;
	u32 size;
	u64 pos;	/* free-running offset */
	u64 val;	/* sample: seq; LOST: count */
	u64 time;	/* id.time */
};

#define LOG_MAX		256

struct consumer {
	bool in_order;		/* seq gaps must match the LOST counts */
	u64 ring_size;
	u64 next_seq;
	u64 lost_since;		/* LOST count since the last sample */
	u64 lost_told;		/* sum of all LOST counts */
	u64 nr_lost;		/* LOST records */
	u64 nr_recs;		/* sample records */
	u64 straddled;		/* records across the end of the ring */
	const char *err;
	u64 err_pos;
	size_t nr_log;
	struct seen log[LOG_MAX];
	u64 got[MAX_REC / 8];
	u64 want[MAX_REC / 8];
};

static void consumer_init(struct consumer *c, const struct ring *t,
			  bool in_order)
{
	memset(c, 0, sizeof(*c));
	c->in_order = in_order;
	c->ring_size = t->size;
}

static bool consumer_fail(struct consumer *c, u64 pos, const char *why)
{
	if (!c->err) {
		c->err = why;
		c->err_pos = pos;
	}
	return false;
}

static void consumer_log(struct consumer *c, u32 type, u32 size, u64 pos,
			 u64 val, u64 time)
{
	if (c->nr_log < LOG_MAX)
		c->log[c->nr_log++] = (struct seen){ type, size, pos, val, time };
}

static bool consume_lost(struct consumer *c, const u8 *p, u64 pos, u32 size)
{
	struct skd_rec_lost rec;

	if (size != LOST_SIZE)
		return consumer_fail(c, pos, "LOST record of the wrong size");
	memcpy(&rec, p, sizeof(rec));
	if (rec.hdr.misc || rec.id.cpu != TEST_CPU || rec.id.pid ||
	    rec.id.tid || rec.id.reserved)
		return consumer_fail(c, pos, "LOST record fields");
	if (!rec.lost)
		return consumer_fail(c, pos, "LOST record of nothing");
	if (c->in_order && c->lost_since)
		return consumer_fail(c, pos, "two LOST records for one gap");
	c->lost_since += rec.lost;
	c->lost_told += rec.lost;
	c->nr_lost++;
	consumer_log(c, SKD_REC_LOST, size, pos, rec.lost, rec.id.time);
	return true;
}

static bool consume_sample(struct consumer *c, const u8 *p, u64 pos, u32 size)
{
	u32 nw = size / 8;
	u64 seq;

	if (size < REC_MIN || size > MAX_REC)
		return consumer_fail(c, pos, "sample of an impossible size");
	memcpy(c->got, p, size);
	if (checksum(c->got, nw - 1) != c->got[nw - 1])
		return consumer_fail(c, pos, "sample checksum");
	seq = c->got[offsetof(struct test_rec, seq) / 8];
	make_rec(c->want, size, seq);
	if (memcmp(c->got, c->want, size))
		return consumer_fail(c, pos, "sample content");
	if (c->in_order) {
		if (seq < c->next_seq)
			return consumer_fail(c, pos, "sample out of order");
		if (seq - c->next_seq != c->lost_since)
			return consumer_fail(c, pos, "gap differs from LOST");
	}
	c->next_seq = seq + 1;
	c->lost_since = 0;
	c->nr_recs++;
	consumer_log(c, SKD_REC_SAMPLE, size, pos, seq, seq);
	return true;
}

/* One record at @pos with @avail published bytes from there on. */
static bool consume(struct consumer *c, const u8 *p, u64 pos, u64 avail)
{
	struct skd_rec_header hdr;

	memcpy(&hdr, p, sizeof(hdr));
	if (hdr.size < sizeof(hdr) || hdr.size % 8 || hdr.size > avail)
		return consumer_fail(c, pos, "record size");
	if ((pos & (c->ring_size - 1)) + hdr.size > c->ring_size)
		c->straddled++;
	switch (hdr.type) {
	case SKD_REC_LOST:
		return consume_lost(c, p, pos, hdr.size);
	case SKD_REC_SAMPLE:
		return consume_sample(c, p, pos, hdr.size);
	default:
		return consumer_fail(c, pos, "record type");
	}
}

/*
 * The reader loop of uapi/skidless.h, reading at most @max records.
 * Returns the bytes released. On a bad record it stops where it is.
 */
static u64 drain_upto(struct ring *t, struct consumer *c, u64 max)
{
	u64 head = __atomic_load_n(&t->ctrl->data_head, __ATOMIC_ACQUIRE);
	u64 tail = data_tail(t), start = tail;

	if (head - tail > t->size)
		consumer_fail(c, tail, "head more than a ring ahead");
	while (tail != head && max-- && !c->err) {
		const u8 *p = t->view + (tail & (t->size - 1));

		if (!consume(c, p, tail, head - tail))
			break;
		tail += ((const struct skd_rec_header *)p)->size;
	}
	__atomic_store_n(&t->ctrl->data_tail, tail, __ATOMIC_RELEASE);
	return tail - start;
}

static u64 drain(struct ring *t, struct consumer *c)
{
	return drain_upto(t, c, UINT64_MAX);
}

static void assert_consumer_ok(const struct consumer *c)
{
	if (c->err)
		fail_msg("reader: %s at %" PRIu64, c->err, c->err_pos);
}

static void assert_seen(const struct consumer *c, size_t i, u32 type,
			u64 pos, u64 val)
{
	assert_true(i < c->nr_log);
	assert_int_equal(c->log[i].type, type);
	assert_int_equal(c->log[i].pos, pos);
	assert_int_equal(c->log[i].val, val);
}

/* ------------------------------------------------------------------ */
/* Data region snapshots, for "nothing else was written"               */

static void snapshot(struct ring *t)
{
	memcpy(t->before, t->view, t->size);
}

/* Since the snapshot, only bytes in [from, from + len) may have changed. */
static void assert_changed_only(const struct ring *t, u64 from, u64 len)
{
	const u8 *before = t->before;
	u64 mask = t->size - 1, i;

	for (i = 0; i < t->size; i++) {
		bool inside = ((i - from) & mask) < len;

		if (!inside && before[i] != t->view[i])
			fail_msg("ring byte %" PRIu64 " changed outside the "
				 "reservation [%" PRIu64 ", +%" PRIu64 ")",
				 i, from & mask, len);
	}
}

/* ------------------------------------------------------------------ */
/* Simulated NMI: a whole writer run at a hook point                   */

struct irq {
	struct ring *t;
	u32 size;
	u64 seq;
	bool wrote;
	bool woke;
	u64 pos;		/* producer head when it began */
	u64 head_after;		/* data_head when it returned */
	u64 nest_inside;	/* nest depth it ran at */
	struct consumer *drain_after;	/* then a reader at the next store */
};

static void reader_takes_one(void *arg);

static void irq_writer(void *arg)
{
	struct irq *q = arg;

	q->nest_inside = nest_depth(q->t);
	q->pos = (u64)local_read(&q->t->core.head);
	q->wrote = emit_flags(q->t, q->size, q->seq, SKD_RING_SAMPLE, &q->woke);
	q->head_after = data_head(q->t);
	if (q->drain_after) {
		/* The next data_head store is the interrupted writer's. */
		hook.at = HOOK_PUBLISHED;
		hook.fn = reader_takes_one;
	}
}

static void arm_irq(enum hook_point at, struct irq *q)
{
	hook.at = at;
	hook.fn = irq_writer;
	hook.arg = q;
	hook.fired = 0;
	hook.cmpxchgs = 0;
}

/* ================================================================== */
/* Tests                                                               */

/* The harness: two views alias one memfd, the control page is filled. */
static void test_init_and_mapping(void **state)
{
	struct ring *t = ring_new(state, 2 * RING_4K, 0);
	struct skd_cpu_stats st;
	u64 i;

	assert_int_equal(t->ctrl->version, SKD_RING_VERSION);
	assert_int_equal(t->ctrl->compat_version, SKD_RING_VERSION);
	assert_int_equal(t->ctrl->size, sizeof(struct skd_ring_ctrl));
	assert_int_equal(t->ctrl->cpu, TEST_CPU);
	assert_int_equal(t->ctrl->data_size, 2 * RING_4K);
	assert_int_equal(t->ctrl->data_offset,
			 SKD_MMAP_OFFSET(TEST_CPU, SKD_MMAP_DATA));
	assert_int_equal(data_head(t), 0);
	assert_int_equal(data_tail(t), 0);
	/* 0 asks for the default: half the ring. */
	assert_int_equal(t->core.watermark, RING_4K);

	/* Past the end is the start again, in both views. */
	for (i = 0; i < 64; i++)
		t->prod[t->size - 32 + i] = (u8)(i + 1);
	for (i = 0; i < 32; i++) {
		assert_int_equal(t->view[i], 33 + i);
		assert_int_equal(t->prod[i], 33 + i);
		assert_int_equal(t->view[2 * t->size - 32 + i], i + 1);
	}

	st = ring_stats(t);
	assert_int_equal(st.generated, 0);
	assert_int_equal(st.delivered, 0);
	assert_int_equal(st.lost, 0);
	assert_int_equal(st.lost_unreported, 0);
	assert_int_equal(st.samples, 0);
	assert_int_equal(st.wakeups, 0);
	assert_int_equal(st.reserved[0], 0);
	assert_int_equal(st.reserved[1], 0);
	assert_int_equal(skd_ring_unread(&t->core), 0);
}

/* begin() hands out @head's slot and publishes nothing. */
static void *begin_expect(struct ring *t, u32 size, u64 seq, u64 head)
{
	void *p = skd_ring_begin(&t->core, size, seq, SKD_RING_SAMPLE);

	assert_ptr_equal(p, t->prod + (head & (t->size - 1)));
	assert_int_equal((uintptr_t)p % 8, 0);
	assert_int_equal(data_head(t), head);
	/* The producer counts its reservation as unread already. */
	assert_int_equal(skd_ring_unread(&t->core), head + size - data_tail(t));
	assert_int_equal(nest_depth(t), 1);
	return p;
}

/* begin reserves, end publishes; records sit back to back, 8-aligned. */
static void test_roundtrip_offsets(void **state)
{
	static const u32 sizes[] = { 64, 48, 56, 120, 512, 1000, 48, 2048, 1024 };
	struct ring *t = ring_new(state, RING_4K, 0);
	struct consumer c;
	u64 head = 0, pos = 0, i;
	void *p;

	consumer_init(&c, t, true);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		if (i == 7) {
			/* 1848 bytes in: read them to make room. */
			drain(t, &c);
			assert_consumer_ok(&c);
			assert_int_equal(c.nr_recs, 7);
		}
		p = begin_expect(t, sizes[i], i, head);
		write_rec(p, sizes[i], i);
		skd_ring_end(&t->core, true);
		head += sizes[i];
		assert_int_equal(data_head(t), head);
		assert_int_equal(nest_depth(t), 0);
	}
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_recs, 9);
	for (i = 0; i < 9; pos += sizes[i], i++)
		assert_seen(&c, i, SKD_REC_SAMPLE, pos, i);
	/* The last one, at 3896, went through the alias. */
	assert_int_equal(c.straddled, 1);
	assert_int_equal(data_tail(t), head);
	assert_int_equal(skd_ring_unread(&t->core), 0);
	assert_accounting(t);
	assert_int_equal(ring_stats(t).delivered, 9);
}

/* Many laps, varying sizes, every byte compared at the reader. */
static void run_laps(struct ring *t, u64 nr, u32 max_size)
{
	struct consumer c;
	u64 seq;

	consumer_init(&c, t, true);
	for (seq = 0; seq < nr; seq++) {
		u32 size = rec_size(seq, max_size);

		/* Read at irregular points, early enough never to drop. */
		if (t->size - skd_ring_unread(&t->core) < size ||
		    mix64(seq) % 5 == 0) {
			drain(t, &c);
			assert_consumer_ok(&c);
		}
		assert_true(emit(t, size, seq));
	}
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_recs, nr);
	assert_int_equal(c.next_seq, nr);
	assert_int_equal(c.nr_lost, 0);
	/* The alias was really used, often. */
	assert_true(c.straddled > nr / 20);
	assert_accounting(t);
	assert_int_equal(ring_stats(t).lost, 0);
}

static void test_wrap_many_laps(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);

	run_laps(t, 20000, 1024);
	/* ~10 MB through a 4 KiB ring. */
	assert_true(data_head(t) / t->size > 1000);
}

/* Free-running indexes: modular across 2^64, not just across the ring. */
static void test_wrap_u64_boundary(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	u64 start = (u64)0 - 2 * RING_4K - 40;

	local_set(&t->core.head, (long)start);
	t->ctrl->data_head = start;
	t->ctrl->data_tail = start;
	run_laps(t, 2000, 1024);
	assert_true(data_head(t) < start);	/* it did wrap */
}

/* Exact fit is allowed, one byte more is not, nothing bigger than the ring. */
static void test_exact_fit(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	struct consumer c;
	u64 seq = 0;

	consumer_init(&c, t, true);
	assert_true(emit(t, RING_4K, seq++));		/* the whole ring */
	assert_int_equal(skd_ring_unread(&t->core), RING_4K);
	assert_false(emit(t, REC_MIN, seq++));		/* not a byte more */
	drain(t, &c);
	assert_true(emit(t, 64, seq++));		/* LOST + 64 */
	drain(t, &c);
	assert_consumer_ok(&c);

	assert_false(emit(t, RING_4K + 8, seq++));	/* never fits */
	/* LOST + record fill the ring from offset 104, across the end. */
	assert_true(emit(t, RING_4K - LOST_SIZE, seq++));
	assert_int_equal(skd_ring_unread(&t->core), RING_4K);
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_recs, 3);
	assert_int_equal(c.nr_lost, 2);
	assert_int_equal(c.lost_told, 2);
	assert_int_equal(c.straddled, 1);
	assert_accounting(t);
}

/* Full ring: drop and count, then exactly one LOST ahead of the next. */
static void test_full_drops_then_lost(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	struct skd_cpu_stats st;
	struct consumer c;
	u64 seq;
	u8 *p;

	for (seq = 0; seq < 64; seq++)
		assert_true(emit(t, 64, seq));
	for (; seq < 74; seq++)
		assert_false(emit(t, 64, seq));

	st = ring_stats(t);
	assert_int_equal(st.generated, 74);
	assert_int_equal(st.delivered, 64);
	assert_int_equal(st.lost, 10);
	assert_int_equal(st.lost_unreported, 10);
	assert_int_equal(data_head(t), RING_4K);
	assert_int_equal(skd_ring_unread(&t->core), RING_4K);
	assert_accounting(t);

	consumer_init(&c, t, true);
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_recs, 64);

	/* The LOST goes first, the record right behind it. */
	p = skd_ring_begin(&t->core, 64, 1000, SKD_RING_SAMPLE);
	assert_ptr_equal(p, t->prod + LOST_SIZE);
	assert_int_equal(ring_stats(t).lost_unreported, 0);
	write_rec(p, 64, seq);
	skd_ring_end(&t->core, true);
	assert_int_equal(data_head(t), RING_4K + LOST_SIZE + 64);

	c.nr_log = 0;
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_log, 2);
	assert_seen(&c, 0, SKD_REC_LOST, RING_4K, 10);
	assert_int_equal(c.log[0].time, 1000);	/* the carrier's now */
	assert_seen(&c, 1, SKD_REC_SAMPLE, RING_4K + LOST_SIZE, 74);

	st = ring_stats(t);
	assert_int_equal(st.generated, 75);
	assert_int_equal(st.delivered, 65);
	assert_int_equal(st.lost, 10);
	assert_int_equal(st.lost_unreported, 0);
	assert_int_equal(c.lost_told, st.lost);
}

/* A LOST that does not fit with its record waits; the record is dropped. */
static void test_lost_deferred(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	struct skd_cpu_stats st;
	struct consumer c;
	u64 seq = 0, head;

	consumer_init(&c, t, true);
	fill_until_free(t, 0, &seq);			/* 0..63 */
	assert_false(emit(t, 64, seq++));		/* 64, 65, 66 */
	assert_false(emit(t, 64, seq++));
	assert_false(emit(t, 64, seq++));
	drain_upto(t, &c, 1);				/* 64 bytes free */
	assert_consumer_ok(&c);

	/* The record alone would fit; with its LOST it does not. */
	head = data_head(t);
	snapshot(t);
	assert_false(emit(t, 64, seq++));		/* 67 */
	assert_false(emit(t, REC_MIN, seq++));		/* 68 */
	assert_int_equal(data_head(t), head);
	assert_changed_only(t, head, 0);
	st = ring_stats(t);
	assert_int_equal(st.lost, 5);
	assert_int_equal(st.lost_unreported, 5);
	assert_accounting(t);

	/* 128 free: LOST (40) + 88 is an exact fit. */
	drain_upto(t, &c, 1);
	assert_true(emit(t, 128 - LOST_SIZE, seq++));	/* 69 */
	assert_int_equal(t->size - skd_ring_unread(&t->core), 0);
	assert_int_equal(ring_stats(t).lost_unreported, 0);

	c.nr_log = 0;
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_lost, 1);
	assert_int_equal(c.lost_told, 5);
	assert_seen(&c, c.nr_log - 1, SKD_REC_SAMPLE, head + LOST_SIZE, 69);
	assert_int_equal(c.next_seq, seq);
	assert_accounting(t);
}

/* An inner writer between the outer's begin and end does not publish. */
static void test_nest_inner_in_middle(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	struct consumer c;
	u8 *outer, *inner;

	outer = skd_ring_begin(&t->core, 64, 0, SKD_RING_SAMPLE);
	inner = skd_ring_begin(&t->core, 48, 1, SKD_RING_SAMPLE);
	assert_non_null(outer);
	assert_ptr_equal(inner, outer + 64);		/* reservation order */
	assert_int_equal(nest_depth(t), 2);
	write_rec(inner, 48, 1);
	assert_false(skd_ring_end(&t->core, true));
	/* The outer record is still unwritten: publishing now would be wrong. */
	assert_int_equal(data_head(t), 0);
	assert_int_equal(nest_depth(t), 1);
	write_rec(outer, 64, 0);
	skd_ring_end(&t->core, true);
	assert_int_equal(data_head(t), 112);
	assert_int_equal(nest_depth(t), 0);

	consumer_init(&c, t, true);
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_log, 2);
	assert_seen(&c, 0, SKD_REC_SAMPLE, 0, 0);
	assert_seen(&c, 1, SKD_REC_SAMPLE, 64, 1);
	assert_accounting(t);
}

/* task -> IRQ -> NMI: only the outermost publishes, everything at once. */
static void test_nest_three_levels(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	struct consumer c;
	u8 *task, *irq, *nmi;

	assert_true(emit(t, 64, 0));
	task = skd_ring_begin(&t->core, 72, 1, 0);
	irq = skd_ring_begin(&t->core, 80, 2, 0);
	nmi = skd_ring_begin(&t->core, 88, 3, SKD_RING_SAMPLE);
	assert_ptr_equal(irq, task + 72);
	assert_ptr_equal(nmi, irq + 80);
	write_rec(nmi, 88, 3);
	assert_false(skd_ring_end(&t->core, true));
	assert_int_equal(data_head(t), 64);
	write_rec(irq, 80, 2);
	assert_false(skd_ring_end(&t->core, true));
	assert_int_equal(data_head(t), 64);
	write_rec(task, 72, 1);
	skd_ring_end(&t->core, true);
	assert_int_equal(data_head(t), 64 + 72 + 80 + 88);

	consumer_init(&c, t, true);
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_recs, 4);
	assert_int_equal(ring_stats(t).samples, 2);
	assert_accounting(t);
}

/* The inner record does not fit: dropped, reported after the outer. */
static void test_nest_inner_dropped(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	struct skd_cpu_stats st;
	struct consumer c;
	u64 seq = 0;
	u8 *outer;

	fill_until_free(t, 64, &seq);			/* 0..62 */
	outer = skd_ring_begin(&t->core, 64, seq, SKD_RING_SAMPLE);
	assert_non_null(outer);
	assert_null(skd_ring_begin(&t->core, 48, seq + 1, SKD_RING_SAMPLE));
	assert_false(skd_ring_end(&t->core, false));
	assert_int_equal(data_head(t), RING_4K - 64);
	write_rec(outer, 64, seq);
	skd_ring_end(&t->core, true);
	assert_int_equal(data_head(t), RING_4K);
	seq += 2;

	st = ring_stats(t);
	assert_int_equal(st.generated, 65);
	assert_int_equal(st.delivered, 64);
	assert_int_equal(st.lost, 1);
	assert_int_equal(st.lost_unreported, 1);

	consumer_init(&c, t, true);
	drain(t, &c);
	assert_true(emit(t, 64, seq++));
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_lost, 1);
	assert_int_equal(c.lost_told, 1);
	assert_int_equal(c.next_seq, seq);
	assert_accounting(t);
}

/* The outer is dropped, the inner fits: the outer's end publishes it. */
static void test_nest_outer_dropped(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	struct consumer c;
	u64 seq = 0, head;
	u8 *inner;

	fill_until_free(t, 128, &seq);
	head = data_head(t);
	assert_null(skd_ring_begin(&t->core, 192, seq++, SKD_RING_SAMPLE));
	inner = skd_ring_begin(&t->core, REC_MIN, seq, SKD_RING_SAMPLE);
	/* The outer's loss is already pending: the inner carries it. */
	assert_ptr_equal(inner, t->prod + ((head + LOST_SIZE) & (t->size - 1)));
	write_rec(inner, REC_MIN, seq++);
	assert_false(skd_ring_end(&t->core, true));
	assert_int_equal(data_head(t), head);
	skd_ring_end(&t->core, false);
	assert_int_equal(data_head(t), head + LOST_SIZE + REC_MIN);
	assert_int_equal(nest_depth(t), 0);

	consumer_init(&c, t, true);
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_seen(&c, c.nr_log - 2, SKD_REC_LOST, head, 1);
	assert_seen(&c, c.nr_log - 1, SKD_REC_SAMPLE, head + LOST_SIZE, seq - 1);
	assert_int_equal(ring_stats(t).lost_unreported, 0);
	assert_accounting(t);
}

/* Pending losses go to the first writer to begin; the nested one adds none. */
static void test_nest_outer_carries_lost(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	struct consumer c;
	u64 seq = 0;
	u8 *outer, *inner;

	consumer_init(&c, t, true);
	fill_until_free(t, 0, &seq);
	assert_false(emit(t, 64, seq++));
	assert_false(emit(t, 64, seq++));
	drain(t, &c);

	outer = skd_ring_begin(&t->core, 64, seq, SKD_RING_SAMPLE);
	inner = skd_ring_begin(&t->core, 64, seq + 1, SKD_RING_SAMPLE);
	assert_ptr_equal(outer, t->prod + LOST_SIZE);
	assert_ptr_equal(inner, outer + 64);
	write_rec(inner, 64, seq + 1);
	skd_ring_end(&t->core, true);
	write_rec(outer, 64, seq);
	skd_ring_end(&t->core, true);
	seq += 2;

	c.nr_log = 0;
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_log, 3);
	assert_seen(&c, 0, SKD_REC_LOST, RING_4K, 2);
	assert_int_equal(c.next_seq, seq);
	assert_accounting(t);
}

/*
 * NMI right after the outermost writer stored data_head: the NMI must not
 * publish (the outer still holds nest), so the outer has to notice the new
 * head after dropping nest and publish again, or the NMI's record would
 * stay invisible until some later record.
 */
static void test_irq_after_publish(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	struct irq q = { .t = t, .size = 48, .seq = 2 };
	struct consumer c;
	u8 *p;

	assert_true(emit(t, 64, 0));
	p = skd_ring_begin(&t->core, 80, 1, SKD_RING_SAMPLE);
	write_rec(p, 80, 1);
	arm_irq(HOOK_PUBLISHED, &q);
	skd_ring_end(&t->core, true);

	assert_int_equal(hook.fired, 1);
	assert_int_equal(q.nest_inside, 1);
	assert_true(q.wrote);
	assert_false(q.woke);
	assert_int_equal(q.pos, 144);
	assert_int_equal(q.head_after, 144);		/* NMI did not publish */
	assert_int_equal(data_head(t), 192);		/* the outer did */
	assert_int_equal(nest_depth(t), 0);

	consumer_init(&c, t, true);
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_recs, 3);
	assert_accounting(t);
}

/* NMI after the outer dropped nest: it is outermost and publishes itself. */
static void test_irq_after_nest_drop(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	struct irq q = { .t = t, .size = 48, .seq = 1 };
	struct consumer c;
	u8 *p;

	p = skd_ring_begin(&t->core, 64, 0, SKD_RING_SAMPLE);
	write_rec(p, 64, 0);
	arm_irq(HOOK_NEST_DROPPED, &q);
	skd_ring_end(&t->core, true);

	assert_int_equal(hook.fired, 1);
	assert_int_equal(q.nest_inside, 0);
	assert_true(q.wrote);
	assert_int_equal(q.head_after, 112);
	assert_int_equal(data_head(t), 112);
	assert_int_equal(nest_depth(t), 0);

	consumer_init(&c, t, true);
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_recs, 2);
	assert_accounting(t);
}

/* NMI between the outer's space check and its cmpxchg: the outer retries. */
static void test_irq_races_reservation(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	struct irq q = { .t = t, .size = 48, .seq = 2 };
	struct consumer c;
	u8 *p;

	assert_true(emit(t, 64, 0));
	arm_irq(HOOK_RESERVE, &q);
	p = skd_ring_begin(&t->core, 80, 1, SKD_RING_SAMPLE);
	assert_int_equal(hook.fired, 1);
	/* Outer attempt, NMI's, outer's retry. */
	assert_int_equal(hook.cmpxchgs, 3);
	assert_true(q.wrote);
	assert_int_equal(q.pos, 64);
	assert_int_equal(q.head_after, 64);		/* outer in flight */
	assert_ptr_equal(p, t->prod + 64 + 48);
	write_rec(p, 80, 1);
	skd_ring_end(&t->core, true);
	assert_int_equal(data_head(t), 192);

	consumer_init(&c, t, false);
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_log, 3);
	assert_seen(&c, 0, SKD_REC_SAMPLE, 0, 0);
	assert_seen(&c, 1, SKD_REC_SAMPLE, 64, 2);
	assert_seen(&c, 2, SKD_REC_SAMPLE, 112, 1);
	assert_accounting(t);
}

/* ... and when the NMI took the space, the retry must drop, not overwrite. */
static void test_irq_race_fills_ring(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	struct irq q = { .t = t, .size = 64 };
	struct skd_cpu_stats st;
	struct consumer c;
	u64 seq = 0, head;

	fill_until_free(t, 128, &seq);
	head = data_head(t);
	snapshot(t);
	q.seq = seq;					/* NMI reserves first */
	arm_irq(HOOK_RESERVE, &q);
	assert_null(skd_ring_begin(&t->core, 128, seq + 1, SKD_RING_SAMPLE));
	skd_ring_end(&t->core, false);
	seq += 2;
	assert_int_equal(hook.fired, 1);
	assert_true(q.wrote);
	assert_int_equal(data_head(t), head + 64);
	assert_changed_only(t, head, 64);
	st = ring_stats(t);
	assert_int_equal(st.lost, 1);
	assert_int_equal(st.lost_unreported, 1);
	assert_accounting(t);

	consumer_init(&c, t, true);
	drain(t, &c);
	assert_true(emit(t, 64, seq++));
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.lost_told, 1);
	assert_int_equal(c.next_seq, seq);
}

/*
 * NMI after the outer took the pending losses but before it reserved: the
 * NMI reports none, the outer reports all of them exactly once. The NMI's
 * record lands first, ahead of the LOST: the count is exact, the position
 * is one record late (the NMI reserved first and has nothing to report).
 * A second NMI in the same window, dropped, is reported by the next one.
 */
static void test_irq_after_pending_taken(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	struct irq q = { .t = t, .size = 48 };
	struct skd_cpu_stats st;
	struct consumer c;
	u64 seq = 0, head;
	u8 *p;

	consumer_init(&c, t, false);
	fill_until_free(t, 0, &seq);			/* 0..63 */
	assert_false(emit(t, 64, seq++));		/* 64, 65, 66 */
	assert_false(emit(t, 64, seq++));
	assert_false(emit(t, 64, seq++));
	drain(t, &c);
	head = data_head(t);

	q.seq = seq++;					/* 67 */
	arm_irq(HOOK_PENDING_TAKEN, &q);
	p = skd_ring_begin(&t->core, 64, seq, SKD_RING_SAMPLE);
	assert_int_equal(hook.fired, 1);
	assert_true(q.wrote);
	assert_int_equal(q.pos, head);
	assert_ptr_equal(p, t->prod + ((head + 48 + LOST_SIZE) & (t->size - 1)));
	write_rec(p, 64, seq++);			/* 68 */
	skd_ring_end(&t->core, true);

	c.nr_log = 0;
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_log, 3);
	assert_seen(&c, 0, SKD_REC_SAMPLE, head, 67);
	assert_seen(&c, 1, SKD_REC_LOST, head + 48, 3);
	assert_seen(&c, 2, SKD_REC_SAMPLE, head + 48 + LOST_SIZE, 68);
	assert_int_equal(ring_stats(t).lost_unreported, 0);
	assert_accounting(t);

	/*
	 * Again with one loss pending, and an NMI in that window that does
	 * not fit (120 free, it wants 128): its loss goes back to pending
	 * although the outer has just emptied it.
	 */
	fill_until_free(t, 120, &seq);
	assert_false(emit(t, 128, seq++));
	q.size = 128;
	q.seq = seq++;
	arm_irq(HOOK_PENDING_TAKEN, &q);
	p = skd_ring_begin(&t->core, REC_MIN, seq, SKD_RING_SAMPLE);
	assert_int_equal(hook.fired, 1);
	assert_non_null(p);				/* LOST + 48 = 88 */
	assert_false(q.wrote);
	write_rec(p, REC_MIN, seq++);
	skd_ring_end(&t->core, true);
	st = ring_stats(t);
	assert_int_equal(st.lost, 5);
	assert_int_equal(st.lost_unreported, 1);	/* the NMI's */
	assert_accounting(t);

	drain(t, &c);
	assert_true(emit(t, 64, seq++));
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.lost_told, 5);
	assert_int_equal(ring_stats(t).lost_unreported, 0);
}

/* A reader that claims to be ahead of the producer gets nothing written. */
static void test_lying_tail_ahead(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	const u64 lies[] = { 8, 1, RING_4K, RING_4K + 8, 1ULL << 63,
			     (u64)0 - RING_4K - 8 };
	struct consumer c;
	u64 seq = 0, head, honest, dropped = 0, i, k;

	consumer_init(&c, t, true);
	for (; seq < 10; seq++)
		assert_true(emit(t, 64, seq));
	drain_upto(t, &c, 5);
	head = data_head(t);
	honest = data_tail(t);
	snapshot(t);

	for (i = 0; i < sizeof(lies) / sizeof(lies[0]); i++) {
		set_tail(t, head + lies[i]);
		for (k = 0; k < 8; k++, dropped++, seq++)
			assert_false(emit(t, rec_size(seq, 512), seq));
		assert_int_equal(data_head(t), head);
		assert_true(skd_ring_unread(&t->core) <= t->size);
		assert_changed_only(t, head, 0);
	}
	assert_int_equal(ring_stats(t).lost_unreported, dropped);

	/* Back to the truth: the unread records are intact, losses told. */
	set_tail(t, honest);
	assert_true(emit(t, 64, seq++));
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_recs, 11);
	assert_int_equal(c.lost_told, dropped);
	assert_accounting(t);
}

/* A reader claiming more than a ring unread, or less free space than real. */
static void test_lying_tail_behind(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	const u64 lies[] = { RING_4K + 8, RING_4K + 1, 2 * RING_4K,
			     1ULL << 62, RING_4K };
	struct consumer c;
	u64 seq = 0, head, honest, dropped = 0, i;

	consumer_init(&c, t, true);
	for (; seq < 40; seq++)
		assert_true(emit(t, 64, seq));
	drain_upto(t, &c, 20);
	head = data_head(t);
	honest = data_tail(t);
	snapshot(t);

	for (i = 0; i < sizeof(lies) / sizeof(lies[0]); i++, dropped++) {
		set_tail(t, head - lies[i]);
		assert_false(emit(t, REC_MIN, seq++));
		assert_int_equal(data_head(t), head);
		assert_int_equal(skd_ring_unread(&t->core), t->size);
		assert_changed_only(t, head, 0);
	}

	/*
	 * Tail pulled back into consumed data, 88 bytes short of a full
	 * ring: the producer may use those 88 bytes and not one more.
	 */
	set_tail(t, head - RING_4K + 88);
	assert_false(emit(t, 56, seq++));		/* LOST + 56 = 96 */
	dropped++;
	assert_true(emit(t, 48, seq++));		/* LOST + 48 = 88 */
	assert_changed_only(t, head, 88);
	assert_int_equal(data_head(t), head + 88);
	assert_false(emit(t, REC_MIN, seq++));
	dropped++;

	set_tail(t, honest);
	assert_true(emit(t, 64, seq++));
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_recs, 40 + 2);
	assert_int_equal(c.lost_told, dropped);
	assert_accounting(t);
}

/*
 * Random tails around head, aligned or not. Whatever the lie, the
 * producer writes only [old head, new head), and only inside what the
 * lie itself declared free; the guard pages catch anything else.
 */
static void test_lying_tail_fuzz(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	u64 i, wrote = 0;

	for (i = 0; i < 4000; i++) {
		u64 r = mix64(i * 7 + 1), head = data_head(t), tail, len;
		int64_t delta = (int64_t)(r % (3 * RING_4K + 256)) -
				2 * RING_4K - 128;
		u32 size = rec_size(r >> 20, 1024);

		if (r & (1ULL << 60))
			delta &= ~7LL;
		tail = head + (u64)delta;
		set_tail(t, tail);
		snapshot(t);
		if (emit(t, size, i)) {
			wrote++;
			len = data_head(t) - head;
			assert_true(len == size || len == size + LOST_SIZE);
			assert_true(head - tail <= t->size);
			assert_true(data_head(t) - tail <= t->size);
		} else {
			len = 0;
			assert_int_equal(data_head(t), head);
		}
		assert_changed_only(t, head, len);
	}
	assert_true(wrote > 100 && wrote < 4000);
	assert_accounting(t);
}

/*
 * A reader that sleeps in poll() until skd_ring_readable() holds (unread
 * >= watermark), as kmod/ring.c does, and is woken only when skd_ring_end()
 * says so. Once woken it runs up to @max_lag records later, like a real
 * reader that takes time to get scheduled.
 */
struct sleeper {
	struct ring *t;
	struct consumer c;
	bool asleep;
	int lag;		/* records until it runs, once woken */
	u64 wakes;
	u64 worst_stall;	/* records produced while it slept, readable */
	u64 stall;
};

static bool sleeper_readable(const struct sleeper *s)
{
	return skd_ring_unread(&s->t->core) >= s->t->core.watermark;
}

static void sleeper_after_record(struct sleeper *s, bool woke, u64 seq,
				 int max_lag)
{
	if (woke) {
		s->wakes++;
		if (s->asleep) {
			s->asleep = false;
			s->lag = max_lag ? (int)(mix64(seq) % (max_lag + 1)) : 0;
		}
	}
	if (!s->asleep && s->lag-- <= 0) {
		/*
		 * Running again: poll() re-checks and returns only when
		 * readable; the reader then reads all there is. Otherwise
		 * poll() sleeps again.
		 */
		while (sleeper_readable(s) && drain(s->t, &s->c))
			;
		s->asleep = true;
	}
	if (s->asleep && sleeper_readable(s)) {
		if (++s->stall > s->worst_stall)
			s->worst_stall = s->stall;
	} else {
		s->stall = 0;
	}
}

static void run_sleeper(struct ring *t, struct sleeper *s, u64 nr,
			u32 max_size, int max_lag)
{
	u64 seq, trues = 0;
	bool woke;

	memset(s, 0, sizeof(*s));
	s->t = t;
	s->asleep = true;
	consumer_init(&s->c, t, true);
	for (seq = 0; seq < nr; seq++) {
		emit_flags(t, rec_size(seq, max_size), seq, SKD_RING_SAMPLE,
			   &woke);
		trues += woke;
		sleeper_after_record(s, woke, seq, max_lag);
		assert_consumer_ok(&s->c);
	}
	assert_int_equal(ring_stats(t).wakeups, trues);
	assert_accounting(t);
}

/*
 * poll() waits for watermark unread bytes; skd_ring_end() must wake the
 * reader by the time that holds, whenever its tail ended up. A reader
 * asleep with a readable ring is a lost wakeup; while the ring is full
 * nothing more is published, so nothing would ever wake it.
 */
static void test_watermark_no_lost_wakeup(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	struct sleeper s;

	run_sleeper(t, &s, 50000, 512, 3);
	if (s.worst_stall)
		fail_msg("reader asleep with a readable ring for %" PRIu64
			 " records (%" PRIu64 " wakeups, %" PRIu64 " lost)",
			 s.worst_stall, s.wakes, ring_stats(t).lost);
	assert_true(s.wakes > 1000);
}

/*
 * The same, step by step. Half-ring watermark; the reader is woken at 2048
 * but runs one record late and reads to 2112, then sleeps. It must be woken
 * at 5112, the first record after which 2048 bytes are unread.
 *
 * Waking every 2048 bytes produced instead (the rule before this test)
 * wakes it at 4112, when only 2000 are unread: poll() says not yet and it
 * sleeps again. At 6112 the ring holds 4000 unread bytes, the next record
 * does not fit, nothing is published any more, so nothing wakes it again.
 */
static void test_watermark_lagging_reader(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	struct sleeper s;
	u64 seq = 0, k;
	bool woke;

	memset(&s, 0, sizeof(s));
	s.t = t;
	consumer_init(&s.c, t, true);
	for (k = 0; k < 32; k++) {
		assert_true(emit_flags(t, 64, seq++, 0, &woke));
		assert_int_equal(woke, k == 31);	/* 2048 unread */
	}
	assert_true(emit_flags(t, 64, seq++, 0, &woke));
	assert_false(woke);
	drain(t, &s.c);				/* woken, reads to 2112 */
	assert_false(sleeper_readable(&s));

	/* Asleep from here: the ring must wake it once it is readable. */
	for (k = 0; k < 10; k++) {
		emit_flags(t, 1000, seq++, 0, &woke);
		if (sleeper_readable(&s)) {
			assert_true(woke);
			break;
		}
	}
	assert_true(k < 10);
	assert_int_equal(skd_ring_unread(&t->core), 3000);
	assert_int_equal(data_head(t), 5112);
}

/* Default watermark, prompt reader: a wakeup each half ring, exactly. */
static void test_watermark_default(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	struct consumer c;
	u64 seq, trues = 0;
	bool woke;

	consumer_init(&c, t, true);
	for (seq = 1; seq <= 200; seq++) {
		assert_true(emit_flags(t, 64, seq - 1, 0, &woke));
		/* 2048 bytes are 32 records */
		assert_int_equal(woke, seq % 32 == 0);
		if (woke) {
			trues++;
			drain(t, &c);
		}
	}
	assert_int_equal(trues, 6);
	assert_int_equal(ring_stats(t).wakeups, 6);
	assert_consumer_ok(&c);
}

/* Custom watermark: true exactly when the reader became readable. */
static void test_watermark_custom(void **state)
{
	struct ring *t = ring_new(state, 2 * RING_4K, 1000);
	struct consumer c;
	u64 seq, trues = 0;
	bool woke;

	consumer_init(&c, t, true);
	assert_int_equal(t->core.watermark, 1000);
	for (seq = 0; seq < 5000; seq++) {
		u64 unread_before = data_head(t) - data_tail(t);

		emit_flags(t, rec_size(seq, 400), seq, 0, &woke);
		assert_int_equal(woke, unread_before < 1000 &&
				       data_head(t) - data_tail(t) >= 1000);
		if (woke) {
			trues++;
			drain(t, &c);
		}
	}
	assert_consumer_ok(&c);
	assert_true(trues > 500);
	assert_int_equal(ring_stats(t).wakeups, trues);
}

/* A reader that never reads is woken once, not on every record. */
static void test_watermark_stopped_reader(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	u64 seq, trues = 0;
	bool woke;

	for (seq = 0; seq < 500; seq++) {
		emit_flags(t, 64, seq, 0, &woke);
		trues += woke;
	}
	assert_int_equal(trues, 1);
	assert_int_equal(ring_stats(t).wakeups, 1);
	assert_true(ring_stats(t).lost > 400);
}

/* Nested writers never wake; the outermost decides for all of them. */
static void test_watermark_nested(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 1024);
	u8 *outer, *inner;

	outer = skd_ring_begin(&t->core, 64, 0, 0);
	inner = skd_ring_begin(&t->core, 2048, 1, 0);
	write_rec(inner, 2048, 1);
	assert_false(skd_ring_end(&t->core, true));
	write_rec(outer, 64, 0);
	assert_true(skd_ring_end(&t->core, true));
	assert_int_equal(ring_stats(t).wakeups, 1);
}

/* The reader, on another CPU, consumes one record at the hook point. */
static void reader_takes_one(void *arg)
{
	struct irq *q = arg;

	drain_upto(q->t, q->drain_after, 1);
}

/*
 * The outermost publishes twice when an NMI slipped in after its store.
 * One call returns one wakeup, so it counts one, even when the second pass
 * finds reason to wake too (here the reader consumed a record in between).
 */
static void test_watermark_republish_counts_once(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 256);
	struct consumer c;
	struct irq q = { .t = t, .size = 512, .seq = 4, .drain_after = &c };
	u64 seq;
	bool woke;
	u8 *p;

	consumer_init(&c, t, true);
	for (seq = 0; seq < 3; seq++) {
		assert_true(emit_flags(t, 64, seq, 0, &woke));
		assert_false(woke);
	}
	p = skd_ring_begin(&t->core, 64, seq, 0);	/* reaches 256 */
	write_rec(p, 64, seq);
	arm_irq(HOOK_PUBLISHED, &q);
	woke = skd_ring_end(&t->core, true);
	assert_int_equal(hook.fired, 2);		/* NMI, then reader */
	assert_true(q.wrote);
	assert_false(q.woke);
	assert_true(woke);
	assert_int_equal(data_head(t), 256 + 512);
	assert_int_equal(data_tail(t), 64);
	assert_int_equal(ring_stats(t).wakeups, 1);
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_recs, 5);
}

/* skd_ring_unread: what the producer sees, reserved bytes included. */
static void test_unread(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 0);
	struct consumer c;
	u64 seq = 0;
	u8 *p;

	consumer_init(&c, t, true);
	assert_int_equal(skd_ring_unread(&t->core), 0);
	p = skd_ring_begin(&t->core, 64, seq, 0);
	assert_int_equal(skd_ring_unread(&t->core), 64);	/* in flight */
	write_rec(p, 64, seq++);
	skd_ring_end(&t->core, true);
	assert_true(emit(t, 128, seq++));
	assert_int_equal(skd_ring_unread(&t->core), 192);
	drain_upto(t, &c, 1);
	assert_int_equal(skd_ring_unread(&t->core), 128);
	drain(t, &c);
	assert_int_equal(skd_ring_unread(&t->core), 0);
	fill_until_free(t, 0, &seq);
	assert_int_equal(skd_ring_unread(&t->core), RING_4K);
	drain(t, &c);
	assert_consumer_ok(&c);

	/* Lies are clamped to the ring: poll must not see more. */
	set_tail(t, data_head(t) + 64);
	assert_true(skd_ring_unread(&t->core) <= RING_4K);
	set_tail(t, data_head(t) - 3 * RING_4K);
	assert_int_equal(skd_ring_unread(&t->core), RING_4K);
}

/* One record with @flags; counts the wakeups it returned into *trues. */
static bool emit_counted(struct ring *t, u32 size, u64 seq,
			 unsigned int flags, u64 *trues)
{
	bool woke, wrote = emit_flags(t, size, seq, flags, &woke);

	*trues += woke;
	return wrote;
}

/* skd_ring_stats: every field, after a scripted mix. */
static void test_stats(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 1024);
	struct skd_cpu_stats st;
	struct consumer c;
	u64 seq = 0, trues = 0, k;

	consumer_init(&c, t, true);
	/* 64 records fill the ring, every other one a sample. */
	for (k = 0; k < 64; k++)
		assert_true(emit_counted(t, 64, seq++, k % 2 ? 0 :
					 SKD_RING_SAMPLE, &trues));
	/* 7 lost, 4 of them samples. */
	for (k = 0; k < 7; k++)
		assert_false(emit_counted(t, 64, seq++, k % 2 ? 0 :
					  SKD_RING_SAMPLE, &trues));
	/* A nested pair, both lost, the inner a sample. */
	assert_null(skd_ring_begin(&t->core, 64, seq++, 0));
	assert_null(skd_ring_begin(&t->core, 64, seq++, SKD_RING_SAMPLE));
	trues += skd_ring_end(&t->core, false);
	trues += skd_ring_end(&t->core, false);

	st = ring_stats(t);
	assert_int_equal(st.generated, 64 + 7 + 2);
	assert_int_equal(st.delivered, 64);
	assert_int_equal(st.lost, 9);
	assert_int_equal(st.lost_unreported, 9);
	assert_int_equal(st.samples, 32 + 4 + 1);
	assert_true(trues > 0);
	assert_int_equal(st.wakeups, trues);
	assert_int_equal(st.reserved[0], 0);
	assert_int_equal(st.reserved[1], 0);

	drain(t, &c);
	assert_true(emit_counted(t, 64, seq++, SKD_RING_SAMPLE, &trues));
	st = ring_stats(t);
	assert_int_equal(st.generated, 74);
	assert_int_equal(st.delivered, 65);
	assert_int_equal(st.lost, 9);
	assert_int_equal(st.lost_unreported, 0);
	assert_int_equal(st.samples, 38);
	assert_int_equal(st.wakeups, trues);
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.lost_told, 9);
	assert_int_equal(c.next_seq, seq);
}

/* ------------------------------------------------------------------ */
/* Producer and consumer on two threads                                */

#define STRESS_RECORDS	3000000
#define STRESS_RING	(4 * RING_4K)

struct stress {
	struct ring *t;
	u64 nr;
	u64 trues;
	int done;
	u64 empty_polls;
	struct consumer c;
};

/*
 * Builds each record before reserving, as a sampler gathers its data
 * first: that paces the producer near the reader's speed, so the ring
 * alternates between overflowing and draining. On the first drop of an
 * overflow it yields, so that on a single CPU the reader still runs.
 */
static void *stress_producer(void *arg)
{
	struct stress *s = arg;
	u64 img[512 / 8], seq;
	bool dropping = false;
	void *p;

	for (seq = 0; seq < s->nr; seq++) {
		u32 size = rec_size(seq, 512);

		make_rec(img, size, seq);
		p = skd_ring_begin(&s->t->core, size, seq, SKD_RING_SAMPLE);
		if (p)
			memcpy(p, img, size);
		s->trues += skd_ring_end(&s->t->core, p != NULL);
		if (!p && !dropping)
			sched_yield();
		dropping = !p;
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *stress_consumer(void *arg)
{
	struct stress *s = arg;

	while (!s->c.err) {
		/* Once done is seen, data_head already holds everything. */
		int done = __atomic_load_n(&s->done, __ATOMIC_ACQUIRE);

		if (drain(s->t, &s->c))
			continue;
		if (done)
			break;
		s->empty_polls++;
		sched_yield();
	}
	return NULL;
}

static void test_concurrent(void **state)
{
	struct ring *t = ring_new(state, STRESS_RING, 0);
	struct stress stress = { .t = t }, *s = &stress;
	struct skd_cpu_stats st;
	pthread_t prod, cons;
	struct timespec t0, t1;

	s->nr = STRESS_RECORDS;
	consumer_init(&s->c, t, true);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(pthread_create(&cons, NULL, stress_consumer, s), 0);
	assert_int_equal(pthread_create(&prod, NULL, stress_producer, s), 0);
	pthread_join(prod, NULL);
	pthread_join(cons, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);

	st = ring_stats(t);
	print_message("# stress: %" PRIu64 " records in %.2f s: %" PRIu64
		      " delivered, %" PRIu64 " lost in %" PRIu64
		      " LOST records, %" PRIu64 " straddled, reader idle %"
		      PRIu64 " times\n",
		      s->nr, (double)(t1.tv_sec - t0.tv_sec) +
		      (t1.tv_nsec - t0.tv_nsec) / 1e9, (u64)st.delivered,
		      (u64)st.lost, s->c.nr_lost, s->c.straddled,
		      s->empty_polls);
	assert_consumer_ok(&s->c);
	assert_int_equal(st.generated, s->nr);
	assert_int_equal(st.samples, s->nr);
	assert_int_equal(st.generated, st.delivered + st.lost);
	assert_int_equal(st.delivered, s->c.nr_recs);
	/* Every gap was told, but for the losses after the last record. */
	assert_int_equal(s->c.lost_since, 0);
	assert_int_equal(st.lost, s->c.lost_told + st.lost_unreported);
	assert_int_equal(s->nr - s->c.next_seq, st.lost_unreported);
	assert_int_equal(st.wakeups, s->trues);
	assert_int_equal(data_head(t), data_tail(t));
	/* It did overflow, often, and kept delivering. */
	assert_true(s->c.nr_lost > 100);
	assert_true(s->c.nr_recs > s->nr / 100);
	assert_true(s->c.straddled > 100);
}

/*
 * A hold (the PMI's drain of a PEBS buffer) publishes its burst once, at
 * its end, with one wakeup; records and accounting are as if written one
 * by one, a full ring drops and reports as usual, and a hold inside an
 * outer writer leaves publishing to that writer.
 */
static void test_hold_burst(void **state)
{
	struct ring *t = ring_new(state, RING_4K, 64);
	struct consumer c;
	void *outer;
	u64 seq;

	consumer_init(&c, t, true);
	skd_ring_hold(&t->core);
	for (seq = 0; seq < 4; seq++)
		assert_true(emit(t, 64, seq));
	/* Written and counted, not yet visible: the hold is the outer one. */
	assert_int_equal(data_head(t), 0);
	assert_int_equal(nest_depth(t), 1);
	assert_int_equal(ring_stats(t).delivered, 4);
	assert_int_equal(ring_stats(t).wakeups, 0);
	assert_true(skd_ring_end(&t->core, false));
	assert_int_equal(data_head(t), 4 * 64);
	assert_int_equal(nest_depth(t), 0);
	assert_int_equal(ring_stats(t).wakeups, 1);
	assert_int_equal(ring_stats(t).generated, 4);

	/* A burst that overflows the ring: drops counted, LOST after reading. */
	skd_ring_hold(&t->core);
	for (seq = 4; seq < 4 + 80; seq++)
		emit(t, 64, seq);
	assert_false(skd_ring_end(&t->core, false));	/* woken already */
	assert_accounting(t);
	assert_int_equal(ring_stats(t).delivered, RING_4K / 64);
	assert_int_equal(ring_stats(t).lost, 4 + 80 - RING_4K / 64);
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.nr_recs, RING_4K / 64);
	assert_true(emit(t, 64, 4 + 80));
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_int_equal(c.lost_told, 4 + 80 - RING_4K / 64);
	assert_int_equal(ring_stats(t).lost_unreported, 0);

	/* Inside an outer writer: the outer one publishes everything. */
	outer = skd_ring_begin(&t->core, 64, 85, SKD_RING_SAMPLE);
	assert_non_null(outer);
	skd_ring_hold(&t->core);
	assert_true(emit(t, 64, 86));
	assert_false(skd_ring_end(&t->core, false));
	assert_int_equal(data_head(t), data_tail(t));
	write_rec(outer, 64, 85);
	skd_ring_end(&t->core, true);
	assert_int_equal(data_head(t) - data_tail(t), 2 * 64);
	assert_int_equal(nest_depth(t), 0);
	drain(t, &c);
	assert_consumer_ok(&c);
	assert_accounting(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define RING_TEST(fn) cmocka_unit_test_teardown(fn, ring_teardown)
		RING_TEST(test_init_and_mapping),
		RING_TEST(test_roundtrip_offsets),
		RING_TEST(test_wrap_many_laps),
		RING_TEST(test_wrap_u64_boundary),
		RING_TEST(test_exact_fit),
		RING_TEST(test_full_drops_then_lost),
		RING_TEST(test_lost_deferred),
		RING_TEST(test_nest_inner_in_middle),
		RING_TEST(test_nest_three_levels),
		RING_TEST(test_nest_inner_dropped),
		RING_TEST(test_nest_outer_dropped),
		RING_TEST(test_nest_outer_carries_lost),
		RING_TEST(test_irq_after_publish),
		RING_TEST(test_irq_after_nest_drop),
		RING_TEST(test_irq_races_reservation),
		RING_TEST(test_irq_race_fills_ring),
		RING_TEST(test_irq_after_pending_taken),
		RING_TEST(test_lying_tail_ahead),
		RING_TEST(test_lying_tail_behind),
		RING_TEST(test_lying_tail_fuzz),
		RING_TEST(test_watermark_no_lost_wakeup),
		RING_TEST(test_watermark_lagging_reader),
		RING_TEST(test_watermark_default),
		RING_TEST(test_watermark_custom),
		RING_TEST(test_watermark_stopped_reader),
		RING_TEST(test_watermark_nested),
		RING_TEST(test_watermark_republish_counts_once),
		RING_TEST(test_unread),
		RING_TEST(test_stats),
		RING_TEST(test_concurrent),
		RING_TEST(test_hold_burst),
#undef RING_TEST
	};

	return cmocka_run_group_tests_name("ring", tests, NULL, NULL);
}
