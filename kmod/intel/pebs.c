// SPDX-License-Identifier: GPL-2.0
/*
 * PEBS records, formats 1 to 5 (pebs.h), written from the record tables
 * of ../shared/ref/pmu-intel.md section 4.
 *
 * Formats 1-3 are fixed arrays of u64 slots. Formats 4 and 5 with adaptive
 * PEBS are a basic group whose first word gives the record's own size
 * (bits 63:48) and which groups follow (the MSR_PEBS_DATA_CFG bits), then
 * those groups in a fixed order. Such a record is trusted only as far as
 * it is consistent: its size must cover the groups it announces, fit in
 * what the caller can read and keep the next record 8-byte aligned.
 *
 * Runs in the PMI (NMI context): no allocation, no locks, and no read
 * outside [p, p + avail) whatever the bytes say.
 */
#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <string.h>
#endif

#include "msrs.h"
#include "pebs.h"

/* Formats 1-3: u64 slots in record order. */
enum {
	FIX_GPRS,			/* flags, ip, ax ... r15: SKD_GPR_* */
	FIX_STATUS = FIX_GPRS + SKD_GPR_NR,
	FIX_DLA,
	FIX_DSE,
	FIX_LAT,
	FIX_REAL_IP,			/* format 2+ */
	FIX_TSX_TUNING,
	FIX_TSC,			/* format 3 */
};

/* Adaptive groups: u64 slots from the start of each group. */
enum { BASIC_FORMAT_SIZE, BASIC_IP, BASIC_APPLICABLE, BASIC_TSC };
enum { MEM_ADDRESS, MEM_AUX, MEM_LATENCY, MEM_TSX_TUNING };

#define SKD_PEBS_SIZE_SHIFT	48	/* basic format_size: record bytes */
#define SKD_PEBS_LBR_NR_MASK	0xff	/* DATA_CFG[31:24]: entries - 1 */

/* RFLAGS bit 3 is reserved (perf reuses it as PERF_EFLAGS_EXACT). */
#define SKD_PEBS_RFLAGS_RSVD	BIT_ULL(3)

/* The adaptive GPR group's hardware order, as SKD_GPR_* indices. */
static const u8 skd_adaptive_gprs[SKD_GPR_NR] = {
	SKD_GPR_FLAGS, SKD_GPR_IP, SKD_GPR_AX, SKD_GPR_CX, SKD_GPR_DX,
	SKD_GPR_BX, SKD_GPR_SP, SKD_GPR_BP, SKD_GPR_SI, SKD_GPR_DI,
	SKD_GPR_R8, SKD_GPR_R9, SKD_GPR_R10, SKD_GPR_R11, SKD_GPR_R12,
	SKD_GPR_R13, SKD_GPR_R14, SKD_GPR_R15,
};

/* The DS buffer is 8-byte aligned but the caller's bytes need not be. */
static inline u64 skd_slot(const u8 *p, unsigned int slot)
{
	u64 v;

	memcpy(&v, p + 8 * slot, sizeof(v));
	return v;
}

/* Bytes of the groups @flags (DATA_CFG layout) announce, basic included. */
static u32 skd_pebs_adaptive_size(u64 flags)
{
	u32 size = SKD_PEBS_BASIC_SIZE;

	if (flags & SKD_DATACFG_MEMINFO)
		size += SKD_PEBS_MEMINFO_SIZE;
	if (flags & SKD_DATACFG_GPRS)
		size += SKD_PEBS_GPRS_SIZE;
	if (flags & SKD_DATACFG_XMMS)
		size += SKD_PEBS_XMMS_SIZE;
	if (flags & SKD_DATACFG_LBRS)
		size += SKD_PEBS_LBR_SIZE *
			(((flags >> SKD_DATACFG_LBR_SHIFT) &
			  SKD_PEBS_LBR_NR_MASK) + 1);
	return size;
}

u32 skd_pebs_record_size(u32 fmt, bool baseline, u64 data_cfg)
{
	switch (fmt) {
	case 1:
		return SKD_PEBS_FMT1_SIZE;
	case 2:
		return SKD_PEBS_FMT2_SIZE;
	case 3:
		return SKD_PEBS_FMT3_SIZE;
	case 4:
	case 5:
		if (!baseline)
			return SKD_PEBS_BASIC_SIZE;
		return skd_pebs_adaptive_size(data_cfg);
	default:
		return 0;
	}
}

