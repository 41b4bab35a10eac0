// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/skidless: one open file is one session. This file owns the user
 * boundary: it copies every argument in before calling the session code and
 * copies results out after, so no session lock is ever held across a user
 * fault.
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/security.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "access.h"
#include "backend.h"
#include "device.h"
#include "intel/hw.h"
#include "intel/run.h"
#include "intel/sim_provider.h"
#include "intel/vmx_guard.h"
#include "mmap_events.h"
#include "params.h"
#include "pmu_info.h"
#include "read_maps.h"
#include "session.h"

/* The most SKD_IOC_READ_MAPS writes per call, whatever the buffer. */
#define READ_MAPS_MAX_BUF	SZ_1M

/* Reads the leading size of an extensible struct and bounds it. */
static int get_size(const void __user *uarg, u32 *usize, u32 min)
{
	if (get_user(*usize, (const u32 __user *)uarg))
		return -EFAULT;
	if (*usize < min)
		return -EINVAL;
	if (*usize > PAGE_SIZE)
		return -E2BIG;
	return 0;
}

static long ioctl_get_info(void __user *uarg)
{
	struct skd_info info = {};
	u32 usize;
	int ret;

	ret = get_size(uarg, &usize, SKD_INFO_SIZE_VER0);
	if (ret)
		return ret;

	info.size = min_t(u32, usize, sizeof(info));
	info.abi_version = SKD_ABI_VERSION;
	info.backends = skd_backends_usable();
	info.default_backend = skd_backend_default();
	info.nr_cpu_ids = nr_cpu_ids;
	info.nr_cpus_online = num_online_cpus();
	info.page_size = PAGE_SIZE;
	info.max_ring_pages = skd_max_ring_pages;
	info.max_callchain = SKD_MAX_CALLCHAIN;
	info.max_freq = skd_max_freq;
	info.sessions = skd_sessions_open();
	info.features = SKD_FEAT_READ_MAPS | SKD_FEAT_USER_STACK |
			SKD_FEAT_TIMER_FOLLOWS |
			(skd_mmap_events_active() ? SKD_FEAT_MMAP_EVENTS : 0);
	strscpy(info.version, SKD_VERSION, sizeof(info.version));
	skd_pmu_describe(info.pmu, sizeof(info.pmu));

	if (copy_to_user(uarg, &info, info.size))
		return -EFAULT;
	return 0;
}

/* The events of a version-1 config, each an extensible struct itself. */
static int copy_events(const struct skd_config *cfg,
		       struct skd_event_attr *events)
{
	void __user *src = u64_to_user_ptr(cfg->events_ptr);
	unsigned int i;
	int ret;

	if (!cfg->nr_events)
		return cfg->events_ptr || cfg->event_attr_size ? -EINVAL : 0;
	if (cfg->nr_events > SKD_MAX_EVENTS)
		return -ERANGE;
	if (cfg->event_attr_size < SKD_EVENT_ATTR_SIZE_VER0)
		return -EINVAL;
	if (cfg->event_attr_size > PAGE_SIZE)
		return -E2BIG;
	for (i = 0; i < cfg->nr_events; i++) {
		ret = copy_struct_from_user(&events[i], sizeof(events[i]),
					    src + i * cfg->event_attr_size,
					    cfg->event_attr_size);
		if (ret)
			return ret;
		/* Each event states the size the array's stride says. */
		if (events[i].size != cfg->event_attr_size)
			return -EINVAL;
		events[i].size = sizeof(events[i]);
	}
	return 0;
}

static long ioctl_config(struct skd_session *s, void __user *uarg)
{
	struct skd_event_attr events[SKD_MAX_EVENTS];
	unsigned long *cpus = NULL;
	struct skd_config cfg;
	u32 usize;
	int ret;

	BUILD_BUG_ON(sizeof(struct skd_config) != SKD_CONFIG_SIZE_VER2);
	BUILD_BUG_ON(sizeof(struct skd_event_attr) != SKD_EVENT_ATTR_SIZE_VER1);
	ret = get_size(uarg, &usize, SKD_CONFIG_SIZE_VER0);
	if (ret)
		return ret;
	ret = copy_struct_from_user(&cfg, sizeof(cfg), uarg, usize);
	if (ret)
		return ret;
	cfg.size = sizeof(cfg);

	/* The session code rejects bad sizes; copy only sane ones. */
	if (cfg.cpumask_bytes && !(cfg.cpumask_bytes % sizeof(u64)) &&
	    cfg.cpumask_bytes <= SKD_CPUMASK_MAX_BYTES) {
		/* __u64 little-endian words are unsigned longs on x86-64. */
		cpus = memdup_user(u64_to_user_ptr(cfg.cpumask_ptr),
				   cfg.cpumask_bytes);
		if (IS_ERR(cpus))
			return PTR_ERR(cpus);
	}
	ret = copy_events(&cfg, events);
	if (!ret)
		ret = skd_session_config(s, &cfg, cpus, cfg.cpumask_bytes * 8,
					 events);
	kfree(cpus);
	return ret;
}

