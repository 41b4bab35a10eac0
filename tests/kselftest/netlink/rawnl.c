// SPDX-License-Identifier: GPL-2.0
/* Generic netlink by hand (rawnl.h). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/genetlink.h>

#include "skidless_netlink.h"
#include "rawnl.h"

#define BUF_SIZE	65536

size_t rawnl_put(void *buf, size_t len, uint16_t type, const void *data,
		 size_t size)
{
	struct nlattr *a = (struct nlattr *)((char *)buf + len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + size;
	memcpy((char *)a + NLA_HDRLEN, data, size);
	memset((char *)a + NLA_HDRLEN + size, 0,
	       NLA_ALIGN(a->nla_len) - a->nla_len);
	return len + NLA_ALIGN(a->nla_len);
}

size_t rawnl_put_u32(void *buf, size_t len, uint16_t type, uint32_t v)
{
	return rawnl_put(buf, len, type, &v, sizeof(v));
}

void rawnl_parse(const struct nlattr *a, int len, const struct nlattr **tb,
		 int max)
{
	memset(tb, 0, sizeof(*tb) * (max + 1));
	while (len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= len) {
		int type = a->nla_type & NLA_TYPE_MASK;

		if (type <= max)
			tb[type] = a;
		len -= NLA_ALIGN(a->nla_len);
		a = (const struct nlattr *)((const char *)a +
					    NLA_ALIGN(a->nla_len));
	}
}

uint32_t rawnl_u32(const struct nlattr *a)
{
	uint32_t v = 0;

	if (a && a->nla_len >= NLA_HDRLEN + 4)
		memcpy(&v, (const char *)a + NLA_HDRLEN, 4);
	return v;
}

uint64_t rawnl_u64(const struct nlattr *a)
{
	uint64_t v = 0;

	if (a && a->nla_len >= NLA_HDRLEN + 8)
		memcpy(&v, (const char *)a + NLA_HDRLEN, 8);
	return v;
}

static int send_msg(struct rawnl *nl, uint16_t type, uint8_t cmd,
		    uint16_t flags, uint16_t reserved, const void *attrs,
		    size_t alen)
{
	static char buf[BUF_SIZE];
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct genlmsghdr *g = NLMSG_DATA(h);
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };

	if (NLMSG_SPACE(GENL_HDRLEN + alen) > sizeof(buf))
		return -EMSGSIZE;
	memset(buf, 0, NLMSG_SPACE(GENL_HDRLEN));
	h->nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN + alen);
	h->nlmsg_type = type;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	h->nlmsg_seq = ++nl->seq;
	g->cmd = cmd;
	g->version = SKD_GENL_VERSION;
	g->reserved = reserved;
	memcpy((char *)g + GENL_HDRLEN, attrs, alen);
	if (sendto(nl->fd, buf, h->nlmsg_len, 0, (struct sockaddr *)&to,
		   sizeof(to)) < 0)
		return -errno;
	return 0;
}

/* The extended ack after a capped nlmsgerr. */
static void read_extack(const struct nlmsghdr *h, struct rawnl_reply *r)
{
	const struct nlmsgerr *e = NLMSG_DATA(h);
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t off = sizeof(*e);
	int len;

	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(h->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	len = (int)h->nlmsg_len - NLMSG_HDRLEN - (int)off;
	if (len <= 0)
		return;
	rawnl_parse((const struct nlattr *)((const char *)e + off), len, tb,
		    NLMSGERR_ATTR_MAX);
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(r->msg, sizeof(r->msg), "%.*s",
			 (int)(tb[NLMSGERR_ATTR_MSG]->nla_len - NLA_HDRLEN),
			 (const char *)tb[NLMSGERR_ATTR_MSG] + NLA_HDRLEN);
	if (tb[NLMSGERR_ATTR_MISS_TYPE])
		r->miss_type = rawnl_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
}

/* Read until the ACK, error or DONE of request @seq. */
static int collect(struct rawnl *nl, uint32_t seq, struct rawnl_reply *r)
{
	static char buf[BUF_SIZE];
	struct nlmsghdr *h;
	ssize_t n;
	int len;

	for (;;) {
		n = recv(nl->fd, buf, sizeof(buf), 0);
		if (n < 0)
			return -errno;
		len = (int)n;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, len);
		     h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				r->err = ((struct nlmsgerr *)NLMSG_DATA(h))->error;
				read_extack(h, r);
				return r->err;
			}
			if (h->nlmsg_type == NLMSG_DONE) {
				memcpy(&r->err, NLMSG_DATA(h), sizeof(int));
				read_extack(h, r);
				return r->err;
			}
			r->nr_msgs++;
			if (r->each)
				r->each((const struct nlattr *)
					((char *)NLMSG_DATA(h) + GENL_HDRLEN),
					(int)h->nlmsg_len - NLMSG_HDRLEN -
					GENL_HDRLEN, r->arg);
		}
	}
}

