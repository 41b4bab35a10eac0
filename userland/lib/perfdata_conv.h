/* SPDX-License-Identifier: GPL-2.0 */
/*
 * skidless records (struct skd_event) as perf records: the attrs that
 * describe a session's events, and one perf record per kernel record.
 * Pure translation, no I/O: the recorder, the tests and the host tool
 * feed it; perfdata_write.c stores what it returns.
 */
#ifndef _SKD_PERFDATA_CONV_H
#define _SKD_PERFDATA_CONV_H

#include <stdbool.h>
#include <stdint.h>

#include "data_src.h"
#include "decode.h"
#include "perfdata_write.h"

struct pd_conv_config {
	uint32_t backend;		/* SKD_BACKEND_TIMER, _INTEL, _SIM */
	uint32_t cfg_flags;		/* skd_config.flags (FREQ, EXCLUDE_*) */
	uint64_t sample;		/* skd_config.sample_freq or _period */
	uint32_t callchain_depth;
	uint32_t branch_sample;		/* enum skd_branch_sample */
	uint32_t user_stack_bytes;
	const char *model;		/* Intel list name, for data_src; or NULL */
	bool inherit;			/* children are followed */
	unsigned int nr_events;		/* 0 for the timer backend */
	const struct skd_event_attr *events;
	const char *const *names;	/* per event; timer: names[0] or NULL */
	/*
	 * Bit i: event i's samples never carry memory info (PEBS without
	 * Data_LA or load latency: cycles:pp, br_inst_retired...:pp). With
	 * every precise event so marked, samples have no ADDR, DATA_SRC and
	 * WEIGHT fields, as perf records them: readers that know no
	 * WEIGHT_STRUCT (AutoFDO's) then read Golden Cove captures too.
	 */
	uint32_t no_mem_events;
};

struct pd_conv;

/* NULL with errno: ENOMEM, EINVAL (more than SKD_MAX_EVENTS events). */
struct pd_conv *pd_conv_new(const struct pd_conv_config *cfg);
void pd_conv_free(struct pd_conv *c);

/* The events, as pd_writer_open() takes them (ids 1..n). */
const struct pd_event_spec *pd_conv_events(const struct pd_conv *c,
					   unsigned int *nr);
uint64_t pd_conv_sample_type(const struct pd_conv *c);

/*
 * The perf record for @ev, valid until the next call on @c; NULL when
 * the record has no perf counterpart (EXEC: perf learns of an exec from
 * COMM with COMM_EXEC and the new MMAP2s) or is malformed (*err set).
 */
const struct pd_header *pd_conv_record(struct pd_conv *c,
				       const struct skd_event *ev, int *err);

struct pd_map {
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu;
	uint64_t start, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	const char *path;		/* "" for anonymous code */
};

/* A PERF_RECORD_MMAP2 for a user mapping. */
const struct pd_header *pd_conv_mmap2(struct pd_conv *c,
				      const struct pd_map *m, int *err);
/* A PERF_RECORD_MMAP of the kernel or a module (pid -1, misc KERNEL). */
const struct pd_header *pd_conv_kernel_mmap(struct pd_conv *c,
					    const char *name, uint64_t start,
					    uint64_t len, uint64_t pgoff,
					    int *err);


/* Event name EVENT_DESC gives perf, and the EVENT_DESC payload itself. */
int pd_conv_event_desc(const struct pd_conv *c, struct pd_buf *out);

#endif /* _SKD_PERFDATA_CONV_H */
