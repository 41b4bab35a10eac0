/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hweight64 and __ffs64 as x86-64 kernels run them: POPCNT (the
 * alternative patched in on every CPU with PEBS format 3 or later) and
 * TZCNT.
 */
#ifndef _SKD_BENCH_LINUX_BITOPS_H
#define _SKD_BENCH_LINUX_BITOPS_H

#include <linux/types.h>

static inline unsigned long hweight64(u64 w)
{
	u64 n;

	__asm__ ("popcnt %1, %0" : "=r" (n) : "rm" (w));
	return n;
}

/* Index of the lowest set bit; @word is not 0 (TZCNT, as the kernel's). */
static inline unsigned long __ffs64(u64 word)
{
	return __builtin_ctzll(word);
}

#endif /* _SKD_BENCH_LINUX_BITOPS_H */
