// SPDX-License-Identifier: GPL-2.0
/*
 * The timer backend: a pinned hard-IRQ hrtimer per CPU samples whatever the
 * CPU was running when it fired. Works on any machine, PMU or not; it is
 * not precise (the sample lands where the timer interrupt was taken).
 */
#include <linux/hrtimer.h>
#include <asm/irq_regs.h>
#include <linux/ktime.h>
#include <linux/percpu.h>

#include "backend.h"
#include "compat.h"
#include "params.h"
#include "record.h"
#include "session.h"

struct timer_cpu {
	struct hrtimer timer;
	struct skd_session *session;
	bool active;
};

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

static bool timer_usable(char *why, size_t len)
{
	return true;
}

static int timer_validate(const struct skd_config *cfg)
{
	u64 min_period = NSEC_PER_SEC / skd_max_freq;

	/* Events, LBR and sim models belong to the PMU backends. */
	if (cfg->nr_events || cfg->sim_model)
		return -EINVAL;
	if (cfg->branch_sample)
		return -EOPNOTSUPP;
	if (cfg->flags & SKD_CFG_FREQ) {
		if (!cfg->sample_freq)
			return -EINVAL;
		if (cfg->sample_freq > skd_max_freq)
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
		tc->session = s;
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
	free_percpu(s->backend_cpu);
	s->backend_cpu = NULL;
}

static void timer_cpu_start(struct skd_session *s, unsigned int cpu)
{
	struct timer_cpu *tc = timer_cpu(s, cpu);

	if (tc->active)
		return;
	tc->active = true;
	hrtimer_start(&tc->timer, ns_to_ktime(s->period_ns),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static void timer_cpu_stop(struct skd_session *s, unsigned int cpu)
{
	struct timer_cpu *tc = timer_cpu(s, cpu);

	if (!tc->active)
		return;
	/* On @cpu with the timer's callback not running: returns at once. */
	hrtimer_cancel(&tc->timer);
	tc->active = false;
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
