// SPDX-License-Identifier: GPL-2.0
/*
 * CPU models and their PEBS events. Encodings follow Intel's event lists
 * (as perf ships them under tools/perf/pmu-events/arch/x86); counters are
 * where the event list says the event may be sampled.
 *
 * Fixed counters count one event each: 0 instructions (0x00c0, or the
 * pseudo encoding 0x0100), 1 core cycles (0x003c), 2 reference cycles
 * (0x0300), 3 topdown slots (0x0400). Pseudo encodings (event 0x00) exist
 * only on their fixed counter.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#else
#include <string.h>
#include <strings.h>
#endif

#include "models.h"

#define EV(event, umask)	((u32)(event) | ((u32)(umask) << 8))
#define INV			BIT(23)
#define CMASK(n)		((u32)(n) << 24)

#define MEM_LOAD	(SKD_EVF_PEBS | SKD_EVF_MEM)
#define MEM_STORE	(SKD_EVF_PEBS | SKD_EVF_MEM | SKD_EVF_STORE)

/* Skylake and Cascade Lake (client and server): PEBS format 3, 4 GP. */
static const struct skd_event_def skylake_events[] = {
	{ "inst_retired.prec_dist", EV(0xc0, 0x01), SKD_CTR_GP(1),
	  SKD_EVF_PEBS | SKD_EVF_PRECDIST,
	  "Instructions retired, precise distribution (PDIR), counter 1" },
	{ "inst_retired.any_p", EV(0xc0, 0x00), SKD_CTR_ANY_GP, SKD_EVF_PEBS,
	  "Instructions retired" },
	{ "uops_retired.all", EV(0xc2, 0x01), SKD_CTR_ANY_GP, SKD_EVF_PEBS,
	  "Micro-ops retired" },
	{ "br_inst_retired.all_branches", EV(0xc4, 0x00), SKD_CTR_ANY_GP,
	  SKD_EVF_PEBS, "Branch instructions retired" },
	{ "br_misp_retired.all_branches", EV(0xc5, 0x00), SKD_CTR_ANY_GP,
	  SKD_EVF_PEBS, "Mispredicted branch instructions retired" },
	{ "mem_inst_retired.all_loads", EV(0xd0, 0x81), SKD_CTR_ANY_GP,
	  MEM_LOAD, "Load instructions retired" },
	{ "mem_inst_retired.all_stores", EV(0xd0, 0x82), SKD_CTR_ANY_GP,
	  MEM_STORE, "Store instructions retired" },
	{ "mem_load_retired.l1_miss", EV(0xd1, 0x08), SKD_CTR_ANY_GP, MEM_LOAD,
	  "Retired loads that missed the L1 data cache" },
	{ "mem_load_retired.l2_miss", EV(0xd1, 0x10), SKD_CTR_ANY_GP, MEM_LOAD,
	  "Retired loads that missed the L2 cache" },
	{ "mem_load_retired.l3_miss", EV(0xd1, 0x20), SKD_CTR_ANY_GP, MEM_LOAD,
	  "Retired loads that missed the L3 cache" },
	{ "mem_trans_retired.load_latency", EV(0xcd, 0x01), SKD_CTR_ANY_GP,
	  MEM_LOAD | SKD_EVF_LDLAT,
	  "Loads slower than the ldlat= threshold (cycles)" },
};

