/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * skidless: the generic netlink family "skidless", the control plane
 * beside /dev/skidless. It answers questions about the module and its
 * sessions without opening one, changes module-wide settings, and tells
 * listeners of the "events" multicast group what sessions do.
 *
 * Resolve the family and the group by name (CTRL_CMD_GETFAMILY); their ids
 * are dynamic. Requests carry genlmsghdr.version SKD_GENL_VERSION (the
 * kernel does not check it) and reserved 0. Every command has a strict
 * attribute policy: an attribute the command does not take fails with
 * EINVAL, a value of the wrong size with EINVAL, one outside its range with
 * ERANGE, each with an extended-ack message (NETLINK_EXT_ACK).
 *
 * Commands (request attributes -> reply attributes):
 *   SKD_CMD_GET_INFO       none -> the facts of SKD_IOC_GET_INFO (its
 *                          max_ring_pages and max_freq as
 *                          SKD_A_SET_MAX_RING_PAGES, SKD_A_SET_MAX_FREQ)
 *                          and of SKD_IOC_GET_PMU for the intel backend,
 *                          CPU 0.
 *   SKD_CMD_LIST_SESSIONS  dump (NLM_F_DUMP), none -> one message per open
 *                          session: SKD_A_SESSION_ID, owner, state,
 *                          backend, events, CPUs, bytes pinned.
 *   SKD_CMD_GET_STATS      SKD_A_SESSION_ID (required) -> the session's
 *                          id and one SKD_A_CPU_STATS nest per possible
 *                          CPU. Others' sessions need CAP_PERFMON or
 *                          CAP_SYS_ADMIN (EPERM); no such session: ENOENT.
 *   SKD_CMD_GET_SETTINGS   none -> every SKD_A_SET_* value.
 *   SKD_CMD_SET_SETTINGS   one or more SKD_A_SET_* -> none. Needs
 *                          CAP_NET_ADMIN (EPERM). All or nothing: values
 *                          are checked before any is applied.
 *   SKD_CMD_EVENT          sent by the kernel to the "events" group only.
 */
#ifndef _UAPI_SKIDLESS_NETLINK_H
#define _UAPI_SKIDLESS_NETLINK_H

#define SKD_GENL_NAME		"skidless"
#define SKD_GENL_VERSION	1
#define SKD_GENL_MCGRP_EVENTS	"events"

enum skd_genl_cmd {
	SKD_CMD_UNSPEC,
	SKD_CMD_GET_INFO,
	SKD_CMD_LIST_SESSIONS,
	SKD_CMD_GET_STATS,
	SKD_CMD_GET_SETTINGS,
	SKD_CMD_SET_SETTINGS,
	SKD_CMD_EVENT,
	__SKD_CMD_MAX,
	SKD_CMD_MAX = __SKD_CMD_MAX - 1
};

/* Top-level attributes, one space for every command. */
enum skd_genl_attr {
	SKD_A_UNSPEC,
	SKD_A_PAD,

	/* GET_INFO: as struct skd_info */
	SKD_A_VERSION,		/* string: module version */
	SKD_A_ABI_VERSION,	/* u32: SKD_ABI_VERSION */
	SKD_A_BACKENDS,		/* u32: bit (1 << id) per usable backend */
	SKD_A_DEFAULT_BACKEND,	/* u32: enum skd_backend_id */
	SKD_A_NR_CPU_IDS,	/* u32 */
	SKD_A_NR_CPUS_ONLINE,	/* u32 */
	SKD_A_PAGE_SIZE,	/* u32 */
	SKD_A_MAX_CALLCHAIN,	/* u32 */
	SKD_A_FEATURES,		/* u32: enum skd_features */
	SKD_A_SESSIONS,		/* u32: sessions open */
	SKD_A_PMU_DESC,		/* string: one line, or why there is no PMU */
	/* GET_INFO: as struct skd_pmu_info (intel backend, CPU 0) */
	SKD_A_PMU_FLAGS,	/* u32: enum skd_pmu_flags */
	SKD_A_PMU_SIGNATURE,	/* u32: CPUID.1:EAX */
	SKD_A_PMU_VERSION,	/* u8: perfmon version */
	SKD_A_PMU_NR_GP,	/* u8 */
	SKD_A_PMU_GP_WIDTH,	/* u8 */
	SKD_A_PMU_NR_FIXED,	/* u8 */
	SKD_A_PMU_FIXED_WIDTH,	/* u8 */
	SKD_A_PMU_PEBS_FORMAT,	/* u8 */
	SKD_A_PMU_LBR_FORMAT,	/* u8 */
	SKD_A_PMU_LBR_DEPTH,	/* u8 */
	SKD_A_PMU_CAPABILITIES,	/* u64: IA32_PERF_CAPABILITIES */
	SKD_A_PMU_MODEL,	/* string: Intel's event list name, or "" */
	SKD_A_PMU_WHY,		/* string: why the backend is unusable, or "" */