static long ioctl_get_stats(struct skd_session *s, void __user *uarg)
{
	struct skd_cpu_stats *buf;
	struct skd_stats st;
	void __user *dst;
	unsigned int n, i;
	u32 usize, len;
	int ret;

	BUILD_BUG_ON(sizeof(struct skd_stats) != SKD_STATS_SIZE_VER0);
	BUILD_BUG_ON(sizeof(struct skd_cpu_stats) != SKD_CPU_STATS_SIZE_VER0);
	ret = get_size(uarg, &usize, SKD_STATS_SIZE_VER0);
	if (ret)
		return ret;
	ret = copy_struct_from_user(&st, sizeof(st), uarg, usize);
	if (ret)
		return ret;
	if (st.reserved0 || st.cpu_stats_size < SKD_CPU_STATS_SIZE_VER0)
		return -EINVAL;
	if (st.cpu_stats_size > PAGE_SIZE)
		return -E2BIG;

	n = min_t(u32, st.nr_cpus, nr_cpu_ids);
	buf = kvcalloc(max(n, 1U), sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = skd_session_stats(s, buf, n);
	if (ret)
		goto out_free;

	/* Entries are st.cpu_stats_size apart; bytes we do not know are 0. */
	len = min_t(u32, st.cpu_stats_size, sizeof(*buf));
	dst = u64_to_user_ptr(st.cpus_ptr);
	for (i = 0; i < n; i++, dst += st.cpu_stats_size) {
		if (copy_to_user(dst, &buf[i], len) ||
		    clear_user(dst + len, st.cpu_stats_size - len)) {
			ret = -EFAULT;
			goto out_free;
		}
	}
	if (put_user(nr_cpu_ids, &((struct skd_stats __user *)uarg)->nr_cpus))
		ret = -EFAULT;
out_free:
	kvfree(buf);
	return ret;
}

static long ioctl_get_pmu(void __user *uarg)
{
	struct skd_pmu_info info = {};
	const struct skd_pmu_ops *ops;
	struct skd_pmu_caps caps;
	u32 usize, cpu = 0;
	int ret;

	BUILD_BUG_ON(sizeof(struct skd_pmu_info) != SKD_PMU_INFO_SIZE_VER1);
	ret = get_size(uarg, &usize, SKD_PMU_INFO_SIZE_VER0);
	if (ret)
		return ret;
	ret = copy_struct_from_user(&info, sizeof(info), uarg, usize);
	if (ret)
		return ret;
	if (info.flags || info.cpu_signature || info.core_type ||
	    info.arch_lbr_ebx || info.arch_lbr_ecx || info.reserved0)
		return -EINVAL;
	if (info.query & ~__SKD_PMU_QUERY_ALL)
		return -EOPNOTSUPP;
	/* Hybrid parts differ per core type: any CPU may be asked about. */
	if (info.query & SKD_PMU_QUERY_CPU) {
		if (info.cpu >= nr_cpu_ids || !cpu_possible(info.cpu))
			return -ENXIO;
		cpu = info.cpu;
	}
	if (info.backend == SKD_BACKEND_INTEL) {
		if (info.sim_model)
			return -EINVAL;
		skd_hw_caps(cpu, &caps);
	} else if (info.backend == SKD_BACKEND_SIM) {
		if (info.sim_model >= __SKD_SIM_MAX)
			return -EINVAL;
		ops = skd_sim_get(&info.sim_model);
		if (!ops)
			return skd_sim_models() ? -EINVAL : -ENODEV;
		/* The model's constants only: no session needed. */
		ret = skd_pmu_caps_of(ops, cpu, &caps);
		skd_sim_put();
		if (ret)
			return ret;
	} else {
		return -EINVAL;
	}
	skd_pmu_caps_to_info(&caps, &info);
	if (skd_vmx_guard_hypervisor())
		info.flags |= SKD_PMU_VMX;
	info.cpu = cpu;
	info.max_sample_rate = skd_pmu_max_sample_rate();
	info.sim_models = skd_sim_models();
	info.size = min_t(u32, usize, sizeof(info));
	return copy_to_user(uarg, &info, info.size) ? -EFAULT : 0;
}

static long ioctl_read_maps(struct skd_session *s, void __user *uarg)
{
	struct skd_read_maps __user *urm = uarg;
	struct skd_read_maps rm;
	u32 usize, len;
	void *buf;
	long ret;

	BUILD_BUG_ON(sizeof(struct skd_read_maps) != SKD_READ_MAPS_SIZE_VER0);
	ret = get_size(uarg, &usize, SKD_READ_MAPS_SIZE_VER0);
	if (ret)
		return ret;
	ret = copy_struct_from_user(&rm, sizeof(rm), uarg, usize);
	if (ret)
		return ret;
	if (rm.flags || rm.buf_len < SKD_READ_MAPS_MIN_BUF)
		return -EINVAL;
	/* Pairs with the release in skd_session_config(). */
	if (!smp_load_acquire(&s->configured))
		return -EBADFD;

	len = min_t(u32, rm.buf_len, READ_MAPS_MAX_BUF);
	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	/* Records into our buffer first: no user fault under mmap_lock. */
	ret = skd_read_maps(s, buf, len, &rm.cursor_pid, &rm.cursor_addr);
	if (ret < 0)
		goto out_free;
	rm.bytes = ret;
	ret = 0;
	if (copy_to_user(u64_to_user_ptr(rm.buf_ptr), buf, rm.bytes) ||
	    put_user(rm.bytes, &urm->bytes) ||
	    put_user(rm.cursor_pid, &urm->cursor_pid) ||
	    put_user(rm.cursor_addr, &urm->cursor_addr))
		ret = -EFAULT;
out_free:
	kvfree(buf);
	return ret;
}

static long skd_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct skd_session *s = file->private_data;
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case SKD_IOC_GET_INFO:
		return ioctl_get_info(uarg);
	case SKD_IOC_CONFIG:
		return ioctl_config(s, uarg);
	case SKD_IOC_START:
		return arg ? -EINVAL : skd_session_start(s);
	case SKD_IOC_STOP:
		return arg ? -EINVAL : skd_session_stop(s);
	case SKD_IOC_GET_STATS:
		return ioctl_get_stats(s, uarg);
	case SKD_IOC_GET_PMU:
		return ioctl_get_pmu(uarg);
	case SKD_IOC_READ_MAPS:
		return ioctl_read_maps(s, uarg);
	default:
		return -ENOTTY;
	}
}

