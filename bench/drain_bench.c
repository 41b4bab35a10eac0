// SPDX-License-Identifier: GPL-2.0
/*
 * What one sample costs from DS record to ring record: the module's own
 * drain (kmod/intel/drain.c), record writer (kmod/record.c), ring
 * (kmod/ring_core.c) and decoders (kmod/intel/pebs.c, lbr_decode.c),
 * built unchanged against the stand-ins in bench/kernel/ and fed PEBS
 * records written here field by field from the format tables of
 * the SDM (Vol. 3B, "PEBS Record Format", "Adaptive PEBS", "LBR Stack"),
 * not by the module's code.
 *
 *   drain_bench CASE [RECORDS]          drain RECORDS records, check them
 *   drain_bench --peer CASE [RECORDS]   memcpy() each record instead
 *   drain_bench --list                  the cases, one per line
 *
 * bench/run.sh runs both under callgrind, collecting only inside
 * skd_ds_drain() resp. peer_copy(), and divides by RECORDS.
 *
 * The buffer is drained the way the PMI drains it: in large-PEBS cases a
 * threshold's worth of records per drain, as plan.c sizes it for the
 * module's 64 KiB buffer; in the single-record case one record per drain.
 * Every drain runs with the NMI bits of the preempt count set, as in the
 * PMI. After the run the ring is decoded and every record checked; any
 * mismatch exits 1.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/hardirq.h>
#include <linux/sched.h>
#include <asm/ptrace.h>

#include "models.h"
#include "record.h"
#include "ring.h"
#include "run.h"
#include "session.h"

/* The module's PEBS buffer per CPU (intel/backend.c). */
#define PEBS_BUFFER_BYTES	(64 * 1024)
#define DEFAULT_RECORDS		1000
#define SAMPLE_PERIOD		100003
/* u64 here is the shim's, __u64 the uapi's: print both as this. */
#define ULL(x)			((unsigned long long)(x))

/*
 * PEBS record layouts, from the reference tables rather than pebs.c.
 * Format 3 (4.1): u64 slots flags, ip, ax, bx, cx, dx, si, di, bp, sp,
 * r8-r15, status, dla, dse, lat (format 1), real_ip, tsx_tuning (2), tsc.
 */
enum {
	F3_FLAGS, F3_IP, F3_AX, F3_R15 = F3_AX + 15,
	F3_STATUS, F3_DLA, F3_DSE, F3_LAT, F3_REAL_IP, F3_TSX, F3_TSC,
	F3_NR,
};

/* Adaptive groups (4.6): basic, memory info, LBR entries. */
enum { BASIC_FORMAT_SIZE, BASIC_IP, BASIC_APPLICABLE, BASIC_TSC, BASIC_NR };
enum { MEMINFO_ADDRESS, MEMINFO_AUX, MEMINFO_LATENCY, MEMINFO_TSX,
	MEMINFO_NR };
enum { LBR_FROM, LBR_TO, LBR_INFO, LBR_NR };

/* format_size: record bytes in 63:48, groups as MSR_PEBS_DATA_CFG has them. */
#define GROUP_MEMINFO		BIT_ULL(0)
#define GROUP_LBR		BIT_ULL(3)
#define GROUP_LBR_ENTRIES(n)	((u64)((n) - 1) << 24)
#define RECORD_SIZE(bytes)	((u64)(bytes) << 48)

/* Arch LBR INFO (5.1): mispredicted 63, cycles valid 60, type 59:56. */
#define ARCH_INFO_MISPRED	BIT_ULL(63)
#define ARCH_INFO_CYC_VALID	BIT_ULL(60)
#define ARCH_INFO_TYPE(t)	((u64)(t) << 56)

struct bench_case {
	const char *name;
	const char *what;
	u32 pebs_fmt;
	u32 pmu_flags;		/* caps.flags: SKD_PMU_* */
	u32 idx;		/* the event's counter, SKD_IDX_* */
	u32 ev_flags;		/* SKD_PLAN_* besides PEBS and EXACT */
	bool meminfo;		/* adaptive: memory-info group */
	u32 lbr_record;		/* adaptive: LBR entries in the record */
	u32 lbr_pmi;		/* LBR entries read at the PMI */
};

