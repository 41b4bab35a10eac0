/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_BENCH_LINUX_SMP_H
#define _SKD_BENCH_LINUX_SMP_H

/* this_cpu's cpu_number: one %gs load in the kernel, one load here. */
extern unsigned int skd_bench_cpu_number;

#define smp_processor_id()	(skd_bench_cpu_number)

#endif /* _SKD_BENCH_LINUX_SMP_H */
