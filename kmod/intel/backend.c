// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU backends: `intel` drives this CPU's PMU, `sim` the simulated
 * one. Both are this file; they differ only in the struct skd_pmu_ops
 * they hand it. The session's plan (plan.c) is made at CONFIG, counters
 * and CPUs are claimed at START, and each CPU is programmed and restored
 * on that CPU with IRQs off.
 *
 * Coexistence: every GP counter of the CPU is reserved with the kernel
 * for as long as a session runs, fixed-counter-only sessions included, as
 * perf reserves them all with its first event (core.c
 * x86_reserve_hardware()); if perf or the NMI watchdog holds them, or the
 * counters a session needs are already counting (a fixed counter's bits
 * in FIXED_CTR_CTRL included), START fails with EBUSY. One session owns a
 * CPU's PMU at a time. Programming and restoring a CPU is program.c's.
 */
#include <linux/cpumask.h>
#include <linux/pfn.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "backend.h"
#include "hw.h"
#include "models.h"
#include "netlink.h"
#include "run.h"
#include "session.h"
#include "sim_provider.h"
#include "switch.h"
#include "vmx_guard.h"

#define PEBS_BUFFER_BYTES	(64 * 1024)

DEFINE_PER_CPU(struct skd_pmu_cpu *, skd_pmu_owner);
/* Which session has claimed a CPU's PMU; under skd_running_lock. */
static DEFINE_PER_CPU(struct skd_pmu_session *, skd_pmu_claim);

static struct skd_pmu_session *pmu_of(struct skd_session *s)
{
	return s->backend_data;
}

static void pmu_cpu_start(struct skd_session *s, unsigned int cpu)
{
	skd_pmu_cpu_start(per_cpu_ptr(pmu_of(s)->cpus, cpu));
}

static void pmu_cpu_stop(struct skd_session *s, unsigned int cpu)
{
	skd_pmu_cpu_stop(per_cpu_ptr(pmu_of(s)->cpus, cpu));
}

struct busy_probe {
	struct skd_pmu_session *ps;
	bool busy;
	int guest_cpu;			/* a CPU with VMX on, or -1 */
};

/*
 * Our counters must be off on this CPU, else someone else uses them: a GP
 * counter's enable bit, or any bit of a fixed counter's nibble in
 * FIXED_CTR_CTRL (the NMI watchdog counts cycles on fixed counter 1).
 */
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
			if (!ops->read_msr(MSR_CORE_PERF_FIXED_CTR_CTRL, &v) &&
			    (v & SKD_FIXED_NIBBLE(idx - SKD_IDX_FIXED(0))))
				bp->busy = true;
		} else if (!ops->read_msr(SKD_MSR_EVENTSEL(idx), &v) &&
			   (v & ARCH_PERFMON_EVENTSEL_ENABLE)) {
			bp->busy = true;
		}
	}
	if (p->pebs_counters && ops->virt_active())
		bp->guest_cpu = smp_processor_id();
}

static void release_counters(struct skd_pmu_session *ps, u64 gp_mask)
{
	unsigned int i;

	for (i = 0; i < SKD_MAX_GP; i++)
		if (gp_mask & BIT_ULL(i))
			ps->ops->release(i);
}

/*
 * START cannot have the PMU: say why in the log and to netlink's "events"
 * group. Every refusal here is EBUSY.
 */
static void refuse(struct skd_session *s, const char *why)
{
	pr_info_ratelimited("%s\n", why);
	skd_nl_refused(s, -EBUSY, "%s", why);
}

