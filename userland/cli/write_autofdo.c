// SPDX-License-Identifier: GPL-2.0
/*
 * `convert -f autofdo --binary PATH`: the samples of a capture in AutoFDO's
 * text profile, which create_llvm_prof and create_gcov read with
 * --profiler=text and which sample_merger writes from a perf.data. Three
 * sections, each a count of lines then the lines, keys sorted:
 *
 *   N   then  BEGIN-END:COUNT    straight-line ranges run between branches
 *   N   then  ADDR:COUNT         sample addresses
 *   N   then  FROM->TO:COUNT     taken branches
 *
 * Addresses are file offsets in the binary (hex, no 0x), counts decimal.
 * The counting is AutoFDO's own reader's (sample_reader.cc): one per
 * sample, not its period; from a branch stack (newest first) entry 0's
 * branch, and for each older entry i the range from its target to the
 * source of entry i-1 (wherever that lies) and its branch, both dropped
 * when the range runs backwards or past 1 MiB.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt_writers.h"
#include "subcommands.h"

#define MAX_RANGE	(1ULL << 20)
#define OFF_LIMIT	UINT64_C(0xffffffff)	/* keys hold two offsets */

/* One section: its size, then its keys in order; @sep joins a pair of offsets. */
static int put_section(FILE *out, const struct opt_counts *s, const char *sep)
{
	struct opt_count **v;
	size_t i, n = 0;
	int ret = opt_counts_sorted(s, &v, &n);

	if (ret)
		return ret;
	fprintf(out, "%zu\n", n);
	for (i = 0; i < n; i++) {
		if (sep)
			fprintf(out, "%" PRIx64 "%s%" PRIx64 ":%" PRIu64 "\n",
				v[i]->key >> 32, sep,
				v[i]->key & OFF_LIMIT, v[i]->n);
		else
			fprintf(out, "%" PRIx64 ":%" PRIu64 "\n", v[i]->key,
				v[i]->n);
	}
	free(v);
	return 0;
}

struct afdo_state {
	struct opt_counts ranges, addrs, branches;
	uint64_t bogus;		/* ranges running backwards or too long */
	uint64_t far;		/* offsets past 4 GiB */
};

/* @addr's offset in the binary, if it lies there and the key holds it. */
static bool offset(struct opt_binary *b, struct skd_profile *p,
		   const struct skd_event *ev, uint64_t addr, uint64_t *off,
		   struct afdo_state *s)
{
	if (!opt_binary_offset(b, p, ev, addr, off))
		return false;
	if (*off >= OFF_LIMIT) {
		s->far++;
		return false;
	}
	return true;
}

/*
 * As AutoFDO's reader counts a sample. It reads a branch stack up to the
 * first entry with an address no mapping holds; a stretch's end (the
 * newer branch's source) may lie in any object, its offset there.
 */
static void one_sample(struct afdo_state *s, struct opt_binary *b,
		       struct skd_profile *p, const struct skd_event *ev)
{
	unsigned int nr, i, cut;
	const struct skd_branch_entry *e = opt_trace(ev, &nr);
	uint64_t off, from, to, end;
	bool in;

	if (offset(b, p, ev, ev->sample.rec->ip, &off, s))
		opt_counts_add(&s->addrs, off, false);
	for (cut = 0; cut < nr; cut++)
		if (!opt_binary_place(b, p, ev, e[cut].from, &off, &in) ||
		    !opt_binary_place(b, p, ev, e[cut].to, &off, &in))
			break;
	if (cut && offset(b, p, ev, e[0].from, &from, s) &&
	    offset(b, p, ev, e[0].to, &to, s))
		opt_counts_add(&s->branches, from << 32 | to, false);
	for (i = 1; i < cut; i++) {
		uint64_t begin;

		if (!offset(b, p, ev, e[i].to, &begin, s))
			continue;
		opt_binary_place(b, p, ev, e[i - 1].from, &end, &in);
		if (end < begin || end - begin > MAX_RANGE) {
			s->bogus++;
			continue;
		}
		if (end >= OFF_LIMIT) {
			s->far++;
			continue;
		}
		opt_counts_add(&s->ranges, begin << 32 | end, false);
		if (offset(b, p, ev, e[i].from, &from, s))
			opt_counts_add(&s->branches, from << 32 | begin, false);
	}
}

int write_autofdo(struct skd_profile *p, FILE *out, const struct writer_args *a)
{
	struct afdo_state s = { 0 };
	struct opt_binary b;
	size_t n, i;
	int ret;

	/* Samples alone make a profile too: AutoFDO then uses addresses. */
	ret = opt_feed_open(&b, p, a, "autofdo", false);
	if (ret)
		return ret;
	n = skd_profile_nr_samples(p);
	for (i = 0; i < n; i++) {
		struct skd_event ev;

		skd_profile_sample(p, i, &ev);
		one_sample(&s, &b, p, &ev);
	}
	ret = s.ranges.err ? s.ranges.err : s.addrs.err ? s.addrs.err :
	      s.branches.err;
	if (!ret)
		ret = put_section(out, &s.ranges, "-");
	if (!ret)
		ret = put_section(out, &s.addrs, NULL);
	if (!ret)
		ret = put_section(out, &s.branches, "->");
	if (!ret && s.bogus)
		fprintf(stderr, "%s convert: %" PRIu64 " stretches between two "
			"branches ran backwards or past 1 MiB: left out, as "
			"AutoFDO leaves them\n", PROG_NAME, s.bogus);
	if (!ret && s.far)
		fprintf(stderr, "%s convert: %" PRIu64 " addresses more than "
			"4 GiB into %s left out\n", PROG_NAME, s.far, a->binary);
	opt_counts_free(&s.ranges);
	opt_counts_free(&s.addrs);
	opt_counts_free(&s.branches);
	return opt_feed_close(&b, ret);
}
