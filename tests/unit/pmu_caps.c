// SPDX-License-Identifier: GPL-2.0
/*
 * The PMUs of the host tests and fuzzers: the CPUs the simulated PMU can
 * be, as CPUID leaves 0AH, 1AH, 1CH and IA32_PERF_CAPABILITIES describe
 * them (Intel SDM Vol. 2A, CPUID; Vol. 4, IA32_PERF_CAPABILITIES: bits
 * 5:0 LBR format, 6 PEBS trap, 7 PEBS saves architectural registers, 11:8
 * PEBS record format, 12 freeze while SMM, 13 full-width writes, 14 PEBS
 * baseline), filled in by hand rather than by detect.c, so a detection
 * bug cannot hide in both. Each names the Intel event list its part has
 * (kmod/intel/perfmon/mapfile.csv) and takes that list's model.
 */
#include <string.h>

#include "event_rules.h"
#include "models.h"
#include "pmu_caps.h"

static void caps_list(struct skd_pmu_caps *c, const char *list)
{
	c->events = skd_event_list_by_name(list);
	c->cpu = skd_cpu_model_of(c->events);
}

/* Skylake-SP, family 6 model 0x55 stepping 4: mapfile row 6-55-[01234]. */
static void caps_skylakex(struct skd_pmu_caps *c, u32 nr_gp)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->vendor, "GenuineIntel");
	c->signature = 0x50654;
	c->family = 6;
	c->model = 0x55;
	c->stepping = 4;
	c->version = 4;
	c->nr_gp = nr_gp;
	c->gp_width = 48;
	c->nr_fixed = 3;
	c->fixed_width = 48;
	c->fixed_mask = 0x7;
	/* LBR fmt 5, PEBS trap, arch regs, PEBS fmt 3, SMM freeze, FW writes */
	c->perf_cap = 0x5 | 0x40 | 0x80 | 0x300 | 0x1000 | 0x2000;
	c->pebs_fmt = 3;
	c->lbr_fmt = 5;
	/* lbr.c intel_pmu_lbr_init_skl(): 32 entries at 0x680, 0x6c0, 0xdc0 */
	c->lbr_nr = 32;
	c->lbr_from = 0x680;
	c->lbr_to = 0x6c0;
	c->lbr_info = 0xdc0;
	c->flags = SKD_PMU_USABLE | SKD_PMU_PEBS | SKD_PMU_PEBS_TRAP |
		   SKD_PMU_LBR | SKD_PMU_FW_WRITES | SKD_PMU_SIMULATED;
	caps_list(c, "skylakex");
}

void pmu_caps_skylake(struct skd_pmu_caps *c)
{
	caps_skylakex(c, 4);
}

void pmu_caps_skylake_htoff(struct skd_pmu_caps *c)
{
	caps_skylakex(c, 8);
}

/* Ice Lake-SP, family 6 model 0x6a stepping 6: mapfile row 6-6A. */
void pmu_caps_icelake(struct skd_pmu_caps *c)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->vendor, "GenuineIntel");
	c->signature = 0x606a6;
	c->family = 6;
	c->model = 0x6a;
	c->stepping = 6;
	c->version = 5;
	c->nr_gp = 8;
	c->gp_width = 48;
	c->nr_fixed = 4;
	c->fixed_width = 48;
	c->fixed_mask = 0xf;
	/* LBR fmt 5, trap, arch regs, PEBS fmt 4, SMM, FW writes, baseline */
	c->perf_cap = 0x5 | 0x40 | 0x80 | 0x400 | 0x1000 | 0x2000 | 0x4000;
	c->pebs_fmt = 4;
	c->lbr_fmt = 5;
	c->lbr_nr = 32;
	c->lbr_from = 0x680;
	c->lbr_to = 0x6c0;
	c->lbr_info = 0xdc0;
	c->flags = SKD_PMU_USABLE | SKD_PMU_PEBS | SKD_PMU_PEBS_BASELINE |
		   SKD_PMU_PEBS_TRAP | SKD_PMU_LBR | SKD_PMU_FW_WRITES |
		   SKD_PMU_SIMULATED;
	caps_list(c, "icelakex");
}

