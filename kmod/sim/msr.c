// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated CPU's registers: which MSRs exist on a core, which bits of
 * each a write may set, and what a read or write does. As on the CPU:
 *
 *   - an MSR the core does not have, or a write that sets a reserved bit,
 *     fails with -EIO, as the #GP rdmsr_safe()/wrmsr_safe() turn into
 *     (SDM vol. 4 for the bits; the PEBS_ENABLE bits of PMC4-7 are
 *     reserved before adaptive PEBS);
 *   - the legacy counter alias 0xC1 + i takes 32 bits and sign-extends
 *     them; the full-width alias 0x4C1 + i exists only with
 *     PERF_CAPABILITIES[13] (SDM 18.2.6);
 *   - GLOBAL_STATUS is read-only and a write to GLOBAL_STATUS_RESET clears
 *     its bits, which is also what unfreezes the LBR (bit 58) and the
 *     counters (bit 59) on perfmon v4 and later (SDM 18.2.4.1);
 *   - writing ARCH_LBR_DEPTH empties the LBR.
 *
 * Beyond #GP, a write that breaks a rule the driver must follow is logged
 * (violations.c): changing another PMU owner's bits, or the LBR filter
 * while the LBR records.
 *
 * Accesses come from the CPU whose registers they are: the backend with
 * IRQs off or in the PMI, the clock in its hard-IRQ tick. The clock waits
 * for a PMI it raised, so the PMI handler never races it.
 */
#include <linux/hardirq.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "compat.h"
#include "sim.h"

struct sim_cpu __percpu *sim_cpus;

void sim_regs_reset(struct sim_cpu *sc, const struct sim_model *m)
{
	memset(&sc->r, 0, sizeof(sc->r));
	sc->model = m;
	sc->core = sim_core_of(m, smp_processor_id());
	if (sc->core->arch_lbr)
		sc->r.arch_lbr_depth = sc->core->lbr_nr;
	sc->logged = 0;
}

bool sim_lbr_enabled(const struct sim_cpu *sc)
{
	if (sc->core->arch_lbr)
		return sc->r.arch_lbr_ctl & ARCH_LBR_CTL_LBREN;
	return sc->r.debugctl & DEBUGCTLMSR_LBR;
}

bool sim_lbr_frozen(const struct sim_cpu *sc)
{
	return sc->r.global_status & GLOBAL_STATUS_LBRS_FROZEN;
}

static u64 counter_mask(const struct sim_core *c)
{
	return (1ULL << c->width) - 1;
}

static u64 gp_bits(const struct sim_core *c)
{
	return (1ULL << c->nr_gp) - 1;
}

static u64 fixed_bits(const struct sim_core *c)
{
	return ((1ULL << c->nr_fixed) - 1) << 32;
}

