/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user registers and the top of the user stack of a sample
 * (skd_config.user_stack_bytes), for readers that unwind with DWARF.
 */
#ifndef _SKD_USER_STACK_H
#define _SKD_USER_STACK_H

#include <linux/types.h>

#include "skidless.h"

struct pt_regs;

/* A sample's user registers and stack, as the record carries them. */
struct skd_ustack {
	struct skd_user_stack hdr;
	u8 data[SKD_MAX_USER_STACK];
};

/*
 * The current task's user registers and up to @max bytes (a multiple of
 * 8) of its stack, into this context's scratch: @regs is the sampled
 * context (NULL: not known, the task's entry registers are used), @ip the
 * sample's ip, which a user-mode sample's regs[IP] carries. Returns the
 * scratch, or NULL when no scratch can be used here (the sample then goes
 * without). hdr.size is the number of stack bytes copied.
 * Context: NMI, or IRQs off, on the sampled CPU, with a reference taken
 * by skd_user_stack_get().
 */
struct skd_ustack *skd_user_stack_sample(struct pt_regs *regs, u64 ip,
					 u32 max);

/* Scratch space while a session asks for user stacks. Process context. */
int skd_user_stack_get(void);
void skd_user_stack_put(void);

#endif /* _SKD_USER_STACK_H */