static int skd_pebs_decode_fixed(const u8 *p, u32 avail, u32 fmt,
				 struct skd_pebs_rec *out)
{
	u32 size = skd_pebs_record_size(fmt, false, 0);
	unsigned int i;

	if (avail < size)
		return -EINVAL;

	out->size = size;
	/* Formats 1-3 store the GPRs in SKD_GPR_* order. */
	for (i = 0; i < SKD_GPR_NR; i++)
		out->gprs[i] = skd_slot(p, FIX_GPRS + i);
	out->gprs[SKD_GPR_FLAGS] &= ~SKD_PEBS_RFLAGS_RSVD;
	out->has_gprs = true;

	out->applicable = skd_slot(p, FIX_STATUS);
	out->has_mem = true;
	out->addr = skd_slot(p, FIX_DLA);
	out->source = skd_slot(p, FIX_DSE);
	out->latency = skd_slot(p, FIX_LAT);

	if (fmt >= 2) {
		out->ip = skd_slot(p, FIX_REAL_IP);
		out->exact = true;
	} else {
		/* Trap-like assist: the instruction after the eventing one. */
		out->ip = out->gprs[SKD_GPR_IP];
		out->exact = false;
	}
	if (fmt >= 3) {
		out->tsc = skd_slot(p, FIX_TSC);
		out->has_tsc = true;
	}
	return size;
}

static void skd_pebs_decode_basic(const u8 *p, struct skd_pebs_rec *out)
{
	out->ip = skd_slot(p, BASIC_IP);
	out->exact = true;
	out->applicable = skd_slot(p, BASIC_APPLICABLE);
	out->tsc = skd_slot(p, BASIC_TSC);
	out->has_tsc = true;
}

static int skd_pebs_decode_adaptive(const u8 *p, u32 avail,
				    struct skd_pebs_rec *out)
{
	const u8 *g = p + SKD_PEBS_BASIC_SIZE;
	u64 hdr;
	u32 size;
	unsigned int i;

	if (avail < SKD_PEBS_BASIC_SIZE)
		return -EINVAL;
	hdr = skd_slot(p, BASIC_FORMAT_SIZE);
	size = hdr >> SKD_PEBS_SIZE_SHIFT;
	if (size < skd_pebs_adaptive_size(hdr) || size > avail || size % 8)
		return -EINVAL;

	out->size = size;
	skd_pebs_decode_basic(p, out);

	if (hdr & SKD_DATACFG_MEMINFO) {
		out->has_mem = true;
		out->addr = skd_slot(g, MEM_ADDRESS);
		out->source = skd_slot(g, MEM_AUX);
		out->latency = skd_slot(g, MEM_LATENCY);
		g += SKD_PEBS_MEMINFO_SIZE;
	}
	if (hdr & SKD_DATACFG_GPRS) {
		for (i = 0; i < SKD_GPR_NR; i++)
			out->gprs[skd_adaptive_gprs[i]] = skd_slot(g, i);
		out->gprs[SKD_GPR_FLAGS] &= ~SKD_PEBS_RFLAGS_RSVD;
		out->has_gprs = true;
		g += SKD_PEBS_GPRS_SIZE;
	}
	if (hdr & SKD_DATACFG_XMMS)
		g += SKD_PEBS_XMMS_SIZE;
	if (hdr & SKD_DATACFG_LBRS) {
		out->nr_lbr = ((hdr >> SKD_DATACFG_LBR_SHIFT) &
			       SKD_PEBS_LBR_NR_MASK) + 1;
		out->lbr = g;
	}
	/* Anything between the groups and @size is skipped. */
	return size;
}

int skd_pebs_decode(const void *p, u32 avail, u32 fmt, bool baseline,
		    struct skd_pebs_rec *out)
{
	memset(out, 0, sizeof(*out));

	switch (fmt) {
	case 1:
	case 2:
	case 3:
		return skd_pebs_decode_fixed(p, avail, fmt, out);
	case 4:
	case 5:
		if (baseline)
			return skd_pebs_decode_adaptive(p, avail, out);
		/*
		 * Without adaptive PEBS the record is the basic group alone,
		 * whatever its format_size word says.
		 */
		if (avail < SKD_PEBS_BASIC_SIZE)
			return -EINVAL;
		out->size = SKD_PEBS_BASIC_SIZE;
		skd_pebs_decode_basic(p, out);
		return SKD_PEBS_BASIC_SIZE;
	default:
		return -EINVAL;
	}
}
