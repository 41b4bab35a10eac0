// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated CPU's registers: which MSRs exist on a model, and what a
 * read or write does (legacy counter writes sign-extend 32 bits, a write
 * to GLOBAL_OVF_CTRL clears status bits and acknowledges the PMI, a write
 * to ARCH_LBR_DEPTH empties the LBR, GLOBAL_STATUS is read-only). An MSR
 * the model does not have fails with -EIO, as rdmsr_safe() would.
 *
 * Accesses come from the CPU whose registers they are: the backend with
 * IRQs off or in the PMI, the clock in its hard-IRQ tick. The clock does
 * nothing while a PMI is pending, so the PMI handler never races it.
 */
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/syscore_ops.h>

#include "sim.h"

struct sim_cpu __percpu *sim_cpus;

void sim_regs_reset(struct sim_cpu *sc, const struct sim_model *m)
{
	memset(&sc->r, 0, sizeof(sc->r));
	if (m->arch_lbr)
		sc->r.arch_lbr_depth = m->lbr_nr;
	sc->model = m;
}

bool sim_lbr_enabled(const struct sim_cpu *sc)
{
	if (sc->model->arch_lbr)
		return sc->r.arch_lbr_ctl & SKD_ARCH_LBR_EN;
	return sc->r.debugctl & SKD_DEBUGCTL_LBR;
}

static u64 counter_mask(const struct sim_model *m)
{
	return (1ULL << m->width) - 1;
}

/* The register an MSR number names on model @m, or NULL. */
static u64 *reg_of(const struct sim_model *m, struct sim_regs *r, u32 msr)
{
	u32 i;

	switch (msr) {
	case SKD_MSR_FIXED_CTR_CTRL:	return &r->fixed_ctrl;
	case SKD_MSR_GLOBAL_STATUS:	return &r->global_status;
	case SKD_MSR_GLOBAL_CTRL:	return &r->global_ctrl;
	case SKD_MSR_PEBS_ENABLE:	return &r->pebs_enable;
	case SKD_MSR_PEBS_LD_LAT:	return &r->ld_lat;
	case SKD_MSR_DS_AREA:		return &r->ds_area;
	case SKD_MSR_DEBUGCTL:		return &r->debugctl;
	case SKD_MSR_PEBS_DATA_CFG:
		return m->baseline ? &r->pebs_data_cfg : NULL;
	}
	if (msr >= SKD_MSR_PMC(0) && msr < SKD_MSR_PMC(m->nr_gp))
		return &r->pmc[msr - SKD_MSR_PMC(0)];
	if (msr >= SKD_MSR_A_PMC(0) && msr < SKD_MSR_A_PMC(m->nr_gp) &&
	    (m->perf_cap & SKD_PERFCAP_FW_WRITES))
		return &r->pmc[msr - SKD_MSR_A_PMC(0)];
	if (msr >= SKD_MSR_EVENTSEL(0) && msr < SKD_MSR_EVENTSEL(m->nr_gp))
		return &r->evtsel[msr - SKD_MSR_EVENTSEL(0)];
	if (msr >= SKD_MSR_FIXED_CTR(0) && msr < SKD_MSR_FIXED_CTR(m->nr_fixed))
		return &r->fixed[msr - SKD_MSR_FIXED_CTR(0)];

	if (m->arch_lbr) {
		if (msr == SKD_MSR_ARCH_LBR_CTL)
			return &r->arch_lbr_ctl;
		if (msr == SKD_MSR_ARCH_LBR_DEPTH)
			return &r->arch_lbr_depth;
		i = msr - SKD_MSR_ARCH_LBR_FROM;
		if (i < m->lbr_nr)
			return &r->lbr_from[i];
		i = msr - SKD_MSR_ARCH_LBR_TO;
		if (i < m->lbr_nr)
			return &r->lbr_to[i];
		i = msr - SKD_MSR_ARCH_LBR_INFO;
		if (i < m->lbr_nr)
			return &r->lbr_info[i];
		return NULL;
	}
	if (msr == SKD_MSR_LBR_SELECT)
		return &r->lbr_select;
	if (msr == SKD_MSR_LBR_TOS)
		return &r->lbr_tos;
	i = msr - SKD_MSR_LBR_NHM_FROM;
	if (i < m->lbr_nr)
		return &r->lbr_from[i];
	i = msr - SKD_MSR_LBR_NHM_TO;
	if (i < m->lbr_nr)
		return &r->lbr_to[i];
	i = msr - SKD_MSR_LBR_INFO;
	if (i < m->lbr_nr && SKD_PERFCAP_LBR_FMT(m->perf_cap) == SKD_LBR_FMT_INFO)
		return &r->lbr_info[i];
	return NULL;
}

