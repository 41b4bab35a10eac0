// SPDX-License-Identifier: GPL-2.0
/*
 * PEBS data source to perf's data_src. The tables restate Linux's
 * arch/x86/events/intel/ds.c (6.1): the Sandy Bridge table, patched for
 * Skylake and later (intel_pmu_pebs_data_source_skl(), whose pmem
 * argument is true on the server parts) and for Gracemont
 * (__intel_pmu_pebs_data_source_grt()).
 */
#include <string.h>

#include "data_src.h"
#include "perf_data.h"

#define P(f, v)		PD_MEM_S(f, v)
#define LEVEL(x)	P(LVLNUM, x)
#define OP_LH		(P(OP, LOAD) | P(LVL, HIT))
#define REM		P(REMOTE, REMOTE)
#define SNOOP_NONE_MISS	(P(SNOOP, NONE) | P(SNOOP, MISS))

/* Index: the low four bits of the field. */
static const uint64_t snb_table[16] = {
	[0x0] = P(OP, LOAD) | P(LVL, MISS) | LEVEL(L3) | P(SNOOP, NA),
	[0x1] = OP_LH | P(LVL, L1) | LEVEL(L1) | P(SNOOP, NONE),
	[0x2] = OP_LH | P(LVL, LFB) | LEVEL(LFB) | P(SNOOP, NONE),
	[0x3] = OP_LH | P(LVL, L2) | LEVEL(L2) | P(SNOOP, NONE),
	[0x4] = OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, NONE),
	[0x5] = OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, MISS),
	[0x6] = OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, HIT),
	[0x7] = OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, HITM),
	[0x8] = OP_LH | P(LVL, REM_CCE1) | REM | LEVEL(L3) | P(SNOOP, HIT),
	[0x9] = OP_LH | P(LVL, REM_CCE1) | REM | LEVEL(L3) | P(SNOOP, HITM),
	[0xa] = OP_LH | P(LVL, LOC_RAM) | LEVEL(RAM) | P(SNOOP, HIT),
	[0xb] = OP_LH | P(LVL, REM_RAM1) | REM | LEVEL(L3) | P(SNOOP, HIT),
	[0xc] = OP_LH | P(LVL, LOC_RAM) | LEVEL(RAM) | SNOOP_NONE_MISS,
	[0xd] = OP_LH | P(LVL, REM_RAM1) | LEVEL(RAM) | REM | SNOOP_NONE_MISS,
	[0xe] = OP_LH | P(LVL, IO) | LEVEL(NA) | P(SNOOP, NONE),
	[0xf] = OP_LH | P(LVL, UNC) | LEVEL(NA) | P(SNOOP, NONE),
};

static uint64_t table_entry(enum skd_dsrc_table t, unsigned int i)
{
	uint64_t l4 = t == SKD_DSRC_SKL_PMEM ? LEVEL(PMEM) : LEVEL(L4);

	switch (t) {
	case SKD_DSRC_SKL:
	case SKD_DSRC_SKL_PMEM:
		switch (i) {
		case 0x8: return OP_LH | l4 | P(SNOOP, HIT);
		case 0x9: return OP_LH | l4 | REM | P(SNOOP, HIT);
		case 0xb: return OP_LH | LEVEL(RAM) | REM | P(SNOOP, NONE);
		case 0xc: return OP_LH | LEVEL(ANY_CACHE) | REM | P(SNOOPX, FWD);
		case 0xd: return OP_LH | LEVEL(ANY_CACHE) | REM | P(SNOOP, HITM);
		}
		break;
	case SKD_DSRC_GRT:
		switch (i) {
		case 0x5: return OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, HIT);
		case 0x6: return OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, HITM);
		case 0x8: return OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOPX, FWD);
		}
		break;
	case SKD_DSRC_NONE:
		break;
	}
	return snb_table[i & 0xf];
}

struct skd_dsrc_model skd_dsrc_model(const char *name)
{
	static const struct {
		const char *name;
		enum skd_dsrc_table table;
		int block;
	} models[] = {
		{ "skylake", SKD_DSRC_SKL, 0 },
		{ "icelake", SKD_DSRC_SKL, 0 },
		{ "tigerlake", SKD_DSRC_SKL, 0 },
		{ "rocketlake", SKD_DSRC_SKL, 0 },
		{ "skylakex", SKD_DSRC_SKL_PMEM, 0 },
		{ "cascadelakex", SKD_DSRC_SKL_PMEM, 0 },
		{ "icelakex", SKD_DSRC_SKL_PMEM, 0 },
		/* Golden Cove and later: pebs_block, load blocks reported. */
		{ "sapphirerapids", SKD_DSRC_SKL_PMEM, 1 },
		{ "emeraldrapids", SKD_DSRC_SKL_PMEM, 1 },
		{ "graniterapids", SKD_DSRC_SKL_PMEM, 1 },
		{ "alderlake_goldencove", SKD_DSRC_SKL, 1 },
		{ "alderlake_gracemont", SKD_DSRC_GRT, 1 },
	};
	struct skd_dsrc_model m = { SKD_DSRC_NONE, 0 };
	size_t i;

