/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event and branch-filter names as perf spells them (-e, -j), turned into
 * struct skd_event_attr and enum skd_branch_sample bits, and back.
 *
 * An -e spec is one of
 *
 *	cycles instructions branches branch-misses	generic events
 *	  (also cpu-cycles, branch-instructions)
 *	mem_load_retired.l3_miss			an event of the CPU
 *							model's table, any case
 *	r01c0						raw EVENTSEL bits, hex
 *	cpu/event=0xd0,umask=0x81,cmask=N,inv,edge,ldlat=N,period=N,freq=N/
 *
 * Generic, named and raw events take an optional term list after the name
 * (name/ldlat=30,period=10007/; generic events take period and freq only).
 * Numbers are decimal or 0x hex. Modifiers follow a colon (cycles:pp), or
 * directly the closing slash of a term list (cpu/event=0xd0,umask=0x81/pp):
 * p, pp or ppp for the precise level, u for user mode only, k for the
 * kernel only, in any order; u and k together, as in perf, count both.
 *
 * The encodings come from the CPU model table (kmod/intel/models.h), which
 * the module checks against too. Without a model (a CPU the table does not
 * know) only generic names, rNNNN and cpu/.../ work, without p or ldlat=:
 * the module samples through PEBS only on the models of its table.
 */
#ifndef _SKD_EVENTS_H
#define _SKD_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "skidless.h"

struct skd_cpu_model;	/* kmod/intel/models.h */

/*
 * Parse one -e spec into *@attr for CPU model @m (NULL when the CPU is not
 * in the table). Returns 0 or -errno, and a sentence in @why naming the
 * offending part of @spec in `quotes' and the fix:
 *	-EINVAL		malformed spec, unknown name, a term out of range, a
 *			load-latency event without ldlat= and :p
 *	-EOPNOTSUPP	well-formed but not available on @m: a precise level
 *			the event lacks there, PEBS on an event that has none;
 *			with @m NULL a named event, any p or ldlat= (the
 *			module has PEBS only on the models of its table)
 * On success @why is empty, or holds a note the caller should print (the
 * precise level asked for was lowered, as for cycles:ppp on icelake).
 * *@attr is written only on success. @why may be NULL when @whylen is 0.
 */
int skd_event_parse(const char *spec, const struct skd_cpu_model *m,
		    struct skd_event_attr *attr, char *why, size_t whylen);

/*
 * Split an -e argument holding several specs separated by commas, as perf
 * takes them ("cycles:pp,instructions"), in place: commas inside a /.../
 * term list stay with their event. Up to @max pointers into @list go to
 * @out. Returns the number of specs, -EINVAL for an empty one ("a,,b",
 * ",a", "a,"), or -E2BIG when there are more than @max.
 */
int skd_event_list_split(char *list, const char **out, unsigned int max);

/*
 * Parse a -j filter list ("any,u", "call_stack", ...): u, k, any,
 * any_call, any_ret, ind_call, ind_jmp, cond, call, call_stack, comma
 * separated, at least one, case-insensitive. As in perf, a list of only u
 * and k means any branch at those privilege levels. 0 or -EINVAL with a
 * sentence in @why; *@branch_sample is written only on success.
 */
int skd_branch_parse(const char *spec, uint32_t *branch_sample, char *why,
		     size_t whylen);

/*
 * Name of @attr on @m for display, the inverse of skd_event_parse where
 * the attr could have come from it: "cycles:pp",
 * "mem_load_retired.l3_miss:p", "r01c0:ppp",
 * "mem_trans_retired.load_latency/ldlat=30/p". The generic name wins over
 * a table name for the same encoding. Truncated to @len - 1 characters.
 */
void skd_event_name(const struct skd_event_attr *attr,
		    const struct skd_cpu_model *m, char *buf, size_t len);

#endif /* _SKD_EVENTS_H */
