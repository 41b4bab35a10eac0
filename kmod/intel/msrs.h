/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Intel PMU registers skidless programs, by the kernel's names
 * (<asm/msr-index.h>, <asm/perf_event.h>), and the bits of them the kernel
 * has no name for outside arch/x86/events, from the SDM's performance
 * monitoring chapters (Vol. 3B, "Architectural Performance Monitoring",
 * "Debug Store", "Last Branch Records"). Host builds of the pure planning
 * and decoding code get the same names from kmod/host/msr_names.h, which
 * tests/msr_names.sh checks against the kernel's own headers.
 */
#ifndef _SKD_INTEL_MSRS_H
#define _SKD_INTEL_MSRS_H

#ifdef __KERNEL__
#include <linux/bits.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>
#else
#include "kernel_shim.h"
#include "msr_names.h"
#endif

/* Counter @i's registers: one MSR after the other. */
#define SKD_MSR_PMC(i)		(MSR_ARCH_PERFMON_PERFCTR0 + (i))  /* 32-bit writes */
#define SKD_MSR_A_PMC(i)	(MSR_IA32_PMC0 + (i))	/* full-width writes */
#define SKD_MSR_EVENTSEL(i)	(MSR_ARCH_PERFMON_EVENTSEL0 + (i))
#define SKD_MSR_FIXED_CTR(j)	(MSR_CORE_PERF_FIXED_CTR0 + (j))
#define SKD_MSR_OFFCORE_RSP(i)	(MSR_OFFCORE_RSP_0 + (i))

/* The part of an event's config the user may set. */
#define SKD_EVSEL_USER_MASK	(ARCH_PERFMON_EVENTSEL_EVENT |		\
				 ARCH_PERFMON_EVENTSEL_UMASK |		\
				 ARCH_PERFMON_EVENTSEL_EDGE |		\
				 ARCH_PERFMON_EVENTSEL_INV |		\
				 ARCH_PERFMON_EVENTSEL_CMASK)

/* IA32_FIXED_CTR_CTRL: a nibble per fixed counter, plus adaptive bits. */
#define SKD_FIXED_OS(j)			BIT_ULL(4 * (j))
#define SKD_FIXED_USR(j)		BIT_ULL(4 * (j) + 1)
#define SKD_FIXED_ANY(j)		BIT_ULL(4 * (j) + 2)	/* AnyThread: v3, v4 */
#define SKD_FIXED_PMI(j)		BIT_ULL(4 * (j) + 3)
#define SKD_FIXED_NIBBLE(j)		(0xfULL << (4 * (j)))
#define SKD_FIXED_ADAPTIVE(j)		BIT_ULL(32 + 4 * (j))

/* IA32_PERF_GLOBAL_CTRL / _STATUS bit of a counter. */
#define SKD_GLOBAL_GP(i)		BIT_ULL(i)
#define SKD_GLOBAL_FIXED(j)		BIT_ULL(INTEL_PMC_IDX_FIXED + (j))

/* IA32_PEBS_ENABLE */
#define SKD_PEBS_EN_GP(i)		BIT_ULL(i)
#define SKD_PEBS_EN_FIXED(j)		BIT_ULL(32 + (j))	/* PEBS_ALL parts */
#define SKD_PEBS_EN_LDLAT(i)		BIT_ULL(32 + (i))	/* perfmon < 5 */

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

/*
 * MSR_ARCH_LBR_CTL: enable polarity, unlike LBR_SELECT. The kernel's
 * headers name the enable (ARCH_LBR_CTL_LBREN), the CPL pair and the call
 * stack (ARCH_LBR_CTL_STACK); the single bits are these.
 */
#define SKD_ARCH_LBR_OS			BIT_ULL(1)
#define SKD_ARCH_LBR_USR		BIT_ULL(2)
#define SKD_ARCH_LBR_JCC		BIT_ULL(16)
#define SKD_ARCH_LBR_REL_JMP		BIT_ULL(17)
#define SKD_ARCH_LBR_IND_JMP		BIT_ULL(18)
#define SKD_ARCH_LBR_REL_CALL		BIT_ULL(19)
#define SKD_ARCH_LBR_IND_CALL		BIT_ULL(20)
#define SKD_ARCH_LBR_RET		BIT_ULL(21)
#define SKD_ARCH_LBR_OTHER		BIT_ULL(22)

/* IA32_PERF_CAPABILITIES fields the kernel's headers leave unnamed. */
#define SKD_PERFCAP_LBR_FMT(c)		((c) & 0x3f)
#define SKD_PERFCAP_PEBS_FMT(c)		(((c) & PERF_CAP_PEBS_FORMAT) >> 8)
#define SKD_PERFCAP_FW_WRITES		BIT_ULL(13)

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
