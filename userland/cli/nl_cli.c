// SPDX-License-Identifier: GPL-2.0
/* What the netlink subcommands share: connecting, and names of things. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nl_cli.h"
#include "subcommands.h"

int nl_cli_open(struct skd_nl **nl, bool events, bool quiet)
{
	int ret = skd_nl_open(nl, events);

	if (!ret || quiet)
		return ret;
	if (ret == -ENOENT)
		fprintf(stderr, "%s: the skidless module is not loaded (no "
			"generic netlink family \"%s\"): load it with `insmod "
			"skidless.ko` (or `modprobe skidless` after a DKMS "
			"install)\n", PROG_NAME, SKD_GENL_NAME);
	else
		fprintf(stderr, "%s: cannot reach the module through generic "
			"netlink: %s\n", PROG_NAME, strerror(-ret));
	return ret;
}

const char *nl_cli_backend(uint32_t id, char *buf, size_t len)
{
	switch (id) {
	case SKD_BACKEND_TIMER:
		return "timer";
	case SKD_BACKEND_INTEL:
		return "intel";
	case SKD_BACKEND_SIM:
		return "sim";
	default:
		snprintf(buf, len, "backend %u", id);
		return buf;
	}
}

const char *nl_cli_state(uint32_t state)
{
	switch (state) {
	case SKD_GENL_STATE_OPEN:
		return "open";
	case SKD_GENL_STATE_READY:
		return "ready";
	case SKD_GENL_STATE_RUNNING:
		return "running";
	default:
		return "?";
	}
}
