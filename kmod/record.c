// SPDX-License-Identifier: GPL-2.0
/*
 * Record emission: the only place that turns a context into ring bytes.
 * Everything here may run in NMI context: no locks, no allocation, no
 * printk; the per-CPU scratch space is split by context so a sample taken
 * in an NMI does not trample one being built by the IRQ it interrupted.
 */
#include <linux/align.h>
#include <linux/hardirq.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <asm/ptrace.h>

#include "callchain.h"
#include "record.h"
#include "ring.h"
#include "session.h"
#include "user_stack.h"

enum scratch_ctx {
	SCRATCH_TASK,
	SCRATCH_SOFTIRQ,
	SCRATCH_HARDIRQ,
	SCRATCH_NMI,
	SCRATCH_NR,
};

struct scratch {
	u64 ips[SKD_MAX_CALLCHAIN];
	unsigned int nr;		/* frames in ips[] */
	unsigned int nr_kernel;		/* of them, kernel frames */
};

static struct scratch __percpu *skd_scratch;

static struct scratch *this_scratch(void)
{
	enum scratch_ctx ctx;

	if (in_nmi())
		ctx = SCRATCH_NMI;
	else if (in_hardirq())
		ctx = SCRATCH_HARDIRQ;
	else if (in_serving_softirq())
		ctx = SCRATCH_SOFTIRQ;
	else
		ctx = SCRATCH_TASK;
	return this_cpu_ptr(skd_scratch) + ctx;
}

static __always_inline void task_ids(struct skd_session *s,
				     struct task_struct *task,
				     struct skd_task_ids *ids)
{
	if (task && !is_idle_task(task)) {
		ids->pid = task_tgid_nr_ns(task, s->pid_ns);
		ids->tid = task_pid_nr_ns(task, s->pid_ns);
	} else {
		ids->pid = 0;
		ids->tid = 0;
	}
}

void skd_record_task_ids(struct skd_session *s, struct task_struct *task,
			 struct skd_task_ids *ids)
{
	task_ids(s, task, ids);
}

/*
 * Begin and end are inlined into skd_record_emit_sample(), which runs once
 * per PMU sample, where each call would add a few percent.
 */
static __always_inline void *record_begin(struct skd_ring *ring, u32 type,
					  u16 misc, u32 size,
					  const struct skd_task_ids *ids,
					  unsigned int ring_flags, u64 time)
{
	u64 now = ktime_get_mono_fast_ns();
	struct skd_rec_header *hdr;
	struct skd_rec_id *id;

	hdr = skd_ring_begin(&ring->core, size, now, ring_flags);
	if (!hdr)
		return NULL;

	hdr->type = type;
	hdr->misc = misc;
	hdr->size = size;
	id = (struct skd_rec_id *)(hdr + 1);
	id->time = time ?: now;
	id->cpu = ring->core.cpu;
	id->pid = ids->pid;
	id->tid = ids->tid;
	id->reserved = 0;
	return hdr;
}

static __always_inline void record_end(struct skd_ring *ring, void *rec)
{
	if (skd_ring_end(&ring->core, rec))
		irq_work_queue(&ring->wakeup);
}

void *skd_record_begin(struct skd_session *s, u32 type, u16 misc, u32 size,
		       struct task_struct *task, unsigned int ring_flags)
{
	struct skd_task_ids ids;

	task_ids(s, task, &ids);
	return record_begin(s->rings[smp_processor_id()], type, misc, size,
			    &ids, ring_flags, 0);
}

void skd_record_end(struct skd_session *s, void *rec)
{
	record_end(s->rings[smp_processor_id()], rec);
}

void skd_record_burst_begin(struct skd_session *s)
{
	skd_ring_hold(&s->rings[smp_processor_id()]->core);
}

void skd_record_burst_end(struct skd_session *s)
{
	record_end(s->rings[smp_processor_id()], NULL);
}

/*
 * The call chain of @d's context, in this context's scratch. Out of line:
 * the samples that have none do not pay for its stack and registers.
 */
static noinline struct scratch *sample_callchain(const struct skd_sample_data *d,
						 unsigned int depth)
{
	struct scratch *scratch = this_scratch();
	bool kernel = (long)d->ip < 0;
	bool chain_in_kernel;

	scratch->nr = skd_callchain(d->regs, scratch->ips, depth,
				    &scratch->nr_kernel);
	/* The sample's own ip leads when the chain starts in its mode. */
	chain_in_kernel = scratch->nr_kernel > 0;
	if (scratch->nr && kernel == chain_in_kernel)
		scratch->ips[0] = d->ip;
	return scratch;
}

/* The largest record: its size is a u16 and a multiple of 8. */
#define SKD_REC_SIZE_MAX	0xfff8U

/*
 * Room for the user stack: the record stays within its u16 size and within
 * half the ring (@ring_bytes), where it can be delivered; @fixed is the
 * rest of it.
 */
static u32 user_stack_room(const struct skd_session *s, u64 ring_bytes,
			   u32 fixed)
{
	u64 limit = min_t(u64, SKD_REC_SIZE_MAX, ring_bytes / 2);

	fixed += sizeof(struct skd_user_stack);
	if (limit <= fixed)
		return 0;
	return min_t(u32, s->cfg.user_stack_bytes, limit - fixed) & ~7U;
}

