/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's generic netlink family (uapi/skidless_netlink.h) through
 * libnl-genl-3: questions without a session, settings, and the events
 * group. Functions return 0 or -errno; when the kernel refused, its
 * extended-ack message is in skd_nl_message().
 */
#ifndef _SKD_NETLINK_H
#define _SKD_NETLINK_H

#include <stdbool.h>
#include <stdint.h>

#include "skidless.h"
#include "skidless_netlink.h"

struct skd_nl;

/*
 * Connect and resolve the family: -ENOENT when the module is not loaded
 * (or predates netlink). With @events, also join the "events" group on a
 * socket of its own.
 */
int skd_nl_open(struct skd_nl **out, bool events);
void skd_nl_close(struct skd_nl *nl);
/* The kernel's message for the last refusal, or "". */
const char *skd_nl_message(const struct skd_nl *nl);

struct skd_nl_info {
	struct skd_info info;		/* as SKD_IOC_GET_INFO */
	struct skd_pmu_info pmu;	/* as SKD_IOC_GET_PMU, intel, CPU 0 */
};
int skd_nl_get_info(struct skd_nl *nl, struct skd_nl_info *out);

struct skd_nl_event_attr {
	uint64_t config, period;
	uint32_t flags;
	uint8_t precise;
};

struct skd_nl_session {
	uint32_t id, pid, uid, state, backend, ring_pages, target_pid;
	char comm[16];
	char cpus[256];
	uint64_t bytes_mapped, freq, period;	/* freq or period is 0 */
	bool configured;
	unsigned int nr_events;
	struct skd_nl_event_attr events[SKD_MAX_EVENTS];
};

/* Every open session, in id order; @fn may stop the walk by returning !0. */
int skd_nl_list_sessions(struct skd_nl *nl,
			 int (*fn)(const struct skd_nl_session *s, void *arg),
			 void *arg);

struct skd_nl_cpu_stats {
	uint32_t cpu;
	uint64_t generated, delivered, lost, lost_unreported, samples,
		 wakeups, throttles, unread;
};

/*
 * Per-CPU statistics of session @id into @st (room for @max CPUs), their
 * number in *@nr (0 before the session is configured).
 */
int skd_nl_get_stats(struct skd_nl *nl, uint32_t id,
		     struct skd_nl_cpu_stats *st, unsigned int max,
		     unsigned int *nr);

/* Module-wide settings, by SKD_A_SET_* attribute. */
struct skd_nl_setting {
	const char *name;		/* as `skidless set` spells it */
	uint16_t attr;
	const char *what;
};
extern const struct skd_nl_setting skd_nl_settings[];
extern const unsigned int skd_nl_nr_settings;
const struct skd_nl_setting *skd_nl_setting_by_name(const char *name);

/* values[i] for skd_nl_settings[i]. */
int skd_nl_get_settings(struct skd_nl *nl, uint32_t *values);
/* Set each attrs[i] to values[i], all or nothing, in one request. */
int skd_nl_set_settings(struct skd_nl *nl, const uint16_t *attrs,
			const uint32_t *values, unsigned int n);

struct skd_nl_event {
	uint32_t what;			/* enum skd_genl_notify */
	uint32_t session_id, pid, uid, backend, err;
	uint64_t count;
	char comm[16];
	char message[256];
};

/*
 * Wait up to @timeout_ms (-1: forever) for the next event. Returns 1, 0 on
 * timeout, -ENOBUFS when events were lost (the socket's buffer overflowed),
 * or another -errno.
 */
int skd_nl_next_event(struct skd_nl *nl, int timeout_ms,
		      struct skd_nl_event *ev);

/* "started", "stopped", ...; "?" for one this tool does not know. */
const char *skd_nl_event_name(uint32_t what);

#endif /* _SKD_NETLINK_H */
