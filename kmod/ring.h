/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU rings: pages, mappings and wakeups around the pure algorithm in
 * ring_core.c.
 */
#ifndef _SKD_RING_H
#define _SKD_RING_H

#include <linux/irq_work.h>
#include <linux/mm_types.h>
#include <linux/wait.h>

#include "ring_core.h"

struct skd_ring {
	struct skd_ring_core core;
	struct irq_work wakeup;		/* the producer may be an NMI */
	wait_queue_head_t *wq;		/* the session's readers */
	struct page *ctrl_page;
	struct page **pages;		/* data pages */
	unsigned int nr_pages;
	void *data;			/* vmap of pages[] twice over */
	/* PMU throttles on this CPU: NMI writes, netlink reads racily. */
	unsigned long throttles;
};

struct skd_ring *skd_ring_alloc(unsigned int cpu, unsigned int nr_pages,
				u32 wakeup_bytes, wait_queue_head_t *wq);
void skd_ring_free(struct skd_ring *ring);

/* Maps the control page or the data region described by @region. */
int skd_ring_mmap(struct skd_ring *ring, unsigned int region,
		  struct vm_area_struct *vma);

/* Poll helper: is there something for the reader? */
bool skd_ring_readable(struct skd_ring *ring, bool stopped);

#endif /* _SKD_RING_H */
