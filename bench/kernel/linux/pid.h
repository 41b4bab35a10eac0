/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A pid as the kernel keeps it: one number per namespace level, found
 * through the task (thread pid) or its signal struct (tgid).
 */
#ifndef _SKD_BENCH_LINUX_PID_H
#define _SKD_BENCH_LINUX_PID_H

#include <linux/types.h>

enum pid_type {
	PIDTYPE_PID,
	PIDTYPE_TGID,
	PIDTYPE_PGID,
	PIDTYPE_SID,
	PIDTYPE_MAX,
};

struct pid_namespace {
	unsigned int level;
};

struct upid {
	int nr;
	struct pid_namespace *ns;
};

struct pid {
	unsigned int level;
	struct upid numbers[1];
};

#endif /* _SKD_BENCH_LINUX_PID_H */
