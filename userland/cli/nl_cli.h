/* SPDX-License-Identifier: GPL-2.0 */
/* What the netlink subcommands (stat, events, set, info) share. */
#ifndef _SKD_NL_CLI_H
#define _SKD_NL_CLI_H

#include <stdbool.h>

#include "netlink.h"

/*
 * Connect to the module's netlink family (and its events group). On
 * failure prints why and what to do, and returns -errno.
 */
int nl_cli_open(struct skd_nl **nl, bool events, bool quiet);

/* "timer", "intel", "sim", or "backend N". */
const char *nl_cli_backend(uint32_t id, char *buf, size_t len);

/* "open", "ready", "running". */
const char *nl_cli_state(uint32_t state);

#endif /* _SKD_NL_CLI_H */
