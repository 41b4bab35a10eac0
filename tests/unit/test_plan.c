// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for kmod/intel/plan.c, the session planner.
 *
 * Every expected register value below is written by hand from the bit
 * positions of the Intel SDM (Vol. 3B, "Performance Monitoring" and "Last
 * Branch Records"; Vol. 4 for the MSR numbers), never computed with
 * plan.c's helpers or msrs.h's macros, so a wrong bit in either shows up
 * here. Which counters an event may use, where PEBS records it, whether
 * its records carry the eventing IP and a data address, its precise
 * distribution and its extra MSR come from Intel's event lists in
 * kmod/intel/perfmon/ (the JSON fields are named where a scenario depends
 * on them); the rules the lists do not state come from Linux's
 * arch/x86/events/intel/{core,ds,lbr}.c, cited where used. The bits:
 *
 *   IA32_PERFEVTSELx: USR 16, OS 17, INT 20, EN 22, ADAPTIVE 34.
 *	config | EN | USR | OS       = config | 0x430000
 *	config | EN | USR | OS | INT = config | 0x530000
 *	... | ADAPTIVE               = ... | 0x400000000
 *   IA32_FIXED_CTR_CTRL: nibble j = OS 1, USR 2, PMI 8 (0xb, or 0x3 for
 *	PEBS), the adaptive-record enable of fixed j at bit 32 + 4j. The
 *	plan's mask of our bits there: nibble and adaptive bit of each fixed
 *	counter used (fixed 0 0x10000000f, 1 0x10000000f0, 2 0x10000000f00,
 *	3 0x10000000f000).
 *   IA32_PERF_GLOBAL_CTRL: GP i bit i, fixed j bit 32 + j.
 *   IA32_PEBS_ENABLE: GP i bit i, fixed j bit 32 + j (PEBS baseline),
 *	load latency on GP i bit 32 + i (perfmon version < 5).
 *   IA32_PMCi at 0xc1 + i take 32-bit writes, sign-extended from bit 31;
 *	IA32_A_PMCi at 0x4c1 + i the full width, when
 *	IA32_PERF_CAPABILITIES[13] says so. Linux (core.c intel_pmu_init())
 *	then raises max_period from 2^31 - 1 to cntval_mask >> 1, for every
 *	counter (arch/x86/events/core.c x86_perf_event_set_period()):
 *	0x7fffffff or, with 48-bit counters, 0x7fffffffffff.
 *   MSR_PEBS_DATA_CFG: MEMINFO bit 0, LBRS bit 3, (n - 1) << 24.
 *   MSR_PEBS_LD_LAT_THRESHOLD 0x3f6, MSR_PEBS_FRONTEND 0x3f7,
 *	MSR_OFFCORE_RSP_0/1 0x1a6/0x1a7 take the event's config1.
 *   IA32_DEBUGCTL: LBR bit 0, FREEZE_LBRS_ON_PMI bit 11.
 *   MSR_LBR_SELECT: suppress bits 0 CPL_EQ_0, 1 CPL_NEQ_0, 2 JCC,
 *	3 REL_CALL, 4 IND_CALL, 5 RET, 6 IND_JMP, 7 REL_JMP, 8 FAR; 9 call
 *	stack (enable).
 *   IA32_LBR_CTL (architectural LBR): EN 0, OS 1, USR 2, CALL_STACK 3,
 *	JCC 16, REL_JMP 17, IND_JMP 18, REL_CALL 19, IND_CALL 20, RET 21,
 *	OTHER 22.
 *   PEBS records: 176/192/200 bytes for formats 1/2/3; adaptive: basic 32,
 *	meminfo 32, LBR 24 per entry.
 *   DS area: the reset value of fixed 0 in slot 8 before format 5, 32
 *	from format 5 (asm/intel_ds.h struct debug_store, ds.c
 *	intel_pmu_pebs_enable()).
 *   Reset value: (-period) & (2^width - 1).
 *
 * SKD_PLAN_* and SKD_RULE_* are the plan's interface flags, not register
 * bits: they are named, never computed.
 *
 * The scenarios are one table, run as one test that reports how many
 * cases it checked and names every case that disagrees.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "event_rules.h"
#include "models.h"
#include "plan.h"
#include "pmu_caps.h"

/* 2^48 - 100003: period 100003 on a 48-bit counter. */
#define R100003		0xfffffffe795dULL
/* The longest period: 2^47 - 1 with full-width writes, else 2^31 - 1. */
#define MAXP		0x7fffffffffffULL
#define MAXP31		0x7fffffffULL

/* Interface flags of planned events. */
#define F_PEBS		SKD_PLAN_PEBS
#define F_PX		(SKD_PLAN_PEBS | SKD_PLAN_EXACT)
#define F_MEM		(SKD_PLAN_PEBS | SKD_PLAN_EXACT | SKD_PLAN_DATA_LA)
#define F_LDLAT		(F_MEM | SKD_PLAN_LDLAT)
#define F_AUX		SKD_PLAN_AUX

#define PEBS_BYTES	65536
#define MAX_RATE	100000	/* the module's default max_sample_rate */

/* What every plan on a CPU holds: the counter MSR base, all GP counters. */
#define FW4		.pmc_base = 0x4c1, .gp_reserved = 0x0f
#define FW6		.pmc_base = 0x4c1, .gp_reserved = 0x3f
#define FW8		.pmc_base = 0x4c1, .gp_reserved = 0xff
#define NOFW4		.pmc_base = 0x0c1, .gp_reserved = 0x0f

/* ---- the CPUs: pmu_caps.c's, and variants of them ---------------------- */

/* A Skylake guest whose hypervisor hides PEBS. */
static void caps_nopebs(struct skd_pmu_caps *c)
{
	pmu_caps_skylake(c);
	c->perf_cap &= ~0xf00ULL;
	c->pebs_fmt = 0;
	c->flags &= ~(SKD_PMU_PEBS | SKD_PMU_PEBS_TRAP | SKD_PMU_SIMULATED);
	c->flags |= SKD_PMU_HYPERVISOR;
}

static void caps_pti(struct skd_pmu_caps *c)
{
	pmu_caps_skylake(c);
	c->flags |= SKD_PMU_PTI;
}

static void caps_nofw(struct skd_pmu_caps *c)
{
	pmu_caps_skylake(c);
	c->perf_cap &= ~0x2000ULL;
	c->flags &= ~SKD_PMU_FW_WRITES;
}

/* TSX force-abort present and off (MSR 0x10f bit 0 clear): no counter 3. */
static void caps_tfa(struct skd_pmu_caps *c)
{
	pmu_caps_skylake(c);
	c->flags |= SKD_PMU_TFA;
}

static void caps_unusable(struct skd_pmu_caps *c)
{
	pmu_caps_skylake(c);
	c->flags &= ~SKD_PMU_USABLE;
	strcpy(c->why, "no architectural perfmon (CPUID.0AH:EAX = 0)");
}

/* Skylake's list with older PEBS record formats. */
static void caps_skl_fmt1(struct skd_pmu_caps *c)
{
	pmu_caps_skylake(c);
	c->pebs_fmt = 1;
}

static void caps_skl_fmt2(struct skd_pmu_caps *c)
{
	pmu_caps_skylake(c);
	c->pebs_fmt = 2;
}

static void caps_skl_fmt6(struct skd_pmu_caps *c)
{
	pmu_caps_skylake(c);
	c->pebs_fmt = 6;
}

static void caps_skl_nolbr(struct skd_pmu_caps *c)
{
	pmu_caps_skylake(c);
	c->lbr_nr = 0;
	c->flags &= ~SKD_PMU_LBR;
}

/* Ice Lake with PEBS format 4 but no baseline: basic records only. */
static void caps_icl_nobaseline(struct skd_pmu_caps *c)
{
	pmu_caps_icelake(c);
	c->perf_cap &= ~0x4000ULL;
	c->flags &= ~SKD_PMU_PEBS_BASELINE;
}

/* Ice Lake in a guest that hides fixed counter 3 (CPUID.0AH:ECX = 0x7). */
static void caps_icl_nofixed3(struct skd_pmu_caps *c)
{
	pmu_caps_icelake(c);
	c->fixed_mask = 0x7;
	c->nr_fixed = 3;
}

/* Architectural LBR with part of CPUID.1CH:EBX (CPL 0, type 1, stack 2). */
static void caps_spr_ebx0(struct skd_pmu_caps *c)
{
	pmu_caps_sapphirerapids(c);
	c->arch_lbr_ebx = 0;
}

static void caps_spr_ebx3(struct skd_pmu_caps *c)
{
	pmu_caps_sapphirerapids(c);
	c->arch_lbr_ebx = 0x3;
}

static void caps_spr_ebx4(struct skd_pmu_caps *c)
{
	pmu_caps_sapphirerapids(c);
	c->arch_lbr_ebx = 0x4;
}

static void caps_spr_ebx6(struct skd_pmu_caps *c)
{
	pmu_caps_sapphirerapids(c);
	c->arch_lbr_ebx = 0x6;
}

static void caps_spr_ebx5(struct skd_pmu_caps *c)
{
	pmu_caps_sapphirerapids(c);
	c->arch_lbr_ebx = 0x5;
}

/* ---- scenarios ---------------------------------------------------------- */

struct want_ev {
	u32 idx;
	u64 period;
	u64 reset;
	u32 flags;
	u64 freq;
	u64 max_period;
	u64 config;		/* 0: the event's own */
};

struct want {
	unsigned int nr;	/* planned events; 0: the session's */
	u32 pmc_base;
	u64 eventsel[SKD_MAX_GP];
	u64 fixed_ctrl, fixed_ctrl_mask, global_ctrl;
	u64 pebs_enable, pebs_data_cfg, ld_lat, frontend, offcore[2];
	u32 extra_msrs;
	u64 debugctl, lbr_select, arch_lbr_ctl;
	u32 arch_lbr_depth, lbr_nr;
	bool lbr_from_record, lat_split;
	u64 pebs_counters, pmi_counters, gp_reserved;
	u32 record_size, max_records, threshold, fixed_slot;
	bool large, exact;
};

struct scenario {
	const char *name;
	void (*caps)(struct skd_pmu_caps *c);
	unsigned int nr;
	struct skd_event_attr ev[SKD_MAX_EVENTS + 1];
	u32 branch;
	u32 exclude;			/* the session's SKD_EV_EXCLUDE_* */
	bool callchain;
	bool own_defaults;		/* use the three fields below */
	u64 default_period, default_freq;
	u32 pebs_bytes;
	int err;			/* expected -errno, 0: success */
	const char *word;		/* in why when err */
	struct want want;
	struct want_ev evs[SKD_MAX_EVENTS + 1];
};

#define EV(cfg, p)	{ .size = 48, .config = (cfg), .precise = (p) }
#define EVL(cfg, p, l)	{ .size = 48, .config = (cfg), .precise = (p), \
			  .ldlat = (l) }
#define EVP(cfg, p, per) { .size = 48, .config = (cfg), .precise = (p), \
			   .sample_period = (per) }
#define EVF(cfg, p, fl)	{ .size = 48, .config = (cfg), .precise = (p), \
			  .flags = (fl) }
#define EV1(cfg, p, c1)	{ .size = 48, .config = (cfg), .precise = (p), \
			  .config1 = (c1) }

/* A planned event at the session's period 100003 on a 48-bit counter. */
#define AT(i, fl)	{ .idx = (i), .period = 100003, .reset = R100003, \
			  .flags = (fl), .max_period = MAXP }

/*
 * Encodings: EventCode | UMask << 8 | Invert << 23 | CounterMask << 24, as
 * Intel's lists give them.
 */
#define CYCLES		0x003c	/* CPU_CLK_UNHALTED.THREAD_P; fixed 1 too */
#define INSTR		0x00c0	/* INST_RETIRED.ANY_P; fixed 0 too */
#define PSEUDO_INSTR	0x0100	/* INST_RETIRED.ANY: "Fixed counter 0" */
#define PSEUDO_CYCLES	0x0200	/* CPU_CLK_UNHALTED.THREAD: fixed 1 */
#define REF_CYCLES	0x0300	/* CPU_CLK_UNHALTED.REF_TSC: fixed 2 */
#define SLOTS		0x0400	/* TOPDOWN.SLOTS: fixed 3 */
#define SKL_PDIST	0x01c0	/* INST_RETIRED.PREC_DIST (Skylake) */
/* skylakex INST_RETIRED.TOTAL_CYCLES_PS: C0/01, Invert 1, CounterMask 10 */
#define SKL_PCYCLES	0x0a8001c0
/* Linux's cycles:pp on Skylake, C0/01 inv cmask=16: not in the list */
#define LINUX_PCYCLES	0x108001c0
#define LOADS		0x81d0	/* MEM_INST_RETIRED.ALL_LOADS */
#define STORES		0x82d0	/* MEM_INST_RETIRED.ALL_STORES */
#define L1_MISS		0x08d1	/* MEM_LOAD_RETIRED.L1_MISS */
#define L2_MISS		0x10d1
#define L3_MISS		0x20d1
#define LDLAT		0x01cd	/* MEM_TRANS_RETIRED.LOAD_LATENCY_* */
#define GRT_LDLAT	0x05d0	/* Gracemont MEM_UOPS_RETIRED.LOAD_LATENCY_* */
#define BRANCHES	0x00c4	/* BR_INST_RETIRED.ALL_BRANCHES */
#define BR_MISP		0x00c5	/* BR_MISP_RETIRED.ALL_BRANCHES */
#define BR_PEBS		0x04c4	/* Skylake BR_INST_RETIRED.ALL_BRANCHES_PEBS */
#define MISP_PEBS	0x04c5	/* Skylake BR_MISP_RETIRED.ALL_BRANCHES_PEBS */
#define BR_COND		0x01c4	/* Skylake BR_INST_RETIRED.CONDITIONAL */
#define NEAR_CALL	0x02c4	/* BR_INST_RETIRED.NEAR_CALL */
#define NEAR_TAKEN	0x20c4	/* BR_INST_RETIRED.NEAR_TAKEN */
#define UOPS_SLOTS	0x02c2	/* UOPS_RETIRED.RETIRE_SLOTS / .SLOTS */
#define UOPS_ALL_BDW	0x01c2	/* Broadwell's UOPS_RETIRED.ALL */
#define FE_DSB_MISS	0x01c6	/* FRONTEND_RETIRED.*, MSRIndex 0x3F7 */
#define SKL_OCR		0x01b7	/* OFFCORE_RESPONSE.*: "0xB7, 0xBB" */
#define SKL_OCR1	0x01bb
#define GLC_OCR		0x012a	/* OCR.*: "0x2A,0x2B" */
#define GLC_OCR1	0x012b
#define GRT_OCR		0x01b7	/* Gracemont OCR.*: UMask "0x01,0x02" */
#define GRT_OCR1	0x02b7
#define LD_AUX		0x8203	/* LD_BLOCKS.STORE_FORWARD, Counter 0-3 */

