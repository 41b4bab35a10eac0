/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command of `skidless record -- CMD`: forked and held before exec
 * until the session is started, so that the kernel's EXEC, MMAP and COMM
 * records describe it from its first instruction. It is not traced: the
 * module reports every mapping of every process of its tree, however
 * short-lived, so the command runs as it would without skidless (under
 * gdb, strace or ASan too).
 */
#ifndef _SKD_WORKLOAD_H
#define _SKD_WORKLOAD_H

#include <stdbool.h>
#include <sys/types.h>

struct workload {
	pid_t pid;
	int go_fd;		/* write end: one byte lets the child exec */
	int err_fd;		/* read end: errno if exec failed, EOF if not */
	bool exited;
	int status;		/* wait status once exited */
};

/* Fork @argv, stopped before exec. 0 or -errno. */
int workload_spawn(struct workload *w, char *const argv[]);
/* Let it exec; returns 0, or the exec's -errno. */
int workload_go(struct workload *w);
/* After SIGCHLD: note whether the command has ended, without blocking. */
void workload_reap(struct workload *w);
/* SIGTERM the command, wait up to @grace_ms, then SIGKILL it. */
void workload_terminate(struct workload *w, int grace_ms);
/* Kill and reap a command that must not run (setup failed). */
void workload_kill(struct workload *w);

#endif /* _SKD_WORKLOAD_H */
