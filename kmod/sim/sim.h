/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulated PMU: a device model of an Intel core PMU with PEBS and
 * LBR, for machines without one. It answers CPUID and MSR accesses the way
 * a named CPU model would, counts modeled events on a per-CPU hrtimer, and
 * on overflow does what the hardware does: writes PEBS records into the DS
 * buffer the driver programmed, fills the LBRs from the interrupted
 * context's call chain, sets GLOBAL_STATUS and raises the PMI as a real
 * NMI. The Intel backend drives it through struct skd_pmu_ops and cannot
 * tell it from a CPU.
 */
#ifndef _SKD_SIM_H
#define _SKD_SIM_H

#include <linux/hrtimer.h>
#include <linux/types.h>
#include <asm/ptrace.h>

#include "msrs.h"
#include "pebs.h"
#include "skidless.h"

/* The largest record a model writes: every adaptive group, 64 LBRs. */
#define SIM_REC_MAX	(SKD_PEBS_BASIC_SIZE + SKD_PEBS_MEMINFO_SIZE + \
			 SKD_PEBS_GPRS_SIZE + SKD_PEBS_XMMS_SIZE + \
			 SKD_PEBS_LBR_SIZE * SKD_MAX_LBR)

struct skd_pmu_ops;

/* What a model answers for CPUID and the capability MSRs. */
struct sim_model {
	const char *name;		/* as in the CPU model table */
	u32 id;				/* enum skd_sim_model */
	u32 max_leaf;
	u32 signature;			/* CPUID.1:EAX */
	u32 leaf_0a[4];			/* EAX EBX ECX EDX */
	u32 leaf_07_edx;
	u32 leaf_1c[4];
	u64 perf_cap;
	u32 nr_gp, nr_fixed, width;
	u32 pebs_fmt;
	bool baseline;			/* adaptive PEBS */
	bool arch_lbr;
	u32 lbr_nr;			/* legacy: fixed; arch: max depth */
};

/* The registers of one simulated CPU. */
struct sim_regs {
	u64 pmc[SKD_MAX_GP];
	u64 evtsel[SKD_MAX_GP];
	u64 fixed[SKD_MAX_FIXED];
	u64 fixed_ctrl;
	u64 global_ctrl;
	u64 global_status;
	u64 pebs_enable;
	u64 pebs_data_cfg;
	u64 ld_lat;
	u64 ds_area;
	u64 debugctl;
	u64 lbr_select;
	u64 lbr_tos;
	u64 arch_lbr_ctl;
	u64 arch_lbr_depth;
	u64 lbr_from[SKD_MAX_LBR];
	u64 lbr_to[SKD_MAX_LBR];
	u64 lbr_info[SKD_MAX_LBR];
};

struct sim_stats {
	u64 ticks;
	u64 overflows;
	u64 records;
	u64 records_dropped;		/* DS buffer full: no signaling */
	u64 pmis;
	u64 pmis_late;			/* not taken before the tick ended */
	u64 pmis_masked;		/* LVTPC masked: not delivered */
	u64 events_skipped;		/* past the tick's overflows or PMIs */
	u64 resets;			/* power-on state after system sleep */
};

struct sim_cpu {
	const struct sim_model *model;	/* whose registers these are */
	struct sim_regs r;
	struct hrtimer tick;
	u64 last_ns;
	bool attached;
	bool lvt_armed;			/* PMI delivery routed and unmasked */
	bool pmi_pending;		/* raised, status not yet acked */
	struct pt_regs pmi_regs;	/* the context the PMI samples */
	bool pmi_window;		/* pmi_regs are the live context */
	unsigned int tick_pmis;		/* PMIs raised in this tick */
	u64 chain[SKD_MAX_LBR + 1];	/* scratch for the LBR fill */
	u8 rec[SIM_REC_MAX];		/* scratch for one PEBS record */
	u32 rec_len;
	struct sim_stats stats;
};

extern const struct sim_model sim_models[__SKD_SIM_MAX];

/* Per-model accessors; NULL for SKD_SIM_DEFAULT or unknown. */
const struct skd_pmu_ops *skd_sim_ops(u32 model);
/* The model sessions get when they do not name one (module parameter). */
u32 skd_sim_default_model(void);
int skd_sim_init(const char *default_model);
void skd_sim_uninit(void);

/* Registers: model-aware MSR semantics (msr.c). */
int sim_rdmsr(const struct sim_model *m, u32 msr, u64 *val);
int sim_wrmsr(const struct sim_model *m, u32 msr, u64 val);
void sim_regs_reset(struct sim_cpu *sc, const struct sim_model *m);
/* The boot CPU's registers go back to power-on state over system sleep. */
void sim_sleep_init(void);
void sim_sleep_uninit(void);
bool sim_lbr_enabled(const struct sim_cpu *sc);

/* The clock that counts (clock.c). */
void sim_clock_attach(struct sim_cpu *sc);
void sim_clock_detach(struct sim_cpu *sc);

/* What the hardware writes (record.c). */
bool sim_write_pebs(struct sim_cpu *sc, unsigned int idx, u32 config,
		    struct pt_regs *regs);
void sim_fill_lbr(struct sim_cpu *sc, struct pt_regs *regs);

/* Knobs for tests (debugfs.c): counters held by "someone else", PTI. */
extern u32 sim_held_counters;
extern bool sim_pti;
int sim_debugfs_init(void);
void sim_debugfs_uninit(void);

/* Per-CPU state, allocated at load (too big for static per-CPU data). */
extern struct sim_cpu __percpu *sim_cpus;

#endif /* _SKD_SIM_H */
