// SPDX-License-Identifier: GPL-2.0
/*
 * The DS save area and the PEBS buffer of one CPU, and turning the
 * records in it into samples.
 *
 * Memory: one zeroed page for the DS management area and a physically
 * contiguous, node-local buffer for records, both in the kernel's direct
 * map. The CPU writes them with whatever page tables are current, so this
 * only works where the direct map is mapped in every address space: not
 * with page-table isolation, which is why plan.c refuses PEBS then.
 * Nothing here is freed before the CPU stopped using it (pmu_cpu_stop
 * clears PEBS_ENABLE and restores DS_AREA first).
 */
#include <linux/gfp.h>
#include <linux/hardirq.h>
#include <linux/mm.h>
#include <linux/topology.h>

#include "lbr.h"
#include "models.h"
#include "pebs.h"
#include "run.h"
#include "session.h"

#define DS_U64(off)	((off) / sizeof(u64))

int skd_ds_alloc(struct skd_pmu_cpu *pc, unsigned int cpu)
{
	int node = cpu_to_node(cpu);
	struct page *ds, *buf;

	ds = alloc_pages_node(node, GFP_KERNEL | __GFP_ZERO, 0);
	if (!ds)
		return -ENOMEM;
	buf = alloc_pages_node(node, GFP_KERNEL | __GFP_ZERO,
			       get_order(pc->ps->plan.pebs_max_records *
					 pc->ps->plan.pebs_record_size));
	if (!buf) {
		__free_page(ds);
		return -ENOMEM;
	}
	pc->ds = page_address(ds);
	pc->pebs_buf = page_address(buf);
	return 0;
}

void skd_ds_free(struct skd_pmu_cpu *pc)
{
	const struct skd_pmu_plan *p = &pc->ps->plan;

	if (pc->pebs_buf)
		free_pages((unsigned long)pc->pebs_buf,
			   get_order(p->pebs_max_records * p->pebs_record_size));
	if (pc->ds)
		free_page((unsigned long)pc->ds);
	pc->pebs_buf = NULL;
	pc->ds = NULL;
}

/* Fill the management area and point DS_AREA at it. IRQs off, on the CPU. */
void skd_ds_program(struct skd_pmu_cpu *pc)
{
	const struct skd_pmu_plan *p = &pc->ps->plan;
	u64 base = (u64)pc->pebs_buf;
	unsigned int i;

	memset(pc->ds, 0, SKD_DS_SIZE);
	pc->ds[DS_U64(SKD_DS_PEBS_BASE)] = base;
	pc->ds[DS_U64(SKD_DS_PEBS_INDEX)] = base;
	pc->ds[DS_U64(SKD_DS_PEBS_MAX)] =
		base + (u64)p->pebs_max_records * p->pebs_record_size;
	pc->ds[DS_U64(SKD_DS_PEBS_THRESHOLD)] =
		base + (u64)p->pebs_threshold_records * p->pebs_record_size;
	for (i = 0; i < p->nr; i++) {
		const struct skd_planned_event *e = &p->ev[i];
		u32 slot = e->idx;

		if (!(e->flags & SKD_PLAN_PEBS))
			continue;
		if (SKD_IDX_IS_FIXED(e->idx))
			slot = p->ds_fixed_reset_slot + e->idx - SKD_IDX_FIXED(0);
		/* Auto-reload only with a fixed period; freq re-arms by hand. */
		if (!e->freq)
			pc->ds[DS_U64(SKD_DS_PEBS_RESET) + slot] = e->reset;
	}
	pc->ps->ops->write_msr(SKD_MSR_DS_AREA, (u64)pc->ds);
}

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

static void emit_record(struct skd_pmu_cpu *pc, const struct skd_pebs_rec *rec,
			struct pt_regs *regs)
{
	const struct skd_pmu_session *ps = pc->ps;
	const struct skd_pmu_plan *p = &ps->plan;
	struct skd_branch_entry *br = pc->rec_lbr;
	const struct skd_branch_entry *branches = NULL;
	struct skd_sample_mem mem, *memp;
	u64 bits = rec->applicable & p->pebs_counters;
	u32 nr_br = 0;
	unsigned int bit;
	int ev;

	/* Formats before 3 may report no counter when one is enabled. */
	if (!bits && hweight64(p->pebs_counters) == 1)
		bits = p->pebs_counters;
	if (p->lbr_from_record && rec->nr_lbr) {
		nr_br = min_t(u32, rec->nr_lbr, SKD_MAX_LBR);
		skd_lbr_decode_record(rec->lbr, nr_br,
				      ps->caps.flags & SKD_PMU_ARCH_LBR, br);
		/* The group has its full size; valid entries end at a 0 FROM. */
		while (nr_br && !br[nr_br - 1].from)
			nr_br--;
		branches = br;
	} else if (p->lbr_nr && !p->large_pebs) {
		/* One record per PMI: the LBR read at the PMI is its LBR. */
		branches = pc->lbr;
		nr_br = pc->nr_lbr;
	}
	for_each_set_bit(bit, (unsigned long *)&bits, 64) {
		ev = event_on(p, global_to_idx(bit));
		if (ev < 0)
			continue;
		memp = NULL;
		if (rec->has_mem &&
		    (p->ev[ev].flags & (SKD_EVF_MEM | SKD_EVF_LDLAT))) {
			mem.addr = rec->addr;
			mem.source = rec->source;
			mem.latency = rec->latency;
			mem.flags = ps->misc & SKD_MISC_MODELED ?
				    SKD_MEM_MODELED : 0;
			mem.reserved = 0;
			memp = &mem;
		}
		skd_pmu_emit(pc, ev, rec->ip, rec->exact, regs, memp,
			     branches, nr_br);
	}
}

/*
 * Walk the records from the buffer's base to its index, emit them, and
 * empty the buffer. In the PMI, or on the CPU with the PMU disabled (at
 * stop, at a context switch away from the target); @regs gives call
 * chains in single-record mode, NULL gives none.
 */
void skd_ds_drain(struct skd_pmu_cpu *pc, struct pt_regs *regs)
{
	const struct skd_pmu_session *ps = pc->ps;
	u64 base = pc->ds[DS_U64(SKD_DS_PEBS_BASE)];
	u64 index = READ_ONCE(pc->ds[DS_U64(SKD_DS_PEBS_INDEX)]);
	u64 max = pc->ds[DS_U64(SKD_DS_PEBS_MAX)];
	struct skd_pebs_rec rec;
	u64 at;
	int size;

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
	for (at = base; at < index; at += size) {
		size = skd_pebs_decode((void *)at, index - at, ps->caps.pebs_fmt,
				       ps->caps.flags & SKD_PMU_PEBS_BASELINE,
				       &rec);
		if (size <= 0)
			break;
		emit_record(pc, &rec, regs);
	}
	WRITE_ONCE(pc->ds[DS_U64(SKD_DS_PEBS_INDEX)], base);
	if (!in_nmi()) {
		barrier();
		pc->in_drain = false;
	}
}
