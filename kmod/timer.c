// SPDX-License-Identifier: GPL-2.0
/*
 * The timer backend: a pinned hard-IRQ hrtimer per CPU samples whatever the
 * CPU was running when it fired. Works on any machine, PMU or not; it is
 * not precise (the sample lands where the timer interrupt was taken).
 *
 * It samples CPU time, as perf's cpu-clock does, not wall time. A session
 * that follows a process (SKD_CFG_PID) keeps a CPU's timer queued only
 * while a task it follows runs there; a system-wide one only while any
 * task but the idle task runs there, unless SKD_CFG_IDLE asks for idle
 * samples too (then the timer runs all the time, as it always did). The
 * sched_switch probe (switch.c) queues and cancels the timer; what was
 * left of the period when it was cancelled is where it starts again, so
 * a CPU's samples come every period of the time the followed tasks ran
 * there. perf carries the rest per task (its event is per task); here it
 * is per CPU and session, which gives the same count per CPU-second and
 * needs nothing per task, at the price that a sample whose period began
 * in one followed task may land in the next one on that CPU.
 *
 * Who touches a CPU's struct timer_cpu, and the CPU's list of them:
 *
 *   cpu_start/cpu_stop	on the CPU, IRQs off: start and stop IPIs, the
 *			CPU's hotplug thread, syscore on the boot CPU.
 *			Only they put the entry on and take it off the
 *			list, and set ->started.
 *   sched_switch hook	on the CPU, IRQs off, runqueue lock held: walks
 *			the list, queues or cancels each timer, saves
 *			->left_ns, sets ->armed.
 *   timer_fire()	hard IRQ on the CPU (a pinned HARD timer, also on
 *			PREEMPT_RT): forwards its own timer and samples.
 *
 * All three run on the CPU the state belongs to with IRQs off, so none
 * can interrupt another and no lock is needed; in particular the timer's
 * callback never runs while the others cancel it, so a cancel never
 * waits. The list is walked only by its own CPU. Teardown: STOP takes
 * every entry off its list (IPI per CPU, waited for), the session's
 * close drops the probe (skd_switch_put() waits for probes in flight),
 * and only then is the memory freed. A CPU going down stops its timers
 * in its hotplug thread, before the kernel migrates what is left of its
 * hrtimers. Nothing here allocates, sleeps or prints.
 */
#include <linux/hrtimer.h>
#include <asm/irq_regs.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/sched.h>

#include "backend.h"
#include "compat.h"
#include "params.h"
#include "record.h"
#include "session.h"
#include "switch.h"

struct timer_cpu {
	struct hrtimer timer;
	struct skd_session *session;
	struct hlist_node node;		/* on timer_sessions while started */
	u64 left_ns;			/* of the period, while not armed */
	bool started;			/* cpu_start ran, cpu_stop not yet */
	bool armed;			/* the hrtimer is queued */
};

/* Per CPU: the started timer_cpus that follow tasks. */
static DEFINE_PER_CPU(struct hlist_head, timer_sessions);

static enum hrtimer_restart timer_fire(struct hrtimer *t)
{
	struct timer_cpu *tc = container_of(t, struct timer_cpu, timer);
	struct skd_session *s = tc->session;
	struct pt_regs *regs = get_irq_regs();
	u64 periods;

	/* Missed expiries (a long IRQ-off section) widen this sample. */
	periods = hrtimer_forward_now(t, ns_to_ktime(s->period_ns));
	if (regs)
		skd_record_sample(s, regs, periods * s->period_ns, 0);
	return HRTIMER_RESTART;
}

/* Without SKD_CFG_IDLE the timer runs only while a wanted task does. */
static bool timer_follows(const struct skd_session *s)
{
	return !(s->cfg.flags & SKD_CFG_IDLE);
}

static bool timer_wants(const struct skd_session *s, struct task_struct *t)
{
	if (s->target)
		return skd_session_wants_task(s, t);
	return !is_idle_task(t);
}

