// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for kmod/intel/plan.c, the session planner.
 *
 * Every expected register value below is written by hand from
 * ../shared/ref/pmu-intel.md (section numbers in the comments), never
 * computed with plan.c's helpers or msrs.h's macros, so a wrong bit in
 * either shows up here. The bits used:
 *
 *   IA32_PERFEVTSELx (2.2): USR 16, OS 17, INT 20, EN 22, ADAPTIVE 34.
 *	config | EN | USR | OS       = config | 0x430000
 *	config | EN | USR | OS | INT = config | 0x530000
 *	... | ADAPTIVE               = ... | 0x400000000
 *   IA32_FIXED_CTR_CTRL (2.4): nibble j = OS 1, USR 2, PMI 8 (0xb, or 0x3
 *	for PEBS), adaptive enable for fixed j at bit 32 + 4j.
 *   IA32_PERF_GLOBAL_CTRL (2.1): GP i bit i, fixed j bit 32 + j.
 *   IA32_PEBS_ENABLE (2.6): GP i bit i, fixed j bit 32 + j (baseline),
 *	load latency on GP i bit 32 + i (perfmon < 5).
 *   MSR_PEBS_DATA_CFG (4.6): MEMINFO bit 0, LBRS bit 3, (n - 1) << 24.
 *   IA32_DEBUGCTL (2.7): LBR bit 0, FREEZE_LBRS_ON_PMI bit 11.
 *   MSR_LBR_SELECT (5.3): suppress bits 0 CPL_EQ_0, 1 CPL_NEQ_0, 2 JCC,
 *	3 REL_CALL, 4 IND_CALL, 5 RET, 6 IND_JMP, 7 REL_JMP, 8 FAR; 9 call
 *	stack (enable).
 *   MSR_ARCH_LBR_CTL (5.6): EN 0, OS 1, USR 2, CALL_STACK 3, JCC 16,
 *	REL_JMP 17, IND_JMP 18, REL_CALL 19, IND_CALL 20, RET 21, OTHER 22.
 *   PEBS records (4.1, 4.6): 176/192/200 bytes for formats 1/2/3; basic
 *	32, meminfo 32, LBR 24 per entry.
 *   DS reset slot of fixed 0 (3.1): 8 before format 5, 32 from 5.
 *   Reset value (2.3, 4.8): (-period) & (2^width - 1).
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

#include "models.h"
#include "plan.h"
#include "pmu_caps.h"

/* 2^48 - 100003: period 100003 on a 48-bit counter. */
#define R100003		0xfffffffe795dULL

/* SKD_EVF_* and SKD_PLAN_* are interface flags, not register bits. */
#define PLAN_PEBS	(SKD_PLAN_PEBS | SKD_PLAN_EXACT)
#define MEM_LOAD	(SKD_EVF_PEBS | SKD_EVF_MEM)
#define MEM_STORE	(SKD_EVF_PEBS | SKD_EVF_MEM | SKD_EVF_STORE)
#define PDIST		(SKD_EVF_PEBS | SKD_EVF_PRECDIST)

#define PEBS_BYTES	65536
#define MAX_RATE	100000	/* the module's default max_sample_rate */

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

static void caps_unusable(struct skd_pmu_caps *c)
{
	pmu_caps_skylake(c);
	c->flags &= ~SKD_PMU_USABLE;
	strcpy(c->why, "no architectural perfmon (CPUID.0AH:EAX = 0)");
}

/* Skylake's table with older PEBS record formats. */
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

/* Architectural LBR without CPL, type or call-stack filtering. */
static void caps_spr_ebx0(struct skd_pmu_caps *c)
{
	pmu_caps_sapphirerapids(c);
	c->arch_lbr_ebx = 0;
}

/* ---- scenarios ---------------------------------------------------------- */

struct want_ev {
	u32 idx;
	u64 period;
	u64 reset;
	u32 flags;
	u64 freq;
};

struct want {
	u64 eventsel[SKD_MAX_GP];
	u64 fixed_ctrl, global_ctrl, pebs_enable, pebs_data_cfg, ld_lat;
	u64 debugctl, lbr_select, arch_lbr_ctl;
	u32 arch_lbr_depth, lbr_nr;
	bool lbr_from_record;
	u64 pebs_counters, pmi_counters;
	u32 record_size, max_records, threshold, fixed_slot;
	bool large, exact;
};

struct scenario {
	const char *name;
	void (*caps)(struct skd_pmu_caps *c);
	unsigned int nr;
	struct skd_event_attr ev[SKD_MAX_EVENTS];
	u32 branch;
	bool callchain;
	bool own_defaults;		/* use the three fields below */
	u64 default_period, default_freq;
	u32 pebs_bytes;
	int err;			/* expected -errno, 0: success */
	const char *word;		/* in why when err */
	struct want want;
	struct want_ev evs[SKD_MAX_EVENTS];
};

#define EV(cfg, p)	{ .size = 40, .config = (cfg), .precise = (p) }
#define EVL(cfg, p, l)	{ .size = 40, .config = (cfg), .precise = (p), \
			  .ldlat = (l) }
#define EVP(cfg, p, per) { .size = 40, .config = (cfg), .precise = (p), \
			   .sample_period = (per) }
#define EVF(cfg, p, fl)	{ .size = 40, .config = (cfg), .precise = (p), \
			  .flags = (fl) }

/* Encodings (models.c, from Intel's event lists). */
#define CYCLES		0x003c
#define INSTR		0x00c0
#define REF_CYCLES	0x0300
#define SLOTS		0x0400
#define PSEUDO_INSTR	0x0100
#define SKL_PCYCLES	0x108001c0	/* 0x01c0 inv cmask=16 */
#define SKL_PDIST	0x01c0
#define LOADS		0x81d0
#define STORES		0x82d0
#define L1_MISS		0x08d1
#define L2_MISS		0x10d1
#define L3_MISS		0x20d1
#define LDLAT		0x01cd
#define BRANCHES	0x00c4
#define BR_MISP		0x00c5
#define UOPS_SKL	0x01c2

#define FOUR_GP		EV(BRANCHES, 0), EV(BR_MISP, 0), EV(UOPS_SKL, 0), \
			EV(L3_MISS, 0)
#define EIGHT_GP	FOUR_GP, EV(LOADS, 0), EV(STORES, 0), EV(L1_MISS, 0), \
			EV(L2_MISS, 0)
#define MEM_PP		EV(LOADS, 2), EV(STORES, 2), EV(L3_MISS, 2)

