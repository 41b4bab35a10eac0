/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intel's event lists as the module enforces them: for every encoding of
 * every core event of every list, where it counts, where PEBS records it,
 * whether its records carry the eventing IP and a data address, where it
 * has precise distribution, and which extra MSR it needs. Generated at
 * build time by gen_events.c from Intel's perfmon JSON in perfmon/ (the
 * rules of that derivation are perfmon/README.md); names and descriptions
 * are the command's (userland/lib/event_info.h).
 *
 * Pure data and lookups: built into the module and into the command.
 */
#ifndef _SKD_INTEL_EVENT_RULES_H
#define _SKD_INTEL_EVENT_RULES_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "kernel_shim.h"
#endif

/*
 * Counter slots, a u16: general-purpose counter i is bit i, fixed counter
 * j is bit 8 + j.
 */
#define SKD_SLOT_GP(i)		(1U << (i))
#define SKD_SLOT_FIXED(j)	(1U << (8 + (j)))
#define SKD_SLOTS_GP		0x00ffU
#define SKD_SLOTS_FIXED		0x0f00U

enum skd_rule_flags {
	SKD_RULE_EXACT		= 1U << 0,	/* records carry the eventing IP */
	SKD_RULE_DATA_LA	= 1U << 1,	/* records carry the data address */
	SKD_RULE_TAKEN_ALONE	= 1U << 2,	/* alone on the GP counters */
	SKD_RULE_LDLAT		= 1U << 3,	/* MSR_PEBS_LD_LAT_THRESHOLD */
	SKD_RULE_FRONTEND	= 1U << 4,	/* MSR_PEBS_FRONTEND */
	SKD_RULE_OFFCORE	= 1U << 5,	/* MSR_OFFCORE_RSP_0 */
	SKD_RULE_OFFCORE1	= 1U << 6,	/* MSR_OFFCORE_RSP_1 */
};

#define SKD_RULE_EXTRA_MSR	(SKD_RULE_LDLAT | SKD_RULE_FRONTEND | \
				 SKD_RULE_OFFCORE | SKD_RULE_OFFCORE1)

/* One encoding of an event. */
struct skd_event_rule {
	/* IA32_PERFEVTSELx bits: event, umask, edge, any, inv, cmask. */
	u32 config;
	u16 counters;		/* slots where it counts */
	u16 counters_htoff;	/* the same with hyper-threading off */
	u16 pebs;		/* slots where PEBS records it; 0: none */
	u16 pdist;		/* slots with precise distribution */
	/* Offcore: event | umask << 8 of the other response MSR's encoding. */
	u16 alt;
	u16 flags;		/* enum skd_rule_flags */
};

/* The rules of one list, sorted by config. */
struct skd_event_list {
	const char *name;		/* "skylake", "alderlake_gracemont" */
	const struct skd_event_rule *rules;
	u32 nr_rules;
};

/* A row of Intel's mapfile.csv. */
struct skd_cpu_match {
	u8 family, model;
	u16 steppings;			/* bit s: stepping s matches */
	u8 core_type;			/* CPUID.1AH:EAX[31:24]; 0: any */
	u8 list;			/* index in skd_event_lists[] */
};

/* mapfile.csv's core types (CPUID.1AH:EAX[31:24]). */
#define SKD_CORE_TYPE_ATOM	0x20
#define SKD_CORE_TYPE_CORE	0x40

extern const struct skd_event_list skd_event_lists[];
extern const unsigned int skd_nr_event_lists;
extern const struct skd_cpu_match skd_cpu_matches[];
extern const unsigned int skd_nr_cpu_matches;

/*
 * The list of a CPU: mapfile.csv's row for @family, @model, @stepping and
 * (hybrid parts) @core_type, 0 when the CPU is not hybrid. NULL: none.
 */
const struct skd_event_list *skd_event_list_match(u32 family, u32 model,
						  u32 stepping, u32 core_type);
/* By name ("icelakex"), or NULL. */
const struct skd_event_list *skd_event_list_by_name(const char *name);
/* The rule for exactly @config (event, umask, edge, any, inv, cmask). */
const struct skd_event_rule *skd_event_rule_find(const struct skd_event_list *l,
						 u32 config);

#endif /* _SKD_INTEL_EVENT_RULES_H */
