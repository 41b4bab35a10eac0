/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_BENCH_LINUX_MUTEX_H
#define _SKD_BENCH_LINUX_MUTEX_H

/* Taken only in process context, never on the drain path. */
struct mutex {
	long owner;
};

#endif /* _SKD_BENCH_LINUX_MUTEX_H */
