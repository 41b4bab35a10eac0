/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intel PMU registers skidless programs, with the bits it uses. Written
 * from the SDM's performance monitoring chapters (Vol. 3B, "Architectural
 * Performance Monitoring", "Debug Store", "Last Branch Records"), with
 * <asm/msr-index.h>'s names in the comments; plain constants so the
 * pure planning and decoding code also builds on the host.
 */
#ifndef _SKD_INTEL_MSRS_H
#define _SKD_INTEL_MSRS_H

#ifdef __KERNEL__
#include <linux/bits.h>
#else
#include "kernel_shim.h"
#endif

/* Counters and their controls. */
#define SKD_MSR_PMC(i)			(0x0c1 + (i))	/* 32-bit writes */
#define SKD_MSR_A_PMC(i)		(0x4c1 + (i))	/* full-width writes */
#define SKD_MSR_EVENTSEL(i)		(0x186 + (i))
#define SKD_MSR_FIXED_CTR(j)		(0x309 + (j))
#define SKD_MSR_FIXED_CTR_CTRL		0x38d
#define SKD_MSR_GLOBAL_STATUS		0x38e
#define SKD_MSR_GLOBAL_CTRL		0x38f
#define SKD_MSR_GLOBAL_OVF_CTRL		0x390	/* write 1 to clear status */
#define SKD_MSR_PERF_CAPABILITIES	0x345
#define SKD_MSR_MISC_ENABLE		0x1a0

/* PEBS and the DS save area. */
#define SKD_MSR_PEBS_ENABLE		0x3f1
#define SKD_MSR_PEBS_DATA_CFG		0x3f2
#define SKD_MSR_PEBS_LD_LAT		0x3f6
#define SKD_MSR_PEBS_FRONTEND		0x3f7
#define SKD_MSR_OFFCORE_RSP(i)		(0x1a6 + (i))
#define SKD_MSR_TSX_FORCE_ABORT		0x10f
#define SKD_MSR_DS_AREA			0x600

/* LBR: legacy, with per-model ranges, and architectural. */
#define SKD_MSR_DEBUGCTL		0x1d9
#define SKD_MSR_LBR_SELECT		0x1c8
#define SKD_MSR_LBR_TOS			0x1c9
#define SKD_MSR_LBR_NHM_FROM		0x680
#define SKD_MSR_LBR_NHM_TO		0x6c0
#define SKD_MSR_LBR_INFO		0xdc0
#define SKD_MSR_ARCH_LBR_CTL		0x14ce
#define SKD_MSR_ARCH_LBR_DEPTH		0x14cf
#define SKD_MSR_ARCH_LBR_FROM		0x1500
#define SKD_MSR_ARCH_LBR_TO		0x1600
#define SKD_MSR_ARCH_LBR_INFO		0x1200

/* IA32_PERFEVTSELx */
#define SKD_EVSEL_EVENT			0x000000ffULL
#define SKD_EVSEL_UMASK			0x0000ff00ULL
#define SKD_EVSEL_USR			BIT_ULL(16)
#define SKD_EVSEL_OS			BIT_ULL(17)
#define SKD_EVSEL_EDGE			BIT_ULL(18)
#define SKD_EVSEL_INT			BIT_ULL(20)
#define SKD_EVSEL_ANY			BIT_ULL(21)	/* perfmon v3-v4 */
#define SKD_EVSEL_EN			BIT_ULL(22)
#define SKD_EVSEL_INV			BIT_ULL(23)
#define SKD_EVSEL_CMASK			0xff000000ULL
#define SKD_EVSEL_ADAPTIVE		BIT_ULL(34)	/* adaptive PEBS record */
/* The part of an event's config the user may set. */
#define SKD_EVSEL_USER_MASK		(SKD_EVSEL_EVENT | SKD_EVSEL_UMASK | \
					 SKD_EVSEL_EDGE | SKD_EVSEL_INV | \
					 SKD_EVSEL_CMASK)

/* IA32_FIXED_CTR_CTRL: a nibble per fixed counter, plus adaptive bits. */
#define SKD_FIXED_OS(j)			BIT_ULL(4 * (j))
#define SKD_FIXED_USR(j)		BIT_ULL(4 * (j) + 1)
#define SKD_FIXED_PMI(j)		BIT_ULL(4 * (j) + 3)
#define SKD_FIXED_NIBBLE(j)		(0xfULL << (4 * (j)))
#define SKD_FIXED_ADAPTIVE(j)		BIT_ULL(32 + 4 * (j))

/* IA32_PERF_GLOBAL_CTRL / _STATUS bit of a counter. */
#define SKD_GLOBAL_GP(i)		BIT_ULL(i)
#define SKD_GLOBAL_FIXED(j)		BIT_ULL(32 + (j))
#define SKD_STATUS_LBR_FROZEN		BIT_ULL(58)
#define SKD_STATUS_CTR_FROZEN		BIT_ULL(59)
#define SKD_STATUS_BUFFER_OVF		BIT_ULL(62)	/* PEBS threshold */

/* IA32_PEBS_ENABLE */
#define SKD_PEBS_EN_GP(i)		BIT_ULL(i)
#define SKD_PEBS_EN_FIXED(j)		BIT_ULL(32 + (j))	/* PEBS_ALL parts */
#define SKD_PEBS_EN_LDLAT(i)		BIT_ULL(32 + (i))	/* perfmon < 5 */