/* The bits a write to @msr may set; everything else is reserved. */
static u64 writable(const struct sim_core *c, u32 msr)
{
	u64 v = 0;
	unsigned int j;

	if (msr >= SKD_MSR_EVENTSEL(0) && msr < SKD_MSR_EVENTSEL(c->nr_gp)) {
		/* event..cmask; AnyThread only before v5 (SDM 18.2.3). */
		v = 0xffffffffULL;
		if (c->version >= 5)
			v &= ~ARCH_PERFMON_EVENTSEL_ANY;
		if (c->baseline)
			v |= ICL_EVENTSEL_ADAPTIVE;
		return v;
	}
	switch (msr) {
	case MSR_CORE_PERF_FIXED_CTR_CTRL:
		for (j = 0; j < c->nr_fixed; j++) {
			v |= SKD_FIXED_OS(j) | SKD_FIXED_USR(j) |
			     SKD_FIXED_PMI(j);
			if (c->version < 5)
				v |= BIT_ULL(4 * j + 2);	/* AnyThread */
			if (c->baseline)
				v |= SKD_FIXED_ADAPTIVE(j);
		}
		return v;
	case MSR_CORE_PERF_GLOBAL_CTRL:
		return gp_bits(c) | fixed_bits(c);
	case MSR_CORE_PERF_GLOBAL_OVF_CTRL:
		return gp_bits(c) | fixed_bits(c) | BIT_ULL(55) |
		       GLOBAL_STATUS_LBRS_FROZEN | GLOBAL_STATUS_COUNTERS_FROZEN |
		       BIT_ULL(61) | GLOBAL_STATUS_BUFFER_OVF | BIT_ULL(63);
	case MSR_IA32_PEBS_ENABLE:
		if (c->baseline)
			return gp_bits(c) | fixed_bits(c);
		v = gp_bits(c);
		if (c->quirks & SIM_PEBS_PMC0_3)
			v &= 0xf;
		/* Load-latency enables of PMC0-3 (perfmon v4). */
		return v | ((v & 0xf) << 32);
	case MSR_PEBS_DATA_CFG:
		return PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP |
		       PEBS_DATACFG_XMMS | PEBS_DATACFG_LBRS |
		       (0xffULL << PEBS_DATACFG_LBR_SHIFT);
	case MSR_PEBS_LD_LAT_THRESHOLD:
		return 0xffff;
	case MSR_PEBS_FRONTEND:
		return c->frontend_mask;
	case SKD_MSR_OFFCORE_RSP(0):
	case SKD_MSR_OFFCORE_RSP(1):
		return c->offcore_mask;
	case MSR_IA32_DEBUGCTLMSR:
		/* LBR, BTF, bus lock, TR ... RTM_DEBUG (SDM 17.4.1). */
		return 0xffc7;
	case MSR_LBR_SELECT:
		return 0x3ff;
	case MSR_ARCH_LBR_CTL:
		/* Filters the core has (CPUID.1CH:EBX), SDM 19.1.3. */
		v = ARCH_LBR_CTL_LBREN;
		if (sim_arch_lbr_ebx(c) & BIT(0))
			v |= SKD_ARCH_LBR_OS | SKD_ARCH_LBR_USR;
		if (sim_arch_lbr_ebx(c) & BIT(2))
			v |= ARCH_LBR_CTL_STACK;
		if (sim_arch_lbr_ebx(c) & BIT(1))
			v |= 0x7fULL << 16;
		return v;
	case MSR_TSX_FORCE_ABORT:
		return 0x3;
	}
	return ~0ULL;
}

/* The register an MSR number names on core @c, or NULL. */
static u64 *reg_of(const struct sim_core *c, struct sim_regs *r, u32 msr)
{
	u32 i;

	switch (msr) {
	case MSR_CORE_PERF_FIXED_CTR_CTRL:	return &r->fixed_ctrl;
	case MSR_CORE_PERF_GLOBAL_STATUS:	return &r->global_status;
	case MSR_CORE_PERF_GLOBAL_CTRL:	return &r->global_ctrl;
	case MSR_IA32_PEBS_ENABLE:	return &r->pebs_enable;
	case MSR_PEBS_LD_LAT_THRESHOLD:	return &r->ld_lat;
	case MSR_IA32_DS_AREA:		return &r->ds_area;
	case MSR_IA32_DEBUGCTLMSR:		return &r->debugctl;
	case SKD_MSR_OFFCORE_RSP(0):	return &r->offcore[0];
	case SKD_MSR_OFFCORE_RSP(1):	return &r->offcore[1];
	case MSR_PEBS_DATA_CFG:
		return c->baseline ? &r->pebs_data_cfg : NULL;
	case MSR_PEBS_FRONTEND:
		return c->frontend_mask ? &r->frontend : NULL;
	case MSR_TSX_FORCE_ABORT:
		return (c->quirks & SIM_TFA_CAPABLE) && READ_ONCE(sim_tfa) ?
		       &r->tsx_force_abort : NULL;
	}
	if (msr >= SKD_MSR_PMC(0) && msr < SKD_MSR_PMC(c->nr_gp))
		return &r->pmc[msr - SKD_MSR_PMC(0)];
	if (msr >= SKD_MSR_A_PMC(0) && msr < SKD_MSR_A_PMC(c->nr_gp) &&
	    (c->perf_cap & SKD_PERFCAP_FW_WRITES))
		return &r->pmc[msr - SKD_MSR_A_PMC(0)];
	if (msr >= SKD_MSR_EVENTSEL(0) && msr < SKD_MSR_EVENTSEL(c->nr_gp))
		return &r->evtsel[msr - SKD_MSR_EVENTSEL(0)];
	if (msr >= SKD_MSR_FIXED_CTR(0) && msr < SKD_MSR_FIXED_CTR(c->nr_fixed))
		return &r->fixed[msr - SKD_MSR_FIXED_CTR(0)];

	if (c->arch_lbr) {
		if (msr == MSR_ARCH_LBR_CTL)
			return &r->arch_lbr_ctl;
		if (msr == MSR_ARCH_LBR_DEPTH)
			return &r->arch_lbr_depth;
		i = msr - MSR_ARCH_LBR_FROM_0;
		if (i < c->lbr_nr)
			return &r->lbr_from[i];
		i = msr - MSR_ARCH_LBR_TO_0;
		if (i < c->lbr_nr)
			return &r->lbr_to[i];
		i = msr - MSR_ARCH_LBR_INFO_0;
		if (i < c->lbr_nr)
			return &r->lbr_info[i];
		return NULL;
	}
	if (msr == MSR_LBR_SELECT)
		return &r->lbr_select;
	if (msr == MSR_LBR_TOS)
		return &r->lbr_tos;
	i = msr - MSR_LBR_NHM_FROM;
	if (i < c->lbr_nr)
		return &r->lbr_from[i];
	i = msr - MSR_LBR_NHM_TO;
	if (i < c->lbr_nr)
		return &r->lbr_to[i];
	i = msr - MSR_LBR_INFO_0;
	if (i < c->lbr_nr && SKD_PERFCAP_LBR_FMT(c->perf_cap) == SKD_LBR_FMT_INFO)
		return &r->lbr_info[i];
	return NULL;
}

