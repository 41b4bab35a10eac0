// SPDX-License-Identifier: GPL-2.0
/*
 * Context switches, for the PMU sessions that care: per-task sessions (-p
 * PID, or a command) count only while the followed process tree is on the
 * CPU, and every session with large PEBS drains its buffer before the
 * task that wrote the records leaves, so each record goes out under its
 * own task (ds.c intel_pmu_pebs_sched_task() does the same). A probe on
 * sched_switch (the probe in switch.c, shared with the timer backend) sees
 * every switch on every CPU; it runs with the runqueue lock held and IRQs
 * off, on the CPU, as run.h requires.
 */
#include <linux/sched.h>

#include "run.h"
#include "session.h"
#include "switch.h"

void skd_pmu_switch(struct task_struct *prev, struct task_struct *next)
{
	struct skd_pmu_cpu *pc = this_cpu_read(skd_pmu_owner);
	struct skd_pmu_session *ps;
	bool in, drain;

	if (!pc || !pc->running)
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
