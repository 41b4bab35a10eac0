// SPDX-License-Identifier: GPL-2.0
/*
 * Access to /dev/skidless. By default only CAP_PERFMON (or CAP_SYS_ADMIN)
 * opens it, what perf asks at every kernel.perf_event_paranoid level for
 * what skidless gives: kernel samples, any process, whole CPUs. An
 * administrator may name a group (access_gid) whose members open it
 * without the capability; their sessions are restricted as perf restricts
 * an unprivileged user at perf_event_paranoid 2: user space only, their
 * own processes only, never CPU-wide. The device node's mode still
 * applies first (0600 root; the package's udev rule makes it 0660 group
 * skidless).
 */
#include <linux/capability.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/uidgid.h>

#include "access.h"
#include "skidless.h"

/* A gid in the initial user namespace, or -1: no group. Read at open. */
static int access_gid = -1;

static int access_gid_set(const char *val, const struct kernel_param *kp)
{
	int gid, ret;

	ret = kstrtoint(val, 0, &gid);
	if (ret)
		return ret;
	if (gid < -1 || (gid >= 0 && !gid_valid(make_kgid(&init_user_ns, gid))))
		return -EINVAL;
	WRITE_ONCE(access_gid, gid);
	return 0;
}

static const struct kernel_param_ops access_gid_ops = {
	.set = access_gid_set,
	.get = param_get_int,
};

module_param_cb(access_gid, &access_gid_ops, &access_gid, 0644);
MODULE_PARM_DESC(access_gid, "Group whose members may open /dev/skidless without CAP_PERFMON, for user-space sampling of their own processes; -1: none (default)");

int skd_access_open(bool *restricted)
{
	int gid = READ_ONCE(access_gid);

	*restricted = false;
	if (perfmon_capable())
		return 0;
	if (gid < 0 || !in_group_p(make_kgid(&init_user_ns, gid)))
		return -EPERM;
	*restricted = true;
	return 0;
}

int skd_access_check_config(const struct skd_config *cfg)
{
	if (!(cfg->flags & SKD_CFG_PID) || !(cfg->flags & SKD_CFG_EXCLUDE_KERNEL))
		return -EACCES;
	return 0;
}

bool skd_access_owns(kuid_t owner, struct task_struct *task)
{
	const struct cred *tcred;
	bool own;

	rcu_read_lock();
	tcred = __task_cred(task);
	own = uid_eq(owner, tcred->uid) && uid_eq(owner, tcred->euid) &&
	      uid_eq(owner, tcred->suid);
	rcu_read_unlock();
	return own;
}
