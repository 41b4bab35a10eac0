/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The data-source field of a PEBS record, translated into perf's
 * union perf_mem_data_src the way Linux does it per CPU model
 * (arch/x86/events/intel/ds.c: pebs_data_source[] and its per-model
 * patches, load_latency_data(), store_latency_data(),
 * precise_datala_hsw()). Which decoding applies depends on the event:
 * only the load- and store-latency events report a cache level.
 */
#ifndef _SKD_DATA_SRC_H
#define _SKD_DATA_SRC_H

#include <stdint.h>

enum skd_dsrc_table {
	SKD_DSRC_NONE = 0,	/* model unknown: perf's "N/A" */
	SKD_DSRC_SKL,		/* Skylake client and later clients, Golden Cove */
	SKD_DSRC_SKL_PMEM,	/* servers with persistent memory: PMEM not L4 */
	SKD_DSRC_GRT,		/* Gracemont (Alder Lake E-core) */
};

enum skd_dsrc_kind {
	SKD_DSRC_OTHER = 0,	/* no memory info from this event */
	SKD_DSRC_LOAD_LAT,	/* load-latency event: the table */
	SKD_DSRC_STORE_LAT,	/* store-latency event: the table, as a store */
	SKD_DSRC_LOAD,		/* PEBS load with a data address only */
	SKD_DSRC_STORE,		/* PEBS store: L1 hit or miss in bit 0 */
};

struct skd_dsrc_model {
	enum skd_dsrc_table table;
	int block;		/* PEBS reports store-forward blocks (bits 6-7) */
};

/*
 * The decoding of a model by the name Intel's event lists give it
 * ("skylakex", "alderlake_gracemont", ...); table NONE for others.
 */
struct skd_dsrc_model skd_dsrc_model(const char *model_name);

/*
 * What the data-source field of @config's records (IA32_PERFEVTSELx
 * event | umask << 8) means; @ldlat: the event has a latency threshold.
 */
enum skd_dsrc_kind skd_dsrc_kind(uint64_t config, uint64_t ldlat,
				 const struct skd_dsrc_model *m);

/* perf's data_src for the raw data-source field @dse. */
uint64_t skd_dsrc_encode(const struct skd_dsrc_model *m,
			 enum skd_dsrc_kind kind, uint64_t dse);

#endif /* _SKD_DATA_SRC_H */
