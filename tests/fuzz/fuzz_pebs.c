// SPDX-License-Identifier: GPL-2.0
/*
 * Feeds a DS buffer of input bytes to kmod/intel/pebs.c (host build),
 * walked record by record as the PMI's drain walks it, LBR groups decoded
 * too: the decoder runs in NMI context and must never read past @avail.
 */
#include <string.h>

#include "fuzzlib.h"
#include "lbr.h"
#include "msrs.h"
#include "pebs.h"

/*
 * Input: one byte of configuration, then the buffer's bytes.
 *	bits 2:0  PEBS format (0, 6 and 7 are not ones skidless decodes)
 *	bit 3     adaptive PEBS (PERF_CAPABILITIES.PEBS_BASELINE)
 *	bit 4     LBR group entries have the arch LBR INFO layout
 *	bits 7:5  CPUID.1CH:ECX[2:0], the arch LBR INFO fields enumerated
 */
static uint64_t sink;

/* What a decode promises about the record it accepted at @p. */
static void check_record(const uint8_t *p, uint32_t avail, uint32_t fmt,
			 bool baseline, int size,
			 const struct skd_pebs_rec *rec)
{
	uint64_t hdr;

	FUZZ_CHECK(size > 0 && (uint32_t)size <= avail);
	FUZZ_CHECK(rec->size == (uint32_t)size);
	if (fmt <= 3 || !baseline) {
		FUZZ_CHECK((uint32_t)size == skd_pebs_record_size(fmt, false, 0));
		FUZZ_CHECK(!rec->nr_lbr && !rec->lbr);
		return;
	}
	/* Adaptive: the record covers every group its header announces. */
	memcpy(&hdr, p, sizeof(hdr));
	FUZZ_CHECK(size % 8 == 0);
	FUZZ_CHECK((uint32_t)size >= skd_pebs_record_size(fmt, true, hdr));
	FUZZ_CHECK(rec->has_mem == !!(hdr & PEBS_DATACFG_MEMINFO));
	if (rec->nr_lbr) {
		FUZZ_CHECK(rec->lbr >= p + SKD_PEBS_BASIC_SIZE);
		FUZZ_CHECK(rec->lbr + (size_t)rec->nr_lbr * SKD_PEBS_LBR_SIZE <=
			   p + size);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct skd_branch_entry br[SKD_MAX_LBR];
	struct skd_pebs_rec rec, full;
	uint64_t cfg = fuzz_take(&data, &size, 1);
	uint32_t fmt = cfg & 7, nr, i;
	bool baseline = cfg & 8, arch = cfg & 16;
	uint32_t ecx = (uint32_t)(cfg >> 5) & 7;
	uint32_t at, avail;
	int n, m;

	if (size > UINT32_MAX)
		return 0;
	for (at = 0; at < size; at += (uint32_t)n) {
		avail = (uint32_t)(size - at);
		n = skd_pebs_decode_sample(data + at, avail, fmt, baseline,
					   &rec);
		full.has_gprs = false;
		m = skd_pebs_decode(data + at, avail, fmt, baseline, &full);
		FUZZ_CHECK(n == m);
		if (n <= 0) {
			FUZZ_CHECK(n == -EINVAL);
			FUZZ_CHECK(!full.size && !full.lbr && !full.has_gprs);
			break;
		}
		check_record(data + at, avail, fmt, baseline, n, &rec);
		/* The drain's decode and the full one agree but for GPRs. */
		FUZZ_CHECK(rec.ip == full.ip && rec.exact == full.exact &&
			   rec.applicable == full.applicable &&
			   rec.addr == full.addr && rec.tsc == full.tsc &&
			   rec.nr_lbr == full.nr_lbr && rec.lbr == full.lbr);
		if (full.has_gprs)
			sink += full.gprs[SKD_GPR_IP] + full.gprs[SKD_GPR_R15];
		/* As emit_record() does with a record's LBR group. */
		nr = rec.nr_lbr < SKD_MAX_LBR ? rec.nr_lbr : SKD_MAX_LBR;
		skd_lbr_decode_record(rec.lbr, nr, arch, ecx, br);
		for (i = 0; i < nr; i++)
			sink += br[i].from ^ br[i].to ^ br[i].info;
	}
	return 0;
}
