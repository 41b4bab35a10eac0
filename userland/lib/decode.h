/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Record decoding: pure functions over bytes, no I/O, so they can be fuzzed
 * and used on rings and files alike. Records come from the kernel or from a
 * file that may be truncated or hostile; nothing here trusts a size.
 */
#ifndef _SKD_DECODE_H
#define _SKD_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "skidless.h"

/* A decoded record; the pointers point into the decoded buffer. */
struct skd_event {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	const struct skd_rec_header *hdr;
	const struct skd_rec_id *id;		/* NULL for unknown types */
	union {
		struct {
			const struct skd_rec_sample *rec;
			const __u64 *ips;	/* NULL without a call chain */
			uint16_t nr;
			uint16_t nr_kernel;
			const struct skd_sample_mem *mem;	/* or NULL */
			const struct skd_branch_entry *branches;
			uint16_t nr_branches;	/* branches NULL: none */
			uint16_t branch_flags;	/* SKD_BR_CALL_STACK */
			/* NULL without SKD_SAMPLE_USER_STACK */
			const struct skd_user_stack *ustack;
			const uint8_t *stack;	/* ustack->size bytes */
		} sample;
		const struct skd_rec_throttle *throttle;
		const struct skd_rec_lost *lost;
		const struct skd_rec_comm *comm;
		struct {
			const struct skd_rec_exec *rec;
			const char *path;	/* NUL-terminated, checked */
		} exec;
		const struct skd_rec_task *task;	/* FORK and EXIT */
		struct {
			const struct skd_rec_mmap *rec;
			const char *path;	/* NUL-terminated, checked */
		} mmap;
	};
};

/*
 * Decode the record at @buf, of which @len bytes are readable. @buf must be
 * 8-byte aligned. Returns the record's size (> 0), or -EINVAL when the
 * record is malformed: a size below 8, not a multiple of 8 or beyond @len,
 * a body too short for its type, a call chain or string running past the
 * end, a user stack whose abi is unknown, whose size is above
 * SKD_MAX_USER_STACK, non-zero without registers (abi NONE), or whose
 * bytes (padded to 8) run past the end. A type this reader does not know decodes with id == NULL and is
 * skipped by its size, as the ABI promises.
 */
int skd_decode(const void *buf, size_t len, struct skd_event *ev);

/* Printable name of a record type ("SAMPLE", ...) or "UNKNOWN". */
const char *skd_rec_type_name(uint32_t type);

/* Is @addr a kernel address (upper half of the x86-64 address space)? */
static inline int skd_is_kernel_addr(uint64_t addr)
{
	return addr >= 0xffff800000000000ULL;
}

#endif /* _SKD_DECODE_H */
