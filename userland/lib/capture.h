/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The skidless capture file: a 64-byte header, then records framed exactly
 * like the kernel's (struct skd_rec_header, 8-byte aligned). Kernel records
 * are stored as the ring had them; the reader adds its own in the 0x8000
 * range (uapi/skidless.h leaves it to readers): the session description,
 * process maps, kernel symbols that were hit, per-CPU counters, and an end
 * marker that says the file is complete.
 */
#ifndef _SKD_CAPTURE_H
#define _SKD_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "skidless.h"

#define SKD_FILE_MAGIC		"SKIDLESS"
/*
 * 2: struct skd_event_attr grew config1 (48 bytes, uapi version 1), which
 * moved skd_frec_event's name. Version 1 files are refused, not misread.
 */
#define SKD_FILE_VERSION	2U

struct skd_file_header {
	char magic[8];
	uint32_t version;
	uint32_t header_size;	/* records start here */
	uint64_t reserved[6];
};

enum skd_file_rec_type {
	SKD_FREC_SESSION	= 0x8001,
	SKD_FREC_MAP		= 0x8002,
	SKD_FREC_KSYM		= 0x8003,
	SKD_FREC_STATS		= 0x8004,
	SKD_FREC_FINISHED	= 0x8005,
	SKD_FREC_EVENT		= 0x8006,
	SKD_FREC_BUILD_ID	= 0x8007,
};

/*
 * Then NUL-terminated strings: hostname, kernel release, command line,
 * and the PMU ("timer", "intel:skylake", "sim:icelake", ...).
 */
struct skd_frec_session {
	struct skd_rec_header hdr;
	uint64_t start_time;		/* CLOCK_MONOTONIC ns */
	uint64_t start_realtime;	/* CLOCK_REALTIME ns, same moment */
	uint32_t backend;
	uint32_t flags;			/* skd_config.flags */
	uint64_t sample;		/* frequency or period, per flags */
	uint32_t callchain_depth;
	uint32_t nr_cpus;
	char strings[];
};

/* One executable mapping of a process, as /proc/PID/maps had it at time. */
struct skd_frec_map {
	struct skd_rec_header hdr;
	uint64_t time;
	uint32_t pid;
	uint32_t reserved;
	uint64_t start;
	uint64_t end;
	uint64_t pgoff;
	char path[];
};

/* A kernel function some sample hit, from /proc/kallsyms at record time. */
struct skd_frec_ksym {
	struct skd_rec_header hdr;
	uint64_t addr;
	uint64_t size;
	char name[];
};

struct skd_frec_stats {
	struct skd_rec_header hdr;
	uint32_t cpu;
	uint32_t reserved;
	struct skd_cpu_stats stats;
};

/* One event of the session, as configured, and its name for people. */
struct skd_frec_event {
	struct skd_rec_header hdr;
	uint32_t index;			/* skd_rec_sample.event */
	uint32_t branch_sample;		/* the session's LBR filter */
	struct skd_event_attr attr;
	char name[];
};

/*
 * The build-id of an object the capture names (perf.data's BUILD_ID
 * feature, as loaded for report): misc SKD_MISC_KERNEL for the kernel
 * ("[kernel.kallsyms]") and its modules.
 */
struct skd_frec_build_id {
	struct skd_rec_header hdr;
	char hex[48];			/* lower-case hex, NUL-terminated */
	char path[];
};

struct skd_frec_finished {
	struct skd_rec_header hdr;
	uint64_t time;
};

/* Writing. Every function returns 0 or -errno; errors are sticky. */
struct skd_capture_writer;

struct skd_capture_writer *skd_capture_create(const char *path);
/*
 * A writer that hands each whole record to @fn (no file header): how
 * record turns the same stream into another format. A non-zero return
 * of @fn becomes the writer's sticky error.
 */
typedef int (*skd_capture_sink_fn)(const struct skd_rec_header *rec,
				   void *arg);
struct skd_capture_writer *skd_capture_create_sink(skd_capture_sink_fn fn,
						  void *arg);
int skd_capture_put(struct skd_capture_writer *w, const void *rec);
int skd_capture_put_session(struct skd_capture_writer *w,
			    const struct skd_frec_session *s,
			    const char *hostname, const char *release,
			    const char *cmdline, const char *pmu);
int skd_capture_put_event(struct skd_capture_writer *w, uint32_t index,
			  uint32_t branch_sample,
			  const struct skd_event_attr *attr, const char *name);
int skd_capture_put_map(struct skd_capture_writer *w, uint64_t time,
			uint32_t pid, uint64_t start, uint64_t end,
			uint64_t pgoff, const char *path);
int skd_capture_put_ksym(struct skd_capture_writer *w, uint64_t addr,
			 uint64_t size, const char *name);
int skd_capture_put_stats(struct skd_capture_writer *w, uint32_t cpu,
			  const struct skd_cpu_stats *st);
uint64_t skd_capture_bytes(const struct skd_capture_writer *w);
/* Writes the end marker, flushes and closes; frees @w in every case. */
int skd_capture_finish(struct skd_capture_writer *w, uint64_t time);

/* Reading: the whole file mapped, records walked in place. */
struct skd_capture {
	const uint8_t *base;
	size_t len;
	size_t first;		/* offset of the first record */
	int finished;		/* an end marker was found by skd_capture_next */
	/*
	 * Set when the records were converted from a perf.data whose data
	 * went bad at this offset of the original file (0: none).
	 */
	size_t bad_at;
};

/*
 * Open and check @path. On failure returns -errno and writes a sentence
 * saying what is wrong with the file into @err.
 */
int skd_capture_open(const char *path, struct skd_capture *c, char *err,
		     size_t errlen);
/*
 * The record at *@off, advancing *@off past it; NULL at the end of the
 * file. A record that overruns the file or is malformed ends the walk with
 * *@bad set to its offset (else *@bad is left alone).
 */
const struct skd_rec_header *skd_capture_next(struct skd_capture *c,
					      size_t *off, size_t *bad);
void skd_capture_close(struct skd_capture *c);

/* Checked accessors for the reader's own records; NULL when malformed. */
const struct skd_frec_map *skd_frec_map(const struct skd_rec_header *h);
const struct skd_frec_ksym *skd_frec_ksym(const struct skd_rec_header *h);
const struct skd_frec_stats *skd_frec_stats(const struct skd_rec_header *h);
const struct skd_frec_session *skd_frec_session(const struct skd_rec_header *h);
const struct skd_frec_event *skd_frec_event(const struct skd_rec_header *h);
const struct skd_frec_build_id *
skd_frec_build_id(const struct skd_rec_header *h);
/* The @i-th string (0 hostname, 1 release, 2 command line, 3 PMU) or "". */
const char *skd_frec_session_string(const struct skd_frec_session *s,
				    unsigned int i);

#endif /* _SKD_CAPTURE_H */
