/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Context from the preempt count, one per-CPU word as in the kernel: the
 * bench sets its NMI bits around a drain that stands for the PMI.
 */
#ifndef _SKD_BENCH_LINUX_HARDIRQ_H
#define _SKD_BENCH_LINUX_HARDIRQ_H

#include <linux/types.h>

#define SOFTIRQ_OFFSET		0x00000100U
#define SOFTIRQ_MASK		0x0000ff00U
#define HARDIRQ_OFFSET		0x00010000U
#define HARDIRQ_MASK		0x000f0000U
#define NMI_OFFSET		0x00100000U
#define NMI_MASK		0x00f00000U

/* this_cpu's __preempt_count */
extern unsigned int skd_bench_preempt_count;

#define preempt_count()		(skd_bench_preempt_count)
#define in_nmi()		(preempt_count() & NMI_MASK)
#define in_hardirq()		(preempt_count() & HARDIRQ_MASK)
#define in_serving_softirq()	(preempt_count() & SOFTIRQ_OFFSET)

#endif /* _SKD_BENCH_LINUX_HARDIRQ_H */
