/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `skidless record` does with each record it drains from a ring or
 * gets from SKD_IOC_READ_MAPS: decode it once, count it, note the kernel
 * addresses a native capture must name (KSYM records), and hand it to
 * the output, which converts it to perf.data or writes it as it is.
 * This is the reader's per-sample path: nothing here walks a sample's
 * user frames or touches /proc or the file system.
 */
#ifndef _SKD_RECORD_SINK_H
#define _SKD_RECORD_SINK_H

#include <stdint.h>

#include "skidless.h"

struct ksym_hits;
struct record_output;

struct record_sink {
	struct record_output *out;
	struct ksym_hits *khits;	/* NULL: perf.data reads kallsyms itself */
	uint64_t records;
	uint64_t samples;
	uint64_t lost_reported;		/* in LOST records */
	uint64_t throttled;		/* THROTTLE records */
	uint64_t malformed;		/* skipped: failed to decode */
};

/* A record as the module wrote it; never fails (malformed ones counted). */
void record_sink_put(struct record_sink *s, const struct skd_rec_header *h);

#endif /* _SKD_RECORD_SINK_H */
