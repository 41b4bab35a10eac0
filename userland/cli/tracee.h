/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command `skidless record -- CMD` runs: forked, held before exec until
 * the session is started, and (unless asked not to) followed with ptrace
 * exit stops, so that the maps of every process of its tree can be read
 * while it is still alive, however short-lived it is.
 */
#ifndef _SKD_TRACEE_H
#define _SKD_TRACEE_H

#include <stdbool.h>
#include <sys/types.h>

struct tracee {
	pid_t pid;
	int go_fd;		/* write end: one byte lets the child exec */
	int err_fd;		/* read end: errno if exec failed, EOF if not */
	bool traced;
	bool exited;
	int status;		/* wait status once exited */
};

/* Fork @argv, stopped before exec. 0 or -errno. */
int tracee_spawn(struct tracee *t, char *const argv[], bool trace);
/* Let it exec; returns 0, or the exec's -errno. */
int tracee_go(struct tracee *t);
/*
 * Collect child events after SIGCHLD: continue every ptrace stop, call
 * @on_exit(tgid) when a process leader stops on its way out.
 */
void tracee_reap(struct tracee *t, void (*on_exit)(pid_t tgid, void *arg),
		 void *arg);
/*
 * SIGTERM the command, keep serving its ptrace stops for up to @grace_ms,
 * then SIGKILL it if it is still there.
 */
void tracee_terminate(struct tracee *t, int grace_ms,
		      void (*on_exit)(pid_t tgid, void *arg), void *arg);
/* Kill and reap a child that must not run (setup failed). */
void tracee_kill(struct tracee *t);

#endif /* _SKD_TRACEE_H */
