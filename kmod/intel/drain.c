// SPDX-License-Identifier: GPL-2.0
/*
 * PEBS records and counter overflows into ring records: the part of the
 * PMI that runs once per sample. The DS buffer is walked from its base to
 * its index, each record decoded (pebs.c, and lbr_decode.c for an LBR
 * group) and one SKD_REC_SAMPLE written per counter it applies to
 * (record.c).
 *
 * Runs in the PMI, or on the CPU with the PMU off: no locks, no
 * allocation. Kept apart from the DS area's memory and MSRs (ds.c) and
 * from the PMI's MSR work (pmi.c) so that bench/ builds this file
 * unchanged on the host and counts the instructions a sample costs.
 */
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/hardirq.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>

#include "lbr.h"
#include "models.h"
#include "pebs.h"
#include "record.h"
#include "run.h"
#include "session.h"

/* The planned event on counter @idx. */
static int event_on(const struct skd_pmu_plan *p, u32 idx)
{
	unsigned int i;

	for (i = 0; i < p->nr; i++)
		if (p->ev[i].idx == idx)
			return i;
	return -1;
}

/* Counter bit (GLOBAL_STATUS layout) to planned-event index. */
static u32 global_to_idx(unsigned int bit)
{
	return bit >= 32 ? SKD_IDX_FIXED(bit - 32) : bit;
}

/* Does the session sample the current task? */
static bool current_wanted(const struct skd_pmu_session *ps)
{
	return !ps->per_task || skd_session_wants_task(ps->s, current);
}

/*
 * One sample of event @ev from @d, which has all but the event's own
 * fields. Inlined: the drain runs it once per sample.
 */
static __always_inline void emit_sample(struct skd_pmu_cpu *pc,
					unsigned int ev,
					struct skd_sample_data *d)
{
	const struct skd_pmu_session *ps = pc->ps;

	d->period = pc->period[ev];
	d->event = ps->plan.ev[ev].event;
	pc->window_samples++;
	pc->freq_samples[ev]++;
	skd_record_emit_sample(ps->s, d);
}

static u16 branch_flags(const struct skd_pmu_session *ps)
{
	return ps->s->cfg.branch_sample & SKD_BRANCH_CALL_STACK ?
	       SKD_BR_CALL_STACK : 0;
}

void skd_pmu_emit(struct skd_pmu_cpu *pc, unsigned int ev, u64 ip,
		  bool exact, struct pt_regs *regs,
		  const struct skd_sample_mem *mem,
		  const struct skd_branch_entry *br, u32 nr_br)
{
	struct skd_task_ids ids;
	struct skd_sample_data d = {
		.ip = ip,
		.misc = pc->ps->misc | (exact ? SKD_MISC_EXACT_IP : 0),
		.regs = regs,
		.mem = mem,
		.branches = br,
		.nr_branches = nr_br,
		.branch_flags = branch_flags(pc->ps),
		.ids = &ids,
	};

	if (!current_wanted(pc->ps))
		return;
	skd_record_task_ids(pc->ps->s, current, &ids);
	emit_sample(pc, ev, &d);
}

/*
 * The time of a record from its TSC (formats 3 and later): the drain's
 * monotonic time minus the cycles since the record, as Linux's
 * setup_pebs_time() (ds.c) does with sched_clock. 0: use the drain's.
 */
static u64 record_time(const struct skd_pebs_rec *rec, u64 now_ns,
		       u64 now_tsc)
{
	u64 ago;

	if (!rec->has_tsc || rec->tsc > now_tsc)
		return 0;
	ago = mul_u64_u32_div(now_tsc - rec->tsc, 1000000, skd_tsc_khz());
	return ago < now_ns ? now_ns - ago : 0;
}

/*
 * The samples of one record. @d has the fields every record of the drain
 * shares and gets the record's own; @mem is room for its memory info.
 */
