// SPDX-License-Identifier: GPL-2.0
/*
 * Live SKD_REC_MMAP records: a task a running session follows maps
 * executable code. The kernel has no mmap tracepoint, but it calls
 * perf_event_mmap(vma) for every new mapping (mmap_region(), exec's ELF
 * loader through it, special mappings such as [vdso], mprotect() that
 * changes a mapping's protection); a kprobe on its entry sees them all,
 * whether or not perf itself listens.
 *
 * Context of the kprobe handler: the task that maps, with mmap_lock held
 * for writing by that task and preemption disabled (kprobes run their
 * handlers so, through ftrace or int3); it must not sleep. Kprobes do
 * not recurse on a CPU: a probe hit while a handler runs is counted as
 * missed, not run.
 *
 * Invariants:
 *  - mmap_path is used only by the handler, which runs once at a time per
 *    CPU (no preemption, no recursion, never from an interrupt since
 *    perf_event_mmap() is called in task context only); the sideband
 *    probes have their own buffer.
 *  - Sessions are found on skd_running_sessions under RCU, as the
 *    sideband probes do: a session stopping waits in synchronize_rcu()
 *    for handlers that found it. unregister_kprobe() waits for running
 *    handlers before the module text may go.
 *  - Only VM_EXEC mappings of the current task's own mm are described.
 */
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "compat.h"
#include "mmap_events.h"
#include "record.h"
#include "session.h"

struct mmap_path {
	char buf[PATH_MAX];
};

static struct mmap_path __percpu *mmap_path;
static bool mmap_registered;

const char *skd_vma_describe(struct vm_area_struct *vma, char *buf, int len,
			     struct skd_rec_mmap *rec)
{
	unsigned long flags = vma->vm_flags;
	struct file *file = vma->vm_file;
	const char *name = NULL;

	rec->start = vma->vm_start;
	rec->len = vma->vm_end - vma->vm_start;
	rec->pgoff = 0;
	rec->maj = 0;
	rec->min = 0;
	rec->ino = 0;
	rec->ino_generation = 0;
	rec->prot = (flags & VM_READ ? PROT_READ : 0) |
		    (flags & VM_WRITE ? PROT_WRITE : 0) |
		    (flags & VM_EXEC ? PROT_EXEC : 0);
	rec->flags = flags & VM_MAYSHARE ? MAP_SHARED : MAP_PRIVATE;

	if (file) {
		/* As /proc/PID/maps shows it (overlayfs: the user's file). */
		const struct inode *inode = skd_file_user_inode(file);
		dev_t dev = inode->i_sb->s_dev;

		rec->pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT;
		rec->maj = MAJOR(dev);
		rec->min = MINOR(dev);
		rec->ino = inode->i_ino;
		rec->ino_generation = inode->i_generation;
		name = d_path(skd_file_user_path(file), buf, len);
		if (IS_ERR(name))
			name = "//toolong";
		return name;
	}
	if (vma->vm_ops && vma->vm_ops->name)
		name = vma->vm_ops->name(vma);
	return name ?: "//anon";
}

static void emit_mmap(struct skd_session *s, const struct skd_rec_mmap *desc,
		      const char *path, size_t len)
{
	struct skd_rec_mmap *rec;
	u32 size = ALIGN(sizeof(*rec) + len + 1, 8);

	rec = skd_record_begin(s, SKD_REC_MMAP, 0, size, current, 0);
	if (rec) {
		skd_mmap_fields_copy(rec, desc);
		memcpy(rec->path, path, len);
		memset(rec->path + len, 0, size - sizeof(*rec) - len);
	}
	skd_record_end(s, rec);
}

static int mmap_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct vm_area_struct *vma;
	struct skd_rec_mmap desc;
	const char *path = NULL;
	struct skd_session *s;
	size_t len = 0;

	vma = (struct vm_area_struct *)regs_get_kernel_argument(regs, 0);
	if (!vma || !(vma->vm_flags & VM_EXEC) || vma->vm_mm != current->mm)
		return 0;

	rcu_read_lock();
	list_for_each_entry_rcu(s, &skd_running_sessions, running) {
		if ((s->cfg.flags & SKD_CFG_NO_SIDEBAND) ||
		    !skd_session_wants_task(s, current))
			continue;
		if (!path) {
			path = skd_vma_describe(vma, this_cpu_ptr(mmap_path)->buf,
						PATH_MAX, &desc);
			len = strnlen(path, PATH_MAX - 1);
		}
		emit_mmap(s, &desc, path, len);
	}
	rcu_read_unlock();
	return 0;
}

static struct kprobe mmap_kprobe = {
	.symbol_name	= "perf_event_mmap",
	.pre_handler	= mmap_pre,
};

bool skd_mmap_events_active(void)
{
	return mmap_registered;
}

int skd_mmap_events_init(void)
{
	int ret;

	mmap_path = alloc_percpu(struct mmap_path);
	if (!mmap_path)
		return -ENOMEM;
	ret = register_kprobe(&mmap_kprobe);
	if (ret) {
		pr_info("no kprobe on perf_event_mmap (%d): no live MMAP records, SKD_IOC_READ_MAPS only\n",
			ret);
		free_percpu(mmap_path);
		mmap_path = NULL;
		return 0;
	}
	mmap_registered = true;
	return 0;
}

void skd_mmap_events_uninit(void)
{
	if (!mmap_registered)
		return;
	/* Waits for handlers in progress. */
	unregister_kprobe(&mmap_kprobe);
	mmap_registered = false;
	free_percpu(mmap_path);
	mmap_path = NULL;
}
