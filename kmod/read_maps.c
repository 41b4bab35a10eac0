// SPDX-License-Identifier: GPL-2.0
/*
 * SKD_IOC_READ_MAPS: the threads and executable mappings of the processes
 * a session follows, as they are now, as COMM and SKD_REC_MMAP records
 * with misc SKD_MISC_SYNTHESIZED. Process context only: it sleeps (the
 * mmap_lock of each process, read) and writes into a kernel buffer that
 * the device copies out once every lock is dropped, so no fault on the
 * caller's buffer happens under a target's mmap_lock (the caller may be
 * its own target).
 *
 * The cursors are the caller's, opaque to it:
 *   cursor_pid   the tgid, in the session's pid namespace, of the process
 *                in progress (0 at first: the lowest one).
 *   cursor_addr  CURSOR_COMM | tid: next, the COMM of the thread with the
 *                lowest tid >= tid; else, next, the MMAP of the first
 *                executable mapping ending above that address.
 * A process that is gone is skipped; one found at a higher tgid than the
 * cursor starts over at its first thread.
 */
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "mmap_events.h"
#include "read_maps.h"
#include "session.h"

#define CURSOR_COMM	BIT_ULL(63)

struct out {
	u8 *buf;
	u32 len;
	u32 used;
};

static void *out_rec(struct out *o, struct skd_session *s, u32 type, u32 size,
		     pid_t pid, pid_t tid)
{
	struct skd_rec_header *hdr;
	struct skd_rec_id *id;

	if (size > o->len - o->used)
		return NULL;
	hdr = (void *)(o->buf + o->used);
	o->used += size;
	hdr->type = type;
	hdr->misc = SKD_MISC_SYNTHESIZED;
	hdr->size = size;
	id = (struct skd_rec_id *)(hdr + 1);
	id->time = ktime_get_ns();
	id->cpu = raw_smp_processor_id();
	id->pid = pid;
	id->tid = tid;
	id->reserved = 0;
	return hdr;
}

/* The first process with tgid >= @nr that @s follows, referenced. */
static struct task_struct *next_process(struct skd_session *s, pid_t nr,
					pid_t *tgid)
{
	struct task_struct *task = NULL;
	struct pid *pid;

	rcu_read_lock();
	for (; nr > 0 && (pid = find_ge_pid(nr, s->pid_ns)); nr++) {
		nr = pid_nr_ns(pid, s->pid_ns);
		task = pid_task(pid, PIDTYPE_TGID);
		if (task && skd_session_wants_task(s, task)) {
			get_task_struct(task);
			*tgid = nr;
			break;
		}
		task = NULL;
	}
	rcu_read_unlock();
	return task;
}

/* COMM records of @leader's threads from tid @from. 0: done, 1: full. */
static int read_comms(struct skd_session *s, struct out *o,
		      struct task_struct *leader, pid_t tgid, u64 *cursor)
{
	pid_t from = *cursor & ~CURSOR_COMM, tid, best;
	char comm[TASK_COMM_LEN];
	struct skd_rec_comm *rec;
	struct task_struct *t, *found;

	for (;;) {
		best = 0;
		found = NULL;
		/* The lowest tid left: threads come in tid order. */
		rcu_read_lock();
		for_each_thread(leader, t) {
			tid = task_pid_nr_ns(t, s->pid_ns);
			if (tid >= from && tid > 0 && (!best || tid < best)) {
				best = tid;
				found = t;
			}
		}
		if (found)
			get_task_comm(comm, found);
		rcu_read_unlock();
		if (!found)
			return 0;
		rec = out_rec(o, s, SKD_REC_COMM, sizeof(*rec), tgid, best);
		if (!rec) {
			*cursor = CURSOR_COMM | best;
			return 1;
		}
		strscpy_pad(rec->comm, comm, sizeof(rec->comm));
		from = best + 1;
	}
}

/* MMAP records of @mm's code from @*addr on. 0: done, 1: full, < 0. */
static int read_vmas(struct skd_session *s, struct out *o,
		     struct mm_struct *mm, pid_t tgid, u64 *addr, char *path)
{
	struct vm_area_struct *vma;
	struct skd_rec_mmap desc, *rec;
	const char *name;
	size_t len;
	u32 size;
	int ret = 0;

	if (mmap_read_lock_killable(mm))
		return -EINTR;
	for (vma = find_vma(mm, *addr); vma; vma = find_vma(mm, vma->vm_end)) {
		if (!(vma->vm_flags & VM_EXEC))
			continue;
		name = skd_vma_describe(vma, path, PATH_MAX, &desc);
		len = strnlen(name, PATH_MAX - 1);
		size = ALIGN(sizeof(*rec) + len + 1, 8);
		rec = out_rec(o, s, SKD_REC_MMAP, size, tgid, tgid);
		if (!rec) {
			*addr = vma->vm_start;
			ret = 1;
			break;
		}
		skd_mmap_fields_copy(rec, &desc);
		memcpy(rec->path, name, len);
		memset(rec->path + len, 0, size - sizeof(*rec) - len);
	}
	mmap_read_unlock(mm);
	return ret;
}

long skd_read_maps(struct skd_session *s, void *buf, u32 len,
		   u64 *cursor_pid, u64 *cursor_addr)
{
	struct out o = { .buf = buf, .len = len };
	struct task_struct *leader;
	struct mm_struct *mm;
	char *path;
	pid_t tgid;
	int ret = 0;

	if (*cursor_pid > PID_MAX_LIMIT)
		return 0;
	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	while (!ret) {
		leader = next_process(s, max_t(u64, *cursor_pid, 1), &tgid);
		if (!leader) {
			/* Past the last process: further calls return 0. */
			*cursor_pid = PID_MAX_LIMIT + 1ULL;
			*cursor_addr = 0;
			break;
		}
		if (tgid != *cursor_pid) {
			*cursor_pid = tgid;
			*cursor_addr = CURSOR_COMM;
		}
		if (*cursor_addr & CURSOR_COMM) {
			ret = read_comms(s, &o, leader, tgid, cursor_addr);
			if (!ret)
				*cursor_addr = 0;
		}
		if (!ret) {
			mm = get_task_mm(leader);
			if (mm) {
				ret = read_vmas(s, &o, mm, tgid, cursor_addr,
						path);
				mmput(mm);
			}
		}
		put_task_struct(leader);
		if (!ret) {
			*cursor_pid = tgid + 1ULL;
			*cursor_addr = CURSOR_COMM;
		}
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
	}
	kfree(path);
	if (ret < 0 && !o.used)
		return ret;
	return o.used;
}
