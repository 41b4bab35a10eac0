/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_BENCH_LINUX_SCHED_H
#define _SKD_BENCH_LINUX_SCHED_H

#include <linux/pid.h>
#include <linux/smp.h>
#include <linux/types.h>

#define PF_IDLE			0x00000002

struct signal_struct {
	struct pid *pids[PIDTYPE_MAX];
};

struct task_struct {
	unsigned int flags;
	int rcu_read_lock_nesting;	/* CONFIG_PREEMPT_RCU, as Debian's */
	unsigned char rcu_read_unlock_special;
	struct pid *thread_pid;
	struct signal_struct *signal;
};

/* this_cpu's current_task */
extern struct task_struct *skd_bench_current_task;

/*
 * One load, and like the kernel's this_cpu_read_stable() an asm with no
 * memory input: the compiler may reuse, move or drop it.
 */
static __always_inline struct task_struct *get_current(void)
{
	struct task_struct *t;

	__asm__ ("movq %P1, %0" : "=r" (t) : "p" (&skd_bench_current_task));
	return t;
}

#define current			get_current()

static inline bool is_idle_task(const struct task_struct *p)
{
	return !!(p->flags & PF_IDLE);
}

/* Out of line in the kernel (kernel/pid.c), and in stubs.c. */
int __task_pid_nr_ns(struct task_struct *task, enum pid_type type,
		     struct pid_namespace *ns);

static inline int task_pid_nr_ns(struct task_struct *tsk,
				 struct pid_namespace *ns)
{
	return __task_pid_nr_ns(tsk, PIDTYPE_PID, ns);
}

static inline int task_tgid_nr_ns(struct task_struct *tsk,
				  struct pid_namespace *ns)
{
	return __task_pid_nr_ns(tsk, PIDTYPE_TGID, ns);
}

#endif /* _SKD_BENCH_LINUX_SCHED_H */
