// SPDX-License-Identifier: GPL-2.0
/*
 * The "skidless" generic netlink family through libnl-genl-3. Requests go
 * on one socket (sequence-checked, acked); events arrive on another, which
 * only listens. libnl 3.7 has no call for extended acks, so the socket
 * option is set directly and the error callback reads the message after
 * the (capped) nlmsgerr.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "netlink.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

struct skd_nl {
	struct nl_sock *sk;		/* requests */
	struct nl_sock *ev;		/* events, or NULL */
	int family;
	char message[256];		/* extack of the last refusal */
};

const struct skd_nl_setting skd_nl_settings[] = {
	{ "max_sample_rate", SKD_A_SET_MAX_SAMPLE_RATE,
	  "PMU samples per second per CPU before throttling (1..10000000)" },
	{ "max_freq", SKD_A_SET_MAX_FREQ,
	  "highest timer backend frequency, Hz (1..100000)" },
	{ "max_ring_pages", SKD_A_SET_MAX_RING_PAGES,
	  "largest ring per CPU, pages, a power of two (1..1048576)" },
	{ "mlock_kb", SKD_A_SET_MLOCK_KB,
	  "KiB per online CPU a user may pin beyond RLIMIT_MEMLOCK" },
};
const unsigned int skd_nl_nr_settings =
	sizeof(skd_nl_settings) / sizeof(skd_nl_settings[0]);

/* How replies must look; a reply that does not is refused, not trusted. */
static struct nla_policy reply_policy[SKD_A_MAX + 1] = {
	[SKD_A_VERSION] = { .type = NLA_STRING },
	[SKD_A_ABI_VERSION] = { .type = NLA_U32 },
	[SKD_A_BACKENDS] = { .type = NLA_U32 },
	[SKD_A_DEFAULT_BACKEND] = { .type = NLA_U32 },
	[SKD_A_NR_CPU_IDS] = { .type = NLA_U32 },
	[SKD_A_NR_CPUS_ONLINE] = { .type = NLA_U32 },
	[SKD_A_PAGE_SIZE] = { .type = NLA_U32 },
	[SKD_A_MAX_CALLCHAIN] = { .type = NLA_U32 },
	[SKD_A_FEATURES] = { .type = NLA_U32 },
	[SKD_A_SESSIONS] = { .type = NLA_U32 },
	[SKD_A_PMU_DESC] = { .type = NLA_STRING },
	[SKD_A_PMU_FLAGS] = { .type = NLA_U32 },
	[SKD_A_PMU_SIGNATURE] = { .type = NLA_U32 },
	[SKD_A_PMU_VERSION] = { .type = NLA_U8 },
	[SKD_A_PMU_NR_GP] = { .type = NLA_U8 },
	[SKD_A_PMU_GP_WIDTH] = { .type = NLA_U8 },
	[SKD_A_PMU_NR_FIXED] = { .type = NLA_U8 },
	[SKD_A_PMU_FIXED_WIDTH] = { .type = NLA_U8 },
	[SKD_A_PMU_PEBS_FORMAT] = { .type = NLA_U8 },
	[SKD_A_PMU_LBR_FORMAT] = { .type = NLA_U8 },
	[SKD_A_PMU_LBR_DEPTH] = { .type = NLA_U8 },
	[SKD_A_PMU_CAPABILITIES] = { .type = NLA_U64 },
	[SKD_A_PMU_MODEL] = { .type = NLA_STRING },
	[SKD_A_PMU_WHY] = { .type = NLA_STRING },
	[SKD_A_SESSION_ID] = { .type = NLA_U32 },
	[SKD_A_OWNER_PID] = { .type = NLA_U32 },
	[SKD_A_OWNER_UID] = { .type = NLA_U32 },
	[SKD_A_OWNER_COMM] = { .type = NLA_STRING },
	[SKD_A_STATE] = { .type = NLA_U32 },
	[SKD_A_BACKEND] = { .type = NLA_U32 },
	[SKD_A_CPUS] = { .type = NLA_STRING },
	[SKD_A_BYTES_MAPPED] = { .type = NLA_U64 },
	[SKD_A_RING_PAGES] = { .type = NLA_U32 },
	[SKD_A_SAMPLE_FREQ] = { .type = NLA_U64 },
	[SKD_A_SAMPLE_PERIOD] = { .type = NLA_U64 },
	[SKD_A_TARGET_PID] = { .type = NLA_U32 },
	[SKD_A_EVENT] = { .type = NLA_NESTED },
	[SKD_A_CPU_STATS] = { .type = NLA_NESTED },
	[SKD_A_SET_MAX_SAMPLE_RATE] = { .type = NLA_U32 },
	[SKD_A_SET_MAX_FREQ] = { .type = NLA_U32 },
	[SKD_A_SET_MAX_RING_PAGES] = { .type = NLA_U32 },
	[SKD_A_SET_MLOCK_KB] = { .type = NLA_U32 },
	[SKD_A_NOTIFY] = { .type = NLA_U32 },
	[SKD_A_NOTIFY_COUNT] = { .type = NLA_U64 },
	[SKD_A_NOTIFY_ERRNO] = { .type = NLA_U32 },
	[SKD_A_NOTIFY_MESSAGE] = { .type = NLA_STRING },
};

