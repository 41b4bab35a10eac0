// SPDX-License-Identifier: GPL-2.0
/*
 * One CPU starts and stops sampling for its session: the plan's register
 * values go in, and at stop what was there comes back.
 *
 * Registers the session owns while it runs (its counters and their
 * selects, the DS area, the extra MSRs, the LBR's filter) are saved whole
 * and restored whole. Registers others share (GLOBAL_CTRL,
 * FIXED_CTR_CTRL, PEBS_ENABLE, DEBUGCTL) are changed read-modify-write,
 * only in the session's bits, and only those bits are put back.
 *
 * Order, from Linux's intel_pmu_enable_all()/disable_all() (core.c):
 * start writes the DS area, the counters and selects, the data
 * configuration and PEBS_ENABLE, and turns the counters on last in
 * GLOBAL_CTRL; stop turns them off first, then PEBS and the LBR,
 * acknowledges what overflowed meanwhile, drains, and only then gives the
 * registers back. On the CPU with IRQs off (run.h).
 */
#include "lbr.h"
#include "run.h"
#include "session.h"

u32 skd_pmu_counter_msr(const struct skd_pmu_plan *p, u32 idx)
{
	if (SKD_IDX_IS_FIXED(idx))
		return SKD_MSR_FIXED_CTR(idx - SKD_IDX_FIXED(0));
	/* Full width through 0x4c1 + i where PERF_CAPABILITIES[13] says so. */
	return p->pmc_base + idx;
}

static void save(struct skd_pmu_cpu *pc, u32 msr, u64 mask)
{
	struct skd_saved_msr *sv = &pc->saved[pc->nr_saved];

	if (pc->nr_saved == SKD_SAVED_MSRS_MAX)
		return;
	sv->msr = msr;
	sv->mask = mask;
	if (!pc->ps->ops->read_msr(msr, &sv->val))
		pc->nr_saved++;
}

/* What this session writes on a CPU, saved in the order start writes it. */
static void save_msrs(struct skd_pmu_cpu *pc)
{
	const struct skd_pmu_session *ps = pc->ps;
	const struct skd_pmu_plan *p = &ps->plan;
	unsigned int i;

	pc->nr_saved = 0;
	if (p->pebs_counters)
		save(pc, MSR_IA32_DS_AREA, ~0ULL);
	for (i = 0; i < p->nr; i++) {
		u32 idx = p->ev[i].idx;

		save(pc, skd_pmu_counter_msr(p, idx), ~0ULL);
		if (!SKD_IDX_IS_FIXED(idx))
			save(pc, SKD_MSR_EVENTSEL(idx), ~0ULL);
	}
	if (p->fixed_ctrl_mask)
		save(pc, MSR_CORE_PERF_FIXED_CTR_CTRL, p->fixed_ctrl_mask);
	if (p->ld_lat)
		save(pc, MSR_PEBS_LD_LAT_THRESHOLD, ~0ULL);
	if (p->frontend)
		save(pc, MSR_PEBS_FRONTEND, ~0ULL);
	for (i = 0; i < 2; i++)
		if (p->offcore[i])
			save(pc, SKD_MSR_OFFCORE_RSP(i), ~0ULL);
	if (p->pebs_counters && (ps->caps.flags & SKD_PMU_PEBS_BASELINE))
		save(pc, MSR_PEBS_DATA_CFG, ~0ULL);
	if (p->pebs_enable)
		save(pc, MSR_IA32_PEBS_ENABLE, p->pebs_enable);
	if (p->lbr_nr) {
		if (ps->caps.flags & SKD_PMU_ARCH_LBR) {
			save(pc, MSR_ARCH_LBR_CTL, ~0ULL);
			save(pc, MSR_ARCH_LBR_DEPTH, ~0ULL);
		} else {
			save(pc, MSR_LBR_SELECT, ~0ULL);
		}
		save(pc, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR |
		     DEBUGCTLMSR_FREEZE_LBRS_ON_PMI);
	}
	save(pc, MSR_CORE_PERF_GLOBAL_CTRL, p->global_ctrl);
}

static void restore_one(const struct skd_pmu_ops *ops,
			const struct skd_saved_msr *sv)
{
	u64 cur;

	if (sv->mask == ~0ULL) {
		ops->write_msr(sv->msr, sv->val);
	} else if (!ops->read_msr(sv->msr, &cur)) {
		/* Another owner's bits stay as they are now. */
		ops->write_msr(sv->msr, (cur & ~sv->mask) |
				       (sv->val & sv->mask));
	}
}

/*
 * Put back what save_msrs() found, in reverse, but GLOBAL_CTRL (saved
 * last) at the very end: the bits it gives back may be on (perf keeps
 * every counter enabled there), and our selects must be inert by then.
 */
