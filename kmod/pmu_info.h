/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_PMU_INFO_H
#define _SKD_PMU_INFO_H

#include <linux/types.h>

/* One line: the PMU this machine has, or why none is usable. */
void skd_pmu_describe(char *buf, size_t len);

#endif /* _SKD_PMU_INFO_H */
