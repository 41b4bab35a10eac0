/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_BENCH_LINUX_MINMAX_H
#define _SKD_BENCH_LINUX_MINMAX_H

#define min_t(type, a, b) \
	({ type __a = (a), __b = (b); __a < __b ? __a : __b; })
#define max_t(type, a, b) \
	({ type __a = (a), __b = (b); __a > __b ? __a : __b; })

#endif /* _SKD_BENCH_LINUX_MINMAX_H */
