// SPDX-License-Identifier: GPL-2.0
/*
 * Sessions: configuration checks, rings, and starting and stopping the
 * backend on the right CPUs.
 *
 * Locks, outermost first:
 *   s->lock             one session's state machine (ioctls on its file)
 *   cpus_read_lock()    CPUs stay put while a session starts or stops
 *   skd_running_lock    the running list; the hotplug callbacks take it
 *                       with the hotplug lock held for write
 * Nothing here is taken in a path that faults on user memory: the device
 * copies arguments in and out before and after calling in, so mmap (which
 * holds mmap_lock) never waits behind us.
 */
#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "access.h"
#include "backend.h"
#include "cpu.h"
#include "memlock.h"
#include "params.h"
#include "ring.h"
#include "session.h"
#include "user_stack.h"

/* Deeper process trees are not followed; see README (limits). */
#define SKD_ANCESTRY_MAX	128

static DEFINE_MUTEX(skd_running_lock);
LIST_HEAD(skd_running_sessions);
static atomic_t skd_nr_sessions = ATOMIC_INIT(0);

int skd_sessions_open(void)
{
	return atomic_read(&skd_nr_sessions);
}

struct skd_session *skd_session_create(void)
{
	struct skd_session *s;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return NULL;
	if (!zalloc_cpumask_var(&s->cpus, GFP_KERNEL)) {
		kfree(s);
		return NULL;
	}
	mutex_init(&s->lock);
	init_waitqueue_head(&s->wq);
	INIT_LIST_HEAD(&s->running);
	s->state = SKD_SESSION_OPEN;
	s->pid_ns = get_pid_ns(task_active_pid_ns(current));
	atomic_inc(&skd_nr_sessions);
	return s;
}

static void free_rings(struct skd_session *s)
{
	unsigned int cpu;

	if (!s->rings)
		return;
	for_each_possible_cpu(cpu)
		skd_ring_free(s->rings[cpu]);
	kfree(s->rings);
	s->rings = NULL;
}

void skd_session_destroy(struct skd_session *s)
{
	if (s->state == SKD_SESSION_RUNNING)
		skd_session_stop(s);
	if (s->configured) {
		s->backend->fini(s);
		skd_cpu_sleep_put();
	}
	free_rings(s);
	skd_memlock_uncharge(&s->mem);
	/* Sampling stopped above: no sample can be using the scratch. */
	if (s->configured && s->cfg.user_stack_bytes)
		skd_user_stack_put();
	put_pid(s->target);
	put_pid_ns(s->pid_ns);
	free_cpumask_var(s->cpus);
	mutex_destroy(&s->lock);
	kfree(s);
	atomic_dec(&skd_nr_sessions);
}

/* Checks that need nothing but the struct itself. */
static int check_config(const struct skd_config *cfg)
{
	u64 ring_bytes;
	unsigned int i;

	if (cfg->flags & ~__SKD_CFG_ALL)
		return -EOPNOTSUPP;
	for (i = 0; i < ARRAY_SIZE(cfg->reserved); i++)
		if (cfg->reserved[i])
			return -EINVAL;
	if ((cfg->flags & SKD_CFG_EXCLUDE_USER) &&
	    (cfg->flags & SKD_CFG_EXCLUDE_KERNEL))
		return -EINVAL;
	if (!cfg->ring_pages || !is_power_of_2(cfg->ring_pages))
		return -EINVAL;
	if (cfg->ring_pages > skd_max_ring_pages)
		return -ERANGE;
	/* A fuller mark might never be reached: records vary in size. */
	ring_bytes = (u64)cfg->ring_pages << PAGE_SHIFT;
	if (cfg->wakeup_bytes > ring_bytes / 2)
		return -ERANGE;
	if (cfg->callchain_depth > SKD_MAX_CALLCHAIN)
		return -ERANGE;
	if (cfg->flags & SKD_CFG_PID) {
		if (cfg->pid <= 0)
			return -EINVAL;
	} else if (cfg->pid) {
		return -EINVAL;
	}
	/* A mask pointer without its size is as wrong as events_ptr alone. */
	if (cfg->cpumask_bytes % sizeof(u64) ||
	    (!cfg->cpumask_bytes && cfg->cpumask_ptr))
		return -EINVAL;
	if (cfg->cpumask_bytes > SKD_CPUMASK_MAX_BYTES)
		return -ERANGE;
	if (cfg->branch_sample & ~__SKD_BRANCH_ALL)
		return -EOPNOTSUPP;
	if (cfg->nr_events > SKD_MAX_EVENTS)
		return -ERANGE;
	if (cfg->sim_model >= __SKD_SIM_MAX)
		return -EINVAL;
	if (cfg->reserved1)
		return -EINVAL;
	if (cfg->user_stack_bytes % sizeof(u64) ||
	    cfg->user_stack_bytes > SKD_MAX_USER_STACK)
		return -ERANGE;
	return 0;
}

