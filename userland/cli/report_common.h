/* SPDX-License-Identifier: GPL-2.0 */
/* What script and report print the same way. */
#ifndef _SKD_REPORT_COMMON_H
#define _SKD_REPORT_COMMON_H

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

#endif /* _SKD_REPORT_COMMON_H */
