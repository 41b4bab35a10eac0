// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated PMU's models, as its module (skidless_sim.ko) registers
 * them. Whoever uses a model (a session, a GET_PMU query) holds a
 * reference to that module for as long as it does, so the provider's code
 * and data stay; the module can only go once nobody does, and unregisters
 * itself then. Process context.
 */
#include <linux/module.h>
#include <linux/mutex.h>

#include "pmu.h"
#include "sim_provider.h"

static DEFINE_MUTEX(sim_lock);
static const struct skd_sim_provider *sim_provider;

int skd_sim_register(const struct skd_sim_provider *p)
{
	int ret = 0;

	mutex_lock(&sim_lock);
	if (sim_provider)
		ret = -EBUSY;
	else
		sim_provider = p;
	mutex_unlock(&sim_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(skd_sim_register);

void skd_sim_unregister(const struct skd_sim_provider *p)
{
	mutex_lock(&sim_lock);
	if (sim_provider == p)
		sim_provider = NULL;
	mutex_unlock(&sim_lock);
}
EXPORT_SYMBOL_GPL(skd_sim_unregister);

const struct skd_pmu_ops *skd_sim_get(u32 *model)
{
	const struct skd_pmu_ops *ops = NULL;
	u32 id;

	mutex_lock(&sim_lock);
	if (!sim_provider || !try_module_get(sim_provider->owner))
		goto out;
	id = *model ?: sim_provider->default_model;
	if (id < 32 && (sim_provider->models & BIT(id)))
		ops = sim_provider->ops(id);
	if (!ops) {
		module_put(sim_provider->owner);
		goto out;
	}
	*model = id;
out:
	mutex_unlock(&sim_lock);
	return ops;
}

void skd_sim_put(void)
{
	/* Holders keep the provider registered: it is still there. */
	module_put(READ_ONCE(sim_provider)->owner);
}

u32 skd_sim_models(void)
{
	u32 models;

	mutex_lock(&sim_lock);
	models = sim_provider ? sim_provider->models : 0;
	mutex_unlock(&sim_lock);
	return models;
}
