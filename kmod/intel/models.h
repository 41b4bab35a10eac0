/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU models skidless supports: one per Intel event list
 * (event_rules.h), with what Linux knows about those CPUs that the lists
 * do not say. Compiled into the module (to enforce) and the command (to
 * explain), so the two can never disagree.
 */
#ifndef _SKD_INTEL_MODELS_H
#define _SKD_INTEL_MODELS_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "kernel_shim.h"
#endif

#include "event_rules.h"

/* Rules of Linux's arch/x86/events/intel that apply to a model. */
enum skd_model_flags {
	/* PEBS only on GP counters 0-3 (ds.c intel_skl_pebs_event_constraints). */
	SKD_MODEL_PEBS_GP0_3	= 1U << 0,
	/* Load latency only with 0x03/0x82 counting (core.c MEM_LOADS_AUX). */
	SKD_MODEL_LDLAT_AUX	= 1U << 1,
	/* meminfo latency: instruction 15:0, cache 47:32 (INSTR_LATENCY). */
	SKD_MODEL_LAT_SPLIT	= 1U << 2,
	/* :ppp periods of at least 128 (core.c spr_limit_period). */
	SKD_MODEL_PDIST_MIN128	= 1U << 3,
};

/* The MSR_PEBS_FRONTEND bits one event may set (Linux's extra_regs). */
struct skd_frontend_mask {
	u16 config;			/* event | umask << 8 */
	u64 mask;
};

#define SKD_MAX_FRONTEND_EVENTS	4

struct skd_cpu_model {
	const char *name;		/* its event list's name */
	const char *desc;		/* the parts, for people */
	u32 flags;			/* enum skd_model_flags */
	/* Legacy LBR (lbr.c intel_pmu_lbr_init_*); 0: architectural or none. */
	u32 lbr_nr, lbr_from, lbr_to, lbr_info;
	/* Bits the extra MSRs take (core.c intel_*_extra_regs); 0: none. */
	u64 offcore_mask;
	struct skd_frontend_mask frontend[SKD_MAX_FRONTEND_EVENTS];
};

extern const struct skd_cpu_model skd_cpu_models[];
extern const unsigned int skd_nr_cpu_models;

/* The model of an event list (every list of the snapshot has one). */
const struct skd_cpu_model *skd_cpu_model_of(const struct skd_event_list *l);
/* By list name ("icelakex"), or NULL. */
const struct skd_cpu_model *skd_cpu_model_by_name(const char *name);

/*
 * The fixed counter that counts exactly @config besides the encodings the
 * list gives for it (Intel's 0x00 pseudo encodings): the architectural
 * encodings of instructions (0x00c0, fixed 0) and core cycles (0x003c,
 * fixed 1), as core.c's FIXED_EVENT_CONSTRAINT has them. -1: none.
 */
int skd_fixed_alias(u32 config);

/*
 * The MSR_PEBS_FRONTEND bits event @config may set on @m; 0 when Linux
 * programs no front-end value for it.
 */
u64 skd_frontend_mask(const struct skd_cpu_model *m, u32 config);

#endif /* _SKD_INTEL_MODELS_H */
