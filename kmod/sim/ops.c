// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated PMU behind struct skd_pmu_ops: one set of accessors per
 * model, so detection can ask a model what it has without a session. Each
 * answers as the CPU it runs on: a hybrid model's CPU 0 is its first core
 * type, every other CPU its second.
 */
#include <linux/percpu.h>
#include <linux/string.h>

#include "event_rules.h"
#include "pmu.h"
#include "sim.h"

#define CPUID7_EDX_TFA		BIT(13)	/* TSX_FORCE_ABORT */

u32 sim_arch_lbr_ebx(const struct sim_core *c)
{
	return c->leaf_1c[1] & READ_ONCE(sim_lbr_filters);
}

u32 sim_arch_lbr_ecx(const struct sim_core *c)
{
	return c->leaf_1c[2] & READ_ONCE(sim_lbr_info_fields);
}

const struct sim_core *sim_core_of(const struct sim_model *m,
				   unsigned int cpu)
{
	return m->hybrid && cpu ? &m->core[1] : &m->core[0];
}

static void sim_cpuid(const struct sim_model *m, u32 leaf, u32 sub,
		      u32 r[4])
{
	const struct sim_core *c = sim_core_of(m, smp_processor_id());

	memset(r, 0, 4 * sizeof(u32));
	switch (leaf) {
	case 0:
		r[0] = m->max_leaf;
		memcpy(&r[1], "Genu", 4);	/* EBX, EDX, ECX */
		memcpy(&r[3], "ineI", 4);
		memcpy(&r[2], "ntel", 4);
		break;
	case 1:
		r[0] = m->signature;
		r[2] = 1U << 2 | 1U << 15;	/* DTES64, PDCM */
		r[3] = 1U << 21;		/* DS */
		break;
	case 7:
		if (sub)
			break;
		r[3] = m->leaf_07_edx;
		if ((c->quirks & SIM_TFA_CAPABLE) && READ_ONCE(sim_tfa))
			r[3] |= CPUID7_EDX_TFA;
		break;
	case 0xa:
		memcpy(r, c->leaf_0a, 4 * sizeof(u32));
		break;
	case 0x1a:
		if (m->hybrid)
			r[0] = c->leaf_1a_eax;
		break;
	case 0x1c:
		if (!c->arch_lbr)
			break;
		memcpy(r, c->leaf_1c, 4 * sizeof(u32));
		r[1] = sim_arch_lbr_ebx(c);
		r[2] = sim_arch_lbr_ecx(c);
		break;
	}
}

static bool sim_pti_active(void)
{
	return READ_ONCE(sim_pti);
}

static bool sim_virt_active(void)
{
	return READ_ONCE(sim_vmx);
}

static bool sim_reserve(unsigned int gp)
{
	return !(READ_ONCE(sim_held_counters) & BIT(gp));
}

static void sim_release(unsigned int gp)
{
}

static void sim_attach(const struct sim_model *m)
{
	struct sim_cpu *sc = this_cpu_ptr(sim_cpus);

	/* Registers persist across sessions, like a CPU's. */
	if (sc->model != m)
		sim_regs_reset(sc, m);
	sc->events = skd_event_list_by_name(sc->core->list);
	sc->lvt_armed = true;
	sim_clock_attach(sc);
}

static void sim_detach(void)
{
	struct sim_cpu *sc = this_cpu_ptr(sim_cpus);

	sc->lvt_armed = false;
	sim_clock_detach(sc);
}

static void sim_pmi_rearm(void)
{
	this_cpu_ptr(sim_cpus)->lvt_armed = true;
}

static struct pt_regs *sim_pmi_regs(struct pt_regs *nmi_regs)
{
	struct sim_cpu *sc = this_cpu_ptr(sim_cpus);

	/* The context the clock's tick interrupted, while it waits. */
	return READ_ONCE(sc->pmi_window) ? &sc->pmi_regs : nmi_regs;
}

#define SIM_OPS(model, id)						\
static const struct sim_model *const model##_m = &sim_models[id];	\
static int model##_rdmsr(u32 msr, u64 *val)				\
{									\
	return sim_rdmsr(model##_m, msr, val);				\
}									\
static int model##_wrmsr(u32 msr, u64 val)				\
{									\
	return sim_wrmsr(model##_m, msr, val);				\
}									\
static void model##_cpuid(u32 leaf, u32 sub, u32 r[4])			\
{									\
	sim_cpuid(model##_m, leaf, sub, r);				\
}									\
static void model##_attach(void)					\
{									\
	sim_attach(model##_m);						\
}									\
static const struct skd_pmu_ops model##_ops = {				\
	.name		= "sim:" #model,				\
	.read_msr	= model##_rdmsr,				\
	.write_msr	= model##_wrmsr,				\
	.cpuid		= model##_cpuid,				\
	.pti_active	= sim_pti_active,				\
	.reserve	= sim_reserve,					\
	.release	= sim_release,					\
	.cpu_attach	= model##_attach,				\
	.cpu_detach	= sim_detach,					\
	.pmi_rearm	= sim_pmi_rearm,				\
	.pmi_regs	= sim_pmi_regs,					\
	.virt_active	= sim_virt_active,				\
}

SIM_OPS(skylake, SKD_SIM_SKYLAKE);
SIM_OPS(skylake_htoff, SKD_SIM_SKYLAKE_HTOFF);
SIM_OPS(icelake, SKD_SIM_ICELAKE);
SIM_OPS(sapphirerapids, SKD_SIM_SAPPHIRERAPIDS);
SIM_OPS(alderlake, SKD_SIM_ALDERLAKE);

const struct skd_pmu_ops *sim_ops(u32 model)
{
	switch (model) {
	case SKD_SIM_SKYLAKE:
		return &skylake_ops;
	case SKD_SIM_SKYLAKE_HTOFF:
		return &skylake_htoff_ops;
	case SKD_SIM_ICELAKE:
		return &icelake_ops;
	case SKD_SIM_SAPPHIRERAPIDS:
		return &sapphirerapids_ops;
	case SKD_SIM_ALDERLAKE:
		return &alderlake_ops;
	default:
		return NULL;
	}
}