static const struct bench_case cases[] = {
	{
		.name = "basic",
		.what = "(a) basic PEBS record: format 4, basic group only (Ice Lake)",
		.pebs_fmt = 4, .pmu_flags = SKD_PMU_PEBS_BASELINE,
		.idx = 0,
	}, {
		.name = "fmt3",
		.what = "(b) format 3 record, 0xc8 bytes (Skylake)",
		.pebs_fmt = 3, .idx = 1,
	}, {
		.name = "lbr-record",
		.what = "(c) format 5, 32-entry arch LBR group (Sapphire Rapids)",
		.pebs_fmt = 5,
		.pmu_flags = SKD_PMU_PEBS_BASELINE | SKD_PMU_ARCH_LBR,
		.idx = SKD_IDX_FIXED(0), .lbr_record = 32,
	}, {
		.name = "pmi-lbr",
		.what = "(d) format 3, one per PMI, 32 LBRs read at the PMI (Skylake)",
		.pebs_fmt = 3, .pmu_flags = SKD_PMU_LBR,
		.idx = 1, .lbr_pmi = 32,
	}, {
		.name = "meminfo",
		.what = "(e) format 4, memory-info group, load latency (Ice Lake)",
		.pebs_fmt = 4, .pmu_flags = SKD_PMU_PEBS_BASELINE,
		.idx = 1, .ev_flags = SKD_PLAN_LDLAT | SKD_PLAN_DATA_LA,
		.meminfo = true,
	},
};

struct bench {
	const struct bench_case *c;
	u32 in;			/* DS record bytes */
	u32 out;		/* ring record bytes */
	u32 batch;		/* records per drain */
	unsigned long nr;	/* records in the run */

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
	u8 *pebs;		/* the PEBS buffer */
	u8 *data;		/* ring data */
	u8 *copy;		/* the peer's destination */
	u64 ring_size;
};

