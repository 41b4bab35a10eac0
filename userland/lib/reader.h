/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The consumer side of a session's rings: map every ring, hand each record
 * to a callback in place, release the space. Single consumer per ring.
 */
#ifndef _SKD_READER_H
#define _SKD_READER_H

#include <stdint.h>

#include "skidless.h"

struct skd_reader;

/*
 * Map the rings of the configured session @fd: the control page and the
 * data twice over, for each possible CPU below info->nr_cpu_ids. Returns
 * NULL with errno set (the mmap's errno) on failure.
 */
struct skd_reader *skd_reader_open(int fd, const struct skd_info *info,
				   unsigned int ring_pages);

/*
 * Called per record, in ring order, with the record in place (valid until
 * the callback returns). A non-zero return stops the drain; the record is
 * then left unconsumed.
 */
typedef int (*skd_record_fn)(const struct skd_rec_header *rec, void *arg);

/*
 * Drain every ring once. Returns the number of records consumed, or -EIO
 * when a ring holds a record that cannot be valid (the ring is then
 * skipped to its head and the bytes counted in skd_reader_corrupt()).
 */
long skd_reader_drain(struct skd_reader *r, skd_record_fn fn, void *arg);
/* Bytes of all rings not yet consumed. */
uint64_t skd_reader_unread(const struct skd_reader *r);
uint64_t skd_reader_corrupt(const struct skd_reader *r);
void skd_reader_close(struct skd_reader *r);

/*
 * Is @c the control page of the ring of @cpu, @data_size bytes, in a
 * layout this reader knows? 0, or -EPROTO: the module speaks a ring
 * version newer than ours and no longer serves ours, or fills less of
 * the page than the fields we read, or describes another ring.
 */
int skd_ring_ctrl_check(const struct skd_ring_ctrl *c, unsigned int cpu,
			uint64_t data_size);

#endif /* _SKD_READER_H */
