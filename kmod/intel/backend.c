// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU backends: `intel` drives this CPU's PMU, `sim` the simulated
 * one. Both are this file; they differ only in the struct skd_pmu_ops
 * they hand it. The session's plan (plan.c) is made at CONFIG, counters
 * and CPUs are claimed at START, and each CPU is programmed and restored
 * on that CPU with IRQs off.
 *
 * Coexistence: the counters a session uses are reserved with the kernel
 * (as perf reserves them) for as long as it runs; if perf or the NMI
 * watchdog holds them, or their enable bits are already set, START fails
 * with EBUSY. One session owns a CPU's PMU at a time. Every register
 * written is saved first and restored when the CPU stops.
 */
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "backend.h"
#include "hw.h"
#include "models.h"
#include "run.h"
#include "session.h"
#include "sim.h"

#define PEBS_BUFFER_BYTES	(64 * 1024)

DEFINE_PER_CPU(struct skd_pmu_cpu *, skd_pmu_owner);
/* Which session has claimed a CPU's PMU; under skd_running_lock. */
static DEFINE_PER_CPU(struct skd_pmu_session *, skd_pmu_claim);

static struct skd_pmu_session *pmu_of(struct skd_session *s)
{
	return s->backend_data;
}

/* Registers the plan writes on a CPU, so they can be put back. */
static void save_msrs(struct skd_pmu_cpu *pc)
{
	struct skd_pmu_session *ps = pc->ps;
	const struct skd_pmu_plan *p = &ps->plan;
	unsigned int i, n = 0;
	u32 msrs[SKD_SAVED_MSRS_MAX];

	for (i = 0; i < p->nr; i++) {
		u32 idx = p->ev[i].idx;

		if (SKD_IDX_IS_FIXED(idx)) {
			msrs[n++] = SKD_MSR_FIXED_CTR(idx - SKD_IDX_FIXED(0));
		} else {
			msrs[n++] = SKD_MSR_EVENTSEL(idx);
			msrs[n++] = SKD_MSR_PMC(idx);
		}
	}
	msrs[n++] = SKD_MSR_FIXED_CTR_CTRL;
	msrs[n++] = SKD_MSR_GLOBAL_CTRL;
	if (p->pebs_counters) {
		msrs[n++] = SKD_MSR_DS_AREA;
		msrs[n++] = SKD_MSR_PEBS_ENABLE;
		if (ps->caps.flags & SKD_PMU_PEBS_BASELINE)
			msrs[n++] = SKD_MSR_PEBS_DATA_CFG;
		if (p->ld_lat)
			msrs[n++] = SKD_MSR_PEBS_LD_LAT;
	}
	if (p->lbr_nr) {
		msrs[n++] = SKD_MSR_DEBUGCTL;
		if (ps->caps.flags & SKD_PMU_ARCH_LBR) {
			msrs[n++] = SKD_MSR_ARCH_LBR_CTL;
			msrs[n++] = SKD_MSR_ARCH_LBR_DEPTH;
		} else {
			msrs[n++] = SKD_MSR_LBR_SELECT;
		}
	}
	pc->nr_saved = 0;
	for (i = 0; i < n; i++) {
		struct skd_saved_msr *sv = &pc->saved[pc->nr_saved];

		sv->msr = msrs[i];
		if (!ps->ops->read_msr(sv->msr, &sv->val))
			pc->nr_saved++;
	}
}

static void restore_msrs(struct skd_pmu_cpu *pc)
{
	unsigned int i = pc->nr_saved;

	/* Reverse order: enables (GLOBAL_CTRL, PEBS_ENABLE) went in last. */
	while (i--)
		pc->ps->ops->write_msr(pc->saved[i].msr, pc->saved[i].val);
	pc->nr_saved = 0;
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
		if (SKD_IDX_IS_FIXED(e->idx)) {
			ops->write_msr(SKD_MSR_FIXED_CTR(e->idx - SKD_IDX_FIXED(0)),
				   e->reset);
		} else {
			/* The legacy alias sign-extends: fine for 31-bit periods. */
			ops->write_msr(SKD_MSR_PMC(e->idx), e->reset);
			ops->write_msr(SKD_MSR_EVENTSEL(e->idx),
				   p->eventsel[e->idx]);
		}
	}
	ops->write_msr(SKD_MSR_FIXED_CTR_CTRL, p->fixed_ctrl);
}

