/* SPDX-License-Identifier: GPL-2.0 */
/* Pinned memory charged like perf's buffers (memlock.c). */
#ifndef _SKD_MEMLOCK_H
#define _SKD_MEMLOCK_H

#include <linux/types.h>

struct mm_struct;

struct skd_memlock {
	uid_t uid;
	unsigned long user_pages;	/* in the user's allowance */
	struct mm_struct *mm;		/* charged the rest, or NULL */
	unsigned long mm_pages;
};

/*
 * Charge @pages to the current user and process into @ml: 0, -EPERM
 * when they exceed the allowance and RLIMIT_MEMLOCK (without
 * CAP_IPC_LOCK), or -ENOMEM. Process context.
 */
int skd_memlock_charge(struct skd_memlock *ml, unsigned long pages);
/* Give back what skd_memlock_charge() took; any process context. */
void skd_memlock_uncharge(struct skd_memlock *ml);
/* The mlock_kb parameter: KiB per online CPU a user pins freely. */
unsigned int skd_memlock_kb(void);
void skd_memlock_set_kb(unsigned int kb);
void skd_memlock_uninit(void);

#endif /* _SKD_MEMLOCK_H */
