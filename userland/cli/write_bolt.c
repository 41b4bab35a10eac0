// SPDX-License-Identifier: GPL-2.0
/*
 * `convert -f bolt --binary PATH`: the LBR branches of a capture in the
 * fdata text llvm-bolt reads with -data=FILE, the file perf2bolt writes
 * from the same perf.data:
 *
 *   1 FROM_FUNC FROM_OFF 1 TO_FUNC TO_OFF MISPREDICTS COUNT
 *
 * offsets in hex from the function's start, "0 [unknown] 0" for an end
 * outside the binary's functions, one line per (from, to) pair. Only the
 * taken branches: perf2bolt adds the fall-throughs it finds between two
 * branches by disassembling the function; llvm-bolt infers fall-through
 * counts from the branch counts when the profile has none.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt_writers.h"
#include "subcommands.h"

struct bolt_state {
	struct opt_counts edges;	/* from location << 32 | to location */
	uint64_t skipped;	/* neither end in the binary's functions */
	uint64_t kernel;	/* an end in the kernel */
};

/*
 * A location: file offset + 1 in one of the binary's functions, else 0
 * ("[unknown]", also for offsets past 4 GiB, which the key cannot hold).
 */
static uint64_t location(struct opt_binary *b, struct skd_profile *p,
			 const struct skd_event *ev, uint64_t addr)
{
	uint64_t off, foff;

	if (!opt_binary_offset(b, p, ev, addr, &off) ||
	    !opt_binary_func(b, off, &foff) || off >= UINT64_C(0xffffffff))
		return 0;
	return off + 1;
}

static void put_location(FILE *out, const struct opt_binary *b, uint64_t loc)
{
	const struct opt_func *f;
	uint64_t off = 0;

	f = loc ? opt_binary_func(b, loc - 1, &off) : NULL;
	if (f)
		fprintf(out, "1 %s %" PRIx64 " ", f->name, off);
	else
		fputs("0 [unknown] 0 ", out);
}

int write_bolt(struct skd_profile *p, FILE *out, const struct writer_args *a)
{
	struct bolt_state s = { 0 };
	struct opt_binary b;
	const struct skd_branch_entry *br;
	struct opt_count **v = NULL;
	size_t n, i, nv = 0;
	unsigned int k, nr;
	int ret;

	ret = opt_feed_open(&b, p, a, "bolt", true);
	if (ret)
		return ret;
	n = skd_profile_nr_samples(p);
	for (i = 0; i < n && !s.edges.err; i++) {
		struct skd_event ev;

		skd_profile_sample(p, i, &ev);
		br = opt_trace(&ev, &nr);
		for (k = 0; k < nr; k++) {
			const struct skd_branch_entry *e = &br[k];
			uint64_t from, to;

			/*
			 * Into or out of the kernel (an interrupt, a system
			 * call): perf2bolt drops the entry whole
			 * (--ignore-interrupt-lbr, its default).
			 */
			if (skd_is_kernel_addr(e->from) ||
			    skd_is_kernel_addr(e->to)) {
				s.kernel++;
				continue;
			}
			from = location(&b, p, &ev, e->from);
			to = location(&b, p, &ev, e->to);

			if (!from && !to) {
				s.skipped++;
				continue;
			}
			opt_counts_add(&s.edges, from << 32 | to,
				       !!(e->info & SKD_BR_INFO_MISPRED));
		}
	}
	ret = opt_counts_sorted(&s.edges, &v, &nv);
	if (!ret) {
		for (i = 0; i < nv; i++) {
			put_location(out, &b, v[i]->key >> 32);
			put_location(out, &b, v[i]->key & UINT64_C(0xffffffff));
			fprintf(out, "%" PRIu64 " %" PRIu64 "\n", v[i]->mispred,
				v[i]->n);
		}
		if (s.skipped)
			fprintf(stderr, "%s convert: %" PRIu64 " branches with "
				"neither end in %s left out\n", PROG_NAME,
				s.skipped, a->binary);
		if (s.kernel)
			fprintf(stderr, "%s convert: %" PRIu64 " branches into "
				"or out of the kernel left out, as perf2bolt "
				"leaves them\n", PROG_NAME, s.kernel);
	}
	free(v);
	opt_counts_free(&s.edges);
	return opt_feed_close(&b, ret);
}

/*
 * `convert -f bolt-nl --binary PATH`: what perf2bolt -nl writes from
 * samples alone, no LBR needed (the timer backend's captures too): a line
 * "no_lbr" with the sampled events' names as perf script prints them
 * ("NAME:"), then `1 FUNC OFF COUNT` for each sampled address in one of
 * the binary's functions, one per sample.
 */
int write_bolt_nl(struct skd_profile *p, FILE *out, const struct writer_args *a)
{
	struct bolt_state s = { 0 };
	struct opt_binary b;
	uint64_t events = 0, off, outside = 0;
	struct opt_count **v = NULL;
	size_t n, i, nv = 0;
	unsigned int k;
	int ret;

	ret = opt_feed_open(&b, p, a, "bolt-nl", false);
	if (ret)
		return ret;
	n = skd_profile_nr_samples(p);
	for (i = 0; i < n && !s.edges.err; i++) {
		struct skd_event ev;
		uint64_t loc;

		skd_profile_sample(p, i, &ev);
		if (!opt_binary_offset(&b, p, &ev, ev.sample.rec->ip, &off))
			continue;
		if (ev.sample.rec->event < 64)
			events |= 1ULL << ev.sample.rec->event;
		loc = location(&b, p, &ev, ev.sample.rec->ip);
		if (loc)
			opt_counts_add(&s.edges, loc, false);
		else
			outside++;
	}
	ret = opt_counts_sorted(&s.edges, &v, &nv);
	if (!ret) {
		fputs("no_lbr", out);
		for (k = 0; k < 64; k++)
			if (events & (1ULL << k))
				fprintf(out, " %s:", skd_profile_event_name(p, k));
		fputc('\n', out);
		for (i = 0; i < nv; i++) {
			put_location(out, &b, v[i]->key);
			fprintf(out, "%" PRIu64 "\n", v[i]->n);
		}
		if (outside)
			fprintf(stderr, "%s convert: %" PRIu64 " samples in %s "
				"but in none of its functions left out\n",
				PROG_NAME, outside, a->binary);
	}
	free(v);
	opt_counts_free(&s.edges);
	return opt_feed_close(&b, ret);
}
