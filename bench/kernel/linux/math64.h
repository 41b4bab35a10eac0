/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_BENCH_LINUX_MATH64_H
#define _SKD_BENCH_LINUX_MATH64_H

#include <linux/types.h>

/* @a * @mul / @div without overflow, as the kernel's x86-64 version. */
static inline u64 mul_u64_u32_div(u64 a, u32 mul, u32 div)
{
	return (u64)(((unsigned __int128)a * mul) / div);
}

#endif /* _SKD_BENCH_LINUX_MATH64_H */