static struct nla_policy event_policy[SKD_A_EV_MAX + 1] = {
	[SKD_A_EV_CONFIG] = { .type = NLA_U64 },
	[SKD_A_EV_PRECISE] = { .type = NLA_U8 },
	[SKD_A_EV_PERIOD] = { .type = NLA_U64 },
	[SKD_A_EV_FLAGS] = { .type = NLA_U32 },
};

static struct nla_policy cpu_policy[SKD_A_CPU_MAX + 1] = {
	[SKD_A_CPU_ID] = { .type = NLA_U32 },
	[SKD_A_CPU_GENERATED] = { .type = NLA_U64 },
	[SKD_A_CPU_DELIVERED] = { .type = NLA_U64 },
	[SKD_A_CPU_LOST] = { .type = NLA_U64 },
	[SKD_A_CPU_LOST_UNREPORTED] = { .type = NLA_U64 },
	[SKD_A_CPU_SAMPLES] = { .type = NLA_U64 },
	[SKD_A_CPU_WAKEUPS] = { .type = NLA_U64 },
	[SKD_A_CPU_THROTTLES] = { .type = NLA_U64 },
	[SKD_A_CPU_UNREAD] = { .type = NLA_U64 },
};

const char *skd_nl_message(const struct skd_nl *nl)
{
	return nl->message;
}

/* libnl's NLE_* to an errno, for the socket's own failures. */
static int nle_errno(int nle)
{
	switch (nle < 0 ? -nle : nle) {
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_PERM:
		return -EPERM;
	case NLE_NOMEM:
		return -ENOBUFS;	/* a receive buffer overflowed */
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_INTR:
		return -EINTR;
	case NLE_NOACCESS:
		return -EACCES;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_RANGE:
		return -ERANGE;
	case NLE_INVAL:
		return -EINVAL;
	default:
		return -EIO;
	}
}

static void copy_str(char *dst, size_t size, const struct nlattr *a)
{
	if (a)
		snprintf(dst, size, "%s", nla_get_string((struct nlattr *)a));
	else if (size)
		dst[0] = 0;
}

/* One request's state across libnl's callbacks. */
struct request {
	struct skd_nl *nl;
	int (*parse)(struct nlattr **tb, struct nlmsghdr *h, void *arg);
	void *arg;
	int err;
	bool done;
};

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct request *r = arg;
	struct nlattr *tb[SKD_A_MAX + 1];
	int ret;

	ret = genlmsg_parse(nlmsg_hdr(msg), 0, tb, SKD_A_MAX, reply_policy);
	if (ret < 0) {
		r->err = -EBADMSG;
		snprintf(r->nl->message, sizeof(r->nl->message),
			 "the module's reply does not match this tool's idea "
			 "of it: %s", nl_geterror(ret));
		return NL_STOP;
	}
	if (r->parse) {
		ret = r->parse(tb, nlmsg_hdr(msg), r->arg);
		if (ret) {
			r->err = ret;
			return NL_STOP;
		}
	}
	return NL_OK;
}

