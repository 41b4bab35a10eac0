// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "skidless": questions about the module and
 * its sessions, module-wide settings, and the "events" multicast group
 * (uapi/skidless_netlink.h documents the protocol).
 *
 * Contexts, and what may happen in each:
 *   - Requests run in the sender's process context under genl_mutex (the
 *     family is not parallel_ops). They read sessions under the session
 *     registry's lock (session.c), which keeps them allocated, and read
 *     their counters racily: the numbers are a snapshot.
 *   - Nothing is ever sent from NMI or hard IRQ context. The PMI only
 *     counts (a ring's lost records, skd_ring.throttles); a delayed work
 *     polls those counts every POLL_MS while sessions run and sends
 *     THROTTLED and LOST events from process context with GFP_KERNEL, at
 *     most one of each per session and RATE_MS. STARTED, STOPPED and
 *     REFUSED are sent by the ioctl or module notifier that caused them,
 *     also in process context.
 *   - The family is registered before the device and unregistered after
 *     it is gone: no session exists then, the poller is cancelled first,
 *     and skd_nl_ready keeps the module notifier (vmx_guard.c) quiet
 *     around the two.
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/cred.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>

#include "backend.h"
#include "compat.h"
#include "device.h"
#include "memlock.h"
#include "netlink.h"
#include "params.h"
#include "ring.h"
#include "session.h"
#include "intel/run.h"

#define POLL_MS		250
#define RATE_MS		1000
#define MSG_LEN		256

static struct genl_family skd_genl;
static bool skd_nl_ready;
static DEFINE_MUTEX(poll_lock);		/* sessions' nl_*_seen */
static void poll_counts(struct work_struct *work);
static DECLARE_DELAYED_WORK(poll_work, poll_counts);

enum { SKD_MCGRP_EVENTS };

static const struct genl_multicast_group skd_mcgrps[] = {
	[SKD_MCGRP_EVENTS] = { .name = SKD_GENL_MCGRP_EVENTS },
};

/*
 * Policies. GET_INFO, LIST_SESSIONS and GET_SETTINGS take nothing: every
 * attribute is NLA_UNSPEC there, which strict validation refuses.
 */
static const struct nla_policy no_attrs_policy[SKD_A_MAX + 1] = {};

static const struct nla_policy stats_policy[SKD_A_MAX + 1] = {
	[SKD_A_SESSION_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

static skd_nla_range_t sample_rate_range = {
	.min = 1, .max = 10000000,
};

static skd_nla_range_t max_freq_range = {
	.min = 1, .max = SKD_MAX_FREQ_LIMIT,
};

static skd_nla_range_t ring_pages_range = {
	.min = 1, .max = SKD_MAX_RING_PAGES_LIMIT,
};

static skd_nla_range_t mlock_kb_range = {
	.min = 0, .max = INT_MAX,
};

static const struct nla_policy set_policy[SKD_A_MAX + 1] = {
	[SKD_A_SET_MAX_SAMPLE_RATE] = NLA_POLICY_FULL_RANGE(NLA_U32, &sample_rate_range),
	[SKD_A_SET_MAX_FREQ] = NLA_POLICY_FULL_RANGE(NLA_U32, &max_freq_range),
	[SKD_A_SET_MAX_RING_PAGES] = NLA_POLICY_FULL_RANGE(NLA_U32, &ring_pages_range),
	[SKD_A_SET_MLOCK_KB] = NLA_POLICY_FULL_RANGE(NLA_U32, &mlock_kb_range),
};

static void *put_header(struct sk_buff *skb, struct genl_info *info, u8 cmd)
{
	return genlmsg_put_reply(skb, info, &skd_genl, 0, cmd);
}

/* GET_INFO */

static int put_info(struct sk_buff *skb)
{
	struct skd_pmu_info *pmu;
	struct skd_info *info;
	int ret = -EMSGSIZE;

	info = kzalloc(sizeof(*info), GFP_KERNEL);
	pmu = kzalloc(sizeof(*pmu), GFP_KERNEL);
	if (!info || !pmu) {
		ret = -ENOMEM;
		goto out;
	}
	skd_info_fill(info);
	skd_pmu_info_fill(pmu);
	if (nla_put_string(skb, SKD_A_VERSION, info->version) ||
	    nla_put_u32(skb, SKD_A_ABI_VERSION, info->abi_version) ||
	    nla_put_u32(skb, SKD_A_BACKENDS, info->backends) ||
	    nla_put_u32(skb, SKD_A_DEFAULT_BACKEND, info->default_backend) ||
	    nla_put_u32(skb, SKD_A_NR_CPU_IDS, info->nr_cpu_ids) ||
	    nla_put_u32(skb, SKD_A_NR_CPUS_ONLINE, info->nr_cpus_online) ||
	    nla_put_u32(skb, SKD_A_PAGE_SIZE, info->page_size) ||
	    nla_put_u32(skb, SKD_A_MAX_CALLCHAIN, info->max_callchain) ||
	    nla_put_u32(skb, SKD_A_FEATURES, info->features) ||
	    nla_put_u32(skb, SKD_A_SESSIONS, info->sessions) ||
	    nla_put_u32(skb, SKD_A_SET_MAX_RING_PAGES, info->max_ring_pages) ||
	    nla_put_u32(skb, SKD_A_SET_MAX_FREQ, info->max_freq) ||
	    nla_put_string(skb, SKD_A_PMU_DESC, info->pmu) ||
	    nla_put_u32(skb, SKD_A_PMU_FLAGS, pmu->flags) ||
	    nla_put_u32(skb, SKD_A_PMU_SIGNATURE, pmu->cpu_signature) ||
	    nla_put_u8(skb, SKD_A_PMU_VERSION, pmu->perfmon_version) ||
	    nla_put_u8(skb, SKD_A_PMU_NR_GP, pmu->nr_gp) ||
	    nla_put_u8(skb, SKD_A_PMU_GP_WIDTH, pmu->gp_width) ||
	    nla_put_u8(skb, SKD_A_PMU_NR_FIXED, pmu->nr_fixed) ||
	    nla_put_u8(skb, SKD_A_PMU_FIXED_WIDTH, pmu->fixed_width) ||
	    nla_put_u8(skb, SKD_A_PMU_PEBS_FORMAT, pmu->pebs_format) ||
	    nla_put_u8(skb, SKD_A_PMU_LBR_FORMAT, pmu->lbr_format) ||
	    nla_put_u8(skb, SKD_A_PMU_LBR_DEPTH, pmu->lbr_depth) ||
	    nla_put_u64_64bit(skb, SKD_A_PMU_CAPABILITIES,
			      pmu->perf_capabilities, SKD_A_PAD) ||
	    nla_put_string(skb, SKD_A_PMU_MODEL, pmu->model_name) ||
	    nla_put_string(skb, SKD_A_PMU_WHY, pmu->why))
		goto out;
	ret = 0;
out:
	kfree(info);
	kfree(pmu);
	return ret;
}

static int get_info_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;
	int ret;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = put_header(msg, info, SKD_CMD_GET_INFO);
	if (!hdr) {
		ret = -EMSGSIZE;
		goto err;
	}
	ret = put_info(msg);
	if (ret)
		goto err;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
err:
	nlmsg_free(msg);
	return ret;
}

/* Sessions */

static int put_events(struct sk_buff *skb, const struct skd_session *s)
{
	const struct skd_event_attr *e;
	struct nlattr *nest;
	unsigned int i;

	for (i = 0; i < s->cfg.nr_events; i++) {
		e = &s->events[i];
		nest = nla_nest_start(skb, SKD_A_EVENT);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_u64_64bit(skb, SKD_A_EV_CONFIG, e->config,
				      SKD_A_EV_PAD) ||
		    nla_put_u8(skb, SKD_A_EV_PRECISE, e->precise) ||
		    nla_put_u64_64bit(skb, SKD_A_EV_PERIOD, e->sample_period,
				      SKD_A_EV_PAD) ||
		    nla_put_u32(skb, SKD_A_EV_FLAGS, e->flags)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* The configuration part: only once CONFIG has published it. */
static int put_config(struct sk_buff *skb, const struct skd_session *s)
{
	u64 bytes = ((u64)num_possible_cpus() * (s->cfg.ring_pages + 1)) <<
		    PAGE_SHIFT;
	bool freq = s->cfg.flags & SKD_CFG_FREQ;
	char *cpus;
	int ret;

	cpus = kasprintf(GFP_KERNEL, "%*pbl", cpumask_pr_args(s->cpus));
	if (!cpus)
		return -ENOMEM;
	ret = nla_put_string(skb, SKD_A_CPUS, cpus);
	kfree(cpus);
	if (ret ||
	    nla_put_u32(skb, SKD_A_BACKEND, s->cfg.backend) ||
	    nla_put_u64_64bit(skb, SKD_A_BYTES_MAPPED, bytes, SKD_A_PAD) ||
	    nla_put_u32(skb, SKD_A_RING_PAGES, s->cfg.ring_pages) ||
	    nla_put_u64_64bit(skb, freq ? SKD_A_SAMPLE_FREQ :
			      SKD_A_SAMPLE_PERIOD, s->cfg.sample_period,
			      SKD_A_PAD) ||
	    (s->target &&
	     nla_put_u32(skb, SKD_A_TARGET_PID, pid_nr(s->target))))
		return -EMSGSIZE;
	return put_events(skb, s);
}

static int put_session(struct sk_buff *skb, const struct skd_session *s)
{
	if (nla_put_u32(skb, SKD_A_SESSION_ID, s->id) ||
	    nla_put_u32(skb, SKD_A_OWNER_PID, s->owner_pid) ||
	    nla_put_u32(skb, SKD_A_OWNER_UID, s->owner_uid) ||
	    nla_put_string(skb, SKD_A_OWNER_COMM, s->owner_comm) ||
	    nla_put_u32(skb, SKD_A_STATE, READ_ONCE(s->state)))
		return -EMSGSIZE;
	/* Pairs with the release in skd_session_config(). */
	if (!smp_load_acquire(&s->configured))
		return 0;
	return put_config(skb, s);
}

static int list_sessions_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	unsigned long id = cb->args[0];
	struct skd_session *s;
	void *hdr;
	int ret = 0;

	skd_sessions_lock();
	for (s = skd_session_next(&id); s; id++, s = skd_session_next(&id)) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &skd_genl, NLM_F_MULTI,
				  SKD_CMD_LIST_SESSIONS);
		if (!hdr)
			break;
		ret = put_session(skb, s);
		if (ret) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	skd_sessions_unlock();
	cb->args[0] = id;
	/* A session too big for an empty message would never fit. */
	if (ret && ret != -EMSGSIZE)
		return ret;
	if (ret && !skb->len)
		return ret;
	return skb->len;
}

/* GET_STATS */

static int put_cpu_stats(struct sk_buff *skb, const struct skd_session *s,
			 unsigned int cpu)
{
	const struct skd_ring *r = s->rings[cpu];
	struct skd_cpu_stats st;
	struct nlattr *nest;

	skd_ring_stats(&r->core, &st);
	nest = nla_nest_start(skb, SKD_A_CPU_STATS);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, SKD_A_CPU_ID, cpu) ||
	    nla_put_u64_64bit(skb, SKD_A_CPU_GENERATED, st.generated,
			      SKD_A_CPU_PAD) ||
	    nla_put_u64_64bit(skb, SKD_A_CPU_DELIVERED, st.delivered,
			      SKD_A_CPU_PAD) ||
	    nla_put_u64_64bit(skb, SKD_A_CPU_LOST, st.lost, SKD_A_CPU_PAD) ||
	    nla_put_u64_64bit(skb, SKD_A_CPU_LOST_UNREPORTED,
			      st.lost_unreported, SKD_A_CPU_PAD) ||
	    nla_put_u64_64bit(skb, SKD_A_CPU_SAMPLES, st.samples,
			      SKD_A_CPU_PAD) ||
	    nla_put_u64_64bit(skb, SKD_A_CPU_WAKEUPS, st.wakeups,
			      SKD_A_CPU_PAD) ||
	    nla_put_u64_64bit(skb, SKD_A_CPU_THROTTLES, READ_ONCE(r->throttles),
			      SKD_A_CPU_PAD) ||
	    nla_put_u64_64bit(skb, SKD_A_CPU_UNREAD, skd_ring_unread(&r->core),
			      SKD_A_CPU_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static bool may_read_session(struct sk_buff *skb, const struct skd_session *s)
{
	if (s->owner_uid == from_kuid(&init_user_ns, current_uid()))
		return true;
	return netlink_capable(skb, CAP_PERFMON) ||
	       netlink_capable(skb, CAP_SYS_ADMIN);
}

static int get_stats_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct skd_session *s;
	struct sk_buff *msg;
	unsigned int cpu;
	void *hdr;
	u32 id;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, SKD_A_SESSION_ID)) {
		NL_SET_ERR_MSG(extack, "GET_STATS needs the session id (SKD_A_SESSION_ID)");
		return -EINVAL;
	}
	id = nla_get_u32(info->attrs[SKD_A_SESSION_ID]);

	/* Per CPU: the nest, its id and nine u64 with their padding. */
	msg = genlmsg_new(num_possible_cpus() * 160 + 64, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = put_header(msg, info, SKD_CMD_GET_STATS);
	if (!hdr) {
		ret = -EMSGSIZE;
		goto err_free;
	}

	skd_sessions_lock();
	s = skd_session_by_id(id);
	if (!s) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[SKD_A_SESSION_ID],
				    "no open session has this id (see LIST_SESSIONS)");
		ret = -ENOENT;
		goto err_unlock;
	}
	if (!may_read_session(skb, s)) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[SKD_A_SESSION_ID],
				    "the session belongs to another user: reading its statistics needs CAP_PERFMON or CAP_SYS_ADMIN");
		ret = -EPERM;
		goto err_unlock;
	}
	ret = -EMSGSIZE;
	if (nla_put_u32(msg, SKD_A_SESSION_ID, s->id) ||
	    nla_put_u32(msg, SKD_A_STATE, READ_ONCE(s->state)))
		goto err_unlock;
	/* Pairs with the release in skd_session_config(): rings exist. */
	if (smp_load_acquire(&s->configured)) {
		for_each_possible_cpu(cpu) {
			ret = put_cpu_stats(msg, s, cpu);
			if (ret)
				goto err_unlock;
		}
	}
	skd_sessions_unlock();
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_unlock:
	skd_sessions_unlock();