	for (i = 0; name && i < sizeof(models) / sizeof(models[0]); i++) {
		if (!strcmp(name, models[i].name)) {
			m.table = models[i].table;
			m.block = models[i].block;
		}
	}
	return m;
}

enum skd_dsrc_kind skd_dsrc_kind(uint64_t config, uint64_t ldlat,
				 const struct skd_dsrc_model *m)
{
	unsigned int event = config & 0xff, umask = (config >> 8) & 0xff;

	if (m->table == SKD_DSRC_NONE)
		return SKD_DSRC_OTHER;
	if (m->table == SKD_DSRC_GRT) {
		/* MEM_UOPS_RETIRED.LOAD_LATENCY / .STORE_LATENCY */
		if (event == 0xd0 && umask == 0x05)
			return SKD_DSRC_LOAD_LAT;
		if (event == 0xd0 && umask == 0x06)
			return SKD_DSRC_STORE_LAT;
		return SKD_DSRC_OTHER;
	}
	/* MEM_TRANS_RETIRED.LOAD_LATENCY, .STORE_SAMPLE */
	if (event == 0xcd && umask == 0x01)
		return SKD_DSRC_LOAD_LAT;
	if (event == 0xcd && umask == 0x02)
		return m->block ? SKD_DSRC_STORE_LAT : SKD_DSRC_OTHER;
	if (ldlat)
		return SKD_DSRC_LOAD_LAT;
	/* MEM_INST_RETIRED.*: umask bit 1 stores, bit 0 loads (DATALA_ST/LD). */
	if (event == 0xd0)
		return umask & 0x2 ? SKD_DSRC_STORE :
		       umask & 0x1 ? SKD_DSRC_LOAD : SKD_DSRC_OTHER;
	/* MEM_LOAD_RETIRED.*, MEM_LOAD_L3_HIT/MISS_RETIRED.* */
	if (event >= 0xd1 && event <= 0xd3)
		return SKD_DSRC_LOAD;
	return SKD_DSRC_OTHER;
}

/* pebs_set_tlb_lock(): @tlb the access missed the STLB, @lock locked. */
static uint64_t set_tlb_lock(int tlb, int lock)
{
	uint64_t v = tlb ? P(TLB, MISS) | P(TLB, L2) :
		     P(TLB, HIT) | P(TLB, L1) | P(TLB, L2);

	if (lock)
		v |= P(LOCK, LOCKED);
	return v;
}

/* The big cores: bit 4 missed the STLB, bit 5 a locked access. */
static uint64_t tlb_lock(uint64_t dse)
{
	return set_tlb_lock(!!(dse & 0x10), !!(dse & 0x20));
}

/*
 * Gracemont, adl_latency_data_small() (6.1) / grt_latency_data(): "For
 * the atom core on ADL, bit 4: lock, bit 5: TLB access", bit 6 a data
 * block. Both latency events (0x5d0, 0x6d0) go through it, the store
 * one too, without a STORE mem_op.
 */
static uint64_t grt_latency(uint64_t dse)
{
	return table_entry(SKD_DSRC_GRT, dse & 0xf) |
	       set_tlb_lock(!!(dse & 0x20), !!(dse & 0x10)) |
	       (dse & 0x40 ? P(BLK, DATA) : P(BLK, NA));
}

uint64_t skd_dsrc_encode(const struct skd_dsrc_model *m,
			 enum skd_dsrc_kind kind, uint64_t dse)
{
	uint64_t v, blk;

	switch (kind) {
	case SKD_DSRC_LOAD_LAT:
		if (m->table == SKD_DSRC_GRT)
			return grt_latency(dse);
		v = table_entry(m->table, dse & 0xf) | tlb_lock(dse);
		if (!m->block)
			return v | P(BLK, NA);
		/* Bit 6: data not forwardable from a store; 7: address alias. */
		blk = (dse & 0x40 ? PD_MEM_BLK_DATA : 0) |
		      (dse & 0x80 ? PD_MEM_BLK_ADDR : 0);
		return v | (blk ? blk : PD_MEM_BLK_NA) << PD_MEM_BLK_SHIFT;
	case SKD_DSRC_STORE_LAT:
		if (m->table == SKD_DSRC_GRT)
			return grt_latency(dse);
		v = table_entry(m->table, dse & 0xf) | tlb_lock(dse) |
		    P(BLK, NA);
		/* store_latency_data(): the table is for loads; say store. */
		return (v & ~(0x1fULL << PD_MEM_OP_SHIFT)) | P(OP, STORE);
	case SKD_DSRC_STORE:
		/* precise_datala_hsw() for a store event: bit 0 L1 hit. */
		v = PD_MEM_NA & ~(0x1fULL << PD_MEM_OP_SHIFT) &
		    ~(0x3fffULL << PD_MEM_LVL_SHIFT);
		return v | P(OP, STORE) | P(LVL, L1) |
		       (dse & 1 ? P(LVL, HIT) : P(LVL, MISS));
	case SKD_DSRC_LOAD:
		return (PD_MEM_NA & ~(0x1fULL << PD_MEM_OP_SHIFT)) | P(OP, LOAD);
	case SKD_DSRC_OTHER:
		break;
	}
	return PD_MEM_NA;
}
