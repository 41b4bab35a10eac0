/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers every subcommand uses to parse its options. */
#ifndef _SKD_CLI_PARAMS_H
#define _SKD_CLI_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

#ifndef SKD_TOOL_VERSION
#define SKD_TOOL_VERSION "0.1.0"
#endif

/* Parse an unsigned integer in [min, max]; prints why not and returns false. */
bool parse_uint(const char *opt, const char *s, uint64_t min, uint64_t max,
		uint64_t *out);
/* A positive number of seconds, fractions allowed. */
bool parse_seconds(const char *opt, const char *s, double *out);

#endif /* _SKD_CLI_PARAMS_H */
