// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family, fuzzed: random commands (mostly the
 * family's), random attributes of random types, sizes and contents,
 * random flags and reserved bytes. Only the errno is judged (the kernel's
 * validation decides), and that nothing a worker sends changes a setting:
 * every SET_SETTINGS carries an out-of-range value, so the strict policy
 * must refuse it whole; unprivileged, GENL_ADMIN_PERM refuses it first.
 */
#include <sys/socket.h>
#include <sys/time.h>

#include "fuzz.h"
#include "netlink/rawnl.h"
#include "skidless_netlink.h"

static const int E_NETLINK[] = { EINVAL, ERANGE, ENOENT, EOPNOTSUPP, EPERM,
				 0 };

static struct rawnl nl;
static bool nl_open, nl_failed;

/* This process's own socket: opened with its credentials, once. */
static bool get_socket(void)
{
	struct timeval tv = { .tv_sec = 10 };

	if (nl_open || nl_failed)
		return nl_open;
	if (rawnl_open(&nl)) {
		nl_failed = true;
		failure(F_SETUP, "netlink family \"%s\" not found", SKD_GENL_NAME);
		return false;
	}
	/* A request the kernel never answers is a failure, not a hang. */
	setsockopt(nl.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	nl_open = true;
	return true;
}

static uint8_t pick_cmd(void)
{
	if (chance(20))
		return (uint8_t)rnd();
	return (uint8_t)below(SKD_CMD_MAX + 2);
}

static size_t random_attrs(char *buf, size_t room)
{
	size_t len = 0, size;
	unsigned int i, n = below(5);
	uint8_t data[16];
	uint16_t type;

	for (i = 0; i < n; i++) {
		size = chance(2) ? 4 : below(sizeof(data) + 1);
		if (len + NLA_HDRLEN + NLA_ALIGN(size) > room)
			break;
		type = chance(10) ? (uint16_t)rnd() :
		       (uint16_t)below(SKD_A_MAX + 4);
		if (chance(20))
			type |= NLA_F_NESTED;
		for (size_t j = 0; j < size; j++)
			data[j] = (uint8_t)rnd();
		/* Small numbers: session ids and settings that might exist. */
		if (size == 4 && chance(2)) {
			uint32_t v = (uint32_t)below(70);

			memcpy(data, &v, 4);
		}
		len = rawnl_put(buf, len, type, data, size);
	}
	return len;
}

void op_netlink(void)
{
	struct rawnl_reply r = { 0 };
	uint16_t flags = 0, reserved = 0;
	char attrs[256];
	uint8_t cmd;
	size_t len;
	int ret;

	if (!get_socket())
		return;
	cmd = pick_cmd();
	len = random_attrs(attrs, sizeof(attrs) - 16);
	if (cmd == SKD_CMD_SET_SETTINGS)
		len = rawnl_put_u32(attrs, len, SKD_A_SET_MAX_FREQ, 0);
	if (chance(4))
		flags |= NLM_F_DUMP;
	if (chance(30))
		flags |= (uint16_t)(rnd() & 0x0f00);
	if (chance(30))
		reserved = (uint16_t)rnd();
	ret = rawnl_request(&nl, cmd, flags, reserved, attrs, len, &r);
	if (ret == -EAGAIN) {
		failure(F_ERRNO, "netlink: no answer to command %u within 10 s",
			cmd);
		return;
	}
	outcome(OP_NETLINK, ret < 0 ? -1 : 0, -ret, E_NETLINK, false);
	if (!ret && cmd == SKD_CMD_SET_SETTINGS)
		failure(F_ACCEPTED, "netlink: SET_SETTINGS with max_freq=0 "
			"was accepted");
}