/* Ice Lake / Tiger Lake (client and server): adaptive PEBS, format 4. */
static const struct skd_event_def icelake_events[] = {
	{ "inst_retired.prec_dist", EV(0x00, 0x01), SKD_CTR_FIXED(0),
	  SKD_EVF_PEBS | SKD_EVF_PRECDIST,
	  "Instructions retired, precise distribution (PDIR), fixed counter 0" },
	{ "inst_retired.any_p", EV(0xc0, 0x00), SKD_CTR_ANY_GP, SKD_EVF_PEBS,
	  "Instructions retired" },
	{ "uops_retired.slots", EV(0xc2, 0x02), SKD_CTR_ANY_GP, SKD_EVF_PEBS,
	  "Retirement slots used" },
	{ "br_inst_retired.all_branches", EV(0xc4, 0x00), SKD_CTR_ANY_GP,
	  SKD_EVF_PEBS, "Branch instructions retired" },
	{ "br_misp_retired.all_branches", EV(0xc5, 0x00), SKD_CTR_ANY_GP,
	  SKD_EVF_PEBS, "Mispredicted branch instructions retired" },
	{ "mem_inst_retired.all_loads", EV(0xd0, 0x81), SKD_CTR_ANY_GP,
	  MEM_LOAD, "Load instructions retired" },
	{ "mem_inst_retired.all_stores", EV(0xd0, 0x82), SKD_CTR_ANY_GP,
	  MEM_STORE, "Store instructions retired" },
	{ "mem_load_retired.l1_miss", EV(0xd1, 0x08), SKD_CTR_ANY_GP, MEM_LOAD,
	  "Retired loads that missed the L1 data cache" },
	{ "mem_load_retired.l2_miss", EV(0xd1, 0x10), SKD_CTR_ANY_GP, MEM_LOAD,
	  "Retired loads that missed the L2 cache" },
	{ "mem_load_retired.l3_miss", EV(0xd1, 0x20), SKD_CTR_ANY_GP, MEM_LOAD,
	  "Retired loads that missed the L3 cache" },
	{ "mem_trans_retired.load_latency", EV(0xcd, 0x01), SKD_CTR_ANY_GP,
	  MEM_LOAD | SKD_EVF_LDLAT,
	  "Loads slower than the ldlat= threshold (cycles)" },
};

/*
 * Golden Cove cores: Sapphire/Emerald Rapids and the Alder/Raptor Lake
 * P-cores. PEBS format 5; precise distribution on GP counter 0 for any
 * event, on fixed counter 0 for instructions; load latency not on 0.
 */
static const struct skd_event_def goldencove_events[] = {
	{ "inst_retired.prec_dist", EV(0x00, 0x01), SKD_CTR_FIXED(0),
	  SKD_EVF_PEBS | SKD_EVF_PRECDIST,
	  "Instructions retired, precise distribution (PDIR++), fixed counter 0" },
	{ "inst_retired.any_p", EV(0xc0, 0x00), SKD_CTR_ANY_GP,
	  SKD_EVF_PEBS | SKD_EVF_PRECDIST, "Instructions retired" },
	{ "uops_retired.slots", EV(0xc2, 0x02), SKD_CTR_ANY_GP,
	  SKD_EVF_PEBS | SKD_EVF_PRECDIST, "Retirement slots used" },
	{ "br_inst_retired.all_branches", EV(0xc4, 0x00), SKD_CTR_ANY_GP,
	  SKD_EVF_PEBS | SKD_EVF_PRECDIST, "Branch instructions retired" },
	{ "br_misp_retired.all_branches", EV(0xc5, 0x00), SKD_CTR_ANY_GP,
	  SKD_EVF_PEBS | SKD_EVF_PRECDIST,
	  "Mispredicted branch instructions retired" },
	{ "mem_inst_retired.all_loads", EV(0xd0, 0x81), SKD_CTR_ANY_GP,
	  MEM_LOAD | SKD_EVF_PRECDIST, "Load instructions retired" },
	{ "mem_inst_retired.all_stores", EV(0xd0, 0x82), SKD_CTR_ANY_GP,
	  MEM_STORE | SKD_EVF_PRECDIST, "Store instructions retired" },
	{ "mem_load_retired.l1_miss", EV(0xd1, 0x08), SKD_CTR_ANY_GP,
	  MEM_LOAD | SKD_EVF_PRECDIST,
	  "Retired loads that missed the L1 data cache" },
	{ "mem_load_retired.l2_miss", EV(0xd1, 0x10), SKD_CTR_ANY_GP,
	  MEM_LOAD | SKD_EVF_PRECDIST, "Retired loads that missed the L2 cache" },
	{ "mem_load_retired.l3_miss", EV(0xd1, 0x20), SKD_CTR_ANY_GP,
	  MEM_LOAD | SKD_EVF_PRECDIST, "Retired loads that missed the L3 cache" },
	{ "mem_trans_retired.load_latency", EV(0xcd, 0x01),
	  SKD_CTR_ANY_GP & ~SKD_CTR_GP(0), MEM_LOAD | SKD_EVF_LDLAT,
	  "Loads slower than the ldlat= threshold (cycles)" },
};