/* MSRValue of OCR.DEMAND_DATA_RD.ANY_RESPONSE, DEMAND_RFO.ANY_RESPONSE. */
#define OCR_DRD_ANY	0x10001
#define OCR_RFO_ANY	0x10002
#define OCR_DRD_L3MISS	0x3fbfc00001ULL	/* OCR.DEMAND_DATA_RD.L3_MISS */

/*
 * Sets of events. FOUR_GP: three that may use any GP counter and a
 * memory event (Counter 0-3 in every list). GP4 may use any GP counter
 * (CounterHTOff 0-7 on Skylake), MEM4 only counters 0-3.
 */
#define FOUR_GP		EV(BRANCHES, 0), EV(BR_MISP, 0), EV(UOPS_SLOTS, 0), \
			EV(L3_MISS, 0)
#define GP4		EV(BRANCHES, 0), EV(BR_MISP, 0), EV(UOPS_SLOTS, 0), \
			EV(NEAR_CALL, 0)
#define MEM4		EV(LOADS, 0), EV(STORES, 0), EV(L1_MISS, 0), \
			EV(L3_MISS, 0)
/* Five memory events among eight. */
#define EIGHT_GP	FOUR_GP, EV(LOADS, 0), EV(STORES, 0), EV(L1_MISS, 0), \
			EV(L2_MISS, 0)
#define MEM_PP		EV(LOADS, 2), EV(STORES, 2), EV(L3_MISS, 2)

