// SPDX-License-Identifier: GPL-2.0
/*
 * LBR entries into struct skd_branch_entry (lbr.h), written from the
 * LBR format table of the SDM (Vol. 3B, "Last Branch Record Stack" and
 * "Architectural Last Branch Records") and perf's decoder
 * (arch/x86/events/intel/lbr.c): legacy formats 0-7 and architectural LBR.
 *
 * Flag bits are taken out of the raw FROM/TO/INFO values into ->info, in
 * the SKD_BR_INFO_* layout, and only the bits the format defines: reserved
 * INFO bits never reach user space. Addresses that carried flags are
 * sign-extended from the highest address bit the format leaves.
 *
 * Pure and lock-free: called from the PMI.
 */
#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/string.h>
#else
#include <string.h>
#endif

#include "msrs.h"
#include "lbr.h"

/* Raw bits of FROM (formats 3, 4, 6), LBR_INFO (5, 7) and arch LBR INFO. */
#define SKD_LBR_RAW_MISPRED	BIT_ULL(63)
#define SKD_LBR_RAW_IN_TX	BIT_ULL(62)
#define SKD_LBR_RAW_ABORT	BIT_ULL(61)
#define SKD_LBR_RAW_CYC_VALID	BIT_ULL(60)	/* arch LBR only */
#define SKD_LBR_RAW_TYPE_SHIFT	56		/* arch LBR only, 59:56 */
#define SKD_LBR_RAW_TYPE_MASK	0xfULL
#define SKD_LBR_RAW_CYCLES	0xffffULL	/* INFO[15:0] */
#define SKD_LBR_TO_CYCLES_SHIFT	48		/* format 6: TO[63:48] */

/* One entry of an adaptive PEBS LBR group: { from, to, info }. */
#define SKD_LBR_RECORD_ENTRY	24

/* @v with bits above @bit replaced by copies of bit @bit. */
static inline u64 skd_sext(u64 v, unsigned int bit)
{
	unsigned int shift = 63 - bit;

	return (u64)((s64)(v << shift) >> shift);
}

/* The MISPRED/IN_TX/ABORT bits of @raw, at their SKD_BR_INFO_* places. */
static inline u64 skd_lbr_flags(u64 raw, bool tsx)
{
	u64 info = 0;

	if (raw & SKD_LBR_RAW_MISPRED)
		info |= SKD_BR_INFO_MISPRED;
	if (tsx && (raw & SKD_LBR_RAW_IN_TX))
		info |= SKD_BR_INFO_IN_TX;
	if (tsx && (raw & SKD_LBR_RAW_ABORT))
		info |= SKD_BR_INFO_ABORT;
	return info;
}

void skd_lbr_decode_legacy(u32 fmt, u64 from, u64 to, u64 info,
			   struct skd_branch_entry *out)
{
	switch (fmt) {
	case SKD_LBR_FMT_32:
		/* One MSR: from in the low half, to in the high half. */
		out->from = from & 0xffffffffULL;
		out->to = from >> 32;
		out->info = 0;
		break;
	case SKD_LBR_FMT_EIP_FLAGS:
		out->from = skd_sext(from, 62);
		out->to = to;
		out->info = skd_lbr_flags(from, false);
		break;
	case SKD_LBR_FMT_EIP_FLAGS2:
		out->from = skd_sext(from, 60);
		out->to = to;
		out->info = skd_lbr_flags(from, true);
		break;
	case SKD_LBR_FMT_INFO:
	case SKD_LBR_FMT_INFO2:
		out->from = from;
		out->to = to;
		out->info = skd_lbr_flags(info, fmt == SKD_LBR_FMT_INFO) |
			    SKD_BR_INFO_CYC_VALID |
			    (info & SKD_LBR_RAW_CYCLES);
		break;
	case SKD_LBR_FMT_TIME:
		out->from = skd_sext(from, 62);
		out->to = skd_sext(to, 47);
		out->info = skd_lbr_flags(from, false) | SKD_BR_INFO_CYC_VALID |
			    ((to >> SKD_LBR_TO_CYCLES_SHIFT) & SKD_LBR_RAW_CYCLES);
		break;
	case SKD_LBR_FMT_LIP:
	case SKD_LBR_FMT_EIP:
	default:
		/* Plain 64-bit addresses; unknown formats are taken as such. */
		out->from = from;
		out->to = to;
		out->info = 0;
		break;
	}
}

void skd_lbr_decode_arch(u64 from, u64 to, u64 info, u32 ecx,
			 struct skd_branch_entry *out)
{
	u64 v = skd_lbr_flags(info, true);

	if (!(ecx & SKD_ARCH_LBR_ECX_MISPRED))
		v &= ~SKD_BR_INFO_MISPRED;
	if ((ecx & SKD_ARCH_LBR_ECX_CYCLES) && (info & SKD_LBR_RAW_CYC_VALID))
		v |= SKD_BR_INFO_CYC_VALID | (info & SKD_LBR_RAW_CYCLES);
	if (ecx & SKD_ARCH_LBR_ECX_TYPE)
		v |= SKD_BR_INFO_TYPE_VALID |
		     (((info >> SKD_LBR_RAW_TYPE_SHIFT) & SKD_LBR_RAW_TYPE_MASK)
		      << SKD_BR_INFO_TYPE_SHIFT);
	out->from = from;
	out->to = to;
	out->info = v;
}

static inline u64 skd_lbr_word(const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

void skd_lbr_decode_record(const u8 *raw, u32 nr, bool arch, u32 arch_ecx,
			   struct skd_branch_entry *out)
{
	u64 from, to, info;
	u32 i;

	for (i = 0; i < nr; i++, raw += SKD_LBR_RECORD_ENTRY) {
		from = skd_lbr_word(raw);
		to = skd_lbr_word(raw + 8);
		info = skd_lbr_word(raw + 16);
		if (arch)
			skd_lbr_decode_arch(from, to, info, arch_ecx, &out[i]);
		else
			skd_lbr_decode_legacy(SKD_LBR_FMT_INFO, from, to, info,
					      &out[i]);
	}
}