/* @cpus has @nbits bits, or is NULL for every CPU. */
static int set_cpus(struct skd_session *s, const unsigned long *cpus,
		    unsigned int nbits)
{
	unsigned int cpu;

	if (!cpus) {
		cpumask_copy(s->cpus, cpu_possible_mask);
		return 0;
	}
	for_each_set_bit(cpu, cpus, nbits) {
		if (cpu >= nr_cpu_ids || !cpu_possible(cpu))
			return -ENXIO;
		cpumask_set_cpu(cpu, s->cpus);
	}
	return cpumask_empty(s->cpus) ? -EINVAL : 0;
}

static int set_target(struct skd_session *s, pid_t nr)
{
	struct task_struct *task;
	struct pid *pid;
	bool is_process, owned = true;

	/* The number is in the caller's namespace, like kill(2). */
	pid = find_get_pid(nr);
	if (!pid)
		return -ESRCH;
	rcu_read_lock();
	task = pid_task(pid, PIDTYPE_TGID);
	is_process = !!task;
	if (task && s->restricted)
		owned = skd_access_owns(s->owner, task);
	rcu_read_unlock();
	if (!is_process || !owned) {
		put_pid(pid);
		return is_process ? -EACCES : -ESRCH;
	}
	s->target = pid;
	return 0;
}

static int alloc_rings(struct skd_session *s)
{
	unsigned int cpu;

	s->rings = kcalloc(nr_cpu_ids, sizeof(*s->rings), GFP_KERNEL);
	if (!s->rings)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		s->rings[cpu] = skd_ring_alloc(cpu, s->cfg.ring_pages,
					       s->cfg.wakeup_bytes, &s->wq);
		if (!s->rings[cpu])
			return -ENOMEM;
	}
	return 0;
}