static int on_finish(struct nl_msg *msg, void *arg)
{
	struct request *r = arg;

	(void)msg;
	r->done = true;
	return NL_STOP;
}

/* An NLMSG_ERROR: its errno and the extended ack after it. */
static int on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	const struct nlmsghdr *h = (const struct nlmsghdr *)
				   ((const char *)e - NLMSG_HDRLEN);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	struct request *r = arg;
	size_t off = sizeof(*e);
	int len;

	(void)who;
	r->err = e->error;
	r->done = true;
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return NL_STOP;
	if (!(h->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	len = (int)h->nlmsg_len - NLMSG_HDRLEN - (int)off;
	if (len > 0 &&
	    !nla_parse(tb, NLMSGERR_ATTR_MAX,
		       (struct nlattr *)((char *)e + off), len, NULL) &&
	    tb[NLMSGERR_ATTR_MSG])
		copy_str(r->nl->message, sizeof(r->nl->message),
			 tb[NLMSGERR_ATTR_MSG]);
	return NL_STOP;
}

/* Send @msg (consumed) and run its replies through @parse. */
static int transact(struct skd_nl *nl, struct nl_msg *msg,
		    int (*parse)(struct nlattr **tb, struct nlmsghdr *h,
				 void *arg), void *arg)
{
	struct request r = { .nl = nl, .parse = parse, .arg = arg };
	struct nl_cb *cb;
	int ret;

	nl->message[0] = 0;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_finish, &r);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &r);
	ret = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (ret < 0) {
		nl_cb_put(cb);
		return nle_errno(ret);
	}
	while (!r.done && !r.err) {
		ret = nl_recvmsgs(nl->sk, cb);
		if (ret < 0 && !r.err)
			r.err = nle_errno(ret);
	}
	nl_cb_put(cb);
	return r.err;
}

static struct nl_msg *new_request(struct skd_nl *nl, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
				flags, cmd, SKD_GENL_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

static int connect_sock(struct nl_sock **out)
{
	struct nl_sock *sk = nl_socket_alloc();
	int one = 1, ret;

	if (!sk)
		return -ENOMEM;
	ret = genl_connect(sk);
	if (ret < 0) {
		nl_socket_free(sk);
		return nle_errno(ret);
	}
	/* Kernel messages on refusals; our request is not echoed back. */
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one,
		   sizeof(one));
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK, &one,
		   sizeof(one));
	*out = sk;
	return 0;
}

void skd_nl_close(struct skd_nl *nl)
{
	if (!nl)
		return;
	if (nl->sk)
		nl_socket_free(nl->sk);
	if (nl->ev)
		nl_socket_free(nl->ev);
	free(nl);
}

int skd_nl_open(struct skd_nl **out, bool events)
{
	struct skd_nl *nl = calloc(1, sizeof(*nl));
	int ret, grp;

	if (!nl)
		return -ENOMEM;
	ret = connect_sock(&nl->sk);
	if (ret)
		goto err;
	nl->family = genl_ctrl_resolve(nl->sk, SKD_GENL_NAME);
	if (nl->family < 0) {
		ret = nle_errno(nl->family);
		goto err;
	}
	if (events) {
		grp = genl_ctrl_resolve_grp(nl->sk, SKD_GENL_NAME,
					    SKD_GENL_MCGRP_EVENTS);
		ret = grp < 0 ? nle_errno(grp) : connect_sock(&nl->ev);
		if (ret)
			goto err;
		/* Notifications carry sequence 0. */
		nl_socket_disable_seq_check(nl->ev);
		nl_socket_set_buffer_size(nl->ev, 1 << 20, 0);
		ret = nl_socket_add_membership(nl->ev, grp);
		if (ret < 0) {
			ret = nle_errno(ret);
			goto err;
		}
	}
	*out = nl;
	return 0;
err:
	skd_nl_close(nl);
	return ret;
}

static uint32_t u32_or0(struct nlattr *a)
{
	return a ? nla_get_u32(a) : 0;
}

static uint64_t u64_or0(struct nlattr *a)
{
	return a ? nla_get_u64(a) : 0;
}

