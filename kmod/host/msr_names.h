/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For host builds only (the planner and decoders in the command and the
 * tests): the names <asm/msr-index.h> and <asm/perf_event.h> give the PMU
 * registers and bits skidless uses, with their values from the SDM
 * (Vol. 3B, "Architectural Performance Monitoring", "Debug Store", "Last
 * Branch Records"; Vol. 4, "Model-Specific Registers"). The module builds
 * against the kernel's own headers; tests/msr_names.sh checks every name
 * here against those of each kernel it builds for.
 */
#ifndef _SKD_HOST_MSR_NAMES_H
#define _SKD_HOST_MSR_NAMES_H

#ifdef __KERNEL__
#error "kernel code takes these names from <asm/msr-index.h>, <asm/perf_event.h>"
#endif

/* Counters, event selects, fixed counters, global control and status. */
#define MSR_ARCH_PERFMON_PERFCTR0	0x0c1	/* 32-bit sign-extended writes */
#define MSR_IA32_PMC0			0x4c1	/* full-width writes */
#define MSR_ARCH_PERFMON_EVENTSEL0	0x186
#define MSR_CORE_PERF_FIXED_CTR0	0x309
#define MSR_CORE_PERF_FIXED_CTR_CTRL	0x38d
#define MSR_CORE_PERF_GLOBAL_STATUS	0x38e
#define MSR_CORE_PERF_GLOBAL_CTRL	0x38f
#define MSR_CORE_PERF_GLOBAL_OVF_CTRL	0x390	/* write 1 to clear status */
#define MSR_IA32_PERF_CAPABILITIES	0x345
#define MSR_IA32_MISC_ENABLE		0x1a0

/* PEBS, its extra MSRs, and the DS save area. */
#define MSR_IA32_PEBS_ENABLE		0x3f1
#define MSR_PEBS_DATA_CFG		0x3f2
#define MSR_PEBS_LD_LAT_THRESHOLD	0x3f6
#define MSR_PEBS_FRONTEND		0x3f7
#define MSR_OFFCORE_RSP_0		0x1a6
#define MSR_TSX_FORCE_ABORT		0x10f
#define MSR_IA32_DS_AREA		0x600

/* LBR: legacy (Nehalem and later ranges) and architectural. */
#define MSR_IA32_DEBUGCTLMSR		0x1d9
#define MSR_LBR_SELECT			0x1c8
#define MSR_LBR_TOS			0x1c9
#define MSR_LBR_NHM_FROM		0x680
#define MSR_LBR_NHM_TO			0x6c0
#define MSR_LBR_INFO_0			0xdc0
#define MSR_ARCH_LBR_CTL		0x14ce
#define MSR_ARCH_LBR_DEPTH		0x14cf
#define MSR_ARCH_LBR_FROM_0		0x1500
#define MSR_ARCH_LBR_TO_0		0x1600
#define MSR_ARCH_LBR_INFO_0		0x1200

/* IA32_PERFEVTSELx */
#define ARCH_PERFMON_EVENTSEL_EVENT	0x000000ffULL
#define ARCH_PERFMON_EVENTSEL_UMASK	0x0000ff00ULL
#define ARCH_PERFMON_EVENTSEL_USR	(1ULL << 16)
#define ARCH_PERFMON_EVENTSEL_OS	(1ULL << 17)
#define ARCH_PERFMON_EVENTSEL_EDGE	(1ULL << 18)
#define ARCH_PERFMON_EVENTSEL_INT	(1ULL << 20)
#define ARCH_PERFMON_EVENTSEL_ANY	(1ULL << 21)	/* perfmon v3-v4 */
#define ARCH_PERFMON_EVENTSEL_ENABLE	(1ULL << 22)
#define ARCH_PERFMON_EVENTSEL_INV	(1ULL << 23)
#define ARCH_PERFMON_EVENTSEL_CMASK	0xff000000ULL
#define ICL_EVENTSEL_ADAPTIVE		(1ULL << 34)	/* adaptive record */

/* Where the fixed counters start in GLOBAL_CTRL and GLOBAL_STATUS. */
#define INTEL_PMC_IDX_FIXED		32

/* IA32_PERF_GLOBAL_STATUS */
#define GLOBAL_STATUS_LBRS_FROZEN	(1ULL << 58)
#define GLOBAL_STATUS_COUNTERS_FROZEN	(1ULL << 59)
#define GLOBAL_STATUS_BUFFER_OVF	(1ULL << 62)	/* PEBS threshold */

/* MSR_PEBS_DATA_CFG (adaptive PEBS) */
#define PEBS_DATACFG_MEMINFO		(1ULL << 0)
#define PEBS_DATACFG_GP			(1ULL << 1)
#define PEBS_DATACFG_XMMS		(1ULL << 2)
#define PEBS_DATACFG_LBRS		(1ULL << 3)
#define PEBS_DATACFG_LBR_SHIFT		24	/* entries - 1 */

/* IA32_DEBUGCTL */
#define DEBUGCTLMSR_LBR			(1UL << 0)
#define DEBUGCTLMSR_FREEZE_LBRS_ON_PMI	(1UL << 11)
#define DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI (1UL << 12)

/* MSR_ARCH_LBR_CTL */
#define ARCH_LBR_CTL_LBREN		(1UL << 0)
#define ARCH_LBR_CTL_STACK		(1ULL << 3)

/* MSR_TSX_FORCE_ABORT, IA32_MISC_ENABLE */
#define MSR_TFA_RTM_FORCE_ABORT		(1ULL << 0)
#define MSR_IA32_MISC_ENABLE_PEBS_UNAVAIL (1ULL << 12)

/* IA32_PERF_CAPABILITIES */
#define PERF_CAP_PEBS_TRAP		(1ULL << 6)
#define PERF_CAP_ARCH_REG		(1ULL << 7)
#define PERF_CAP_PEBS_FORMAT		0xf00
#define PERF_CAP_PEBS_BASELINE		(1ULL << 14)

#endif /* _SKD_HOST_MSR_NAMES_H */