static const struct scenario scenarios[] = {
	/* ---- Skylake-SP "skylakex": v4, 4 GP, 3 fixed, PEBS fmt 3 ---- */
	{
		.name = "skylake cycles",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.want = {
			FW4,
			.fixed_ctrl = 0xb0,		/* fixed 1: OS|USR|PMI */
			.fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,	/* bit 33 */
			.pmi_counters = 0x200000000,
		},
		.evs = { AT(33, 0) },
	},
	{
		/*
		 * CPU_CLK_UNHALTED.THREAD_ANY: skylake JSON EventCode 0x00,
		 * UMask 0x02, AnyThread 1, "Fixed counter 1". The SDM's
		 * IA32_FIXED_CTR_CTRL has AnyThread at bit 4j+2: fixed 1
		 * gets OS|USR|ANY|PMI.
		 */
		.name = "skylake cycles of both threads (AnyThread)",
		.caps = pmu_caps_skylake, .nr = 1,
		.ev = { EV(PSEUDO_CYCLES | (1U << 21), 0) },
		.want = {
			FW4,
			.fixed_ctrl = 0xf0,
			.fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
		},
		.evs = { AT(33, 0) },
	},
	{
		/*
		 * cycles:pp is skylakex's INST_RETIRED.TOTAL_CYCLES_PS:
		 * EventCode 0xC0, UMask 0x01, Invert 1, CounterMask 10,
		 * Counter "0,2,3", PEBS 2 (format 3 records carry the
		 * eventing IP: exact). First preferred GP counter: 0.
		 */
		.name = "skylake cycles:pp (total_cycles_ps)",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(SKL_PCYCLES, 2) },
		.want = {
			FW4,
			/* 0x0a8001c0 | EN | USR | OS (0x430000: INV, bit 23,
			 * is the event's own), no INT (PEBS) */
			.eventsel = { 0x0ac301c0 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.record_size = 200, .max_records = 327,
			.threshold = 326, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_PX) },
	},
	{
		/* Not named *.PREC_DIST, and the list has no PDISTCounter. */
		.name = "skylake total_cycles_ps:ppp",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(SKL_PCYCLES, 3) },
		.err = -EOPNOTSUPP,
		.word = "`ra8001c0:ppp`: no precise distribution for this event on skylakex; use :pp",
	},
	{
		/*
		 * Linux's Skylake cycles:pp alias (C0/01 inv cmask=16): no
		 * such encoding in skylakex (CounterMask is 10 there), so the
		 * list gives it no PEBS.
		 */
		.name = "skylake r108001c0:pp, not in the list",
		.caps = pmu_caps_skylake, .nr = 1,
		.ev = { EV(LINUX_PCYCLES, 2) },
		.err = -EOPNOTSUPP,
		.word = "`r108001c0:pp`: Intel's list for skylakex gives this event no PEBS",
	},
	{
		/* INST_RETIRED.PREC_DIST: Counter "1", PEBS 2. */
		.name = "skylake instructions:ppp (prec_dist)",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(SKL_PDIST, 3) },
		.want = {
			FW4,
			.eventsel = { [1] = 0x4301c0 },	/* 0x1c0|EN|USR|OS */
			.global_ctrl = 0x2, .pebs_enable = 0x2,
			.pebs_counters = 0x2,
			.record_size = 200, .max_records = 327,
			.threshold = 326, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { AT(1, F_PX) },
	},
	{
		/* PEBS 1, Data_LA 1, Counter 0-3 each. */
		.name = "skylake loads+stores+l3_miss:pp",
		.caps = pmu_caps_skylake, .nr = 3, .ev = { MEM_PP },
		.want = {
			FW4,
			.eventsel = { 0x4381d0, 0x4382d0, 0x4320d1 },
			.global_ctrl = 0x7, .pebs_enable = 0x7,
			.pebs_counters = 0x7,
			/* 327 records, one of headroom per PEBS counter */
			.record_size = 200, .max_records = 327,
			.threshold = 324, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_MEM), AT(1, F_MEM), AT(2, F_MEM) },
	},
	{
		/* MEM_TRANS_RETIRED.LOAD_LATENCY_*: Counter 0-3, PEBS 2,
		 * Data_LA 1, MSRIndex 0x3F6, TakenAlone 1. */
		.name = "skylake load latency ldlat=30",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EVL(LDLAT, 1, 30) },
		.want = {
			FW4,
			.eventsel = { 0x4301cd },
			.global_ctrl = 0x1,
			/* GP 0, and its load-latency enable, bit 32 (v4) */
			.pebs_enable = 0x100000001,
			.pebs_counters = 0x1, .ld_lat = 30,
			.extra_msrs = SKD_RULE_LDLAT,
			.record_size = 200, .max_records = 327,
			.threshold = 326, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_LDLAT) },
	},
	{
		.name = "skylake four GP events",
		.caps = pmu_caps_skylake, .nr = 4, .ev = { FOUR_GP },
		.want = {
			FW4,
			/* config | EN | USR | OS | INT */
			.eventsel = { 0x5300c4, 0x5300c5, 0x5302c2, 0x5320d1 },
			.global_ctrl = 0xf, .pmi_counters = 0xf,
		},
		.evs = { AT(0, 0), AT(1, 0), AT(2, 0), AT(3, 0) },
	},
	{
		.name = "skylake five GP events",
		.caps = pmu_caps_skylake, .nr = 5,
		.ev = { FOUR_GP, EV(LOADS, 0) },
		.err = -ENOSPC,
		.word = "`r81d0` cannot be placed: 5 events need general-purpose counters; skylakex has 4",
	},
	{
		.name = "skylake eight GP events",
		.caps = pmu_caps_skylake, .nr = 8, .ev = { EIGHT_GP },
		.err = -ENOSPC,
		.word = "8 events need general-purpose counters; skylakex has 4",
	},
	{
		/* Fixed counters first; the GP-only events fill GP 0-3. */
		.name = "skylake cycles, instructions and four GP events",
		.caps = pmu_caps_skylake, .nr = 6,
		.ev = { EV(CYCLES, 0), FOUR_GP, EV(INSTR, 0) },
		.want = {
			FW4,
			.eventsel = { 0x5300c4, 0x5300c5, 0x5302c2, 0x5320d1 },
			.fixed_ctrl = 0xbb,		/* fixed 0 and 1 */
			.fixed_ctrl_mask = 0x11000000ff,
			.global_ctrl = 0x30000000f,
			.pmi_counters = 0x30000000f,
		},
		.evs = { AT(33, 0), AT(0, 0), AT(1, 0), AT(2, 0), AT(3, 0),
			 AT(32, 0) },
	},
	{
		/*
		 * INST_RETIRED.ANY_P (C0/00), BR_INST_RETIRED.ALL_BRANCHES
		 * (C4/00) and BR_MISP_RETIRED.ALL_BRANCHES (C5/00) have PEBS
		 * 0 in skylakex; the PEBS-capable branch events are C4/04 and
		 * C5/04.
		 */
		.name = "skylake inst_retired.any_p:p",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(INSTR, 1) },
		.err = -EOPNOTSUPP,
		.word = "`r00c0:p`: Intel's list for skylakex gives this event no PEBS",
	},
	{
		.name = "skylake br_inst_retired.all_branches:p",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(BRANCHES, 1) },
		.err = -EOPNOTSUPP,
		.word = "`r00c4:p`: Intel's list for skylakex gives this event no PEBS",
	},
	{
		.name = "skylake br_misp_retired.all_branches:pp",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(BR_MISP, 2) },
		.err = -EOPNOTSUPP,
		.word = "`r00c5:pp`: Intel's list for skylakex gives this event no PEBS",
	},
	{
		/* C4/04 and C5/04: Counter 0-3, PEBS 2. */
		.name = "skylake all_branches_pebs:pp, br_misp all_branches_pebs:pp",
		.caps = pmu_caps_skylake, .nr = 2,
		.ev = { EV(BR_PEBS, 2), EV(MISP_PEBS, 2) },
		.want = {
			FW4,
			.eventsel = { 0x4304c4, 0x4304c5 },
			.global_ctrl = 0x3, .pebs_enable = 0x3,
			.pebs_counters = 0x3,
			.record_size = 200, .max_records = 327,
			.threshold = 325, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_PX), AT(1, F_PX) },
	},
	{
		/*
		 * uops_retired.all (C2/01) is Broadwell's; skylakex has no
		 * C2/01. An encoding a list lacks counts on any GP counter,
		 * as perf lets a raw event, and has no PEBS.
		 */
		.name = "skylake r01c2, not in the list",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(UOPS_ALL_BDW, 0) },
		.want = {
			FW4,
			.eventsel = { 0x5301c2 },
			.global_ctrl = 0x1, .pmi_counters = 0x1,
		},
		.evs = { AT(0, 0) },
	},
	{
		.name = "skylake r01c2:ppp, not in the list",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(UOPS_ALL_BDW, 3) },
		.err = -EOPNOTSUPP,
		.word = "`r01c2:ppp`: Intel's list for skylakex gives this event no PEBS",
	},
	{
		/* CPU_CLK_UNHALTED.THREAD_P and fixed 1: PEBS 0. */
		.name = "cycles:p on skylake", .caps = pmu_caps_skylake, .nr = 1,
		.ev = { EV(CYCLES, 1) },
		.err = -EOPNOTSUPP,
		.word = "`r003c:p`: Intel's list for skylakex gives this event no PEBS",
	},
	{
		.name = "skylake cycles -b any",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_ANY,
		.want = {
			FW4,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x801,		/* LBR | FREEZE */
			.lbr_select = 0x000,		/* suppress nothing */
			.lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	{
		/* Format 3 records carry no LBRs: one record per PMI. */
		.name = "skylake cycles:pp -b any",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(SKL_PCYCLES, 2) },
		.branch = SKD_BRANCH_ANY,
		.want = {
			FW4,
			.eventsel = { 0x0ac301c0 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.debugctl = 0x801, .lbr_select = 0, .lbr_nr = 32,
			.record_size = 200, .max_records = 327,
			.threshold = 1, .fixed_slot = 8,
			.large = false, .exact = true,
		},
		.evs = { AT(0, F_PX) },
	},
	{
		/* Keep u+k, REL_CALL, IND_CALL, RET: suppress JCC, IND_JMP,
		 * REL_JMP, FAR (0x1c4) and enable call stack (0x200); no
		 * freezing in call-stack mode (lbr.c
		 * __intel_pmu_lbr_enable()). */
		.name = "skylake cycles -j call_stack",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_CALL_STACK,
		.want = {
			FW4,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x001,
			.lbr_select = 0x3c4, .lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	{
		/* Keep CPL_NEQ_0 and JCC: suppress 0x1ff & ~0x6 = 0x1f9. */
		.name = "skylake cycles -j u,cond",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_USER | SKD_BRANCH_COND,
		.want = {
			FW4,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x801, .lbr_select = 0x1f9, .lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	{
		/* Keep u+k, IND_CALL 4, IND_JMP 6, REL_CALL 3: wanted 0x5b,
		 * suppress 0x1a4. */
		.name = "skylake cycles -j ind_call,ind_jmp,call",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_IND_CALL | SKD_BRANCH_IND_JUMP |
			  SKD_BRANCH_CALL,
		.want = {
			FW4,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x801, .lbr_select = 0x1a4, .lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	{
		/* Keep k (CPL_EQ_0), RET 5, FAR 8: wanted 0x121, suppress
		 * 0x0de. */
		.name = "skylake cycles -j k,any_ret",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_KERNEL | SKD_BRANCH_ANY_RETURN,
		.want = {
			FW4,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x801, .lbr_select = 0x0de, .lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	{
		/* A non-PEBS counter in the session: one record per PMI. */
		.name = "skylake cycles + loads:pp",
		.caps = pmu_caps_skylake, .nr = 2,
		.ev = { EV(CYCLES, 0), EV(LOADS, 2) },
		.want = {
			FW4,
			.eventsel = { 0x4381d0 },
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000001, .pebs_enable = 0x1,
			.pebs_counters = 0x1, .pmi_counters = 0x200000000,
			.record_size = 200, .max_records = 327,
			.threshold = 1, .fixed_slot = 8,
			.large = false, .exact = true,
		},
		.evs = { AT(33, 0), AT(0, F_MEM) },
	},
	{
		.name = "skylake loads:pp with call chains",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(LOADS, 2) },
		.callchain = true,
		.want = {
			FW4,
			.eventsel = { 0x4381d0 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.record_size = 200, .max_records = 327,
			.threshold = 1, .fixed_slot = 8,
			.large = false, .exact = true,
		},
		.evs = { AT(0, F_MEM) },
	},
	{
		/* Frequency: starts at 10000 (2^48 - 10000), no large PEBS. */
		.name = "skylake loads:pp at 4000 Hz",
		.caps = pmu_caps_skylake, .nr = 1,
		.ev = { { .size = 48, .config = LOADS, .precise = 2,
			  .flags = SKD_EV_FREQ, .sample_freq = 4000 } },
		.want = {
			FW4,
			.eventsel = { 0x4381d0 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.record_size = 200, .max_records = 327,
			.threshold = 1, .fixed_slot = 8,
			.large = false, .exact = true,
		},
		.evs = { { 0, 10000, 0xffffffffd8f0, F_MEM, 4000, MAXP } },
	},
	{
		/* exclude_user: no USR (bit 16) on GP; exclude_kernel: no
		 * OS (bit 0 of the nibble) on fixed 1. */
		.name = "skylake exclude_user / exclude_kernel per event",
		.caps = pmu_caps_skylake, .nr = 2,
		.ev = { EVF(BRANCHES, 0, SKD_EV_EXCLUDE_USER),
			EVF(CYCLES, 0, SKD_EV_EXCLUDE_KERNEL) },
		.want = {
			FW4,
			.eventsel = { 0x5200c4 },	/* EN | OS | INT */
			.fixed_ctrl = 0xa0,		/* USR | PMI */
			.fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000001,
			.pmi_counters = 0x200000001,
		},
		.evs = { AT(0, 0), AT(33, 0) },
	},
	{
		/* Full-width writes: periods clamp at 2^47 - 1, min 2. */
		.name = "skylake period clamps",
		.caps = pmu_caps_skylake, .nr = 4,
		.ev = { EVP(BRANCHES, 0, 1), EVP(BR_MISP, 0, 1ULL << 40),
			EVP(UOPS_SLOTS, 0, 1ULL << 50),
			EVP(CYCLES, 0, 1ULL << 50) },
		.want = {
			FW4,
			.eventsel = { 0x5300c4, 0x5300c5, 0x5302c2 },
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000007, .pmi_counters = 0x200000007,
		},
		.evs = {
			{ 0, 2, 0xfffffffffffe, 0, 0, MAXP },
			{ 1, 1ULL << 40, 0xff0000000000, 0, 0, MAXP },
			{ 2, MAXP, 0x800000000001, 0, 0, MAXP },
			{ 33, MAXP, 0x800000000001, 0, 0, MAXP },
		},
	},
	{
		/* 0x4c1: a period of 2^31 is written whole. */
		.name = "full-width writes: pmc_base 0x4c1, period 2^31",
		.caps = pmu_caps_skylake, .nr = 1,
		.ev = { EVP(BRANCHES, 0, 1ULL << 31) },
		.want = {
			FW4,
			.eventsel = { 0x5300c4 },
			.global_ctrl = 0x1, .pmi_counters = 0x1,
		},
		.evs = { { 0, 1ULL << 31, 0xffff80000000, 0, 0, MAXP } },
	},
	{
		/*
		 * Without full-width writes GP counters are written through
		 * 0xc1 + i, sign-extended from bit 31: 2^31 - 1 at most, and
		 * Linux's max_period holds for the fixed counters too.
		 */
		.name = "no full-width writes: pmc_base 0xc1, periods below 2^31",
		.caps = caps_nofw, .nr = 3,
		.ev = { EVP(BRANCHES, 0, 1ULL << 40), EVP(CYCLES, 0, 1ULL << 40),
			EVP(BR_MISP, 0, 1ULL << 31) },
		.want = {
			NOFW4,
			.eventsel = { 0x5300c4, 0x5300c5 },
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000003, .pmi_counters = 0x200000003,
		},
		.evs = {
			{ 0, MAXP31, 0xffff80000001, 0, 0, MAXP31 },
			{ 33, MAXP31, 0xffff80000001, 0, 0, MAXP31 },
			{ 1, MAXP31, 0xffff80000001, 0, 0, MAXP31 },
		},
	},
	{
		.name = "skylake session frequency",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.own_defaults = true, .default_period = 0,
		.default_freq = 1000, .pebs_bytes = PEBS_BYTES,
		.want = {
			FW4,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
		},
		.evs = { { 33, 10000, 0xffffffffd8f0, 0, 1000, MAXP } },
	},
	{
		.name = "skylake event period over the session's",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EVP(CYCLES, 0, 5000) },
		.want = {
			FW4,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
		},
		.evs = { { 33, 5000, 0xffffffffec78, 0, 0, MAXP } },
	},
	{
		/* No spr_limit_period on Skylake: :ppp period 50 stays 50. */
		.name = "skylake instructions:ppp period 50",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EVP(SKL_PDIST, 3, 50) },
		.want = {
			FW4,
			.eventsel = { [1] = 0x4301c0 },
			.global_ctrl = 0x2, .pebs_enable = 0x2,
			.pebs_counters = 0x2,
			.record_size = 200, .max_records = 327,
			.threshold = 326, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { { 1, 50, 0xffffffffffce, F_PX, 0, MAXP } },
	},

	/* ---- session-wide exclude flags ---- */
	{
		/* USR off on every counter: EN|OS|INT, fixed 1 OS|PMI. */
		.name = "skylake session exclude_user",
		.caps = pmu_caps_skylake, .nr = 2,
		.ev = { EV(BRANCHES, 0), EV(CYCLES, 0) },
		.exclude = SKD_EV_EXCLUDE_USER,
		.want = {
			FW4,
			.eventsel = { 0x5200c4 },
			.fixed_ctrl = 0x90, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000001,
			.pmi_counters = 0x200000001,
		},
		.evs = { AT(0, 0), AT(33, 0) },
	},
	{
		/* OS off; the LBR keeps what is counted: suppress CPL_EQ_0. */
		.name = "skylake session exclude_kernel -b any",
		.caps = pmu_caps_skylake, .nr = 2,
		.ev = { EV(BRANCHES, 0), EV(CYCLES, 0) },
		.exclude = SKD_EV_EXCLUDE_KERNEL, .branch = SKD_BRANCH_ANY,
		.want = {
			FW4,
			.eventsel = { 0x5100c4 },	/* EN|USR|INT */
			.fixed_ctrl = 0xa0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000001,
			.pmi_counters = 0x200000001,
			.debugctl = 0x801, .lbr_select = 0x001, .lbr_nr = 32,
		},
		.evs = { AT(0, 0), AT(33, 0) },
	},
	{
		/* Suppress CPL_NEQ_0 (bit 1) and the unwanted types. */
		.name = "skylake session exclude_user -j any_call",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.exclude = SKD_EV_EXCLUDE_USER, .branch = SKD_BRANCH_ANY_CALL,
		.want = {
			FW4,
			.fixed_ctrl = 0x90, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			/* keep k 0, REL_CALL 3, IND_CALL 4, FAR 8: 0x119 */
			.debugctl = 0x801, .lbr_select = 0x0e6, .lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	{
		/* One event counts the kernel: -j k keeps ring 0 only. */
		.name = "skylake -j k with one event counting the kernel",
		.caps = pmu_caps_skylake, .nr = 2,
		.ev = { EVF(BRANCHES, 0, SKD_EV_EXCLUDE_KERNEL),
			EV(CYCLES, 0) },
		.branch = SKD_BRANCH_KERNEL | SKD_BRANCH_ANY,
		.want = {
			FW4,
			.eventsel = { 0x5100c4 },
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000001,
			.pmi_counters = 0x200000001,
			.debugctl = 0x801, .lbr_select = 0x002, .lbr_nr = 32,
		},
		.evs = { AT(0, 0), AT(33, 0) },
	},
	{
		/* -j u,k narrows to what is counted: user only. */
		.name = "skylake -j u,k while every event excludes the kernel",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.exclude = SKD_EV_EXCLUDE_KERNEL,
		.branch = SKD_BRANCH_USER | SKD_BRANCH_KERNEL | SKD_BRANCH_ANY,
		.want = {
			FW4,
			.fixed_ctrl = 0xa0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x801, .lbr_select = 0x001, .lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	{
		.name = "skylake -j k while every event excludes the kernel",
		.caps = pmu_caps_skylake, .nr = 2,
		.ev = { EV(BRANCHES, 0), EV(CYCLES, 0) },
		.exclude = SKD_EV_EXCLUDE_KERNEL, .branch = SKD_BRANCH_KERNEL,
		.err = -EINVAL,
		.word = "the branch filter keeps only kernel branches, and every event excludes kernel mode",
	},
	{
		.name = "skylake -j u while every event excludes user mode",
		.caps = pmu_caps_skylake, .nr = 1,
		.ev = { EVF(CYCLES, 0, SKD_EV_EXCLUDE_USER) },
		.branch = SKD_BRANCH_USER | SKD_BRANCH_ANY,
		.err = -EINVAL,
		.word = "the branch filter keeps only user branches, and every event excludes user mode",
	},
	{
		.name = "session exclude_user and event exclude_kernel",
		.caps = pmu_caps_skylake, .nr = 1,
		.ev = { EVF(CYCLES, 0, SKD_EV_EXCLUDE_KERNEL) },
		.exclude = SKD_EV_EXCLUDE_USER,
		.err = -EINVAL,
		.word = "event 0: excluding both user and kernel leaves nothing to count",
	},

	/* ---- Skylake-SP with hyper-threading off: 8 GP ---- */
	{
		/*
		 * CounterHTOff: 0-7 for the branch and uop events, 0-3 for
		 * the memory events (d0, d1): five of those cannot fit.
		 */
		.name = "skylake HT off: five memory events among eight",
		.caps = pmu_caps_skylake_htoff, .nr = 8, .ev = { EIGHT_GP },
		.err = -ENOSPC,
		.word = "`r10d1` cannot be placed: 5 events can only use counters 0-3",
	},
	{
		/* Memory events on 0-3 (placed first), the rest on 4-7. */
		.name = "skylake HT off: four memory events and four others",
		.caps = pmu_caps_skylake_htoff, .nr = 8, .ev = { GP4, MEM4 },
		.want = {
			FW8,
			.eventsel = { 0x5381d0, 0x5382d0, 0x5308d1, 0x5320d1,
				      0x5300c4, 0x5300c5, 0x5302c2, 0x5302c4 },
			.global_ctrl = 0xff, .pmi_counters = 0xff,
		},
		.evs = { AT(4, 0), AT(5, 0), AT(6, 0), AT(7, 0),
			 AT(0, 0), AT(1, 0), AT(2, 0), AT(3, 0) },
	},
	{
		/*
		 * BR_INST_RETIRED.CONDITIONAL: CounterHTOff 0-7, PEBS 1; but
		 * Linux enables PEBS on GP 0-3 only on these parts (ds.c
		 * intel_skl_pebs_event_constraints ends with
		 * INTEL_ALL_EVENT_CONSTRAINT(0, 0xf)).
		 */
		.name = "skylake HT off: PEBS only on GP 0-3",
		.caps = pmu_caps_skylake_htoff, .nr = 5,
		.ev = { EV(BR_COND, 1), EV(BR_COND, 1), EV(BR_COND, 1),
			EV(BR_COND, 1), EV(BR_COND, 1) },
		.err = -ENOSPC,
		.word = "`r01c4` cannot be placed: 5 events can only use counters 0-3",
	},
	{
		.name = "skylake HT off: four r01c4:p and r01c4 on GP 4",
		.caps = pmu_caps_skylake_htoff, .nr = 5,
		.ev = { EV(BR_COND, 1), EV(BR_COND, 1), EV(BR_COND, 1),
			EV(BR_COND, 1), EV(BR_COND, 0) },
		.want = {
			FW8,
			.eventsel = { 0x4301c4, 0x4301c4, 0x4301c4, 0x4301c4,
				      0x5301c4 },
			.global_ctrl = 0x1f, .pebs_enable = 0xf,
			.pebs_counters = 0xf, .pmi_counters = 0x10,
			.record_size = 200, .max_records = 327,
			.threshold = 1, .fixed_slot = 8,
			.large = false, .exact = true,
		},
		.evs = { AT(0, F_PX), AT(1, F_PX), AT(2, F_PX), AT(3, F_PX),
			 AT(4, 0) },
	},
	{
		/* Without PEBS the same events use GP 0-7. */
		.name = "skylake HT off: eight r01c4",
		.caps = pmu_caps_skylake_htoff, .nr = 8,
		.ev = { EV(BR_COND, 0), EV(BR_COND, 0), EV(BR_COND, 0),
			EV(BR_COND, 0), EV(BR_COND, 0), EV(BR_COND, 0),
			EV(BR_COND, 0), EV(BR_COND, 0) },
		.want = {
			FW8,
			.eventsel = { 0x5301c4, 0x5301c4, 0x5301c4, 0x5301c4,
				      0x5301c4, 0x5301c4, 0x5301c4, 0x5301c4 },
			.global_ctrl = 0xff, .pmi_counters = 0xff,
		},
		.evs = { AT(0, 0), AT(1, 0), AT(2, 0), AT(3, 0),
			 AT(4, 0), AT(5, 0), AT(6, 0), AT(7, 0) },
	},

	/* ---- TSX force-abort off: counter 3 is TSX's ---- */
	{
		/* core.c tfa_get_event_constraints(): "Without TFA we must
		 * not use PMC3". */
		.name = "skylake TFA: four GP events",
		.caps = caps_tfa, .nr = 4, .ev = { FOUR_GP },
		.err = -ENOSPC,
		.word = "`r20d1` cannot be placed: 4 events can only use counters 0-2",
	},
	{
		/* Still every GP counter reserved: perf keeps off them all. */
		.name = "skylake TFA: three GP events and cycles",
		.caps = caps_tfa, .nr = 4,
		.ev = { EV(BRANCHES, 0), EV(BR_MISP, 0), EV(L3_MISS, 0),
			EV(CYCLES, 0) },
		.want = {
			FW4,
			.eventsel = { 0x5300c4, 0x5300c5, 0x5320d1 },
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000007,
			.pmi_counters = 0x200000007,
		},
		.evs = { AT(0, 0), AT(1, 0), AT(2, 0), AT(33, 0) },
	},
	{
		.name = "skylake TFA: four loads:pp",
		.caps = caps_tfa, .nr = 4,
		.ev = { EV(LOADS, 2), EV(LOADS, 2), EV(LOADS, 2),
			EV(LOADS, 2) },
		.err = -ENOSPC,
		.word = "4 events can only use counters 0-2",
	},

	/* ---- TakenAlone ---- */
	{
		.name = "skylake load latency + r00c4: TakenAlone",
		.caps = pmu_caps_skylake, .nr = 2,
		.ev = { EVL(LDLAT, 1, 30), EV(BRANCHES, 0) },
		.err = -ENOSPC,
		.word = "`r01cd` must count alone on the general-purpose counters (Intel marks it TakenAlone), but `r00c4` needs one too",
	},
	{
		/* Fixed counters stay free beside a TakenAlone event. */
		.name = "skylake load latency + cycles on fixed 1",
		.caps = pmu_caps_skylake, .nr = 2,
		.ev = { EVL(LDLAT, 1, 30), EV(CYCLES, 0) },
		.want = {
			FW4,
			.eventsel = { 0x4301cd },
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000001,
			.pebs_enable = 0x100000001, .pebs_counters = 0x1,
			.pmi_counters = 0x200000000, .ld_lat = 30,
			.extra_msrs = SKD_RULE_LDLAT,
			.record_size = 200, .max_records = 327,
			.threshold = 1, .fixed_slot = 8,
			.large = false, .exact = true,
		},
		.evs = { AT(0, F_LDLAT), AT(33, 0) },
	},
	{
		/* Two TakenAlone events: neither may share. */
		.name = "skylake two load-latency events: TakenAlone",
		.caps = pmu_caps_skylake, .nr = 2,
		.ev = { EVL(LDLAT, 1, 30), EVL(LDLAT, 2, 30) },
		.err = -ENOSPC, .word = "(Intel marks it TakenAlone)",
	},

	/* ---- front-end and offcore-response MSRs (Skylake) ---- */
	{
		/* FRONTEND_RETIRED.DSB_MISS: MSRIndex 0x3F7, MSRValue 0x11,
		 * Counter 0-3, PEBS 1, TakenAlone 1. */
		.name = "skylake frontend_retired.dsb_miss:p",
		.caps = pmu_caps_skylake, .nr = 1,
		.ev = { EV1(FE_DSB_MISS, 1, 0x11) },
		.want = {
			FW4,
			.eventsel = { 0x4301c6 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.frontend = 0x11, .extra_msrs = SKD_RULE_FRONTEND,
			.record_size = 200, .max_records = 327,
			.threshold = 326, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_PX) },
	},
	{
		.name = "skylake frontend event + r00c4: TakenAlone",
		.caps = pmu_caps_skylake, .nr = 2,
		.ev = { EV1(FE_DSB_MISS, 1, 0x11), EV(BRANCHES, 0) },
		.err = -ENOSPC,
		.word = "`r01c6` must count alone on the general-purpose counters",
	},
	{
		/* DSB_MISS 0x11 and L1I_MISS 0x12: one MSR_PEBS_FRONTEND. */
		.name = "skylake two front-end values",
		.caps = pmu_caps_skylake, .nr = 2,
		.ev = { EV1(FE_DSB_MISS, 1, 0x11), EV1(FE_DSB_MISS, 1, 0x12) },
		.err = -ENOSPC,
		.word = "`r01c6` wants front-end value 0x12, another event 0x11; the PMU has one MSR_PEBS_FRONTEND",
	},
	{
		/* intel_skl_extra_regs: MSR_PEBS_FRONTEND takes 0x7fff17. */
		.name = "skylake front-end value with bit 3",
		.caps = pmu_caps_skylake, .nr = 1,
		.ev = { EV1(FE_DSB_MISS, 1, 0x8) },
		.err = -EINVAL,
		.word = "`r01c6`: config1=0x8 sets bits skylakex does not define (0x8); the valid bits are 0x7fff17",
	},
	{
		.name = "skylake front-end event without config1",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(FE_DSB_MISS, 1) },
		.err = -EINVAL,
		.word = "`r01c6` needs the value of its front-end MSR in config1",
	},
	{
		.name = "config1 on an event without an extra MSR",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV1(LOADS, 1, 1) },
		.err = -EINVAL,
		.word = "`r81d0` has no offcore-response or front-end MSR; config1=0x1 does not apply",
	},
	{
		/* OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE: EventCode
		 * "0xB7, 0xBB", MSRValue 0x10001, Counter 0-3. */
		.name = "skylake offcore demand_data_rd.any_response",
		.caps = pmu_caps_skylake, .nr = 1,
		.ev = { EV1(SKL_OCR, 0, OCR_DRD_ANY) },
		.want = {
			FW4,
			.eventsel = { 0x5301b7 },
			.global_ctrl = 0x1, .pmi_counters = 0x1,
			.offcore = { OCR_DRD_ANY },
			.extra_msrs = SKD_RULE_OFFCORE,
		},
		.evs = { AT(0, 0) },
	},
	{
		/* The second value takes MSR_OFFCORE_RSP_1 through the
		 * other encoding, B7 -> BB (core.c intel_fixup_er()). */
		.name = "skylake two offcore values use both MSRs",
		.caps = pmu_caps_skylake, .nr = 2,
		.ev = { EV1(SKL_OCR, 0, OCR_DRD_ANY),
			EV1(SKL_OCR, 0, OCR_RFO_ANY) },
		.want = {
			FW4,
			.eventsel = { 0x5301b7, 0x5301bb },
			.global_ctrl = 0x3, .pmi_counters = 0x3,
			.offcore = { OCR_DRD_ANY, OCR_RFO_ANY },
			.extra_msrs = SKD_RULE_OFFCORE | SKD_RULE_OFFCORE1,
		},
		.evs = { AT(0, 0),
			 { 1, 100003, R100003, 0, 0, MAXP, SKL_OCR1 } },
	},
	{
		.name = "skylake one offcore value twice shares MSR 0",
		.caps = pmu_caps_skylake, .nr = 2,
		.ev = { EV1(SKL_OCR, 0, OCR_DRD_ANY),
			EV1(SKL_OCR, 0, OCR_DRD_ANY) },
		.want = {
			FW4,
			.eventsel = { 0x5301b7, 0x5301b7 },
			.global_ctrl = 0x3, .pmi_counters = 0x3,
			.offcore = { OCR_DRD_ANY },
			.extra_msrs = SKD_RULE_OFFCORE,
		},
		.evs = { AT(0, 0), AT(1, 0) },
	},
	{
		/* Asked for BB: MSR_OFFCORE_RSP_1 only. */
		.name = "skylake offcore through r01bb",
		.caps = pmu_caps_skylake, .nr = 1,
		.ev = { EV1(SKL_OCR1, 0, OCR_RFO_ANY) },
		.want = {
			FW4,
			.eventsel = { 0x5301bb },
			.global_ctrl = 0x1, .pmi_counters = 0x1,
			.offcore = { 0, OCR_RFO_ANY },
			.extra_msrs = SKD_RULE_OFFCORE1,
		},
		.evs = { AT(0, 0) },
	},
	{
		.name = "skylake three offcore values",
		.caps = pmu_caps_skylake, .nr = 3,
		.ev = { EV1(SKL_OCR, 0, OCR_DRD_ANY),
			EV1(SKL_OCR, 0, OCR_RFO_ANY),
			EV1(SKL_OCR, 0, 0x10004) },
		.err = -ENOSPC,
		.word = "`r01b7` needs an offcore-response MSR of its own, and both hold other values",
	},
	{
		/* intel_skl_extra_regs: 0x3fffff8fff, bits 14:12 reserved. */
		.name = "skylake offcore value with bit 12",
		.caps = pmu_caps_skylake, .nr = 1,
		.ev = { EV1(SKL_OCR, 0, 0x11001) },
		.err = -EINVAL,
		.word = "config1=0x11001 sets bits skylakex does not define (0x1000); the valid bits are 0x3fffff8fff",
	},
	{
		.name = "skylake offcore event without config1",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(SKL_OCR, 0) },
		.err = -EINVAL,
		.word = "`r01b7` needs the value of its offcore-response MSR in config1",
	},

	/* ---- Ice Lake-SP "icelakex": v5, 8 GP, 4 fixed, adaptive fmt 4 ---- */
	{
		.name = "icelake cycles",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.want = {
			FW8,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
		},
		.evs = { AT(33, 0) },
	},
	{
		/* CPU_CLK_UNHALTED.THREAD is "Fixed counter 1" here. */
		.name = "icelake r0200 on fixed 1",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(PSEUDO_CYCLES, 0) },
		.want = {
			FW8,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
		},
		.evs = { AT(33, 0) },
	},
	{
		/*
		 * PEBS on fixed 1 (PEBScounters 33): nibble OS|USR, adaptive
		 * bit 36. CPU_CLK_UNHALTED.THREAD has Precise 0: the record's
		 * IP is not the eventing instruction's.
		 */
		.name = "icelake cycles:pp",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(CYCLES, 2) },
		.want = {
			FW8,
			.fixed_ctrl = 0x1000000030,
			.fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000, .pebs_enable = 0x200000000,
			.pebs_counters = 0x200000000,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { AT(33, F_PEBS) },
	},
	{
		/* No PDISTCounter field: only *.PREC_DIST, fixed 0. */
		.name = "icelake cycles:ppp",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(CYCLES, 3) },
		.err = -EOPNOTSUPP,
		.word = "`r003c:ppp`: no precise distribution for this event on icelakex",
	},
	{
		/* INST_RETIRED.PREC_DIST: Fixed counter 0, Precise 1. */
		.name = "icelake instructions:ppp",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(PSEUDO_INSTR, 3) },
		.want = {
			FW8,
			.fixed_ctrl = 0x100000003,	/* OS|USR, bit 32 */
			.fixed_ctrl_mask = 0x10000000f,
			.global_ctrl = 0x100000000, .pebs_enable = 0x100000000,
			.pebs_counters = 0x100000000,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { AT(32, F_PX) },
	},
	{
		/* INST_RETIRED.ANY_P has no precise distribution; its fixed
		 * counter, INST_RETIRED.PREC_DIST's, does. */
		.name = "icelake r00c0:ppp on fixed 0",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(INSTR, 3) },
		.want = {
			FW8,
			.fixed_ctrl = 0x100000003,
			.fixed_ctrl_mask = 0x10000000f,
			.global_ctrl = 0x100000000, .pebs_enable = 0x100000000,
			.pebs_counters = 0x100000000,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { AT(32, F_PX) },
	},
	{
		/* Precise 1, Data_LA 1, PEBScounters 0-3. */
		.name = "icelake loads+stores+l3_miss:pp",
		.caps = pmu_caps_icelake, .nr = 3, .ev = { MEM_PP },
		.want = {
			FW8,
			.eventsel = { 0x4004381d0, 0x4004382d0, 0x4004320d1 },
			.global_ctrl = 0x7, .pebs_enable = 0x7,
			.pebs_counters = 0x7,
			.pebs_data_cfg = 0x1,		/* MEMINFO */
			.record_size = 64, .max_records = 1024,
			.threshold = 1021, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_MEM), AT(1, F_MEM), AT(2, F_MEM) },
	},
	{
		/* v5: no load-latency bit in PEBS_ENABLE. */
		.name = "icelake load latency ldlat=30",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EVL(LDLAT, 1, 30) },
		.want = {
			FW8,
			.eventsel = { 0x4004301cd },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1, .ld_lat = 30,
			.pebs_data_cfg = 0x1, .extra_msrs = SKD_RULE_LDLAT,
			.record_size = 64, .max_records = 1024,
			.threshold = 1023, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_LDLAT) },
	},
	{
		/* MEM_TRANS_RETIRED.LOAD_LATENCY_* are TakenAlone 1 here:
		 * two cannot share the GP counters, whatever the threshold. */
		.name = "icelake two load-latency events, one threshold",
		.caps = pmu_caps_icelake, .nr = 2,
		.ev = { EVL(LDLAT, 1, 30), EVL(LDLAT, 2, 30) },
		.err = -ENOSPC,
		.word = "`r01cd` must count alone on the general-purpose counters (Intel marks it TakenAlone), but `r01cd` needs one too",
	},
	{
		.name = "two load-latency thresholds", .caps = pmu_caps_icelake,
		.nr = 2, .ev = { EVL(LDLAT, 1, 30), EVL(LDLAT, 1, 50) },
		.err = -EINVAL,
		.word = "event 1 (`r01cd`) wants ldlat=50 but event 0 (`r01cd`) wants ldlat=30; the PMU has one threshold",
	},
	{
		/* The memory event (Counter 0-3) is placed first. */
		.name = "icelake four GP events",
		.caps = pmu_caps_icelake, .nr = 4, .ev = { FOUR_GP },
		.want = {
			FW8,
			.eventsel = { 0x5320d1, 0x5300c4, 0x5300c5, 0x5302c2 },
			.global_ctrl = 0xf, .pmi_counters = 0xf,
		},
		.evs = { AT(1, 0), AT(2, 0), AT(3, 0), AT(0, 0) },
	},
	{
		.name = "icelake five GP events",
		.caps = pmu_caps_icelake, .nr = 5,
		.ev = { FOUR_GP, EV(LOADS, 0) },
		.want = {
			FW8,
			.eventsel = { 0x5320d1, 0x5381d0, 0x5300c4, 0x5300c5,
				      0x5302c2 },
			.global_ctrl = 0x1f, .pmi_counters = 0x1f,
		},
		.evs = { AT(2, 0), AT(3, 0), AT(4, 0), AT(0, 0), AT(1, 0) },
	},
	{
		/*
		 * MEM_INST_RETIRED.* and MEM_LOAD_RETIRED.* have Counter
		 * "0,1,2,3" in icelakex (Linux: intel_icl_event_constraints,
		 * 0xd0-0xe6 on 0xf): five of them cannot be placed.
		 */
		.name = "icelake five memory events among eight",
		.caps = pmu_caps_icelake, .nr = 8, .ev = { EIGHT_GP },
		.err = -ENOSPC,
		.word = "`r10d1` cannot be placed: 5 events can only use counters 0-3",
	},
	{
		.name = "icelake eight GP events, four of them memory",
		.caps = pmu_caps_icelake, .nr = 8, .ev = { GP4, MEM4 },
		.want = {
			FW8,
			.eventsel = { 0x5381d0, 0x5382d0, 0x5308d1, 0x5320d1,
				      0x5300c4, 0x5300c5, 0x5302c2, 0x5302c4 },
			.global_ctrl = 0xff, .pmi_counters = 0xff,
		},
		.evs = { AT(4, 0), AT(5, 0), AT(6, 0), AT(7, 0),
			 AT(0, 0), AT(1, 0), AT(2, 0), AT(3, 0) },
	},
	{
		.name = "icelake nine GP events",
		.caps = pmu_caps_icelake, .nr = 9,
		.ev = { GP4, MEM4, EV(NEAR_TAKEN, 0) },
		.err = -ENOSPC,
		.word = "`r20c4` cannot be placed: 9 events need general-purpose counters; icelakex has 8",
	},
	{
		/* Every counter: 8 GP and the four fixed events. */
		.name = "icelake twelve counters",
		.caps = pmu_caps_icelake, .nr = 12,
		.ev = { EV(SLOTS, 0), EV(REF_CYCLES, 0), GP4, MEM4,
			EV(CYCLES, 0), EV(INSTR, 0) },
		.want = {
			FW8,
			.eventsel = { 0x5381d0, 0x5382d0, 0x5308d1, 0x5320d1,
				      0x5300c4, 0x5300c5, 0x5302c2, 0x5302c4 },
			.fixed_ctrl = 0xbbbb,
			.fixed_ctrl_mask = 0x11110000ffff,
			.global_ctrl = 0xf000000ff, .pmi_counters = 0xf000000ff,
		},
		.evs = { AT(35, 0), AT(34, 0), AT(4, 0), AT(5, 0), AT(6, 0),
			 AT(7, 0), AT(0, 0), AT(1, 0), AT(2, 0), AT(3, 0),
			 AT(33, 0), AT(32, 0) },
	},
	{
		.name = "icelake thirteen events",
		.caps = pmu_caps_icelake, .nr = 13,
		.ev = { EV(SLOTS, 0), EV(REF_CYCLES, 0), GP4, MEM4,
			EV(CYCLES, 0), EV(INSTR, 0), EV(NEAR_TAKEN, 0) },
		.err = -ENOSPC,
		.word = "9 events need general-purpose counters; icelakex has 8",
	},
	{
		/* 12 counters, 16 events: refused at once. */
		.name = "sixteen events", .caps = pmu_caps_icelake, .nr = 16,
		.ev = { GP4, GP4, GP4, GP4 },
		.err = -ENOSPC,
		.word = "16 events need general-purpose counters; icelakex has 8",
	},
	{
		.name = "icelake cycles -b any",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_ANY,
		.want = {
			FW8,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x801, .lbr_select = 0, .lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	{
		/* LBRs in the record: 32 + 24 * 32 = 800 bytes, DATA_CFG =
		 * LBRS | 31 << 24; large PEBS stays possible. */
		.name = "icelake cycles:pp -b any",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(CYCLES, 2) },
		.branch = SKD_BRANCH_ANY,
		.want = {
			FW8,
			.fixed_ctrl = 0x1000000030,
			.fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000, .pebs_enable = 0x200000000,
			.pebs_counters = 0x200000000,
			.pebs_data_cfg = 0x1f000008,
			.debugctl = 0x801, .lbr_select = 0, .lbr_nr = 32,
			.lbr_from_record = true,
			.record_size = 800, .max_records = 81,
			.threshold = 80, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { AT(33, F_PEBS) },
	},
	{
		/* Memory info and LBRs: 32 + 32 + 768 = 832 bytes. */
		.name = "icelake loads:pp -j any_call",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(LOADS, 2) },
		.branch = SKD_BRANCH_ANY_CALL,
		.want = {
			FW8,
			.eventsel = { 0x4004381d0 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.pebs_data_cfg = 0x1f000009,
			/* keep u, k, REL_CALL, IND_CALL, FAR (0x11b) */
			.debugctl = 0x801, .lbr_select = 0x0e4, .lbr_nr = 32,
			.lbr_from_record = true,
			.record_size = 832, .max_records = 78,
			.threshold = 77, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_MEM) },
	},
	{
		/*
		 * A non-PEBS event: each PMI takes one record, and its
		 * branches from the LBR MSRs read at that PMI, so the
		 * records carry memory info only.
		 */
		.name = "icelake cycles + loads:pp -b any",
		.caps = pmu_caps_icelake, .nr = 2,
		.ev = { EV(CYCLES, 0), EV(LOADS, 2) },
		.branch = SKD_BRANCH_ANY,
		.want = {
			FW8,
			.eventsel = { 0x4004381d0 },
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000001, .pebs_enable = 0x1,
			.pebs_counters = 0x1, .pmi_counters = 0x200000000,
			.pebs_data_cfg = 0x1,
			.debugctl = 0x801, .lbr_select = 0, .lbr_nr = 32,
			.lbr_from_record = false,
			.record_size = 64, .max_records = 1024,
			.threshold = 1, .fixed_slot = 8,
			.large = false, .exact = true,
		},
		.evs = { AT(33, 0), AT(0, F_MEM) },
	},
	{
		.name = "icelake cycles -j call_stack",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_CALL_STACK,
		.want = {
			FW8,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x001, .lbr_select = 0x3c4, .lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	{
		.name = "icelake cycles -j u,cond",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_USER | SKD_BRANCH_COND,
		.want = {
			FW8,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x801, .lbr_select = 0x1f9, .lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	{
		/* Format 4 without baseline: basic group only, no ADAPTIVE
		 * bit. */
		.name = "icelake without baseline loads:pp",
		.caps = caps_icl_nobaseline, .nr = 1, .ev = { EV(LOADS, 2) },
		.want = {
			FW8,
			.eventsel = { 0x4381d0 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_MEM) },
	},
	{
		/*
		 * Fixed counters have IA32_PEBS_ENABLE bits only with
		 * PEBS_BASELINE (IA32_PERF_CAPABILITIES[14]; Linux: ds.c
		 * intel_ds_init() sets PMU_FL_PEBS_ALL only then):
		 * INST_RETIRED.PREC_DIST, fixed counter 0 alone, has none.
		 */
		.name = "icelake without baseline instructions:p on fixed 0",
		.caps = caps_icl_nobaseline, .nr = 1,
		.ev = { EV(PSEUDO_INSTR, 1) },
		.err = -EOPNOTSUPP,
		.word = "`r0100:p`: PEBS records it only on fixed counter 0, which icelakex cannot give it",
	},
	{
		/* cycles:pp then takes a GP counter (PEBScounters 0-7). */
		.name = "icelake without baseline cycles:pp on GP 0",
		.caps = caps_icl_nobaseline, .nr = 1, .ev = { EV(CYCLES, 2) },
		.want = {
			FW8,
			.eventsel = { 0x43003c },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_PEBS) },
	},
	{
		/* An encoding icelakex lacks: PEBS only with PEBS_ALL, i.e.
		 * baseline; without, none. */
		.name = "icelake without baseline r01c2:p, not in the list",
		.caps = caps_icl_nobaseline, .nr = 1,
		.ev = { EV(UOPS_ALL_BDW, 1) },
		.err = -EOPNOTSUPP,
		.word = "`r01c2:p`: Intel's list for icelakex gives this event no PEBS",
	},
	{
		/* With baseline any GP counter records it, with no known
		 * eventing IP (ds.c: PMU_FL_PEBS_ALL). */
		.name = "icelake r01c2:p, not in the list",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(UOPS_ALL_BDW, 1) },
		.want = {
			FW8,
			.eventsel = { 0x4004301c2 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_PEBS) },
	},
	{
		/* TOPDOWN.SLOTS counts on fixed counter 3 only. */
		.name = "icelake slots without fixed counter 3",
		.caps = caps_icl_nofixed3, .nr = 1, .ev = { EV(SLOTS, 0) },
		.err = -EOPNOTSUPP,
		.word = "`r0400` can only count on fixed counter 3, which icelakex does not have",
	},
	{
		/* No 0x0500 in icelakex: a pseudo encoding nothing counts. */
		.name = "pseudo encoding without a fixed counter",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(0x0500, 0) },
		.err = -EINVAL,
		.word = "`r0500` is a pseudo encoding (event 0x00) that icelakex has no fixed counter for",
	},
	{
		/* INST_RETIRED.ANY is 0x0100 with no cmask; with one it is
		 * another, unknown, pseudo encoding. */
		.name = "pseudo encoding with cmask",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(0x01000100, 0) },
		.err = -EINVAL,
		.word = "`r1000100` is a pseudo encoding (event 0x00) that icelakex has no fixed counter for",
	},
	{
		/* skylakex has no TOPDOWN.SLOTS and no fixed counter 3. */
		.name = "topdown slots on skylake", .caps = pmu_caps_skylake,
		.nr = 1, .ev = { EV(SLOTS, 0) },
		.err = -EINVAL,
		.word = "`r0400` is a pseudo encoding (event 0x00) that skylakex has no fixed counter for",
	},
	{
		.name = "two events on fixed 0", .caps = pmu_caps_icelake,
		.nr = 2, .ev = { EV(PSEUDO_INSTR, 3), EV(PSEUDO_INSTR, 0) },
		.err = -ENOSPC,
		.word = "`r0100` needs fixed counter 0, which `r0100` also needs",
	},
	{
		.name = "icelake offcore value with bit 14",
		.caps = pmu_caps_icelake, .nr = 1,
		.ev = { EV1(SKL_OCR, 0, 0x14001) },
		.err = -EINVAL,
		.word = "config1=0x14001 sets bits icelakex does not define (0x4000); the valid bits are 0x3fffffbfff",
	},
	{
		/* intel_icl_extra_regs takes bit 12, which Skylake's
		 * does not. */
		.name = "icelake offcore value with bit 12",
		.caps = pmu_caps_icelake, .nr = 1,
		.ev = { EV1(SKL_OCR, 0, 0x11001) },
		.want = {
			FW8,
			.eventsel = { 0x5301b7 },
			.global_ctrl = 0x1, .pmi_counters = 0x1,
			.offcore = { 0x11001 },
			.extra_msrs = SKD_RULE_OFFCORE,
		},
		.evs = { AT(0, 0) },
	},

	/* ---- Sapphire Rapids: v5, 8 GP, 4 fixed, fmt 5, arch LBR ---- */
	{
		.name = "sapphirerapids cycles",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 0) },
		.want = {
			FW8,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
		},
		.evs = { AT(33, 0) },
	},
	{
		/* Fixed 1: PEBScounters 33, Precise 0. Golden Cove's meminfo
		 * latency is two fields (ds.c: PMU_FL_INSTR_LATENCY). */
		.name = "sapphirerapids cycles:pp",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 2) },
		.want = {
			FW8,
			.fixed_ctrl = 0x1000000030,
			.fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000, .pebs_enable = 0x200000000,
			.pebs_counters = 0x200000000, .lat_split = true,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { AT(33, F_PEBS) },
	},
	{
		/* CPU_CLK_UNHALTED.THREAD_P and .THREAD: PDISTCounter NA. */
		.name = "sapphirerapids cycles:ppp",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 3) },
		.err = -EOPNOTSUPP,
		.word = "`r003c:ppp`: no precise distribution for this event on sapphirerapids; use :pp",
	},
	{
		/* BR_INST_RETIRED.ALL_BRANCHES: PDISTCounter 0, Precise 1. */
		.name = "sapphirerapids branches:ppp",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(BRANCHES, 3) },
		.want = {
			FW8,
			.eventsel = { 0x4004300c4 },	/* |EN|USR|OS|ADAPTIVE */
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1, .lat_split = true,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_PX) },
	},
	{
		/* spr_limit_period: :ppp periods of at least 128. */
		.name = "sapphirerapids branches:ppp period 50",
		.caps = pmu_caps_sapphirerapids, .nr = 1,
		.ev = { EVP(BRANCHES, 3, 50) },
		.want = {
			FW8,
			.eventsel = { 0x4004300c4 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1, .lat_split = true,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { { 0, 128, 0xffffffffff80, F_PX, 0, MAXP } },
	},
	{
		/* Only :ppp has the limit. */
		.name = "sapphirerapids branches:pp period 50",
		.caps = pmu_caps_sapphirerapids, .nr = 1,
		.ev = { EVP(BRANCHES, 2, 50) },
		.want = {
			FW8,
			.eventsel = { 0x4004300c4 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1, .lat_split = true,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { { 0, 50, 0xffffffffffce, F_PX, 0, MAXP } },
	},
	{
		/* INST_RETIRED.ANY: fixed 0, PDISTCounter 32. */
		.name = "sapphirerapids instructions:ppp",
		.caps = pmu_caps_sapphirerapids, .nr = 1,
		.ev = { EV(PSEUDO_INSTR, 3) },
		.want = {
			FW8,
			.fixed_ctrl = 0x100000003,
			.fixed_ctrl_mask = 0x10000000f,
			.global_ctrl = 0x100000000, .pebs_enable = 0x100000000,
			.pebs_counters = 0x100000000, .lat_split = true,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { AT(32, F_PX) },
	},
	{
		/* INST_RETIRED.ANY_P: PEBScounters "1,2,3,4,5,6,7", no
		 * PDIST; r00c0:ppp only on fixed 0, so three cannot fit. */
		.name = "sapphirerapids three r00c0:ppp",
		.caps = pmu_caps_sapphirerapids, .nr = 3,
		.ev = { EV(INSTR, 3), EV(INSTR, 3), EV(INSTR, 3) },
		.err = -ENOSPC,
		.word = "`r00c0` needs fixed counter 0, which `r00c0` also needs",
	},
	{
		/* With fixed 0 taken, r00c0:p goes to GP 1, not GP 0. */
		.name = "sapphirerapids two r00c0:p: fixed 0 and GP 1",
		.caps = pmu_caps_sapphirerapids, .nr = 2,
		.ev = { EV(INSTR, 1), EV(INSTR, 1) },
		.want = {
			FW8,
			.eventsel = { [1] = 0x4004300c0 },
			.fixed_ctrl = 0x100000003,
			.fixed_ctrl_mask = 0x10000000f,
			.global_ctrl = 0x100000002, .pebs_enable = 0x100000002,
			.pebs_counters = 0x100000002, .lat_split = true,
			.record_size = 32, .max_records = 2048,
			.threshold = 2046, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { AT(32, F_PX), AT(1, F_PX) },
	},
	{
		/* Without PEBS, Counter "0,1,...,7": GP 0. */
		.name = "sapphirerapids instructions:ppp and r00c0 on GP 0",
		.caps = pmu_caps_sapphirerapids, .nr = 2,
		.ev = { EV(PSEUDO_INSTR, 3), EV(INSTR, 0) },
		.want = {
			FW8,
			.eventsel = { 0x5300c0 },
			.fixed_ctrl = 0x100000003,
			.fixed_ctrl_mask = 0x10000000f,
			.global_ctrl = 0x100000001, .pebs_enable = 0x100000000,
			.pebs_counters = 0x100000000, .pmi_counters = 0x1,
			.lat_split = true,
			.record_size = 32, .max_records = 2048,
			.threshold = 1, .fixed_slot = 32,
			.large = false, .exact = true,
		},
		.evs = { AT(32, F_PX), AT(0, 0) },
	},
	{
		/* UOPS_RETIRED.SLOTS: PEBScounters 0-7, Precise 0,
		 * PDISTCounter NA. */
		.name = "sapphirerapids uops_retired.slots:ppp",
		.caps = pmu_caps_sapphirerapids, .nr = 1,
		.ev = { EV(UOPS_SLOTS, 3) },
		.err = -EOPNOTSUPP,
		.word = "`r02c2:ppp`: no precise distribution for this event on sapphirerapids",
	},
	{
		.name = "sapphirerapids uops_retired.slots:p",
		.caps = pmu_caps_sapphirerapids, .nr = 1,
		.ev = { EV(UOPS_SLOTS, 1) },
		.want = {
			FW8,
			.eventsel = { 0x4004302c2 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1, .lat_split = true,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_PEBS) },
	},
	{
		/* Precise 1, Data_LA 1, PEBScounters 0-3, PDISTCounter 0. */
		.name = "sapphirerapids loads+stores+l3_miss:pp",
		.caps = pmu_caps_sapphirerapids, .nr = 3, .ev = { MEM_PP },
		.want = {
			FW8,
			.eventsel = { 0x4004381d0, 0x4004382d0, 0x4004320d1 },
			.global_ctrl = 0x7, .pebs_enable = 0x7,
			.pebs_counters = 0x7, .pebs_data_cfg = 0x1,
			.lat_split = true,
			.record_size = 64, .max_records = 1024,
			.threshold = 1021, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_MEM), AT(1, F_MEM), AT(2, F_MEM) },
	},
	{
		/*
		 * MEM_TRANS_RETIRED.LOAD_LATENCY_*: Counter "1,...,7". On
		 * Sapphire Rapids load latency counts right only beside
		 * 0x03/0x82 (core.c require_mem_loads_aux_event()): the
		 * planner adds it, LD_BLOCKS.STORE_FORWARD (Counter 0-3),
		 * counting (EN|USR|OS) without INT or PEBS, never sampling,
		 * with a period of 2^30. It takes GP 0, the load-latency
		 * event GP 1.
		 */
		.name = "sapphirerapids load latency with its auxiliary event",
		.caps = pmu_caps_sapphirerapids, .nr = 1,
		.ev = { EVL(LDLAT, 2, 30) },
		.want = {
			FW8, .nr = 2,
			.eventsel = { 0x438203, 0x4004301cd },
			.global_ctrl = 0x3, .pebs_enable = 0x2,
			.pebs_counters = 0x2, .ld_lat = 30,
			.pebs_data_cfg = 0x1, .extra_msrs = SKD_RULE_LDLAT,
			.lat_split = true,
			.record_size = 64, .max_records = 1024,
			.threshold = 1023, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { AT(1, F_LDLAT),
			 { 0, 1ULL << 30, 0xffffc0000000, F_AUX, 0, MAXP,
			   LD_AUX } },
	},
	{
		/* The auxiliary event counts what the load-latency events
		 * count: here the kernel only. */
		.name = "sapphirerapids load latency :k with its auxiliary event",
		.caps = pmu_caps_sapphirerapids, .nr = 2,
		.ev = { { .size = 48, .config = LDLAT, .precise = 1,
			  .ldlat = 50, .flags = SKD_EV_EXCLUDE_USER },
			EV(CYCLES, 0) },
		.want = {
			FW8, .nr = 3,
			.eventsel = { 0x428203, 0x4004201cd },
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000003, .pebs_enable = 0x2,
			.pebs_counters = 0x2, .pmi_counters = 0x200000000,
			.ld_lat = 50, .pebs_data_cfg = 0x1,
			.extra_msrs = SKD_RULE_LDLAT, .lat_split = true,
			.record_size = 64, .max_records = 1024,
			.threshold = 1, .fixed_slot = 32,
			.large = false, .exact = true,
		},
		.evs = { AT(1, F_LDLAT), AT(33, 0),
			 { 0, 1ULL << 30, 0xffffc0000000, F_AUX, 0, MAXP,
			   LD_AUX } },
	},
	{
		.name = "sapphirerapids load latency, session exclude_kernel",
		.caps = pmu_caps_sapphirerapids, .nr = 1,
		.ev = { EVL(LDLAT, 1, 30) },
		.exclude = SKD_EV_EXCLUDE_KERNEL,
		.want = {
			FW8, .nr = 2,
			.eventsel = { 0x418203, 0x4004101cd },
			.global_ctrl = 0x3, .pebs_enable = 0x2,
			.pebs_counters = 0x2, .ld_lat = 30,
			.pebs_data_cfg = 0x1, .extra_msrs = SKD_RULE_LDLAT,
			.lat_split = true,
			.record_size = 64, .max_records = 1024,
			.threshold = 1023, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { AT(1, F_LDLAT),
			 { 0, 1ULL << 30, 0xffffc0000000, F_AUX, 0, MAXP,
			   LD_AUX } },
	},
	{
		/* TakenAlone 1: the auxiliary event may share, nothing else. */
		.name = "sapphirerapids load latency + r00c4: TakenAlone",
		.caps = pmu_caps_sapphirerapids, .nr = 2,
		.ev = { EVL(LDLAT, 1, 30), EV(BRANCHES, 0) },
		.err = -ENOSPC,
		.word = "`r01cd` must count alone on the general-purpose counters (Intel marks it TakenAlone), but `r00c4` needs one too",
	},
	{
		.name = "sapphirerapids four GP events",
		.caps = pmu_caps_sapphirerapids, .nr = 4, .ev = { FOUR_GP },
		.want = {
			FW8,
			.eventsel = { 0x5320d1, 0x5300c4, 0x5300c5, 0x5302c2 },
			.global_ctrl = 0xf, .pmi_counters = 0xf,
		},
		.evs = { AT(1, 0), AT(2, 0), AT(3, 0), AT(0, 0) },
	},
	{
		/* MEM_*_RETIRED.*: Counter 0-3 (Linux: 0xd0-0xdf on 0xf). */
		.name = "sapphirerapids five memory events among eight",
		.caps = pmu_caps_sapphirerapids, .nr = 8, .ev = { EIGHT_GP },
		.err = -ENOSPC,
		.word = "`r10d1` cannot be placed: 5 events can only use counters 0-3",
	},
	{
		.name = "sapphirerapids eight GP events, four of them memory",
		.caps = pmu_caps_sapphirerapids, .nr = 8, .ev = { GP4, MEM4 },
		.want = {
			FW8,
			.eventsel = { 0x5381d0, 0x5382d0, 0x5308d1, 0x5320d1,
				      0x5300c4, 0x5300c5, 0x5302c2, 0x5302c4 },
			.global_ctrl = 0xff, .pmi_counters = 0xff,
		},
		.evs = { AT(4, 0), AT(5, 0), AT(6, 0), AT(7, 0),
			 AT(0, 0), AT(1, 0), AT(2, 0), AT(3, 0) },
	},
	{
		/* EN | OS | USR | all seven type enables (0x7f0000). */
		.name = "sapphirerapids cycles -b any",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_ANY,
		.want = {
			FW8,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x800,		/* FREEZE only */
			.arch_lbr_ctl = 0x7f0007, .arch_lbr_depth = 32,
			.lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	{
		.name = "sapphirerapids cycles:pp -b any",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 2) },
		.branch = SKD_BRANCH_ANY,
		.want = {
			FW8,
			.fixed_ctrl = 0x1000000030,
			.fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000, .pebs_enable = 0x200000000,
			.pebs_counters = 0x200000000,
			.pebs_data_cfg = 0x1f000008,
			.debugctl = 0x800,
			.arch_lbr_ctl = 0x7f0007, .arch_lbr_depth = 32,
			.lbr_nr = 32, .lbr_from_record = true,
			.lat_split = true,
			.record_size = 800, .max_records = 81,
			.threshold = 80, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { AT(33, F_PEBS) },
	},
	{
		/* EN|OS|USR|CALL_STACK (0xf) | REL_CALL|IND_CALL|RET
		 * (0x380000); no freeze in call-stack mode. */
		.name = "sapphirerapids cycles -j call_stack",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_CALL_STACK,
		.want = {
			FW8,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0,
			.arch_lbr_ctl = 0x38000f, .arch_lbr_depth = 32,
			.lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	{
		/* EN | USR | JCC = 0x10005. */
		.name = "sapphirerapids cycles -j u,cond",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_USER | SKD_BRANCH_COND,
		.want = {
			FW8,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x800,
			.arch_lbr_ctl = 0x10005, .arch_lbr_depth = 32,
			.lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	{
		/* EN | OS (0x3); any_call: REL_CALL 19, IND_CALL 20, OTHER
		 * 22; any_ret: RET 21, OTHER 22: 0x780000. */
		.name = "sapphirerapids cycles -j k,any_call,any_ret",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_KERNEL | SKD_BRANCH_ANY_CALL |
			  SKD_BRANCH_ANY_RETURN,
		.want = {
			FW8,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x800,
			.arch_lbr_ctl = 0x780003, .arch_lbr_depth = 32,
			.lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	{
		/* ind_call 20, ind_jmp 18, call (REL_CALL) 19. */
		.name = "sapphirerapids cycles -j ind_call,ind_jmp,call",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_IND_CALL | SKD_BRANCH_IND_JUMP |
			  SKD_BRANCH_CALL,
		.want = {
			FW8,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x800,
			.arch_lbr_ctl = 0x1c0007, .arch_lbr_depth = 32,
			.lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	{
		/* Session exclude_user: OS only in IA32_LBR_CTL (0x3), and
		 * fixed 1 OS|PMI. */
		.name = "sapphirerapids session exclude_user -b any",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 0) },
		.exclude = SKD_EV_EXCLUDE_USER, .branch = SKD_BRANCH_ANY,
		.want = {
			FW8,
			.fixed_ctrl = 0x90, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x800,
			.arch_lbr_ctl = 0x7f0003, .arch_lbr_depth = 32,
			.lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	{
		/* Session exclude_kernel: USR only (0x5). */
		.name = "sapphirerapids session exclude_kernel -b any",
		.caps = pmu_caps_sapphirerapids, .nr = 2,
		.ev = { EV(CYCLES, 0), EV(BRANCHES, 0) },
		.exclude = SKD_EV_EXCLUDE_KERNEL, .branch = SKD_BRANCH_ANY,
		.want = {
			FW8,
			.eventsel = { 0x5100c4 },
			.fixed_ctrl = 0xa0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000001,
			.pmi_counters = 0x200000001,
			.debugctl = 0x800,
			.arch_lbr_ctl = 0x7f0005, .arch_lbr_depth = 32,
			.lbr_nr = 32,
		},
		.evs = { AT(33, 0), AT(0, 0) },
	},
	{
		.name = "sapphirerapids -j k while every event excludes the kernel",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 0) },
		.exclude = SKD_EV_EXCLUDE_KERNEL,
		.branch = SKD_BRANCH_KERNEL | SKD_BRANCH_ANY,
		.err = -EINVAL,
		.word = "the branch filter keeps only kernel branches, and every event excludes kernel mode",
	},
	{
		/* Without filtering support, "any" and "u,k" are no filter. */
		.name = "arch LBR without filters: -b any -j u,k",
		.caps = caps_spr_ebx0, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_ANY | SKD_BRANCH_USER | SKD_BRANCH_KERNEL,
		.want = {
			FW8,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x800,
			.arch_lbr_ctl = 0x7f0007, .arch_lbr_depth = 32,
			.lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	/*
	 * Call-stack mode needs CPUID.1CH:EBX bits 0 (CPL filtering), 1
	 * (branch filtering) and 2 (call stack), as Linux asks in lbr.c
	 * intel_pmu_arch_lbr_init().
	 */
	{
		.name = "arch LBR call stack with EBX = 0",
		.caps = caps_spr_ebx0, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_CALL_STACK,
		.err = -EOPNOTSUPP,
		.word = "the architectural LBR of sapphirerapids has no call-stack mode",
	},
	{
		.name = "arch LBR call stack with EBX = 0x4 (stack only)",
		.caps = caps_spr_ebx4, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_CALL_STACK,
		.err = -EOPNOTSUPP, .word = "has no call-stack mode",
	},
	{
		.name = "arch LBR call stack with EBX = 0x3 (no stack)",
		.caps = caps_spr_ebx3, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_CALL_STACK,
		.err = -EOPNOTSUPP, .word = "has no call-stack mode",
	},
	{
		.name = "arch LBR call stack with EBX = 0x6 (no CPL filter)",
		.caps = caps_spr_ebx6, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_CALL_STACK,
		.err = -EOPNOTSUPP, .word = "has no call-stack mode",
	},
	{
		.name = "arch LBR call stack with EBX = 0x5 (no type filter)",
		.caps = caps_spr_ebx5, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_CALL_STACK,
		.err = -EOPNOTSUPP, .word = "has no call-stack mode",
	},
	{
		.name = "arch LBR user only without EBX[0]",
		.caps = caps_spr_ebx0, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_USER,
		.err = -EOPNOTSUPP, .word = "CPUID.1CH:EBX[0]",
	},
	{
		.name = "arch LBR cond without EBX[1]",
		.caps = caps_spr_ebx0, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_COND,
		.err = -EOPNOTSUPP, .word = "by type (CPUID.1CH:EBX[1])",
	},
	{
		/* OCR.*: EventCode "0x2A,0x2B"; the second value switches to
		 * 0x2B and MSR_OFFCORE_RSP_1. Valid bits 0x3fffffffff
		 * (intel_spr_extra_regs). */
		.name = "sapphirerapids two offcore values use both MSRs",
		.caps = pmu_caps_sapphirerapids, .nr = 2,
		.ev = { EV1(GLC_OCR, 0, OCR_DRD_ANY),
			EV1(GLC_OCR, 0, OCR_DRD_L3MISS) },
		.want = {
			FW8,
			.eventsel = { 0x53012a, 0x53012b },
			.global_ctrl = 0x3, .pmi_counters = 0x3,
			.offcore = { OCR_DRD_ANY, OCR_DRD_L3MISS },
			.extra_msrs = SKD_RULE_OFFCORE | SKD_RULE_OFFCORE1,
		},
		.evs = { AT(0, 0),
			 { 1, 100003, R100003, 0, 0, MAXP, GLC_OCR1 } },
	},
	{
		.name = "sapphirerapids offcore value with bit 38",
		.caps = pmu_caps_sapphirerapids, .nr = 1,
		.ev = { EV1(GLC_OCR, 0, 0x4000010001ULL) },
		.err = -EINVAL,
		.word = "config1=0x4000010001 sets bits sapphirerapids does not define (0x4000000000); the valid bits are 0x3fffffffff",
	},
	{
		/* intel_spr_extra_regs: MSR_PEBS_FRONTEND takes 0x7fff1f,
		 * bit 3 too. FRONTEND_RETIRED.DSB_MISS: PDISTCounter 0. */
		.name = "sapphirerapids frontend event:ppp with bit 3",
		.caps = pmu_caps_sapphirerapids, .nr = 1,
		.ev = { EV1(FE_DSB_MISS, 3, 0x8) },
		.want = {
			FW8,
			.eventsel = { 0x4004301c6 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1, .lat_split = true,
			.frontend = 0x8, .extra_msrs = SKD_RULE_FRONTEND,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_PX) },
	},

	/* ---- Alder Lake: Golden Cove P-core, Gracemont E-core ---- */
	{
		.name = "alderlake P-core cycles:pp",
		.caps = pmu_caps_alderlake_p, .nr = 1, .ev = { EV(CYCLES, 2) },
		.want = {
			FW8,
			.fixed_ctrl = 0x1000000030,
			.fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000, .pebs_enable = 0x200000000,
			.pebs_counters = 0x200000000, .lat_split = true,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { AT(33, F_PEBS) },
	},
	{
		/* The same auxiliary event as Sapphire Rapids' (core.c:
		 * MEM_LOADS_AUX for the big core only). */
		.name = "alderlake P-core load latency with its auxiliary event",
		.caps = pmu_caps_alderlake_p, .nr = 1,
		.ev = { EVL(LDLAT, 1, 100) },
		.want = {
			FW8, .nr = 2,
			.eventsel = { 0x438203, 0x4004301cd },
			.global_ctrl = 0x3, .pebs_enable = 0x2,
			.pebs_counters = 0x2, .ld_lat = 100,
			.pebs_data_cfg = 0x1, .extra_msrs = SKD_RULE_LDLAT,
			.lat_split = true,
			.record_size = 64, .max_records = 1024,
			.threshold = 1023, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { AT(1, F_LDLAT),
			 { 0, 1ULL << 30, 0xffffc0000000, F_AUX, 0, MAXP,
			   LD_AUX } },
	},
	{
		/* INST_RETIRED.ANY_P: PEBScounters "1,...,7". */
		.name = "alderlake P-core two r00c0:p: fixed 0 and GP 1",
		.caps = pmu_caps_alderlake_p, .nr = 2,
		.ev = { EV(INSTR, 1), EV(INSTR, 2) },
		.want = {
			FW8,
			.eventsel = { [1] = 0x4004300c0 },
			.fixed_ctrl = 0x100000003,
			.fixed_ctrl_mask = 0x10000000f,
			.global_ctrl = 0x100000002, .pebs_enable = 0x100000002,
			.pebs_counters = 0x100000002, .lat_split = true,
			.record_size = 32, .max_records = 2048,
			.threshold = 2046, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { AT(32, F_PX), AT(1, F_PX) },
	},
	{
		.name = "alderlake P-core cycles -j call_stack",
		.caps = pmu_caps_alderlake_p, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_CALL_STACK,
		.want = {
			FW8,
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0,
			.arch_lbr_ctl = 0x38000f, .arch_lbr_depth = 32,
			.lbr_nr = 32,
		},
		.evs = { AT(33, 0) },
	},
	{
		/* Three fixed counters, six GP. */
		.name = "alderlake E-core cycles, instructions, ref-cycles",
		.caps = pmu_caps_alderlake_e, .nr = 3,
		.ev = { EV(CYCLES, 0), EV(INSTR, 0), EV(REF_CYCLES, 0) },
		.want = {
			FW6,
			.fixed_ctrl = 0xbbb,
			.fixed_ctrl_mask = 0x11100000fff,
			.global_ctrl = 0x700000000, .pmi_counters = 0x700000000,
		},
		.evs = { AT(33, 0), AT(32, 0), AT(34, 0) },
	},
	{
		/* No TOPDOWN.SLOTS in alderlake_gracemont. */
		.name = "alderlake E-core slots",
		.caps = pmu_caps_alderlake_e, .nr = 1, .ev = { EV(SLOTS, 0) },
		.err = -EINVAL,
		.word = "`r0400` is a pseudo encoding (event 0x00) that alderlake_gracemont has no fixed counter for",
	},
	{
		/* Counter "0,1,2,3,4,5" for all six, memory events too. */
		.name = "alderlake E-core six GP events",
		.caps = pmu_caps_alderlake_e, .nr = 6,
		.ev = { EV(BRANCHES, 0), EV(BR_MISP, 0), EV(LOADS, 0),
			EV(STORES, 0), EV(L1_MISS, 0), EV(L2_MISS, 0) },
		.want = {
			FW6,
			.eventsel = { 0x5300c4, 0x5300c5, 0x5381d0, 0x5382d0,
				      0x5308d1, 0x5310d1 },
			.global_ctrl = 0x3f, .pmi_counters = 0x3f,
		},
		.evs = { AT(0, 0), AT(1, 0), AT(2, 0), AT(3, 0), AT(4, 0),
			 AT(5, 0) },
	},
	{
		.name = "alderlake E-core seven GP events",
		.caps = pmu_caps_alderlake_e, .nr = 7,
		.ev = { EV(BRANCHES, 0), EV(BR_MISP, 0), EV(LOADS, 0),
			EV(STORES, 0), EV(L1_MISS, 0), EV(L2_MISS, 0),
			EV(NEAR_CALL, 0) },
		.err = -ENOSPC,
		.word = "`r02c4` cannot be placed: 7 events need general-purpose counters; alderlake_gracemont has 6",
	},
	{
		/* MEM_UOPS_RETIRED.ALL_LOADS: Precise 1, Data_LA 1. */
		.name = "alderlake E-core loads:pp",
		.caps = pmu_caps_alderlake_e, .nr = 1, .ev = { EV(LOADS, 2) },
		.want = {
			FW6,
			.eventsel = { 0x4004381d0 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1, .pebs_data_cfg = 0x1,
			.lat_split = true,
			.record_size = 64, .max_records = 1024,
			.threshold = 1023, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_MEM) },
	},
	{
		/*
		 * Gracemont's load latency is MEM_UOPS_RETIRED.LOAD_LATENCY_*
		 * (D0/05, Counter "0,1", TakenAlone 1); no auxiliary event on
		 * the small core.
		 */
		.name = "alderlake E-core load latency ldlat=30",
		.caps = pmu_caps_alderlake_e, .nr = 1,
		.ev = { EVL(GRT_LDLAT, 1, 30) },
		.want = {
			FW6,
			.eventsel = { 0x4004305d0 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1, .ld_lat = 30,
			.pebs_data_cfg = 0x1, .extra_msrs = SKD_RULE_LDLAT,
			.lat_split = true,
			.record_size = 64, .max_records = 1024,
			.threshold = 1023, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_LDLAT) },
	},
	{
		/* CD/01 is ARITH.IDIV_OCCUPANCY on Gracemont. */
		.name = "alderlake E-core r01cd ldlat=30",
		.caps = pmu_caps_alderlake_e, .nr = 1,
		.ev = { EVL(LDLAT, 1, 30) },
		.err = -EINVAL, .word = "`r01cd` is not a load-latency event",
	},
	{
		/* INST_RETIRED.ANY_P PDISTCounter NA; fixed 0's 32. */
		.name = "alderlake E-core r00c0:ppp on fixed 0",
		.caps = pmu_caps_alderlake_e, .nr = 1, .ev = { EV(INSTR, 3) },
		.want = {
			FW6,
			.fixed_ctrl = 0x100000003,
			.fixed_ctrl_mask = 0x10000000f,
			.global_ctrl = 0x100000000, .pebs_enable = 0x100000000,
			.pebs_counters = 0x100000000, .lat_split = true,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { AT(32, F_PX) },
	},
	{
		/* Gracemont OCR.*: UMask "0x01,0x02", 0xB7 both: the second
		 * value takes 02B7 and MSR_OFFCORE_RSP_1. */
		.name = "alderlake E-core two offcore values",
		.caps = pmu_caps_alderlake_e, .nr = 2,
		.ev = { EV1(GRT_OCR, 0, OCR_DRD_ANY),
			EV1(GRT_OCR, 0, OCR_RFO_ANY) },
		.want = {
			FW6,
			.eventsel = { 0x5301b7, 0x5302b7 },
			.global_ctrl = 0x3, .pmi_counters = 0x3,
			.offcore = { OCR_DRD_ANY, OCR_RFO_ANY },
			.extra_msrs = SKD_RULE_OFFCORE | SKD_RULE_OFFCORE1,
		},
		.evs = { AT(0, 0),
			 { 1, 100003, R100003, 0, 0, MAXP, GRT_OCR1 } },
	},

	/* ---- older record formats, other CPUs ---- */
	{
		/* Format 1: 176 bytes, the IP after the instruction. */
		.name = "PEBS format 1 loads:pp",
		.caps = caps_skl_fmt1, .nr = 1, .ev = { EV(LOADS, 2) },
		.want = {
			FW4,
			.eventsel = { 0x4381d0 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.record_size = 176, .max_records = 372,
			.threshold = 371, .fixed_slot = 8,
			.large = true, .exact = false,
		},
		.evs = { AT(0, SKD_PLAN_PEBS | SKD_PLAN_DATA_LA) },
	},
	{
		.name = "PEBS format 2 loads:pp",
		.caps = caps_skl_fmt2, .nr = 1, .ev = { EV(LOADS, 2) },
		.want = {
			FW4,
			.eventsel = { 0x4381d0 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.record_size = 192, .max_records = 341,
			.threshold = 340, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { AT(0, F_MEM) },
	},
	{
		/* An unknown model still counts, with raw events only. */
		.name = "unknown model cycles and r00c4",
		.caps = pmu_caps_ivybridge, .nr = 2,
		.ev = { EV(CYCLES, 0), EV(BRANCHES, 0) },
		.branch = SKD_BRANCH_ANY,
		.want = {
			NOFW4,
			.eventsel = { 0x5300c4 },
			.fixed_ctrl = 0xb0, .fixed_ctrl_mask = 0x10000000f0,
			.global_ctrl = 0x200000001, .pmi_counters = 0x200000001,
			.debugctl = 0x801, .lbr_select = 0, .lbr_nr = 16,
		},
		.evs = { { 33, 100003, R100003, 0, 0, MAXP31 },
			 { 0, 100003, R100003, 0, 0, MAXP31 } },
	},

	/* ---- refusals ---- */
	{
		.name = "PMU not usable", .caps = caps_unusable,
		.nr = 1, .ev = { EV(CYCLES, 0) },
		.err = -ENODEV, .word = "no architectural perfmon",
	},
	{
		.name = "no events", .caps = pmu_caps_skylake, .nr = 0,
		.err = -EINVAL, .word = "1 to 16 events, not 0",
	},
	{
		.name = "seventeen events", .caps = pmu_caps_skylake, .nr = 17,
		.err = -EINVAL, .word = "1 to 16 events, not 17",
	},
	{
		.name = "unknown event flag", .caps = pmu_caps_skylake, .nr = 1,
		.ev = { EVF(CYCLES, 0, 0x8) },
		.err = -EOPNOTSUPP, .word = "unknown flags 0x8",
	},
	{
		.name = "reserved0 set", .caps = pmu_caps_skylake, .nr = 2,
		.ev = { EV(CYCLES, 0), { .size = 48, .config = CYCLES,
					 .reserved0 = { 0, 1, 0 } } },
		.err = -EINVAL, .word = "event 1: reserved",
	},
	{
		.name = "reserved1 set", .caps = pmu_caps_skylake, .nr = 1,
		.ev = { { .size = 48, .config = CYCLES, .reserved1 = 1 } },
		.err = -EINVAL, .word = "reserved",
	},
	{
		.name = "config with INT", .caps = pmu_caps_skylake, .nr = 1,
		.ev = { EV(CYCLES | 0x100000, 0) },
		.err = -EINVAL, .word = "outside event, umask",
	},
	{
		.name = "config with EN and USR", .caps = pmu_caps_skylake, .nr = 1,
		.ev = { EV(CYCLES | 0x410000, 0) },
		.err = -EINVAL, .word = "outside",
	},
	{
		.name = "config with bit 32", .caps = pmu_caps_skylake, .nr = 1,
		.ev = { EV(CYCLES | 1ULL << 32, 0) },
		.err = -EINVAL, .word = "config 0x10000003c",
	},
	{
		/* AnyThread (bit 21): perfmon v3 and v4 only; v5 drops it. */
		.name = "config with AnyThread on perfmon v5",
		.caps = pmu_caps_icelake, .nr = 1,
		.ev = { EV(BRANCHES | 0x200000, 0) },
		.err = -EINVAL, .word = "config 0x2000c4 sets bits outside",
	},
	{
		.name = "config with AnyThread on perfmon v4",
		.caps = pmu_caps_skylake, .nr = 1,
		.ev = { EV(BRANCHES | 0x200000, 0) },
		.want = {
			FW4,
			.eventsel = { 0x7300c4 },	/* | ANY | EN | ... */
			.global_ctrl = 0x1, .pmi_counters = 0x1,
		},
		.evs = { AT(0, 0) },
	},
	{
		.name = "both excluded", .caps = pmu_caps_skylake, .nr = 1,
		.ev = { EVF(CYCLES, 0, SKD_EV_EXCLUDE_USER |
				      SKD_EV_EXCLUDE_KERNEL) },
		.err = -EINVAL, .word = "nothing to count",
	},
	{
		.name = "precise 4", .caps = pmu_caps_skylake, .nr = 1,
		.ev = { EV(CYCLES, 4) },
		.err = -EINVAL, .word = "precise is 0 to 3",
	},
	{
		.name = "no period anywhere", .caps = pmu_caps_skylake, .nr = 1,
		.ev = { EV(CYCLES, 0) },
		.own_defaults = true, .pebs_bytes = PEBS_BYTES,
		.err = -EINVAL, .word = "no sample period or frequency",
	},
	{
		.name = "freq flag, no frequency anywhere",
		.caps = pmu_caps_skylake, .nr = 1,
		.ev = { EVF(CYCLES, 0, SKD_EV_FREQ) },
		.own_defaults = true, .pebs_bytes = PEBS_BYTES,
		.err = -EINVAL, .word = "no sample period",
	},
	{
		.name = "frequency above max_sample_rate",
		.caps = pmu_caps_skylake, .nr = 1,
		.ev = { { .size = 48, .config = CYCLES, .flags = SKD_EV_FREQ,
			  .sample_freq = MAX_RATE + 1 } },
		.err = -ERANGE, .word = "100001 samples/s is above max_sample_rate 100000",
	},
	{
		.name = "unknown branch_sample bit", .caps = pmu_caps_skylake,
		.nr = 1, .ev = { EV(CYCLES, 0) }, .branch = 1U << 10,
		.err = -EOPNOTSUPP, .word = "branch_sample bits 0x400",
	},
	{
		.name = "load latency without threshold", .caps = pmu_caps_skylake,
		.nr = 1, .ev = { EV(LDLAT, 1) },
		.err = -EINVAL, .word = "ldlat=1..65535",
	},
	{
		.name = "load latency threshold too large",
		.caps = pmu_caps_skylake, .nr = 1,
		.ev = { EVL(LDLAT, 1, 0x10000) },
		.err = -EINVAL, .word = "not 65536",
	},
	{
		.name = "load latency without PEBS", .caps = pmu_caps_skylake,
		.nr = 1, .ev = { EVL(LDLAT, 0, 30) },
		.err = -EINVAL, .word = "only with PEBS",
	},
	{
		.name = "ldlat on an event without load latency",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EVL(LOADS, 1, 30) },
		.err = -EINVAL, .word = "`r81d0` is not a load-latency event",
	},
	{
		.name = "no PEBS", .caps = caps_nopebs, .nr = 1,
		.ev = { EV(LOADS, 1) },
		.err = -EOPNOTSUPP, .word = "no PEBS on skylakex",
	},
	{
		.name = "page-table isolation", .caps = caps_pti, .nr = 1,
		.ev = { EV(SKL_PCYCLES, 2) },
		.err = -EPERM, .word = "boot with pti=off",
	},
	{
		.name = "PEBS on an unknown model", .caps = pmu_caps_ivybridge,
		.nr = 1, .ev = { EV(CYCLES, 1) },
		.err = -EOPNOTSUPP, .word = "family 6 model 0x3a",
	},
	{
		.name = "PEBS format 6", .caps = caps_skl_fmt6, .nr = 1,
		.ev = { EV(LOADS, 1) },
		.err = -EOPNOTSUPP, .word = "format 6",
	},
	{
		.name = "branch stacks without LBR", .caps = caps_skl_nolbr,
		.nr = 1, .ev = { EV(CYCLES, 0) }, .branch = SKD_BRANCH_ANY,
		.err = -EOPNOTSUPP, .word = "no LBR",
	},
	{
		.name = "PEBS buffer smaller than a record",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(LOADS, 1) },
		.own_defaults = true, .default_period = 100003,
		.pebs_bytes = 199,
		.err = -EINVAL, .word = "199 bytes holds no 200-byte record",
	},
	{
		.name = "two events on counter 1", .caps = pmu_caps_skylake,
		.nr = 2, .ev = { EV(SKL_PDIST, 3), EV(SKL_PDIST, 2) },
		.err = -ENOSPC,
		.word = "`r01c0` needs counter 1, which `r01c0` also needs",
	},
};

#define NR_SCENARIOS	(sizeof(scenarios) / sizeof(scenarios[0]))

/* ---- the runner --------------------------------------------------------- */

static int plan(const struct scenario *s, struct skd_pmu_plan *p, char *why,
		size_t len)
{
	struct skd_plan_request req = {
		.events = s->ev,
		.nr_events = s->nr,
		.branch_sample = s->branch,
		.exclude = s->exclude,
		.callchain = s->callchain,
		.default_period = 100003,
		.default_freq = 0,
		.max_freq = MAX_RATE,
		.pebs_buffer_bytes = PEBS_BYTES,
	};
	struct skd_pmu_caps caps;

	if (s->own_defaults) {
		req.default_period = s->default_period;
		req.default_freq = s->default_freq;
		req.pebs_buffer_bytes = s->pebs_bytes;
	}
	s->caps(&caps);
	return skd_pmu_plan(&caps, &req, p, why, len);
}

/* Disagreements of the case being checked; each is printed. */
static unsigned int nr_bad;

#define CHECK(what, got, want)						\
	do {								\
		unsigned long long g_ = (got), w_ = (want);		\
		if (g_ != w_) {						\
			print_message("# MISMATCH %s: %s = 0x%llx, want 0x%llx\n", \
				      s->name, what, g_, w_);		\
			nr_bad++;					\
		}							\
	} while (0)

static void check_event(const struct scenario *s,
			const struct skd_pmu_plan *p, unsigned int i)
{
	const struct skd_planned_event *ev = &p->ev[i];
	const struct want_ev *we = &s->evs[i];
	bool aux = i >= s->nr;
	char what[32];

	snprintf(what, sizeof(what), "ev[%u].idx", i);
	CHECK(what, ev->idx, we->idx);
	snprintf(what, sizeof(what), "ev[%u].period", i);
	CHECK(what, ev->period, we->period);
	snprintf(what, sizeof(what), "ev[%u].reset", i);
	CHECK(what, ev->reset, we->reset);
	snprintf(what, sizeof(what), "ev[%u].max_period", i);
	CHECK(what, ev->max_period, we->max_period);
	snprintf(what, sizeof(what), "ev[%u].flags", i);
	CHECK(what, ev->flags, we->flags);
	snprintf(what, sizeof(what), "ev[%u].freq", i);
	CHECK(what, ev->freq, we->freq);
	snprintf(what, sizeof(what), "ev[%u].event", i);
	CHECK(what, ev->event, aux ? 0xffff : i);
	snprintf(what, sizeof(what), "ev[%u].config", i);
	CHECK(what, ev->config, we->config ? we->config : s->ev[i].config);
	snprintf(what, sizeof(what), "ev[%u].config1", i);
	CHECK(what, ev->config1, aux ? 0 : s->ev[i].config1);
	snprintf(what, sizeof(what), "ev[%u].precise", i);
	CHECK(what, ev->precise, aux ? 0 : s->ev[i].precise);
	snprintf(what, sizeof(what), "ev[%u].ldlat", i);
	CHECK(what, ev->ldlat, aux ? 0 : s->ev[i].ldlat);
}

static void check_scenario(const struct scenario *s)
{
	const struct want *w = &s->want;
	unsigned int nr = w->nr ? w->nr : s->nr, i;
	struct skd_pmu_plan p;
	char why[256], what[32];
	int ret;

	memset(why, 'x', sizeof(why));
	memset(&p, 0xa5, sizeof(p));
	ret = plan(s, &p, why, sizeof(why));
	if (s->err) {
		if (ret != s->err) {
			print_message("# MISMATCH %s: returned %d, want %d (%s)\n",
				      s->name, ret, s->err,
				      ret ? why : "planned");
			nr_bad++;
		} else if (!strstr(why, s->word)) {
			print_message("# MISMATCH %s: why \"%s\" lacks \"%s\"\n",
				      s->name, why, s->word);
			nr_bad++;
		}
		return;
	}
	if (ret) {
		print_message("# MISMATCH %s: returned %d: %s\n", s->name,
			      ret, why);
		nr_bad++;
		return;
	}
	CHECK("why[0]", why[0], 0);

	CHECK("nr", p.nr, nr);
	CHECK("pmc_base", p.pmc_base, w->pmc_base);
	for (i = 0; i < SKD_MAX_GP; i++) {
		snprintf(what, sizeof(what), "EVENTSEL%u", i);
		CHECK(what, p.eventsel[i], w->eventsel[i]);
	}
	CHECK("FIXED_CTR_CTRL", p.fixed_ctrl, w->fixed_ctrl);
	CHECK("fixed_ctrl_mask", p.fixed_ctrl_mask, w->fixed_ctrl_mask);
	CHECK("GLOBAL_CTRL", p.global_ctrl, w->global_ctrl);
	CHECK("PEBS_ENABLE", p.pebs_enable, w->pebs_enable);
	CHECK("PEBS_DATA_CFG", p.pebs_data_cfg, w->pebs_data_cfg);
	CHECK("PEBS_LD_LAT", p.ld_lat, w->ld_lat);
	CHECK("PEBS_FRONTEND", p.frontend, w->frontend);
	CHECK("OFFCORE_RSP_0", p.offcore[0], w->offcore[0]);
	CHECK("OFFCORE_RSP_1", p.offcore[1], w->offcore[1]);
	CHECK("extra_msrs", p.extra_msrs, w->extra_msrs);
	CHECK("DEBUGCTL", p.debugctl, w->debugctl);
	CHECK("LBR_SELECT", p.lbr_select, w->lbr_select);
	CHECK("ARCH_LBR_CTL", p.arch_lbr_ctl, w->arch_lbr_ctl);
	CHECK("ARCH_LBR_DEPTH", p.arch_lbr_depth, w->arch_lbr_depth);
	CHECK("lbr_nr", p.lbr_nr, w->lbr_nr);
	CHECK("lbr_from_record", p.lbr_from_record, w->lbr_from_record);
	CHECK("lat_split", p.lat_split, w->lat_split);
	CHECK("pebs_counters", p.pebs_counters, w->pebs_counters);
	CHECK("pmi_counters", p.pmi_counters, w->pmi_counters);
	CHECK("gp_reserved", p.gp_reserved, w->gp_reserved);
	CHECK("pebs_record_size", p.pebs_record_size, w->record_size);
	CHECK("pebs_max_records", p.pebs_max_records, w->max_records);
	CHECK("pebs_threshold_records", p.pebs_threshold_records,
	      w->threshold);
	CHECK("ds_fixed_reset_slot", p.ds_fixed_reset_slot, w->fixed_slot);
	CHECK("large_pebs", p.large_pebs, w->large);
	CHECK("exact_ip", p.exact_ip, w->exact);
	for (i = 0; i < nr && i <= SKD_MAX_EVENTS; i++)
		check_event(s, &p, i);
}

/* The table: every scenario, each disagreement named. */
static void test_scenarios(void **state)
{
	unsigned int i, bad_cases = 0, before;

	(void)state;
	nr_bad = 0;
	for (i = 0; i < NR_SCENARIOS; i++) {
		before = nr_bad;
		check_scenario(&scenarios[i]);
		if (nr_bad != before)
			bad_cases++;
	}
	print_message("# %zu cases\n", NR_SCENARIOS);
	if (bad_cases)
		fail_msg("%u of %zu cases disagree (%u values)", bad_cases,
			 NR_SCENARIOS, nr_bad);
}

/* ---- the rest ----------------------------------------------------------- */

static void test_counter_reset(void **state)
{
	(void)state;
	/* (-period) & (2^width - 1) */
	assert_int_equal(skd_counter_reset(100003, 48), 0xfffffffe795dULL);
	assert_int_equal(skd_counter_reset(100003, 32), 0xfffe795dULL);
	assert_int_equal(skd_counter_reset(100003, 64),
			 0xfffffffffffe795dULL);
	assert_int_equal(skd_counter_reset(2, 48), 0xfffffffffffeULL);
	assert_int_equal(skd_counter_reset(0x7fffffffffffULL, 48),
			 0x800000000001ULL);
	assert_int_equal(skd_counter_reset(1ULL << 48, 48), 0);
}

/* No @why buffer, or a tiny one: refusals still return their errno. */
static void test_why_buffers(void **state)
{
	static const struct skd_event_attr ev[2] = {
		EV(SKL_PDIST, 3), EV(SKL_PDIST, 2),
	};
	struct skd_plan_request req = {
		.events = ev, .nr_events = 2,
		.default_period = 100003, .pebs_buffer_bytes = PEBS_BYTES,
		.max_freq = MAX_RATE,
	};
	struct skd_pmu_caps caps;
	struct skd_pmu_plan p;
	char why[8];

	(void)state;
	pmu_caps_skylake(&caps);
	assert_int_equal(skd_pmu_plan(&caps, &req, &p, NULL, 0), -ENOSPC);
	memset(why, 'x', sizeof(why));
	assert_int_equal(skd_pmu_plan(&caps, &req, &p, why, sizeof(why)),
			 -ENOSPC);
	assert_string_equal(why, "`r01c0`");
	req.nr_events = 1;
	assert_int_equal(skd_pmu_plan(&caps, &req, &p, why, 1), 0);
	assert_string_equal(why, "");
}

/* The events come back in the session's order, whatever was placed first. */
static void test_order_kept(void **state)
{
	static const struct skd_event_attr ev[3] = {
		EV(BRANCHES, 0), EV(SKL_PDIST, 2), EV(INSTR, 0),
	};
	struct skd_plan_request req = {
		.events = ev, .nr_events = 3,
		.default_period = 100003, .pebs_buffer_bytes = PEBS_BYTES,
		.max_freq = MAX_RATE,
	};
	struct skd_pmu_caps caps;
	struct skd_pmu_plan p;
	char why[128];

	(void)state;
	pmu_caps_skylake(&caps);
	assert_int_equal(skd_pmu_plan(&caps, &req, &p, why, sizeof(why)), 0);
	/* r01c0 (counter 1 only) first, then r00c4 on GP 0 */
	assert_int_equal(p.ev[0].idx, 0);
	assert_int_equal(p.ev[1].idx, 1);
	assert_int_equal(p.ev[2].idx, 32);
}

/*
 * Random sessions on Ice Lake-SP against a closed-form answer. With these
 * events the counters an event may use are (icelakex's Counter and
 * PEBScounters, and the fixed counters that count exactly the encoding):
 * GP 0-7 only (branches); GP 0-3 only (the memory events, counted or
 * :pp); GP 0-7 or fixed 0 (instructions) or fixed 1 (cycles); fixed 0
 * only (the pseudo encoding 0x0100, also :ppp); fixed 2 only (0x0300);
 * fixed 3 only (0x0400). The GP counter sets are nested, so a session
 * fits exactly when no fixed counter is wanted alone twice, the memory
 * events fit on GP 0-3, and GP 0-7 hold them, the other GP-only events
 * and the instructions and cycles events that find their fixed counter
 * taken. The planner must agree, give every event a counter it may use,
 * never one counter twice, and use fixed 0 and 1 when it can. Timed, to
 * show the search stays fast when the answer is no.
 */
static void test_search_random(void **state)
{
	static const struct {
		u64 config;
		u8 precise;
		u64 allowed;
	} kinds[] = {
		{ BRANCHES, 0, 0xff },
		{ LOADS, 0, 0x0f },
		{ L3_MISS, 2, 0x0f },
		{ INSTR, 0, 0x1000000ff },
		{ CYCLES, 0, 0x2000000ff },
		{ PSEUDO_INSTR, 0, 0x100000000 },
		{ PSEUDO_INSTR, 3, 0x100000000 },
		{ REF_CYCLES, 0, 0x400000000 },
		{ SLOTS, 0, 0x800000000 },
	};
	struct skd_event_attr ev[SKD_MAX_EVENTS];
	struct skd_plan_request req = {
		.events = ev, .default_period = 100003,
		.pebs_buffer_bytes = PEBS_BYTES, .max_freq = MAX_RATE,
	};
	unsigned int kind[SKD_MAX_EVENTS];
	struct skd_pmu_caps caps;
	struct skd_pmu_plan p;
	struct timespec t0, t1;
	unsigned int n, i, ok = 0, nospc = 0;
	u32 seed = 1;
	char why[160];
	double ms;
	int ret;

	(void)state;
	pmu_caps_icelake(&caps);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (n = 0; n < 20000; n++) {
		unsigned int gp_only = 0, mem = 0, instr = 0, cycles = 0;
		unsigned int fix0 = 0, fix2 = 0, fix3 = 0, gp;
		bool fits;

		req.nr_events = 1 + n % SKD_MAX_EVENTS;
		for (i = 0; i < req.nr_events; i++) {
			seed = seed * 1103515245 + 12345;
			kind[i] = (seed >> 16) % ARRAY_SIZE(kinds);
			memset(&ev[i], 0, sizeof(ev[i]));
			ev[i].size = sizeof(ev[i]);
			ev[i].config = kinds[kind[i]].config;
			ev[i].precise = kinds[kind[i]].precise;
			switch (kinds[kind[i]].allowed) {
			case 0xff:
				gp_only++;
				break;
			case 0x0f:
				mem++;
				break;
			case 0x1000000ff:
				instr++;
				break;
			case 0x2000000ff:
				cycles++;
				break;
			case 0x100000000:
				fix0++;
				break;
			case 0x400000000:
				fix2++;
				break;
			default:
				fix3++;
				break;
			}
		}
		gp = gp_only + mem +
		     (instr > (fix0 ? 0 : 1) ? instr - !fix0 : 0) +
		     (cycles > 1 ? cycles - 1 : 0);
		fits = fix0 <= 1 && fix2 <= 1 && fix3 <= 1 && mem <= 4 &&
		       gp <= 8;

		ret = skd_pmu_plan(&caps, &req, &p, why, sizeof(why));
		if (ret && ret != -ENOSPC)
			fail_msg("session %u: %d: %s", n, ret, why);
		if (fits != !ret)
			fail_msg("session %u: fits %d but planner says %d: %s",
				 n, fits, ret, ret ? why : "");
		if (ret) {
			nospc++;
			continue;
		}
		ok++;
		{
			u64 seen = 0;

			for (i = 0; i < req.nr_events; i++) {
				u64 bit = 1ULL << p.ev[i].idx;

				assert_false(seen & bit);
				assert_true(kinds[kind[i]].allowed & bit);
				seen |= bit;
			}
			assert_int_equal(seen, p.global_ctrl);
			if (cycles)
				assert_true(seen & 0x200000000);
			if (instr || fix0)
				assert_true(seen & 0x100000000);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	print_message("# 20000 random sessions: %u planned, %u -ENOSPC, %.1f ms\n",
		      ok, nospc, ms);
	assert_true(ok > 1000 && nospc > 1000);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scenarios),
		cmocka_unit_test(test_counter_reset),
		cmocka_unit_test(test_why_buffers),
		cmocka_unit_test(test_order_kept),
		cmocka_unit_test(test_search_random),
	};

	return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
