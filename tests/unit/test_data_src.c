// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for userland/lib/data_src.c: the PEBS data-source field of a
 * record, per CPU model, against what Linux puts in perf_mem_data_src.
 *
 * The oracle is Linux's arch/x86/events/intel/ds.c, read in v6.1 and in
 * mainline (the two agree on everything checked here):
 *   - pebs_data_source[] (the Sandy Bridge table, "Version for Sandy
 *     Bridge and later"), index = PEBS data source bits 3:0;
 *   - __intel_pmu_pebs_data_source_skl(pmem, ...) patching entries
 *     0x08, 0x09, 0x0b, 0x0c, 0x0d (pmem true on Skylake-X, Ice Lake-X;
 *     false on clients and on the Golden Cove core of Alder Lake,
 *     intel_pmu_pebs_data_source_adl());
 *   - __intel_pmu_pebs_data_source_grt() patching 0x05, 0x06, 0x08 for
 *     Gracemont;
 *   - load_latency_data(): table, then pebs_set_tlb_lock() from bit 4
 *     (STLB miss) and bit 5 (locked), then BLK: NA without pebs_block
 *     (Ice Lake and earlier), else bit 6 DATA, bit 7 ADDR;
 *   - store_latency_data() (Golden Cove STLAT, MEM_TRANS_RETIRED.
 *     STORE_SAMPLE): as a load, BLK NA, mem_op overwritten with STORE;
 *   - adl_latency_data_small() (6.1) / grt_latency_data() (mainline) for
 *     both Gracemont latency events (intel_grt_pebs_event_constraints:
 *     INTEL_HYBRID_LAT_CONSTRAINT 0x5d0 and 0x6d0): "For the atom core on
 *     ADL, bit 4: lock, bit 5: TLB access", BLK DATA from bit 6 else NA;
 *   - precise_datala_hsw() for the DATALA_LD/ST events: PERF_MEM_NA with
 *     mem_op LOAD or STORE, and for stores mem_lvl L1|HIT or L1|MISS from
 *     bit 0.
 * The field encodings (PERF_MEM_*) are the system's <linux/perf_event.h>,
 * the uapi header, not our perf_data.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/perf_event.h>

#include "data_src.h"

/* ds.c's own shorthands. */
#define P(a, b)		PERF_MEM_S(a, b)
#define OP_LH		(P(OP, LOAD) | P(LVL, HIT))
#define LEVEL(x)	P(LVLNUM, x)
#define REM		P(REMOTE, REMOTE)
#define SNOOP_NONE_MISS	(P(SNOOP, NONE) | P(SNOOP, MISS))
/* include/linux/perf_event.h (kernel-internal, not uapi). */
#define MEM_NA		(P(OP, NA) | P(LVL, NA) | P(SNOOP, NA) | P(LOCK, NA) | \
			 P(TLB, NA))
#define OP_MASK		(0x1fULL << PERF_MEM_OP_SHIFT)

/* pebs_set_tlb_lock(val, tlb, lock). */
static uint64_t tlb_lock(int tlb, int lock)
{
	uint64_t v = tlb ? P(TLB, MISS) | P(TLB, L2) :
		     P(TLB, HIT) | P(TLB, L1) | P(TLB, L2);

	return lock ? v | P(LOCK, LOCKED) : v;
}

static uint64_t enc(const char *model, uint64_t config, uint64_t ldlat,
		    uint64_t dse)
{
	struct skd_dsrc_model m = skd_dsrc_model(model);
	enum skd_dsrc_kind k = skd_dsrc_kind(config, ldlat, &m);

	return skd_dsrc_encode(&m, k, dse);
}

