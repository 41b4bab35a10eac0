/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intel's event lists as the command shows them: every core event of every
 * list with its name, description and the values it programs. Generated at
 * build time by kmod/host/gen_events.c (event_info.c, parallel to the
 * module's kmod/intel/event_rules.h tables: skd_event_infos[i] is the list
 * skd_event_lists[i]).
 */
#ifndef _SKD_EVENT_INFO_H
#define _SKD_EVENT_INFO_H

#include <stdint.h>

struct skd_event_info {
	const char *name;		/* Intel's name, lower case */
	const char *desc;		/* Intel's BriefDescription */
	uint64_t msr_value;		/* for its extra MSR (MSRValue) */
	uint32_t config;		/* its encoding (the first of two) */
	uint32_t sample_after;		/* Intel's SampleAfterValue */
	uint32_t rule;			/* its rule in the module's list */
	uint8_t deprecated;
};

struct skd_event_info_list {
	const char *name;		/* as skd_event_lists[] */
	const char *version;		/* Intel's "Version" and date */
	const struct skd_event_info *events;	/* sorted by name */
	uint32_t nr_events;
};

extern const struct skd_event_info_list skd_event_infos[];

#endif /* _SKD_EVENT_INFO_H */