static void pmu_cpu_start(struct skd_session *s, unsigned int cpu)
{
	struct skd_pmu_session *ps = pmu_of(s);
	struct skd_pmu_cpu *pc = per_cpu_ptr(ps->cpus, cpu);
	const struct skd_pmu_plan *p = &ps->plan;
	const struct skd_pmu_ops *ops = ps->ops;

	if (pc->running)
		return;
	ops->cpu_attach();
	save_msrs(pc);
	pc->counting = false;
	pc->counted_ns = 0;
	/* Nothing counts until GLOBAL_CTRL says so, at the very end. */
	skd_pmu_set_ctrl(pc);
	if (p->pebs_counters)
		skd_ds_program(pc);
	program_counters(pc);
	if (ps->caps.flags & SKD_PMU_PEBS_BASELINE && p->pebs_counters)
		ops->write_msr(SKD_MSR_PEBS_DATA_CFG, p->pebs_data_cfg);
	if (p->ld_lat)
		ops->write_msr(SKD_MSR_PEBS_LD_LAT, p->ld_lat);
	if (p->pebs_counters)
		ops->write_msr(SKD_MSR_PEBS_ENABLE, p->pebs_enable);
	pc->task_in = !ps->per_task || skd_session_wants_task(s, current);
	if (p->lbr_nr) {
		skd_lbr_reset(ps);
		skd_lbr_enable(ps, pc->task_in);
	}
	pc->throttled = false;
	pc->running = true;
	this_cpu_write(skd_pmu_owner, pc);
	skd_pmu_set_ctrl(pc);
}

static void pmu_cpu_stop(struct skd_session *s, unsigned int cpu)
{
	struct skd_pmu_session *ps = pmu_of(s);
	struct skd_pmu_cpu *pc = per_cpu_ptr(ps->cpus, cpu);
	const struct skd_pmu_ops *ops = ps->ops;
	u64 status;

	if (!pc->running)
		return;
	pc->running = false;
	skd_pmu_set_ctrl(pc);
	if (ps->plan.pebs_counters)
		ops->write_msr(SKD_MSR_PEBS_ENABLE, 0);
	if (ps->plan.lbr_nr)
		skd_lbr_enable(ps, false);
	/* Nothing more can overflow; what the buffer holds is still ours. */
	if (!ops->read_msr(SKD_MSR_GLOBAL_STATUS, &status))
		ops->write_msr(SKD_MSR_GLOBAL_OVF_CTRL,
			   status & (ps->plan.global_ctrl |
				     SKD_STATUS_BUFFER_OVF));
	if (ps->plan.pebs_counters)
		skd_ds_drain(pc, NULL);
	this_cpu_write(skd_pmu_owner, NULL);
	skd_pmu_throttle_stop(pc);
	restore_msrs(pc);
	ops->cpu_detach();
}

struct busy_probe {
	struct skd_pmu_session *ps;
	bool busy;
};

/* Our counters must be off on this CPU: else someone else uses them. */
static void probe_busy(void *arg)
{
	struct busy_probe *bp = arg;
	const struct skd_pmu_plan *p = &bp->ps->plan;
	const struct skd_pmu_ops *ops = bp->ps->ops;
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < p->nr; i++) {
		u32 idx = p->ev[i].idx;

		if (SKD_IDX_IS_FIXED(idx)) {
			if (!ops->read_msr(SKD_MSR_FIXED_CTR_CTRL, &v) &&
			    (v & SKD_FIXED_NIBBLE(idx - SKD_IDX_FIXED(0)) &
			     ~SKD_FIXED_PMI(idx - SKD_IDX_FIXED(0))))
				bp->busy = true;
		} else if (!ops->read_msr(SKD_MSR_EVENTSEL(idx), &v) &&
			   (v & SKD_EVSEL_EN)) {
			bp->busy = true;
		}
	}
}

static void release_counters(struct skd_pmu_session *ps, u64 gp_mask)
{
	unsigned int i;

	for (i = 0; i < SKD_MAX_GP; i++)
		if (gp_mask & BIT_ULL(i))
			ps->ops->release(i);
}

