// SPDX-License-Identifier: GPL-2.0
/*
 * The PMUs of the host tests and fuzzers, as CPUID and PERF_CAPABILITIES
 * describe them (../shared/ref/pmu-intel.md 1.4, 1.5), filled in by hand
 * rather than by detect.c, so a detection bug cannot hide in both.
 */
#include <string.h>

#include "models.h"
#include "pmu_caps.h"

void pmu_caps_skylake(struct skd_pmu_caps *c)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->vendor, "GenuineIntel");
	c->signature = 0x50654;
	c->family = 6;
	c->model = 0x55;
	c->stepping = 4;
	c->version = 4;
	c->nr_gp = 4;
	c->gp_width = 48;
	c->nr_fixed = 3;
	c->fixed_width = 48;
	c->fixed_mask = 0x7;
	/* LBR fmt 5, PEBS trap, arch regs, PEBS fmt 3, FW writes (1.4) */
	c->perf_cap = 0x5 | 0x40 | 0x80 | 0x300 | 0x2000;
	c->pebs_fmt = 3;
	c->lbr_fmt = 5;
	c->lbr_nr = 32;
	c->lbr_from = 0x680;
	c->lbr_to = 0x6c0;
	c->lbr_info = 0xdc0;
	c->flags = SKD_PMU_USABLE | SKD_PMU_PEBS | SKD_PMU_PEBS_TRAP |
		   SKD_PMU_LBR | SKD_PMU_FW_WRITES | SKD_PMU_SIMULATED;
	c->cpu = skd_cpu_model_by_name("skylake");
}

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
	/* LBR fmt 5, trap, arch regs, PEBS fmt 4, FW writes, baseline */
	c->perf_cap = 0x5 | 0x40 | 0x80 | 0x400 | 0x2000 | 0x4000;
	c->pebs_fmt = 4;
	c->lbr_fmt = 5;
	c->lbr_nr = 32;
	c->lbr_from = 0x680;
	c->lbr_to = 0x6c0;
	c->lbr_info = 0xdc0;
	c->flags = SKD_PMU_USABLE | SKD_PMU_PEBS | SKD_PMU_PEBS_BASELINE |
		   SKD_PMU_PEBS_TRAP | SKD_PMU_LBR | SKD_PMU_FW_WRITES |
		   SKD_PMU_SIMULATED;
	c->cpu = skd_cpu_model_by_name("icelake");
}

void pmu_caps_sapphirerapids(struct skd_pmu_caps *c)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->vendor, "GenuineIntel");
	c->signature = 0x806f8;
	c->family = 6;
	c->model = 0x8f;
	c->stepping = 8;
	c->version = 5;
	c->nr_gp = 8;
	c->gp_width = 48;
	c->nr_fixed = 4;
	c->fixed_width = 48;
	c->fixed_mask = 0xf;
	/* LBR fmt 0x3f (arch LBR), trap, arch regs, fmt 5, FW, baseline */
	c->perf_cap = 0x3f | 0x40 | 0x80 | 0x500 | 0x2000 | 0x4000;
	c->pebs_fmt = 5;
	c->lbr_nr = 32;
	c->arch_lbr_depths = 0x0f;	/* 8, 16, 24, 32 (1.5) */
	c->arch_lbr_ebx = 0x7;		/* CPL, branch type, call stack */
	c->arch_lbr_ecx = 0x7;		/* mispredict, timed, branch type */
	c->flags = SKD_PMU_USABLE | SKD_PMU_PEBS | SKD_PMU_PEBS_BASELINE |
		   SKD_PMU_PEBS_TRAP | SKD_PMU_ARCH_LBR | SKD_PMU_FW_WRITES |
		   SKD_PMU_SIMULATED;
	c->cpu = skd_cpu_model_by_name("sapphirerapids");
}

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
	c->perf_cap = 0x3 | 0x40 | 0x80 | 0x100;
	c->pebs_fmt = 1;
	c->lbr_fmt = 3;
	c->lbr_nr = 16;
	c->lbr_from = 0x680;
	c->lbr_to = 0x6c0;
	c->flags = SKD_PMU_USABLE | SKD_PMU_PEBS | SKD_PMU_PEBS_TRAP |
		   SKD_PMU_LBR;
	c->cpu = NULL;
}
