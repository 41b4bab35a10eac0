// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tracee.h"

#define TRACE_OPTIONS	(PTRACE_O_TRACEEXIT | PTRACE_O_TRACEFORK | \
			 PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE)

static void child_run(int go, int err, char *const argv[])
{
	sigset_t none;
	char c;
	int e;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* EOF means the recorder gave up: do not run unprofiled. */
	if (read(go, &c, 1) != 1)
		_exit(127);
	close(go);
	execvp(argv[0], argv);
	e = errno;
	if (write(err, &e, sizeof(e)) != sizeof(e))
		_exit(127);
	_exit(127);
}

int tracee_spawn(struct tracee *t, char *const argv[], bool trace)
{
	int go[2], err[2];
	pid_t pid;

	memset(t, 0, sizeof(*t));
	t->go_fd = t->err_fd = -1;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		int ret = -errno;

		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return ret;
	}
	if (!pid) {
		close(go[1]);
		close(err[0]);
		child_run(go[0], err[1], argv);
	}
	close(go[0]);
	close(err[1]);
	t->pid = pid;
	t->go_fd = go[1];
	t->err_fd = err[0];
	if (trace && !ptrace(PTRACE_SEIZE, pid, 0, TRACE_OPTIONS))
		t->traced = true;
	return 0;
}

int tracee_go(struct tracee *t)
{
	ssize_t n;
	int e = 0;

	if (write(t->go_fd, "g", 1) != 1)
		return -errno;
	close(t->go_fd);
	t->go_fd = -1;
	do {
		n = read(t->err_fd, &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	close(t->err_fd);
	t->err_fd = -1;
	return n == sizeof(e) ? -e : 0;
}

/* The thread group of @tid, from /proc; @tid itself if unknown. */
static pid_t tgid_of(pid_t tid)
{
	char path[64], line[128];
	pid_t tgid = tid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return tid;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

static void on_stop(pid_t pid, int status,
		    void (*on_exit)(pid_t tgid, void *arg), void *arg)
{
	unsigned int event = (unsigned int)status >> 16;
	int sig = WSTOPSIG(status);

	switch (event) {
	case PTRACE_EVENT_EXIT:
		/* Its mm is still there: this is the last chance to read maps. */
		if (tgid_of(pid) == pid)
			on_exit(pid, arg);
		ptrace(PTRACE_CONT, pid, 0, 0);
		break;
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE:
		ptrace(PTRACE_CONT, pid, 0, 0);
		break;
	case PTRACE_EVENT_STOP:
		/* Group stop (job control) or a new child's first stop. */
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
		    sig == SIGTTOU)
			ptrace(PTRACE_LISTEN, pid, 0, 0);
		else
			ptrace(PTRACE_CONT, pid, 0, 0);
		break;
	default:
		/* A signal on its way to the tracee: let it through. */
		ptrace(PTRACE_CONT, pid, 0, sig);
		break;
	}
}

void tracee_reap(struct tracee *t, void (*on_exit)(pid_t tgid, void *arg),
		 void *arg)
{
	int status;
	pid_t pid;

	for (;;) {
		pid = waitpid(-1, &status, __WALL | WNOHANG);
		if (pid <= 0)
			return;
		if (WIFSTOPPED(status)) {
			on_stop(pid, status, on_exit, arg);
		} else if (pid == t->pid &&
			   (WIFEXITED(status) || WIFSIGNALED(status))) {
			t->exited = true;
			t->status = status;
		}
	}
}

void tracee_terminate(struct tracee *t, int grace_ms,
		      void (*on_exit)(pid_t tgid, void *arg), void *arg)
{
	const struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	int waited;

	kill(t->pid, SIGTERM);
	for (waited = 0; !t->exited && waited < grace_ms; waited += 10) {
		tracee_reap(t, on_exit, arg);
		if (!t->exited)
			nanosleep(&tick, NULL);
	}
	tracee_kill(t);
}

void tracee_kill(struct tracee *t)
{
	int status;

	if (t->go_fd >= 0)
		close(t->go_fd);
	if (t->err_fd >= 0)
		close(t->err_fd);
	t->go_fd = t->err_fd = -1;
	if (t->pid > 0 && !t->exited) {
		kill(t->pid, SIGKILL);
		while (waitpid(t->pid, &status, __WALL) < 0 && errno == EINTR)
			;
		t->exited = true;
	}
}
