/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_ACCESS_H
#define _SKD_ACCESS_H

#include <linux/cred.h>
#include <linux/types.h>

struct skd_config;
struct task_struct;

/*
 * Who may open /dev/skidless, decided at open: 0 and *@restricted false
 * for CAP_PERFMON (or CAP_SYS_ADMIN); 0 and *@restricted true for a
 * member of the group access_gid names; -EPERM otherwise.
 */
int skd_access_open(bool *restricted);

/*
 * What a restricted session may configure: its own processes' user
 * space only (SKD_CFG_PID and SKD_CFG_EXCLUDE_KERNEL), else -EACCES.
 */
int skd_access_check_config(const struct skd_config *cfg);

/*
 * Whether @task runs with the credentials of @owner (real, effective and
 * saved uid all @owner's), as ptrace's same-user rule asks. Any context
 * (RCU only): a restricted session's followed tasks are filtered by it at
 * every sample, so a descendant that gains other ids (setuid exec) drops
 * out.
 */
bool skd_access_owns(kuid_t owner, struct task_struct *task);

#endif /* _SKD_ACCESS_H */
