// SPDX-License-Identifier: GPL-2.0
/*
 * Sideband: COMM, EXEC, FORK and EXIT records, so a reader can name and
 * follow processes it did not start. The scheduler's tracepoints are not
 * exported to modules by symbol, so they are found by name at load time.
 * Probes run in the context of the task concerned, with preemption
 * disabled, and write into the running sessions' rings of this CPU.
 */
#include <linux/binfmts.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/percpu.h>
#include <linux/pid_namespace.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "record.h"
#include "session.h"
#include "sideband.h"

/* d_path() scratch; only task-context probes use it, never nested. */
struct path_buf {
	char buf[PATH_MAX];
};

static struct path_buf __percpu *skd_path_buf;

static bool sideband_wanted(struct skd_session *s, struct task_struct *task)
{
	return !(s->cfg.flags & SKD_CFG_NO_SIDEBAND) &&
	       skd_session_wants_task(s, task);
}

static void emit_comm(struct skd_session *s, struct task_struct *task,
		      const char *comm, u16 misc)
{
	struct skd_rec_comm *rec;

	rec = skd_record_begin(s, SKD_REC_COMM, misc, sizeof(*rec), task, 0);
	if (rec)
		strscpy_pad(rec->comm, comm, sizeof(rec->comm));
	skd_record_end(s, rec);
}

static void emit_task(struct skd_session *s, u32 type,
		      struct task_struct *task, struct task_struct *parent)
{
	struct skd_rec_task *rec;

	rec = skd_record_begin(s, type, 0, sizeof(*rec), task, 0);
	if (rec) {
		rec->ppid = task_tgid_nr_ns(parent, s->pid_ns);
		rec->ptid = task_pid_nr_ns(parent, s->pid_ns);
	}
	skd_record_end(s, rec);
}

static void probe_fork(void *data, struct task_struct *parent,
		       struct task_struct *child)
{
	struct skd_session *s;

	rcu_read_lock();
	list_for_each_entry_rcu(s, &skd_running_sessions, running)
		if (sideband_wanted(s, parent))
			emit_task(s, SKD_REC_FORK, child, parent);
	rcu_read_unlock();
}

static void probe_exit(void *data, struct task_struct *task)
{
	struct skd_session *s;
	struct task_struct *parent;

	rcu_read_lock();
	parent = rcu_dereference(task->real_parent);
	list_for_each_entry_rcu(s, &skd_running_sessions, running)
		if (sideband_wanted(s, task))
			emit_task(s, SKD_REC_EXIT, task, parent);
	rcu_read_unlock();
}

static void emit_exec(struct skd_session *s, struct task_struct *task,
		      pid_t old_tid, const char *path, size_t len)
{
	struct skd_rec_exec *rec;
	u32 size = ALIGN(sizeof(*rec) + len + 1, 8);

	rec = skd_record_begin(s, SKD_REC_EXEC, 0, size, task, 0);
	if (rec) {
		rec->old_tid = old_tid;
		rec->reserved = 0;
		memcpy(rec->path, path, len);
		memset(rec->path + len, 0, size - sizeof(*rec) - len);
	}
	skd_record_end(s, rec);
}

static void probe_exec(void *data, struct task_struct *task, pid_t old_pid,
		       struct linux_binprm *bprm)
{
	char *buf = this_cpu_ptr(skd_path_buf)->buf;
	struct skd_session *s;
	const char *path;
	size_t len;

	/* The absolute path of what runs, not the argument to execve. */
	path = d_path(&bprm->file->f_path, buf, PATH_MAX);
	if (IS_ERR(path))
		path = bprm->filename;
	len = strnlen(path, PATH_MAX - 1);

	rcu_read_lock();
	list_for_each_entry_rcu(s, &skd_running_sessions, running) {
		if (!sideband_wanted(s, task))
			continue;
		/* old_pid is a global number; it may be gone by now. */
		emit_exec(s, task, s->pid_ns == &init_pid_ns ? old_pid : 0,
			  path, len);
	}
	rcu_read_unlock();
}

/*
 * exec renames the task before it maps the new image (begin_new_exec()),
 * while sched_process_exec fires only once the image is loaded: this
 * COMM, marked as exec's, is where the new image starts, before its MMAP
 * records, as perf's COMM_EXEC is.
 */
static void probe_rename(void *data, struct task_struct *task,
			 const char *comm)
{
	u16 misc = task->in_execve ? SKD_MISC_COMM_EXEC : 0;
	struct skd_session *s;

	rcu_read_lock();
	list_for_each_entry_rcu(s, &skd_running_sessions, running)
		if (sideband_wanted(s, task))
			emit_comm(s, task, comm, misc);
	rcu_read_unlock();
}

struct probe {
	const char *name;
	void *func;
	struct tracepoint *tp;
};

static struct probe skd_probes[] = {
	{ "sched_process_fork", probe_fork },
	{ "sched_process_exec", probe_exec },
	{ "sched_process_exit", probe_exit },
	{ "task_rename", probe_rename },
};

static void find_tracepoint(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(skd_probes); i++)
		if (!strcmp(tp->name, skd_probes[i].name))
			skd_probes[i].tp = tp;
}

static void unregister_probes(unsigned int n)
{
	while (n--)
		tracepoint_probe_unregister(skd_probes[n].tp,
					    skd_probes[n].func, NULL);
	/* No probe runs once this returns: the module text may go. */
	tracepoint_synchronize_unregister();
}

int skd_sideband_init(void)
{
	unsigned int i;
	int ret;

	skd_path_buf = alloc_percpu(struct path_buf);
	if (!skd_path_buf)
		return -ENOMEM;

	for_each_kernel_tracepoint(find_tracepoint, NULL);
	for (i = 0; i < ARRAY_SIZE(skd_probes); i++) {
		if (!skd_probes[i].tp) {
			pr_err("tracepoint %s not found\n", skd_probes[i].name);
			ret = -ENOENT;
			goto err_unregister;
		}
		ret = tracepoint_probe_register(skd_probes[i].tp,
						skd_probes[i].func, NULL);
		if (ret) {
			pr_err("tracepoint %s: cannot attach (%d)\n",
			       skd_probes[i].name, ret);
			goto err_unregister;
		}
	}
	return 0;

err_unregister:
	unregister_probes(i);
	free_percpu(skd_path_buf);
	return ret;
}

void skd_sideband_uninit(void)
{
	unregister_probes(ARRAY_SIZE(skd_probes));
	free_percpu(skd_path_buf);
}
