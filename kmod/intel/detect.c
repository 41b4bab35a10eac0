// SPDX-License-Identifier: GPL-2.0
/*
 * What the PMU behind an accessor has, read the way Linux's
 * intel_pmu_init() (arch/x86/events/intel/core.c) reads it: vendor, CPUID
 * leaf 0xA, IA32_PERF_CAPABILITIES when PDCM says it exists, PEBS only
 * with DS, DTES64 and MISC_ENABLE's PEBS_UNAVAIL clear, architectural LBR
 * from leaf 0x1C, legacy LBR from the model table. The event list follows
 * Intel's mapfile.csv: family, model, stepping and, on hybrid parts, the
 * core type of the CPU this runs on (CPUID.1AH). The first reason the PMU
 * cannot be used goes into caps->why.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#else
#include <stdio.h>
#include <string.h>
#endif

#include "event_rules.h"
#include "models.h"
#include "msrs.h"
#include "pmu.h"

#define CPUID1_EDX_DS		BIT(21)
#define CPUID1_ECX_DTES64	BIT(2)
#define CPUID1_ECX_PDCM		BIT(15)
#define CPUID1_ECX_HYPERVISOR	BIT(31)
#define CPUID7_EDX_TFA		BIT(13)	/* TSX_FORCE_ABORT */
#define CPUID7_EDX_HYBRID	BIT(15)
#define CPUID7_EDX_ARCH_LBR	BIT(19)
#define ARCH_EVENTS_NEEDED	7	/* CPUID.0AH:EAX[31:24] */

enum { EAX, EBX, ECX, EDX };

