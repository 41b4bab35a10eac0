// SPDX-License-Identifier: GPL-2.0
/*
 * The DS save area and the PEBS buffer of one CPU: memory and DS_AREA.
 * Turning the records in it into samples is drain.c's.
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
#include <linux/mm.h>
#include <linux/topology.h>

#include "run.h"

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
	pc->ds[SKD_DS_U64(SKD_DS_PEBS_BASE)] = base;
	pc->ds[SKD_DS_U64(SKD_DS_PEBS_INDEX)] = base;
	pc->ds[SKD_DS_U64(SKD_DS_PEBS_MAX)] =
		base + (u64)p->pebs_max_records * p->pebs_record_size;
	pc->ds[SKD_DS_U64(SKD_DS_PEBS_THRESHOLD)] =
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
			pc->ds[SKD_DS_U64(SKD_DS_PEBS_RESET) + slot] = e->reset;
	}
	pc->ps->ops->write_msr(MSR_IA32_DS_AREA, (u64)pc->ds);
}