#define LD_LAT		0x01cd	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
#define ST_SAMPLE	0x02cd	/* MEM_TRANS_RETIRED.STORE_SAMPLE */
#define GRT_LD_LAT	0x05d0	/* MEM_UOPS_RETIRED.LOAD_LATENCY */
#define GRT_ST_LAT	0x06d0	/* MEM_UOPS_RETIRED.STORE_LATENCY */
#define ALL_LOADS	0x81d0	/* MEM_INST_RETIRED.ALL_LOADS: DATALA_LD */
#define ALL_STORES	0x82d0	/* MEM_INST_RETIRED.ALL_STORES: DATALA_ST */

/* Entries of pebs_data_source[] no model patches. */
static const uint64_t snb_common[16] = {
	[0x00] = P(OP, LOAD) | P(LVL, MISS) | LEVEL(L3) | P(SNOOP, NA),
	[0x01] = OP_LH | P(LVL, L1) | LEVEL(L1) | P(SNOOP, NONE),
	[0x02] = OP_LH | P(LVL, LFB) | LEVEL(LFB) | P(SNOOP, NONE),
	[0x03] = OP_LH | P(LVL, L2) | LEVEL(L2) | P(SNOOP, NONE),
	[0x04] = OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, NONE),
	[0x07] = OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, HITM),
	[0x0a] = OP_LH | P(LVL, LOC_RAM) | LEVEL(RAM) | P(SNOOP, HIT),
	[0x0e] = OP_LH | P(LVL, IO) | LEVEL(NA) | P(SNOOP, NONE),
	[0x0f] = OP_LH | P(LVL, UNC) | LEVEL(NA) | P(SNOOP, NONE),
};

/* pebs_data_source[] after __intel_pmu_pebs_data_source_skl(pmem). */
static uint64_t skl_entry(unsigned int i, int pmem)
{
	uint64_t l4 = pmem ? LEVEL(PMEM) : LEVEL(L4);

	switch (i) {
	case 0x05: return OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, MISS);
	case 0x06: return OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, HIT);
	case 0x08: return OP_LH | l4 | P(SNOOP, HIT);
	case 0x09: return OP_LH | l4 | REM | P(SNOOP, HIT);
	case 0x0b: return OP_LH | LEVEL(RAM) | REM | P(SNOOP, NONE);
	case 0x0c: return OP_LH | LEVEL(ANY_CACHE) | REM | P(SNOOPX, FWD);
	case 0x0d: return OP_LH | LEVEL(ANY_CACHE) | REM | P(SNOOP, HITM);
	}
	return snb_common[i];
}

/* pebs_data_source[] after __intel_pmu_pebs_data_source_grt(). */
static uint64_t grt_entry(unsigned int i)
{
	switch (i) {
	case 0x05: return OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, HIT);
	case 0x06: return OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, HITM);
	case 0x08: return OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOPX, FWD);
	case 0x09: return OP_LH | P(LVL, REM_CCE1) | REM | LEVEL(L3) |
			  P(SNOOP, HITM);
	case 0x0b: return OP_LH | P(LVL, REM_RAM1) | REM | LEVEL(L3) |
			  P(SNOOP, HIT);
	case 0x0c: return OP_LH | P(LVL, LOC_RAM) | LEVEL(RAM) |
			  SNOOP_NONE_MISS;
	case 0x0d: return OP_LH | P(LVL, REM_RAM1) | LEVEL(RAM) | REM |
			  SNOOP_NONE_MISS;
	}
	return snb_common[i];
}

/* Skylake client: every index, no STLB miss, no lock; BLK NA. */
static void test_skylake_table(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < 16; i++)
		assert_int_equal(enc("skylake", LD_LAT, 3, i),
				 skl_entry(i, 0) | tlb_lock(0, 0) | P(BLK, NA));
	/* The same table on Ice Lake client (skl(false), no pebs_block). */
	for (i = 0; i < 16; i++)
		assert_int_equal(enc("icelake", LD_LAT, 3, i),
				 skl_entry(i, 0) | tlb_lock(0, 0) | P(BLK, NA));
}