err_free:
	nlmsg_free(msg);
	return ret;
}

/* Settings */

static int get_settings_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = put_header(msg, info, SKD_CMD_GET_SETTINGS);
	if (!hdr ||
	    nla_put_u32(msg, SKD_A_SET_MAX_SAMPLE_RATE,
			skd_pmu_max_sample_rate()) ||
	    nla_put_u32(msg, SKD_A_SET_MAX_FREQ, READ_ONCE(skd_max_freq)) ||
	    nla_put_u32(msg, SKD_A_SET_MAX_RING_PAGES,
			READ_ONCE(skd_max_ring_pages)) ||
	    nla_put_u32(msg, SKD_A_SET_MLOCK_KB, skd_memlock_kb())) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int set_settings_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;

	/* The policy checked ranges; what it cannot say is checked first. */
	if (!a[SKD_A_SET_MAX_SAMPLE_RATE] && !a[SKD_A_SET_MAX_FREQ] &&
	    !a[SKD_A_SET_MAX_RING_PAGES] && !a[SKD_A_SET_MLOCK_KB]) {
		NL_SET_ERR_MSG(info->extack,
			       "no setting given: send one or more SKD_A_SET_* attributes");
		return -EINVAL;
	}
	if (a[SKD_A_SET_MAX_RING_PAGES] &&
	    !is_power_of_2(nla_get_u32(a[SKD_A_SET_MAX_RING_PAGES]))) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[SKD_A_SET_MAX_RING_PAGES],
				    "max_ring_pages must be a power of two");
		return -EINVAL;
	}

	if (a[SKD_A_SET_MAX_SAMPLE_RATE])
		skd_pmu_set_max_sample_rate(nla_get_u32(a[SKD_A_SET_MAX_SAMPLE_RATE]));
	if (a[SKD_A_SET_MAX_FREQ])
		WRITE_ONCE(skd_max_freq, nla_get_u32(a[SKD_A_SET_MAX_FREQ]));
	if (a[SKD_A_SET_MAX_RING_PAGES])
		WRITE_ONCE(skd_max_ring_pages,
			   nla_get_u32(a[SKD_A_SET_MAX_RING_PAGES]));
	if (a[SKD_A_SET_MLOCK_KB])
		skd_memlock_set_kb(nla_get_u32(a[SKD_A_SET_MLOCK_KB]));
	return 0;
}