/*
 * A Golden Cove or Gracemont core: perfmon v5, adaptive PEBS format 5,
 * architectural LBR 8 to 32 deep (CPUID.1CH:EAX = 0x0f) with CPL, branch
 * type and call-stack filtering (EBX = 0x7) and the mispredict, cycle
 * and branch-type INFO fields (ECX = 0x7).
 */
static void caps_glc_grt(struct skd_pmu_caps *c, u32 nr_gp, u32 fixed_mask)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->vendor, "GenuineIntel");
	c->family = 6;
	c->version = 5;
	c->nr_gp = nr_gp;
	c->gp_width = 48;
	c->nr_fixed = fixed_mask == 0xf ? 4 : 3;
	c->fixed_width = 48;
	c->fixed_mask = fixed_mask;
	/* LBR fmt 0x3f (arch LBR), trap, arch regs, fmt 5, SMM, FW, baseline */
	c->perf_cap = 0x3f | 0x40 | 0x80 | 0x500 | 0x1000 | 0x2000 | 0x4000;
	c->pebs_fmt = 5;
	c->lbr_nr = 32;
	c->arch_lbr_depths = 0x0f;
	c->arch_lbr_ebx = 0x7;
	c->arch_lbr_ecx = 0x7;
	c->flags = SKD_PMU_USABLE | SKD_PMU_PEBS | SKD_PMU_PEBS_BASELINE |
		   SKD_PMU_PEBS_TRAP | SKD_PMU_ARCH_LBR | SKD_PMU_FW_WRITES |
		   SKD_PMU_SIMULATED;
}

/* Sapphire Rapids, family 6 model 0x8f stepping 8: mapfile row 6-8F. */
void pmu_caps_sapphirerapids(struct skd_pmu_caps *c)
{
	caps_glc_grt(c, 8, 0xf);
	c->signature = 0x806f8;
	c->model = 0x8f;
	c->stepping = 8;
	caps_list(c, "sapphirerapids");
}

/*
 * Alder Lake-S, family 6 model 0x97 stepping 2, hybrid (CPUID.7:EDX[15]):
 * the P-core answers CPUID.1AH:EAX[31:24] = 0x40 (Core), 8 GP and fixed
 * counters 0-3; the E-core 0x20 (Atom), 6 GP and fixed counters 0-2.
 * Mapfile rows 6-97 with core types 0x40 and 0x20.
 */
void pmu_caps_alderlake_p(struct skd_pmu_caps *c)
{
	caps_glc_grt(c, 8, 0xf);
	c->signature = 0x90672;
	c->model = 0x97;
	c->stepping = 2;
	c->core_type = 0x40;
	c->flags |= SKD_PMU_HYBRID;
	caps_list(c, "alderlake_goldencove");
}

void pmu_caps_alderlake_e(struct skd_pmu_caps *c)
{
	caps_glc_grt(c, 6, 0x7);
	c->signature = 0x90672;
	c->model = 0x97;
	c->stepping = 2;
	c->core_type = 0x20;
	c->flags |= SKD_PMU_HYBRID;
	caps_list(c, "alderlake_gracemont");
}

/* Ivy Bridge, family 6 model 0x3a: in none of skidless's lists. */
void pmu_caps_ivybridge(struct skd_pmu_caps *c)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->vendor, "GenuineIntel");
	c->signature = 0x306a9;
	c->family = 6;
	c->model = 0x3a;
	c->stepping = 9;
	c->version = 3;
	c->nr_gp = 4;
	c->gp_width = 48;
	c->nr_fixed = 3;
	c->fixed_width = 48;
	c->fixed_mask = 0x7;
	/* LBR fmt 3, trap, arch regs, PEBS fmt 1; no full-width writes */
	c->perf_cap = 0x3 | 0x40 | 0x80 | 0x100;
	c->pebs_fmt = 1;
	c->lbr_fmt = 3;
	c->lbr_nr = 16;
	c->lbr_from = 0x680;
	c->lbr_to = 0x6c0;
	c->flags = SKD_PMU_USABLE | SKD_PMU_PEBS | SKD_PMU_PEBS_TRAP |
		   SKD_PMU_LBR;
	c->events = NULL;
	c->cpu = NULL;
}
