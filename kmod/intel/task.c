// SPDX-License-Identifier: GPL-2.0
/*
 * Per-task PMU sessions (-p PID, or a command): counters and LBR run only
 * while the followed process tree is on the CPU. A probe on sched_switch
 * sees every switch on every CPU; on a CPU whose PMU session follows a
 * task it drains the PEBS buffer before the target leaves (records belong
 * to the task that was running) and empties the LBR before it comes back.
 * It runs with the runqueue lock held and IRQs off, as the PMU code wants.
 */
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "run.h"
#include "session.h"

static DEFINE_MUTEX(switch_lock);
static unsigned int switch_users;
static struct tracepoint *switch_tp;

static void probe_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	struct skd_pmu_cpu *pc = this_cpu_read(skd_pmu_owner);
	struct skd_pmu_session *ps;
	bool in;

	if (!pc || !pc->running || !pc->ps->per_task)
		return;
	ps = pc->ps;
	in = skd_session_wants_task(ps->s, next);
	if (in == pc->task_in)
		return;
	if (!in) {
		pc->task_in = false;
		skd_pmu_set_ctrl(pc);
		if (ps->plan.lbr_nr)
			skd_lbr_enable(ps, false);
		/* current is still prev: its records go out under its name. */
		if (ps->plan.pebs_counters)
			skd_ds_drain(pc, NULL);
		return;
	}
	if (ps->plan.lbr_nr) {
		skd_lbr_reset(ps);
		skd_lbr_enable(ps, true);
	}
	pc->task_in = true;
	skd_pmu_set_ctrl(pc);
}

static void find_switch(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		switch_tp = tp;
}

int skd_task_switch_get(void)
{
	int ret = 0;

	mutex_lock(&switch_lock);
	if (!switch_users) {
		if (!switch_tp)
			for_each_kernel_tracepoint(find_switch, NULL);
		ret = switch_tp ? tracepoint_probe_register(switch_tp,
							    probe_switch,
							    NULL) : -ENOENT;
	}
	if (!ret)
		switch_users++;
	mutex_unlock(&switch_lock);
	return ret;
}

void skd_task_switch_put(void)
{
	mutex_lock(&switch_lock);
	if (!--switch_users) {
		tracepoint_probe_unregister(switch_tp, probe_switch, NULL);
		tracepoint_synchronize_unregister();
	}
	mutex_unlock(&switch_lock);
}
