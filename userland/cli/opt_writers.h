/* SPDX-License-Identifier: GPL-2.0 */
/* The optimizer feeds of `skidless convert`: write_autofdo.c, write_bolt.c. */
#ifndef _SKD_OPT_WRITERS_H
#define _SKD_OPT_WRITERS_H

#include <stdbool.h>
#include <stdint.h>

#include "hmap.h"
#include "opt_binary.h"
#include "writers.h"

/* AutoFDO's text sample profile (create_llvm_prof --profiler=text). */
int write_autofdo(struct skd_profile *p, FILE *out, const struct writer_args *a);
/* BOLT's fdata (llvm-bolt -data=FILE), as perf2bolt writes it. */
int write_bolt(struct skd_profile *p, FILE *out, const struct writer_args *a);
/* BOLT's fdata without LBR (perf2bolt -nl): sample addresses. */
int write_bolt_nl(struct skd_profile *p, FILE *out, const struct writer_args *a);

/* What the feeds count, by a 64-bit key (an offset, or two in one). */
struct opt_count {
	uint64_t key;
	uint64_t n, mispred;
};
struct opt_counts {
	struct skd_hmap m;	/* key -> struct opt_count */
	int err;		/* -ENOMEM once a count could not be added */
};
void opt_counts_add(struct opt_counts *c, uint64_t key, bool mispred);
/*
 * The counts in key order: *@v (free() it), *@n of them. 0, or -ENOMEM
 * (also when a count could not be added).
 */
int opt_counts_sorted(const struct opt_counts *c, struct opt_count ***v,
		      size_t *n);
void opt_counts_free(struct opt_counts *c);
/*
 * A feed's start: --binary given (@fmt: the -f format, named when not),
 * opened, and opt_binary_check passed. Says why on stderr and returns
 * -errno (@b closed) on failure.
 */
int opt_feed_open(struct opt_binary *b, struct skd_profile *p,
		  const struct writer_args *a, const char *fmt,
		  bool need_branches);
/* A feed's end: "out of memory" said for -ENOMEM, @b closed; returns @ret. */
int opt_feed_close(struct opt_binary *b, int ret);

#endif /* _SKD_OPT_WRITERS_H */
