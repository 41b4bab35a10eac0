/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_BENCH_LINUX_CPUMASK_H
#define _SKD_BENCH_LINUX_CPUMASK_H

struct cpumask {
	unsigned long bits[1];
};

typedef struct cpumask *cpumask_var_t;

#endif /* _SKD_BENCH_LINUX_CPUMASK_H */