static void emit_record(struct skd_pmu_cpu *pc, const struct skd_pebs_rec *rec,
			struct skd_sample_data *d, struct skd_sample_mem *mem,
			bool in_pmi)
{
	const struct skd_pmu_session *ps = pc->ps;
	const struct skd_pmu_plan *p = &ps->plan;
	struct skd_branch_entry *br = pc->rec_lbr;
	const struct skd_branch_entry *branches = NULL;
	u64 bits = rec->applicable & p->pebs_counters;
	u32 nr_br = 0;
	unsigned int bit;
	int ev;

	/*
	 * Before format 3 the status field may name no counter while one is
	 * enabled (ds.c: "PEBS is racing with clearing of GLOBAL_STATUS");
	 * from format 3 on it is exact, and a record naming none is dropped.
	 */
	if (!bits && ps->caps.pebs_fmt < 3 && hweight64(p->pebs_counters) == 1)
		bits = p->pebs_counters;
	if (p->lbr_from_record && rec->nr_lbr) {
		nr_br = min_t(u32, rec->nr_lbr, SKD_MAX_LBR);
		skd_lbr_decode_record(rec->lbr, nr_br,
				      ps->caps.flags & SKD_PMU_ARCH_LBR,
				      ps->caps.arch_lbr_ecx, br);
		/* The group has its full size; valid entries end at a 0 FROM. */
		while (nr_br && !br[nr_br - 1].from)
			nr_br--;
		branches = br;
	} else if (p->lbr_nr && !p->large_pebs && in_pmi) {
		/* One record per PMI: the LBR read at this PMI is its LBR. */
		branches = pc->lbr;
		nr_br = pc->nr_lbr;
	}
	d->ip = rec->ip;
	d->branches = branches;
	d->nr_branches = nr_br;
	/* Lowest counter first, like for_each_set_bit(), in fewer steps. */
	while (bits) {
		bit = __ffs64(bits);
		bits &= bits - 1;
		ev = event_on(p, global_to_idx(bit));
		if (ev < 0)
			continue;
		/* Exact records are those of formats 2 and later: planned. */
		d->misc = ps->ev_misc[ev];
		d->mem = NULL;
		if (rec->has_mem && (p->ev[ev].flags & (SKD_PLAN_DATA_LA |
							SKD_PLAN_LDLAT))) {
			mem->addr = rec->addr;
			mem->source = rec->source;
			mem->latency = rec->latency;
			mem->flags = ps->mem_flags;
			mem->reserved = 0;
			d->mem = mem;
		}
		emit_sample(pc, ev, d);
	}
}

/* The records in [@base, @index), all of them the current task's. */
static void drain_records(struct skd_pmu_cpu *pc, u64 base, u64 index,
			  struct pt_regs *regs)
{
	const struct skd_pmu_session *ps = pc->ps;
	bool baseline = ps->caps.flags & SKD_PMU_PEBS_BASELINE;
	bool burst = ps->plan.large_pebs;
	u32 fmt = ps->caps.pebs_fmt;
	struct skd_task_ids ids;
	struct skd_sample_data d = {
		.regs = regs,
		.branch_flags = branch_flags(ps),
		.ids = &ids,
	};
	struct skd_sample_mem mem;
	struct skd_pebs_rec rec;
	bool tsc_time = ps->tsc_time;
	u64 at, now_ns = 0, now_tsc = 0;
	int size;

	/* Every record is the current task's: filter and look it up once. */
	if (!current_wanted(ps))
		return;
	skd_record_task_ids(ps->s, current, &ids);
	if (tsc_time) {
		now_tsc = skd_rdtsc();
		now_ns = ktime_get_mono_fast_ns();
	}
	/* Many records: the reader is told about them once, at the end. */
	if (burst)
		skd_record_burst_begin(ps->s);
	for (at = base; at < index; at += size) {
		size = skd_pebs_decode_sample((void *)at, index - at, fmt,
					      baseline, &rec);
		if (size <= 0)
			break;
		if (tsc_time)
			d.time = record_time(&rec, now_ns, now_tsc);
		emit_record(pc, &rec, &d, &mem, !!regs);
	}
	if (burst)
		skd_record_burst_end(ps->s);
}

void skd_pmu_drain_setup(struct skd_pmu_session *ps)
{
	const struct skd_pmu_plan *p = &ps->plan;
	unsigned int i;

	for (i = 0; i < p->nr; i++)
		ps->ev_misc[i] = ps->misc | (p->ev[i].flags & SKD_PLAN_EXACT ?
					     SKD_MISC_EXACT_IP : 0);
	ps->mem_flags = (ps->misc & SKD_MISC_MODELED ? SKD_MEM_MODELED : 0) |
			(p->lat_split ? SKD_MEM_LAT_SPLIT : 0);
}

/*
 * Walk the records from the buffer's base to its index, emit them, and
 * empty the buffer. In the PMI, or on the CPU with the PMU disabled (at
 * stop, at a context switch away from the target); @regs gives call
 * chains in single-record mode, NULL gives none.
 */
void skd_ds_drain(struct skd_pmu_cpu *pc, struct pt_regs *regs)
{
	u64 base = pc->ds[SKD_DS_U64(SKD_DS_PEBS_BASE)];
	u64 index = READ_ONCE(pc->ds[SKD_DS_U64(SKD_DS_PEBS_INDEX)]);
	u64 max = pc->ds[SKD_DS_U64(SKD_DS_PEBS_MAX)];

	if (!base)
		return;
	/*
	 * A PMI arriving while this CPU drains outside it leaves the buffer
	 * to that drain: the PMU is off by then, so nothing is missed.
	 */
	if (in_nmi()) {
		if (pc->in_drain)
			return;
	} else {
		pc->in_drain = true;
		barrier();
	}
	if (index > max)
		index = max;
	if (base < index)
		drain_records(pc, base, index, regs);
	WRITE_ONCE(pc->ds[SKD_DS_U64(SKD_DS_PEBS_INDEX)], base);
	if (!in_nmi()) {
		barrier();
		pc->in_drain = false;
	}
}
