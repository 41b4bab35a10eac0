// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "params.h"

bool parse_uint(const char *opt, const char *s, uint64_t min, uint64_t max,
		uint64_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (!*s || *end || errno || *s == '-') {
		fprintf(stderr, "%s: `%s' is not a number\n", opt, s);
		return false;
	}
	if (v < min || v > max) {
		fprintf(stderr, "%s: `%s' is out of range (%" PRIu64 " to %" PRIu64 ")\n",
			opt, s, min, max);
		return false;
	}
	*out = v;
	return true;
}

bool parse_seconds(const char *opt, const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v <= 0) {
		fprintf(stderr, "%s: `%s' is not a positive number of seconds\n",
			opt, s);
		return false;
	}
	*out = v;
	return true;
}