static int skd_mmap(struct file *file, struct vm_area_struct *vma)
{
	return skd_session_mmap(file->private_data, vma);
}

static __poll_t skd_poll(struct file *file, poll_table *wait)
{
	return skd_session_poll(file->private_data, file, wait);
}

static int skd_open(struct inode *inode, struct file *file)
{
	struct skd_session *s;
	bool restricted;
	int ret;

	/*
	 * The device mode keeps others out; this keeps out unprivileged root,
	 * as perf's own check does at every kernel.perf_event_paranoid level,
	 * but for the members of access_gid's group, whose sessions are
	 * restricted (access.c).
	 * Samples carry kernel addresses, branch stacks and data addresses:
	 * under kernel lockdown's confidentiality mode perf refuses such
	 * state (LOCKDOWN_PERF), and so does skidless. The LSM's perf hook
	 * (security_perf_event_open()) is not exported to modules: the LSMs
	 * see the open of /dev/skidless instead.
	 */
	ret = skd_access_open(&restricted);
	if (ret)
		return ret;
	if (security_locked_down(LOCKDOWN_PERF)) {
		pr_info_ratelimited("refused: the kernel is locked down (confidentiality), which forbids reading PMU samples\n");
		return -EPERM;
	}
	s = skd_session_create();
	if (!s)
		return -ENOMEM;
	s->restricted = restricted;
	s->owner = current_uid();
	file->private_data = s;
	return nonseekable_open(inode, file);
}

static int skd_release(struct inode *inode, struct file *file)
{
	skd_session_destroy(file->private_data);
	return 0;
}

static const struct file_operations skd_fops = {
	.owner		= THIS_MODULE,
	.open		= skd_open,
	.release	= skd_release,
	.unlocked_ioctl	= skd_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.mmap		= skd_mmap,
	.poll		= skd_poll,
	.llseek		= noop_llseek,
};

static struct miscdevice skd_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= SKD_DEVICE_NAME,
	.fops	= &skd_fops,
	.mode	= 0600,
};

int skd_device_init(void)
{
	return misc_register(&skd_misc);
}

void skd_device_uninit(void)
{
	misc_deregister(&skd_misc);
}
