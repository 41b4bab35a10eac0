// SPDX-License-Identifier: GPL-2.0
/*
 * The LBR registers of this CPU: read them at the PMI (frozen there unless
 * in call-stack mode), empty them when a followed task comes back on the
 * CPU so another task's branches never show in its stacks, and turn
 * recording on and off. Legacy LBRs are a ring ending at TOS; architectural
 * LBRs start at entry 0 and end at the first empty FROM.
 */
#include "lbr.h"
#include "run.h"

void skd_lbr_read(struct skd_pmu_cpu *pc)
{
	const struct skd_pmu_session *ps = pc->ps;
	const struct skd_pmu_caps *c = &ps->caps;
	const struct skd_pmu_ops *ops = ps->ops;
	bool arch = c->flags & SKD_PMU_ARCH_LBR;
	u64 tos = 0, from, to, info;
	u32 i, slot, n = 0, nr = ps->plan.lbr_nr;

	if (!arch && ops->read_msr(MSR_LBR_TOS, &tos))
		goto out;
	for (i = 0; i < nr; i++) {
		slot = arch ? i : (tos - i) & (nr - 1);
		info = 0;
		if (arch) {
			if (ops->read_msr(MSR_ARCH_LBR_FROM_0 + slot, &from) ||
			    ops->read_msr(MSR_ARCH_LBR_TO_0 + slot, &to) ||
			    ops->read_msr(MSR_ARCH_LBR_INFO_0 + slot, &info))
				break;
		} else if (ops->read_msr(c->lbr_from + slot, &from) ||
			   ops->read_msr(c->lbr_to + slot, &to) ||
			   (c->lbr_info && ops->read_msr(c->lbr_info + slot, &info))) {
			break;
		}
		if (!from)
			break;
		if (arch)
			skd_lbr_decode_arch(from, to, info, c->arch_lbr_ecx,
					    &pc->lbr[n]);
		else
			skd_lbr_decode_legacy(c->lbr_fmt, from, to, info,
					      &pc->lbr[n]);
		n++;
	}
out:
	pc->nr_lbr = n;
}

void skd_lbr_reset(struct skd_pmu_session *ps)
{
	const struct skd_pmu_caps *c = &ps->caps;
	const struct skd_pmu_ops *ops = ps->ops;
	u32 i;

	if (c->flags & SKD_PMU_ARCH_LBR) {
		/* Writing the depth empties every entry. */
		ops->write_msr(MSR_ARCH_LBR_DEPTH, ps->plan.arch_lbr_depth);
		return;
	}
	for (i = 0; i < c->lbr_nr; i++) {
		ops->write_msr(c->lbr_from + i, 0);
		ops->write_msr(c->lbr_to + i, 0);
		if (c->lbr_info)
			ops->write_msr(c->lbr_info + i, 0);
	}
}

/*
 * The filter first, then the enable, and the reverse to stop (lbr.c
 * __intel_pmu_lbr_enable()): the LBR never records with a stale filter.
 */
void skd_lbr_enable(struct skd_pmu_session *ps, bool on)
{
	const struct skd_pmu_plan *p = &ps->plan;
	const struct skd_pmu_ops *ops = ps->ops;
	bool arch = ps->caps.flags & SKD_PMU_ARCH_LBR;
	u64 debugctl = 0;

	if (on) {
		if (arch)
			ops->write_msr(MSR_ARCH_LBR_CTL, p->arch_lbr_ctl);
		else
			ops->write_msr(MSR_LBR_SELECT, p->lbr_select);
	} else if (arch) {
		ops->write_msr(MSR_ARCH_LBR_CTL, 0);
	}
	/* DEBUGCTL is shared (SMM freeze, BTS): change only our bits. */
	if (!ops->read_msr(MSR_IA32_DEBUGCTLMSR, &debugctl)) {
		debugctl &= ~(DEBUGCTLMSR_LBR | DEBUGCTLMSR_FREEZE_LBRS_ON_PMI);
		if (on)
			debugctl |= p->debugctl;
		ops->write_msr(MSR_IA32_DEBUGCTLMSR, debugctl);
	}
}