static uint8_t u8_or0(struct nlattr *a)
{
	return a ? nla_get_u8(a) : 0;
}

static int parse_info(struct nlattr **tb, struct nlmsghdr *h, void *arg)
{
	struct skd_nl_info *out = arg;
	struct skd_info *i = &out->info;
	struct skd_pmu_info *p = &out->pmu;

	(void)h;
	i->size = sizeof(*i);
	copy_str(i->version, sizeof(i->version), tb[SKD_A_VERSION]);
	i->abi_version = u32_or0(tb[SKD_A_ABI_VERSION]);
	i->backends = u32_or0(tb[SKD_A_BACKENDS]);
	i->default_backend = u32_or0(tb[SKD_A_DEFAULT_BACKEND]);
	i->nr_cpu_ids = u32_or0(tb[SKD_A_NR_CPU_IDS]);
	i->nr_cpus_online = u32_or0(tb[SKD_A_NR_CPUS_ONLINE]);
	i->page_size = u32_or0(tb[SKD_A_PAGE_SIZE]);
	i->max_callchain = u32_or0(tb[SKD_A_MAX_CALLCHAIN]);
	i->features = u32_or0(tb[SKD_A_FEATURES]);
	i->sessions = u32_or0(tb[SKD_A_SESSIONS]);
	i->max_ring_pages = u32_or0(tb[SKD_A_SET_MAX_RING_PAGES]);
	i->max_freq = u32_or0(tb[SKD_A_SET_MAX_FREQ]);
	copy_str(i->pmu, sizeof(i->pmu), tb[SKD_A_PMU_DESC]);
	p->size = sizeof(*p);
	p->backend = SKD_BACKEND_INTEL;
	p->flags = u32_or0(tb[SKD_A_PMU_FLAGS]);
	p->cpu_signature = u32_or0(tb[SKD_A_PMU_SIGNATURE]);
	p->perfmon_version = u8_or0(tb[SKD_A_PMU_VERSION]);
	p->nr_gp = u8_or0(tb[SKD_A_PMU_NR_GP]);
	p->gp_width = u8_or0(tb[SKD_A_PMU_GP_WIDTH]);
	p->nr_fixed = u8_or0(tb[SKD_A_PMU_NR_FIXED]);
	p->fixed_width = u8_or0(tb[SKD_A_PMU_FIXED_WIDTH]);
	p->pebs_format = u8_or0(tb[SKD_A_PMU_PEBS_FORMAT]);
	p->lbr_format = u8_or0(tb[SKD_A_PMU_LBR_FORMAT]);
	p->lbr_depth = u8_or0(tb[SKD_A_PMU_LBR_DEPTH]);
	p->perf_capabilities = u64_or0(tb[SKD_A_PMU_CAPABILITIES]);
	copy_str(p->model_name, sizeof(p->model_name), tb[SKD_A_PMU_MODEL]);
	copy_str(p->why, sizeof(p->why), tb[SKD_A_PMU_WHY]);
	return 0;
}

int skd_nl_get_info(struct skd_nl *nl, struct skd_nl_info *out)
{
	struct nl_msg *msg = new_request(nl, SKD_CMD_GET_INFO, 0);

	memset(out, 0, sizeof(*out));
	if (!msg)
		return -ENOMEM;
	return transact(nl, msg, parse_info, out);
}

struct list_walk {
	int (*fn)(const struct skd_nl_session *s, void *arg);
	void *arg;
};

/* Each SKD_A_EVENT nest of a LIST_SESSIONS message. */
static void parse_events(struct nlmsghdr *h, struct skd_nl_session *s)
{
	struct nlattr *ev[SKD_A_EV_MAX + 1];
	struct skd_nl_event_attr *e;
	struct nlattr *a;
	int rem;

	nlmsg_for_each_attr(a, h, GENL_HDRLEN, rem) {
		if (nla_type(a) != SKD_A_EVENT || s->nr_events >= SKD_MAX_EVENTS ||
		    nla_parse_nested(ev, SKD_A_EV_MAX, a, event_policy) < 0)
			continue;
		e = &s->events[s->nr_events++];
		e->config = u64_or0(ev[SKD_A_EV_CONFIG]);
		e->period = u64_or0(ev[SKD_A_EV_PERIOD]);
		e->flags = u32_or0(ev[SKD_A_EV_FLAGS]);
		e->precise = u8_or0(ev[SKD_A_EV_PRECISE]);
	}
}

