/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading perf.data, ours and perf's: file mode (attrs and features in
 * the header, tools/perf/util/header.c) and pipe mode (HEADER_ATTR and
 * HEADER_FEATURE records in the stream). Nothing in the file is trusted:
 * every size and offset is checked before use, and a malformed file is
 * refused with a specific errno and a sentence saying what to do.
 */
#ifndef _SKD_PERFDATA_READ_H
#define _SKD_PERFDATA_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf_data.h"

#define PD_MAX_ATTRS	64

struct pd_file {
	uint8_t *base;		/* the whole file, 8-byte aligned */
	size_t len;
	bool mapped;		/* base is the file mapped, not a copy */
	bool pipe;
	unsigned int nr_attrs;
	struct pd_attr attrs[PD_MAX_ATTRS];	/* zero-extended to 128 */
	uint64_t first_id[PD_MAX_ATTRS];	/* one id per attr suffices */
	uint64_t *ids;		/* all ids, attr of ids[i] in id_attr[i] */
	unsigned int *id_attr;
	size_t nr_ids;
	uint64_t sample_type;	/* common to all attrs */
	bool sample_id_all;
	size_t data_off, data_end;	/* records: [data_off, data_end) */
	bool truncated;		/* the data ran past the end: cut short */
	/* Features: payloads by number (file: sections; pipe: records). */
	const uint8_t *feat[PD_FEAT_MAX];
	size_t feat_len[PD_FEAT_MAX];
};

/* A SAMPLE, its fields pointing into the record (or zero when absent). */
struct pd_sample {
	unsigned int attr;	/* index in attrs[] */
	uint64_t id, ip, time, addr, period;
	uint32_t pid, tid, cpu;
	uint64_t nr_ips;
	const uint64_t *ips;	/* with PERF_CONTEXT_* markers */
	uint64_t nr_branches;
	const struct pd_branch_entry *branches;
	uint64_t regs_abi;
	const uint64_t *regs;	/* popcount(sample_regs_user) of them */
	unsigned int nr_regs;
	uint64_t stack_size, stack_dyn;
	const uint8_t *stack;
	uint64_t weight;	/* WEIGHT, or var1 of WEIGHT_STRUCT */
	uint16_t weight_var2;
	bool weight_struct;
	uint64_t data_src;
};

/* The sample_id_all trailer of a non-sample record. */
struct pd_sample_id {
	uint32_t pid, tid, cpu;
	uint64_t time, id;
	bool has_time;
};

/*
 * Read @path (or the @len bytes at @buf) and check its header, attrs and
 * feature sections. -errno and a sentence in @err on failure:
 * ENOMSG not perf.data at all (no PERFILE2 magic), EPROTONOSUPPORT a
 * perf.data we cannot read (version 1, other endianness), EOVERFLOW an
 * attr newer than ours, ERANGE a header section beyond the end of the
 * file (data that runs past it is read up to the end, ->truncated set),
 * EINVAL inconsistent header fields, EOPNOTSUPP sample fields we do not
 * parse (READ), ENOMEM.
 */
int pd_file_open(const char *path, struct pd_file *f, char *err,
		 size_t errlen);
int pd_file_open_mem(const void *buf, size_t len, struct pd_file *f,
		     char *err, size_t errlen);
void pd_file_close(struct pd_file *f);

/*
 * The data record at *@off, advancing past it; NULL at the end, or when
 * the record at *@off is malformed (size below 8, not a multiple of 8, or
 * past the end): then *@bad is set to its offset.
 */
const struct pd_header *pd_file_next(const struct pd_file *f, size_t *off,
				     size_t *bad);

/* -EINVAL when the sample's fields run past its record. */
int pd_parse_sample(const struct pd_file *f, const struct pd_header *h,
		    struct pd_sample *s);
/* Trailer of a non-sample record; -EINVAL when it does not fit. */
int pd_parse_id(const struct pd_file *f, const struct pd_header *h,
		size_t body, struct pd_sample_id *id);
/* The attr a sample id belongs to, or 0 (the first) when unknown. */
unsigned int pd_attr_of_id(const struct pd_file *f, uint64_t id);

/* The @i-th string of a string feature / list, or NULL. */
const char *pd_feature_string(const struct pd_file *f, unsigned int feat);
/* Event name of attr @a from EVENT_DESC, or NULL. */
const char *pd_event_name(const struct pd_file *f, unsigned int a);

#endif /* _SKD_PERFDATA_READ_H */
