/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pprof's profile.proto, built sample by sample and written gzipped
 * (what `go tool pprof` reads). Per event two values: its samples
 * (count) and its period (nanoseconds for clocks, else events).
 * Mappings carry path, range, file offset and build-id; frames arrive
 * symbolized, so every mapping says it has functions, files, lines and
 * inline frames (pprof looks nothing up again).
 */
#ifndef _SKD_PPROF_ENCODE_H
#define _SKD_PPROF_ENCODE_H

#include <stdint.h>
#include <stdio.h>

#include "profile.h"

struct pprof;

/* A profile for @n events named @events (slot i is events[i]); NULL: ENOMEM. */
struct pprof *pprof_new(const char *const *events, unsigned int n);
void pprof_free(struct pprof *pp);

/*
 * One sample of event slot @event: @frames leaf first (strings must
 * outlive @pp). 0, -EINVAL (no such slot) or -ENOMEM.
 */
int pprof_add_sample(struct pprof *pp, unsigned int event, uint32_t pid,
		     uint32_t tid, const char *comm,
		     const struct skd_frame *frames, unsigned int n,
		     uint64_t period);
void pprof_set_duration(struct pprof *pp, int64_t ns);

/* Pack, gzip, write. 0, -ENOMEM or -EIO. */
int pprof_write(struct pprof *pp, FILE *out);

#endif /* _SKD_PPROF_ENCODE_H */
