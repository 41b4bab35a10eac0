// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdio.h>

#include "report_common.h"
#include "subcommands.h"

struct skd_profile *load_input(int argc, char *argv[], int optind,
			       const char *input)
{
	struct skd_profile *p;
	char err[512];

	if (optind < argc) {
		fprintf(stderr, "%s %s: unexpected argument `%s'\n", PROG_NAME,
			argv[0], argv[optind]);
		return NULL;
	}
	if (skd_profile_load(input, &p, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", PROG_NAME, err);
		return NULL;
	}
	return p;
}

void print_symbol(FILE *f, const struct skd_frame *fr)
{
	if (fr->sym)
		fprintf(f, "%s+0x%" PRIx64, fr->sym, fr->off);
	else
		fprintf(f, "0x%" PRIx64, fr->ip);
}

void print_frame(FILE *f, const struct skd_frame *fr)
{
	print_symbol(f, fr);
	fprintf(f, " (%s)", fr->dso);
}

void warn_capture_problems(const char *path,
			   const struct skd_profile_totals *t)
{
	if (t->corrupt)
		fprintf(stderr, "%s: warning: %s is corrupt from byte %zu on; "
			"what follows was ignored\n", PROG_NAME, path,
			t->bad_offset);
	else if (!t->finished)
		fprintf(stderr, "%s: warning: %s is incomplete (the recorder "
			"did not finish: killed, or disk full?)\n", PROG_NAME,
			path);
	if (t->stats.lost)
		fprintf(stderr, "%s: warning: %" PRIu64 " of %" PRIu64
			" records were lost while recording (the reader fell "
			"behind)\n", PROG_NAME, (uint64_t)t->stats.lost,
			(uint64_t)t->stats.generated);
}
