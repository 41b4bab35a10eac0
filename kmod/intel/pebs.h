/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PEBS records, formats 1 to 5, decoded from the bytes the CPU (or the
 * simulated PMU) wrote into the DS buffer. Pure: built into the module for
 * the PMI drain and into the host tests, which lay records out from the
 * SDM tables independently of this code.
 */
#ifndef _SKD_INTEL_PEBS_H
#define _SKD_INTEL_PEBS_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "kernel_shim.h"
#endif

/* General registers in the order skd_pebs_rec.gprs holds them. */
enum skd_pebs_gpr {
	SKD_GPR_FLAGS, SKD_GPR_IP, SKD_GPR_AX, SKD_GPR_BX, SKD_GPR_CX,
	SKD_GPR_DX, SKD_GPR_SI, SKD_GPR_DI, SKD_GPR_BP, SKD_GPR_SP,
	SKD_GPR_R8, SKD_GPR_R9, SKD_GPR_R10, SKD_GPR_R11, SKD_GPR_R12,
	SKD_GPR_R13, SKD_GPR_R14, SKD_GPR_R15,
	SKD_GPR_NR,
};

/* Record sizes of the fixed formats. */
#define SKD_PEBS_FMT1_SIZE	176
#define SKD_PEBS_FMT2_SIZE	192
#define SKD_PEBS_FMT3_SIZE	200
/* Adaptive groups. */
#define SKD_PEBS_BASIC_SIZE	32
#define SKD_PEBS_MEMINFO_SIZE	32
#define SKD_PEBS_GPRS_SIZE	144
#define SKD_PEBS_XMMS_SIZE	256
#define SKD_PEBS_LBR_SIZE	24	/* per entry */

struct skd_pebs_rec {
	u32 size;			/* bytes of this record */
	u64 ip;				/* eventing IP if exact, else next */
	bool exact;			/* ip is the eventing instruction */
	u64 applicable;			/* counters (GLOBAL_STATUS layout) */
	bool has_mem;
	u64 addr;			/* data linear address */
	u64 source;			/* data source (dse / aux), raw */
	u64 latency;			/* load latency field, raw */
	bool has_tsc;
	u64 tsc;
	bool has_gprs;
	u64 gprs[SKD_GPR_NR];		/* architectural state at the assist */
	u32 nr_lbr;			/* adaptive: LBR entries in the record */
	const u8 *lbr;			/* { from, to, info } x nr_lbr, raw */
};

/*
 * Size of one record. Formats 1-3 are fixed; format 4 and 5 depend on
 * whether adaptive PEBS is on (@baseline) and on MSR_PEBS_DATA_CFG.
 * 0 for a format skidless does not decode.
 */
u32 skd_pebs_record_size(u32 fmt, bool baseline, u64 data_cfg);

/*
 * Decode the record at @p, @avail bytes readable. Returns its size, or
 * -EINVAL when it cannot be a record of this format (a fixed-size record
 * longer than @avail; an adaptive record whose own size is too small for
 * its groups, beyond @avail or not a multiple of 8; an unknown format).
 * Never reads outside [@p, @p + @avail). Any context.
 */
int skd_pebs_decode(const void *p, u32 avail, u32 fmt, bool baseline,
		    struct skd_pebs_rec *out);

/*
 * skd_pebs_decode() without the GPRs, which a sample does not carry:
 * ->has_gprs and ->gprs[] are left as they are. For the PMI's drain,
 * where copying (formats 1-3) or clearing them costs more than the rest
 * of the record.
 */
int skd_pebs_decode_sample(const void *p, u32 avail, u32 fmt, bool baseline,
			   struct skd_pebs_rec *out);

#endif /* _SKD_INTEL_PEBS_H */
