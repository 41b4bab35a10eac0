/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-CPU ring algorithm, free of allocation and kernel services so the
 * same source runs in the module and in the host tests (tests/unit).
 *
 * One producer CPU, one consumer. The producer may be task context, an IRQ
 * and an NMI nested on the same CPU; reservations are a local cmpxchg on
 * head and only the outermost writer publishes (see ring_core.c).
 */
#ifndef _SKD_RING_CORE_H
#define _SKD_RING_CORE_H

#ifdef __KERNEL__
#include <linux/compiler.h>
#include <linux/types.h>
#include <asm/local.h>
#else
#include "kernel_shim.h"
#endif

#include "skidless.h"

struct skd_ring_core {
	/* Producer state, touched only on the ring's own CPU. */
	local_t head;			/* bytes reserved, free-running */
	local_t nest;			/* writers in progress on this CPU */
	local_t lost_pending;		/* dropped, not yet in a LOST record */
	local_t generated;
	local_t delivered;
	local_t lost;
	local_t samples;
	local_t wakeups;
	u64 wakeup_tail;		/* data_tail at the last wakeup */

	/* Set once before the ring is used. */
	u64 size;			/* data bytes, power of two */
	u64 watermark;			/* wake every this many bytes */
	u8 *data;			/* the data mapped twice: no wrap */
	struct skd_ring_ctrl *ctrl;	/* shared with the reader */
	u32 cpu;
};

enum skd_ring_flags {
	SKD_RING_SAMPLE = 1U << 0,	/* count the record as a sample */
};

void skd_ring_core_init(struct skd_ring_core *r, struct skd_ring_ctrl *ctrl,
			void *data, u64 size, u64 watermark, u32 cpu);

/*
 * Reserve @size bytes (a multiple of 8) for one record. Returns where to
 * write it, or NULL when the ring is full: the record is then counted as
 * lost. Either way skd_ring_end() must follow. @now stamps the LOST record
 * that may be written ahead of this one.
 * Context: any, on the ring's CPU, preemption disabled.
 */
void *skd_ring_begin(struct skd_ring_core *r, u32 size, u64 now,
		     unsigned int flags);

/* The outermost writer's part of skd_ring_end(): publish, maybe wake. */
bool skd_ring_publish(struct skd_ring_core *r);

/*
 * Finish what skd_ring_begin() started; @wrote says whether it returned a
 * record. Returns true when the reader should be woken.
 * Inline for the inner writers' path, which every record of a burst
 * under skd_ring_hold() takes.
 */
static inline bool skd_ring_end(struct skd_ring_core *r, bool wrote)
{
	if (wrote)
		local_inc(&r->delivered);
	if (local_read(&r->nest) > 1) {
		/* The outermost writer publishes for us. */
		barrier();
		local_dec(&r->nest);
		return false;
	}
	return skd_ring_publish(r);
}

/*
 * Hold publication for a burst of records: until the skd_ring_end(r,
 * false) that must follow, records are reserved, written and counted as
 * usual but reach data_head (and the wakeup decision) only then, at once.
 * As an outer writer that writes nothing, for a writer with many records
 * in a row (the PMI's drain of a PEBS buffer).
 * Context: as skd_ring_begin().
 */
void skd_ring_hold(struct skd_ring_core *r);

/* Unread bytes, as the producer sees them. Any context. */
u64 skd_ring_unread(const struct skd_ring_core *r);

/* Counters for SKD_IOC_GET_STATS. Any context; exact when quiescent. */
void skd_ring_stats(const struct skd_ring_core *r, struct skd_cpu_stats *st);

#endif /* _SKD_RING_CORE_H */
