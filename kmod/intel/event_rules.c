// SPDX-License-Identifier: GPL-2.0
/*
 * Looking up Intel's event lists (event_rules.h): the list of a CPU by
 * mapfile.csv's rows, and an encoding's rule by binary search. The tables
 * themselves are generated (event_table.c, by gen_events.c).
 */
#ifdef __KERNEL__
#include <linux/export.h>
#include <linux/string.h>
#else
#include <string.h>
#endif

#include "event_rules.h"

const struct skd_event_list *skd_event_list_match(u32 family, u32 model,
						  u32 stepping, u32 core_type)
{
	unsigned int i;

	for (i = 0; i < skd_nr_cpu_matches; i++) {
		const struct skd_cpu_match *m = &skd_cpu_matches[i];

		if (m->family != family || m->model != model ||
		    stepping > 15 || !(m->steppings & (1U << stepping)))
			continue;
		/* A hybrid row names its core type; a plain row any. */
		if (m->core_type && m->core_type != core_type)
			continue;
		return &skd_event_lists[m->list];
	}
	return NULL;
}

const struct skd_event_list *skd_event_list_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < skd_nr_event_lists; i++)
		if (!strcmp(skd_event_lists[i].name, name))
			return &skd_event_lists[i];
	return NULL;
}

/* The simulated PMU (skidless_sim.ko) counts by the same lists. */
#ifdef __KERNEL__
EXPORT_SYMBOL_GPL(skd_event_list_by_name);
#endif

const struct skd_event_rule *skd_event_rule_find(const struct skd_event_list *l,
						 u32 config)
{
	u32 lo = 0, hi, mid;

	if (!l)
		return NULL;
	hi = l->nr_rules;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (l->rules[mid].config == config)
			return &l->rules[mid];
		if (l->rules[mid].config < config)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

#ifdef __KERNEL__
EXPORT_SYMBOL_GPL(skd_event_rule_find);
#endif
