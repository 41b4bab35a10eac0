/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_BENCH_LINUX_HRTIMER_H
#define _SKD_BENCH_LINUX_HRTIMER_H

#include <linux/types.h>

/* Only a member of struct skd_pmu_cpu here: never armed. */
struct hrtimer {
	u64 expires;
	void *function;
};

#endif /* _SKD_BENCH_LINUX_HRTIMER_H */
