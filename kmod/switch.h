/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One probe on the sched_switch tracepoint for every backend that acts at
 * context switches: the PMU backends' per-task counting and large-PEBS
 * drains (intel/task.c) and the timer backend's per-CPU timers (timer.c).
 * It is registered while any session that needs it is configured.
 */
#ifndef _SKD_SWITCH_H
#define _SKD_SWITCH_H

struct task_struct;

/*
 * Take or drop a reference to the probe. Process context; never with the
 * CPU hotplug lock held (tracepoint registration takes it after its own
 * mutex), so from CONFIG and close, not from START or STOP.
 */
int skd_switch_get(void);
void skd_switch_put(void);

/*
 * The hooks the probe calls, in this order, on the CPU, with IRQs off and
 * the runqueue lock held; current is still @prev. Each looks at its own
 * per-CPU state and returns at once when nothing of its own runs there.
 */
void skd_pmu_switch(struct task_struct *prev, struct task_struct *next);
void skd_timer_switch(struct task_struct *prev, struct task_struct *next);

#endif /* _SKD_SWITCH_H */
