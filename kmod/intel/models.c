// SPDX-License-Identifier: GPL-2.0
/*
 * The models skidless supports, one per Intel event list, with the rules
 * Linux applies to them that Intel's lists do not state. Each flag cites
 * the arch/x86/events/intel file and function it comes from (Linux 6.1,
 * and 6.12 for Granite Rapids); the legacy LBR layout is
 * intel_pmu_lbr_init_skl() in lbr.c. Models with architectural LBR take
 * theirs from CPUID leaf 0x1C.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#else
#include <string.h>
#endif

#include "models.h"

/* lbr.c intel_pmu_lbr_init_skl(): 32 entries, FROM 0x680, TO 0x6c0, INFO 0xdc0. */
#define SKL_LBR		.lbr_nr = 32, .lbr_from = 0x680, .lbr_to = 0x6c0, \
			.lbr_info = 0xdc0

/*
 * Golden Cove and later big cores (core.c intel_pmu_init(), cases
 * SAPPHIRERAPIDS_X, EMERALDRAPIDS_X, ALDERLAKE): INSTR_LATENCY,
 * spr_limit_period, and MEM_LOADS_AUX for the big core only
 * (require_mem_loads_aux_event()). Granite Rapids (6.12: glc_common
 * without MEM_LOADS_AUX) and Gracemont (ALDERLAKE_N) have the first two.
 */
#define GLC_FLAGS	(SKD_MODEL_LAT_SPLIT | SKD_MODEL_PDIST_MIN128)

/*
 * Valid bits of MSR_OFFCORE_RSP_x, and of MSR_PEBS_FRONTEND per event
 * (event | umask << 8), core.c intel_skl_extra_regs, intel_icl_extra_regs,
 * intel_spr_extra_regs (also the Alder Lake big core's),
 * intel_grt_extra_regs, and 6.12's intel_gnr_extra_regs.
 */
#define SKL_EXTRA	.offcore_mask = 0x3fffff8fffULL,			\
			.frontend = { { 0x01c6, 0x7fff17 } }
#define ICL_EXTRA	.offcore_mask = 0x3fffffbfffULL,			\
			.frontend = { { 0x01c6, 0x7fff17 } }
#define GLC_EXTRA	.offcore_mask = 0x3fffffffffULL,			\
			.frontend = { { 0x01c6, 0x7fff1f }, { 0x40ad, 0x7 },	\
				      { 0x04c2, 0x8 } }
#define GNR_EXTRA	.offcore_mask = 0x3fffffffffULL,			\
			.frontend = { { 0x02c6, 0x9 }, { 0x03c6, 0x7fff1f },	\
				      { 0x40ad, 0x7 }, { 0x04c2, 0x8 } }
#define GRT_EXTRA	.offcore_mask = 0x3fffffffffULL

const struct skd_cpu_model skd_cpu_models[] = {
	/*
	 * Skylake family: ds.c intel_skl_pebs_event_constraints ends with
	 * INTEL_ALL_EVENT_CONSTRAINT(0, 0xf): PEBS on counters 0-3 only.
	 */
	{ "skylake", "Skylake client (and Kaby, Coffee, Comet Lake)",
	  SKD_MODEL_PEBS_GP0_3, SKL_LBR, SKL_EXTRA },
	{ "skylakex", "Skylake server", SKD_MODEL_PEBS_GP0_3, SKL_LBR,
	  SKL_EXTRA },
	{ "cascadelakex", "Cascade Lake server", SKD_MODEL_PEBS_GP0_3,
	  SKL_LBR, SKL_EXTRA },
	{ "icelake", "Ice Lake client", 0, SKL_LBR, ICL_EXTRA },
	{ "icelakex", "Ice Lake server", 0, SKL_LBR, ICL_EXTRA },
	{ "tigerlake", "Tiger Lake", 0, SKL_LBR, ICL_EXTRA },
	{ "rocketlake", "Rocket Lake", 0, SKL_LBR, ICL_EXTRA },
	{ "sapphirerapids", "Sapphire Rapids",
	  GLC_FLAGS | SKD_MODEL_LDLAT_AUX, GLC_EXTRA },
	{ "emeraldrapids", "Emerald Rapids",
	  GLC_FLAGS | SKD_MODEL_LDLAT_AUX, GLC_EXTRA },
	{ "graniterapids", "Granite Rapids", GLC_FLAGS, GNR_EXTRA },
	{ "alderlake_goldencove", "Alder/Raptor Lake P-core (Golden Cove)",
	  GLC_FLAGS | SKD_MODEL_LDLAT_AUX, GLC_EXTRA },
	{ "alderlake_gracemont", "Alder/Raptor Lake E-core (Gracemont)",
	  GLC_FLAGS, GRT_EXTRA },
};

const unsigned int skd_nr_cpu_models = ARRAY_SIZE(skd_cpu_models);

const struct skd_cpu_model *skd_cpu_model_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < skd_nr_cpu_models; i++)
		if (!strcmp(skd_cpu_models[i].name, name))
			return &skd_cpu_models[i];
	return NULL;
}

const struct skd_cpu_model *skd_cpu_model_of(const struct skd_event_list *l)
{
	return l ? skd_cpu_model_by_name(l->name) : NULL;
}

u64 skd_frontend_mask(const struct skd_cpu_model *m, u32 config)
{
	unsigned int i;

	for (i = 0; m && i < SKD_MAX_FRONTEND_EVENTS; i++)
		if (m->frontend[i].mask && m->frontend[i].config == (config & 0xffff))
			return m->frontend[i].mask;
	return 0;
}

int skd_fixed_alias(u32 config)
{
	switch (config) {
	case 0x00c0:		/* INST_RETIRED.ANY */
		return 0;
	case 0x003c:		/* CPU_CLK_UNHALTED.CORE */
		return 1;
	}
	return -1;
}
