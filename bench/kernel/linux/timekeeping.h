/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_BENCH_LINUX_TIMEKEEPING_H
#define _SKD_BENCH_LINUX_TIMEKEEPING_H

#include <linux/types.h>

/* Out of line, NMI-safe; stubs.c models how the kernel computes it. */
u64 ktime_get_mono_fast_ns(void);

#endif /* _SKD_BENCH_LINUX_TIMEKEEPING_H */