static int parse_session(struct nlattr **tb, struct nlmsghdr *h, void *arg)
{
	struct list_walk *w = arg;
	struct skd_nl_session s = { 0 };

	s.id = u32_or0(tb[SKD_A_SESSION_ID]);
	s.pid = u32_or0(tb[SKD_A_OWNER_PID]);
	s.uid = u32_or0(tb[SKD_A_OWNER_UID]);
	copy_str(s.comm, sizeof(s.comm), tb[SKD_A_OWNER_COMM]);
	s.state = u32_or0(tb[SKD_A_STATE]);
	s.configured = tb[SKD_A_BACKEND] != NULL;
	s.backend = u32_or0(tb[SKD_A_BACKEND]);
	copy_str(s.cpus, sizeof(s.cpus), tb[SKD_A_CPUS]);
	s.bytes_mapped = u64_or0(tb[SKD_A_BYTES_MAPPED]);
	s.ring_pages = u32_or0(tb[SKD_A_RING_PAGES]);
	s.freq = u64_or0(tb[SKD_A_SAMPLE_FREQ]);
	s.period = u64_or0(tb[SKD_A_SAMPLE_PERIOD]);
	s.target_pid = u32_or0(tb[SKD_A_TARGET_PID]);
	parse_events(h, &s);
	return w->fn(&s, w->arg);
}

int skd_nl_list_sessions(struct skd_nl *nl,
			 int (*fn)(const struct skd_nl_session *s, void *arg),
			 void *arg)
{
	struct nl_msg *msg = new_request(nl, SKD_CMD_LIST_SESSIONS, NLM_F_DUMP);
	struct list_walk w = { .fn = fn, .arg = arg };

	if (!msg)
		return -ENOMEM;
	return transact(nl, msg, parse_session, &w);
}

struct stats_walk {
	struct skd_nl_cpu_stats *st;
	unsigned int max, nr;
};

static int parse_stats(struct nlattr **tb, struct nlmsghdr *h, void *arg)
{
	struct nlattr *c[SKD_A_CPU_MAX + 1];
	struct stats_walk *w = arg;
	struct skd_nl_cpu_stats *st;
	struct nlattr *a;
	int rem;

	(void)tb;
	nlmsg_for_each_attr(a, h, GENL_HDRLEN, rem) {
		if (nla_type(a) != SKD_A_CPU_STATS || w->nr >= w->max ||
		    nla_parse_nested(c, SKD_A_CPU_MAX, a, cpu_policy) < 0)
			continue;
		st = &w->st[w->nr++];
		st->cpu = u32_or0(c[SKD_A_CPU_ID]);
		st->generated = u64_or0(c[SKD_A_CPU_GENERATED]);
		st->delivered = u64_or0(c[SKD_A_CPU_DELIVERED]);
		st->lost = u64_or0(c[SKD_A_CPU_LOST]);
		st->lost_unreported = u64_or0(c[SKD_A_CPU_LOST_UNREPORTED]);
		st->samples = u64_or0(c[SKD_A_CPU_SAMPLES]);
		st->wakeups = u64_or0(c[SKD_A_CPU_WAKEUPS]);
		st->throttles = u64_or0(c[SKD_A_CPU_THROTTLES]);
		st->unread = u64_or0(c[SKD_A_CPU_UNREAD]);
	}
	return 0;
}

int skd_nl_get_stats(struct skd_nl *nl, uint32_t id,
		     struct skd_nl_cpu_stats *st, unsigned int max,
		     unsigned int *nr)
{
	struct nl_msg *msg = new_request(nl, SKD_CMD_GET_STATS, 0);
	struct stats_walk w = { .st = st, .max = max };
	int ret;

	*nr = 0;
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, SKD_A_SESSION_ID, id) < 0) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	ret = transact(nl, msg, parse_stats, &w);
	*nr = w.nr;
	return ret;
}

