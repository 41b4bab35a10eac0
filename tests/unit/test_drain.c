// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the PEBS drain (kmod/intel/drain.c) with the record
 * writer and ring it feeds, built unchanged against bench/kernel's
 * stand-ins (the same build bench/run.sh measures). Records are laid out
 * here from the SDM's tables (Vol. 3B, "PEBS Record Format", "Adaptive
 * PEBS"); what a sample must carry comes from the same tables and from
 * Linux's drain (arch/x86/events/intel/ds.c), never from drain.c:
 *
 *   - a record's time is its own TSC converted at tsc_khz and placed on
 *     the drain's clock (ds.c setup_pebs_time()), not the drain's time;
 *   - Golden Cove's two latencies are flagged SKD_MEM_LAT_SPLIT;
 *   - the LBR read at a PMI belongs to that PMI's record only: a drain
 *     outside the PMI (stop, context switch) attaches none;
 *   - a record whose status names no counter is given to the only PEBS
 *     counter below format 3 only (ds.c: "PEBS is racing with clearing
 *     of GLOBAL_STATUS"); from format 3 it names no sample.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/hardirq.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <asm/ptrace.h>
#include <asm/tsc.h>

#include "record.h"
#include "ring.h"
#include "run.h"
#include "session.h"

/* Format 1-3 records: u64 slots (SDM "PEBS Record Format"). */
enum {
	F_FLAGS, F_IP, F_AX, F_R15 = F_AX + 15,
	F_STATUS, F_DLA, F_DSE, F_LAT,		/* format 1: 22 slots */
	F_REAL_IP, F_TSX,			/* format 2: 24 */
	F_TSC,					/* format 3: 25 */
};
static const unsigned int fmt_slots[] = { [1] = 22, [2] = 24, [3] = 25 };

/* Adaptive PEBS basic and memory-info groups (SDM "Adaptive PEBS"). */
enum { B_FORMAT_SIZE, B_IP, B_APPLICABLE, B_TSC, B_NR };
enum { M_ADDRESS, M_AUX, M_LATENCY, M_TSX, M_NR };
#define MEMINFO_GROUP		1ULL		/* PEBS_DATA_CFG bit 0 */
#define ADAPTIVE_BYTES		((B_NR + M_NR) * 8)

#define PERIOD			10007
#define RING_BYTES		(64 * 1024)

struct drain_fixture {
	struct skd_session s;
	struct skd_ring ring;
	struct skd_ring *rings[1];
	struct pid_namespace ns;
	struct pid pid, tgid;
	struct signal_struct sig;
	struct task_struct task;
	struct skd_pmu_session ps;
	struct skd_pmu_cpu *pc;
	struct pt_regs regs;
	u8 *pebs;
	u8 *data;
	u64 at;			/* bytes written into the PEBS buffer */
	u64 read;		/* ring bytes already looked at */
};

static void *zalloc(size_t size)
{
	void *p = aligned_alloc(4096, (size + 4095) / 4096 * 4096);

	assert_non_null(p);
	return memset(p, 0, size);
}

/*
 * One PEBS event on GP counter 0 of a CPU with PEBS format @fmt (4:
 * adaptive, with the memory group), recording @lbr_nr branches per PMI.
 */
static struct drain_fixture *fixture(u32 fmt, u32 lbr_nr)
{
	struct drain_fixture *f = zalloc(sizeof(*f));
	struct skd_pmu_plan *p = &f->ps.plan;

	f->pid.numbers[0] = (struct upid){ .nr = 7, .ns = &f->ns };
	f->tgid.numbers[0] = (struct upid){ .nr = 7, .ns = &f->ns };
	f->sig.pids[PIDTYPE_TGID] = &f->tgid;
	f->task.thread_pid = &f->pid;
	f->task.signal = &f->sig;
	skd_bench_current_task = &f->task;

	f->data = zalloc(RING_BYTES);
	skd_ring_core_init(&f->ring.core, zalloc(4096), f->data, RING_BYTES,
			   RING_BYTES, 0);
	f->rings[0] = &f->ring;
	f->s.rings = f->rings;
	f->s.pid_ns = &f->ns;
	f->s.state = SKD_SESSION_RUNNING;
	f->s.cfg.branch_sample = lbr_nr ? SKD_BRANCH_ANY : 0;

	f->ps.s = &f->s;
	f->ps.caps.pebs_fmt = fmt;
	f->ps.caps.flags = SKD_PMU_USABLE | SKD_PMU_PEBS |
			   (fmt >= 4 ? SKD_PMU_PEBS_BASELINE : 0) |
			   (lbr_nr ? SKD_PMU_LBR : 0);
	f->ps.caps.lbr_nr = lbr_nr;
	p->nr = 1;
	p->ev[0].idx = 0;
	p->ev[0].period = PERIOD;
	p->ev[0].precise = 2;
	p->ev[0].flags = SKD_PLAN_PEBS | SKD_PLAN_EXACT | SKD_PLAN_DATA_LA |
			 SKD_PLAN_LDLAT;
	p->global_ctrl = 1;
	p->pebs_enable = 1;
	p->pebs_counters = 1;
	p->lbr_nr = lbr_nr;
	p->pebs_record_size = fmt >= 4 ? ADAPTIVE_BYTES : fmt_slots[fmt] * 8;
	p->pebs_max_records = 64;
	p->pebs_threshold_records = 1;

	f->pc = zalloc(sizeof(*f->pc));
	f->pc->ps = &f->ps;
	f->pc->running = true;
	f->pc->task_in = true;
	f->pc->period[0] = PERIOD;
	f->pc->ds = zalloc(4096);
	f->pebs = zalloc(64 * ADAPTIVE_BYTES * 2);
	f->pc->pebs_buf = f->pebs;
	f->pc->ds[SKD_DS_U64(SKD_DS_PEBS_BASE)] = (u64)f->pebs;
	f->pc->ds[SKD_DS_U64(SKD_DS_PEBS_INDEX)] = (u64)f->pebs;
	f->pc->ds[SKD_DS_U64(SKD_DS_PEBS_MAX)] = (u64)f->pebs +
						 64 * p->pebs_record_size;
	f->regs.ip = 0x401000;
	f->regs.cs = 0x33;
	return f;
}

static void fixture_free(struct drain_fixture *f)
{
	free(f->pc->ds);
	free(f->pc);
	free(f->pebs);
	free(f->ring.core.ctrl);
	free(f->data);
	free(f);
	skd_bench_current_task = NULL;
}

static void put64(u8 *rec, unsigned int slot, u64 v)
{
	memcpy(rec + 8 * slot, &v, sizeof(v));
}

/* Append a record: @status the counters it names, @tsc its TSC. */
static void add_record(struct drain_fixture *f, u64 ip, u64 status, u64 tsc,
		       u64 latency)
{
	u32 fmt = f->ps.caps.pebs_fmt;
	u8 *rec = f->pebs + f->at;

	if (fmt >= 4) {
		put64(rec, B_FORMAT_SIZE, (u64)ADAPTIVE_BYTES << 48 |
		      MEMINFO_GROUP);
		put64(rec, B_IP, ip);
		put64(rec, B_APPLICABLE, status);
		put64(rec, B_TSC, tsc);
		rec += B_NR * 8;
		put64(rec, M_ADDRESS, 0x7ffd1000);
		put64(rec, M_AUX, 0x1c2);
		put64(rec, M_LATENCY, latency);
	} else {
		put64(rec, F_FLAGS, 0x246);
		/* Format 1 has only the next instruction's IP. */
		put64(rec, F_IP, fmt >= 2 ? ip + 2 : ip);
		put64(rec, F_STATUS, status);
		put64(rec, F_LAT, latency);
		if (fmt >= 2)
			put64(rec, F_REAL_IP, ip);
		if (fmt >= 3)
			put64(rec, F_TSC, tsc);
	}
	f->at += f->ps.plan.pebs_record_size;
}

/* Drain what was added, in the PMI (@regs) or outside it (NULL). */
static void drain(struct drain_fixture *f, bool in_pmi)
{
	f->pc->ds[SKD_DS_U64(SKD_DS_PEBS_INDEX)] = (u64)f->pebs + f->at;
	if (in_pmi)
		skd_bench_preempt_count = NMI_OFFSET + HARDIRQ_OFFSET;
	skd_ds_drain(f->pc, in_pmi ? &f->regs : NULL);
	skd_bench_preempt_count = 0;
	assert_int_equal(f->pc->ds[SKD_DS_U64(SKD_DS_PEBS_INDEX)],
			 (u64)f->pebs);
	f->at = 0;
}

/* The next sample in the ring, or NULL. */
static const struct skd_rec_sample *next_sample(struct drain_fixture *f)
{
	u64 head = __atomic_load_n(&f->ring.core.ctrl->data_head,
				   __ATOMIC_ACQUIRE);
	const struct skd_rec_sample *r;

	while (f->read < head) {
		r = (const void *)(f->data + f->read);
		f->read += r->hdr.size;
		if (r->hdr.type == SKD_REC_SAMPLE)
			return r;
	}
	return NULL;
}

/* What follows the sample's fixed part: memory info first. */
static const struct skd_sample_mem *sample_mem(const struct skd_rec_sample *r)
{
	return r->fields & SKD_SAMPLE_MEM ? (const void *)(r + 1) : NULL;
}

static const struct skd_branches *sample_branches(const struct skd_rec_sample *r)
{
	const u8 *tail = (const u8 *)(r + 1);

	if (!(r->fields & SKD_SAMPLE_BRANCHES))
		return NULL;
	if (r->fields & SKD_SAMPLE_MEM)
		tail += sizeof(struct skd_sample_mem);
	return (const void *)tail;
}

/*
 * Every record of a large-PEBS drain is stamped with its own time (ds.c
 * setup_pebs_time()), not the drain's. Two records @gap TSC ticks apart must be gap / tsc_khz
 * milliseconds apart, and the last one no later than the drain.
 */
static void test_record_time_from_tsc(void **state)
{
	struct drain_fixture *f = fixture(4, 0);
	const u64 gap = 3000000;		/* 1.5 ms at 2 GHz */
	const u64 gap_ns = gap * 1000000 / tsc_khz;
	const struct skd_rec_sample *a, *b;
	u64 before, after, now, slack_ns;

	(void)state;
	f->ps.tsc_time = true;
	f->ps.plan.large_pebs = true;
	skd_pmu_drain_setup(&f->ps);
	now = rdtsc();
	add_record(f, 0x401000, 1, now - 2 * gap, 40);
	add_record(f, 0x401010, 1, now - gap, 40);
	before = ktime_get_mono_fast_ns();
	drain(f, true);
	after = ktime_get_mono_fast_ns();
	/* How long before the drain's own TSC read ours was, at most. */
	slack_ns = (rdtsc() - now) * 1000000 / tsc_khz;
	a = next_sample(f);
	b = next_sample(f);
	assert_non_null(a);
	assert_non_null(b);
	assert_null(next_sample(f));
	/* Rounding of each conversion: within 2 ns of the gap. */
	assert_true(b->id.time > a->id.time);
	assert_in_range(b->id.time - a->id.time, gap_ns - 2, gap_ns + 2);
	/* On the drain's clock: two gaps, and a little, before the drain. */
	assert_true(a->id.time + 2 * gap_ns <= after + 2);
	assert_true(a->id.time + 2 * gap_ns + slack_ns + 2 >= before);
	fixture_free(f);
}

/*
 * A record whose TSC is ahead of the drain's (another CPU's, or garbage)
 * cannot be placed: it gets the drain's time, not a wrapped one.
 */
static void test_record_time_future_tsc(void **state)
{
	struct drain_fixture *f = fixture(4, 0);
	const struct skd_rec_sample *r;
	u64 before, after;

	(void)state;
	f->ps.tsc_time = true;
	skd_pmu_drain_setup(&f->ps);
	add_record(f, 0x401000, 1, rdtsc() + (1ULL << 40), 40);
	before = ktime_get_mono_fast_ns();
	drain(f, true);
	after = ktime_get_mono_fast_ns();
	r = next_sample(f);
	assert_non_null(r);
	assert_in_range(r->id.time, before, after);
	fixture_free(f);
}

/*
 * Golden Cove's latency word holds two fields (struct pebs_meminfo in
 * arch/x86/include/asm/perf_event.h, "Alder Lake and later"); the
 * sample says so when the plan does (Alder Lake and later), and only
 * then. The raw word is passed on unchanged either way.
 */
static void test_latency_split_flag(void **state)
{
	const u64 word = (77ULL << 32) | 12;	/* cache 77, instruction 12 */
	bool split;

	(void)state;
	for (split = false; ; split = true) {
		struct drain_fixture *f = fixture(4, 0);
		const struct skd_sample_mem *m;
		const struct skd_rec_sample *r;

		f->ps.plan.lat_split = split;
		skd_pmu_drain_setup(&f->ps);
		add_record(f, 0x401000, 1, 0, word);
		drain(f, true);
		r = next_sample(f);
		assert_non_null(r);
		m = sample_mem(r);
		assert_non_null(m);
		assert_int_equal(m->latency, word);
		assert_int_equal(!!(m->flags & SKD_MEM_LAT_SPLIT), split);
		fixture_free(f);
		if (split)
			break;
	}
}

/*
 * Single-record PEBS with the LBR read at the PMI (ds.c: the LBR is
 * read for the PMI's record, setup_pebs_fixed_sample_data()).
 * In the PMI the record gets that LBR; drained at stop or at a context
 * switch (no PMI) it gets none, not the stack of the last PMI.
 */
static void test_no_stale_lbr_outside_pmi(void **state)
{
	struct drain_fixture *f = fixture(3, 4);
	const struct skd_branches *br;
	const struct skd_rec_sample *r;
	unsigned int e;

	(void)state;
	skd_pmu_drain_setup(&f->ps);
	for (e = 0; e < 4; e++) {
		f->pc->lbr[e].from = 0x401100 + 16 * e;
		f->pc->lbr[e].to = 0x401200 + 16 * e;
	}
	f->pc->nr_lbr = 4;

	add_record(f, 0x401000, 1, 0, 0);
	drain(f, true);
	r = next_sample(f);
	assert_non_null(r);
	br = sample_branches(r);
	assert_non_null(br);
	assert_int_equal(br->nr, 4);
	assert_int_equal(br->entries[3].from, 0x401130);

	add_record(f, 0x401040, 1, 0, 0);
	drain(f, false);
	r = next_sample(f);
	assert_non_null(r);
	assert_int_equal(r->ip, 0x401040);
	assert_null(sample_branches(r));
	fixture_free(f);
}

/*
 * A record naming no counter (ds.c intel_pmu_drain_pebs_nhm()). Formats 1 and 2 may
 * lose the race with the status reset; with one PEBS counter the record
 * is that counter's. From format 3 the field is exact and such a record
 * is not a sample of ours.
 */
static void test_no_counter_fallback_below_fmt3(void **state)
{
	u32 fmt;

	(void)state;
	for (fmt = 1; fmt <= 4; fmt++) {
		struct drain_fixture *f = fixture(fmt, 0);
		const struct skd_rec_sample *r;

		skd_pmu_drain_setup(&f->ps);
		add_record(f, 0x401000, 0, 0, 0);
		add_record(f, 0x401080, 1, 0, 0);
		drain(f, true);
		r = next_sample(f);
		assert_non_null(r);
		if (fmt < 3) {
			assert_int_equal(r->ip, 0x401000);
			r = next_sample(f);
			assert_non_null(r);
		}
		assert_int_equal(r->ip, 0x401080);
		assert_null(next_sample(f));
		fixture_free(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_time_from_tsc),
		cmocka_unit_test(test_record_time_future_tsc),
		cmocka_unit_test(test_latency_split_flag),
		cmocka_unit_test(test_no_stale_lbr_outside_pmi),
		cmocka_unit_test(test_no_counter_fallback_below_fmt3),
	};

	return cmocka_run_group_tests_name("drain", tests, NULL, NULL);
}