static const struct genl_ops skd_genl_ops[] = {
	{
		.cmd = SKD_CMD_GET_INFO,
		.doit = get_info_doit,
		.policy = no_attrs_policy,
		.maxattr = SKD_A_MAX,
	},
	{
		.cmd = SKD_CMD_LIST_SESSIONS,
		.dumpit = list_sessions_dumpit,
		.policy = no_attrs_policy,
		.maxattr = SKD_A_MAX,
	},
	{
		.cmd = SKD_CMD_GET_STATS,
		.doit = get_stats_doit,
		.policy = stats_policy,
		.maxattr = SKD_A_MAX,
	},
	{
		.cmd = SKD_CMD_GET_SETTINGS,
		.doit = get_settings_doit,
		.policy = no_attrs_policy,
		.maxattr = SKD_A_MAX,
	},
	{
		.cmd = SKD_CMD_SET_SETTINGS,
		.doit = set_settings_doit,
		.policy = set_policy,
		.maxattr = SKD_A_MAX,
		.flags = GENL_ADMIN_PERM,
	},
};

static struct genl_family skd_genl __ro_after_init = {
	.name = SKD_GENL_NAME,
	.version = SKD_GENL_VERSION,
	.module = THIS_MODULE,
	.ops = skd_genl_ops,
	.n_ops = ARRAY_SIZE(skd_genl_ops),
	.mcgrps = skd_mcgrps,
	.n_mcgrps = ARRAY_SIZE(skd_mcgrps),
	/* Every command of this family gets the strict checks. */
	.resv_start_op = SKD_CMD_GET_INFO,
};