int skd_session_config(struct skd_session *s, const struct skd_config *cfg,
		       const unsigned long *cpus, unsigned int nbits,
		       const struct skd_event_attr *events)
{
	const struct skd_backend *backend;
	int ret;

	ret = check_config(cfg);
	if (!ret && s->restricted)
		ret = skd_access_check_config(cfg);
	if (ret)
		return ret;
	if (cfg->backend >= __SKD_BACKEND_MAX)
		return -EINVAL;
	backend = skd_backend_get(cfg->backend);
	if (!backend || !backend->usable(NULL, 0))
		return -ENODEV;

	mutex_lock(&s->lock);
	if (s->state != SKD_SESSION_OPEN) {
		ret = -EBUSY;
		goto out_unlock;
	}
	s->cfg = *cfg;
	s->cfg.backend = backend->id;
	s->backend = backend;
	memcpy(s->events, events, cfg->nr_events * sizeof(*events));

	ret = set_cpus(s, cpus, nbits);
	if (ret)
		goto err_reset;
	if (cfg->flags & SKD_CFG_PID) {
		ret = set_target(s, cfg->pid);
		if (ret)
			goto err_reset;
	}
	/* A ring per possible CPU: its data pages and its control page. */
	ret = skd_memlock_charge(&s->mem, (unsigned long)num_possible_cpus() *
				 (s->cfg.ring_pages + 1));
	if (ret)
		goto err_reset;
	ret = alloc_rings(s);
	if (ret)
		goto err_free_rings;
	if (cfg->user_stack_bytes) {
		ret = skd_user_stack_get();
		if (ret)
			goto err_free_rings;
	}
	ret = backend->init(s);
	if (ret) {
		if (cfg->user_stack_bytes)
			skd_user_stack_put();
		goto err_free_rings;
	}

	skd_cpu_sleep_get();
	s->state = SKD_SESSION_READY;
	/* Rings before the flag; pairs with the acquire in mmap/poll/stats. */
	smp_store_release(&s->configured, true);
	goto out_unlock;

err_free_rings:
	free_rings(s);
	skd_memlock_uncharge(&s->mem);
err_reset:
	put_pid(s->target);
	s->target = NULL;
	cpumask_clear(s->cpus);
	s->backend = NULL;
	memset(&s->cfg, 0, sizeof(s->cfg));
	memset(s->events, 0, sizeof(s->events));
out_unlock:
	mutex_unlock(&s->lock);
	return ret;
}

static void start_on_cpu(void *arg)
{
	struct skd_session *s = arg;

	s->backend->cpu_start(s, smp_processor_id());
}

static void stop_on_cpu(void *arg)
{
	struct skd_session *s = arg;

	s->backend->cpu_stop(s, smp_processor_id());
}

int skd_session_start(struct skd_session *s)
{
	unsigned int cpu;
	int ret = 0;

	mutex_lock(&s->lock);
	if (s->state == SKD_SESSION_OPEN) {
		ret = -EBADFD;
		goto out_unlock;
	}
	if (s->state == SKD_SESSION_RUNNING) {
		ret = -EALREADY;
		goto out_unlock;
	}

	cpus_read_lock();
	mutex_lock(&skd_running_lock);
	if (s->backend->prepare) {
		ret = s->backend->prepare(s);
		if (ret)
			goto out_unlock_cpus;
	}
	/* Sideband first, so a task's COMM precedes its first sample. */
	list_add_tail_rcu(&s->running, &skd_running_sessions);
	for_each_cpu_and(cpu, s->cpus, cpu_online_mask)
		smp_call_function_single(cpu, start_on_cpu, s, true);
	WRITE_ONCE(s->state, SKD_SESSION_RUNNING);
out_unlock_cpus:
	mutex_unlock(&skd_running_lock);
	cpus_read_unlock();

out_unlock:
	mutex_unlock(&s->lock);
	return ret;
}

int skd_session_stop(struct skd_session *s)
{
	unsigned int cpu;
	int ret = 0;

	mutex_lock(&s->lock);
	if (s->state != SKD_SESSION_RUNNING) {
		ret = s->state == SKD_SESSION_OPEN ? -EBADFD : -EALREADY;
		goto out_unlock;
	}

	cpus_read_lock();
	mutex_lock(&skd_running_lock);
	for_each_cpu_and(cpu, s->cpus, cpu_online_mask)
		smp_call_function_single(cpu, stop_on_cpu, s, true);
	if (s->backend->unprepare)
		s->backend->unprepare(s);
	list_del_rcu(&s->running);
	WRITE_ONCE(s->state, SKD_SESSION_READY);
	mutex_unlock(&skd_running_lock);
	cpus_read_unlock();

	/* Sideband probes that found us in the list are done after this. */
	synchronize_rcu();
	/* Readers waiting for a watermark get the tail end now. */
	wake_up_all(&s->wq);

out_unlock:
	mutex_unlock(&s->lock);
	return ret;
}

/*
 * Start or stop every running session that samples @cpu, on that CPU with
 * IRQs off (the context of the start and stop IPIs). The caller keeps the
 * list still.
 */
