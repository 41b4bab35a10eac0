// SPDX-License-Identifier: GPL-2.0
/*
 * The real CPU behind struct skd_pmu_ops: MSRs through the _safe
 * accessors (a missing MSR is -EIO, never an oops), CPUID, the kernel's
 * counter reservations (reserve_evntsel_nmi(): perf and the NMI watchdog
 * take the same ones, so holding them keeps both off our counters and
 * failing to get them means one of them is there), and the local APIC's
 * LVTPC, which must deliver the PMI as an NMI on every CPU we use.
 */
#include <linux/cpuhotplug.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <asm/apic.h>
#include <asm/cpufeature.h>
#include <asm/nmi.h>
#include <asm/processor.h>
#include <asm/special_insns.h>
#include <asm/tsc.h>

#include "compat.h"
#include "hw.h"
#include "run.h"
#include "msrs.h"
#include "pmu.h"

static DEFINE_PER_CPU(u32, saved_lvtpc);

static int hw_rdmsr(u32 msr, u64 *val)
{
	return skd_rdmsr_safe(msr, val) ? -EIO : 0;
}

static int hw_wrmsr(u32 msr, u64 val)
{
	return skd_wrmsr_safe(msr, val) ? -EIO : 0;
}

static void hw_cpuid(u32 leaf, u32 subleaf, u32 r[4])
{
	cpuid_count(leaf, subleaf, &r[0], &r[1], &r[2], &r[3]);
}

static bool hw_pti_active(void)
{
	return boot_cpu_has(X86_FEATURE_PTI);
}

static bool hw_reserve(unsigned int gp)
{
	if (!reserve_evntsel_nmi(SKD_MSR_EVENTSEL(gp)))
		return false;
	if (!reserve_perfctr_nmi(SKD_MSR_PMC(gp))) {
		release_evntsel_nmi(SKD_MSR_EVENTSEL(gp));
		return false;
	}
	return true;
}

static void hw_release(unsigned int gp)
{
	release_perfctr_nmi(SKD_MSR_PMC(gp));
	release_evntsel_nmi(SKD_MSR_EVENTSEL(gp));
}

/* apic->write, not apic_write(): the latter is a static call from 6.6 on. */
static void hw_cpu_attach(void)
{
	this_cpu_write(saved_lvtpc, apic->read(APIC_LVTPC));
	apic->write(APIC_LVTPC, APIC_DM_NMI);
}

static void hw_cpu_detach(void)
{
	apic->write(APIC_LVTPC, this_cpu_read(saved_lvtpc));
}

static void hw_pmi_rearm(void)
{
	/* The APIC masks LVTPC when it delivers a PMI. */
	apic->write(APIC_LVTPC, APIC_DM_NMI);
}

static struct pt_regs *hw_pmi_regs(struct pt_regs *nmi_regs)
{
	return nmi_regs;
}

/* VMX on: this CPU may enter a guest (SDM 24.7, CR4.VMXE before VMXON). */
static bool hw_virt_active(void)
{
	return __read_cr4() & X86_CR4_VMXE;
}

const struct skd_pmu_ops skd_hw_ops = {
	.name		= "intel",
	.read_msr	= hw_rdmsr,
	.write_msr	= hw_wrmsr,
	.cpuid		= hw_cpuid,
	.pti_active	= hw_pti_active,
	.reserve	= hw_reserve,
	.release	= hw_release,
	.cpu_attach	= hw_cpu_attach,
	.cpu_detach	= hw_cpu_detach,
	.pmi_rearm	= hw_pmi_rearm,
	.pmi_regs	= hw_pmi_regs,
	.virt_active	= hw_virt_active,
};

/*
 * Detection of every CPU, at load and whenever one comes online: hybrid
 * parts differ per core type, and a CPU first seen after load must not
 * take another's answer. The hotplug callback runs on the CPU, before
 * skidless starts sessions there (cpu.c registers its state later).
 */
static struct skd_pmu_caps *hw_caps;
static enum cpuhp_state hw_cpuhp;

static void detect_this_cpu(void *unused)
{
	skd_pmu_detect(&skd_hw_ops, &hw_caps[smp_processor_id()]);
}

/*
 * A CPU coming online rewrites its caps field by field: readers copy
 * them whole under this lock, never a half-detected CPU.
 */
static DEFINE_MUTEX(hw_caps_lock);

static int hw_cpu_online(unsigned int cpu)
{
	mutex_lock(&hw_caps_lock);
	detect_this_cpu(NULL);
	mutex_unlock(&hw_caps_lock);
	return 0;
}

int skd_hw_detect(void)
{
	int ret;

	hw_caps = kcalloc(nr_cpu_ids, sizeof(*hw_caps), GFP_KERNEL);
	if (!hw_caps)
		return -ENOMEM;
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "skidless/pmu:detect",
				hw_cpu_online, NULL);
	if (ret < 0) {
		kfree(hw_caps);
		hw_caps = NULL;
		return ret;
	}
	hw_cpuhp = ret;
	return 0;
}

void skd_hw_forget(void)
{
	cpuhp_remove_state(hw_cpuhp);
	kfree(hw_caps);
	hw_caps = NULL;
}

bool skd_tsc_time_usable(const struct skd_pmu_caps *caps)
{
	return caps->pebs_fmt >= 3 && tsc_khz &&
	       boot_cpu_has(X86_FEATURE_CONSTANT_TSC) &&
	       boot_cpu_has(X86_FEATURE_NONSTOP_TSC);
}

void skd_hw_caps(unsigned int cpu, struct skd_pmu_caps *caps)
{
	mutex_lock(&hw_caps_lock);
	/* Never online since load: plan as CPU 0; start checks it again. */
	if (!hw_caps[cpu].vendor[0])
		cpu = 0;
	*caps = hw_caps[cpu];
	mutex_unlock(&hw_caps_lock);
}