static int pmu_prepare(struct skd_session *s)
{
	struct skd_pmu_session *ps = pmu_of(s);
	struct busy_probe bp = { .ps = ps, .guest_cpu = -1 };
	u64 gp = ps->plan.gp_reserved, taken = 0;
	unsigned int cpu, i;
	char why[200];
	int ret;

	for_each_cpu(cpu, s->cpus) {
		if (per_cpu(skd_pmu_claim, cpu)) {
			snprintf(why, sizeof(why),
				 "cpu%u: the PMU is used by another skidless session",
				 cpu);
			refuse(s, why);
			return -EBUSY;
		}
	}
	for (i = 0; i < SKD_MAX_GP; i++) {
		if (!(gp & BIT_ULL(i)))
			continue;
		if (!ps->ops->reserve(i)) {
			snprintf(why, sizeof(why),
				 "counter %u is held by perf or the NMI watchdog: stop them (sysctl kernel.nmi_watchdog=0)",
				 i);
			refuse(s, why);
			release_counters(ps, taken);
			return -EBUSY;
		}
		taken |= 1ULL << i;
	}
	if (ps->plan.pebs_counters) {
		ret = skd_vmx_guard_get(why, sizeof(why));
		if (ret) {
			refuse(s, why);
			goto err_release;
		}
	}
	for_each_cpu_and(cpu, s->cpus, cpu_online_mask)
		smp_call_function_single(cpu, probe_busy, &bp, true);
	if (bp.busy) {
		refuse(s,
		       "counters skidless needs are already counting: another PMU user is active (the NMI watchdog uses fixed counter 1: sysctl kernel.nmi_watchdog=0)");
		ret = -EBUSY;
		goto err_guard;
	}
	if (bp.guest_cpu >= 0) {
		snprintf(why, sizeof(why),
			 "PEBS refused: cpu%d has VMX on (a hypervisor can enter guests, where PEBS would stay armed); stop it, or sample without :p",
			 bp.guest_cpu);
		refuse(s, why);
		ret = -EBUSY;
		goto err_guard;
	}
	ret = skd_pmi_get();
	if (ret)
		goto err_guard;
	for_each_cpu(cpu, s->cpus)
		per_cpu(skd_pmu_claim, cpu) = ps;
	ps->claimed = true;
	return 0;

err_guard:
	if (ps->plan.pebs_counters)
		skd_vmx_guard_put();
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
	if (ps->plan.pebs_counters)
		skd_vmx_guard_put();
	release_counters(ps, ps->plan.gp_reserved);
	ps->claimed = false;
}

static void pmu_fini(struct skd_session *s)
{
	struct skd_pmu_session *ps = pmu_of(s);
	unsigned int cpu;

	if (!ps)
		return;
	if (ps->switch_probe)
		skd_switch_put();
	if (ps->cpus) {
		for_each_possible_cpu(cpu) {
			struct skd_pmu_cpu *pc = per_cpu_ptr(ps->cpus, cpu);

			skd_pmu_throttle_fini(pc);
			skd_ds_free(pc);
		}
		free_percpu(ps->cpus);
	}
	if (ps->sim)
		skd_sim_put();
	skd_memlock_uncharge(&ps->mem);
	kfree(ps);
	s->backend_data = NULL;
}

/*
 * The session's PMU state, planned for @caps. With @sim the caller holds a
 * reference to the device model's module: the session keeps it, or it is
 * dropped here on error.
 */