#define FIX0	SKD_CTR_FIXED(0)
#define FIX1	SKD_CTR_FIXED(1)
#define ANY	SKD_CTR_ANY_GP

/*
 * Skylake has no PEBS on fixed counters: cycles:p and beyond use the
 * retired-instructions PDIR event inverted with cmask 16, which counts
 * every cycle (as perf does), on counter 1.
 */
#define SKL_PCYCLES	(EV(0xc0, 0x01) | INV | CMASK(16))

#define SKYLAKE_GENERIC {						\
	[SKD_GEN_CYCLES] = { "cycles",					\
		{ EV(0x3c, 0), SKL_PCYCLES, SKL_PCYCLES },		\
		{ FIX1 | ANY, SKD_CTR_GP(1), SKD_CTR_GP(1) } },	\
	[SKD_GEN_INSTRUCTIONS] = { "instructions",			\
		{ EV(0xc0, 0), EV(0xc0, 0), EV(0xc0, 0x01) },		\
		{ FIX0 | ANY, ANY, SKD_CTR_GP(1) } },			\
	[SKD_GEN_BRANCHES] = { "branches",				\
		{ EV(0xc4, 0), EV(0xc4, 0), 0 }, { ANY, ANY, 0 } },	\
	[SKD_GEN_BRANCH_MISSES] = { "branch-misses",			\
		{ EV(0xc5, 0), EV(0xc5, 0), 0 }, { ANY, ANY, 0 } },	\
}

/* Ice Lake: PDIR for instructions only; cycles:ppp samples as :pp. */
#define ICELAKE_GENERIC {						\
	[SKD_GEN_CYCLES] = { "cycles",					\
		{ EV(0x3c, 0), EV(0x3c, 0), EV(0x3c, 0) },		\
		{ FIX1 | ANY, FIX1 | ANY, FIX1 | ANY } },		\
	[SKD_GEN_INSTRUCTIONS] = { "instructions",			\
		{ EV(0xc0, 0), EV(0xc0, 0), EV(0x00, 0x01) },		\
		{ FIX0 | ANY, FIX0 | ANY, FIX0 } },			\
	[SKD_GEN_BRANCHES] = { "branches",				\
		{ EV(0xc4, 0), EV(0xc4, 0), 0 }, { ANY, ANY, 0 } },	\
	[SKD_GEN_BRANCH_MISSES] = { "branch-misses",			\
		{ EV(0xc5, 0), EV(0xc5, 0), 0 }, { ANY, ANY, 0 } },	\
}

/* Golden Cove: precise distribution for any event on GP counter 0. */
#define GOLDENCOVE_GENERIC {						\
	[SKD_GEN_CYCLES] = { "cycles",					\
		{ EV(0x3c, 0), EV(0x3c, 0), EV(0x3c, 0) },		\
		{ FIX1 | ANY, FIX1 | ANY, SKD_CTR_GP(0) } },		\
	[SKD_GEN_INSTRUCTIONS] = { "instructions",			\
		{ EV(0xc0, 0), EV(0xc0, 0), EV(0x00, 0x01) },		\
		{ FIX0 | ANY, FIX0 | ANY, FIX0 } },			\
	[SKD_GEN_BRANCHES] = { "branches",				\
		{ EV(0xc4, 0), EV(0xc4, 0), EV(0xc4, 0) },		\
		{ ANY, ANY, SKD_CTR_GP(0) } },				\
	[SKD_GEN_BRANCH_MISSES] = { "branch-misses",			\
		{ EV(0xc5, 0), EV(0xc5, 0), EV(0xc5, 0) },		\
		{ ANY, ANY, SKD_CTR_GP(0) } },				\
}