/* pmem = true on the servers: 0x08 and 0x09 are PMEM, not L4. */
static void test_server_pmem(void **state)
{
	(void)state;
	assert_int_equal(enc("skylakex", LD_LAT, 3, 0x08),
			 OP_LH | LEVEL(PMEM) | P(SNOOP, HIT) | tlb_lock(0, 0) |
			 P(BLK, NA));
	assert_int_equal(enc("icelakex", LD_LAT, 3, 0x09),
			 OP_LH | LEVEL(PMEM) | REM | P(SNOOP, HIT) |
			 tlb_lock(0, 0) | P(BLK, NA));
	assert_int_equal(enc("icelake", LD_LAT, 3, 0x09),
			 OP_LH | LEVEL(L4) | REM | P(SNOOP, HIT) |
			 tlb_lock(0, 0) | P(BLK, NA));
}

/* Bits 4 and 5 on the big cores: STLB miss and lock. */
static void test_stlb_lock_bits(void **state)
{
	(void)state;
	/* 0x13: L2 hit, STLB miss. */
	assert_int_equal(enc("skylake", LD_LAT, 3, 0x13),
			 skl_entry(3, 0) | tlb_lock(1, 0) | P(BLK, NA));
	/* 0x21: L1 hit, locked. */
	assert_int_equal(enc("skylake", LD_LAT, 3, 0x21),
			 skl_entry(1, 0) | tlb_lock(0, 1) | P(BLK, NA));
	/* 0x34: L3 hit, both. */
	assert_int_equal(enc("icelake", LD_LAT, 3, 0x34),
			 skl_entry(4, 0) | tlb_lock(1, 1) | P(BLK, NA));
	assert_int_equal(enc("alderlake_goldencove", LD_LAT, 3, 0x14),
			 skl_entry(4, 0) | tlb_lock(1, 0) | P(BLK, NA));
}

/* pebs_block (Golden Cove): bit 6 DATA, bit 7 ADDR, else NA. */
static void test_golden_cove_block(void **state)
{
	(void)state;
	assert_int_equal(enc("alderlake_goldencove", LD_LAT, 3, 0x01),
			 skl_entry(1, 0) | tlb_lock(0, 0) | P(BLK, NA));
	assert_int_equal(enc("alderlake_goldencove", LD_LAT, 3, 0x41),
			 skl_entry(1, 0) | tlb_lock(0, 0) | P(BLK, DATA));
	assert_int_equal(enc("alderlake_goldencove", LD_LAT, 3, 0x83),
			 skl_entry(3, 0) | tlb_lock(0, 0) | P(BLK, ADDR));
	assert_int_equal(enc("sapphirerapids", LD_LAT, 3, 0xc2),
			 snb_common[2] | tlb_lock(0, 0) | P(BLK, DATA) |
			 P(BLK, ADDR));
	/* Ice Lake has no block info: bits 6 and 7 are ignored. */
	assert_int_equal(enc("icelake", LD_LAT, 3, 0xc1),
			 skl_entry(1, 0) | tlb_lock(0, 0) | P(BLK, NA));
}

/* store_latency_data(): the load table, BLK NA, mem_op STORE. */
static void test_golden_cove_store_latency(void **state)
{
	uint64_t want;

	(void)state;
	want = ((skl_entry(1, 0) | tlb_lock(0, 0) | P(BLK, NA)) & ~OP_MASK) |
	       P(OP, STORE);
	assert_int_equal(enc("alderlake_goldencove", ST_SAMPLE, 0, 0x01), want);
	want = ((skl_entry(3, 0) | tlb_lock(1, 1) | P(BLK, NA)) & ~OP_MASK) |
	       P(OP, STORE);
	assert_int_equal(enc("alderlake_goldencove", ST_SAMPLE, 0, 0xf3), want);
}

/*
 * Gracemont: its own table entries, bit 4 the lock and bit 5 the STLB
 * miss (swapped against the big cores), BLK DATA from bit 6; the same
 * function for the load- and the store-latency event.
 */
