// SPDX-License-Identifier: GPL-2.0
/*
 * The backend registry: which backends exist, which can run here, and which
 * one a session gets when it asks for the default.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "backend.h"
#include "skidless.h"

static const struct skd_backend *const skd_backends[] = {
	&skd_timer_backend,
	&skd_intel_backend,
	&skd_sim_backend,
};

static u32 skd_default_id = SKD_BACKEND_TIMER;

const struct skd_backend *skd_backend_get(u32 id)
{
	unsigned int i;

	if (id == SKD_BACKEND_DEFAULT)
		id = skd_default_id;
	for (i = 0; i < ARRAY_SIZE(skd_backends); i++)
		if (skd_backends[i]->id == id)
			return skd_backends[i];
	return NULL;
}

u32 skd_backends_usable(void)
{
	u32 mask = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(skd_backends); i++)
		if (skd_backends[i]->usable(NULL, 0))
			mask |= 1U << skd_backends[i]->id;
	return mask;
}

u32 skd_backend_default(void)
{
	return skd_default_id;
}

/* Resolve the backend= module parameter. */
int skd_backend_init(const char *name)
{
	char why[128] = "";
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(skd_backends); i++) {
		const struct skd_backend *b = skd_backends[i];

		if (strcmp(b->name, name))
			continue;
		if (!b->usable(why, sizeof(why))) {
			pr_err("backend=%s is not usable here: %s\n", name, why);
			return -ENODEV;
		}
		skd_default_id = b->id;
		return 0;
	}
	pr_err("backend=%s: unknown backend (known: timer, intel)\n",
	       name);
	return -EINVAL;
}
