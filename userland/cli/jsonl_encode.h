/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One sample as a line of JSON, built with json-c. Addresses are
 * "0x..." strings (64-bit values do not survive a double); counts and
 * times are numbers. Memory and branch fields only when the sample has
 * them.
 */
#ifndef _SKD_JSONL_ENCODE_H
#define _SKD_JSONL_ENCODE_H

#include <stdio.h>

#include "profile.h"

struct jsonl_sample {
	uint64_t time, period, ip;
	uint32_t cpu, pid, tid;
	uint16_t misc;			/* SKD_MISC_*: mode, exact ip */
	const char *comm, *event;
	const struct skd_frame *frames;	/* leaf first */
	unsigned int nr_frames;
	const struct skd_sample_mem *mem;		/* or NULL */
	const struct skd_branch_entry *branches;	/* or NULL */
	unsigned int nr_branches;
	/* Names a branch address into @f (symbol NULL when unknown). */
	void (*name)(void *ctx, uint64_t addr, struct skd_frame *f);
	void *ctx;
};

/* The sample and a newline onto @out. 0, -ENOMEM or -EIO. */
int jsonl_write_sample(FILE *out, const struct jsonl_sample *s);

#endif /* _SKD_JSONL_ENCODE_H */