static u32 last_bit(u32 v)
{
	u32 n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

static void set_why(struct skd_pmu_caps *c, const char *what)
{
	static const char hv_hint[] =
		" (a hypervisor without a virtual PMU; KVM: -cpu host,pmu=on)";
	const char *hv = (c->flags & SKD_PMU_HYPERVISOR) ? hv_hint : "";

	if (!c->why[0])
		snprintf(c->why, sizeof(c->why), "%s%s", what, hv);
}

static void read_identity(const struct skd_pmu_ops *ops,
			  struct skd_pmu_caps *c, u32 *max_leaf)
{
	u32 r[4];
	u32 base_family;

	ops->cpuid(0, 0, r);
	*max_leaf = r[EAX];
	memcpy(c->vendor, &r[EBX], 4);
	memcpy(c->vendor + 4, &r[EDX], 4);
	memcpy(c->vendor + 8, &r[ECX], 4);
	c->vendor[12] = '\0';

	ops->cpuid(1, 0, r);
	c->signature = r[EAX];
	base_family = (r[EAX] >> 8) & 0xf;
	c->family = base_family;
	if (base_family == 0xf)
		c->family += (r[EAX] >> 20) & 0xff;
	c->model = (r[EAX] >> 4) & 0xf;
	if (base_family == 0x6 || base_family == 0xf)
		c->model |= ((r[EAX] >> 16) & 0xf) << 4;
	c->stepping = r[EAX] & 0xf;
	if (r[ECX] & CPUID1_ECX_HYPERVISOR)
		c->flags |= SKD_PMU_HYPERVISOR;
}

/* Leaf 0xA: counters, widths, architectural events. */
static bool read_perfmon(const struct skd_pmu_ops *ops, struct skd_pmu_caps *c,
			 u32 max_leaf)
{
	u32 r[4], mask_len;

	if (max_leaf < 0xa) {
		set_why(c, "no CPUID leaf 0xA: no architectural perfmon");
		return false;
	}
	ops->cpuid(0xa, 0, r);
	c->version = r[EAX] & 0xff;
	c->nr_gp = (r[EAX] >> 8) & 0xff;
	c->gp_width = (r[EAX] >> 16) & 0xff;
	mask_len = (r[EAX] >> 24) & 0xff;
	c->events_missing = mask_len >= 32 ? r[EBX] :
			    r[EBX] & (BIT(mask_len) - 1);
	c->fixed_width = (r[EDX] >> 5) & 0xff;
	if (c->version >= 5) {
		/* A bitmap from v5 on: fixed counters may have holes. */
		c->fixed_mask = r[ECX];
		c->nr_fixed = last_bit(r[ECX]);
	} else {
		c->nr_fixed = r[EDX] & 0x1f;
		/* v2-v4 parts under-report; perf assumes 3 on bare metal. */
		if (c->version > 1 && c->nr_fixed < 3 &&
		    !(c->flags & SKD_PMU_HYPERVISOR))
			c->nr_fixed = 3;
		c->fixed_mask = (1U << c->nr_fixed) - 1;
	}
	if (c->nr_gp > SKD_MAX_GP)
		c->nr_gp = SKD_MAX_GP;
	if (c->nr_fixed > SKD_MAX_FIXED)
		c->nr_fixed = SKD_MAX_FIXED;
	c->fixed_mask &= BIT(SKD_MAX_FIXED) - 1;

	if (!c->version) {
		set_why(c, "CPUID.0AH reports no architectural perfmon");
		return false;
	}
	if (c->version < 2) {
		set_why(c, "perfmon v1 has no global control; skidless needs v2+");
		return false;
	}
	if (mask_len < ARCH_EVENTS_NEEDED || !c->nr_gp || !c->gp_width) {
		set_why(c, "CPUID.0AH describes no usable counters");
		return false;
	}
	return true;
}

static void read_pebs(const struct skd_pmu_ops *ops, struct skd_pmu_caps *c,
		      u32 edx1, u32 ecx1)
{
	u64 misc = 0;
	u32 fmt = SKD_PERFCAP_PEBS_FMT(c->perf_cap);

	if (!(edx1 & CPUID1_EDX_DS) || !(ecx1 & CPUID1_ECX_DTES64))
		return;
	/* Unreadable MISC_ENABLE: say PEBS is unavailable. */
	if (ops->read_msr(MSR_IA32_MISC_ENABLE, &misc) ||
	    (misc & MSR_IA32_MISC_ENABLE_PEBS_UNAVAIL))
		return;
	if (fmt < 1 || fmt > 5)
		return;
	c->pebs_fmt = fmt;
	c->flags |= SKD_PMU_PEBS;
	if (c->perf_cap & PERF_CAP_PEBS_TRAP)
		c->flags |= SKD_PMU_PEBS_TRAP;
	if (fmt >= 4 && (c->perf_cap & PERF_CAP_PEBS_BASELINE))
		c->flags |= SKD_PMU_PEBS_BASELINE;
}

static void read_lbr(const struct skd_pmu_ops *ops, struct skd_pmu_caps *c,
		     u32 max_leaf, u32 edx7, bool pdcm)
{
	u32 r[4];
	u64 tos;

	if ((edx7 & CPUID7_EDX_ARCH_LBR) && max_leaf >= 0x1c) {
		ops->cpuid(0x1c, 0, r);
		c->arch_lbr_depths = r[EAX] & 0xff;
		c->arch_lbr_ebx = r[EBX];
		c->arch_lbr_ecx = r[ECX];
		c->lbr_nr = last_bit(c->arch_lbr_depths) * 8;
		if (c->lbr_nr)
			c->flags |= SKD_PMU_ARCH_LBR;
		return;
	}
	/* Legacy LBR: the layout is per model; the format from PERF_CAP. */
	if (!c->cpu || !c->cpu->lbr_nr || !pdcm)
		return;
	/* Hypervisors may advertise LBRs they do not implement. */
	if (ops->read_msr(MSR_LBR_TOS, &tos))
		return;
	c->lbr_fmt = SKD_PERFCAP_LBR_FMT(c->perf_cap);
	c->lbr_nr = c->cpu->lbr_nr;
	c->lbr_from = c->cpu->lbr_from;
	c->lbr_to = c->cpu->lbr_to;
	if (c->lbr_fmt == SKD_LBR_FMT_INFO || c->lbr_fmt == SKD_LBR_FMT_INFO2)
		c->lbr_info = c->cpu->lbr_info;
	c->flags |= SKD_PMU_LBR;
}

/*
 * TSX force-abort: with this feature (and microcode that has it), counter
 * 3 counts correctly only while MSR_TSX_FORCE_ABORT[0] makes every RTM
 * transaction abort (core.c tfa_get_event_constraints()). skidless does
 * not change how TSX behaves for everyone: it keeps off counter 3 unless
 * someone set that bit.
 */
static void read_tfa(const struct skd_pmu_ops *ops, struct skd_pmu_caps *c,
		     u32 edx7)
{
	u64 tfa = 0;

	if (!(edx7 & CPUID7_EDX_TFA))
		return;
	if (ops->read_msr(MSR_TSX_FORCE_ABORT, &tfa) ||
	    !(tfa & MSR_TFA_RTM_FORCE_ABORT))
		c->flags |= SKD_PMU_TFA;
}

void skd_pmu_detect(const struct skd_pmu_ops *ops, struct skd_pmu_caps *c)
{
	u32 r[4], max_leaf, edx1, ecx1, edx7 = 0;
	bool pdcm;

	memset(c, 0, sizeof(*c));
	read_identity(ops, c, &max_leaf);
	if (strcmp(c->vendor, "GenuineIntel")) {
		snprintf(c->why, sizeof(c->why), "CPU vendor is %s, not Intel",
			 c->vendor[0] ? c->vendor : "unknown");
		return;
	}
	ops->cpuid(1, 0, r);
	edx1 = r[EDX];
	ecx1 = r[ECX];
	pdcm = ecx1 & CPUID1_ECX_PDCM;
	if (max_leaf >= 7) {
		ops->cpuid(7, 0, r);
		edx7 = r[EDX];
	}
	if ((edx7 & CPUID7_EDX_HYBRID) && max_leaf >= 0x1a) {
		c->flags |= SKD_PMU_HYBRID;
		ops->cpuid(0x1a, 0, r);
		c->core_type = r[EAX] >> 24;
	}
	c->events = skd_event_list_match(c->family, c->model, c->stepping,
					 c->core_type);
	/*
	 * A hybrid model without the hybrid flag has no Atom cores (i5-12400,
	 * or E-cores disabled in firmware): every core is the Core type, whose
	 * mapfile rows then apply (Linux gives such a part the big core's PMU).
	 */
	if (!c->events && !(c->flags & SKD_PMU_HYBRID))
		c->events = skd_event_list_match(c->family, c->model,
						 c->stepping,
						 SKD_CORE_TYPE_CORE);
	c->cpu = skd_cpu_model_of(c->events);

	if (!read_perfmon(ops, c, max_leaf))
		return;
	if (pdcm && ops->read_msr(MSR_IA32_PERF_CAPABILITIES, &c->perf_cap))
		c->perf_cap = 0;
	if (c->perf_cap & SKD_PERFCAP_FW_WRITES)
		c->flags |= SKD_PMU_FW_WRITES;
	read_pebs(ops, c, edx1, ecx1);
	read_lbr(ops, c, max_leaf, edx7, pdcm);
	read_tfa(ops, c, edx7);
	if (ops->pti_active())
		c->flags |= SKD_PMU_PTI;
	c->flags |= SKD_PMU_USABLE;
}

bool skd_pmu_same(const struct skd_pmu_caps *a, const struct skd_pmu_caps *b)
{
	return a->signature == b->signature && a->core_type == b->core_type &&
	       a->nr_gp == b->nr_gp && a->fixed_mask == b->fixed_mask &&
	       a->pebs_fmt == b->pebs_fmt && a->lbr_nr == b->lbr_nr &&
	       a->events == b->events &&
	       ((a->flags ^ b->flags) & ~(SKD_PMU_TFA | SKD_PMU_SIMULATED)) == 0;
}

void skd_pmu_caps_to_info(const struct skd_pmu_caps *c,
			  struct skd_pmu_info *info)
{
	info->flags = c->flags;
	info->cpu_signature = c->signature;
	info->perfmon_version = c->version;
	info->nr_gp = c->nr_gp;
	info->gp_width = c->gp_width;
	info->nr_fixed = c->nr_fixed;
	info->fixed_width = c->fixed_width;
	info->pebs_format = c->pebs_fmt;
	info->lbr_format = c->lbr_fmt;
	info->lbr_depth = c->lbr_nr;
	info->fixed_mask = c->fixed_mask;
	info->perf_capabilities = c->perf_cap;
	info->core_type = c->core_type;
	info->arch_lbr_ebx = c->arch_lbr_ebx;
	info->arch_lbr_ecx = c->arch_lbr_ecx;
	snprintf(info->model_name, sizeof(info->model_name), "%s",
		 c->events ? c->events->name : "");
	snprintf(info->why, sizeof(info->why), "%s", c->why);
}