static int pmu_init(struct skd_session *s, const struct skd_pmu_ops *ops,
		    const struct skd_pmu_caps *caps, bool sim)
{
	struct skd_plan_request req = {
		.events = s->events,
		.nr_events = s->cfg.nr_events,
		.branch_sample = s->cfg.branch_sample,
		/* Both need the PMI's registers: one PEBS record per PMI. */
		.callchain = s->cfg.callchain_depth > 0 ||
			     s->cfg.user_stack_bytes > 0,
		.max_freq = skd_pmu_max_sample_rate(),
		.pebs_buffer_bytes = PEBS_BUFFER_BYTES,
	};
	struct skd_pmu_session *ps;
	unsigned int cpu;
	char why[160];
	int ret;

	/* The session's exclude flags apply to every event (and the LBR). */
	if (s->cfg.flags & SKD_CFG_EXCLUDE_USER)
		req.exclude |= SKD_EV_EXCLUDE_USER;
	if (s->cfg.flags & SKD_CFG_EXCLUDE_KERNEL)
		req.exclude |= SKD_EV_EXCLUDE_KERNEL;
	if (s->cfg.flags & SKD_CFG_FREQ)
		req.default_freq = s->cfg.sample_freq;
	else
		req.default_period = s->cfg.sample_period;

	if (s->cfg.flags & SKD_CFG_IDLE) {
		pr_info_ratelimited("session refused: SKD_CFG_IDLE (idle samples) is for the timer backend; PMU sampling never wakes an idle CPU\n");
		if (sim)
			skd_sim_put();
		return -EINVAL;
	}
	ps = s->cfg.nr_events ? kzalloc(sizeof(*ps), GFP_KERNEL) : NULL;
	if (!ps) {
		/* The caller's reference to the model goes on error too. */
		if (sim)
			skd_sim_put();
		return s->cfg.nr_events ? -ENOMEM : -EINVAL;
	}
	ps->sim = sim;
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
	if (ps->plan.pebs_counters) {
		/* A DS page and the PEBS buffer per CPU, charged first. */
		ret = skd_memlock_charge(&ps->mem, cpumask_weight(s->cpus) *
					 (1 + PFN_UP(PEBS_BUFFER_BYTES)));
		if (ret)
			goto err_fini;
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
	if (ps->per_task || ps->plan.large_pebs) {
		ret = skd_switch_get();
		if (ret)
			goto err_fini;
		ps->switch_probe = true;
	}
	ps->tsc_time = skd_tsc_time_usable(&ps->caps);
	skd_pmu_drain_setup(ps);
	return 0;

err_fini:
	pmu_fini(s);
	return ret;
}

static bool intel_usable(char *why, size_t len)
{
	struct skd_pmu_caps caps;

	skd_hw_caps(0, &caps);
	if (why && !(caps.flags & SKD_PMU_USABLE))
		strscpy(why, caps.why, len);
	return caps.flags & SKD_PMU_USABLE;
}

static const char *core_type_name(u32 type)
{
	return type == 0x40 ? "a Core (P)" : type == 0x20 ? "an Atom (E)" :
	       "another";
}

/*
 * The capabilities of the session's CPUs, which must all be one PMU:
 * a hybrid part's core types differ in counters, events and encodings,
 * and a session is planned for one. CPUs offline now are checked when
 * they come online (skd_pmu_cpu_start()).
 */
static int session_caps(struct skd_session *s, const struct skd_pmu_ops *ops,
			struct skd_pmu_caps *first)
{
	struct skd_pmu_caps *other;
	unsigned int cpu, first_cpu = nr_cpu_ids;
	int ret = 0;

	other = kmalloc(sizeof(*other), GFP_KERNEL);
	if (!other)
		return -ENOMEM;
	for_each_cpu_and(cpu, s->cpus, cpu_online_mask) {
		ret = skd_pmu_caps_of(ops, cpu,
				      first_cpu < nr_cpu_ids ? other : first);
		if (ret)
			break;
		if (first_cpu == nr_cpu_ids) {
			first_cpu = cpu;
		} else if (!skd_pmu_same(first, other)) {
			pr_info_ratelimited("cpu%u is %s core and cpu%u %s core (a hybrid part): a session samples one core type; choose its CPUs with -C\n",
					    first_cpu,
					    core_type_name(first->core_type), cpu,
					    core_type_name(other->core_type));
			ret = -EOPNOTSUPP;
			break;
		}
	}
	if (!ret && first_cpu == nr_cpu_ids)
		ret = skd_pmu_caps_of(ops, cpumask_first(s->cpus), first);
	kfree(other);
	return ret;
}

static int intel_init(struct skd_session *s)
{
	struct skd_pmu_caps caps;
	int ret;

	if (s->cfg.sim_model)
		return -EINVAL;
	ret = session_caps(s, &skd_hw_ops, &caps);
	return ret ? ret : pmu_init(s, &skd_hw_ops, &caps, false);
}

static bool sim_usable(char *why, size_t len)
{
	if (skd_sim_models())
		return true;
	if (why)
		strscpy(why, "the simulated PMU's module is not loaded (insmod skidless_sim.ko)",
			len);
	return false;
}

struct sim_detect {
	const struct skd_pmu_ops *ops;
	struct skd_pmu_caps *caps;
};

static void sim_detect_here(void *arg)
{
	struct sim_detect *d = arg;

	skd_pmu_detect(d->ops, d->caps);
	d->caps->flags |= SKD_PMU_SIMULATED;
}

int skd_pmu_caps_of(const struct skd_pmu_ops *ops, unsigned int cpu,
		    struct skd_pmu_caps *caps)
{
	struct sim_detect d = { ops, caps };

	if (ops == &skd_hw_ops) {
		skd_hw_caps(cpu, caps);
		return 0;
	}
	/* The model answers as the CPU it runs on, as hardware does. */
	if (smp_call_function_single(cpu, sim_detect_here, &d, true))
		return -ENXIO;
	return 0;
}

static int sim_init(struct skd_session *s)
{
	u32 model = s->cfg.sim_model;
	const struct skd_pmu_ops *ops = skd_sim_get(&model);
	struct skd_pmu_caps caps;
	int ret;

	if (!ops)
		return skd_sim_models() ? -EINVAL : -ENODEV;
	ret = session_caps(s, ops, &caps);
	if (ret) {
		skd_sim_put();
		return ret;
	}
	s->cfg.sim_model = model;
	/* From here pmu_fini() drops the reference, on error too. */
	ret = pmu_init(s, ops, &caps, true);
	if (!ret) {
		pmu_of(s)->misc = SKD_MISC_MODELED;
		skd_pmu_drain_setup(pmu_of(s));
	}
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
