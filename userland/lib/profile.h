/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A capture file loaded for reporting: samples in time order, and what it
 * takes to name their frames (process maps by exec generation, command
 * names by thread, the kernel symbols recorded with the samples).
 */
#ifndef _SKD_PROFILE_H
#define _SKD_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode.h"
#include "dso.h"

struct skd_profile;

struct skd_profile_totals {
	uint64_t records[__SKD_REC_MAX];	/* by kernel record type */
	uint64_t unknown;			/* records of types we skip */
	uint64_t lost_in_stream;		/* sum of LOST records */
	struct skd_cpu_stats stats;		/* summed over CPUs */
	unsigned int stats_cpus;		/* CPUs with a STATS record */
	bool finished;				/* the end marker is there */
	size_t bad_offset;			/* where a corrupt tail starts */
	bool corrupt;
	bool native;				/* skidless's format, not perf.data */
};

struct skd_frame {
	uint64_t ip;
	const char *sym;	/* NULL when unknown */
	uint64_t off;		/* ip - symbol start */
	const char *dso;	/* object name; "[unknown]" when unmapped */
	bool kernel;
	/* Source of the address in sym's own function, when DWARF says. */
	const char *file;	/* NULL when unknown */
	unsigned int line;
	/* Functions inlined at the address, innermost first, and where in each. */
	unsigned int nr_inline;
	const struct skd_srcloc *inl;
	/*
	 * The mapping the address is in, for writers that describe objects
	 * (pprof): full path ("" when unmapped), build-id (hex, or NULL when
	 * the capture has none), and [map_start, map_end) at file offset
	 * map_pgoff. Kernel frames: "[kernel.kallsyms]", the upper half.
	 */
	const char *path;
	const char *build_id;
	uint64_t map_start, map_end, map_pgoff;
};

/* Load @path; on failure returns -errno with a sentence in @err. */
int skd_profile_load(const char *path, struct skd_profile **out, char *err,
		     size_t errlen);
void skd_profile_free(struct skd_profile *p);

const struct skd_profile_totals *skd_profile_totals(const struct skd_profile *p);
/* Session description strings (hostname, release, command line) or "". */
const char *skd_profile_session_string(const struct skd_profile *p,
				       unsigned int i);

size_t skd_profile_nr_samples(const struct skd_profile *p);
/* The @i-th sample in time order, decoded into @ev. */
void skd_profile_sample(const struct skd_profile *p, size_t i,
			struct skd_event *ev);
/* Non-sample records in time order (for `script --all`). */
size_t skd_profile_nr_other(const struct skd_profile *p);
void skd_profile_other(const struct skd_profile *p, size_t i,
		       struct skd_event *ev);

typedef void (*skd_profile_fn)(struct skd_profile *p,
			       const struct skd_event *ev, void *arg);
/*
 * @fn on every sample and, with @others, every other record, the two
 * merged in time order (on a tie the sample first), as `script` shows them.
 */
void skd_profile_walk(struct skd_profile *p, bool others, skd_profile_fn fn,
		      void *arg);

/* The name of event @index of the session ("cycles:pp"), or "". */
const char *skd_profile_event_name(const struct skd_profile *p,
				   unsigned int index);

/*
 * Frames of a sample: with a user stack copy (--call-graph dwarf), the
 * chain's kernel frames then the user frames unwound from the copy by its
 * DWARF call-frame information; else the call chain; for an LBR call
 * stack (and no chain) the ip, then the call sites of the open calls;
 * else the ip alone.
 */
unsigned int skd_profile_nr_frames(struct skd_profile *p,
				   const struct skd_event *ev);
void skd_profile_frame(struct skd_profile *p, const struct skd_event *ev,
		       unsigned int i, struct skd_frame *f);

/*
 * Whether frames carry source lines and inlines (the default) or names
 * only: much faster when millions of addresses are named and no line is
 * shown.
 */
void skd_profile_set_lines(struct skd_profile *p, bool lines);

/*
 * How callers' frames (return addresses) are named: by the call
 * instruction, the byte before (the default: a call that ends its
 * function, as _start's call of _dl_start, is charged to that function),
 * or by the return address itself (@exact), as perf 6.1 names them.
 */
void skd_profile_set_exact_returns(struct skd_profile *p, bool exact);

/*
 * A key for the callers of @ev (its frames from 1 on): two samples with
 * the same key have the same callers, named the same, whatever their
 * times (same process, same state of its maps, same return addresses).
 * 0 when there is no such key (DWARF or LBR stacks, no call chain).
 */
uint64_t skd_profile_callers_key(struct skd_profile *p,
				 const struct skd_event *ev);

/* Name an address (a branch's source or target) as @ev's process saw it. */
void skd_profile_addr(struct skd_profile *p, const struct skd_event *ev,
		      uint64_t addr, struct skd_frame *f);

/* The object file mapped at a user address, as the capture saw it. */
struct skd_object {
	const char *path;	/* as mapped: absolute, "[vdso]", "" anonymous */
	const char *build_id;	/* hex, NULL when the capture has none */
	uint64_t file_offset;	/* of the address in the file */
};

/*
 * Which object @addr was in for @ev's process at its time: 0, or -ENOENT
 * (a kernel address or no mapping covers it). Strings live as long as @p.
 */
int skd_profile_object(struct skd_profile *p, const struct skd_event *ev,
		       uint64_t addr, struct skd_object *o);

/* Command name of @tid (process @pid) at @time, or NULL. */
const char *skd_profile_comm(const struct skd_profile *p, uint32_t pid,
			     uint32_t tid, uint64_t time);

#endif /* _SKD_PROFILE_H */