/* MSR_PEBS_DATA_CFG (adaptive PEBS) */
#define SKD_DATACFG_MEMINFO		BIT_ULL(0)
#define SKD_DATACFG_GPRS		BIT_ULL(1)
#define SKD_DATACFG_XMMS		BIT_ULL(2)
#define SKD_DATACFG_LBRS		BIT_ULL(3)
#define SKD_DATACFG_LBR_SHIFT		24	/* entries - 1 */

/* IA32_DEBUGCTL */
#define SKD_DEBUGCTL_LBR		BIT_ULL(0)
#define SKD_DEBUGCTL_FREEZE_LBRS_ON_PMI	BIT_ULL(11)
#define SKD_DEBUGCTL_FREEZE_PERFMON_ON_PMI BIT_ULL(12)

/* Legacy MSR_LBR_SELECT: bits 0-8 suppress, bit 9 enables call stacks. */
#define SKD_LBRSEL_CPL_EQ_0		BIT_ULL(0)	/* no ring-0 branches */
#define SKD_LBRSEL_CPL_NEQ_0		BIT_ULL(1)	/* no user branches */
#define SKD_LBRSEL_JCC			BIT_ULL(2)
#define SKD_LBRSEL_NEAR_REL_CALL	BIT_ULL(3)
#define SKD_LBRSEL_NEAR_IND_CALL	BIT_ULL(4)
#define SKD_LBRSEL_NEAR_RET		BIT_ULL(5)
#define SKD_LBRSEL_NEAR_IND_JMP		BIT_ULL(6)
#define SKD_LBRSEL_NEAR_REL_JMP		BIT_ULL(7)
#define SKD_LBRSEL_FAR_BRANCH		BIT_ULL(8)
#define SKD_LBRSEL_CALL_STACK		BIT_ULL(9)
#define SKD_LBRSEL_SUPPRESS_ALL		0x1ffULL

/* MSR_ARCH_LBR_CTL: enable polarity, unlike LBR_SELECT. */
#define SKD_ARCH_LBR_EN			BIT_ULL(0)
#define SKD_ARCH_LBR_OS			BIT_ULL(1)
#define SKD_ARCH_LBR_USR		BIT_ULL(2)
#define SKD_ARCH_LBR_CALL_STACK		BIT_ULL(3)
#define SKD_ARCH_LBR_JCC		BIT_ULL(16)
#define SKD_ARCH_LBR_REL_JMP		BIT_ULL(17)
#define SKD_ARCH_LBR_IND_JMP		BIT_ULL(18)
#define SKD_ARCH_LBR_REL_CALL		BIT_ULL(19)
#define SKD_ARCH_LBR_IND_CALL		BIT_ULL(20)
#define SKD_ARCH_LBR_RET		BIT_ULL(21)
#define SKD_ARCH_LBR_OTHER		BIT_ULL(22)

/* MSR_TSX_FORCE_ABORT */
#define SKD_TFA_RTM_FORCE_ABORT		BIT_ULL(0)

/* IA32_MISC_ENABLE */
#define SKD_MISC_PEBS_UNAVAIL		BIT_ULL(12)

/* IA32_PERF_CAPABILITIES */
#define SKD_PERFCAP_LBR_FMT(c)		((c) & 0x3f)
#define SKD_PERFCAP_PEBS_TRAP		BIT_ULL(6)
#define SKD_PERFCAP_PEBS_ARCH_REG	BIT_ULL(7)
#define SKD_PERFCAP_PEBS_FMT(c)		(((c) >> 8) & 0xf)
#define SKD_PERFCAP_FW_WRITES		BIT_ULL(13)
#define SKD_PERFCAP_PEBS_BASELINE	BIT_ULL(14)

/*
 * DS save area (64-bit layout). Fixed counter j resets at slot 8 + j
 * before PEBS format 5 and at slot 32 + j from format 5 on.
 */
#define SKD_DS_PEBS_BASE		0x20
#define SKD_DS_PEBS_INDEX		0x28
#define SKD_DS_PEBS_MAX			0x30
#define SKD_DS_PEBS_THRESHOLD		0x38
#define SKD_DS_PEBS_RESET		0x40	/* u64 per counter */
#define SKD_DS_RESET_FIXED_FMT4		8
#define SKD_DS_RESET_FIXED_FMT5		32
#define SKD_DS_SIZE			0x1c0	/* 48 reset slots */

/* LBR record formats in IA32_PERF_CAPABILITIES[5:0]. */
enum skd_lbr_format {
	SKD_LBR_FMT_32		= 0,
	SKD_LBR_FMT_LIP		= 1,
	SKD_LBR_FMT_EIP		= 2,
	SKD_LBR_FMT_EIP_FLAGS	= 3,
	SKD_LBR_FMT_EIP_FLAGS2	= 4,
	SKD_LBR_FMT_INFO	= 5,
	SKD_LBR_FMT_TIME	= 6,
	SKD_LBR_FMT_INFO2	= 7,
};

#define SKD_MAX_GP		8
#define SKD_MAX_FIXED		4
#define SKD_MAX_LBR		64	/* arch LBR depth can reach 64 */

#endif /* _SKD_INTEL_MSRS_H */