/* Events */

static bool have_listeners(void)
{
	return READ_ONCE(skd_nl_ready) &&
	       genl_has_listeners(&skd_genl, &init_net, SKD_MCGRP_EVENTS);
}

/* One SKD_CMD_EVENT: @s may be NULL, @msg too. Process context. */
static void notify(const struct skd_session *s, u32 what, u64 count,
		   int err, const char *text)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &skd_genl, 0, SKD_CMD_EVENT);
	if (!hdr ||
	    nla_put_u32(msg, SKD_A_NOTIFY, what) ||
	    (s && (nla_put_u32(msg, SKD_A_SESSION_ID, s->id) ||
		   nla_put_u32(msg, SKD_A_OWNER_PID, s->owner_pid) ||
		   nla_put_u32(msg, SKD_A_OWNER_UID, s->owner_uid) ||
		   nla_put_string(msg, SKD_A_OWNER_COMM, s->owner_comm) ||
		   (s->backend &&
		    nla_put_u32(msg, SKD_A_BACKEND, s->backend->id)))) ||
	    (count && nla_put_u64_64bit(msg, SKD_A_NOTIFY_COUNT, count,
					SKD_A_PAD)) ||
	    (err && nla_put_u32(msg, SKD_A_NOTIFY_ERRNO, -err)) ||
	    (text && nla_put_string(msg, SKD_A_NOTIFY_MESSAGE, text))) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	/* -ESRCH: the last listener just left. Nothing to do either way. */
	genlmsg_multicast(&skd_genl, msg, 0, SKD_MCGRP_EVENTS, GFP_KERNEL);
}

