/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_BENCH_LINUX_POLL_H
#define _SKD_BENCH_LINUX_POLL_H

#include <linux/mm_types.h>
#include <linux/types.h>

struct file;
typedef struct poll_table_struct poll_table;

#endif /* _SKD_BENCH_LINUX_POLL_H */
