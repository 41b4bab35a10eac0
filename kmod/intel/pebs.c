// SPDX-License-Identifier: GPL-2.0
/*
 * PEBS records, formats 1 to 5 (pebs.h), written from the record tables
 * of the SDM (Vol. 3B, "PEBS Record Format" and "Adaptive PEBS") and
 * perf's layouts (arch/x86/events/intel/ds.c, struct pebs_record_*).
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
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/string.h>
#else
#include <assert.h>
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

/* Basic group and those of DATA_CFG bits 2:0 (memory info, GPRs, XMMs). */
#define SKD_PEBS_GROUPS_SIZE(m, g, x) \
	(SKD_PEBS_BASIC_SIZE + (m) * SKD_PEBS_MEMINFO_SIZE + \
	 (g) * SKD_PEBS_GPRS_SIZE + (x) * SKD_PEBS_XMMS_SIZE)

/* A table indexed by DATA_CFG[2:0]: the drain checks every record's size. */
static_assert(PEBS_DATACFG_MEMINFO == 1 && PEBS_DATACFG_GP == 2 &&
	      PEBS_DATACFG_XMMS == 4, "DATA_CFG[2:0] index the size table");
static const u16 skd_pebs_groups_size[8] = {
	SKD_PEBS_GROUPS_SIZE(0, 0, 0), SKD_PEBS_GROUPS_SIZE(1, 0, 0),
	SKD_PEBS_GROUPS_SIZE(0, 1, 0), SKD_PEBS_GROUPS_SIZE(1, 1, 0),
	SKD_PEBS_GROUPS_SIZE(0, 0, 1), SKD_PEBS_GROUPS_SIZE(1, 0, 1),
	SKD_PEBS_GROUPS_SIZE(0, 1, 1), SKD_PEBS_GROUPS_SIZE(1, 1, 1),
};

