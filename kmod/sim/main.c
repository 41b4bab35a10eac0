// SPDX-License-Identifier: GPL-2.0
/*
 * skidless_sim: the simulated PMU as a module of its own, test equipment
 * for machines without a PMU. It hands its models to skidless's sim
 * backend (skd_sim_register()) and is built only with `make SIM=1`: the
 * package installs skidless.ko alone. Up in dependency order, down in
 * reverse; registering comes last, as it lets sessions in.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "pmu.h"
#include "sim.h"

static char *default_model = "skylake";
module_param(default_model, charp, 0444);
MODULE_PARM_DESC(default_model, "Model of sessions that name none (skylake, skylake-htoff, icelake, sapphirerapids, alderlake)");

u32 sim_default = SKD_SIM_SKYLAKE;
u32 sim_held_counters;
bool sim_pti;
bool sim_tfa;
bool sim_vmx;
u32 sim_lbr_filters = 0x7, sim_lbr_info_fields = 0x7;
u64 sim_foreign_ctrl, sim_foreign_fixed, sim_foreign_debugctl;
bool sim_overflow_at_off;

static struct skd_sim_provider provider = {
	.owner	= THIS_MODULE,
	.ops	= sim_ops,
};

static int __init sim_init(void)
{
	u32 id;
	int ret;

	for (id = 1; id < __SKD_SIM_MAX; id++) {
		provider.models |= BIT(id);
		if (!strcmp(sim_models[id].name, default_model))
			sim_default = id;
	}
	if (strcmp(sim_models[sim_default].name, default_model)) {
		pr_err("default_model=%s: unknown (skylake, skylake-htoff, icelake, sapphirerapids, alderlake)\n",
		       default_model);
		return -EINVAL;
	}
	provider.default_model = sim_default;
	sim_cpus = alloc_percpu(struct sim_cpu);
	if (!sim_cpus)
		return -ENOMEM;
	ret = sim_violations_init();
	if (ret)
		goto err_cpus;
	sim_debugfs_init();
	sim_sleep_init();
	ret = skd_sim_register(&provider);
	if (ret)
		goto err_sleep;
	return 0;

err_sleep:
	sim_sleep_uninit();
	sim_debugfs_uninit();
	sim_violations_uninit();
err_cpus:
	free_percpu(sim_cpus);
	return ret;
}

static void __exit sim_exit(void)
{
	/* Sessions hold this module: none is left, no tick is armed. */
	skd_sim_unregister(&provider);
	sim_sleep_uninit();
	sim_debugfs_uninit();
	sim_violations_uninit();
	free_percpu(sim_cpus);
}

module_init(sim_init);
module_exit(sim_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("skidless developers");
MODULE_DESCRIPTION("Simulated Intel PMU with PEBS and LBR, for testing skidless");
