/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_BENCH_LINUX_COMPILER_H
#define _SKD_BENCH_LINUX_COMPILER_H

#include <linux/types.h>

/* READ_ONCE, barrier and unlikely come from kernel_shim.h. */
#define WRITE_ONCE(x, v) \
	(*(volatile __typeof__(x) *)&(x) = (v))
#define likely(x)		__builtin_expect(!!(x), 1)

#endif /* _SKD_BENCH_LINUX_COMPILER_H */