/*
 * Tell what @s's counters gained since last time: with @force at once,
 * else at most once per RATE_MS each. Under poll_lock, @s alive.
 */
static bool report_counts(struct skd_session *s, bool force)
{
	u64 lost = 0, throttles = 0;
	struct skd_cpu_stats st;
	bool pending = false;
	unsigned int cpu;

	lockdep_assert_held(&poll_lock);
	/* Pairs with the release in skd_session_config(): rings exist. */
	if (!smp_load_acquire(&s->configured))
		return false;
	for_each_possible_cpu(cpu) {
		skd_ring_stats(&s->rings[cpu]->core, &st);
		lost += st.lost;
		throttles += READ_ONCE(s->rings[cpu]->throttles);
	}
	if (throttles > s->nl_throttles_seen) {
		if (force || time_after_eq(jiffies, s->nl_throttled_at +
					   msecs_to_jiffies(RATE_MS))) {
			if (have_listeners())
				notify(s, SKD_NOTIFY_THROTTLED,
				       throttles - s->nl_throttles_seen, 0,
				       NULL);
			s->nl_throttles_seen = throttles;
			s->nl_throttled_at = jiffies;
		} else {
			pending = true;
		}
	}
	if (lost > s->nl_lost_seen) {
		if (force || time_after_eq(jiffies, s->nl_lost_at +
					   msecs_to_jiffies(RATE_MS))) {
			if (have_listeners())
				notify(s, SKD_NOTIFY_LOST, lost - s->nl_lost_seen,
				       0, NULL);
			s->nl_lost_seen = lost;
			s->nl_lost_at = jiffies;
		} else {
			pending = true;
		}
	}
	return pending;
}