	/* Sessions (LIST_SESSIONS, GET_STATS, events) */
	SKD_A_SESSION_ID,	/* u32, >= 1 */
	SKD_A_OWNER_PID,	/* u32: who opened it (initial pid namespace) */
	SKD_A_OWNER_UID,	/* u32: its uid (initial user namespace) */
	SKD_A_OWNER_COMM,	/* string */
	SKD_A_STATE,		/* u32: enum skd_genl_session_state */
	SKD_A_BACKEND,		/* u32: enum skd_backend_id; 0 before CONFIG */
	SKD_A_CPUS,		/* string: CPU list ("0-3,8") */
	SKD_A_BYTES_MAPPED,	/* u64: ring memory, every CPU */
	SKD_A_RING_PAGES,	/* u32: data pages per CPU */
	SKD_A_SAMPLE_FREQ,	/* u64: Hz, when the session set a frequency */
	SKD_A_SAMPLE_PERIOD,	/* u64: else the period (timer: ns) */
	SKD_A_TARGET_PID,	/* u32: followed process, initial pid namespace */
	SKD_A_EVENT,		/* nest, repeated: enum skd_genl_event_attr */

	/* GET_STATS */
	SKD_A_CPU_STATS,	/* nest, repeated: enum skd_genl_cpu_attr */

	/* Settings (GET_SETTINGS, SET_SETTINGS): module parameters */
	SKD_A_SET_MAX_SAMPLE_RATE,	/* u32: PMU samples/s/CPU, 1..10000000 */
	SKD_A_SET_MAX_FREQ,		/* u32: timer Hz, 1..100000 */
	SKD_A_SET_MAX_RING_PAGES,	/* u32: power of two, 1..1048576 */
	SKD_A_SET_MLOCK_KB,		/* u32: KiB per CPU, 0..2147483647 */

	/* SKD_CMD_EVENT; also SKD_A_SESSION_ID, owner, SKD_A_BACKEND */
	SKD_A_NOTIFY,		/* u32: enum skd_genl_notify */
	SKD_A_NOTIFY_COUNT,	/* u64: throttles or lost records since last */
	SKD_A_NOTIFY_ERRNO,	/* u32: positive errno of a refusal */
	SKD_A_NOTIFY_MESSAGE,	/* string: what happened and the fix */

	__SKD_A_MAX,
	SKD_A_MAX = __SKD_A_MAX - 1
};

/* In each SKD_A_EVENT nest: one event of a PMU session. */
enum skd_genl_event_attr {
	SKD_A_EV_UNSPEC,
	SKD_A_EV_PAD,
	SKD_A_EV_CONFIG,	/* u64: EVENTSEL encoding */
	SKD_A_EV_PRECISE,	/* u8: 0..3 */
	SKD_A_EV_PERIOD,	/* u64: period, or Hz with SKD_EV_FREQ */
	SKD_A_EV_FLAGS,		/* u32: enum skd_event_flags */
	__SKD_A_EV_MAX,
	SKD_A_EV_MAX = __SKD_A_EV_MAX - 1
};

/* In each SKD_A_CPU_STATS nest: struct skd_cpu_stats and more. */
enum skd_genl_cpu_attr {
	SKD_A_CPU_UNSPEC,
	SKD_A_CPU_PAD,
	SKD_A_CPU_ID,		/* u32 */
	SKD_A_CPU_GENERATED,	/* u64 */
	SKD_A_CPU_DELIVERED,	/* u64 */
	SKD_A_CPU_LOST,		/* u64 */
	SKD_A_CPU_LOST_UNREPORTED,	/* u64 */
	SKD_A_CPU_SAMPLES,	/* u64 */
	SKD_A_CPU_WAKEUPS,	/* u64 */
	SKD_A_CPU_THROTTLES,	/* u64: times PMU sampling was throttled */
	SKD_A_CPU_UNREAD,	/* u64: bytes in the ring not yet read */
	__SKD_A_CPU_MAX,
	SKD_A_CPU_MAX = __SKD_A_CPU_MAX - 1
};

enum skd_genl_session_state {
	SKD_GENL_STATE_OPEN	= 0,	/* not configured */
	SKD_GENL_STATE_READY	= 1,	/* configured, not sampling */
	SKD_GENL_STATE_RUNNING	= 2,
};

/* SKD_A_NOTIFY: what an SKD_CMD_EVENT message reports. */
enum skd_genl_notify {
	SKD_NOTIFY_STARTED	= 1,	/* a session started sampling */
	SKD_NOTIFY_STOPPED	= 2,	/* it stopped (or was closed running) */
	SKD_NOTIFY_THROTTLED	= 3,	/* PMU sampling throttled: COUNT times */
	SKD_NOTIFY_LOST		= 4,	/* COUNT records dropped (at most 1/s) */
	SKD_NOTIFY_REFUSED	= 5,	/* START refused: ERRNO, MESSAGE */
};

#endif /* _UAPI_SKIDLESS_NETLINK_H */