static const struct scenario scenarios[] = {
	/* ---- Skylake: v4, 4 GP, 3 fixed, PEBS fmt 3, legacy LBR ---- */
	{
		.name = "skylake cycles",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.want = {
			.fixed_ctrl = 0xb0,		/* fixed 1: OS|USR|PMI */
			.global_ctrl = 0x200000000,	/* bit 33 */
			.pmi_counters = 0x200000000,
		},
		.evs = { { 33, 100003, R100003, 0 } },
	},
	{
		/* cycles:pp is INST_RETIRED.PREC_DIST inv cmask=16 (4.3). */
		.name = "skylake cycles:pp",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(SKL_PCYCLES, 2) },
		.want = {
			/* 0x108001c0 | EN | USR | OS, no INT (PEBS) */
			.eventsel = { [1] = 0x10c301c0 },
			.global_ctrl = 0x2, .pebs_enable = 0x2,
			.pebs_counters = 0x2,
			.record_size = 200, .max_records = 327,
			.threshold = 326, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { { 1, 100003, R100003, PDIST | PLAN_PEBS } },
	},
	{
		.name = "skylake cycles:ppp",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(SKL_PCYCLES, 3) },
		.want = {
			.eventsel = { [1] = 0x10c301c0 },
			.global_ctrl = 0x2, .pebs_enable = 0x2,
			.pebs_counters = 0x2,
			.record_size = 200, .max_records = 327,
			.threshold = 326, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { { 1, 100003, R100003, PDIST | PLAN_PEBS } },
	},
	{
		.name = "skylake instructions:ppp",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(SKL_PDIST, 3) },
		.want = {
			.eventsel = { [1] = 0x4301c0 },	/* 0x1c0|EN|USR|OS */
			.global_ctrl = 0x2, .pebs_enable = 0x2,
			.pebs_counters = 0x2,
			.record_size = 200, .max_records = 327,
			.threshold = 326, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { { 1, 100003, R100003, PDIST | PLAN_PEBS } },
	},
	{
		.name = "skylake loads+stores+l3_miss:pp",
		.caps = pmu_caps_skylake, .nr = 3, .ev = { MEM_PP },
		.want = {
			.eventsel = { 0x4381d0, 0x4382d0, 0x4320d1 },
			.global_ctrl = 0x7, .pebs_enable = 0x7,
			.pebs_counters = 0x7,
			/* 327 records, one of headroom per PEBS counter */
			.record_size = 200, .max_records = 327,
			.threshold = 324, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = {
			{ 0, 100003, R100003, MEM_LOAD | PLAN_PEBS },
			{ 1, 100003, R100003, MEM_STORE | PLAN_PEBS },
			{ 2, 100003, R100003, MEM_LOAD | PLAN_PEBS },
		},
	},
	{
		.name = "skylake load latency ldlat=30",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EVL(LDLAT, 1, 30) },
		.want = {
			.eventsel = { 0x4301cd },
			.global_ctrl = 0x1,
			/* GP 0, and its load-latency bit 32 (v4, 2.6) */
			.pebs_enable = 0x100000001,
			.pebs_counters = 0x1, .ld_lat = 30,
			.record_size = 200, .max_records = 327,
			.threshold = 326, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { { 0, 100003, R100003,
			   MEM_LOAD | SKD_EVF_LDLAT | PLAN_PEBS } },
	},
	{
		.name = "skylake four GP events",
		.caps = pmu_caps_skylake, .nr = 4, .ev = { FOUR_GP },
		.want = {
			/* config | EN | USR | OS | INT */
			.eventsel = { 0x5300c4, 0x5300c5, 0x5301c2, 0x5320d1 },
			.global_ctrl = 0xf, .pmi_counters = 0xf,
		},
		.evs = {
			{ 0, 100003, R100003, SKD_EVF_PEBS },
			{ 1, 100003, R100003, SKD_EVF_PEBS },
			{ 2, 100003, R100003, SKD_EVF_PEBS },
			{ 3, 100003, R100003, MEM_LOAD },
		},
	},
	{
		.name = "skylake five GP events",
		.caps = pmu_caps_skylake, .nr = 5,
		.ev = { FOUR_GP, EV(LOADS, 0) },
		.err = -ENOSPC,
		.word = "`mem_inst_retired.all_loads` cannot be placed: 5 events need general-purpose counters; skylake has 4",
	},
	{
		.name = "skylake eight GP events",
		.caps = pmu_caps_skylake, .nr = 8, .ev = { EIGHT_GP },
		.err = -ENOSPC,
		.word = "8 events need general-purpose counters; skylake has 4",
	},
	{
		/* Fixed counters first; the GP-only events fill GP 0-3. */
		.name = "skylake cycles, instructions and four GP events",
		.caps = pmu_caps_skylake, .nr = 6,
		.ev = { EV(CYCLES, 0), FOUR_GP, EV(INSTR, 0) },
		.want = {
			.eventsel = { 0x5300c4, 0x5300c5, 0x5301c2, 0x5320d1 },
			.fixed_ctrl = 0xbb,		/* fixed 0 and 1 */
			.global_ctrl = 0x30000000f,
			.pmi_counters = 0x30000000f,
		},
		.evs = {
			{ 33, 100003, R100003, 0 },
			{ 0, 100003, R100003, SKD_EVF_PEBS },
			{ 1, 100003, R100003, SKD_EVF_PEBS },
			{ 2, 100003, R100003, SKD_EVF_PEBS },
			{ 3, 100003, R100003, MEM_LOAD },
			{ 32, 100003, R100003, SKD_EVF_PEBS },
		},
	},
	{
		.name = "skylake cycles -b any",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_ANY,
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x801,		/* LBR | FREEZE */
			.lbr_select = 0x000,		/* suppress nothing */
			.lbr_nr = 32,
		},
		.evs = { { 33, 100003, R100003, 0 } },
	},
	{
		/* Format 3 records carry no LBRs: one record per PMI. */
		.name = "skylake cycles:pp -b any",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(SKL_PCYCLES, 2) },
		.branch = SKD_BRANCH_ANY,
		.want = {
			.eventsel = { [1] = 0x10c301c0 },
			.global_ctrl = 0x2, .pebs_enable = 0x2,
			.pebs_counters = 0x2,
			.debugctl = 0x801, .lbr_select = 0, .lbr_nr = 32,
			.record_size = 200, .max_records = 327,
			.threshold = 1, .fixed_slot = 8,
			.large = false, .exact = true,
		},
		.evs = { { 1, 100003, R100003, PDIST | PLAN_PEBS } },
	},
	{
		/* Keep u+k, REL_CALL, IND_CALL, RET: suppress JCC, IND_JMP,
		 * REL_JMP, FAR (0x1c4) and enable call stack (0x200). */
		.name = "skylake cycles -j call_stack",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_CALL_STACK,
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x001,		/* no freeze (5.4) */
			.lbr_select = 0x3c4, .lbr_nr = 32,
		},
		.evs = { { 33, 100003, R100003, 0 } },
	},
	{
		/* Keep CPL_NEQ_0 and JCC: suppress 0x1ff & ~0x6 = 0x1f9. */
		.name = "skylake cycles -j u,cond",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_USER | SKD_BRANCH_COND,
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x801, .lbr_select = 0x1f9, .lbr_nr = 32,
		},
		.evs = { { 33, 100003, R100003, 0 } },
	},
	{
		/* :ppp on a table event needs its precise-distribution flag. */
		.name = "skylake uops_retired.all:ppp",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(UOPS_SKL, 3) },
		.err = -EOPNOTSUPP,
		.word = "no precise distribution for this event on skylake",
	},
	{
		/* A non-PEBS counter in the session: one record per PMI. */
		.name = "skylake cycles + loads:pp",
		.caps = pmu_caps_skylake, .nr = 2,
		.ev = { EV(CYCLES, 0), EV(LOADS, 2) },
		.want = {
			.eventsel = { 0x4381d0 },
			.fixed_ctrl = 0xb0,
			.global_ctrl = 0x200000001, .pebs_enable = 0x1,
			.pebs_counters = 0x1, .pmi_counters = 0x200000000,
			.record_size = 200, .max_records = 327,
			.threshold = 1, .fixed_slot = 8,
			.large = false, .exact = true,
		},
		.evs = {
			{ 33, 100003, R100003, 0 },
			{ 0, 100003, R100003, MEM_LOAD | PLAN_PEBS },
		},
	},
	{
		.name = "skylake loads:pp with call chains",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(LOADS, 2) },
		.callchain = true,
		.want = {
			.eventsel = { 0x4381d0 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.record_size = 200, .max_records = 327,
			.threshold = 1, .fixed_slot = 8,
			.large = false, .exact = true,
		},
		.evs = { { 0, 100003, R100003, MEM_LOAD | PLAN_PEBS } },
	},
	{
		/* Frequency: starts at 10000 (2^48 - 10000), no large PEBS. */
		.name = "skylake loads:pp at 4000 Hz",
		.caps = pmu_caps_skylake, .nr = 1,
		.ev = { { .size = 40, .config = LOADS, .precise = 2,
			  .flags = SKD_EV_FREQ, .sample_freq = 4000 } },
		.want = {
			.eventsel = { 0x4381d0 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.record_size = 200, .max_records = 327,
			.threshold = 1, .fixed_slot = 8,
			.large = false, .exact = true,
		},
		.evs = { { 0, 10000, 0xffffffffd8f0, MEM_LOAD | PLAN_PEBS,
			   4000 } },
	},
	{
		/* exclude_user: no USR (bit 16) on GP; exclude_kernel: no
		 * OS (bit 0 of the nibble) on fixed 1. */
		.name = "skylake exclude_user / exclude_kernel",
		.caps = pmu_caps_skylake, .nr = 2,
		.ev = { EVF(BRANCHES, 0, SKD_EV_EXCLUDE_USER),
			EVF(CYCLES, 0, SKD_EV_EXCLUDE_KERNEL) },
		.want = {
			.eventsel = { 0x5200c4 },	/* EN | OS | INT */
			.fixed_ctrl = 0xa0,		/* USR | PMI */
			.global_ctrl = 0x200000001,
			.pmi_counters = 0x200000001,
		},
		.evs = {
			{ 0, 100003, R100003, SKD_EVF_PEBS },
			{ 33, 100003, R100003, 0 },
		},
	},
	{
		/* Period clamps with full-width writes: max 2^47 - 1. */
		.name = "skylake period clamps",
		.caps = pmu_caps_skylake, .nr = 4,
		.ev = { EVP(BRANCHES, 0, 1), EVP(BR_MISP, 0, 1ULL << 40),
			EVP(UOPS_SKL, 0, 1ULL << 50), EVP(CYCLES, 0, 1ULL << 50) },
		.want = {
			.eventsel = { 0x5300c4, 0x5300c5, 0x5301c2 },
			.fixed_ctrl = 0xb0,
			.global_ctrl = 0x200000007, .pmi_counters = 0x200000007,
		},
		.evs = {
			{ 0, 2, 0xfffffffffffe, SKD_EVF_PEBS },
			{ 1, 1ULL << 40, 0xff0000000000, SKD_EVF_PEBS },
			{ 2, 0x7fffffffffff, 0x800000000001, SKD_EVF_PEBS },
			{ 33, 0x7fffffffffff, 0x800000000001, 0 },
		},
	},
	{
		/* Without FW writes GP periods stop at 2^31 - 1 (2.1). */
		.name = "no FW writes period clamps",
		.caps = caps_nofw, .nr = 2,
		.ev = { EVP(BRANCHES, 0, 1ULL << 40), EVP(CYCLES, 0, 1ULL << 40) },
		.want = {
			.eventsel = { 0x5300c4 },
			.fixed_ctrl = 0xb0,
			.global_ctrl = 0x200000001, .pmi_counters = 0x200000001,
		},
		.evs = {
			{ 0, 0x7fffffff, 0xffff80000001, SKD_EVF_PEBS },
			{ 33, 1ULL << 40, 0xff0000000000, 0 },
		},
	},
	{
		.name = "skylake session frequency",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.own_defaults = true, .default_period = 0,
		.default_freq = 1000, .pebs_bytes = PEBS_BYTES,
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
		},
		.evs = { { 33, 10000, 0xffffffffd8f0, 0, 1000 } },
	},
	{
		.name = "skylake event period over the session's",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EVP(CYCLES, 0, 5000) },
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
		},
		.evs = { { 33, 5000, 0xffffffffec78, 0 } },
	},

	/* ---- Ice Lake: v5, 8 GP, 4 fixed, adaptive PEBS fmt 4 ---- */
	{
		.name = "icelake cycles",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
		},
		.evs = { { 33, 100003, R100003, 0 } },
	},
	{
		/* PEBS on fixed 1: nibble OS|USR, adaptive bit 36 (2.4). */
		.name = "icelake cycles:pp",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(CYCLES, 2) },
		.want = {
			.fixed_ctrl = 0x1000000030,
			.global_ctrl = 0x200000000, .pebs_enable = 0x200000000,
			.pebs_counters = 0x200000000,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { { 33, 100003, R100003, PLAN_PEBS } },
	},
	{
		/* Precise distribution only on fixed 0 (4.3). */
		.name = "icelake cycles:ppp",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(CYCLES, 3) },
		.err = -EOPNOTSUPP,
		.word = "`r003c:ppp`: no precise distribution for this event on icelake",
	},
	{
		.name = "icelake instructions:ppp",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(PSEUDO_INSTR, 3) },
		.want = {
			.fixed_ctrl = 0x100000003,	/* OS|USR, bit 32 */
			.global_ctrl = 0x100000000, .pebs_enable = 0x100000000,
			.pebs_counters = 0x100000000,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { { 32, 100003, R100003, PDIST | PLAN_PEBS } },
	},
	{
		.name = "icelake loads+stores+l3_miss:pp",
		.caps = pmu_caps_icelake, .nr = 3, .ev = { MEM_PP },
		.want = {
			.eventsel = { 0x4004381d0, 0x4004382d0, 0x4004320d1 },
			.global_ctrl = 0x7, .pebs_enable = 0x7,
			.pebs_counters = 0x7,
			.pebs_data_cfg = 0x1,		/* MEMINFO */
			.record_size = 64, .max_records = 1024,
			.threshold = 1021, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = {
			{ 0, 100003, R100003, MEM_LOAD | PLAN_PEBS },
			{ 1, 100003, R100003, MEM_STORE | PLAN_PEBS },
			{ 2, 100003, R100003, MEM_LOAD | PLAN_PEBS },
		},
	},
	{
		/* v5: no load-latency bit in PEBS_ENABLE. */
		.name = "icelake load latency ldlat=30",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EVL(LDLAT, 1, 30) },
		.want = {
			.eventsel = { 0x4004301cd },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1, .ld_lat = 30,
			.pebs_data_cfg = 0x1,
			.record_size = 64, .max_records = 1024,
			.threshold = 1023, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { { 0, 100003, R100003,
			   MEM_LOAD | SKD_EVF_LDLAT | PLAN_PEBS } },
	},
	{
		.name = "icelake four GP events",
		.caps = pmu_caps_icelake, .nr = 4, .ev = { FOUR_GP },
		.want = {
			.eventsel = { 0x5300c4, 0x5300c5, 0x5301c2, 0x5320d1 },
			.global_ctrl = 0xf, .pmi_counters = 0xf,
		},
		.evs = {
			{ 0, 100003, R100003, SKD_EVF_PEBS },
			{ 1, 100003, R100003, SKD_EVF_PEBS },
			{ 2, 100003, R100003, 0 },	/* not in the table */
			{ 3, 100003, R100003, MEM_LOAD },
		},
	},
	{
		.name = "icelake five GP events",
		.caps = pmu_caps_icelake, .nr = 5, .ev = { FOUR_GP, EV(LOADS, 0) },
		.want = {
			.eventsel = { 0x5300c4, 0x5300c5, 0x5301c2, 0x5320d1,
				      0x5381d0 },
			.global_ctrl = 0x1f, .pmi_counters = 0x1f,
		},
		.evs = {
			{ 0, 100003, R100003, SKD_EVF_PEBS },
			{ 1, 100003, R100003, SKD_EVF_PEBS },
			{ 2, 100003, R100003, 0 },
			{ 3, 100003, R100003, MEM_LOAD },
			{ 4, 100003, R100003, MEM_LOAD },
		},
	},
	{
		.name = "icelake eight GP events",
		.caps = pmu_caps_icelake, .nr = 8, .ev = { EIGHT_GP },
		.want = {
			.eventsel = { 0x5300c4, 0x5300c5, 0x5301c2, 0x5320d1,
				      0x5381d0, 0x5382d0, 0x5308d1, 0x5310d1 },
			.global_ctrl = 0xff, .pmi_counters = 0xff,
		},
		.evs = {
			{ 0, 100003, R100003, SKD_EVF_PEBS },
			{ 1, 100003, R100003, SKD_EVF_PEBS },
			{ 2, 100003, R100003, 0 },
			{ 3, 100003, R100003, MEM_LOAD },
			{ 4, 100003, R100003, MEM_LOAD },
			{ 5, 100003, R100003, MEM_STORE },
			{ 6, 100003, R100003, MEM_LOAD },
			{ 7, 100003, R100003, MEM_LOAD },
		},
	},
	{
		.name = "icelake nine GP events",
		.caps = pmu_caps_icelake, .nr = 9,
		.ev = { EIGHT_GP, EV(0x01d1, 0) },
		.err = -ENOSPC,
		.word = "`r01d1` cannot be placed: 9 events need general-purpose counters; icelake has 8",
	},
	{
		/* Every counter: 8 GP and the four fixed events. */
		.name = "icelake twelve counters",
		.caps = pmu_caps_icelake, .nr = 12,
		.ev = { EV(SLOTS, 0), EV(REF_CYCLES, 0), EIGHT_GP,
			EV(CYCLES, 0), EV(INSTR, 0) },
		.want = {
			.eventsel = { 0x5300c4, 0x5300c5, 0x5301c2, 0x5320d1,
				      0x5381d0, 0x5382d0, 0x5308d1, 0x5310d1 },
			.fixed_ctrl = 0xbbbb,
			.global_ctrl = 0xf000000ff, .pmi_counters = 0xf000000ff,
		},
		.evs = {
			{ 35, 100003, R100003, 0 },
			{ 34, 100003, R100003, 0 },
			{ 0, 100003, R100003, SKD_EVF_PEBS },
			{ 1, 100003, R100003, SKD_EVF_PEBS },
			{ 2, 100003, R100003, 0 },
			{ 3, 100003, R100003, MEM_LOAD },
			{ 4, 100003, R100003, MEM_LOAD },
			{ 5, 100003, R100003, MEM_STORE },
			{ 6, 100003, R100003, MEM_LOAD },
			{ 7, 100003, R100003, MEM_LOAD },
			{ 33, 100003, R100003, 0 },
			{ 32, 100003, R100003, SKD_EVF_PEBS },
		},
	},
	{
		.name = "icelake thirteen events",
		.caps = pmu_caps_icelake, .nr = 13,
		.ev = { EV(SLOTS, 0), EV(REF_CYCLES, 0), EIGHT_GP,
			EV(CYCLES, 0), EV(INSTR, 0), EV(0x01d1, 0) },
		.err = -ENOSPC,
		.word = "9 events need general-purpose counters; icelake has 8",
	},
	{
		.name = "icelake cycles -b any",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_ANY,
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x801, .lbr_select = 0, .lbr_nr = 32,
		},
		.evs = { { 33, 100003, R100003, 0 } },
	},
	{
		/* LBRs in the record: 32 + 24 * 32 = 800 bytes, DATA_CFG =
		 * LBRS | 31 << 24; large PEBS stays possible. */
		.name = "icelake cycles:pp -b any",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(CYCLES, 2) },
		.branch = SKD_BRANCH_ANY,
		.want = {
			.fixed_ctrl = 0x1000000030,
			.global_ctrl = 0x200000000, .pebs_enable = 0x200000000,
			.pebs_counters = 0x200000000,
			.pebs_data_cfg = 0x1f000008,
			.debugctl = 0x801, .lbr_select = 0, .lbr_nr = 32,
			.lbr_from_record = true,
			.record_size = 800, .max_records = 81,
			.threshold = 80, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { { 33, 100003, R100003, PLAN_PEBS } },
	},
	{
		/* Memory info and LBRs: 32 + 32 + 768 = 832 bytes. */
		.name = "icelake loads:pp -j any_call",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(LOADS, 2) },
		.branch = SKD_BRANCH_ANY_CALL,
		.want = {
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
		.evs = { { 0, 100003, R100003, MEM_LOAD | PLAN_PEBS } },
	},
	{
		/* A non-PEBS event: LBRs come from the MSRs at the PMI, but
		 * the PEBS records still carry them (rule 8). */
		.name = "icelake cycles + loads:pp -b any",
		.caps = pmu_caps_icelake, .nr = 2,
		.ev = { EV(CYCLES, 0), EV(LOADS, 2) },
		.branch = SKD_BRANCH_ANY,
		.want = {
			.eventsel = { 0x4004381d0 },
			.fixed_ctrl = 0xb0,
			.global_ctrl = 0x200000001, .pebs_enable = 0x1,
			.pebs_counters = 0x1, .pmi_counters = 0x200000000,
			.pebs_data_cfg = 0x1f000009,
			.debugctl = 0x801, .lbr_select = 0, .lbr_nr = 32,
			.lbr_from_record = false,
			.record_size = 832, .max_records = 78,
			.threshold = 1, .fixed_slot = 8,
			.large = false, .exact = true,
		},
		.evs = {
			{ 33, 100003, R100003, 0 },
			{ 0, 100003, R100003, MEM_LOAD | PLAN_PEBS },
		},
	},
	{
		.name = "icelake cycles -j call_stack",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_CALL_STACK,
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x001, .lbr_select = 0x3c4, .lbr_nr = 32,
		},
		.evs = { { 33, 100003, R100003, 0 } },
	},
	{
		.name = "icelake cycles -j u,cond",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_USER | SKD_BRANCH_COND,
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x801, .lbr_select = 0x1f9, .lbr_nr = 32,
		},
		.evs = { { 33, 100003, R100003, 0 } },
	},
	{
		/* Format 4 without baseline: basic group only, no ADAPTIVE
		 * bit, and only table events on GP counters. */
		.name = "icelake without baseline loads:pp",
		.caps = caps_icl_nobaseline, .nr = 1, .ev = { EV(LOADS, 2) },
		.want = {
			.eventsel = { 0x4381d0 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { { 0, 100003, R100003, MEM_LOAD | PLAN_PEBS } },
	},

	/* ---- Sapphire Rapids: v5, 8 GP, 4 fixed, fmt 5, arch LBR ---- */
	{
		.name = "sapphirerapids cycles",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 0) },
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
		},
		.evs = { { 33, 100003, R100003, 0 } },
	},
	{
		.name = "sapphirerapids cycles:pp",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 2) },
		.want = {
			.fixed_ctrl = 0x1000000030,
			.global_ctrl = 0x200000000, .pebs_enable = 0x200000000,
			.pebs_counters = 0x200000000,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { { 33, 100003, R100003, PLAN_PEBS } },
	},
	{
		/* Precise distribution on GP 0 for any event. */
		.name = "sapphirerapids cycles:ppp",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 3) },
		.want = {
			.eventsel = { 0x40043003c },	/* |EN|USR|OS|ADAPTIVE */
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { { 0, 100003, R100003, PLAN_PEBS } },
	},
	{
		/* spr_limit_period: :ppp periods of at least 128 (2.3). */
		.name = "sapphirerapids cycles:ppp period 50",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EVP(CYCLES, 3, 50) },
		.want = {
			.eventsel = { 0x40043003c },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { { 0, 128, 0xffffffffff80, PLAN_PEBS } },
	},
	{
		/* Skylake has no such erratum: 50 stays 50. */
		.name = "skylake cycles:ppp period 50",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EVP(SKL_PCYCLES, 3, 50) },
		.want = {
			.eventsel = { [1] = 0x10c301c0 },
			.global_ctrl = 0x2, .pebs_enable = 0x2,
			.pebs_counters = 0x2,
			.record_size = 200, .max_records = 327,
			.threshold = 326, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { { 1, 50, 0xffffffffffce, PDIST | PLAN_PEBS } },
	},
	{
		.name = "sapphirerapids instructions:ppp",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(PSEUDO_INSTR, 3) },
		.want = {
			.fixed_ctrl = 0x100000003,
			.global_ctrl = 0x100000000, .pebs_enable = 0x100000000,
			.pebs_counters = 0x100000000,
			.record_size = 32, .max_records = 2048,
			.threshold = 2047, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { { 32, 100003, R100003, PDIST | PLAN_PEBS } },
	},
	{
		.name = "sapphirerapids loads+stores+l3_miss:pp",
		.caps = pmu_caps_sapphirerapids, .nr = 3, .ev = { MEM_PP },
		.want = {
			.eventsel = { 0x4004381d0, 0x4004382d0, 0x4004320d1 },
			.global_ctrl = 0x7, .pebs_enable = 0x7,
			.pebs_counters = 0x7, .pebs_data_cfg = 0x1,
			.record_size = 64, .max_records = 1024,
			.threshold = 1021, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = {
			{ 0, 100003, R100003,
			  MEM_LOAD | SKD_EVF_PRECDIST | PLAN_PEBS },
			{ 1, 100003, R100003,
			  MEM_STORE | SKD_EVF_PRECDIST | PLAN_PEBS },
			{ 2, 100003, R100003,
			  MEM_LOAD | SKD_EVF_PRECDIST | PLAN_PEBS },
		},
	},
	{
		/* Load latency not on GP 0 on Golden Cove: GP 1. */
		.name = "sapphirerapids load latency ldlat=30",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EVL(LDLAT, 2, 30) },
		.want = {
			.eventsel = { [1] = 0x4004301cd },
			.global_ctrl = 0x2, .pebs_enable = 0x2,
			.pebs_counters = 0x2, .ld_lat = 30,
			.pebs_data_cfg = 0x1,
			.record_size = 64, .max_records = 1024,
			.threshold = 1023, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { { 1, 100003, R100003,
			   MEM_LOAD | SKD_EVF_LDLAT | PLAN_PEBS } },
	},
	{
		.name = "sapphirerapids four GP events",
		.caps = pmu_caps_sapphirerapids, .nr = 4, .ev = { FOUR_GP },
		.want = {
			.eventsel = { 0x5300c4, 0x5300c5, 0x5301c2, 0x5320d1 },
			.global_ctrl = 0xf, .pmi_counters = 0xf,
		},
		.evs = {
			{ 0, 100003, R100003, PDIST },
			{ 1, 100003, R100003, PDIST },
			{ 2, 100003, R100003, 0 },
			{ 3, 100003, R100003, MEM_LOAD | SKD_EVF_PRECDIST },
		},
	},
	{
		.name = "sapphirerapids five GP events",
		.caps = pmu_caps_sapphirerapids, .nr = 5, .ev = { FOUR_GP, EV(LOADS, 0) },
		.want = {
			.eventsel = { 0x5300c4, 0x5300c5, 0x5301c2, 0x5320d1,
				      0x5381d0 },
			.global_ctrl = 0x1f, .pmi_counters = 0x1f,
		},
		.evs = {
			{ 0, 100003, R100003, PDIST },
			{ 1, 100003, R100003, PDIST },
			{ 2, 100003, R100003, 0 },
			{ 3, 100003, R100003, MEM_LOAD | SKD_EVF_PRECDIST },
			{ 4, 100003, R100003, MEM_LOAD | SKD_EVF_PRECDIST },
		},
	},
	{
		.name = "sapphirerapids eight GP events",
		.caps = pmu_caps_sapphirerapids, .nr = 8, .ev = { EIGHT_GP },
		.want = {
			.eventsel = { 0x5300c4, 0x5300c5, 0x5301c2, 0x5320d1,
				      0x5381d0, 0x5382d0, 0x5308d1, 0x5310d1 },
			.global_ctrl = 0xff, .pmi_counters = 0xff,
		},
		.evs = {
			{ 0, 100003, R100003, PDIST },
			{ 1, 100003, R100003, PDIST },
			{ 2, 100003, R100003, 0 },
			{ 3, 100003, R100003, MEM_LOAD | SKD_EVF_PRECDIST },
			{ 4, 100003, R100003, MEM_LOAD | SKD_EVF_PRECDIST },
			{ 5, 100003, R100003, MEM_STORE | SKD_EVF_PRECDIST },
			{ 6, 100003, R100003, MEM_LOAD | SKD_EVF_PRECDIST },
			{ 7, 100003, R100003, MEM_LOAD | SKD_EVF_PRECDIST },
		},
	},
	{
		/* EN | OS | USR | all seven type enables (0x7f0000). */
		.name = "sapphirerapids cycles -b any",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_ANY,
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x800,		/* FREEZE only */
			.arch_lbr_ctl = 0x7f0007, .arch_lbr_depth = 32,
			.lbr_nr = 32,
		},
		.evs = { { 33, 100003, R100003, 0 } },
	},
	{
		.name = "sapphirerapids cycles:pp -b any",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 2) },
		.branch = SKD_BRANCH_ANY,
		.want = {
			.fixed_ctrl = 0x1000000030,
			.global_ctrl = 0x200000000, .pebs_enable = 0x200000000,
			.pebs_counters = 0x200000000,
			.pebs_data_cfg = 0x1f000008,
			.debugctl = 0x800,
			.arch_lbr_ctl = 0x7f0007, .arch_lbr_depth = 32,
			.lbr_nr = 32, .lbr_from_record = true,
			.record_size = 800, .max_records = 81,
			.threshold = 80, .fixed_slot = 32,
			.large = true, .exact = true,
		},
		.evs = { { 33, 100003, R100003, PLAN_PEBS } },
	},
	{
		/* EN|OS|USR|CALL_STACK (0xf) | REL_CALL|IND_CALL|RET
		 * (0x380000); no freeze in call-stack mode. */
		.name = "sapphirerapids cycles -j call_stack",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_CALL_STACK,
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0,
			.arch_lbr_ctl = 0x38000f, .arch_lbr_depth = 32,
			.lbr_nr = 32,
		},
		.evs = { { 33, 100003, R100003, 0 } },
	},
	{
		/* EN | USR | JCC = 0x10005. */
		.name = "sapphirerapids cycles -j u,cond",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_USER | SKD_BRANCH_COND,
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x800,
			.arch_lbr_ctl = 0x10005, .arch_lbr_depth = 32,
			.lbr_nr = 32,
		},
		.evs = { { 33, 100003, R100003, 0 } },
	},
	{
		/* EN | OS (0x3); any_call: REL_CALL 19, IND_CALL 20, OTHER
		 * 22; any_ret: RET 21, OTHER 22: 0x780000. */
		.name = "sapphirerapids cycles -j k,any_call,any_ret",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_KERNEL | SKD_BRANCH_ANY_CALL |
			  SKD_BRANCH_ANY_RETURN,
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x800,
			.arch_lbr_ctl = 0x780003, .arch_lbr_depth = 32,
			.lbr_nr = 32,
		},
		.evs = { { 33, 100003, R100003, 0 } },
	},
	{
		/* ind_call 20, ind_jmp 18, call (REL_CALL) 19. */
		.name = "sapphirerapids cycles -j ind_call,ind_jmp,call",
		.caps = pmu_caps_sapphirerapids, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_IND_CALL | SKD_BRANCH_IND_JUMP |
			  SKD_BRANCH_CALL,
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x800,
			.arch_lbr_ctl = 0x1c0007, .arch_lbr_depth = 32,
			.lbr_nr = 32,
		},
		.evs = { { 33, 100003, R100003, 0 } },
	},
	{
		/* Legacy: keep u+k, IND_CALL 4, IND_JMP 6, REL_CALL 3:
		 * wanted 0x5b, suppress 0x1a4. */
		.name = "skylake cycles -j ind_call,ind_jmp,call",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_IND_CALL | SKD_BRANCH_IND_JUMP |
			  SKD_BRANCH_CALL,
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x801, .lbr_select = 0x1a4, .lbr_nr = 32,
		},
		.evs = { { 33, 100003, R100003, 0 } },
	},
	{
		/* Legacy: keep k (CPL_EQ_0), RET 5, FAR 8: wanted 0x121,
		 * suppress 0x0de. */
		.name = "skylake cycles -j k,any_ret",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_KERNEL | SKD_BRANCH_ANY_RETURN,
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x801, .lbr_select = 0x0de, .lbr_nr = 32,
		},
		.evs = { { 33, 100003, R100003, 0 } },
	},
	{
		/* Without filtering support, "any" and "u,k" are no filter. */
		.name = "arch LBR without filters: -b any -j u,k",
		.caps = caps_spr_ebx0, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_ANY | SKD_BRANCH_USER | SKD_BRANCH_KERNEL,
		.want = {
			.fixed_ctrl = 0xb0, .global_ctrl = 0x200000000,
			.pmi_counters = 0x200000000,
			.debugctl = 0x800,
			.arch_lbr_ctl = 0x7f0007, .arch_lbr_depth = 32,
			.lbr_nr = 32,
		},
		.evs = { { 33, 100003, R100003, 0 } },
	},

	/* ---- older record formats, other CPUs ---- */
	{
		/* Format 1: 176 bytes, the IP after the instruction. */
		.name = "PEBS format 1 loads:pp",
		.caps = caps_skl_fmt1, .nr = 1, .ev = { EV(LOADS, 2) },
		.want = {
			.eventsel = { 0x4381d0 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.record_size = 176, .max_records = 372,
			.threshold = 371, .fixed_slot = 8,
			.large = true, .exact = false,
		},
		.evs = { { 0, 100003, R100003, MEM_LOAD | SKD_PLAN_PEBS } },
	},
	{
		.name = "PEBS format 2 loads:pp",
		.caps = caps_skl_fmt2, .nr = 1, .ev = { EV(LOADS, 2) },
		.want = {
			.eventsel = { 0x4381d0 },
			.global_ctrl = 0x1, .pebs_enable = 0x1,
			.pebs_counters = 0x1,
			.record_size = 192, .max_records = 341,
			.threshold = 340, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = { { 0, 100003, R100003, MEM_LOAD | PLAN_PEBS } },
	},
	{
		/* An unknown model still counts, with raw events only. */
		.name = "unknown model cycles and r00c4",
		.caps = pmu_caps_ivybridge, .nr = 2,
		.ev = { EV(CYCLES, 0), EV(BRANCHES, 0) },
		.branch = SKD_BRANCH_ANY,
		.want = {
			.eventsel = { 0x5300c4 },
			.fixed_ctrl = 0xb0,
			.global_ctrl = 0x200000001, .pmi_counters = 0x200000001,
			.debugctl = 0x801, .lbr_select = 0, .lbr_nr = 16,
		},
		.evs = {
			{ 33, 100003, R100003, 0 },
			{ 0, 100003, R100003, 0 },
		},
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
		.ev = { EV(CYCLES, 0), { .size = 40, .config = CYCLES,
					 .reserved0 = { 0, 1, 0 } } },
		.err = -EINVAL, .word = "event 1: reserved",
	},
	{
		.name = "reserved1 set", .caps = pmu_caps_skylake, .nr = 1,
		.ev = { { .size = 40, .config = CYCLES, .reserved1 = 1 } },
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
		.ev = { { .size = 40, .config = CYCLES, .flags = SKD_EV_FREQ,
			  .sample_freq = MAX_RATE + 1 } },
		.err = -ERANGE, .word = "100001 samples/s is above max_sample_rate 100000",
	},
	{
		.name = "unknown branch_sample bit", .caps = pmu_caps_skylake,
		.nr = 1, .ev = { EV(CYCLES, 0) }, .branch = 1U << 10,
		.err = -EOPNOTSUPP, .word = "branch_sample bits 0x400",
	},
	{
		.name = "pseudo encoding without a fixed counter",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(0x0200, 0) },
		.err = -EINVAL,
		.word = "`r0200` is a pseudo encoding (event 0x00) that no fixed counter counts",
	},
	{
		.name = "pseudo encoding with cmask",
		.caps = pmu_caps_icelake, .nr = 1, .ev = { EV(0x01000100, 0) },
		.err = -EINVAL, .word = "takes no edge, inv or cmask",
	},
	{
		.name = "topdown slots on skylake", .caps = pmu_caps_skylake,
		.nr = 1, .ev = { EV(SLOTS, 0) },
		.err = -EOPNOTSUPP,
		.word = "`r0400` can only count on fixed counter 3, which skylake does not have",
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
		.name = "two load-latency thresholds", .caps = pmu_caps_icelake,
		.nr = 2, .ev = { EVL(LDLAT, 1, 30), EVL(LDLAT, 1, 50) },
		.err = -EINVAL,
		.word = "event 1 (`mem_trans_retired.load_latency`) wants ldlat=50 but event 0 (`mem_trans_retired.load_latency`) wants ldlat=30; the PMU has one threshold",
	},
	{
		/* The same threshold twice is one threshold. */
		.name = "two load-latency events, one threshold",
		.caps = pmu_caps_icelake, .nr = 2,
		.ev = { EVL(LDLAT, 1, 30), EVL(LDLAT, 2, 30) },
		.want = {
			.eventsel = { 0x4004301cd, 0x4004301cd },
			.global_ctrl = 0x3, .pebs_enable = 0x3,
			.pebs_counters = 0x3, .ld_lat = 30,
			.pebs_data_cfg = 0x1,
			.record_size = 64, .max_records = 1024,
			.threshold = 1022, .fixed_slot = 8,
			.large = true, .exact = true,
		},
		.evs = {
			{ 0, 100003, R100003,
			  MEM_LOAD | SKD_EVF_LDLAT | PLAN_PEBS },
			{ 1, 100003, R100003,
			  MEM_LOAD | SKD_EVF_LDLAT | PLAN_PEBS },
		},
	},
	{
		.name = "ldlat on an event without load latency",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EVL(LOADS, 1, 30) },
		.err = -EINVAL, .word = "not a load-latency event",
	},
	{
		.name = "no PEBS", .caps = caps_nopebs, .nr = 1,
		.ev = { EV(LOADS, 1) },
		.err = -EOPNOTSUPP, .word = "no PEBS on skylake",
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
		.name = "cycles:p on skylake", .caps = pmu_caps_skylake, .nr = 1,
		.ev = { EV(CYCLES, 1) },
		.err = -EOPNOTSUPP,
		.word = "`r003c` is not PEBS-capable on skylake",
	},
	{
		.name = "fixed-only PEBS without baseline",
		.caps = caps_icl_nobaseline, .nr = 1,
		.ev = { EV(PSEUDO_INSTR, 1) },
		.err = -EOPNOTSUPP, .word = "only on fixed counters",
	},
	{
		.name = "branch stacks without LBR", .caps = caps_skl_nolbr,
		.nr = 1, .ev = { EV(CYCLES, 0) }, .branch = SKD_BRANCH_ANY,
		.err = -EOPNOTSUPP, .word = "no LBR",
	},
	{
		.name = "arch LBR call stack without EBX[2]",
		.caps = caps_spr_ebx0, .nr = 1, .ev = { EV(CYCLES, 0) },
		.branch = SKD_BRANCH_CALL_STACK,
		.err = -EOPNOTSUPP, .word = "call-stack mode (CPUID.1CH:EBX[2])",
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
		.name = "PEBS buffer smaller than a record",
		.caps = pmu_caps_skylake, .nr = 1, .ev = { EV(LOADS, 1) },
		.own_defaults = true, .default_period = 100003,
		.pebs_bytes = 199,
		.err = -EINVAL, .word = "199 bytes holds no 200-byte record",
	},
	{
		.name = "two events on counter 1", .caps = pmu_caps_skylake,
		.nr = 2, .ev = { EV(SKL_PDIST, 3), EV(SKL_PCYCLES, 2) },
		.err = -ENOSPC,
		.word = "`r108001c0` needs counter 1, which `inst_retired.prec_dist` also needs",
	},
	{
		.name = "two events on fixed 0", .caps = pmu_caps_icelake,
		.nr = 2, .ev = { EV(PSEUDO_INSTR, 3), EV(PSEUDO_INSTR, 0) },
		.err = -ENOSPC,
		.word = "needs fixed counter 0, which `inst_retired.prec_dist` also needs",
	},
	{
		.name = "three :ppp on two counters", .caps = pmu_caps_sapphirerapids,
		.nr = 3, .ev = { EV(INSTR, 3), EV(INSTR, 3), EV(INSTR, 3) },
		.err = -ENOSPC,
		.word = "3 events can only use counter 0 and fixed counter 0",
	},
	{
		/* 12 counters, 16 events: refused at once. */
		.name = "sixteen events", .caps = pmu_caps_icelake, .nr = 16,
		.ev = { EIGHT_GP, EIGHT_GP },
		.err = -ENOSPC,
		.word = "16 events need general-purpose counters; icelake has 8",
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

#define CHECK(what, got, want)						\
	do {								\
		unsigned long long g_ = (got), w_ = (want);		\
		if (g_ != w_)						\
			fail_msg("%s: %s = 0x%llx, want 0x%llx", s->name, \
				 what, g_, w_);				\
	} while (0)

static void run_scenario(void **state)
{
	const struct scenario *s = *state;
	const struct want *w = &s->want;
	struct skd_pmu_plan p;
	char why[256], what[32];
	unsigned int i;
	int ret;

	memset(why, 'x', sizeof(why));
	memset(&p, 0xa5, sizeof(p));
	ret = plan(s, &p, why, sizeof(why));
	if (s->err) {
		if (ret != s->err)
			fail_msg("%s: returned %d, want %d (%s)", s->name, ret,
				 s->err, ret ? why : "planned");
		if (!strstr(why, s->word))
			fail_msg("%s: why \"%s\" lacks \"%s\"", s->name, why,
				 s->word);
		return;
	}
	if (ret)
		fail_msg("%s: returned %d: %s", s->name, ret, why);
	assert_string_equal(why, "");

	CHECK("nr", p.nr, s->nr);
	for (i = 0; i < SKD_MAX_GP; i++) {
		snprintf(what, sizeof(what), "EVENTSEL%u", i);
		CHECK(what, p.eventsel[i], w->eventsel[i]);
	}
	CHECK("FIXED_CTR_CTRL", p.fixed_ctrl, w->fixed_ctrl);
	CHECK("GLOBAL_CTRL", p.global_ctrl, w->global_ctrl);
	CHECK("PEBS_ENABLE", p.pebs_enable, w->pebs_enable);
	CHECK("PEBS_DATA_CFG", p.pebs_data_cfg, w->pebs_data_cfg);
	CHECK("PEBS_LD_LAT", p.ld_lat, w->ld_lat);
	CHECK("DEBUGCTL", p.debugctl, w->debugctl);
	CHECK("LBR_SELECT", p.lbr_select, w->lbr_select);
	CHECK("ARCH_LBR_CTL", p.arch_lbr_ctl, w->arch_lbr_ctl);
	CHECK("ARCH_LBR_DEPTH", p.arch_lbr_depth, w->arch_lbr_depth);
	CHECK("lbr_nr", p.lbr_nr, w->lbr_nr);
	CHECK("lbr_from_record", p.lbr_from_record, w->lbr_from_record);
	CHECK("pebs_counters", p.pebs_counters, w->pebs_counters);
	CHECK("pmi_counters", p.pmi_counters, w->pmi_counters);
	CHECK("pebs_record_size", p.pebs_record_size, w->record_size);
	CHECK("pebs_max_records", p.pebs_max_records, w->max_records);
	CHECK("pebs_threshold_records", p.pebs_threshold_records,
	      w->threshold);
	CHECK("ds_fixed_reset_slot", p.ds_fixed_reset_slot, w->fixed_slot);
	CHECK("large_pebs", p.large_pebs, w->large);
	CHECK("exact_ip", p.exact_ip, w->exact);

	for (i = 0; i < s->nr; i++) {
		const struct skd_planned_event *ev = &p.ev[i];
		const struct want_ev *we = &s->evs[i];

		snprintf(what, sizeof(what), "ev[%u].idx", i);
		CHECK(what, ev->idx, we->idx);
		snprintf(what, sizeof(what), "ev[%u].period", i);
		CHECK(what, ev->period, we->period);
		snprintf(what, sizeof(what), "ev[%u].reset", i);
		CHECK(what, ev->reset, we->reset);
		snprintf(what, sizeof(what), "ev[%u].flags", i);
		CHECK(what, ev->flags, we->flags);
		snprintf(what, sizeof(what), "ev[%u].freq", i);
		CHECK(what, ev->freq, we->freq);
		snprintf(what, sizeof(what), "ev[%u].event", i);
		CHECK(what, ev->event, i);
		snprintf(what, sizeof(what), "ev[%u].config", i);
		CHECK(what, ev->config, s->ev[i].config);
		snprintf(what, sizeof(what), "ev[%u].precise", i);
		CHECK(what, ev->precise, s->ev[i].precise);
		snprintf(what, sizeof(what), "ev[%u].ldlat", i);
		CHECK(what, ev->ldlat, s->ev[i].ldlat);
	}
}

/* ---- the rest ----------------------------------------------------------- */

static void test_counter_reset(void **state)
{
	(void)state;
	/* (-period) & (2^width - 1), reference 2.3 */
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
		EV(SKL_PDIST, 3), EV(SKL_PCYCLES, 2),
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
	assert_string_equal(why, "`r10800");
	req.nr_events = 1;
	assert_int_equal(skd_pmu_plan(&caps, &req, &p, why, 1), 0);
	assert_string_equal(why, "");
}

/* The events come back in the session's order, whatever was placed first. */
static void test_order_kept(void **state)
{
	static const struct skd_event_attr ev[3] = {
		EV(BRANCHES, 0), EV(SKL_PCYCLES, 2), EV(INSTR, 0),
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
	/* r108001c0 (counter 1 only) first, then r00c4 on GP 0 */
	assert_int_equal(p.ev[0].idx, 0);
	assert_int_equal(p.ev[1].idx, 1);
	assert_int_equal(p.ev[2].idx, 32);
}

/*
 * Random sessions on Ice Lake against a closed-form answer. With these
 * events the counters an event may use are (models.c, rule 2): GP 0-7
 * only; GP 0-7 or fixed 0 (instructions) or fixed 1 (cycles); fixed 0
 * only (the pseudo encoding 0x0100, and instructions:ppp); fixed 2 only
 * (0x0300); fixed 3 only (0x0400). A session fits exactly when no fixed
 * counter is wanted alone twice and the GP counters hold the GP-only
 * events plus the instructions and cycles events that find their fixed
 * counter taken. The planner must agree, give every event a counter it
 * may use, never one counter twice, and use fixed 0 and 1 when it can.
 * Timed, to show the search stays fast when the answer is no.
 */
static void test_search_random(void **state)
{
	static const struct {
		u64 config;
		u8 precise;
		u64 allowed;
	} kinds[] = {
		{ BRANCHES, 0, 0xff },
		{ LOADS, 0, 0xff },
		{ L3_MISS, 2, 0xff },
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
		unsigned int gp_only = 0, instr = 0, cycles = 0;
		unsigned int fix0 = 0, fix2 = 0, fix3 = 0, gp;
		bool fits;

		req.nr_events = 1 + n % SKD_MAX_EVENTS;
		for (i = 0; i < req.nr_events; i++) {
			seed = seed * 1103515245 + 12345;
			kind[i] = (seed >> 16) % ARRAY_SIZE(kinds);
			memset(&ev[i], 0, sizeof(ev[i]));
			ev[i].size = 40;
			ev[i].config = kinds[kind[i]].config;
			ev[i].precise = kinds[kind[i]].precise;
			switch (kinds[kind[i]].allowed) {
			case 0xff:
				gp_only++;
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
		gp = gp_only + (instr > (fix0 ? 0 : 1) ? instr - !fix0 : 0) +
		     (cycles > 1 ? cycles - 1 : 0);
		fits = fix0 <= 1 && fix2 <= 1 && fix3 <= 1 && gp <= 8;

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
	static const struct CMUnitTest extra[] = {
		cmocka_unit_test(test_counter_reset),
		cmocka_unit_test(test_why_buffers),
		cmocka_unit_test(test_order_kept),
		cmocka_unit_test(test_search_random),
	};
	struct CMUnitTest tests[NR_SCENARIOS + 4];
	size_t i;

	for (i = 0; i < NR_SCENARIOS; i++) {
		tests[i] = (struct CMUnitTest){
			.name = scenarios[i].name,
			.test_func = run_scenario,
			.initial_state = (void *)&scenarios[i],
		};
	}
	for (i = 0; i < 4; i++)
		tests[NR_SCENARIOS + i] = extra[i];
	return _cmocka_run_group_tests("plan", tests, NR_SCENARIOS + 4,
				       NULL, NULL);
}
