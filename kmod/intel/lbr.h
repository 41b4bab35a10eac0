/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LBR entries, legacy formats 0-7 and architectural LBR, decoded into the
 * one shape the ABI carries (struct skd_branch_entry). Pure, shared with
 * the host tests like pebs.c.
 */
#ifndef _SKD_INTEL_LBR_H
#define _SKD_INTEL_LBR_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "kernel_shim.h"
#endif

#include "skidless.h"

/*
 * One legacy entry from its FROM, TO and INFO MSRs (@info ignored by the
 * formats without LBR_INFO). Flag bits are moved into ->info, addresses
 * are sign-extended the way the format requires.
 */
void skd_lbr_decode_legacy(u32 fmt, u64 from, u64 to, u64 info,
			   struct skd_branch_entry *out);

/*
 * CPUID.1CH:ECX, which INFO fields an architectural LBR fills (SDM
 * 19.1.3; lbr.c intel_pmu_arch_lbr_init()): bit 0 mispredict, bit 1
 * cycle counts (timed LBR), bit 2 branch type.
 */
#define SKD_ARCH_LBR_ECX_MISPRED	0x1
#define SKD_ARCH_LBR_ECX_CYCLES		0x2
#define SKD_ARCH_LBR_ECX_TYPE		0x4

/* One architectural LBR entry; @ecx says which INFO fields are there. */
void skd_lbr_decode_arch(u64 from, u64 to, u64 info, u32 ecx,
			 struct skd_branch_entry *out);

/*
 * The entries of an adaptive PEBS record's LBR group: raw { from, to,
 * info } triples as the CPU wrote them, newest first, with plain linear
 * addresses. INFO has the arch LBR layout when @arch (its fields as
 * @arch_ecx says, as for skd_lbr_decode_arch()), else the LBR_INFO layout
 * of legacy format 5.
 */
void skd_lbr_decode_record(const u8 *raw, u32 nr, bool arch, u32 arch_ecx,
			   struct skd_branch_entry *out);

#endif /* _SKD_INTEL_LBR_H */
