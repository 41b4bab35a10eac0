/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_BENCH_ASM_TSC_H
#define _SKD_BENCH_ASM_TSC_H

#include <linux/types.h>

/* The TSC and its rate in kHz; stubs.c says how fast the bench's ticks. */
static inline u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a" (lo), "=d" (hi));
	return ((u64)hi << 32) | lo;
}

extern unsigned int tsc_khz;

#endif /* _SKD_BENCH_ASM_TSC_H */