static void restore_msrs(struct skd_pmu_cpu *pc)
{
	const struct skd_pmu_ops *ops = pc->ps->ops;
	unsigned int i = pc->nr_saved;
	const struct skd_saved_msr *ctrl = NULL;

	while (i--) {
		const struct skd_saved_msr *sv = &pc->saved[i];

		if (sv->msr == MSR_CORE_PERF_GLOBAL_CTRL)
			ctrl = sv;
		else
			restore_one(ops, sv);
	}
	if (ctrl)
		restore_one(ops, ctrl);
	pc->nr_saved = 0;
}

/* Our bits of a shared register to @val, the others untouched. */
static void write_bits(const struct skd_pmu_ops *ops, u32 msr, u64 mask,
		       u64 val)
{
	u64 cur = 0;

	if (!mask || ops->read_msr(msr, &cur))
		return;
	ops->write_msr(msr, (cur & ~mask) | (val & mask));
}

static void program_counters(struct skd_pmu_cpu *pc)
{
	const struct skd_pmu_ops *ops = pc->ps->ops;
	const struct skd_pmu_plan *p = &pc->ps->plan;
	unsigned int i;

	for (i = 0; i < p->nr; i++) {
		const struct skd_planned_event *e = &p->ev[i];

		pc->period[i] = e->period;
		pc->freq_since_ns[i] = 0;
		pc->freq_samples[i] = 0;
		ops->write_msr(skd_pmu_counter_msr(p, e->idx), e->reset);
		if (!SKD_IDX_IS_FIXED(e->idx))
			ops->write_msr(SKD_MSR_EVENTSEL(e->idx),
				       p->eventsel[e->idx]);
	}
	write_bits(ops, MSR_CORE_PERF_FIXED_CTR_CTRL, p->fixed_ctrl_mask,
		   p->fixed_ctrl);
	if (p->ld_lat)
		ops->write_msr(MSR_PEBS_LD_LAT_THRESHOLD, p->ld_lat);
	if (p->frontend)
		ops->write_msr(MSR_PEBS_FRONTEND, p->frontend);
	for (i = 0; i < 2; i++)
		if (p->offcore[i])
			ops->write_msr(SKD_MSR_OFFCORE_RSP(i), p->offcore[i]);
}

void skd_pmu_cpu_start(struct skd_pmu_cpu *pc)
{
	struct skd_pmu_session *ps = pc->ps;
	const struct skd_pmu_plan *p = &ps->plan;
	const struct skd_pmu_ops *ops = ps->ops;

	if (pc->running)
		return;
	/* A CPU onlined since CONFIG may be another core type (hybrid). */
	skd_pmu_detect(ops, &pc->here);
	if (!skd_pmu_same(&ps->caps, &pc->here)) {
		pr_info_ratelimited("cpu%u is another core type than the session's CPUs: not sampled\n",
				    pc->cpu);
		return;
	}
	ops->cpu_attach();
	save_msrs(pc);
	pc->counting = false;
	pc->counted_ns = 0;
	pc->throttled = false;
	/* Nothing of ours counts until the end (set_ctrl with !running). */
	skd_pmu_set_ctrl(pc);
	if (p->pebs_counters)
		skd_ds_program(pc);
	program_counters(pc);
	if (p->pebs_counters && (ps->caps.flags & SKD_PMU_PEBS_BASELINE))
		ops->write_msr(MSR_PEBS_DATA_CFG, p->pebs_data_cfg);
	write_bits(ops, MSR_IA32_PEBS_ENABLE, p->pebs_enable, p->pebs_enable);
	pc->task_in = !ps->per_task || skd_session_wants_task(ps->s, current);
	if (p->lbr_nr) {
		skd_lbr_reset(ps);
		skd_lbr_enable(ps, pc->task_in);
	}
	this_cpu_write(skd_pmu_owner, pc);
	pc->running = true;
	skd_pmu_set_ctrl(pc);
}

void skd_pmu_cpu_stop(struct skd_pmu_cpu *pc)
{
	struct skd_pmu_session *ps = pc->ps;
	const struct skd_pmu_plan *p = &ps->plan;
	const struct skd_pmu_ops *ops = ps->ops;

	if (!pc->running)
		return;
	/* First: a PMI from here on only acknowledges (run.h, rule 1). */
	pc->running = false;
	barrier();
	skd_pmu_set_ctrl(pc);
	write_bits(ops, MSR_IA32_PEBS_ENABLE, p->pebs_enable, 0);
	if (p->lbr_nr)
		skd_lbr_enable(ps, false);
	/* Nothing more can overflow; what did is ours to acknowledge. */
	skd_pmu_ack(pc);
	if (p->pebs_counters)
		skd_ds_drain(pc, NULL);
	skd_pmu_throttle_stop(pc);
	restore_msrs(pc);
	this_cpu_write(skd_pmu_owner, NULL);
	ops->cpu_detach();
}