int rawnl_request(struct rawnl *nl, uint8_t cmd, uint16_t flags,
		  uint16_t reserved, const void *attrs, size_t alen,
		  struct rawnl_reply *r)
{
	int ret;

	r->err = 0;
	r->msg[0] = 0;
	r->miss_type = -1;
	r->nr_msgs = 0;
	ret = send_msg(nl, nl->family, cmd, flags, reserved, attrs, alen);
	if (ret)
		return ret;
	return collect(nl, nl->seq, r);
}

struct resolve {
	uint16_t family;
	uint32_t group;
};

static void on_family(const struct nlattr *attrs, int len, void *arg)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1], *g[CTRL_ATTR_MCAST_GRP_MAX + 1];
	struct resolve *res = arg;
	const struct nlattr *grp;
	int rem;

	rawnl_parse(attrs, len, tb, CTRL_ATTR_MAX);
	if (tb[CTRL_ATTR_FAMILY_ID])
		memcpy(&res->family, (const char *)tb[CTRL_ATTR_FAMILY_ID] +
		       NLA_HDRLEN, sizeof(res->family));
	if (!tb[CTRL_ATTR_MCAST_GROUPS])
		return;
	grp = (const struct nlattr *)((const char *)tb[CTRL_ATTR_MCAST_GROUPS] +
				      NLA_HDRLEN);
	rem = tb[CTRL_ATTR_MCAST_GROUPS]->nla_len - NLA_HDRLEN;
	while (rem >= NLA_HDRLEN && grp->nla_len >= NLA_HDRLEN &&
	       grp->nla_len <= rem) {
		rawnl_parse((const struct nlattr *)((const char *)grp + NLA_HDRLEN),
			    grp->nla_len - NLA_HDRLEN, g, CTRL_ATTR_MCAST_GRP_MAX);
		if (g[CTRL_ATTR_MCAST_GRP_NAME] &&
		    !strcmp((const char *)g[CTRL_ATTR_MCAST_GRP_NAME] + NLA_HDRLEN,
			    SKD_GENL_MCGRP_EVENTS))
			res->group = rawnl_u32(g[CTRL_ATTR_MCAST_GRP_ID]);
		rem -= NLA_ALIGN(grp->nla_len);
		grp = (const struct nlattr *)((const char *)grp +
					      NLA_ALIGN(grp->nla_len));
	}
}

int rawnl_open(struct rawnl *nl)
{
	struct resolve res = { 0 };
	struct rawnl_reply r = { .each = on_family, .arg = &res };
	char attrs[64];
	size_t alen;
	int one = 1, ret;

	memset(nl, 0, sizeof(*nl));
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl->fd < 0)
		return -errno;
	if (setsockopt(nl->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(nl->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one))) {
		ret = -errno;
		goto err;
	}
	alen = rawnl_put(attrs, 0, CTRL_ATTR_FAMILY_NAME, SKD_GENL_NAME,
			 sizeof(SKD_GENL_NAME));
	ret = send_msg(nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0, 0, attrs, alen);
	if (!ret)
		ret = collect(nl, nl->seq, &r);
	if (ret)
		goto err;
	if (!res.family || !res.group) {
		ret = -ENOENT;
		goto err;
	}
	nl->family = res.family;
	nl->events_group = res.group;
	return 0;
err:
	close(nl->fd);
	nl->fd = -1;
	return ret;
}

void rawnl_close(struct rawnl *nl)
{
	if (nl->fd >= 0)
		close(nl->fd);
	nl->fd = -1;
}

int rawnl_join_events(struct rawnl *nl)
{
	if (setsockopt(nl->fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
		       &nl->events_group, sizeof(nl->events_group)))
		return -errno;
	return 0;
}

int rawnl_next_event(struct rawnl *nl, int timeout_ms,
		     void (*each)(const struct nlattr *attrs, int len,
				  void *arg), void *arg)
{
	static char buf[BUF_SIZE];
	struct pollfd p = { .fd = nl->fd, .events = POLLIN };
	struct nlmsghdr *h;
	ssize_t n;
	int len;

	for (;;) {
		n = poll(&p, 1, timeout_ms);
		if (n < 0)
			return -errno;
		if (!n)
			return 0;
		n = recv(nl->fd, buf, sizeof(buf), 0);
		if (n < 0)
			return -errno;
		len = (int)n;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, len);
		     h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_type != nl->family || h->nlmsg_seq)
				continue;
			each((const struct nlattr *)((char *)NLMSG_DATA(h) +
						     GENL_HDRLEN),
			     (int)h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, arg);
			return 1;
		}
	}
}
