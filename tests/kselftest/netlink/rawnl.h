/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic netlink by hand, for a test that must send what no library
 * would: wrong attribute types and sizes, reserved bits, unknown commands.
 * Replies are checked as the kernel sends them, extended acks included.
 */
#ifndef _SKD_RAWNL_H
#define _SKD_RAWNL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>

struct rawnl {
	int fd;
	uint16_t family;		/* the "skidless" family's id */
	uint32_t events_group;		/* its "events" multicast group */
	uint32_t seq;
};

/* What came back for one request. */
struct rawnl_reply {
	int err;			/* 0 or -errno from the ACK/DONE */
	char msg[256];			/* NLMSGERR_ATTR_MSG, or "" */
	int miss_type;			/* NLMSGERR_ATTR_MISS_TYPE, or -1 */
	unsigned int nr_msgs;		/* data messages seen */
	/* Called for each data message, attributes after the genl header. */
	void (*each)(const struct nlattr *attrs, int len, void *arg);
	void *arg;
};

/* Socket with NETLINK_EXT_ACK and NETLINK_CAP_ACK, family resolved. */
int rawnl_open(struct rawnl *nl);
void rawnl_close(struct rawnl *nl);

/* Attribute building: returns the new length of @buf (aligned). */
size_t rawnl_put(void *buf, size_t len, uint16_t type, const void *data,
		 size_t size);
size_t rawnl_put_u32(void *buf, size_t len, uint16_t type, uint32_t v);

/*
 * Send @cmd with @attrs (@alen bytes) and extra nlmsg @flags (NLM_F_DUMP
 * and the like; REQUEST and ACK are always set), @reserved in the genl
 * header, and collect the answer into @r. Returns r->err, or -errno of
 * the socket itself.
 */
int rawnl_request(struct rawnl *nl, uint8_t cmd, uint16_t flags,
		  uint16_t reserved, const void *attrs, size_t alen,
		  struct rawnl_reply *r);

/* Join the events group; @fd gets its messages. */
int rawnl_join_events(struct rawnl *nl);

/*
 * Wait up to @timeout_ms for one multicast message; its attributes go to
 * @each. Returns 1, 0 on timeout, -errno.
 */
int rawnl_next_event(struct rawnl *nl, int timeout_ms,
		     void (*each)(const struct nlattr *attrs, int len,
				  void *arg), void *arg);

/* Attributes of a nest or a message body, by type (last one wins). */
void rawnl_parse(const struct nlattr *attrs, int len,
		 const struct nlattr **tb, int max);
uint32_t rawnl_u32(const struct nlattr *a);
uint64_t rawnl_u64(const struct nlattr *a);

#endif /* _SKD_RAWNL_H */
