/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_READ_MAPS_H
#define _SKD_READ_MAPS_H

#include <linux/types.h>

struct skd_session;

/*
 * SKD_IOC_READ_MAPS into a kernel buffer of @len bytes (at least
 * SKD_READ_MAPS_MIN_BUF): whole records from the cursors on, which are
 * advanced past them. Returns the bytes written (0: done) or an errno.
 * Context: process; sleeps; the caller copies the buffer out afterwards.
 */
long skd_read_maps(struct skd_session *s, void *buf, u32 len,
		   u64 *cursor_pid, u64 *cursor_addr);

#endif /* _SKD_READ_MAPS_H */
