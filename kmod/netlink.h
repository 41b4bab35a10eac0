/* SPDX-License-Identifier: GPL-2.0 */
/* The generic netlink family "skidless" (netlink.c, uapi/skidless_netlink.h). */
#ifndef _SKD_NETLINK_H
#define _SKD_NETLINK_H

#include <linux/compiler.h>
#include <linux/kconfig.h>
#include <linux/types.h>

#include "skidless_netlink.h"

struct skd_session;

#if IS_ENABLED(CONFIG_NET)
/* Registered before the device, unregistered after it. */
int skd_netlink_init(void);
void skd_netlink_uninit(void);

/*
 * Tell the "events" group that @s started or stopped (SKD_NOTIFY_*).
 * Process context only: builds the message with GFP_KERNEL.
 */
void skd_nl_session_event(struct skd_session *s, u32 what);

/*
 * A START (of @s; NULL when no session is involved) was refused with
 * -@err: tell the group, with the message built from @fmt. Process
 * context only.
 */
__printf(3, 4)
void skd_nl_refused(struct skd_session *s, int err, const char *fmt, ...);
#else
/* A kernel without networking has no netlink: the device alone. */
static inline int skd_netlink_init(void)
{
	return 0;
}

static inline void skd_netlink_uninit(void)
{
}

static inline void skd_nl_session_event(struct skd_session *s, u32 what)
{
}

static inline __printf(3, 4)
void skd_nl_refused(struct skd_session *s, int err, const char *fmt, ...)
{
}
#endif

#endif /* _SKD_NETLINK_H */