int sim_rdmsr(const struct sim_model *m, u32 msr, u64 *val)
{
	struct sim_cpu *sc = this_cpu_ptr(sim_cpus);
	static struct sim_regs zero;
	u64 *reg;

	switch (msr) {
	case SKD_MSR_PERF_CAPABILITIES:
		*val = m->perf_cap;
		return 0;
	case SKD_MSR_MISC_ENABLE:
		*val = 1ULL << 7;	/* performance monitoring available */
		return 0;
	case SKD_MSR_GLOBAL_OVF_CTRL:
		*val = 0;
		return 0;
	}
	/* A CPU running another model (or none yet) is at power-on state. */
	reg = reg_of(m, sc->model == m ? &sc->r : &zero, msr);
	if (!reg)
		return -EIO;
	*val = *reg;
	return 0;
}

static void ack_status(struct sim_cpu *sc, u64 bits)
{
	sc->r.global_status &= ~bits;
	/* Nothing left to report: the PMI is over, the clock may go on. */
	if (!sc->r.global_status)
		WRITE_ONCE(sc->pmi_pending, false);
}

int sim_wrmsr(const struct sim_model *m, u32 msr, u64 val)
{
	struct sim_cpu *sc = this_cpu_ptr(sim_cpus);
	u64 *reg;

	if (sc->model != m)
		return -EIO;
	if (msr == SKD_MSR_GLOBAL_OVF_CTRL) {
		ack_status(sc, val);
		return 0;
	}
	reg = reg_of(m, &sc->r, msr);
	if (!reg || msr == SKD_MSR_GLOBAL_STATUS)
		return -EIO;

	if (msr >= SKD_MSR_PMC(0) && msr < SKD_MSR_PMC(m->nr_gp))
		/* The legacy alias takes 32 bits and sign-extends them. */
		val = (u64)(s64)(s32)val & counter_mask(m);
	else if (reg >= sc->r.pmc && reg < sc->r.pmc + SKD_MAX_GP)
		val &= counter_mask(m);
	else if (reg >= sc->r.fixed && reg < sc->r.fixed + SKD_MAX_FIXED)
		val &= counter_mask(m);

	if (msr == SKD_MSR_ARCH_LBR_DEPTH) {
		/* Only depths CPUID.1CH allows; a write empties the LBR. */
		if (!val || val % 8 || val > m->lbr_nr ||
		    !(m->leaf_1c[0] & BIT(val / 8 - 1)))
			return -EIO;
		memset(sc->r.lbr_from, 0, sizeof(sc->r.lbr_from));
		memset(sc->r.lbr_to, 0, sizeof(sc->r.lbr_to));
		memset(sc->r.lbr_info, 0, sizeof(sc->r.lbr_info));
	}
	*reg = val;
	return 0;
}

/*
 * System sleep: firmware brings the boot CPU back with its PMU at power-on
 * state, so must the model; whoever programmed it has to do it again.
 * Registered before the backend's own syscore ops, so it resumes first.
 */
static void sim_resume(void)
{
	struct sim_cpu *sc = this_cpu_ptr(sim_cpus);

	if (!sc->model)
		return;
	sim_regs_reset(sc, sc->model);
	sc->stats.resets++;
}

static struct syscore_ops sim_syscore_ops = {
	.resume = sim_resume,
};

void sim_sleep_init(void)
{
	register_syscore_ops(&sim_syscore_ops);
}

void sim_sleep_uninit(void)
{
	unregister_syscore_ops(&sim_syscore_ops);
}