static void poll_counts(struct work_struct *work)
{
	struct skd_session *s;
	unsigned long id = 0;
	bool again = false;

	skd_sessions_lock();
	mutex_lock(&poll_lock);
	for (s = skd_session_next(&id); s; id++, s = skd_session_next(&id)) {
		if (report_counts(s, false) ||
		    READ_ONCE(s->state) == SKD_SESSION_RUNNING)
			again = true;
	}
	mutex_unlock(&poll_lock);
	skd_sessions_unlock();
	if (again)
		schedule_delayed_work(&poll_work, msecs_to_jiffies(POLL_MS));
}

void skd_nl_session_event(struct skd_session *s, u32 what)
{
	if (!READ_ONCE(skd_nl_ready))
		return;
	if (what == SKD_NOTIFY_STARTED) {
		schedule_delayed_work(&poll_work, msecs_to_jiffies(POLL_MS));
	} else {
		/* What the last poll did not tell yet comes before STOPPED. */
		mutex_lock(&poll_lock);
		report_counts(s, true);
		mutex_unlock(&poll_lock);
	}
	if (have_listeners())
		notify(s, what, 0, 0, NULL);
}

void skd_nl_refused(struct skd_session *s, int err, const char *fmt, ...)
{
	char text[MSG_LEN];
	va_list args;

	if (!have_listeners())
		return;
	va_start(args, fmt);
	vsnprintf(text, sizeof(text), fmt, args);
	va_end(args);
	notify(s, SKD_NOTIFY_REFUSED, 0, err, text);
}

int skd_netlink_init(void)
{
	int ret;

	ret = genl_register_family(&skd_genl);
	if (ret)
		return ret;
	WRITE_ONCE(skd_nl_ready, true);
	return 0;
}

void skd_netlink_uninit(void)
{
	WRITE_ONCE(skd_nl_ready, false);
	cancel_delayed_work_sync(&poll_work);
	genl_unregister_family(&skd_genl);
}

/* `genl_ctrl_resolve(sk, "skidless")` loads the module. */
MODULE_ALIAS_GENL_FAMILY(SKD_GENL_NAME);