static void timer_arm(struct timer_cpu *tc)
{
	if (tc->armed)
		return;
	tc->armed = true;
	hrtimer_start(&tc->timer, ns_to_ktime(tc->left_ns),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static void timer_disarm(struct timer_cpu *tc)
{
	s64 left;

	if (!tc->armed)
		return;
	tc->armed = false;
	/*
	 * Past its expiry, its interrupt waits for IRQs to come back on:
	 * the next followed task to run here takes that sample at once.
	 */
	left = ktime_to_ns(ktime_sub(hrtimer_get_expires(&tc->timer),
				     ktime_get()));
	tc->left_ns = left > 0 ? left : 0;
	/* On this CPU with IRQs off: its callback is not running. */
	hrtimer_try_to_cancel(&tc->timer);
}

void skd_timer_switch(struct task_struct *prev, struct task_struct *next)
{
	struct timer_cpu *tc;

	hlist_for_each_entry(tc, this_cpu_ptr(&timer_sessions), node) {
		if (timer_wants(tc->session, next))
			timer_arm(tc);
		else
			timer_disarm(tc);
	}
}

static bool timer_usable(char *why, size_t len)
{
	return true;
}

static int timer_validate(const struct skd_config *cfg)
{
	u32 max_freq = READ_ONCE(skd_max_freq);
	u64 min_period = NSEC_PER_SEC / max_freq;

	/* Events, LBR and sim models belong to the PMU backends. */
	if (cfg->nr_events || cfg->sim_model)
		return -EINVAL;
	if (cfg->branch_sample)
		return -EOPNOTSUPP;
	if ((cfg->flags & SKD_CFG_IDLE) && (cfg->flags & SKD_CFG_PID)) {
		pr_info_ratelimited("session refused: SKD_CFG_IDLE (idle samples) with SKD_CFG_PID: a followed process is never the idle task\n");
		return -EINVAL;
	}
	if (cfg->flags & SKD_CFG_FREQ) {
		if (!cfg->sample_freq)
			return -EINVAL;
		if (cfg->sample_freq > max_freq)
			return -ERANGE;
	} else {
		if (!cfg->sample_period)
			return -EINVAL;
		if (cfg->sample_period < min_period)
			return -ERANGE;
	}
	return 0;
}

static int timer_init(struct skd_session *s)
{
	struct timer_cpu __percpu *cpus;
	unsigned int cpu;
	int ret;

	ret = timer_validate(&s->cfg);
	if (ret)
		return ret;
	cpus = alloc_percpu(struct timer_cpu);
	if (!cpus)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct timer_cpu *tc = per_cpu_ptr(cpus, cpu);

		skd_hrtimer_setup(&tc->timer, timer_fire, CLOCK_MONOTONIC,
				  HRTIMER_MODE_REL_PINNED_HARD);
		INIT_HLIST_NODE(&tc->node);
		tc->session = s;
	}
	/*
	 * Here, not at START: registering the probe takes the CPU hotplug
	 * lock, which START holds (intel/backend.c says more).
	 */
	if (timer_follows(s)) {
		ret = skd_switch_get();
		if (ret) {
			free_percpu(cpus);
			return ret;
		}
	}
	if (s->cfg.flags & SKD_CFG_FREQ)
		s->period_ns = div64_u64(NSEC_PER_SEC, s->cfg.sample_freq);
	else
		s->period_ns = s->cfg.sample_period;
	s->backend_cpu = cpus;
	return 0;
}

static struct timer_cpu *timer_cpu(struct skd_session *s, unsigned int cpu)
{
	return per_cpu_ptr((struct timer_cpu __percpu *)s->backend_cpu, cpu);
}

static void timer_fini(struct skd_session *s)
{
	/* Stopped everywhere: no list holds our entries; probes drain. */
	if (timer_follows(s))
		skd_switch_put();
	free_percpu(s->backend_cpu);
	s->backend_cpu = NULL;
}

static void timer_cpu_start(struct skd_session *s, unsigned int cpu)
{
	struct timer_cpu *tc = timer_cpu(s, cpu);

	if (tc->started)
		return;
	tc->started = true;
	tc->left_ns = s->period_ns;
	if (!timer_follows(s)) {
		timer_arm(tc);
		return;
	}
	hlist_add_head(&tc->node, this_cpu_ptr(&timer_sessions));
	/* What the CPU runs now, interrupted by the IPI or hotplug. */
	if (timer_wants(s, current))
		timer_arm(tc);
}

static void timer_cpu_stop(struct skd_session *s, unsigned int cpu)
{
	struct timer_cpu *tc = timer_cpu(s, cpu);

	if (!tc->started)
		return;
	/* No time taken: syscore's suspend comes here too. */
	if (tc->armed)
		hrtimer_try_to_cancel(&tc->timer);
	tc->armed = false;
	if (timer_follows(s))
		hlist_del_init(&tc->node);
	tc->started = false;
}

const struct skd_backend skd_timer_backend = {
	.name		= "timer",
	.id		= SKD_BACKEND_TIMER,
	.usable		= timer_usable,
	.init		= timer_init,
	.fini		= timer_fini,
	.cpu_start	= timer_cpu_start,
	.cpu_stop	= timer_cpu_stop,
};