/* The user stack of @d's task, and its bytes added to @size. Out of line. */
static noinline struct skd_ustack *
sample_ustack(const struct skd_session *s, const struct skd_ring *ring,
	      const struct skd_sample_data *d, u32 *size)
{
	struct skd_ustack *us;

	us = skd_user_stack_sample(d->regs, d->ip,
				   user_stack_room(s, ring->core.size, *size));
	if (us)
		*size += sizeof(us->hdr) + ALIGN(us->hdr.size, 8);
	return us;
}

/* The user stack section: the record's last bytes. */
static noinline void put_ustack(struct skd_rec_sample *rec,
				const struct skd_ustack *us)
{
	u32 n = us->hdr.size, padded = ALIGN(n, 8);
	u8 *tail = (u8 *)rec + rec->hdr.size - padded - sizeof(us->hdr);

	memcpy(tail, &us->hdr, sizeof(us->hdr));
	tail += sizeof(us->hdr);
	memcpy(tail, us->data, n);
	memset(tail + n, 0, padded - n);
}

/*
 * The sample, with or without the user stack: a constant @with_ustack
 * gives two copies, and the common one carries none of the stack's code.
 */
static __always_inline void emit_sample(struct skd_session *s,
					const struct skd_sample_data *d,
					bool with_ustack)
{
	struct skd_ring *ring = s->rings[smp_processor_id()];
	struct scratch *chain = NULL;
	struct skd_ustack *ustack = NULL;
	struct skd_rec_sample *rec;
	bool kernel = (long)d->ip < 0;	/* upper half of the address space */
	u32 size = sizeof(*rec), fields = 0;
	u8 *tail;

	if (d->regs && s->cfg.callchain_depth) {
		chain = sample_callchain(d, s->cfg.callchain_depth);
		size += sizeof(struct skd_callchain) + chain->nr * sizeof(u64);
		fields |= SKD_SAMPLE_CALLCHAIN;
	}
	if (d->mem) {
		size += sizeof(*d->mem);
		fields |= SKD_SAMPLE_MEM;
	}
	if (d->branches) {
		size += sizeof(struct skd_branches) +
			d->nr_branches * sizeof(*d->branches);
		fields |= SKD_SAMPLE_BRANCHES;
	}
	if (with_ustack) {
		ustack = sample_ustack(s, ring, d, &size);
		if (ustack)
			fields |= SKD_SAMPLE_USER_STACK;
	}

	rec = record_begin(ring, SKD_REC_SAMPLE, d->misc |
			   (kernel ? SKD_MISC_KERNEL : SKD_MISC_USER),
			   size, d->ids, SKD_RING_SAMPLE, d->time);
	if (rec) {
		rec->ip = d->ip;
		rec->period = d->period;
		rec->fields = fields;
		rec->event = d->event;
		rec->reserved = 0;
		tail = (u8 *)(rec + 1);
		if (fields & SKD_SAMPLE_CALLCHAIN) {
			struct skd_callchain *cc = (void *)tail;

			cc->nr = chain->nr;
			cc->nr_kernel = chain->nr_kernel;
			cc->reserved = 0;
			memcpy(cc->ips, chain->ips, chain->nr * sizeof(u64));
			tail += sizeof(*cc) + chain->nr * sizeof(u64);
		}
		if (fields & SKD_SAMPLE_MEM) {
			memcpy(tail, d->mem, sizeof(*d->mem));
			tail += sizeof(*d->mem);
		}
		if (fields & SKD_SAMPLE_BRANCHES) {
			struct skd_branches *br = (void *)tail;

			br->nr = d->nr_branches;
			br->flags = d->branch_flags;
			br->reserved = 0;
			memcpy(br->entries, d->branches,
			       d->nr_branches * sizeof(*d->branches));
		}
		/* Last: it finds its place from the record's end. */
		if (with_ustack && (fields & SKD_SAMPLE_USER_STACK))
			put_ustack(rec, ustack);
	}
	record_end(ring, rec);
}

static noinline void emit_sample_ustack(struct skd_session *s,
					const struct skd_sample_data *d)
{
	emit_sample(s, d, true);
}

void skd_record_emit_sample(struct skd_session *s,
			    const struct skd_sample_data *d)
{
	if (unlikely(s->cfg.user_stack_bytes))
		emit_sample_ustack(s, d);
	else
		emit_sample(s, d, false);
}

void skd_record_sample(struct skd_session *s, struct pt_regs *regs,
		       u64 period, u16 event)
{
	struct skd_task_ids ids;
	struct skd_sample_data d = {
		.ip = instruction_pointer(regs),
		.period = period,
		.event = event,
		.regs = regs,
		.ids = &ids,
	};
	bool user = user_mode(regs);

	if (s->cfg.flags & (user ? SKD_CFG_EXCLUDE_USER : SKD_CFG_EXCLUDE_KERNEL))
		return;
	if (!skd_session_wants_task(s, current))
		return;
	task_ids(s, current, &ids);
	skd_record_emit_sample(s, &d);
}

int skd_record_init(void)
{
	skd_scratch = __alloc_percpu(sizeof(struct scratch) * SCRATCH_NR,
				     __alignof__(struct scratch));
	return skd_scratch ? 0 : -ENOMEM;
}

void skd_record_uninit(void)
{
	free_percpu(skd_scratch);
}
