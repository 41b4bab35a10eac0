// SPDX-License-Identifier: GPL-2.0
/*
 * User registers and stack per sample (SKD_SAMPLE_USER_STACK), what perf
 * calls PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER.
 *
 * Contexts: samples are taken in NMI (the PMI) or with IRQs off (the
 * timer's hard-IRQ hrtimer, a PEBS drain at a context switch or at stop).
 * Neither allocates, locks or sleeps here; the stack is read with
 * copy_from_user_nofault(), a page at a time, and a page that is not
 * present ends the copy.
 *
 * Invariants:
 *  - Each CPU has two scratch buffers while any session asks for user
 *    stacks: one for NMI context, one for the IRQs-off contexts. An NMI
 *    is the only thing that can interrupt an IRQs-off sample, and NMIs do
 *    not nest, so a buffer has one user at a time.
 *  - The buffers are allocated by skd_user_stack_get() before the session
 *    can start (CONFIG) and freed by the last skd_user_stack_put(), after
 *    the session's sampling stopped for good (session destroy): no sample
 *    path can see a buffer go away. ustack_lock orders get and put.
 */
#include <linux/irqflags.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/ptrace.h>

#include "user_stack.h"

enum { USTACK_IRQOFF, USTACK_NMI, USTACK_NR };

struct ustack_cpu {
	struct skd_ustack *buf[USTACK_NR];
};

static DEFINE_PER_CPU(struct ustack_cpu, ustack_cpu);
static DEFINE_MUTEX(ustack_lock);
static unsigned int ustack_users;

/* perf's x86-64 order: PERF_REG_X86_AX..SS, then R8..R15. */
static void fill_regs(u64 *r, const struct pt_regs *regs)
{
	r[0] = regs->ax;
	r[1] = regs->bx;
	r[2] = regs->cx;
	r[3] = regs->dx;
	r[4] = regs->si;
	r[5] = regs->di;
	r[6] = regs->bp;
	r[7] = regs->sp;
	r[8] = regs->ip;
	r[9] = regs->flags;
	r[10] = regs->cs;
	r[11] = regs->ss;
	r[12] = regs->r8;
	r[13] = regs->r9;
	r[14] = regs->r10;
	r[15] = regs->r11;
	r[16] = regs->r12;
	r[17] = regs->r13;
	r[18] = regs->r14;
	r[19] = regs->r15;
}

/* Bytes of stack from @sp up, at most @max, stopping at a missing page. */
static u32 copy_stack(u8 *dst, u64 sp, u32 max)
{
	u32 done = 0, chunk;

	if (sp >= TASK_SIZE_MAX)
		return 0;
	max = min_t(u64, max, TASK_SIZE_MAX - sp);
	while (done < max) {
		chunk = min_t(u32, max - done,
			      PAGE_SIZE - ((sp + done) & ~PAGE_MASK));
		if (copy_from_user_nofault(dst + done,
					   (const void __user *)(sp + done),
					   chunk))
			break;
		done += chunk;
	}
	return done;
}

struct skd_ustack *skd_user_stack_sample(struct pt_regs *regs, u64 ip,
					 u32 max)
{
	struct ustack_cpu *uc = this_cpu_ptr(&ustack_cpu);
	struct task_struct *task = current;
	struct skd_ustack *us;
	struct pt_regs *uregs;

	if (in_nmi())
		us = uc->buf[USTACK_NMI];
	else if (irqs_disabled())
		us = uc->buf[USTACK_IRQOFF];
	else
		us = NULL;	/* not a sample context: see above */
	if (!us)
		return NULL;

	memset(us->hdr.regs, 0, sizeof(us->hdr.regs));
	us->hdr.abi = SKD_USER_ABI_NONE;
	us->hdr.size = 0;
	/* Kernel threads (and those borrowing an mm) have no user half. */
	if (!task->mm || (task->flags & PF_KTHREAD))
		return us;
	uregs = regs && user_mode(regs) ? regs : task_pt_regs(task);
	/* As the call chains: 64-bit user code only. */
	if (!user_64bit_mode(uregs))
		return us;

	us->hdr.abi = SKD_USER_ABI_64;
	fill_regs(us->hdr.regs, uregs);
	/* A precise sample's ip is not the interrupted one (perf does so). */
	if ((long)ip >= 0 && uregs == regs)
		us->hdr.regs[8] = ip;
	us->hdr.size = copy_stack(us->data, uregs->sp, max);
	return us;
}

static void free_buffers(void)
{
	unsigned int cpu, i;

	for_each_possible_cpu(cpu) {
		struct ustack_cpu *uc = per_cpu_ptr(&ustack_cpu, cpu);

		for (i = 0; i < USTACK_NR; i++) {
			kvfree(uc->buf[i]);
			uc->buf[i] = NULL;
		}
	}
}

int skd_user_stack_get(void)
{
	unsigned int cpu, i;
	int ret = 0;

	mutex_lock(&ustack_lock);
	if (ustack_users++)
		goto out;
	for_each_possible_cpu(cpu) {
		struct ustack_cpu *uc = per_cpu_ptr(&ustack_cpu, cpu);

		for (i = 0; i < USTACK_NR; i++) {
			uc->buf[i] = kvmalloc_node(sizeof(*uc->buf[i]),
						   GFP_KERNEL,
						   cpu_to_node(cpu));
			if (!uc->buf[i]) {
				free_buffers();
				ustack_users--;
				ret = -ENOMEM;
				goto out;
			}
		}
	}
out:
	mutex_unlock(&ustack_lock);
	return ret;
}

void skd_user_stack_put(void)
{
	mutex_lock(&ustack_lock);
	if (!--ustack_users)
		free_buffers();
	mutex_unlock(&ustack_lock);
}
