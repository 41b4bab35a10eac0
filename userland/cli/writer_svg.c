// SPDX-License-Identifier: GPL-2.0
/* A flame graph SVG of one event's stacks, drawn by flamegraph.c. */
#include <errno.h>
#include <stdio.h>

#include "flamegraph.h"
#include "stacks.h"
#include "subcommands.h"
#include "writers.h"

int write_svg(struct skd_profile *p, FILE *out, const struct writer_args *a)
{
	struct flame_opts o = { .title = a->input, .samples = a->samples };
	struct stacks s;
	int ret;

	ret = stacks_collect(p, a->event, &s);
	if (ret == -ENOMEM)
		fprintf(stderr, "%s: out of memory\n", PROG_NAME);
	if (!ret)
		ret = flamegraph_write(&s, &o, out);
	if (!ret)
		stacks_report_skipped(&s);
	stacks_free(&s);
	return ret;
}
