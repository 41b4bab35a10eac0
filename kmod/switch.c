// SPDX-License-Identifier: GPL-2.0
/*
 * The sched_switch probe, shared by the backends (switch.h). The
 * tracepoint fires in __schedule() before the switch, with the runqueue
 * lock held and IRQs off, on the CPU that switches; prev != next.
 *
 * The probe's prototype is sched_switch's since 5.18 (prev_state last),
 * and tracepoint_probe_register(), for_each_kernel_tracepoint() and
 * tracepoint_synchronize_unregister() are the same in 6.1 and 6.12:
 * nothing here needs compat.h.
 */
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "switch.h"

static DEFINE_MUTEX(switch_lock);
static unsigned int switch_users;
static struct tracepoint *switch_tp;

static void probe_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	if (prev == next)
		return;
	skd_pmu_switch(prev, next);
	skd_timer_switch(prev, next);
}

static void find_switch(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		switch_tp = tp;
}

int skd_switch_get(void)
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

void skd_switch_put(void)
{
	mutex_lock(&switch_lock);
	if (!--switch_users) {
		tracepoint_probe_unregister(switch_tp, probe_switch, NULL);
		/* No probe runs on any CPU after this: state may go. */
		tracepoint_synchronize_unregister();
	}
	mutex_unlock(&switch_lock);
}