static int pmu_prepare(struct skd_session *s)
{
	struct skd_pmu_session *ps = pmu_of(s);
	struct busy_probe bp = { .ps = ps };
	u64 gp = ps->plan.global_ctrl & SKD_CTR_ANY_GP, taken = 0;
	unsigned int cpu, i;
	int ret;

	for_each_cpu(cpu, s->cpus) {
		if (per_cpu(skd_pmu_claim, cpu)) {
			pr_info_ratelimited("cpu%u: the PMU is used by another skidless session\n",
					    cpu);
			return -EBUSY;
		}
	}
	for (i = 0; i < SKD_MAX_GP; i++) {
		if (!(gp & BIT_ULL(i)))
			continue;
		if (!ps->ops->reserve(i)) {
			pr_info_ratelimited("counter %u is held by perf or the NMI watchdog: stop them (sysctl kernel.nmi_watchdog=0)\n",
					    i);
			release_counters(ps, taken);
			return -EBUSY;
		}
		taken |= 1ULL << i;
	}
	for_each_cpu_and(cpu, s->cpus, cpu_online_mask)
		smp_call_function_single(cpu, probe_busy, &bp, true);
	if (bp.busy) {
		pr_info_ratelimited("counters skidless needs are already counting: another PMU user is active\n");
		ret = -EBUSY;
		goto err_release;
	}
	ret = skd_pmi_get();
	if (ret)
		goto err_release;
	for_each_cpu(cpu, s->cpus)
		per_cpu(skd_pmu_claim, cpu) = ps;
	ps->claimed = true;
	return 0;

err_release:
	release_counters(ps, taken);
	return ret;
}

static void pmu_unprepare(struct skd_session *s)
{
	struct skd_pmu_session *ps = pmu_of(s);
	unsigned int cpu;

	if (!ps->claimed)
		return;
	for_each_cpu(cpu, s->cpus)
		per_cpu(skd_pmu_claim, cpu) = NULL;
	skd_pmi_put();
	release_counters(ps, ps->plan.global_ctrl & SKD_CTR_ANY_GP);
	ps->claimed = false;
}

/* Every CPU of the session must be the same PMU (hybrid parts are not). */
static int same_pmu(const struct skd_pmu_caps *a, const struct skd_pmu_caps *b)
{
	return a->signature == b->signature && a->nr_gp == b->nr_gp &&
	       a->fixed_mask == b->fixed_mask && a->pebs_fmt == b->pebs_fmt &&
	       a->lbr_nr == b->lbr_nr && a->flags == b->flags;
}

static void pmu_fini(struct skd_session *s)
{
	struct skd_pmu_session *ps = pmu_of(s);
	unsigned int cpu;

	if (!ps)
		return;
	if (ps->switch_probe)
		skd_task_switch_put();
	if (ps->cpus) {
		for_each_possible_cpu(cpu) {
			struct skd_pmu_cpu *pc = per_cpu_ptr(ps->cpus, cpu);

			skd_pmu_throttle_fini(pc);
			skd_ds_free(pc);
		}
		free_percpu(ps->cpus);
	}
	kfree(ps);
	s->backend_data = NULL;
}

