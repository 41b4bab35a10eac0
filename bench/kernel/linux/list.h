/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_BENCH_LINUX_LIST_H
#define _SKD_BENCH_LINUX_LIST_H

struct list_head {
	struct list_head *next, *prev;
};

#endif /* _SKD_BENCH_LINUX_LIST_H */
