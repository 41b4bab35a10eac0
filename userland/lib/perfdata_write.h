/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing perf.data. File mode: header, id arrays, attrs, the data
 * records, then the feature table and payloads; the header is rewritten
 * at close with the final sizes (tools/perf/util/header.c
 * perf_session__do_write_header() writes the same layout). Pipe mode:
 * the 16-byte header, one HEADER_ATTR record per event, HEADER_FEATURE
 * records for the features perf streams so, then the data, nothing ever
 * seeked back to; build-ids as HEADER_BUILD_ID records.
 *
 * A full disk (ENOSPC, EFBIG) stops the data where the last whole
 * records ended; close then cuts the file back at a flush boundary far
 * enough to fit a PERF_RECORD_LOST that counts every record not kept,
 * and the features. perf reads such a file and says it lost events.
 */
#ifndef _SKD_PERFDATA_WRITE_H
#define _SKD_PERFDATA_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "perf_data.h"

/* A growable byte buffer for feature payloads and records. */
struct pd_buf {
	uint8_t *p;
	size_t len, cap;
	int err;		/* -ENOMEM, sticky */
};

void pd_buf_put(struct pd_buf *b, const void *p, size_t n);

/*
 * Fixed-size values inline while the buffer has room: records are built
 * a field at a time for every sample, and a call per field was most of
 * the conversion's cost.
 */
static inline void pd_buf_u32(struct pd_buf *b, uint32_t v)
{
	if (b->len + sizeof(v) > b->cap) {
		pd_buf_put(b, &v, sizeof(v));
		return;
	}
	memcpy(b->p + b->len, &v, sizeof(v));
	b->len += sizeof(v);
}

static inline void pd_buf_u64(struct pd_buf *b, uint64_t v)
{
	if (b->len + sizeof(v) > b->cap) {
		pd_buf_put(b, &v, sizeof(v));
		return;
	}
	memcpy(b->p + b->len, &v, sizeof(v));
	b->len += sizeof(v);
}
/* perf's do_write_string(): u32 length (padded to 64), then the string. */
void pd_buf_string(struct pd_buf *b, const char *s);
void pd_buf_free(struct pd_buf *b);

struct pd_event_spec {
	struct pd_attr attr;
	uint64_t id;		/* the sample id all its records carry */
	const char *name;	/* for EVENT_DESC ("cycles:pp") */
};

struct pd_writer;

/*
 * Start writing to @fd (owned by the caller, left open). @pipe: stream
 * mode. The events are copied. NULL with errno set on failure.
 */
struct pd_writer *pd_writer_open(int fd, bool pipe,
				 const struct pd_event_spec *events,
				 unsigned int nr_events);

/*
 * Append one whole record (header size bytes, a multiple of 8). Returns
 * 0, or the first error; after ENOSPC/EFBIG records are counted as lost.
 */
int pd_writer_put(struct pd_writer *w, const void *rec);

/*
 * The payload of feature @feat, copied. Pipe mode: given before the first
 * record, it goes out at once as a HEADER_FEATURE record (perf then knows
 * event names before samples), later at close. File mode: after the data,
 * at close. A feature given twice keeps the last payload.
 */
int pd_writer_feature(struct pd_writer *w, unsigned int feat,
		      const void *payload, size_t len);

/*
 * Flush the buffer: the records so far are in the file, or, after
 * pd_writer_async(), queued for it.
 */
int pd_writer_flush(struct pd_writer *w);

/*
 * From now on a thread of the writer's own writes full buffers, so put()
 * returns without waiting on the file system (unless 16 buffers, 1 MiB,
 * are already waiting). A write error shows in a later put() or flush()
 * return, and in close's result as before. 0 or -errno.
 */
int pd_writer_async(struct pd_writer *w);

struct pd_writer_result {
	uint64_t records;	/* data records in the file */
	uint64_t lost;		/* records not kept: disk full */
	uint64_t data_bytes;
	int err;		/* first write error (-ENOSPC, -EFBIG, ...) */
	bool truncated;		/* the file ends early, marked by a LOST */
};

/*
 * Write the features (and in file mode the final header), free @w.
 * Returns 0 when the file is complete; -errno otherwise, with @res
 * saying what the file holds.
 */
int pd_writer_close(struct pd_writer *w, struct pd_writer_result *res);

/* Size of the sample_id trailer that @sample_type asks for. */
size_t pd_id_trailer_size(uint64_t sample_type);

#endif /* _SKD_PERFDATA_WRITE_H */
