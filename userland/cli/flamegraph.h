/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A flame graph as SVG, drawn from folded stacks: one rectangle per
 * frame of each distinct call path, root at the bottom, widths by weight,
 * a <title> on each for hovering. With a base, a differential graph:
 * each path coloured red where its share of the total grew against the
 * base, blue where it shrank.
 */
#ifndef _SKD_FLAMEGRAPH_H
#define _SKD_FLAMEGRAPH_H

#include <stdbool.h>
#include <stdio.h>

#include "stacks.h"

struct flame_opts {
	const char *title;
	bool samples;			/* weights are sample counts */
	const struct stacks *base;	/* differential against this, or NULL */
};

/* 0, -ENOMEM or -EIO (said on stderr). */
int flamegraph_write(const struct stacks *s, const struct flame_opts *o,
		     FILE *out);

#endif /* _SKD_FLAMEGRAPH_H */
