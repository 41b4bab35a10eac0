// SPDX-License-Identifier: GPL-2.0
/*
 * The CPUs the simulated PMU can be. Each answers CPUID and the capability
 * MSRs as that part does on bare metal (no hypervisor bit), so the Intel
 * backend's detection takes the same path it takes on the real part.
 *
 * Leaf 0xA packs EAX = version | GP counters << 8 | width << 16 |
 * architectural events << 24 and EDX = fixed counters | fixed width << 5.
 */
#include "sim.h"

#define LEAF_0A_EAX(ver, gp, width, events) \
	((ver) | (gp) << 8 | (width) << 16 | (events) << 24)
#define LEAF_0A_EDX(fixed, width)	((fixed) | (width) << 5)

#define CAP_LBR_FMT(f)		((u64)(f))
#define CAP_PEBS_FMT(f)		((u64)(f) << 8)
#define CAP_COMMON		(SKD_PERFCAP_PEBS_TRAP | \
				 SKD_PERFCAP_PEBS_ARCH_REG | BIT_ULL(12) | \
				 SKD_PERFCAP_FW_WRITES)

const struct sim_model sim_models[__SKD_SIM_MAX] = {
	[SKD_SIM_SKYLAKE] = {
		/* Skylake-SP (family 6 model 0x55 stepping 4). */
		.name = "skylake",
		.id = SKD_SIM_SKYLAKE,
		.max_leaf = 0x16,
		.signature = 0x00050654,
		.leaf_0a = { LEAF_0A_EAX(4, 4, 48, 7), 0, 0,
			     LEAF_0A_EDX(3, 48) },
		.perf_cap = CAP_LBR_FMT(SKD_LBR_FMT_INFO) | CAP_PEBS_FMT(3) |
			    CAP_COMMON,
		.nr_gp = 4, .nr_fixed = 3, .width = 48,
		.pebs_fmt = 3,
		.lbr_nr = 32,
	},
	[SKD_SIM_ICELAKE] = {
		/* Ice Lake-SP (family 6 model 0x6a stepping 6). */
		.name = "icelake",
		.id = SKD_SIM_ICELAKE,
		.max_leaf = 0x1b,
		.signature = 0x000606a6,
		.leaf_0a = { LEAF_0A_EAX(5, 8, 48, 8), 0, 0xf,
			     LEAF_0A_EDX(4, 48) },
		.perf_cap = CAP_LBR_FMT(SKD_LBR_FMT_INFO) | CAP_PEBS_FMT(4) |
			    CAP_COMMON | SKD_PERFCAP_PEBS_BASELINE,
		.nr_gp = 8, .nr_fixed = 4, .width = 48,
		.pebs_fmt = 4, .baseline = true,
		.lbr_nr = 32,
	},
	[SKD_SIM_SAPPHIRERAPIDS] = {
		/* Sapphire Rapids (family 6 model 0x8f stepping 8). */
		.name = "sapphirerapids",
		.id = SKD_SIM_SAPPHIRERAPIDS,
		.max_leaf = 0x20,
		.signature = 0x000806f8,
		.leaf_0a = { LEAF_0A_EAX(5, 8, 48, 8), 0, 0xf,
			     LEAF_0A_EDX(4, 48) },
		.leaf_07_edx = 1U << 19,	/* architectural LBR */
		/* Depths 8-32; CPL, type and call-stack filters; all INFO. */
		.leaf_1c = { 0xf, 0x7, 0x7, 0 },
		.perf_cap = CAP_PEBS_FMT(5) | CAP_COMMON |
			    SKD_PERFCAP_PEBS_BASELINE,
		.nr_gp = 8, .nr_fixed = 4, .width = 48,
		.pebs_fmt = 5, .baseline = true,
		.arch_lbr = true, .lbr_nr = 32,
	},
};
