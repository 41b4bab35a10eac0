// SPDX-License-Identifier: GPL-2.0
/*
 * The CPUs the simulated PMU can be. Each answers CPUID and the capability
 * MSRs as that part does on bare metal (no hypervisor bit), so the Intel
 * backend's detection takes the same path it takes on the real part.
 *
 * Leaf 0xA (SDM vol. 2, CPUID): EAX = version | GP counters << 8 | width
 * << 16 | architectural events << 24, ECX = fixed-counter bitmap (v5),
 * EDX = fixed counters | fixed width << 5. Leaf 0x1C (architectural LBR):
 * EAX bit n = depth 8 * (n + 1), EBX bit 0 CPL filter, 1 branch-type
 * filter, 2 call stack, ECX bit 0 mispredict, 1 cycles, 2 branch type.
 * Leaf 0x1A (hybrid): EAX[31:24] core type, 0x40 Core, 0x20 Atom.
 *
 * The extra-MSR masks are the bits Linux lets through (arch/x86/events/
 * intel/core.c, intel_skl/icl/spr/grt_extra_regs): what the hardware
 * implements as far as software may know.
 */
#include "sim.h"

#define LEAF_0A_EAX(ver, gp, width, events) \
	((ver) | (gp) << 8 | (width) << 16 | (events) << 24)
#define LEAF_0A_EDX(fixed, width)	((fixed) | (width) << 5)

#define CAP_LBR_FMT(f)		((u64)(f))
#define CAP_PEBS_FMT(f)		((u64)(f) << 8)
#define CAP_COMMON		(PERF_CAP_PEBS_TRAP | \
				 PERF_CAP_ARCH_REG | BIT_ULL(12) | \
				 SKD_PERFCAP_FW_WRITES)

#define CPUID7_EDX_HYBRID	BIT(15)
#define CPUID7_EDX_ARCH_LBR	BIT(19)

/* Skylake server: perfmon v4, PEBS format 3, 32 legacy LBRs with INFO. */
#define SKX_COMMON							\
	.perf_cap = CAP_LBR_FMT(SKD_LBR_FMT_INFO) | CAP_PEBS_FMT(3) |	\
		    CAP_COMMON,						\
	.nr_fixed = 3, .width = 48, .version = 4,			\
	.pebs_fmt = 3, .lbr_nr = 32, .list = "skylakex",		\
	.offcore_mask = 0x3fffff8fffULL, .frontend_mask = 0x7fff17,	\
	.quirks = SIM_PEBS_PMC0_3 | SIM_TFA_CAPABLE

/* Golden Cove: perfmon v5, adaptive PEBS format 5, arch LBR 8-32 deep. */
#define GLC_CORE(type_list) {						\
	.leaf_0a = { LEAF_0A_EAX(5, 8, 48, 8), 0, 0xf, LEAF_0A_EDX(4, 48) }, \
	.leaf_1c = { 0xf, 0x7, 0x7, 0 },				\
	.leaf_1a_eax = 0x40000001,					\
	.perf_cap = CAP_PEBS_FMT(5) | CAP_COMMON |			\
		    PERF_CAP_PEBS_BASELINE,				\
	.nr_gp = 8, .nr_fixed = 4, .width = 48, .version = 5,		\
	.pebs_fmt = 5, .baseline = true, .arch_lbr = true, .lbr_nr = 32, \
	.list = type_list,						\
	.offcore_mask = 0x3fffffffffULL, .frontend_mask = 0x7fff1f,	\
	.quirks = SIM_LDLAT_AUX | SIM_LAT_SPLIT,			\
}

const struct sim_model sim_models[__SKD_SIM_MAX] = {
	[SKD_SIM_SKYLAKE] = {
		/* Skylake-SP (family 6 model 0x55 stepping 4), HT on. */
		.name = "skylake",
		.id = SKD_SIM_SKYLAKE,
		.max_leaf = 0x16,
		.signature = 0x00050654,
		.core = { {
			.leaf_0a = { LEAF_0A_EAX(4, 4, 48, 7), 0, 0,
				     LEAF_0A_EDX(3, 48) },
			.nr_gp = 4, SKX_COMMON,
		} },
	},
	[SKD_SIM_SKYLAKE_HTOFF] = {
		/* The same part with hyper-threading off: 8 GP counters. */
		.name = "skylake-htoff",
		.id = SKD_SIM_SKYLAKE_HTOFF,
		.max_leaf = 0x16,
		.signature = 0x00050654,
		.core = { {
			.leaf_0a = { LEAF_0A_EAX(4, 8, 48, 7), 0, 0,
				     LEAF_0A_EDX(3, 48) },
			.nr_gp = 8, SKX_COMMON,
		} },
	},
	[SKD_SIM_ICELAKE] = {
		/* Ice Lake-SP (family 6 model 0x6a stepping 6). */
		.name = "icelake",
		.id = SKD_SIM_ICELAKE,
		.max_leaf = 0x1b,
		.signature = 0x000606a6,
		.core = { {
			.leaf_0a = { LEAF_0A_EAX(5, 8, 48, 8), 0, 0xf,
				     LEAF_0A_EDX(4, 48) },
			.perf_cap = CAP_LBR_FMT(SKD_LBR_FMT_INFO) |
				    CAP_PEBS_FMT(4) | CAP_COMMON |
				    PERF_CAP_PEBS_BASELINE,
			.nr_gp = 8, .nr_fixed = 4, .width = 48, .version = 5,
			.pebs_fmt = 4, .baseline = true, .lbr_nr = 32,
			.list = "icelakex",
			.offcore_mask = 0x3fffffbfffULL,
			.frontend_mask = 0x7fff17,
		} },
	},
	[SKD_SIM_SAPPHIRERAPIDS] = {
		/* Sapphire Rapids (family 6 model 0x8f stepping 8). */
		.name = "sapphirerapids",
		.id = SKD_SIM_SAPPHIRERAPIDS,
		.max_leaf = 0x20,
		.signature = 0x000806f8,
		.leaf_07_edx = CPUID7_EDX_ARCH_LBR,
		.core = { GLC_CORE("sapphirerapids") },
	},
	[SKD_SIM_ALDERLAKE] = {
		/*
		 * Alder Lake-S (family 6 model 0x97 stepping 2): CPU 0 a
		 * Golden Cove P-core, every other CPU a Gracemont E-core,
		 * each answering leaves 0xA, 0x1A and 0x1C for itself.
		 */
		.name = "alderlake",
		.id = SKD_SIM_ALDERLAKE,
		.max_leaf = 0x20,
		.signature = 0x00090672,
		.leaf_07_edx = CPUID7_EDX_HYBRID | CPUID7_EDX_ARCH_LBR,
		.hybrid = true,
		.core = {
			GLC_CORE("alderlake_goldencove"),
			{
				/* Gracemont: 6 GP, 3 fixed, no topdown. */
				.leaf_0a = { LEAF_0A_EAX(5, 6, 48, 8), 0, 0x7,
					     LEAF_0A_EDX(3, 48) },
				.leaf_1c = { 0xf, 0x7, 0x7, 0 },
				.leaf_1a_eax = 0x20000001,
				.perf_cap = CAP_PEBS_FMT(5) | CAP_COMMON |
					    PERF_CAP_PEBS_BASELINE,
				.nr_gp = 6, .nr_fixed = 3, .width = 48,
				.version = 5, .pebs_fmt = 5, .baseline = true,
				.arch_lbr = true, .lbr_nr = 32,
				.list = "alderlake_gracemont",
				.offcore_mask = 0x3fffffffffULL,
				.quirks = SIM_LAT_SPLIT,
			},
		},
	},
};