static void test_gracemont(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < 16; i++) {
		assert_int_equal(enc("alderlake_gracemont", GRT_LD_LAT, 3, i),
				 grt_entry(i) | tlb_lock(0, 0) | P(BLK, NA));
		assert_int_equal(enc("alderlake_gracemont", GRT_ST_LAT, 0, i),
				 grt_entry(i) | tlb_lock(0, 0) | P(BLK, NA));
	}
	/* Bit 4: locked. */
	assert_int_equal(enc("alderlake_gracemont", GRT_LD_LAT, 3, 0x11),
			 grt_entry(1) | tlb_lock(0, 1) | P(BLK, NA));
	/* Bit 5: STLB miss. */
	assert_int_equal(enc("alderlake_gracemont", GRT_LD_LAT, 3, 0x23),
			 grt_entry(3) | tlb_lock(1, 0) | P(BLK, NA));
	/* Bit 6: data block. */
	assert_int_equal(enc("alderlake_gracemont", GRT_LD_LAT, 3, 0x45),
			 grt_entry(5) | tlb_lock(0, 0) | P(BLK, DATA));
	assert_int_equal(enc("alderlake_gracemont", GRT_ST_LAT, 0, 0x68),
			 grt_entry(8) | tlb_lock(1, 0) | P(BLK, DATA));
	assert_int_equal(enc("alderlake_gracemont", GRT_ST_LAT, 0, 0x12),
			 grt_entry(2) | tlb_lock(0, 1) | P(BLK, NA));
}

/* precise_datala_hsw(): loads say LOAD only; stores L1 hit/miss. */
static void test_datala(void **state)
{
	uint64_t na_op_lvl = MEM_NA & ~OP_MASK &
			     ~(0x3fffULL << PERF_MEM_LVL_SHIFT);

	(void)state;
	assert_int_equal(enc("skylake", ALL_LOADS, 0, 0x1),
			 (MEM_NA & ~OP_MASK) | P(OP, LOAD));
	assert_int_equal(enc("icelake", 0x01d1, 0, 0x3),	/* L1_HIT */
			 (MEM_NA & ~OP_MASK) | P(OP, LOAD));
	assert_int_equal(enc("skylake", ALL_STORES, 0, 0x1),
			 na_op_lvl | P(OP, STORE) | P(LVL, L1) | P(LVL, HIT));
	assert_int_equal(enc("skylake", ALL_STORES, 0, 0x0),
			 na_op_lvl | P(OP, STORE) | P(LVL, L1) | P(LVL, MISS));
}

/*
 * Nothing to say is PERF_MEM_NA ("unknown"), not a made-up level: a model
 * the tables do not cover, a PEBS event without memory info.
 */
static void test_unknown(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < 256; i += 17) {
		assert_int_equal(enc(NULL, LD_LAT, 3, i), MEM_NA);
		assert_int_equal(enc("haswell_unknown", LD_LAT, 3, i), MEM_NA);
		assert_int_equal(enc("skylake", 0x00c0, 0, i), MEM_NA);
		assert_int_equal(enc("alderlake_gracemont", 0x00c0, 0, i),
				 MEM_NA);
	}
	/* Reserved bits above the defined ones change nothing. */
	assert_int_equal(enc("skylake", LD_LAT, 3, 0xffff0000ULL | 0x3),
			 skl_entry(3, 0) | tlb_lock(0, 0) | P(BLK, NA));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skylake_table),
		cmocka_unit_test(test_server_pmem),
		cmocka_unit_test(test_stlb_lock_bits),
		cmocka_unit_test(test_golden_cove_block),
		cmocka_unit_test(test_golden_cove_store_latency),
		cmocka_unit_test(test_gracemont),
		cmocka_unit_test(test_datala),
		cmocka_unit_test(test_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
