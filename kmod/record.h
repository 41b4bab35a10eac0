/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing one record into the current CPU's ring of a session: header and
 * id filled in one place, wakeup raised in one place.
 */
#ifndef _SKD_RECORD_H
#define _SKD_RECORD_H

#include <linux/types.h>

struct skd_session;
struct task_struct;
struct pt_regs;

/*
 * Reserve @size bytes for a record of @type on this CPU's ring of @s and
 * fill its header and id for @task (NULL: no task, pid/tid 0). Returns the
 * record or NULL when it was dropped; skd_record_end() must follow either
 * way. Context: any, preemption disabled.
 */
void *skd_record_begin(struct skd_session *s, u32 type, u16 misc, u32 size,
		       struct task_struct *task, unsigned int ring_flags);
void skd_record_end(struct skd_session *s, void *rec);

/*
 * A burst of records on this CPU: written one by one as usual between
 * these two, but published to the reader once, at the end, with one
 * wakeup decision. Context: as the records', on one CPU throughout.
 */
void skd_record_burst_begin(struct skd_session *s);
void skd_record_burst_end(struct skd_session *s);

/*
 * One SKD_REC_SAMPLE for the context in @regs, with its call chain when the
 * session asked for one. Applies the session's user/kernel and task
 * filters. Context: IRQ or NMI on the sampled CPU.
 */
void skd_record_sample(struct skd_session *s, struct pt_regs *regs,
		       u64 period, u16 event);

struct skd_sample_mem;
struct skd_branch_entry;

/* A task as records name it: its ids in the session's pid namespace. */
struct skd_task_ids {
	u32 pid;			/* tgid */
	u32 tid;
};

/*
 * @task's ids in @s's pid namespace: 0 and 0 for no task, the idle task
 * or a task not visible there. For a writer of several records about one
 * task, so the lookup is done once. Context: any.
 */
void skd_record_task_ids(struct skd_session *s, struct task_struct *task,
			 struct skd_task_ids *ids);

/* A sample as a PMU backend has it. */
struct skd_sample_data {
	u64 ip;				/* the mode follows from the address */
	u64 period;
	u16 event;
	u16 misc;			/* SKD_MISC_EXACT_IP, SKD_MISC_MODELED */
	struct pt_regs *regs;		/* call chain source; NULL: none */
	const struct skd_sample_mem *mem;	/* NULL: none */
	const struct skd_branch_entry *branches;
	u16 nr_branches;		/* 0 with branches == NULL: none */
	u16 branch_flags;		/* SKD_BR_CALL_STACK */
	const struct skd_task_ids *ids;	/* current's: skd_record_task_ids() */
	u64 time;			/* CLOCK_MONOTONIC ns; 0: now */
};

/*
 * One SKD_REC_SAMPLE from @d for the current task. No filtering: the
 * counters' own mode bits and task switching did that. Context: NMI or
 * IRQs off, on the sampled CPU.
 */
void skd_record_emit_sample(struct skd_session *s,
			    const struct skd_sample_data *d);

int skd_record_init(void);
void skd_record_uninit(void);

#endif /* _SKD_RECORD_H */
