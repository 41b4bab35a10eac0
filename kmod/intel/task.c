// SPDX-License-Identifier: GPL-2.0
/*
 * Context switches, for the PMU sessions that care: per-task sessions (-p
 * PID, or a command) count only while the followed process tree is on the
 * CPU, and every session with large PEBS drains its buffer before the
 * task that wrote the records leaves, so each record goes out under its
 * own task (ds.c intel_pmu_pebs_sched_task() does the same). A probe on
 * sched_switch sees every switch on every CPU; it runs with the runqueue
 * lock held and IRQs off, on the CPU, as run.h requires.
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
	bool in, drain;

	if (!pc || !pc->running || prev == next)
		return;
	ps = pc->ps;
	in = !ps->per_task || skd_session_wants_task(ps->s, next);
	drain = ps->plan.large_pebs && pc->task_in;
	if (pc->task_in && (!in || drain)) {
		/*
		 * current is still prev: its records go out under its name.
		 * Nothing of ours counts while the buffer is read, or a
		 * record written meanwhile would be lost (ds.c: drain only
		 * with the PMU disabled).
		 */
		pc->task_in = false;
		skd_pmu_set_ctrl(pc);
		if (!in && ps->plan.lbr_nr)
			skd_lbr_enable(ps, false);
		if (ps->plan.pebs_counters)
			skd_ds_drain(pc, NULL);
		if (in)
			pc->task_in = true;
	} else if (in && !pc->task_in) {
		if (ps->plan.lbr_nr) {
			skd_lbr_reset(ps);
			skd_lbr_enable(ps, true);
		}
		pc->task_in = true;
	} else {
		return;
	}
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
