/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Call stacks of a capture folded the way FlameGraph's stackcollapse-perf.pl
 * folds `perf script`: "comm;root;...;leaf" with a count, frames named by
 * its rules. The folded and SVG writers and `diff --svg` share them.
 */
#ifndef _SKD_STACKS_H
#define _SKD_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hmap.h"
#include "profile.h"

/* One distinct frame: its folded name and what colours it. */
struct stack_frame {
	char *name;
	const char *dso;	/* object name, for colour; "" for the comm */
	bool kernel;
	bool comm;		/* the process-name root */
};

struct stack {
	uint32_t *ids;		/* frames, root (the comm) first */
	unsigned int n;
	uint64_t period, samples;
	struct stack *next;	/* same hash */
};

struct stacks {
	struct stack_frame *frames;
	size_t nr_frames, cap_frames;
	struct skd_hmap frame_map;	/* name hash -> index + 1 chain head */
	uint32_t *frame_next;		/* chain of frames with one hash */
	struct stack **v;		/* distinct stacks, insertion order */
	size_t n, cap;
	struct skd_hmap stack_map;	/* stack hash -> struct stack chain */
	uint64_t total_period, total_samples;
	const char *event;		/* the event folded */
	uint64_t other_events;		/* samples of other events, skipped */
};

/*
 * Fold @p's samples of event @event (NULL: the first sample's event, as
 * stackcollapse-perf.pl does). 0, -ENOENT (no sample of @event, said on
 * stderr) or -ENOMEM.
 */
int stacks_collect(struct skd_profile *p, const char *event,
		   struct stacks *s);
void stacks_free(struct stacks *s);
/*
 * Count one sample of @comm whose frames are @frames, leaf first (their
 * strings must outlive @s). 0 or -ENOMEM. @s starts zeroed.
 */
int stacks_add(struct stacks *s, const char *comm,
	       const struct skd_frame *frames, unsigned int n, uint64_t period);
/* On stderr: how many samples of other events were left out, if any. */
void stacks_report_skipped(const struct stacks *s);

/* Stacks sorted by their folded text (stackcollapse-perf.pl's order). */
void stacks_sort(struct stacks *s);
/* "comm;root;...;leaf" into @buf (cut at @len). */
void stacks_format(const struct stacks *s, const struct stack *st, char *buf,
		   size_t len);

/* The event name a sample shows ("cpu-clock" for the timer backend). */
const char *stacks_event_label(const struct skd_profile *p, unsigned int index);
/* @ev's frames, at most SKD_MAX_CALLCHAIN, into @frames; how many. */
unsigned int stacks_frames(struct skd_profile *p, const struct skd_event *ev,
			   struct skd_frame *frames);
/* The comm name script shows for @ev: ":TID" unknown, "swapper" for 0. */
const char *stacks_comm(const struct skd_profile *p, const struct skd_event *ev,
			char *buf, size_t len);

/*
 * A frame's name as stackcollapse-perf.pl makes it from perf script's
 * "sym+off (path)": the symbol, "[object]" when unknown, ';' -> ':',
 * quotes dropped, everything from the first '(' on dropped (C++
 * parameters; "(anonymous namespace)" and Go's ".(*T)." kept). False
 * when the script drops the frame: a symbol starting with '('.
 */
bool stacks_frame_name(const struct skd_frame *f, char *buf, size_t len);

#endif /* _SKD_STACKS_H */
