/* SPDX-License-Identifier: GPL-2.0 */
/*
 * skidless record --idle: idle samples on the timer backend. The module's
 * timer samples CPU time: a CPU's timer runs only while a task runs there
 * (a followed one for -p and COMMAND), so idle CPUs are never woken and
 * the idle task is never sampled, unless --idle asks for it (-a, -C).
 */
#ifndef _SKD_CLI_RECORD_IDLE_H
#define _SKD_CLI_RECORD_IDLE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Why --idle (@idle) cannot be used with the rest of the command line, or
 * NULL when it can: @follows, the session follows a process (-p, or a
 * COMMAND without -a or -C); @backend, the resolved enum skd_backend_id.
 */
const char *record_idle_conflict(bool idle, bool follows, uint32_t backend);

/*
 * The skd_config flags --idle adds for a module with @features (struct
 * skd_info): SKD_CFG_IDLE, or nothing from a module that predates it and
 * samples idle CPUs anyway.
 */
uint32_t record_idle_flags(bool idle, uint32_t features);

#endif /* _SKD_CLI_RECORD_IDLE_H */
