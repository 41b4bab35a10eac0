/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event and branch-filter names as perf spells them (-e, -j), turned into
 * struct skd_event_attr and enum skd_branch_sample bits, and back.
 *
 * An -e spec is one of
 *
 *	cycles instructions branches branch-misses	generic events
 *	  (also cpu-cycles, branch-instructions)
 *	MEM_INST_RETIRED.ALL_LOADS			an event of Intel's list
 *	mem_trans_retired.load_latency_gt_32		for this CPU, any case
 *	r01c0						raw EVENTSEL bits, hex
 *	cpu/event=0xd0,umask=0x81,cmask=N,inv,edge,any,ldlat=N,frontend=N,
 *	    offcore_rsp=N,period=N,freq=N/
 *
 * Named and raw events take an optional term list after the name
 * (name/ldlat=64,period=10007/): ldlat=, frontend=, offcore_rsp=,
 * period=, freq=; generic events take period= and freq= only. Numbers are
 * decimal or 0x hex. ldlat= is the load-latency threshold (cycles);
 * frontend= and offcore_rsp= the value of MSR_PEBS_FRONTEND or
 * MSR_OFFCORE_RSP_x (attr->config1), as perf's x86 format names them. A
 * named event brings the value Intel's list gives it (MSRValue: 32 for
 * mem_trans_retired.load_latency_gt_32, 0x11 for
 * frontend_retired.dsb_miss); a term overrides it. Modifiers follow a
 * colon (cycles:pp), or directly the closing slash of a term list
 * (cpu/event=0xd0,umask=0x81/pp): p or pp for PEBS, ppp for precise
 * distribution, u for user mode only, k for the kernel only, in any
 * order; u and k together, as in perf, count both.
 *
 * Whether an event, a precise level, a threshold or an extra-MSR value is
 * possible is decided by the module's own planner (kmod/intel/plan.c) on
 * @caps, and a refusal is its sentence, after the spec. Generic events
 * take the architectural encoding (event 0x3c, 0xc0, 0xc4, 0xc5) without
 * p; with p or pp the first encoding the planner samples with the exact
 * IP, else with PEBS at all (then with a note); with ppp the first with
 * precise distribution, else the pp choice with a note. The encodings
 * tried, in order:
 *
 *	cycles		inst_retired.total_cycles_ps (where the list has
 *			it), then 0x3c
 *	instructions	0xc0, then inst_retired.prec_dist
 *	branches	0xc4, then br_inst_retired.all_branches_pebs
 *	branch-misses	0xc5, then br_misp_retired.all_branches_pebs
 *
 * With @caps NULL (no PMU known) or caps->events NULL (a CPU not in
 * Intel's lists) only generic names, rNNNN and cpu/.../ work, without p,
 * ldlat= or an extra-MSR value.
 */
#ifndef _SKD_EVENTS_H
#define _SKD_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "skidless.h"

struct skd_pmu_caps;		/* kmod/intel/pmu.h */
struct skd_event_info;		/* event_info.h */
struct skd_event_info_list;

/*
 * Parse one -e spec into *@attr for the PMU @caps (NULL: none known).
 * Returns 0 or -errno, and a sentence in @why naming @spec and the fix:
 *	-EINVAL		malformed spec, unknown name, a term out of range,
 *			or what the planner refuses with -EINVAL (a
 *			load-latency event without :p, ldlat= on another
 *			event, ...)
 *	-EOPNOTSUPP	well-formed but not on @caps (the planner's
 *			-EOPNOTSUPP: no PEBS for the event, no precise
 *			distribution, a counter the CPU lacks); with @caps
 *			NULL or without a list, a named event, p, ldlat= or
 *			an extra-MSR value
 *	other		the planner's refusal as is (-EPERM: page-table
 *			isolation rules out PEBS; -ENODEV: the PMU is not
 *			usable; ...)
 * On success @why is empty, or holds a note the caller should print (a
 * generic event sampled without the exact IP, :ppp sampled as :pp).
 * *@attr is written only on success. @why may be NULL when @whylen is 0.
 */
int skd_event_parse(const char *spec, const struct skd_pmu_caps *caps,
		    struct skd_event_attr *attr, char *why, size_t whylen);

/*
 * Name of @attr on @caps for display, the inverse of skd_event_parse:
 * "cycles:pp", "mem_load_retired.l3_miss:p", "r01c0:ppp",
 * "mem_trans_retired.load_latency_gt_32:p",
 * "cpu/event=0xcd,umask=0x1,ldlat=30/p". A generic name wins where
 * parsing it gives @attr; then Intel's name of the encoding with the same
 * extra-MSR value (not deprecated, where there is one); else the raw
 * encoding. Truncated to @len - 1 characters.
 */
void skd_event_name(const struct skd_event_attr *attr,
		    const struct skd_pmu_caps *caps, char *buf, size_t len);

/*
 * Intel's description of the events of @caps (event_info.h), NULL when
 * the PMU is none of Intel's lists.
 */
const struct skd_event_info_list *
skd_event_infos_of(const struct skd_pmu_caps *caps);

/*
 * Intel's event for @attr's encoding and extra-MSR value on @caps, the
 * first by name that is not deprecated; NULL when there is none.
 */
const struct skd_event_info *
skd_event_info_of(const struct skd_pmu_caps *caps,
		  const struct skd_event_attr *attr);

/*
 * The attr of Intel's event @in on @caps (whose list it must be from):
 * its encoding and the extra-MSR value Intel gives it, precise 0.
 */
void skd_event_info_attr(const struct skd_pmu_caps *caps,
			 const struct skd_event_info *in,
			 struct skd_event_attr *attr);

/*
 * Plan @attr alone on @caps, as the module would plan a session of that
 * one event: 0 with the planned event's SKD_PLAN_* flags and counter
 * (SKD_IDX_*) in *@flags and *@idx (either may be NULL), or the
 * planner's -errno and sentence. How `skidless list` shows what each
 * event can do.
 */
int skd_event_check(const struct skd_pmu_caps *caps,
		    const struct skd_event_attr *attr, uint32_t *flags,
		    uint32_t *idx, char *why, size_t whylen);

/*
 * Do @attr's samples on @caps carry memory info (data address, load
 * latency, data source)? The planner's word: its PEBS records have the
 * data address (Intel's Data_LA) or it is a load-latency event. False
 * without PEBS, or when the planner refuses it alone.
 */
bool skd_event_carries_mem(const struct skd_pmu_caps *caps,
			   const struct skd_event_attr *attr);

/*
 * Where @attr's encoding may count on @caps and where PEBS records it,
 * as counter slots (event_rules.h: GP i is bit i, fixed j bit 8 + j):
 * Intel's counters (CounterHTOff with more than four GP counters), the
 * fixed counter of an architectural alias, the counters the part has,
 * and the model's PEBS restriction, as the planner takes them. For
 * display (`skidless list`); whether an event can be sampled is
 * skd_event_check()'s to say. Both 0 when @caps has no list or the list
 * has no such encoding.
 */
void skd_event_slots(const struct skd_pmu_caps *caps, uint64_t config,
		     uint16_t *counters, uint16_t *pebs);

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

#endif /* _SKD_EVENTS_H */