/* Bytes of the groups @flags (DATA_CFG layout) announce, basic included. */
static inline u32 skd_pebs_adaptive_size(u64 flags)
{
	u32 size = skd_pebs_groups_size[flags & 7];

	if (flags & PEBS_DATACFG_LBRS)
		size += SKD_PEBS_LBR_SIZE *
			(((flags >> PEBS_DATACFG_LBR_SHIFT) &
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

/* The record cannot be one: nothing of it in @out. */
static int skd_pebs_bad(struct skd_pebs_rec *out)
{
	memset(out, 0, sizeof(*out));
	return -EINVAL;
}

/*
 * Every field but the GPRs is written on every successful decode, absent
 * groups as zero, so that a record never shows values of the one decoded
 * before it.
 */
static int skd_pebs_decode_fixed(const u8 *p, u32 avail, u32 fmt,
				 struct skd_pebs_rec *out)
{
	u32 size = skd_pebs_record_size(fmt, false, 0);

	if (avail < size)
		return skd_pebs_bad(out);

	out->size = size;
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
		out->ip = skd_slot(p, FIX_GPRS + SKD_GPR_IP);
		out->exact = false;
	}
	out->has_tsc = fmt >= 3;
	out->tsc = out->has_tsc ? skd_slot(p, FIX_TSC) : 0;
	out->nr_lbr = 0;
	out->lbr = NULL;
	return size;
}

/*
 * The basic group at @p and the groups @groups (DATA_CFG layout) says
 * follow it; a record of @size bytes.
 */
static int skd_pebs_decode_groups(const u8 *p, u64 groups, u32 size,
				  struct skd_pebs_rec *out)
{
	const u8 *g = p + SKD_PEBS_BASIC_SIZE;

	out->size = size;
	out->ip = skd_slot(p, BASIC_IP);
	out->exact = true;
	out->applicable = skd_slot(p, BASIC_APPLICABLE);
	out->tsc = skd_slot(p, BASIC_TSC);
	out->has_tsc = true;

	out->has_mem = groups & PEBS_DATACFG_MEMINFO;
	if (out->has_mem) {
		out->addr = skd_slot(g, MEM_ADDRESS);
		out->source = skd_slot(g, MEM_AUX);
		out->latency = skd_slot(g, MEM_LATENCY);
		g += SKD_PEBS_MEMINFO_SIZE;
	} else {
		out->addr = 0;
		out->source = 0;
		out->latency = 0;
	}
	if (groups & PEBS_DATACFG_GP)
		g += SKD_PEBS_GPRS_SIZE;
	if (groups & PEBS_DATACFG_XMMS)
		g += SKD_PEBS_XMMS_SIZE;
	if (groups & PEBS_DATACFG_LBRS) {
		out->nr_lbr = ((groups >> PEBS_DATACFG_LBR_SHIFT) &
			       SKD_PEBS_LBR_NR_MASK) + 1;
		out->lbr = g;
	} else {
		out->nr_lbr = 0;
		out->lbr = NULL;
	}
	/* Anything between the groups and @size is skipped. */
	return size;
}

static int skd_pebs_decode_adaptive(const u8 *p, u32 avail,
				    struct skd_pebs_rec *out)
{
	u64 hdr;
	u32 size;

	if (avail < SKD_PEBS_BASIC_SIZE)
		return skd_pebs_bad(out);
	hdr = skd_slot(p, BASIC_FORMAT_SIZE);
	size = hdr >> SKD_PEBS_SIZE_SHIFT;
	if (size < skd_pebs_adaptive_size(hdr) || size > avail || size % 8)
		return skd_pebs_bad(out);
	return skd_pebs_decode_groups(p, hdr, size, out);
}

int skd_pebs_decode_sample(const void *p, u32 avail, u32 fmt, bool baseline,
			   struct skd_pebs_rec *out)
{
	/* Tests in the order of the newest CPUs: each one runs per record. */
	if (fmt == 4 || fmt == 5) {
		if (baseline)
			return skd_pebs_decode_adaptive(p, avail, out);
		/*
		 * Without adaptive PEBS the record is the basic group alone,
		 * whatever its format_size word says.
		 */
		if (avail < SKD_PEBS_BASIC_SIZE)
			return skd_pebs_bad(out);
		return skd_pebs_decode_groups(p, 0, SKD_PEBS_BASIC_SIZE, out);
	}
	if (fmt >= 1 && fmt <= 3)
		return skd_pebs_decode_fixed(p, avail, fmt, out);
	return skd_pebs_bad(out);
}

/* The GPRs of the record at @p, which skd_pebs_decode_sample() took. */
static void skd_pebs_decode_gprs(const u8 *p, u32 fmt, bool baseline,
				 struct skd_pebs_rec *out)
{
	const u8 *g = p + SKD_PEBS_BASIC_SIZE;
	u64 groups;
	unsigned int i;

	if (fmt <= 3) {
		/* Formats 1-3 store the GPRs in SKD_GPR_* order. */
		for (i = 0; i < SKD_GPR_NR; i++)
			out->gprs[i] = skd_slot(p, FIX_GPRS + i);
		out->has_gprs = true;
	} else {
		groups = baseline ? skd_slot(p, BASIC_FORMAT_SIZE) : 0;
		out->has_gprs = groups & PEBS_DATACFG_GP;
		if (!out->has_gprs) {
			memset(out->gprs, 0, sizeof(out->gprs));
			return;
		}
		if (groups & PEBS_DATACFG_MEMINFO)
			g += SKD_PEBS_MEMINFO_SIZE;
		for (i = 0; i < SKD_GPR_NR; i++)
			out->gprs[skd_adaptive_gprs[i]] = skd_slot(g, i);
	}
	out->gprs[SKD_GPR_FLAGS] &= ~SKD_PEBS_RFLAGS_RSVD;
}

int skd_pebs_decode(const void *p, u32 avail, u32 fmt, bool baseline,
		    struct skd_pebs_rec *out)
{
	int size = skd_pebs_decode_sample(p, avail, fmt, baseline, out);

	if (size > 0)
		skd_pebs_decode_gprs(p, fmt, baseline, out);
	return size;
}
