/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A session: one open file of /dev/skidless, its configuration, its rings
 * and its place in the lists the hotplug and sideband code walk.
 */
#ifndef _SKD_SESSION_H
#define _SKD_SESSION_H

#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/uidgid.h>
#include <linux/wait.h>

#include "memlock.h"
#include "skidless.h"

struct skd_backend;
struct skd_ring;
struct pid;
struct pid_namespace;
struct task_struct;

enum skd_session_state {
	SKD_SESSION_OPEN,		/* not configured yet */
	SKD_SESSION_READY,		/* configured, not sampling */
	SKD_SESSION_RUNNING,
};

struct skd_session {
	struct mutex lock;		/* state transitions of this session */
	enum skd_session_state state;	/* written under lock, read racily */
	bool configured;		/* set once, with release, after rings */

	struct skd_config cfg;		/* validated copy */
	struct skd_event_attr events[SKD_MAX_EVENTS];	/* PMU backends */
	const struct skd_backend *backend;
	void *backend_data;		/* the backend's session state */
	void __percpu *backend_cpu;	/* the backend's per-CPU state */
	u64 period_ns;			/* timer backend: resolved period */

	struct skd_ring **rings;	/* [nr_cpu_ids], one per possible CPU */
	struct skd_memlock mem;		/* what the rings pin (memlock.c) */
	cpumask_var_t cpus;		/* CPUs that sample */
	struct pid *target;		/* SKD_CFG_PID: process to follow */
	struct pid_namespace *pid_ns;	/* ids in records are in this ns */
	/*
	 * Opened through access_gid, without CAP_PERFMON (access.c): only
	 * tasks running with @owner's uids are sampled. Set before the file
	 * is visible, constant after.
	 */
	bool restricted;
	kuid_t owner;

	wait_queue_head_t wq;
	struct list_head running;	/* skd_running_sessions, RCU */
};

struct skd_session *skd_session_create(void);
void skd_session_destroy(struct skd_session *s);

/*
 * @cpus: bitmap of @nbits CPUs from the caller, NULL for every CPU;
 * @events: cfg->nr_events events, already copied in.
 */
int skd_session_config(struct skd_session *s, const struct skd_config *cfg,
		       const unsigned long *cpus, unsigned int nbits,
		       const struct skd_event_attr *events);
int skd_session_start(struct skd_session *s);
int skd_session_stop(struct skd_session *s);
int skd_session_stats(struct skd_session *s, struct skd_cpu_stats *out,
		      unsigned int nr);
int skd_session_mmap(struct skd_session *s, struct vm_area_struct *vma);
__poll_t skd_session_poll(struct skd_session *s, struct file *file,
			  poll_table *wait);

/* Hotplug: start or stop every running session on @cpu (on that CPU). */
void skd_sessions_cpu_online(unsigned int cpu);
void skd_sessions_cpu_offline(unsigned int cpu);
/* Around system sleep, on the boot CPU: stop, or start again after resume. */
void skd_sessions_cpu_sleep(bool resume);
int skd_sessions_open(void);

/* Does @task belong to what @s follows? Any context, under RCU. */
bool skd_session_wants_task(const struct skd_session *s,
			    struct task_struct *task);

/* Running sessions, for the sideband probes: walk with RCU. */
extern struct list_head skd_running_sessions;

#endif /* _SKD_SESSION_H */
