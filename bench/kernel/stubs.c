// SPDX-License-Identifier: GPL-2.0
/*
 * The out-of-line kernel functions the drain path calls, for bench/. Each
 * does the work the kernel's does on one CPU, so the instructions counted
 * around them are close to the module's; where a part is left out, the
 * comment says which and why it does not matter per sample.
 *
 * Built with the module's code generation flags (bench/run.sh), like the
 * sources that call these.
 */
#include <stdlib.h>

#include <linux/compiler.h>
#include <linux/hardirq.h>
#include <linux/irq_work.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>

#include "callchain.h"
#include "session.h"
#include "user_stack.h"

/* This CPU's per-CPU words (the kernel reads each with one %gs load). */
unsigned int skd_bench_preempt_count;
unsigned int skd_bench_cpu_number;
unsigned long skd_bench_this_cpu_off;
struct task_struct *skd_bench_current_task;

/* The TSC rate the drain converts record times with (a 2 GHz part). */
unsigned int tsc_khz = 2000000;

/* Self-IPIs irq_work_queue() would have sent. */
unsigned long skd_bench_irq_work_raised;

/*
 * ktime_get_mono_fast_ns() as the kernel computes it, not a bare counter:
 * a latch sequence count picks one of two copies of the clock data, the
 * clocksource is read through its function pointer (RDTSC behind an
 * LFENCE, as read_tsc does), the delta is masked and checked against a
 * clocksource going backwards (CONFIG_CLOCKSOURCE_VALIDATE_LAST_CYCLE, on
 * in Debian's 6.1) and scaled by mult and shift.
 */
struct bench_tk_read {
	u64 (*read)(void);
	u64 mask;
	u64 cycle_last;
	u32 mult;
	u32 shift;
	u64 xtime_nsec;
	u64 base_ns;
};

static u64 bench_read_tsc(void)
{
	u32 lo, hi;

	__asm__ __volatile__("lfence; rdtsc" : "=a" (lo), "=d" (hi));
	return ((u64)hi << 32) | lo;
}

static struct {
	unsigned int seq;
	struct bench_tk_read base[2];
} bench_tk_fast_mono = {
	.base = {
		{ .read = bench_read_tsc, .mask = ~0ULL, .mult = 1 << 22,
		  .shift = 24 },
		{ .read = bench_read_tsc, .mask = ~0ULL, .mult = 1 << 22,
		  .shift = 24 },
	},
};

u64 notrace ktime_get_mono_fast_ns(void)
{
	struct bench_tk_read *tkr;
	unsigned int seq;
	u64 now, delta;

	do {
		seq = __atomic_load_n(&bench_tk_fast_mono.seq, __ATOMIC_ACQUIRE);
		tkr = bench_tk_fast_mono.base + (seq & 1);
		now = tkr->base_ns;
		delta = (tkr->read() - tkr->cycle_last) & tkr->mask;
		if (delta & ~(tkr->mask >> 1))
			delta = 0;
		now += (delta * tkr->mult + tkr->xtime_nsec) >> tkr->shift;
		barrier();
	} while (seq != READ_ONCE(bench_tk_fast_mono.seq));
	return now;
}

/*
 * rcu_read_lock() and rcu_read_unlock() with CONFIG_PREEMPT_RCU (Debian's):
 * out-of-line calls that count the task's read-side nesting.
 */
static noinline void bench_rcu_read_lock(void)
{
	current->rcu_read_lock_nesting++;
	barrier();
}

static noinline void bench_rcu_read_unlock(void)
{
	struct task_struct *t = current;

	barrier();
	if (--t->rcu_read_lock_nesting == 0) {
		barrier();
		if (unlikely(READ_ONCE(t->rcu_read_unlock_special)))
			abort();	/* no grace period runs here */
	}
}

/*
 * A task's pid number in @ns (kernel/pid.c): under the RCU read lock,
 * the task's pid of @type, then that pid's number at @ns's level if it
 * belongs to @ns.
 */
int __task_pid_nr_ns(struct task_struct *task, enum pid_type type,
		     struct pid_namespace *ns)
{
	struct pid *pid;
	int nr = 0;

	bench_rcu_read_lock();
	pid = type == PIDTYPE_PID ? READ_ONCE(task->thread_pid) :
				    READ_ONCE(task->signal->pids[type]);
	if (pid && ns->level <= pid->level &&
	    pid->numbers[ns->level].ns == ns)
		nr = pid->numbers[ns->level].nr;
	bench_rcu_read_unlock();
	return nr;
}

/*
 * irq_work_queue() (kernel/irq_work.c): claim the work with an atomic OR,
 * push it on this CPU's raised list, raise the interrupt if the list was
 * empty. The raise is a self-IPI (an APIC register write) in the kernel,
 * counted here; it happens once per reader wakeup, not per sample.
 */
static struct llist_node *bench_raised_list;

bool irq_work_queue(struct irq_work *work)
{
	struct llist_node *first;
	unsigned int old;

	old = __atomic_fetch_or(&work->flags, IRQ_WORK_CLAIMED,
				__ATOMIC_SEQ_CST);
	if (old & IRQ_WORK_PENDING)
		return false;
	skd_bench_preempt_count++;
	first = READ_ONCE(bench_raised_list);
	do {
		work->llnode.next = first;
	} while (!__atomic_compare_exchange_n(&bench_raised_list, &first,
					      &work->llnode, false,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_SEQ_CST));
	if (!first)
		skd_bench_irq_work_raised++;
	skd_bench_preempt_count--;
	return true;
}

/* The bench takes the work back, as the irq_work interrupt would. */
void skd_bench_irq_work_run(void)
{
	struct llist_node *n = __atomic_exchange_n(&bench_raised_list, NULL,
						   __ATOMIC_SEQ_CST);

	while (n) {
		struct irq_work *w = (void *)((char *)n -
					      offsetof(struct irq_work, llnode));

		n = n->next;
		__atomic_store_n(&w->flags, 0, __ATOMIC_RELEASE);
	}
}

void *__alloc_percpu(size_t size, size_t align)
{
	return aligned_alloc(align, (size + align - 1) / align * align);
}

void free_percpu(void *ptr)
{
	free(ptr);
}

/*
 * Not on any path the bench measures: call chains are off in every case
 * (the kernel unwinder has no host counterpart) and sessions follow every
 * task. Reaching either is a bench bug.
 */
unsigned int skd_callchain(struct pt_regs *regs, u64 *ips, unsigned int max,
			   unsigned int *nr_kernel)
{
	(void)regs;
	(void)ips;
	(void)max;
	(void)nr_kernel;
	abort();
}

bool skd_session_wants_task(const struct skd_session *s,
			    struct task_struct *task)
{
	(void)s;
	(void)task;
	abort();
}

/* Not on any path the bench measures either: no session asks for stacks. */
struct skd_ustack *skd_user_stack_sample(struct pt_regs *regs, u64 ip,
					 u32 max)
{
	(void)regs;
	(void)ip;
	(void)max;
	abort();
}
