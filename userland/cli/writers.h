/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The formats `skidless convert` writes. Each writer gets the loaded
 * capture and a stream; convert owns the file (a temporary beside the
 * target, renamed over it only when the writer succeeded).
 */
#ifndef _SKD_WRITERS_H
#define _SKD_WRITERS_H

#include <stdio.h>

#include "profile.h"

struct writer_args {
	const char *input;	/* the capture's path, for messages */
	const char *binary;	/* --binary: only samples in this object */
	const char *event;	/* --event: the one event to write, or NULL */
	bool samples;		/* --samples: count samples, not periods */
};

struct writer {
	const char *name;	/* --format NAME, also accepted as --NAME */
	const char *help;	/* one line for --help */
	bool binary_output;	/* refuses a terminal as output */
	/* 0, or -errno after printing why on stderr. */
	int (*write)(struct skd_profile *p, FILE *out,
		     const struct writer_args *a);
};

/* The table, ended by an entry whose name is NULL. */
extern const struct writer writers[];

int write_perf_script(struct skd_profile *p, FILE *out,
		      const struct writer_args *a);
int write_folded(struct skd_profile *p, FILE *out, const struct writer_args *a);
int write_svg(struct skd_profile *p, FILE *out, const struct writer_args *a);
int write_jsonl(struct skd_profile *p, FILE *out, const struct writer_args *a);
int write_pprof(struct skd_profile *p, FILE *out, const struct writer_args *a);

#endif /* _SKD_WRITERS_H */
