/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a sampling backend provides. The session code calls these in a fixed
 * order: init -> (prepare -> cpu_start/cpu_stop... -> unprepare)* -> fini.
 */
#ifndef _SKD_BACKEND_H
#define _SKD_BACKEND_H

#include <linux/types.h>

struct skd_session;

struct skd_backend {
	const char *name;
	u32 id;				/* enum skd_backend_id */

	/* Can it run on this machine? If not, say why into @why (may be NULL). */
	bool (*usable)(char *why, size_t len);
	/*
	 * Check the backend's part of the session's config and allocate its
	 * state; -errno names the problem. Process context.
	 */
	int (*init)(struct skd_session *s);
	void (*fini)(struct skd_session *s);
	/*
	 * Claim what sampling needs (counters, per-CPU ownership) before the
	 * CPUs start, and give it back after they stopped. Process context,
	 * CPU hotplug held off. May be NULL.
	 */
	int (*prepare)(struct skd_session *s);
	void (*unprepare)(struct skd_session *s);
	/*
	 * Start or stop sampling on @cpu. Called on @cpu itself with IRQs
	 * off, from an IPI or from the CPU's hotplug thread.
	 */
	void (*cpu_start)(struct skd_session *s, unsigned int cpu);
	void (*cpu_stop)(struct skd_session *s, unsigned int cpu);
};

extern const struct skd_backend skd_timer_backend;
extern const struct skd_backend skd_intel_backend;
extern const struct skd_backend skd_sim_backend;

/* Backend by id, NULL if unknown. SKD_BACKEND_DEFAULT resolves first. */
const struct skd_backend *skd_backend_get(u32 id);
/* Bitmask (1 << id) of backends usable here. */
u32 skd_backends_usable(void);
u32 skd_backend_default(void);
int skd_backend_init(const char *name);

#endif /* _SKD_BACKEND_H */