int sim_rdmsr(const struct sim_model *m, u32 msr, u64 *val)
{
	struct sim_cpu *sc = this_cpu_ptr(sim_cpus);
	const struct sim_core *c = sim_core_of(m, smp_processor_id());
	static struct sim_regs zero;
	u64 *reg;

	switch (msr) {
	case MSR_IA32_PERF_CAPABILITIES:
		*val = c->perf_cap;
		return 0;
	case MSR_IA32_MISC_ENABLE:
		*val = 1ULL << 7;	/* performance monitoring available */
		return 0;
	case MSR_CORE_PERF_GLOBAL_OVF_CTRL:
		*val = 0;
		return 0;
	}
	/* A CPU running another model (or none yet) is at power-on state. */
	reg = reg_of(c, sc->model == m ? &sc->r : &zero, msr);
	if (!reg) {
		if (sc->model == m)
			sim_violation(sc, SIM_V_NO_MSR, msr, 0, 0);
		return -EIO;
	}
	*val = *reg;
	return 0;
}

static void ack_status(struct sim_cpu *sc, u64 bits)
{
	sc->r.global_status &= ~bits;
	/* The handler ran: the tick that raised the PMI may go on. */
	WRITE_ONCE(sc->pmi_pending, false);
}

/* Rules a write must keep besides the reserved bits (the log, not #GP). */
static void check_write(struct sim_cpu *sc, u32 msr, u64 old, u64 val)
{
	u64 foreign = 0;

	switch (msr) {
	case MSR_CORE_PERF_GLOBAL_CTRL:
		foreign = READ_ONCE(sim_foreign_ctrl);
		break;
	case MSR_CORE_PERF_FIXED_CTR_CTRL:
		foreign = READ_ONCE(sim_foreign_fixed);
		break;
	case MSR_IA32_DEBUGCTLMSR:
		foreign = READ_ONCE(sim_foreign_debugctl);
		break;
	case MSR_LBR_SELECT:
		/* The filter is written before recording starts (lbr.c). */
		if (old != val && (sc->r.debugctl & DEBUGCTLMSR_LBR))
			sim_violation(sc, SIM_V_LBR_FILTER, msr, val, old);
		break;
	case MSR_ARCH_LBR_CTL:
		if ((old & val & ARCH_LBR_CTL_LBREN) && old != val)
			sim_violation(sc, SIM_V_LBR_FILTER, msr, val, old);
		break;
	}
	if ((old ^ val) & foreign)
		sim_violation(sc, SIM_V_FOREIGN, msr, val, old);
}

