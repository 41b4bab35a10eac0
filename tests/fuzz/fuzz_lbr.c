// SPDX-License-Identifier: GPL-2.0
/*
 * Feeds raw FROM/TO/INFO triples to kmod/intel/lbr_decode.c in every
 * legacy format, as arch LBR and as a PEBS LBR group, checking what lbr.h
 * promises: only defined flags reach user space, addresses sign-extended,
 * and an arch LBR INFO field only when CPUID.1CH:ECX enumerates it.
 */
#include <string.h>

#include "fuzzlib.h"
#include "lbr.h"
#include "msrs.h"

/*
 * Input: one byte, the legacy LBR format in bits 3:0 (8 and up: formats
 * skidless does not know); a u32, CPUID.1CH:ECX for arch LBR (bit 0
 * mispredict, 1 cycle counts, 2 branch type, the others enumerate
 * nothing skidless knows); then { from, to, info } u64 triples.
 */
#define ECX_MISPRED	0x1
#define ECX_CYCLES	0x2
#define ECX_TYPE	0x4
#define RAW_MISPRED	(1ULL << 63)	/* IA32_LBR_x_INFO fields (SDM) */
#define RAW_CYC_VALID	(1ULL << 60)

#define INFO_FLAGS	(SKD_BR_INFO_MISPRED | SKD_BR_INFO_IN_TX | \
			 SKD_BR_INFO_ABORT)
#define INFO_CYCLES	(SKD_BR_INFO_CYC_VALID | SKD_BR_INFO_CYCLES)
#define INFO_TYPE	(SKD_BR_INFO_TYPE_VALID | \
			 (0xfULL << SKD_BR_INFO_TYPE_SHIFT))

/* Are bits 63:@bit of @v all equal (sign-extended from @bit)? */
static bool sext_from(uint64_t v, unsigned int bit)
{
	uint64_t top = v >> bit;

	return top == 0 || top == (~0ULL >> bit);
}

static void check_legacy(uint32_t fmt, const struct skd_branch_entry *e)
{
	switch (fmt) {
	case SKD_LBR_FMT_32:
		FUZZ_CHECK(e->from <= 0xffffffffULL && e->to <= 0xffffffffULL);
		FUZZ_CHECK(!e->info);
		break;
	case SKD_LBR_FMT_EIP_FLAGS:
		FUZZ_CHECK(sext_from(e->from, 62));
		FUZZ_CHECK(!(e->info & ~(uint64_t)SKD_BR_INFO_MISPRED));
		break;
	case SKD_LBR_FMT_EIP_FLAGS2:
		FUZZ_CHECK(sext_from(e->from, 60));
		FUZZ_CHECK(!(e->info & ~(uint64_t)INFO_FLAGS));
		break;
	case SKD_LBR_FMT_INFO:
		FUZZ_CHECK(!(e->info & ~(uint64_t)(INFO_FLAGS | INFO_CYCLES)));
		FUZZ_CHECK(e->info & SKD_BR_INFO_CYC_VALID);
		break;
	case SKD_LBR_FMT_TIME:
		FUZZ_CHECK(sext_from(e->from, 62) && sext_from(e->to, 47));
		/* Fall through: no TSX bits in these formats either. */
	case SKD_LBR_FMT_INFO2:
		FUZZ_CHECK(!(e->info & ~(uint64_t)(SKD_BR_INFO_MISPRED |
						   INFO_CYCLES)));
		FUZZ_CHECK(e->info & SKD_BR_INFO_CYC_VALID);
		break;
	default:
		FUZZ_CHECK(!e->info);
		break;
	}
}

static void check_arch(uint32_t ecx, uint64_t info,
		       const struct skd_branch_entry *e)
{
	uint64_t allowed = SKD_BR_INFO_IN_TX | SKD_BR_INFO_ABORT;

	if (ecx & ECX_MISPRED)
		allowed |= SKD_BR_INFO_MISPRED;
	if (ecx & ECX_CYCLES)
		allowed |= INFO_CYCLES;
	if (ecx & ECX_TYPE)
		allowed |= INFO_TYPE;
	FUZZ_CHECK(!(e->info & ~allowed));
	/* An enumerated field is reported when the INFO value has it. */
	FUZZ_CHECK(!!(e->info & SKD_BR_INFO_MISPRED) ==
		   ((ecx & ECX_MISPRED) && (info & RAW_MISPRED)));
	FUZZ_CHECK(!!(e->info & SKD_BR_INFO_CYC_VALID) ==
		   ((ecx & ECX_CYCLES) && (info & RAW_CYC_VALID)));
	FUZZ_CHECK(!!(e->info & SKD_BR_INFO_TYPE_VALID) == !!(ecx & ECX_TYPE));
	/* Cycles come with their valid bit, never alone. */
	FUZZ_CHECK(!(e->info & SKD_BR_INFO_CYCLES) ||
		   (e->info & SKD_BR_INFO_CYC_VALID));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct skd_branch_entry rec[SKD_MAX_LBR], one;
	uint32_t fmt = (uint32_t)fuzz_take(&data, &size, 1) & 15;
	uint32_t ecx = (uint32_t)fuzz_take(&data, &size, 4), nr = 0, i;
	const uint8_t *raw = data;
	uint64_t from, to, info;

	while (size >= 24 && nr < SKD_MAX_LBR) {
		from = fuzz_take(&data, &size, 8);
		to = fuzz_take(&data, &size, 8);
		info = fuzz_take(&data, &size, 8);
		skd_lbr_decode_legacy(fmt, from, to, info, &one);
		check_legacy(fmt, &one);
		skd_lbr_decode_arch(from, to, info, ecx, &one);
		check_arch(ecx, info, &one);
		FUZZ_CHECK(one.from == from && one.to == to);
		nr++;
	}

	/*
	 * A PEBS LBR group: the LBR_INFO layout whatever @ecx says, or arch
	 * entries with @ecx's fields, entry by entry as decoded alone.
	 */
	skd_lbr_decode_record(raw, nr, false, ecx, rec);
	for (i = 0; i < nr; i++) {
		memcpy(&from, raw + 24 * i, 8);
		memcpy(&to, raw + 24 * i + 8, 8);
		memcpy(&info, raw + 24 * i + 16, 8);
		skd_lbr_decode_legacy(SKD_LBR_FMT_INFO, from, to, info, &one);
		FUZZ_CHECK(!memcmp(&one, &rec[i], sizeof(one)));
	}
	skd_lbr_decode_record(raw, nr, true, ecx, rec);
	for (i = 0; i < nr; i++) {
		memcpy(&from, raw + 24 * i, 8);
		memcpy(&to, raw + 24 * i + 8, 8);
		memcpy(&info, raw + 24 * i + 16, 8);
		skd_lbr_decode_arch(from, to, info, ecx, &one);
		FUZZ_CHECK(!memcmp(&one, &rec[i], sizeof(one)));
	}
	return 0;
}
