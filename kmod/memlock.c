// SPDX-License-Identifier: GPL-2.0
/*
 * The memory a session pins (its rings, its PEBS buffers), charged the way
 * perf charges its mmap'd buffers (kernel/events/core.c perf_mmap()):
 * first against the opening user's allowance, mlock_kb per online CPU
 * (perf's kernel.perf_event_mlock_kb), then against the opening process's
 * RLIMIT_MEMLOCK in mm->pinned_vm, unless it has CAP_IPC_LOCK. A user
 * without that capability cannot pin more than both together, however
 * many sessions it opens. perf also lets everything through when
 * kernel.perf_event_paranoid is -1; that sysctl is not visible to modules,
 * so skidless keeps the limit always.
 *
 * The allowance in use is counted per user here (not in user_struct,
 * whose fields differ between kernels). Process context.
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/cred.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "memlock.h"

static unsigned int mlock_kb = 516;
module_param(mlock_kb, uint, 0644);
MODULE_PARM_DESC(mlock_kb, "Pages a user may pin without RLIMIT_MEMLOCK, KiB per online CPU (default 516, as perf_event_mlock_kb)");

static DEFINE_MUTEX(memlock_lock);
static DEFINE_XARRAY(user_pages);	/* uid -> pages charged, as a value */

int skd_memlock_charge(struct skd_memlock *ml, unsigned long pages)
{
	unsigned long limit, used, user_part, extra, rlim;
	uid_t uid = from_kuid(&init_user_ns, current_uid());
	void *old;
	int ret = 0;

	memset(ml, 0, sizeof(*ml));
	limit = ((unsigned long)READ_ONCE(mlock_kb) >> (PAGE_SHIFT - 10)) *
		num_online_cpus();
	mutex_lock(&memlock_lock);
	old = xa_load(&user_pages, uid);
	used = old ? xa_to_value(old) : 0;
	user_part = used < limit ? min(pages, limit - used) : 0;
	extra = pages - user_part;
	if (extra) {
		if (!current->mm) {
			ret = -EPERM;
			goto out;
		}
		rlim = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
		if (atomic64_read(&current->mm->pinned_vm) + extra > rlim &&
		    !capable(CAP_IPC_LOCK)) {
			pr_info_ratelimited("refused: %lu more pages to pin than RLIMIT_MEMLOCK allows beside mlock_kb (ulimit -l, smaller rings, or the mlock_kb parameter)\n",
					    extra);
			ret = -EPERM;
			goto out;
		}
		atomic64_add(extra, &current->mm->pinned_vm);
		mmgrab(current->mm);
		ml->mm = current->mm;
		ml->mm_pages = extra;
	}
	if (user_part) {
		old = xa_store(&user_pages, uid, xa_mk_value(used + user_part),
			       GFP_KERNEL);
		if (xa_is_err(old)) {
			ret = xa_err(old);
			if (ml->mm) {
				atomic64_sub(extra, &ml->mm->pinned_vm);
				mmdrop(ml->mm);
				ml->mm = NULL;
			}
			goto out;
		}
	}
	ml->uid = uid;
	ml->user_pages = user_part;
out:
	mutex_unlock(&memlock_lock);
	return ret;
}

void skd_memlock_uncharge(struct skd_memlock *ml)
{
	unsigned long used;
	void *old;

	mutex_lock(&memlock_lock);
	if (ml->user_pages) {
		old = xa_load(&user_pages, ml->uid);
		used = old ? xa_to_value(old) : 0;
		used -= min(used, ml->user_pages);
		if (used)
			xa_store(&user_pages, ml->uid, xa_mk_value(used),
				 GFP_KERNEL);
		else
			xa_erase(&user_pages, ml->uid);
	}
	mutex_unlock(&memlock_lock);
	if (ml->mm) {
		atomic64_sub(ml->mm_pages, &ml->mm->pinned_vm);
		mmdrop(ml->mm);
	}
	memset(ml, 0, sizeof(*ml));
}

unsigned int skd_memlock_kb(void)
{
	return READ_ONCE(mlock_kb);
}

void skd_memlock_set_kb(unsigned int kb)
{
	WRITE_ONCE(mlock_kb, kb);
}

void skd_memlock_uninit(void)
{
	xa_destroy(&user_pages);
}
