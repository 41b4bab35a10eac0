/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulated PMU: a device model of an Intel core PMU with PEBS and
 * LBR, for machines without one. It answers CPUID and MSR accesses the way
 * a named CPU model would, counts modeled events on a per-CPU hrtimer, and
 * on overflow does what the hardware does: writes PEBS records into the DS
 * buffer the driver programmed, fills the LBRs from the interrupted
 * context's call chain, freezes them at the PMI, sets GLOBAL_STATUS and
 * raises the PMI as a real NMI. The Intel backend drives it through struct
 * skd_pmu_ops and cannot tell it from a CPU.
 *
 * It is an adversary, not a mirror: its rules come from Intel's event data
 * (which events count on which counter, which have PEBS: the generated
 * tables, checked against the JSON by tests/unit/test_event_data.c) and
 * from the SDM and Linux's arch/x86/events/intel as written down again in
 * this directory, never from the planner. It enforces them as the hardware
 * would (an event on a counter that cannot count it counts nothing, a
 * write to reserved bits fails as #GP would) and logs every rule the
 * driver broke (violations.c); every VM test asserts that log is empty.
 *
 * Test equipment: a module of its own (skidless_sim.ko), built with
 * `make SIM=1`, never part of what a package installs.
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
struct skd_event_list;

/* What a core type is, beyond leaf 0xA (struct sim_core.quirks). */
enum sim_quirks {
	/*
	 * IA32_PEBS_ENABLE has PEBS bits for PMC0-3 only (perfmon v4,
	 * Skylake: bits 4-31 reserved; SDM vol. 4, MSR 3F1H).
	 */
	SIM_PEBS_PMC0_3		= 1U << 0,
	/*
	 * Load latency needs event 0x03/0x82 counting beside it (Linux
	 * core.c require_mem_loads_aux_event()).
	 */
	SIM_LDLAT_AUX		= 1U << 1,
	/*
	 * meminfo latency: instruction 15:0, cache 47:32 (struct
	 * pebs_meminfo in Linux's asm/perf_event.h, "Alder Lake and later").
	 */
	SIM_LAT_SPLIT		= 1U << 2,
	/*
	 * CPUID.7.EDX[13] TSX_FORCE_ABORT can be switched on (debugfs tfa):
	 * then PMC3 counts wrongly while MSR 0x10F[0] is clear.
	 */
	SIM_TFA_CAPABLE		= 1U << 3,
};

/* One core type's PMU: what it answers and how it behaves. */
struct sim_core {
	u32 leaf_0a[4];			/* EAX EBX ECX EDX */
	u32 leaf_1a_eax;		/* hybrid: core type << 24 */
	u32 leaf_1c[4];			/* architectural LBR */
	u64 perf_cap;
	u32 nr_gp, nr_fixed, width;
	u32 version;			/* architectural perfmon */
	u32 pebs_fmt;
	bool baseline;			/* adaptive PEBS */
	bool arch_lbr;
	u32 lbr_nr;			/* legacy: fixed; arch: max depth */
	const char *list;		/* Intel's event list of this core */
	u64 offcore_mask;		/* MSR_OFFCORE_RSP_x valid bits */
	u64 frontend_mask;		/* MSR_PEBS_FRONTEND valid bits */
	u32 quirks;			/* enum sim_quirks */
};

/* A CPU model: CPUID identity and its core types. */
struct sim_model {
	const char *name;		/* as in enum skd_sim_model */
	u32 id;
	u32 max_leaf;
	u32 signature;			/* CPUID.1:EAX */
	u32 leaf_07_edx;
	bool hybrid;			/* CPU 0 core[0], the others core[1] */
	struct sim_core core[2];
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
	u64 frontend;
	u64 offcore[2];
	u64 ds_area;
	u64 debugctl;
	u64 lbr_select;
	u64 lbr_tos;
	u64 arch_lbr_ctl;
	u64 arch_lbr_depth;
	u64 tsx_force_abort;
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
	u64 lbr_frozen_ticks;		/* ticks the LBR sat frozen */
	u64 lbr_ticks;			/* ticks with the LBR enabled */
	u64 uncounted;			/* events a counter could not count */
};

struct sim_cpu {
	const struct sim_model *model;	/* whose registers these are */
	const struct sim_core *core;	/* this CPU's core type */
	const struct skd_event_list *events;	/* its Intel list */
	struct sim_regs r;
	struct hrtimer tick;
	u64 last_ns;
	bool attached;
	bool lvt_armed;			/* PMI delivery routed and unmasked */
	bool pmi_pending;		/* raised, status not yet acked */
	struct pt_regs pmi_regs;	/* the context the PMI samples */
	bool pmi_window;		/* pmi_regs are the live context */
	unsigned int tick_pmis;		/* PMIs raised in this tick */
	u32 logged;			/* rules logged for this setup */
	u64 setup;			/* a digest of what counts where */
	u64 chain[SKD_MAX_LBR + 1];	/* scratch for the LBR fill */
	u8 rec[SIM_REC_MAX];		/* scratch for one PEBS record */
	u32 rec_len;
	struct sim_stats stats;
};

extern const struct sim_model sim_models[__SKD_SIM_MAX];

/* main.c: the knobs tests turn (debugfs.c shows them). */
extern u32 sim_default;
extern u32 sim_held_counters;	/* GP counters "someone" has reserved */
extern bool sim_pti;		/* behave as if PTI were on */
extern bool sim_tfa;		/* TSX force-abort present (quirk models) */
extern bool sim_vmx;		/* VMX on: a guest could be entered */
/* Architectural LBR capabilities left to the cores: CPUID.1CH:EBX, ECX. */
extern u32 sim_lbr_filters, sim_lbr_info_fields;
/* Bits another PMU owner holds: any write that changes them is logged. */
extern u64 sim_foreign_ctrl, sim_foreign_fixed, sim_foreign_debugctl;
/*
 * A counter may overflow at any instruction, the last one before the
 * driver turns it off included: on a GLOBAL_CTRL write (outside the PMI)
 * that turns off a counting counter which interrupts, make it overflow
 * first and deliver its PMI.
 */
extern bool sim_overflow_at_off;

/* Per-CPU state, allocated at load (too big for static per-CPU data). */
extern struct sim_cpu __percpu *sim_cpus;

/* ops.c: per-model accessors; NULL for SKD_SIM_DEFAULT or unknown. */
const struct skd_pmu_ops *sim_ops(u32 model);
/* CPUID.1CH:EBX and ECX of core @c, as the knobs above leave them. */
u32 sim_arch_lbr_ebx(const struct sim_core *c);
u32 sim_arch_lbr_ecx(const struct sim_core *c);
/* The core type CPU @cpu is on model @m. */
const struct sim_core *sim_core_of(const struct sim_model *m,
				   unsigned int cpu);

/* msr.c: registers with model-aware semantics; -EIO as #GP would. */
int sim_rdmsr(const struct sim_model *m, u32 msr, u64 *val);
int sim_wrmsr(const struct sim_model *m, u32 msr, u64 val);
/* A test reads or sets a register as firmware or another owner would. */
int sim_peek(u32 msr, u64 *val);
int sim_poke(u32 msr, u64 val);
void sim_regs_reset(struct sim_cpu *sc, const struct sim_model *m);
void sim_sleep_init(void);
void sim_sleep_uninit(void);
bool sim_lbr_enabled(const struct sim_cpu *sc);
bool sim_lbr_frozen(const struct sim_cpu *sc);

/* rules.c: what an event does on a counter, from Intel's data. */
bool sim_counts_here(struct sim_cpu *sc, unsigned int idx, u32 config);
bool sim_pebs_here(struct sim_cpu *sc, unsigned int idx, u32 config);
void sim_check_setup(struct sim_cpu *sc);

/* clock.c: the clock that counts. */
void sim_clock_attach(struct sim_cpu *sc);
void sim_clock_detach(struct sim_cpu *sc);
/* sim_overflow_at_off: before GLOBAL_CTRL becomes @val. Not in the PMI. */
void sim_overflow_before_off(struct sim_cpu *sc, u64 val);

/* record.c: what the hardware writes. */
bool sim_write_pebs(struct sim_cpu *sc, unsigned int idx, u32 config,
		    struct pt_regs *regs);
void sim_fill_lbr(struct sim_cpu *sc, struct pt_regs *regs);

/* violations.c: the log of rules the driver broke. NMI-safe. */
enum sim_rule {
	SIM_V_RESERVED,		/* write to reserved bits (#GP) */
	SIM_V_NO_MSR,		/* access to an MSR the model lacks (#GP) */
	SIM_V_COUNTER,		/* event on a counter that cannot count it */
	SIM_V_PEBS,		/* PEBS asked where the event has none */
	SIM_V_FOREIGN,		/* another owner's bits changed */
	SIM_V_TFA,		/* PMC3 used while TSX force-abort is off */
	SIM_V_LDLAT_AUX,	/* load latency without 0x03/0x82 */
	SIM_V_TAKEN_ALONE,	/* TakenAlone event beside another */
	SIM_V_VMX,		/* PEBS armed while VMX is on */
	SIM_V_DS,		/* DS area or buffer the CPU cannot write */
	SIM_V_LBR_FILTER,	/* LBR filter changed while recording */
	SIM_V_EXTRA_MSR,	/* event needs an extra MSR left at 0 */
	__SIM_V_NR
};

void sim_violation(struct sim_cpu *sc, enum sim_rule rule, u32 msr,
		   u64 val, u64 extra);
u64 sim_violations_count(void);
int sim_violations_init(void);
void sim_violations_uninit(void);
/* One line per entry into @sf, oldest first. */
struct seq_file;
void sim_violations_show(struct seq_file *sf);
void sim_violations_clear(void);

/* debugfs.c */
int sim_debugfs_init(void);
void sim_debugfs_uninit(void);

#endif /* _SKD_SIM_H */