static void sessions_on_cpu(unsigned int cpu, bool start)
{
	struct skd_session *s;

	list_for_each_entry(s, &skd_running_sessions, running) {
		if (!cpumask_test_cpu(cpu, s->cpus))
			continue;
		if (start)
			s->backend->cpu_start(s, cpu);
		else
			s->backend->cpu_stop(s, cpu);
	}
}

/* Hotplug, in the CPU's hotplug thread. */
static void sessions_on_cpu_locked(unsigned int cpu, bool start)
{
	unsigned long flags;

	mutex_lock(&skd_running_lock);
	local_irq_save(flags);
	sessions_on_cpu(cpu, start);
	local_irq_restore(flags);
	mutex_unlock(&skd_running_lock);
}

/*
 * System sleep: the boot CPU, the only one left, with IRQs off and every
 * task frozen, so no session can start or stop and the list stands still;
 * no lock can be taken here, and none is needed.
 */
void skd_sessions_cpu_sleep(bool resume)
{
	sessions_on_cpu(smp_processor_id(), resume);
}

void skd_sessions_cpu_online(unsigned int cpu)
{
	sessions_on_cpu_locked(cpu, true);
}

void skd_sessions_cpu_offline(unsigned int cpu)
{
	sessions_on_cpu_locked(cpu, false);
}

int skd_session_stats(struct skd_session *s, struct skd_cpu_stats *out,
		      unsigned int nr)
{
	unsigned int cpu;

	/* Pairs with the release in skd_session_config(). */
	if (!smp_load_acquire(&s->configured))
		return -EBADFD;
	for (cpu = 0; cpu < nr && cpu < nr_cpu_ids; cpu++) {
		if (s->rings[cpu])
			skd_ring_stats(&s->rings[cpu]->core, &out[cpu]);
		else
			memset(&out[cpu], 0, sizeof(out[cpu]));
	}
	return 0;
}

int skd_session_mmap(struct skd_session *s, struct vm_area_struct *vma)
{
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	u64 cpu = off >> SKD_MMAP_CPU_SHIFT;
	unsigned int region = (off >> SKD_MMAP_REGION_SHIFT) & 0xff;

	/* Pairs with the release in skd_session_config(). */
	if (!smp_load_acquire(&s->configured))
		return -EBADFD;
	if (off & (BIT_ULL(SKD_MMAP_REGION_SHIFT) - 1))
		return -EINVAL;
	if (cpu >= nr_cpu_ids)
		return -EINVAL;
	cpu = array_index_nospec(cpu, nr_cpu_ids);
	if (!s->rings[cpu])
		return -EINVAL;
	return skd_ring_mmap(s->rings[cpu], region, vma);
}

__poll_t skd_session_poll(struct skd_session *s, struct file *file,
			  poll_table *wait)
{
	unsigned int cpu;
	bool stopped;

	poll_wait(file, &s->wq, wait);
	/* Pairs with the release in skd_session_config(). */
	if (!smp_load_acquire(&s->configured))
		return 0;
	stopped = READ_ONCE(s->state) != SKD_SESSION_RUNNING;
	for_each_possible_cpu(cpu)
		if (s->rings[cpu] && skd_ring_readable(s->rings[cpu], stopped))
			return EPOLLIN | EPOLLRDNORM;
	return 0;
}

bool skd_session_wants_task(const struct skd_session *s,
			    struct task_struct *task)
{
	struct task_struct *t = task;
	unsigned int depth;
	bool found = false;

	if (!s->target)
		return true;

	rcu_read_lock();
	for (depth = 0; depth < SKD_ANCESTRY_MAX && t->pid; depth++) {
		if (task_tgid(t) == s->target) {
			found = true;
			break;
		}
		t = rcu_dereference(t->real_parent);
	}
	rcu_read_unlock();
	return found && (!s->restricted || skd_access_owns(s->owner, task));
}
