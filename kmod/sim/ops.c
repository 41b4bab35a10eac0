// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated PMU behind struct skd_pmu_ops: one set of accessors per
 * model, so detection can ask a model what it has without a session.
 */
#include <linux/percpu.h>
#include <linux/string.h>

#include "pmu.h"
#include "sim.h"

u32 sim_held_counters;
bool sim_pti;
static u32 sim_default = SKD_SIM_SKYLAKE;

static void sim_cpuid(const struct sim_model *m, u32 leaf, u32 sub,
		      u32 r[4])
{
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
		if (!sub)
			r[3] = m->leaf_07_edx;
		break;
	case 0xa:
		memcpy(r, m->leaf_0a, 4 * sizeof(u32));
		break;
	case 0x1c:
		if (m->arch_lbr)
			memcpy(r, m->leaf_1c, 4 * sizeof(u32));
		break;
	}
}

static bool sim_pti_active(void)
{
	return READ_ONCE(sim_pti);
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
}

SIM_OPS(skylake, SKD_SIM_SKYLAKE);
SIM_OPS(icelake, SKD_SIM_ICELAKE);
SIM_OPS(sapphirerapids, SKD_SIM_SAPPHIRERAPIDS);

const struct skd_pmu_ops *skd_sim_ops(u32 model)
{
	switch (model) {
	case SKD_SIM_SKYLAKE:
		return &skylake_ops;
	case SKD_SIM_ICELAKE:
		return &icelake_ops;
	case SKD_SIM_SAPPHIRERAPIDS:
		return &sapphirerapids_ops;
	default:
		return NULL;
	}
}

u32 skd_sim_default_model(void)
{
	return sim_default;
}

int skd_sim_init(const char *default_model)
{
	u32 id;

	for (id = 1; id < __SKD_SIM_MAX; id++)
		if (!strcmp(sim_models[id].name, default_model))
			break;
	if (id == __SKD_SIM_MAX) {
		pr_err("sim_model=%s: unknown (skylake, icelake, sapphirerapids)\n",
		       default_model);
		return -EINVAL;
	}
	sim_default = id;
	sim_cpus = alloc_percpu(struct sim_cpu);
	if (!sim_cpus)
		return -ENOMEM;
	sim_debugfs_init();
	sim_sleep_init();
	return 0;
}

void skd_sim_uninit(void)
{
	sim_sleep_uninit();
	sim_debugfs_uninit();
	free_percpu(sim_cpus);
}
