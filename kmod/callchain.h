/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_CALLCHAIN_H
#define _SKD_CALLCHAIN_H

#include <linux/types.h>

struct pt_regs;

/*
 * Fill @ips (room for @max) with the call chain of the context in @regs,
 * leaf first: the kernel frames through the kernel's own unwinder, then the
 * user frames by frame-pointer walk. Returns the count; *@nr_kernel gets
 * how many of them are kernel frames. Context: IRQ or NMI, never faults.
 */
unsigned int skd_callchain(struct pt_regs *regs, u64 *ips, unsigned int max,
			   unsigned int *nr_kernel);

#endif /* _SKD_CALLCHAIN_H */
