// SPDX-License-Identifier: GPL-2.0
/*
 * Feeds raw FROM/TO/INFO triples to kmod/intel/lbr_decode.c in every
 * legacy format, as arch LBR and as a PEBS LBR group, checking what lbr.h
 * promises: only defined flags reach user space, addresses sign-extended.
 */
#include <string.h>

#include "fuzzlib.h"
#include "lbr.h"
#include "msrs.h"

/*
 * Input: one byte of configuration, then { from, to, info } u64 triples.
 *	bits 3:0  legacy LBR format (8 and up: formats skidless does not know)
 *	bit 4     arch LBR: CPUID.1CH:ECX[1], cycles valid
 *	bit 5     arch LBR: CPUID.1CH:ECX[2], branch type valid
 */
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

static void check_arch(bool cycles_ok, bool type_ok,
		       const struct skd_branch_entry *e)
{
	uint64_t allowed = INFO_FLAGS;

	if (cycles_ok)
		allowed |= INFO_CYCLES;
	if (type_ok)
		allowed |= INFO_TYPE;
	FUZZ_CHECK(!(e->info & ~allowed));
	FUZZ_CHECK(!type_ok || (e->info & SKD_BR_INFO_TYPE_VALID));
	/* Cycles come with their valid bit, never alone. */
	FUZZ_CHECK(!(e->info & SKD_BR_INFO_CYCLES) ||
		   (e->info & SKD_BR_INFO_CYC_VALID));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct skd_branch_entry rec[SKD_MAX_LBR], one;
	uint64_t cfg = fuzz_take(&data, &size, 1);
	uint32_t fmt = cfg & 15, nr = 0, i;
	bool cycles_ok = cfg & 16, type_ok = cfg & 32;
	const uint8_t *raw = data;
	uint64_t from, to, info;

	while (size >= 24 && nr < SKD_MAX_LBR) {
		from = fuzz_take(&data, &size, 8);
		to = fuzz_take(&data, &size, 8);
		info = fuzz_take(&data, &size, 8);
		skd_lbr_decode_legacy(fmt, from, to, info, &one);
		check_legacy(fmt, &one);
		skd_lbr_decode_arch(from, to, info, cycles_ok, type_ok, &one);
		check_arch(cycles_ok, type_ok, &one);
		FUZZ_CHECK(one.from == from && one.to == to);
		nr++;
	}

	/* A PEBS LBR group: LBR_INFO layout, or arch with everything on. */
	skd_lbr_decode_record(raw, nr, false, rec);
	for (i = 0; i < nr; i++) {
		memcpy(&from, raw + 24 * i, 8);
		memcpy(&to, raw + 24 * i + 8, 8);
		memcpy(&info, raw + 24 * i + 16, 8);
		skd_lbr_decode_legacy(SKD_LBR_FMT_INFO, from, to, info, &one);
		FUZZ_CHECK(!memcmp(&one, &rec[i], sizeof(one)));
	}
	skd_lbr_decode_record(raw, nr, true, rec);
	for (i = 0; i < nr; i++) {
		memcpy(&from, raw + 24 * i, 8);
		memcpy(&to, raw + 24 * i + 8, 8);
		memcpy(&info, raw + 24 * i + 16, 8);
		skd_lbr_decode_arch(from, to, info, true, true, &one);
		FUZZ_CHECK(!memcmp(&one, &rec[i], sizeof(one)));
	}
	return 0;
}