static void __printf(1, 2) __noreturn die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("drain_bench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void *zalloc(size_t align, size_t size)
{
	void *p = aligned_alloc(align, (size + align - 1) / align * align);

	if (!p)
		die("out of memory");
	return memset(p, 0, size);
}

static void put64(u8 *rec, unsigned int slot, u64 v)
{
	memcpy(rec + 8 * slot, &v, sizeof(v));
}

/* Sample @i's eventing IP: user and kernel addresses in turn. */
static u64 ip_of(unsigned long i)
{
	return (i & 1 ? 0xffffffff81000000ULL : 0x401000ULL) + 4 * i;
}

static u64 counter_bit(u32 idx)
{
	return SKD_IDX_IS_FIXED(idx) ? 1ULL << (32 + idx - SKD_IDX_FIXED(0)) :
				       1ULL << idx;
}

static u64 lbr_from(unsigned long i, unsigned int e)
{
	return 0x7f0000001000ULL + (i << 12) + 16 * e;
}

static u64 lbr_to(unsigned long i, unsigned int e)
{
	return 0x7f0000800000ULL + (i << 12) + 16 * e;
}

/* Raw arch LBR INFO of entry @e: some mispredicted, cycles, a type. */
static u64 lbr_info_raw(unsigned int e)
{
	return (e % 3 == 0 ? ARCH_INFO_MISPRED : 0) | ARCH_INFO_CYC_VALID |
	       ARCH_INFO_TYPE(e % 6) | (10 + e);
}

/* What the ring should carry for it (uapi SKD_BR_INFO_* layout). */
static u64 lbr_info_abi(unsigned int e)
{
	return lbr_info_raw(e) | SKD_BR_INFO_TYPE_VALID;
}

static void write_record(const struct bench *b, u8 *rec, unsigned long i)
{
	const struct bench_case *c = b->c;
	u64 tsc = 1000000 + 100 * i;
	unsigned int e, g;

	memset(rec, 0, b->in);
	if (c->pebs_fmt == 3) {
		put64(rec, F3_FLAGS, 0x246);
		put64(rec, F3_IP, ip_of(i) + 3);	/* the next instruction */
		for (g = F3_AX; g <= F3_R15; g++)
			put64(rec, g, 0x1000 * g + i);
		put64(rec, F3_STATUS, counter_bit(c->idx));
		put64(rec, F3_DLA, 0x7ffd0000 + 8 * i);
		put64(rec, F3_DSE, 0x1);
		put64(rec, F3_LAT, 0);
		put64(rec, F3_REAL_IP, ip_of(i));
		put64(rec, F3_TSX, 0);
		put64(rec, F3_TSC, tsc);
		return;
	}
	put64(rec, BASIC_FORMAT_SIZE, RECORD_SIZE(b->in) |
	      (c->meminfo ? GROUP_MEMINFO : 0) |
	      (c->lbr_record ? GROUP_LBR |
	       GROUP_LBR_ENTRIES(c->lbr_record) : 0));
	put64(rec, BASIC_IP, ip_of(i));
	put64(rec, BASIC_APPLICABLE, counter_bit(c->idx));
	put64(rec, BASIC_TSC, tsc);
	rec += BASIC_NR * 8;
	if (c->meminfo) {
		put64(rec, MEMINFO_ADDRESS, 0x7ffd0000 + 8 * i);
		put64(rec, MEMINFO_AUX, 0x1c2);
		put64(rec, MEMINFO_LATENCY, 30 + i % 200);
		put64(rec, MEMINFO_TSX, 0);
		rec += MEMINFO_NR * 8;
	}
	for (e = 0; e < c->lbr_record; e++, rec += LBR_NR * 8) {
		put64(rec, LBR_FROM, lbr_from(i, e));
		put64(rec, LBR_TO, lbr_to(i, e));
		put64(rec, LBR_INFO, lbr_info_raw(e));
	}
}

static void setup(struct bench *b, const struct bench_case *c,
		  unsigned long nr)
{
	struct skd_pmu_plan *p = &b->ps.plan;
	struct skd_planned_event *ev = &p->ev[0];
	unsigned int e;

	memset(b, 0, sizeof(*b));
	b->c = c;
	b->nr = nr;
	b->in = c->pebs_fmt == 3 ? F3_NR * 8 :
		BASIC_NR * 8 + (c->meminfo ? MEMINFO_NR * 8 : 0) +
		c->lbr_record * LBR_NR * 8;
	b->out = sizeof(struct skd_rec_sample);
	if (c->ev_flags & (SKD_PLAN_DATA_LA | SKD_PLAN_LDLAT))
		b->out += sizeof(struct skd_sample_mem);
	if (c->lbr_record || c->lbr_pmi)
		b->out += sizeof(struct skd_branches) +
			  (c->lbr_record + c->lbr_pmi) *
			  sizeof(struct skd_branch_entry);

	/* The current task: pid 4242 of process 4240, in the root ns. */
	b->pid.numbers[0] = (struct upid){ .nr = 4242, .ns = &b->ns };
	b->tgid.numbers[0] = (struct upid){ .nr = 4240, .ns = &b->ns };
	b->sig.pids[PIDTYPE_TGID] = &b->tgid;
	b->task.thread_pid = &b->pid;
	b->task.signal = &b->sig;
	skd_bench_current_task = &b->task;

	/*
	 * The session and this CPU's ring, big enough never to wrap, waking
	 * the reader once half the samples are in.
	 */
	for (b->ring_size = 4096; b->ring_size < nr * b->out + 4096;)
		b->ring_size *= 2;
	b->data = zalloc(4096, b->ring_size);
	b->copy = zalloc(4096, nr * b->in);
	skd_ring_core_init(&b->ring.core, zalloc(4096, 4096), b->data,
			   b->ring_size, (nr + 1) / 2 * b->out, 0);
	b->rings[0] = &b->ring;
	b->s.rings = b->rings;
	b->s.pid_ns = &b->ns;
	b->s.state = SKD_SESSION_RUNNING;
	b->s.cfg.callchain_depth = 0;
	b->s.cfg.branch_sample = c->lbr_record || c->lbr_pmi ?
				 SKD_BRANCH_ANY : 0;

	/* One PEBS event, planned as plan.c would for this case. */
	b->ps.s = &b->s;
	b->ps.caps.pebs_fmt = c->pebs_fmt;
	b->ps.caps.flags = SKD_PMU_USABLE | SKD_PMU_PEBS | c->pmu_flags;
	b->ps.caps.lbr_nr = c->lbr_record + c->lbr_pmi;
	/* Arch LBR with every INFO field: mispredict, cycles, type. */
	b->ps.caps.arch_lbr_ecx = 0x7;
	p->nr = 1;
	ev->idx = c->idx;
	ev->period = SAMPLE_PERIOD;
	ev->precise = 2;
	ev->flags = c->ev_flags | SKD_PLAN_PEBS |
		    SKD_PLAN_EXACT;
	ev->event = 0;
	p->global_ctrl = counter_bit(c->idx);
	p->pebs_enable = p->global_ctrl;
	p->pebs_counters = p->global_ctrl;
	p->lbr_nr = b->ps.caps.lbr_nr;
	p->lbr_from_record = c->lbr_record != 0;
	p->pebs_record_size = b->in;
	p->pebs_max_records = PEBS_BUFFER_BYTES / b->in;
	p->large_pebs = !c->lbr_pmi;
	p->pebs_threshold_records = p->large_pebs ?
				    p->pebs_max_records - p->nr : 1;
	p->exact_ip = true;
	skd_pmu_drain_setup(&b->ps);
	b->batch = p->pebs_threshold_records;

	/* This CPU: DS area, buffer, and the LBRs the PMI would have read. */
	b->pc = zalloc(64, sizeof(*b->pc));
	b->pc->ps = &b->ps;
	b->pc->running = true;
	b->pc->task_in = true;
	b->pc->period[0] = SAMPLE_PERIOD;
	b->pc->ds = zalloc(4096, 4096);
	b->pebs = zalloc(4096, PEBS_BUFFER_BYTES);
	b->pc->pebs_buf = b->pebs;
	b->pc->ds[SKD_DS_U64(SKD_DS_PEBS_BASE)] = (u64)b->pebs;
	b->pc->ds[SKD_DS_U64(SKD_DS_PEBS_INDEX)] = (u64)b->pebs;
	b->pc->ds[SKD_DS_U64(SKD_DS_PEBS_MAX)] =
		(u64)b->pebs + (u64)p->pebs_max_records * b->in;
	b->pc->ds[SKD_DS_U64(SKD_DS_PEBS_THRESHOLD)] =
		(u64)b->pebs + (u64)p->pebs_threshold_records * b->in;
	for (e = 0; e < c->lbr_pmi; e++) {
		b->pc->lbr[e].from = 0xffffffff81100000ULL + 16 * e;
		b->pc->lbr[e].to = 0xffffffff81200000ULL + 16 * e;
		b->pc->lbr[e].info = SKD_BR_INFO_CYC_VALID | (5 + e);
	}
	b->pc->nr_lbr = c->lbr_pmi;

	/* The context the PMI interrupted: kernel mode. */
	b->regs.ip = ip_of(1);
	b->regs.cs = 0x10;
}

/*
 * The peer: one plain memcpy() of each DS record's bytes, one after the
 * other into a buffer of its own. Only this function is collected in
 * --peer runs.
 */
static noinline void peer_copy(u8 *dst, const u8 *src, unsigned long nr,
			       u32 size)
{
	unsigned long i;

	for (i = 0; i < nr; i++) {
		memcpy(dst, src, size);
		dst += size;
		src += size;
		/* One call per record, not one merged copy. */
		__asm__ __volatile__("" ::: "memory");
	}
}

static void run(struct bench *b, bool peer)
{
	u64 *ds = b->pc->ds;
	u8 *dst = b->copy;
	unsigned long done, k, i;

	for (done = 0; done < b->nr; done += k) {
		k = b->nr - done < b->batch ? b->nr - done : b->batch;
		for (i = 0; i < k; i++)
			write_record(b, b->pebs + i * b->in, done + i);
		if (peer) {
			peer_copy(dst, b->pebs, k, b->in);
			if (memcmp(dst, b->pebs, k * b->in))
				die("%s: peer copy differs", b->c->name);
			dst += k * b->in;
			continue;
		}
		ds[SKD_DS_U64(SKD_DS_PEBS_INDEX)] = (u64)b->pebs + k * b->in;
		/* The PMI: nmi_enter() raises the NMI and hardirq counts. */
		skd_bench_preempt_count = NMI_OFFSET + HARDIRQ_OFFSET;
		skd_ds_drain(b->pc, b->batch == 1 ? &b->regs : NULL);
		skd_bench_preempt_count = 0;
		if (ds[SKD_DS_U64(SKD_DS_PEBS_INDEX)] != (u64)b->pebs)
			die("%s: the drain left the PEBS index at +%llu",
			    b->c->name, ULL(ds[SKD_DS_U64(SKD_DS_PEBS_INDEX)] -
					    (u64)b->pebs));
		skd_bench_irq_work_run();
	}
}

static void check_branches(const struct bench *b, const u8 *tail,
			   unsigned long i)
{
	const struct skd_branches *br = (const void *)tail;
	const struct skd_branch_entry *en = br->entries;
	unsigned int e, nr = b->c->lbr_record + b->c->lbr_pmi;

	if (br->nr != nr || br->flags)
		die("sample %lu: %u branches, flags %#x; want %u, 0", i,
		    br->nr, br->flags, nr);
	for (e = 0; e < nr; e++) {
		u64 from = b->c->lbr_record ? lbr_from(i, e) :
			   b->pc->lbr[e].from;
		u64 to = b->c->lbr_record ? lbr_to(i, e) : b->pc->lbr[e].to;
		u64 info = b->c->lbr_record ? lbr_info_abi(e) :
			   b->pc->lbr[e].info;

		if (en[e].from != from || en[e].to != to || en[e].info != info)
			die("sample %lu branch %u: %#llx -> %#llx info %#llx",
			    i, e, ULL(en[e].from), ULL(en[e].to),
			    ULL(en[e].info));
	}
}

/* Decode the ring: exactly one sample per record, in order, intact. */
static void check(const struct bench *b)
{
	const struct skd_ring_ctrl *ctrl = b->ring.core.ctrl;
	u64 head = __atomic_load_n(&ctrl->data_head, __ATOMIC_ACQUIRE);
	bool mem = b->c->ev_flags & (SKD_PLAN_DATA_LA | SKD_PLAN_LDLAT);
	struct skd_cpu_stats st;
	unsigned long i = 0;
	u64 at;

	for (at = 0; at < head; at += b->out, i++) {
		const struct skd_rec_sample *r = (const void *)(b->data + at);
		const u8 *tail = (const u8 *)(r + 1);
		u16 mode = ip_of(i) >> 63 ? SKD_MISC_KERNEL : SKD_MISC_USER;
		u32 fields = (mem ? SKD_SAMPLE_MEM : 0) |
			     (b->c->lbr_record || b->c->lbr_pmi ?
			      SKD_SAMPLE_BRANCHES : 0);

		if (r->hdr.type != SKD_REC_SAMPLE || r->hdr.size != b->out)
			die("record %lu: type %u size %u; want a %u-byte sample",
			    i, r->hdr.type, r->hdr.size, b->out);
		if (r->ip != ip_of(i))
			die("sample %lu: ip %#llx, want %#llx", i,
			    ULL(r->ip), ULL(ip_of(i)));
		if (r->hdr.misc != (mode | SKD_MISC_EXACT_IP) ||
		    r->period != SAMPLE_PERIOD || r->event != 0 ||
		    r->fields != fields)
			die("sample %lu: misc %#x period %llu event %u fields %#x",
			    i, r->hdr.misc, ULL(r->period), r->event,
			    r->fields);
		if (r->id.pid != 4240 || r->id.tid != 4242 || r->id.cpu != 0)
			die("sample %lu: pid %u tid %u cpu %u", i, r->id.pid,
			    r->id.tid, r->id.cpu);
		if (mem) {
			const struct skd_sample_mem *m = (const void *)tail;

			if (m->addr != 0x7ffd0000 + 8 * i ||
			    m->source != 0x1c2 || m->latency != 30 + i % 200)
				die("sample %lu: memory info %#llx %#llx %llu",
				    i, ULL(m->addr), ULL(m->source),
				    ULL(m->latency));
			tail += sizeof(*m);
		}
		if (fields & SKD_SAMPLE_BRANCHES)
			check_branches(b, tail, i);
	}
	if (at != head)
		die("ring head %llu is not at a record boundary", ULL(head));
	if (i != b->nr)
		die("%lu samples in the ring, %lu records drained", i, b->nr);
	skd_ring_stats(&b->ring.core, &st);
	if (st.generated != b->nr || st.delivered != b->nr || st.lost ||
	    st.samples != b->nr)
		die("ring stats: generated %llu delivered %llu lost %llu samples %llu",
		    ULL(st.generated), ULL(st.delivered), ULL(st.lost),
		    ULL(st.samples));
	/* Half the samples in: the reader was woken, once. */
	if (skd_bench_irq_work_raised != 1)
		die("%lu reader wakeups, want 1", skd_bench_irq_work_raised);
	if (b->pc->window_samples != b->nr || b->pc->freq_samples[0] != b->nr)
		die("counted %u samples in the window, %u for the event",
		    b->pc->window_samples, b->pc->freq_samples[0]);
}

static const struct bench_case *find_case(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (!strcmp(cases[i].name, name))
			return &cases[i];
	die("no case `%s' (drain_bench --list)", name);
}

int main(int argc, char **argv)
{
	static struct bench b;
	unsigned long nr = DEFAULT_RECORDS;
	bool peer = false;
	size_t i;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < ARRAY_SIZE(cases); i++)
			printf("%s\t%s\n", cases[i].name, cases[i].what);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--peer")) {
		peer = true;
		argc--;
		argv++;
	}
	if (argc < 2 || argc > 3)
		die("usage: drain_bench [--peer] CASE [RECORDS] | --list");
	if (argc == 3) {
		char *end;

		nr = strtoul(argv[2], &end, 10);
		if (*end || !nr || nr > 1000000)
			die("RECORDS is 1..1000000, not `%s'", argv[2]);
	}

	setup(&b, find_case(argv[1]), nr);
	run(&b, peer);
	if (!peer)
		check(&b);
	printf("%s in=%u out=%u records=%lu per_drain=%u %s\n", b.c->name,
	       b.in, b.out, b.nr, b.batch, peer ? "copied" : "delivered");
	return 0;
}
