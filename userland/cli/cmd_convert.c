// SPDX-License-Identifier: GPL-2.0
/*
 * skidless convert: a capture into a format other tools read. The writers
 * are in writers.c; this file owns the command line and the output file,
 * which is replaced only when the writer finished: a failed conversion
 * leaves the previous file as it was.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outfile.h"
#include "profile.h"
#include "report_common.h"
#include "subcommands.h"
#include "writers.h"

static void usage(FILE *f, const char *cmd)
{
	const struct writer *w;

	fprintf(f,
		"Usage: %s %s [-i FILE] -f FORMAT [-o OUT] [--binary PATH]\n"
		"                [--event NAME] [--samples]\n"
		"\n"
		"Write a capture in another tool's format.\n"
		"\n"
		"  -i, --input FILE    capture to read (default perf.data)\n"
		"  -o, --output OUT    file to write (default: standard output);\n"
		"                      replaced only when the conversion succeeded\n"
		"  -f, --format NAME   one of the formats below; --NAME also works\n"
		"      --binary PATH   only samples in this object (optimizer feeds)\n"
		"      --event NAME    folded, svg: this event's samples (default:\n"
		"                      the first sample's event)\n"
		"      --samples       folded, svg: weigh stacks by sample count,\n"
		"                      not by period\n"
		"\nFormats:\n", PROG_NAME, cmd);
	for (w = writers; w->name; w++)
		fprintf(f, "  %-12s %s\n", w->name, w->help);
}

static const struct writer *find_writer(const char *name)
{
	const struct writer *w;

	for (w = writers; w->name; w++)
		if (!strcmp(w->name, name))
			return w;
	return NULL;
}

struct convert_job {
	const struct writer *w;
	struct skd_profile *p;
	const struct writer_args *a;
};

static int run_writer(FILE *f, void *arg)
{
	const struct convert_job *j = arg;

	return j->w->write(j->p, f, j->a);
}

int convert_main(int argc, char *argv[])
{
	enum { OPT_BINARY = 256, OPT_EVENT, OPT_SAMPLES,
	       OPT_FORMAT_BASE = 512 };
	struct option longopts[64] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "binary", required_argument, NULL, OPT_BINARY },
		{ "event", required_argument, NULL, OPT_EVENT },
		{ "samples", no_argument, NULL, OPT_SAMPLES },
		{ "help", no_argument, NULL, 'h' },
	};
	struct writer_args a = { .input = "perf.data" };
	const struct writer *w = NULL;
	const char *output = NULL;
	struct skd_profile *p;
	size_t nopt = 7, i;
	int c, ret;

	/* --pprof, --folded, ...: one long option per writer. */
	for (i = 0; writers[i].name && nopt + 1 < sizeof(longopts) /
	     sizeof(longopts[0]); i++, nopt++)
		longopts[nopt] = (struct option){ writers[i].name, no_argument,
						  NULL, OPT_FORMAT_BASE + (int)i };
	while ((c = getopt_long(argc, argv, "i:o:f:h", longopts, NULL)) != -1) {
		const struct writer *chosen = NULL;

		switch (c) {
		case 'i':
			a.input = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'f':
			chosen = find_writer(optarg);
			if (!chosen) {
				fprintf(stderr, "%s %s: unknown format '%s'; "
					"`%s %s --help` lists them\n", PROG_NAME,
					argv[0], optarg, PROG_NAME, argv[0]);
				return 1;
			}
			break;
		case OPT_BINARY:
			a.binary = optarg;
			break;
		case OPT_EVENT:
			a.event = optarg;
			break;
		case OPT_SAMPLES:
			a.samples = true;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			if (c >= OPT_FORMAT_BASE && c < OPT_FORMAT_BASE + (int)nopt) {
				chosen = &writers[c - OPT_FORMAT_BASE];
				break;
			}
			usage(stderr, argv[0]);
			return 1;
		}
		if (chosen && w && w != chosen) {
			fprintf(stderr, "%s %s: one format at a time (%s and %s given)\n",
				PROG_NAME, argv[0], w->name, chosen->name);
			return 1;
		}
		if (chosen)
			w = chosen;
	}
	if (!w) {
		fprintf(stderr, "%s %s: which format? Give -f FORMAT; "
			"`%s %s --help` lists them\n", PROG_NAME, argv[0],
			PROG_NAME, argv[0]);
		return 1;
	}
	if (!output && w->binary_output && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "%s %s: %s is binary; give -o FILE or redirect "
			"standard output\n", PROG_NAME, argv[0], w->name);
		return 1;
	}
	p = load_input(argc, argv, optind, a.input);
	if (!p)
		return 1;
	if (output) {
		struct convert_job j = { w, p, &a };

		ret = write_atomically(output, run_writer, &j);
	} else {
		errno = 0;
		ret = finish_stdout(w->write(p, stdout, &a));
	}
	warn_capture_problems(a.input, skd_profile_totals(p));
	skd_profile_free(p);
	return ret ? 1 : 0;
}
