/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Intel PMU as skidless sees it: what a CPU has (struct skd_pmu_caps),
 * and the one door through which the backend reaches it (struct
 * skd_pmu_ops). The real CPU and the simulated PMU are two implementations
 * of that door; everything behind it (detection, programming, the PMI,
 * draining) is the same code for both.
 */
#ifndef _SKD_INTEL_PMU_H
#define _SKD_INTEL_PMU_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "kernel_shim.h"
#endif

#include "skidless.h"

struct pt_regs;
struct skd_cpu_model;
struct skd_event_list;

struct skd_pmu_ops {
	const char *name;
	/* This CPU's registers. -EIO when one does not exist. Any context. */
	int (*read_msr)(u32 msr, u64 *val);
	int (*write_msr)(u32 msr, u64 val);
	void (*cpuid)(u32 leaf, u32 subleaf, u32 regs[4]);
	/* Is kernel page-table isolation on (DS buffers unmapped for users)? */
	bool (*pti_active)(void);
	/*
	 * Take or give back the kernel's reservation of GP counter @gp, so
	 * perf and the NMI watchdog keep off it. false: someone holds it.
	 * Process context.
	 */
	bool (*reserve)(unsigned int gp);
	void (*release)(unsigned int gp);
	/*
	 * This CPU's PMU starts or stops serving a session: route its
	 * interrupt as an NMI. On the CPU, IRQs off.
	 */
	void (*cpu_attach)(void);
	void (*cpu_detach)(void);
	/* In the PMI: deliver the next one too (the APIC masks LVTPC). */
	void (*pmi_rearm)(void);
	/* In the PMI: the context the PMU interrupted. */
	struct pt_regs *(*pmi_regs)(struct pt_regs *nmi_regs);
	/*
	 * Could this CPU enter a VM: VMX on, or a hypervisor module loaded
	 * that may turn it on? A PEBS assist in a guest writes through the
	 * guest's page tables. Any context, on the CPU.
	 */
	bool (*virt_active)(void);
};

/*
 * The simulated PMU lives in its own module (skidless_sim.ko, test
 * equipment), which hands its models to the sim backend here. Sessions on
 * a model hold a reference to that module.
 */
struct skd_sim_provider {
	struct module *owner;
	u32 models;			/* bit (1 << id) per enum skd_sim_model */
	u32 default_model;		/* for SKD_SIM_DEFAULT */
	const struct skd_pmu_ops *(*ops)(u32 model);	/* NULL: unknown */
};

int skd_sim_register(const struct skd_sim_provider *p);
void skd_sim_unregister(const struct skd_sim_provider *p);

struct skd_pmu_caps {
	char vendor[13];
	u32 signature;			/* CPUID.1:EAX */
	u32 family, model, stepping;
	u32 version;			/* architectural perfmon version */
	u32 nr_gp, gp_width;
	u32 nr_fixed, fixed_width;
	u32 fixed_mask;			/* bit j: fixed counter j exists */
	u32 events_missing;		/* CPUID.0AH:EBX, 1 = not available */
	u64 perf_cap;			/* IA32_PERF_CAPABILITIES, 0 without PDCM */
	u32 pebs_fmt;			/* 0 with no usable PEBS */
	u32 lbr_fmt;			/* legacy LBR format */
	u32 lbr_nr;			/* LBR entries; 0: no LBR */
	u32 lbr_from, lbr_to, lbr_info;	/* legacy MSR bases; info 0: none */
	u32 arch_lbr_depths;		/* CPUID.1CH:EAX[7:0] */
	u32 arch_lbr_ebx, arch_lbr_ecx;
	u32 flags;			/* enum skd_pmu_flags */
	u32 core_type;			/* CPUID.1AH:EAX[31:24]; 0: not hybrid */
	/* Intel's event list for this CPU and its model; NULL: unknown CPU. */
	const struct skd_event_list *events;
	const struct skd_cpu_model *cpu;
	char why[128];			/* why not usable; "" when usable */
};

/*
 * Read what the PMU behind @ops has, on this CPU. Fills @caps in every
 * case; SKD_PMU_USABLE says whether sessions can use it, ->why if not.
 * Pure but for @ops: any context where @ops may be called.
 */
void skd_pmu_detect(const struct skd_pmu_ops *ops, struct skd_pmu_caps *caps);
/* Are @a and @b the same PMU (a hybrid part's core types are not)? */
bool skd_pmu_same(const struct skd_pmu_caps *a, const struct skd_pmu_caps *b);

/* Copy @caps into the uapi description. */
void skd_pmu_caps_to_info(const struct skd_pmu_caps *caps,
			  struct skd_pmu_info *info);

#endif /* _SKD_INTEL_PMU_H */
