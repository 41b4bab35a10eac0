// SPDX-License-Identifier: GPL-2.0
/*
 * Folded stacks ("comm;root;...;leaf count" per line), the input of
 * FlameGraph's flamegraph.pl and speedscope: what stackcollapse-perf.pl
 * makes of `perf script`, in its order, counts period-weighted as it
 * counts them (or samples with --samples).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "stacks.h"
#include "subcommands.h"
#include "writers.h"

int write_folded(struct skd_profile *p, FILE *out, const struct writer_args *a)
{
	struct stacks s;
	char *line;
	size_t i, len = 64 * 1024;
	int ret;

	ret = stacks_collect(p, a->event, &s);
	line = malloc(len);
	if (ret || !line) {
		stacks_free(&s);
		free(line);
		if (ret != -ENOENT)
			fprintf(stderr, "%s: out of memory\n", PROG_NAME);
		return ret ? ret : -ENOMEM;
	}
	stacks_sort(&s);
	for (i = 0; i < s.n; i++) {
		stacks_format(&s, s.v[i], line, len);
		fprintf(out, "%s %" PRIu64 "\n", line,
			a->samples ? s.v[i]->samples : s.v[i]->period);
	}
	stacks_report_skipped(&s);
	stacks_free(&s);
	free(line);
	return ferror(out) ? -EIO : 0;
}