static int pmu_init(struct skd_session *s, const struct skd_pmu_ops *ops,
		    const struct skd_pmu_caps *caps)
{
	struct skd_plan_request req = {
		.events = s->events,
		.nr_events = s->cfg.nr_events,
		.branch_sample = s->cfg.branch_sample,
		.callchain = s->cfg.callchain_depth > 0,
		.max_freq = skd_pmu_max_sample_rate(),
		.pebs_buffer_bytes = PEBS_BUFFER_BYTES,
	};
	struct skd_pmu_session *ps;
	unsigned int cpu;
	char why[160];
	int ret;

	if (!s->cfg.nr_events)
		return -EINVAL;
	if (s->cfg.flags & SKD_CFG_FREQ)
		req.default_freq = s->cfg.sample_freq;
	else
		req.default_period = s->cfg.sample_period;

	ps = kzalloc(sizeof(*ps), GFP_KERNEL);
	if (!ps)
		return -ENOMEM;
	ps->s = s;
	ps->ops = ops;
	ps->caps = *caps;
	ps->per_task = s->cfg.flags & SKD_CFG_PID;
	s->backend_data = ps;

	ret = skd_pmu_plan(&ps->caps, &req, &ps->plan, why, sizeof(why));
	if (ret) {
		pr_info_ratelimited("session refused: %s\n", why);
		goto err_fini;
	}
	ps->cpus = alloc_percpu(struct skd_pmu_cpu);
	if (!ps->cpus) {
		ret = -ENOMEM;
		goto err_fini;
	}
	for_each_possible_cpu(cpu) {
		struct skd_pmu_cpu *pc = per_cpu_ptr(ps->cpus, cpu);

		pc->ps = ps;
		pc->cpu = cpu;
		skd_pmu_throttle_init(pc);
	}
	for_each_cpu(cpu, s->cpus) {
		if (!ps->plan.pebs_counters)
			break;
		ret = skd_ds_alloc(per_cpu_ptr(ps->cpus, cpu), cpu);
		if (ret)
			goto err_fini;
	}
	/*
	 * Registering a tracepoint probe takes tracepoints_mutex and then
	 * the CPU hotplug lock, so it cannot wait for START, which holds the
	 * hotplug lock: lockdep's circular dependency, and a real deadlock
	 * with a CPU going offline. The probe idles until the session runs.
	 */
	if (ps->per_task) {
		ret = skd_task_switch_get();
		if (ret)
			goto err_fini;
		ps->switch_probe = true;
	}
	return 0;

err_fini:
	pmu_fini(s);
	return ret;
}

static bool intel_usable(char *why, size_t len)
{
	const struct skd_pmu_caps *caps = skd_hw_caps(0);

	if (why && !(caps->flags & SKD_PMU_USABLE))
		strscpy(why, caps->why, len);
	return caps->flags & SKD_PMU_USABLE;
}

static int intel_init(struct skd_session *s)
{
	const struct skd_pmu_caps *first = NULL;
	unsigned int cpu;

	if (s->cfg.sim_model)
		return -EINVAL;
	for_each_cpu(cpu, s->cpus) {
		if (!first) {
			first = skd_hw_caps(cpu);
		} else if (!same_pmu(first, skd_hw_caps(cpu))) {
			pr_info_ratelimited("cpu%u has another PMU than the session's first CPU (a hybrid part): choose CPUs of one core type with -C\n",
					    cpu);
			return -EOPNOTSUPP;
		}
	}
	return pmu_init(s, &skd_hw_ops, first);
}

static bool sim_usable(char *why, size_t len)
{
	return true;
}

void skd_sim_detect(const struct skd_pmu_ops *ops, struct skd_pmu_caps *caps)
{
	/* The model keeps its registers per CPU, as hardware does: stay on one. */
	preempt_disable();
	skd_pmu_detect(ops, caps);
	preempt_enable();
	caps->flags |= SKD_PMU_SIMULATED;
}

static int sim_init(struct skd_session *s)
{
	u32 model = s->cfg.sim_model ?: skd_sim_default_model();
	const struct skd_pmu_ops *ops = skd_sim_ops(model);
	struct skd_pmu_caps caps;
	int ret;

	if (!ops)
		return -EINVAL;
	skd_sim_detect(ops, &caps);
	s->cfg.sim_model = model;
	ret = pmu_init(s, ops, &caps);
	if (!ret)
		pmu_of(s)->misc = SKD_MISC_MODELED;
	return ret;
}

const struct skd_backend skd_intel_backend = {
	.name		= "intel",
	.id		= SKD_BACKEND_INTEL,
	.usable		= intel_usable,
	.init		= intel_init,
	.fini		= pmu_fini,
	.prepare	= pmu_prepare,
	.unprepare	= pmu_unprepare,
	.cpu_start	= pmu_cpu_start,
	.cpu_stop	= pmu_cpu_stop,
};

const struct skd_backend skd_sim_backend = {
	.name		= "sim",
	.id		= SKD_BACKEND_SIM,
	.usable		= sim_usable,
	.init		= sim_init,
	.fini		= pmu_fini,
	.prepare	= pmu_prepare,
	.unprepare	= pmu_unprepare,
	.cpu_start	= pmu_cpu_start,
	.cpu_stop	= pmu_cpu_stop,
};
