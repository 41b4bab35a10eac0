// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU ring: reserve, write, publish; loss accounting; wakeup decision.
 *
 * Ordering between the kernel producer and the reader:
 *
 *   kernel (skd_ring_begin/end)         reader (uapi/skidless.h loop)
 *
 *   tail = load_acquire(data_tail)  (A)  head = load_acquire(data_head)  (C)
 *   if (space) write record                read records up to head
 *   store_release(data_head, head)  (B)  store_release(data_tail, tail)  (D)
 *
 * B pairs with C: the reader sees the record bytes written before head.
 * D pairs with A: the kernel does not overwrite bytes the reader is still
 * reading, because it only reuses space below a tail it loaded with
 * acquire, and the reader released that tail after its last read.
 *
 * Nesting on one CPU (task -> IRQ -> NMI): every writer bumps nest, claims
 * its bytes with a local cmpxchg on head, and only the outermost writer
 * stores data_head. An inner writer finishes before the outer one resumes,
 * so by the time the outermost publishes, every byte below head is written.
 * The outermost re-reads head after dropping nest and publishes again if a
 * writer slipped in between its store and its decrement.
 */
#ifdef __KERNEL__
#include <linux/compiler.h>
#include <asm/barrier.h>
#endif

#include "ring_core.h"

void skd_ring_core_init(struct skd_ring_core *r, struct skd_ring_ctrl *ctrl,
			void *data, u64 size, u64 watermark, u32 cpu)
{
	local_set(&r->head, 0);
	local_set(&r->nest, 0);
	local_set(&r->lost_pending, 0);
	local_set(&r->generated, 0);
	local_set(&r->delivered, 0);
	local_set(&r->lost, 0);
	local_set(&r->samples, 0);
	local_set(&r->wakeups, 0);
	r->wakeup_tail = ~0ULL;		/* no wakeup yet: unlike any tail */
	r->size = size;
	r->watermark = watermark ? watermark : size / 2;
	r->data = data;
	r->ctrl = ctrl;
	r->cpu = cpu;

	ctrl->version = SKD_RING_VERSION;
	ctrl->compat_version = SKD_RING_VERSION;
	ctrl->size = sizeof(*ctrl);
	ctrl->cpu = cpu;
	ctrl->data_size = size;
	ctrl->data_offset = SKD_MMAP_OFFSET(cpu, SKD_MMAP_DATA);
	ctrl->data_head = 0;
	ctrl->data_tail = 0;
}

static void put_lost(void *where, u64 count, u64 now, u32 cpu)
{
	struct skd_rec_lost *rec = where;

	rec->hdr.type = SKD_REC_LOST;
	rec->hdr.misc = 0;
	rec->hdr.size = sizeof(*rec);
	rec->id.time = now;
	rec->id.cpu = cpu;
	rec->id.pid = 0;
	rec->id.tid = 0;
	rec->id.reserved = 0;
	rec->lost = count;
}

void *skd_ring_begin(struct skd_ring_core *r, u32 size, u64 now,
		     unsigned int flags)
{
	unsigned long pending;
	u64 head, tail, used, need;
	u8 *rec;

	local_inc(&r->nest);
	barrier();

	local_inc(&r->generated);
	if (flags & SKD_RING_SAMPLE)
		local_inc(&r->samples);

	/*
	 * Take the pending count first so a nested writer cannot report the
	 * same losses; it goes back if this record is dropped too.
	 */
	pending = local_xchg(&r->lost_pending, 0);
	need = size + (pending ? sizeof(struct skd_rec_lost) : 0);

	do {
		tail = smp_load_acquire(&r->ctrl->data_tail);	/* A, pairs with D */
		head = local_read(&r->head);
		used = head - tail;
		/* A tail ahead of head or too far behind is a lying reader. */
		if (used > r->size || r->size - used < need)
			goto drop;
	} while (local_cmpxchg(&r->head, head, head + need) != (long)head);

	rec = r->data + (head & (r->size - 1));
	if (pending) {
		put_lost(rec, pending, now, r->cpu);
		rec += sizeof(struct skd_rec_lost);
	}
	return rec;

drop:
	local_add(pending + 1, &r->lost_pending);
	local_inc(&r->lost);
	return NULL;
}

bool skd_ring_publish(struct skd_ring_core *r)
{
	bool wake = false;
	u64 head, tail;

again:
	if (local_read(&r->nest) > 1) {
		/* The outermost writer publishes for us. */
		barrier();
		local_dec(&r->nest);
		return false;
	}

	head = local_read(&r->head);
	smp_store_release(&r->ctrl->data_head, head);	/* B, pairs with C */

	/*
	 * Still outermost: nested writers only come and go. poll() waits for
	 * watermark unread bytes, so wake when that holds, once per position
	 * of the reader's tail (it sleeps only after reading to that tail),
	 * and count once per call even if a nested writer made us publish
	 * twice.
	 */
	tail = READ_ONCE(r->ctrl->data_tail);
	if (head - tail >= r->watermark && tail != r->wakeup_tail) {
		r->wakeup_tail = tail;
		if (!wake)
			local_inc(&r->wakeups);
		wake = true;
	}

	barrier();
	local_dec(&r->nest);
	barrier();
	/* A writer that reserved after our load published nothing. */
	if (unlikely(head != (u64)local_read(&r->head))) {
		local_inc(&r->nest);
		barrier();
		goto again;
	}
	return wake;
}

void skd_ring_hold(struct skd_ring_core *r)
{
	/* The nest count makes every writer until our end an inner one. */
	local_inc(&r->nest);
	barrier();
}

u64 skd_ring_unread(const struct skd_ring_core *r)
{
	/* Our own head: the copy in the control page is the reader's to break. */
	u64 head = local_read(&r->head);
	u64 tail = READ_ONCE(r->ctrl->data_tail);

	return head - tail > r->size ? r->size : head - tail;
}

void skd_ring_stats(const struct skd_ring_core *r, struct skd_cpu_stats *st)
{
	st->generated = local_read(&r->generated);
	st->delivered = local_read(&r->delivered);
	st->lost = local_read(&r->lost);
	st->lost_unreported = local_read(&r->lost_pending);
	st->samples = local_read(&r->samples);
	st->wakeups = local_read(&r->wakeups);
	st->reserved[0] = 0;
	st->reserved[1] = 0;
}
