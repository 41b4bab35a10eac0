// SPDX-License-Identifier: GPL-2.0
/*
 * Call chains of an interrupted context. Kernel frames come from the
 * kernel's unwinder (ORC on Debian's kernels, frame pointers where the
 * kernel is built with them), which is safe in IRQ and NMI context. User
 * frames come from walking the saved frame pointers with non-faulting
 * copies: a task built without frame pointers yields a short chain, never a
 * fault. Only 64-bit user code is walked; a compat task gives its ip alone.
 */
#include <linux/export.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include <asm/ptrace.h>
#include <asm/unwind.h>

#include "callchain.h"

struct user_frame {
	u64 next_fp;
	u64 ret;
};

static unsigned int kernel_frames(struct pt_regs *regs, u64 *ips,
				  unsigned int max)
{
	struct unwind_state state;
	unsigned int n = 0;
	unsigned long addr;

	/*
	 * Starting from regs, the unwinder skips the frame at regs->sp, so the
	 * interrupted ip goes in first and the unwinder gives its callers.
	 */
	ips[n++] = regs->ip;
	for (unwind_start(&state, current, regs, NULL);
	     !unwind_done(&state) && n < max; unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr)
			break;
		ips[n++] = addr;
	}
	return n;
}

/* A frame record that user code may have put at @fp; false if none. */
static __always_inline bool frame_at(u64 fp)
{
	return !(fp & (sizeof(u64) - 1)) && fp >= PAGE_SIZE &&
	       fp <= TASK_SIZE_MAX - sizeof(struct user_frame);
}

static unsigned int user_frames(struct pt_regs *regs, u64 *ips,
				unsigned int max)
{
	const struct user_frame __user *uf;
	struct user_frame frame;
	unsigned int n = 0;
	u64 fp;

	if (!max)
		return 0;
	ips[n++] = regs->ip;
	if (!user_64bit_mode(regs))
		return n;

	/*
	 * The first frame through copy_from_user_nofault(), which also says
	 * whether this context may read user memory at all (in an NMI the
	 * CPU may still be on another mm: nmi_uaccess_okay(), not exported).
	 * That answer holds for the rest of this interrupt, so the other
	 * frames are read as perf_callchain_user() reads them: page faults
	 * off, two plain loads per frame inside one user-access window.
	 */
	fp = regs->bp;
	if (n >= max || !frame_at(fp) ||
	    copy_from_user_nofault(&frame, (const void __user *)fp,
				   sizeof(frame)))
		return n;
	pagefault_disable();
	for (;;) {
		if (!frame.ret)
			break;
		ips[n++] = frame.ret;
		/* Frames live at rising addresses; anything else is a loop. */
		if (n >= max || frame.next_fp <= fp || !frame_at(frame.next_fp))
			break;
		fp = frame.next_fp;
		uf = (const struct user_frame __user *)fp;
		if (!user_access_begin(uf, sizeof(*uf)))
			break;
		unsafe_get_user(frame.next_fp, &uf->next_fp, fault);
		unsafe_get_user(frame.ret, &uf->ret, fault);
		user_access_end();
	}
	pagefault_enable();
	return n;
fault:
	user_access_end();
	pagefault_enable();
	return n;
}

unsigned int skd_callchain(struct pt_regs *regs, u64 *ips, unsigned int max,
			   unsigned int *nr_kernel)
{
	unsigned int n = 0;

	if (!max)
		return 0;
	if (!user_mode(regs)) {
		n = kernel_frames(regs, ips, max);
		*nr_kernel = n;
		/* Kernel threads have no user half. */
		if (!current->mm || (current->flags & PF_KTHREAD))
			return n;
		regs = task_pt_regs(current);
	} else {
		*nr_kernel = 0;
	}
	return n + user_frames(regs, ips + n, max - n);
}

/* The simulated PMU fills its LBRs from the same chains. */
EXPORT_SYMBOL_GPL(skd_callchain);
