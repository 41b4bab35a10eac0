/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_BENCH_LINUX_WAIT_H
#define _SKD_BENCH_LINUX_WAIT_H

#include <linux/list.h>

/* Woken from the irq_work, never from the drain itself. */
typedef struct {
	struct list_head head;
} wait_queue_head_t;

#endif /* _SKD_BENCH_LINUX_WAIT_H */
