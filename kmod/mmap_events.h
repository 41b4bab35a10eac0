/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_MMAP_EVENTS_H
#define _SKD_MMAP_EVENTS_H

#include <linux/types.h>

#include "skidless.h"

struct vm_area_struct;

/*
 * SKD_REC_MMAP records as followed tasks map code (a kprobe on
 * perf_event_mmap()). Init fails only for want of memory; without
 * kprobes the module runs on, and skd_mmap_events_active() says so.
 */
int skd_mmap_events_init(void);
void skd_mmap_events_uninit(void);
bool skd_mmap_events_active(void);

/*
 * What an SKD_REC_MMAP says about @vma: fills @rec from start to flags
 * and returns its path, in @buf (@len bytes) or a constant string.
 * Context: the vma cannot change (mmap_lock held); does not sleep.
 */
const char *skd_vma_describe(struct vm_area_struct *vma, char *buf, int len,
			     struct skd_rec_mmap *rec);

/* The fields skd_vma_describe() fills, from @from into a record. */
static inline void skd_mmap_fields_copy(struct skd_rec_mmap *to,
					const struct skd_rec_mmap *from)
{
	to->start = from->start;
	to->len = from->len;
	to->pgoff = from->pgoff;
	to->maj = from->maj;
	to->min = from->min;
	to->ino = from->ino;
	to->ino_generation = from->ino_generation;
	to->prot = from->prot;
	to->flags = from->flags;
}

#endif /* _SKD_MMAP_EVENTS_H */
