// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "params.h"
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

/*
 * script prints millions of frames: no format string to parse each time
 * and no stream lock taken per piece (these tools are single-threaded).
 */
static void put_hex(FILE *f, uint64_t v)
{
	char buf[2 + 16], *p = buf + sizeof(buf);

	do {
		*--p = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	*--p = 'x';
	*--p = '0';
	fwrite_unlocked(p, 1, (size_t)(buf + sizeof(buf) - p), f);
}

void print_symbol(FILE *f, const struct skd_frame *fr)
{
	if (fr->sym) {
		fputs_unlocked(fr->sym, f);
		putc_unlocked('+', f);
		put_hex(f, fr->off);
	} else {
		put_hex(f, fr->ip);
	}
}

void print_frame(FILE *f, const struct skd_frame *fr)
{
	print_symbol(f, fr);
	fputs_unlocked(" (", f);
	fputs_unlocked(fr->dso, f);
	putc_unlocked(')', f);
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

int view_opts_parse(int argc, char *argv[], const char *usage,
		    const char *flag, struct view_opts *o)
{
	const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "top", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'J' },
		{ flag, no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct view_opts){ .input = "perf.data", .top = 20 };
	while ((c = getopt_long(argc, argv, "i:n:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o->input = optarg;
			break;
		case 'n':
			if (!parse_uint("-n", optarg, 0, UINT32_MAX, &o->top))
				return 1;
			break;
		case 'J':
			o->json = true;
			break;
		case 'V':
			break;
		case 'h':
			printf(usage, PROG_NAME);
			return 0;
		default:
			fprintf(stderr, usage, PROG_NAME);
			return 1;
		}
	}
	return -1;
}

int view_print(void *view, const char *input, const struct skd_profile *p,
	       bool json, void (*text)(void *view, const char *input),
	       int (*to_json)(void *view, const char *input))
{
	if (json) {
		if (to_json(view, input)) {
			fprintf(stderr, "%s: writing the report: %s\n",
				PROG_NAME, strerror(errno));
			return 1;
		}
	} else {
		text(view, input);
	}
	warn_capture_problems(input, skd_profile_totals(p));
	return fflush(stdout) ? 1 : 0;
}

int put_json(struct json_object *root)
{
	int ret;

	ret = puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						  JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	return ret < 0 ? -EIO : 0;
}