int sim_wrmsr(const struct sim_model *m, u32 msr, u64 val)
{
	struct sim_cpu *sc = this_cpu_ptr(sim_cpus);
	const struct sim_core *c = sc->core;
	u64 *reg;

	if (sc->model != m)
		return -EIO;
	if (val & ~writable(c, msr)) {
		sim_violation(sc, SIM_V_RESERVED, msr, val, writable(c, msr));
		return -EIO;
	}
	if (msr == MSR_CORE_PERF_GLOBAL_OVF_CTRL) {
		ack_status(sc, val);
		return 0;
	}
	reg = reg_of(c, &sc->r, msr);
	if (!reg || msr == MSR_CORE_PERF_GLOBAL_STATUS) {
		sim_violation(sc, SIM_V_NO_MSR, msr, val, 0);
		return -EIO;
	}

	if (msr >= SKD_MSR_PMC(0) && msr < SKD_MSR_PMC(c->nr_gp))
		/* The legacy alias takes 32 bits and sign-extends them. */
		val = (u64)(s64)(s32)val & counter_mask(c);
	else if (reg >= sc->r.pmc && reg < sc->r.pmc + SKD_MAX_GP)
		val &= counter_mask(c);
	else if (reg >= sc->r.fixed && reg < sc->r.fixed + SKD_MAX_FIXED)
		val &= counter_mask(c);

	if (msr == MSR_ARCH_LBR_DEPTH) {
		/* Only depths CPUID.1CH allows; a write empties the LBR. */
		if (!val || val % 8 || val > c->lbr_nr ||
		    !(c->leaf_1c[0] & BIT(val / 8 - 1))) {
			sim_violation(sc, SIM_V_RESERVED, msr, val, 0);
			return -EIO;
		}
		memset(sc->r.lbr_from, 0, sizeof(sc->r.lbr_from));
		memset(sc->r.lbr_to, 0, sizeof(sc->r.lbr_to));
		memset(sc->r.lbr_info, 0, sizeof(sc->r.lbr_info));
	}
	check_write(sc, msr, *reg, val);
	if (msr == MSR_CORE_PERF_GLOBAL_CTRL && READ_ONCE(sim_overflow_at_off) &&
	    !in_nmi())
		sim_overflow_before_off(sc, val);
	*reg = val;
	return 0;
}

/* This CPU's register @msr, past the rules: 0 or -errno into @err. */
static u64 *raw_reg(u32 msr, int *err)
{
	struct sim_cpu *sc = this_cpu_ptr(sim_cpus);
	u64 *reg = sc->model ? reg_of(sc->core, &sc->r, msr) : NULL;

	*err = !sc->model ? -ENODEV : reg ? 0 : -EIO;
	return reg;
}

int sim_peek(u32 msr, u64 *val)
{
	int err;
	u64 *reg = raw_reg(msr, &err);

	if (reg)
		*val = *reg;
	return err;
}

int sim_poke(u32 msr, u64 val)
{
	int err;
	u64 *reg = raw_reg(msr, &err);

	if (reg)
		*reg = val;
	return err;
}

/*
 * System sleep: firmware brings the boot CPU back with its PMU at power-on
 * state, so must the model; whoever programmed it has to do it again.
 * Registered at load, before skidless registers its own (with its first
 * session; kmod/cpu.c), so it resumes first.
 */
static void sim_resume(SKD_SYSCORE_ARGS)
{
	struct sim_cpu *sc = this_cpu_ptr(sim_cpus);

	if (!sc->model)
		return;
	sim_regs_reset(sc, sc->model);
	sc->stats.resets++;
}

static struct skd_syscore sim_syscore = {
	.ops.resume = sim_resume,
};

void sim_sleep_init(void)
{
	skd_register_syscore(&sim_syscore);
}

void sim_sleep_uninit(void)
{
	skd_unregister_syscore(&sim_syscore);
}
