/* SPDX-License-Identifier: GPL-2.0 */
/* The optimizer feeds of `skidless convert`: write_autofdo.c, write_bolt.c. */
#ifndef _SKD_OPT_WRITERS_H
#define _SKD_OPT_WRITERS_H

#include "writers.h"

/* AutoFDO's text sample profile (create_llvm_prof --profiler=text). */
int write_autofdo(struct skd_profile *p, FILE *out, const struct writer_args *a);
/* BOLT's fdata (llvm-bolt -data=FILE), as perf2bolt writes it. */
int write_bolt(struct skd_profile *p, FILE *out, const struct writer_args *a);
/* BOLT's fdata without LBR (perf2bolt -nl): sample addresses. */
int write_bolt_nl(struct skd_profile *p, FILE *out, const struct writer_args *a);

#endif /* _SKD_OPT_WRITERS_H */
