/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_BENCH_LINUX_ALIGN_H
#define _SKD_BENCH_LINUX_ALIGN_H

#define ALIGN(x, a)	(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))

#endif /* _SKD_BENCH_LINUX_ALIGN_H */
