// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "workload.h"

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

int workload_spawn(struct workload *t, char *const argv[])
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
	return 0;
}

int workload_go(struct workload *t)
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

void workload_reap(struct workload *w)
{
	int status;

	if (w->exited || w->pid <= 0)
		return;
	if (waitpid(w->pid, &status, WNOHANG) == w->pid &&
	    (WIFEXITED(status) || WIFSIGNALED(status))) {
		w->exited = true;
		w->status = status;
	}
}

void workload_terminate(struct workload *t, int grace_ms)
{
	const struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	int waited;

	kill(t->pid, SIGTERM);
	for (waited = 0; !t->exited && waited < grace_ms; waited += 10) {
		workload_reap(t);
		if (!t->exited)
			nanosleep(&tick, NULL);
	}
	workload_kill(t);
}

void workload_kill(struct workload *t)
{
	int status;

	if (t->go_fd >= 0)
		close(t->go_fd);
	if (t->err_fd >= 0)
		close(t->err_fd);
	t->go_fd = t->err_fd = -1;
	if (t->pid > 0 && !t->exited) {
		kill(t->pid, SIGKILL);
		while (waitpid(t->pid, &status, 0) < 0 && errno == EINTR)
			;
		t->exited = true;
	}
}
