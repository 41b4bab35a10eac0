/* SPDX-License-Identifier: GPL-2.0 */
/* What script and report print the same way. */
#ifndef _SKD_REPORT_COMMON_H
#define _SKD_REPORT_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "profile.h"

/*
 * After option parsing: refuse leftover arguments, then load @input.
 * Prints why it failed; returns NULL then.
 */
struct skd_profile *load_input(int argc, char *argv[], int optind,
			       const char *input);
/* "sym+0x1a (dso)", or "0xaddr (dso)" when the symbol is unknown. */
void print_frame(FILE *f, const struct skd_frame *fr);
/* "sym+0x1a", or "0xaddr" when the symbol is unknown. */
void print_symbol(FILE *f, const struct skd_frame *fr);
/* On stderr: an unfinished or corrupt file, and records that were lost. */
void warn_capture_problems(const char *path,
			   const struct skd_profile_totals *t);

struct json_object;
/*
 * A JSON report on stdout, pretty-printed, then @root freed. 0, or -EIO
 * when writing failed.
 */
int put_json(struct json_object *root);

/* The command line report --branches and report --mem share. */
struct view_opts {
	const char *input;	/* -i, default perf.data */
	uint64_t top;		/* -n, default 20 */
	bool json;		/* --json */
};
/*
 * Parse -i, -n, --json, --help and @flag (the view's own long option,
 * accepted again and ignored) with @usage (a format taking PROG_NAME).
 * Returns -1 when the view is to run, else the exit code.
 */
int view_opts_parse(int argc, char *argv[], const char *usage,
		    const char *flag, struct view_opts *o);
/*
 * Print a loaded view as text or (@json) JSON, then warn about @p's capture
 * problems and flush stdout. Returns the exit code.
 */
int view_print(void *view, const char *input, const struct skd_profile *p,
	       bool json, void (*text)(void *view, const char *input),
	       int (*to_json)(void *view, const char *input));

#endif /* _SKD_REPORT_COMMON_H */