const struct skd_nl_setting *skd_nl_setting_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < skd_nl_nr_settings; i++)
		if (!strcmp(skd_nl_settings[i].name, name))
			return &skd_nl_settings[i];
	return NULL;
}

static int parse_settings(struct nlattr **tb, struct nlmsghdr *h, void *arg)
{
	uint32_t *values = arg;
	unsigned int i;

	(void)h;
	for (i = 0; i < skd_nl_nr_settings; i++)
		values[i] = u32_or0(tb[skd_nl_settings[i].attr]);
	return 0;
}

int skd_nl_get_settings(struct skd_nl *nl, uint32_t *values)
{
	struct nl_msg *msg = new_request(nl, SKD_CMD_GET_SETTINGS, 0);

	if (!msg)
		return -ENOMEM;
	return transact(nl, msg, parse_settings, values);
}

int skd_nl_set_settings(struct skd_nl *nl, const uint16_t *attrs,
			const uint32_t *values, unsigned int n)
{
	struct nl_msg *msg = new_request(nl, SKD_CMD_SET_SETTINGS, 0);
	unsigned int i;

	if (!msg)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (nla_put_u32(msg, attrs[i], values[i]) < 0) {
			nlmsg_free(msg);
			return -ENOMEM;
		}
	}
	return transact(nl, msg, NULL, NULL);
}

const char *skd_nl_event_name(uint32_t what)
{
	switch (what) {
	case SKD_NOTIFY_STARTED:
		return "started";
	case SKD_NOTIFY_STOPPED:
		return "stopped";
	case SKD_NOTIFY_THROTTLED:
		return "throttled";
	case SKD_NOTIFY_LOST:
		return "lost";
	case SKD_NOTIFY_REFUSED:
		return "refused";
	default:
		return "?";
	}
}

struct event_wait {
	struct skd_nl_event *ev;
	bool got;
};

static int on_event(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[SKD_A_MAX + 1];
	struct event_wait *w = arg;
	struct skd_nl_event *ev = w->ev;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, SKD_A_MAX, reply_policy) < 0 ||
	    !tb[SKD_A_NOTIFY])
		return NL_SKIP;
	memset(ev, 0, sizeof(*ev));
	ev->what = nla_get_u32(tb[SKD_A_NOTIFY]);
	ev->session_id = u32_or0(tb[SKD_A_SESSION_ID]);
	ev->pid = u32_or0(tb[SKD_A_OWNER_PID]);
	ev->uid = u32_or0(tb[SKD_A_OWNER_UID]);
	ev->backend = u32_or0(tb[SKD_A_BACKEND]);
	ev->err = u32_or0(tb[SKD_A_NOTIFY_ERRNO]);
	ev->count = u64_or0(tb[SKD_A_NOTIFY_COUNT]);
	copy_str(ev->comm, sizeof(ev->comm), tb[SKD_A_OWNER_COMM]);
	copy_str(ev->message, sizeof(ev->message), tb[SKD_A_NOTIFY_MESSAGE]);
	w->got = true;
	return NL_STOP;
}

/* Notifications carry sequence 0: no request to match. */
static int any_seq(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

int skd_nl_next_event(struct skd_nl *nl, int timeout_ms,
		      struct skd_nl_event *ev)
{
	struct pollfd p = { .events = POLLIN };
	struct event_wait w = { .ev = ev };
	struct nl_cb *cb;
	int ret = 0;

	if (!nl->ev)
		return -EINVAL;
	p.fd = nl_socket_get_fd(nl->ev);
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return -ENOMEM;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_event, &w);
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, any_seq, NULL);
	while (!w.got) {
		ret = poll(&p, 1, timeout_ms);
		if (ret < 0) {
			ret = -errno;
			break;
		}
		if (!ret)
			break;
		ret = nl_recvmsgs(nl->ev, cb);
		if (ret < 0) {
			ret = nle_errno(ret);
			break;
		}
	}
	nl_cb_put(cb);
	if (w.got)
		return 1;
	return ret < 0 ? ret : 0;
}