const struct skd_cpu_model skd_cpu_models[] = {
	{
		.name = "skylake",
		.desc = "Skylake/Cascade Lake (server and client)",
		.family = 6,
		.models = { 0x55, 0x4e, 0x5e, 0x8e, 0x9e, 0xa5, 0xa6 },
		.pdist_counters = SKD_CTR_GP(1),
		.lbr_nr = 32, .lbr_from = 0x680, .lbr_to = 0x6c0,
		.lbr_info = 0xdc0,
		.events = skylake_events,
		.nr_events = ARRAY_SIZE(skylake_events),
		.generic = SKYLAKE_GENERIC,
	},
	{
		.name = "icelake",
		.desc = "Ice Lake/Tiger Lake (server and client)",
		.family = 6,
		.models = { 0x6a, 0x6c, 0x7d, 0x7e, 0x8c, 0x8d },
		.pdist_counters = FIX0,
		.lbr_nr = 32, .lbr_from = 0x680, .lbr_to = 0x6c0,
		.lbr_info = 0xdc0,
		.events = icelake_events,
		.nr_events = ARRAY_SIZE(icelake_events),
		.generic = ICELAKE_GENERIC,
	},
	{
		.name = "sapphirerapids",
		.desc = "Sapphire Rapids/Emerald Rapids",
		.family = 6,
		.models = { 0x8f, 0xcf },
		.pdist_counters = SKD_CTR_GP(0) | FIX0,
		.events = goldencove_events,
		.nr_events = ARRAY_SIZE(goldencove_events),
		.generic = GOLDENCOVE_GENERIC,
	},
	{
		.name = "alderlake",
		.desc = "Alder Lake/Raptor Lake P-core",
		.family = 6,
		.models = { 0x97, 0x9a, 0xb7, 0xba, 0xbf },
		.pdist_counters = SKD_CTR_GP(0) | FIX0,
		.events = goldencove_events,
		.nr_events = ARRAY_SIZE(goldencove_events),
		.generic = GOLDENCOVE_GENERIC,
	},
};

const unsigned int skd_nr_cpu_models = ARRAY_SIZE(skd_cpu_models);

const struct skd_cpu_model *skd_cpu_model_find(u32 family, u32 model)
{
	unsigned int i, j;

	for (i = 0; i < skd_nr_cpu_models; i++) {
		const struct skd_cpu_model *m = &skd_cpu_models[i];

		if (m->family != family)
			continue;
		for (j = 0; j < ARRAY_SIZE(m->models) && m->models[j]; j++)
			if (m->models[j] == model)
				return m;
	}
	return NULL;
}

const struct skd_cpu_model *skd_cpu_model_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < skd_nr_cpu_models; i++)
		if (!strcmp(skd_cpu_models[i].name, name))
			return &skd_cpu_models[i];
	return NULL;
}

const struct skd_event_def *skd_event_find(const struct skd_cpu_model *m,
					   u32 config)
{
	unsigned int i;

	for (i = 0; m && i < m->nr_events; i++)
		if (m->events[i].config == (config & 0xffff))
			return &m->events[i];
	return NULL;
}

const struct skd_event_def *skd_event_by_name(const struct skd_cpu_model *m,
					      const char *name)
{
	unsigned int i;

	for (i = 0; m && i < m->nr_events; i++)
		if (!strcasecmp(m->events[i].name, name))
			return &m->events[i];
	return NULL;
}
