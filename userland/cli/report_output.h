/* SPDX-License-Identifier: GPL-2.0 */
/* report's output: perf-like text (--stdio) or one JSON document (--json). */
#ifndef _SKD_REPORT_OUTPUT_H
#define _SKD_REPORT_OUTPUT_H

#include <stdio.h>

#include "report_hist.h"

struct ro_opts {
	unsigned int fields[RH_MAX_FIELDS];	/* enum rh_field, in order */
	unsigned int nr_fields;
	uint64_t top;		/* entries per event; 0: all */
	double limit;		/* call-graph nodes below this % are hidden */
	/* Per event index: its name ("" for the timer). */
	const char *names[SKD_REPORT_EVENTS];
};

/* One section per event with samples. 0, or -ENOMEM / -EIO. */
int ro_print_stdio(FILE *out, struct rh_hist *h, const struct ro_opts *o);
/* The document; @header adds {"input", "command", ...} members. 0 or -errno. */
int ro_print_json(FILE *out, struct rh_hist *h, const struct ro_opts *o,
		  const char *input, const char *command, uint64_t samples);

#endif /* _SKD_REPORT_OUTPUT_H */
