/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where `skidless record` puts what it drains: perf.data (file or pipe
 * mode) or the native capture. The recorder keeps writing native records
 * into an skd_capture_writer; for perf.data that writer is a sink whose
 * records are converted here. Files are written under a temporary name in
 * the target directory and renamed at the end, the previous capture
 * becoming FILE.old, so a failed record loses nothing.
 */
#ifndef _SKD_RECORD_OUTPUT_H
#define _SKD_RECORD_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "skidless.h"

struct record_pmu;
struct skd_event;
struct skd_capture_writer;

enum record_format {
	RECORD_FORMAT_PERF,
	RECORD_FORMAT_NATIVE,
};

struct record_output_params {
	const char *path;		/* "-": perf.data pipe mode on stdout */
	enum record_format format;
	const struct skd_config *cfg;
	const struct record_pmu *pmu;
	int argc;			/* the command line, for CMDLINE */
	char *const *argv;
};

struct record_output;

/* Says why on stderr and returns NULL on failure. */
struct record_output *record_output_open(const struct record_output_params *p);
/* The writer the recorder, procs and ksyms write native records to. */
struct skd_capture_writer *record_output_writer(struct record_output *o);
/*
 * A kernel record the recorder drained, with its decoding @ev: written
 * as it is (native) or converted, without decoding it again.
 */
void record_output_put(struct record_output *o,
		       const struct skd_rec_header *h,
		       const struct skd_event *ev);
/* A drained batch ends: perf's FINISHED_ROUND. */
void record_output_round(struct record_output *o);
/*
 * Finish the file and put it in place. Returns 0, or -errno after saying
 * on stderr what the file holds (a disk-full file is kept, truncated).
 */
int record_output_commit(struct record_output *o);
/* Failure before commit: remove the temporary file; the old one stays. */
void record_output_abort(struct record_output *o);

#endif /* _SKD_RECORD_OUTPUT_H */
