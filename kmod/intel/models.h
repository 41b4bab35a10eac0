/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU models skidless knows by name: their legacy LBR layout and the
 * events they can sample with PEBS. One table, compiled into the module
 * (to check what a session asks for) and into the command (to turn names
 * into encodings), so the two can never disagree.
 */
#ifndef _SKD_INTEL_MODELS_H
#define _SKD_INTEL_MODELS_H

#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/types.h>
#else
#include "kernel_shim.h"
#endif

/* skd_event_def.flags */
#define SKD_EVF_PEBS		0x01	/* may be sampled with PEBS */
#define SKD_EVF_PRECDIST	0x02	/* precise distribution: allows :ppp */
#define SKD_EVF_LDLAT		0x04	/* load latency: needs a threshold */
#define SKD_EVF_MEM		0x08	/* PEBS records carry a data address */
#define SKD_EVF_STORE		0x10	/* the access is a store */

/* Counter bits of skd_event_def.counters, in IA32_PERF_GLOBAL_CTRL layout. */
#define SKD_CTR_GP(i)		BIT_ULL(i)
#define SKD_CTR_FIXED(j)	BIT_ULL(32 + (j))
#define SKD_CTR_ANY_GP		0xffULL

struct skd_event_def {
	const char *name;	/* lower case, as perf lists it */
	u32 config;		/* EVENTSEL bits: event, umask, edge, inv, cmask */
	u64 counters;		/* where it may count; SKD_CTR_* */
	u32 flags;		/* SKD_EVF_* */
	const char *desc;
};

/*
 * The generic events (cycles, instructions, branches, branch-misses) as a
 * model implements them, per precise level: [0] plain counting, [1] :p and
 * :pp, [2] :ppp. A zero config means the level is not available.
 */
struct skd_generic_event {
	const char *name;
	u32 config[3];
	u64 counters[3];
};

enum skd_generic {
	SKD_GEN_CYCLES,
	SKD_GEN_INSTRUCTIONS,
	SKD_GEN_BRANCHES,
	SKD_GEN_BRANCH_MISSES,
	SKD_GEN_NR,
};

struct skd_cpu_model {
	const char *name;		/* "skylake", ... (also sim model names) */
	const char *desc;
	u32 family;
	u8 models[12];			/* CPUID display models, 0-terminated */
	u64 pdist_counters;		/* where :ppp (precise distribution) works */
	u32 lbr_nr;			/* legacy LBR depth; 0: arch LBR or none */
	u32 lbr_from, lbr_to, lbr_info;	/* legacy LBR MSR bases */
	const struct skd_event_def *events;
	unsigned int nr_events;
	struct skd_generic_event generic[SKD_GEN_NR];
};

/* The model with this family/model, or NULL. */
const struct skd_cpu_model *skd_cpu_model_find(u32 family, u32 model);
/* By name ("skylake"), or NULL. */
const struct skd_cpu_model *skd_cpu_model_by_name(const char *name);
/*
 * The event of @m with the event and umask of @config, or NULL. Edge, inv
 * and cmask modify an event; they do not make another one.
 */
const struct skd_event_def *skd_event_find(const struct skd_cpu_model *m,
					   u32 config);
/* The event of @m with this name, case-insensitive, or NULL. */
const struct skd_event_def *skd_event_by_name(const struct skd_cpu_model *m,
					      const char *name);

extern const struct skd_cpu_model skd_cpu_models[];
extern const unsigned int skd_nr_cpu_models;

#endif /* _SKD_INTEL_MODELS_H */
