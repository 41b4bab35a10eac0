/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_BENCH_ASM_PTRACE_H
#define _SKD_BENCH_ASM_PTRACE_H

#include <linux/types.h>

/* The interrupted context; only ip and cs matter to the sources here. */
struct pt_regs {
	unsigned long bx, cx, dx, si, di, bp, ax;
	unsigned long ip, cs, flags, sp, ss;
};

static inline unsigned long instruction_pointer(const struct pt_regs *regs)
{
	return regs->ip;
}

static inline bool user_mode(const struct pt_regs *regs)
{
	return !!(regs->cs & 3);
}

#endif /* _SKD_BENCH_ASM_PTRACE_H */
