/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_BENCH_LINUX_IRQ_WORK_H
#define _SKD_BENCH_LINUX_IRQ_WORK_H

#include <linux/types.h>

#define IRQ_WORK_PENDING	0x01U
#define IRQ_WORK_BUSY		0x02U
#define IRQ_WORK_CLAIMED	(IRQ_WORK_PENDING | IRQ_WORK_BUSY)

struct llist_node {
	struct llist_node *next;
};

struct irq_work {
	unsigned int flags;
	struct llist_node llnode;
	void (*func)(struct irq_work *work);
};

/* Out of line in the kernel (kernel/irq_work.c), and in stubs.c. */
bool irq_work_queue(struct irq_work *work);

/* The bench's: interrupts raised so far; run the queued work, as the IRQ. */
extern unsigned long skd_bench_irq_work_raised;
void skd_bench_irq_work_run(void);

#endif /* _SKD_BENCH_LINUX_IRQ_WORK_H */
