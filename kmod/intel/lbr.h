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
 * One architectural LBR entry; @cycles_ok: CPUID.1CH:ECX[1] (timed LBR)
 * and @type_ok: CPUID.1CH:ECX[2] say which INFO fields are meaningful.
 */
void skd_lbr_decode_arch(u64 from, u64 to, u64 info, bool cycles_ok,
			 bool type_ok, struct skd_branch_entry *out);

/*
 * The entries of an adaptive PEBS record's LBR group: raw { from, to,
 * info } triples as the CPU wrote them, newest first, with plain linear
 * addresses. INFO has the arch LBR layout when @arch (decoded as by
 * skd_lbr_decode_arch with everything supported), else the LBR_INFO
 * layout of legacy format 5.
 */
void skd_lbr_decode_record(const u8 *raw, u32 nr, bool arch,
			   struct skd_branch_entry *out);

#endif /* _SKD_INTEL_LBR_H */
