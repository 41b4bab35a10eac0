// SPDX-License-Identifier: GPL-2.0
/*
 * Sideband: a process we follow forks, renames itself, has a child that
 * execs and exits; FORK, COMM, EXEC and EXIT records say so, with the
 * right ids, names, path and order.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "testlib.h"

#define EXEC_PATH	"/bin/true"

struct story {
	pid_t self, child, grandchild;
	char exec_path[PATH_MAX];
	uint64_t fork_child, fork_grandchild;	/* times; 0: not seen */
	uint64_t rename, exec, exec_comm, exit_grandchild, exit_child;
	bool fork_ids_ok, exec_path_ok, exec_comm_ok, exit_ids_ok;
	uint64_t outside;			/* records of other processes */
};

static void follow(const struct skd_event *ev, void *arg)
{
	struct story *s = arg;
	uint32_t pid = ev->id->pid;
	uint64_t t = ev->id->time;

	if (ev->type == SKD_REC_SAMPLE || ev->type == SKD_REC_LOST)
		return;
	if (pid != (uint32_t)s->self && pid != (uint32_t)s->child &&
	    pid != (uint32_t)s->grandchild) {
		s->outside++;
		return;
	}
	switch (ev->type) {
	case SKD_REC_FORK:
		if (pid == (uint32_t)s->child) {
			s->fork_child = t;
			s->fork_ids_ok = ev->task->ppid == (uint32_t)s->self &&
					 ev->id->tid == pid;
		} else if (pid == (uint32_t)s->grandchild) {
			s->fork_grandchild = t;
			s->fork_ids_ok &= ev->task->ppid == (uint32_t)s->child;
		}
		break;
	case SKD_REC_COMM:
		if (pid == (uint32_t)s->child && !strcmp(ev->comm->comm, "skd-renamed"))
			s->rename = t;
		if (pid == (uint32_t)s->grandchild &&
		    (ev->misc & SKD_MISC_COMM_EXEC)) {
			s->exec_comm = t;
			s->exec_comm_ok = !strcmp(ev->comm->comm, "true");
		}
		break;
	case SKD_REC_EXEC:
		if (pid == (uint32_t)s->grandchild) {
			s->exec = t;
			s->exec_path_ok = !strcmp(ev->exec.path, s->exec_path);
		}
		break;
	case SKD_REC_EXIT:
		if (pid == (uint32_t)s->grandchild) {
			s->exit_grandchild = t;
			s->exit_ids_ok = ev->task->ppid == (uint32_t)s->child;
		} else if (pid == (uint32_t)s->child) {
			s->exit_child = t;
		}
		break;
	}
}

/* Child: rename, fork+exec a grandchild, report its pid, wait, exit. */
static void child(int report)
{
	pid_t g;
	int status;

	prctl(PR_SET_NAME, "skd-renamed");
	g = fork();
	if (!g) {
		execl(EXEC_PATH, "true", (char *)NULL);
		_exit(127);
	}
	if (write(report, &g, sizeof(g)) != sizeof(g))
		_exit(1);
	waitpid(g, &status, 0);
	_exit(WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 1);
}

int main(void)
{
	struct story s = { .self = getpid() };
	struct drained d = { .each = follow, .arg = &s };
	struct skd_cpu_stats st[64], sum;
	struct test_session ts;
	struct skd_config cfg;
	int pipefd[2];
	bool child_ok;

	ktap_plan(8);
	if (!realpath(EXEC_PATH, s.exec_path))
		ktap_fail_all(EXEC_PATH " is missing");
	cfg = test_config(100, 64, 0);
	cfg.flags |= SKD_CFG_PID;
	cfg.pid = s.self;
	if (session_open(&ts, &cfg) || pipe(pipefd))
		ktap_fail_all("cannot set up a session");
	skd_dev_start(ts.fd);

	s.child = fork();
	if (!s.child)
		child(pipefd[1]);
	if (read(pipefd[0], &s.grandchild, sizeof(s.grandchild)) !=
	    sizeof(s.grandchild))
		s.grandchild = -1;
	child_ok = reap(s.child);
	sleep_seconds(0.2);
	skd_dev_stop(ts.fd);
	session_drain(&ts, &d);
	session_stats(&ts, st, 64, &sum);

	ktap_result(child_ok && s.grandchild > 0, "the test processes ran");
	ktap_result(s.fork_child && s.fork_grandchild && s.fork_ids_ok,
		    "FORK for child and grandchild with the right parents");
	ktap_result(s.rename > s.fork_child, "COMM after prctl(PR_SET_NAME), "
		    "after the FORK");
	ktap_result(s.exec && s.exec_path_ok, "EXEC of the grandchild with the "
		    "real path %s", s.exec_path);
	/* perf's order: COMM_EXEC, then the new image's maps, here EXEC. */
	ktap_result(s.exec_comm && s.exec_comm <= s.exec && s.exec_comm_ok,
		    "COMM marked as set by exec, with the new name, before "
		    "the EXEC record");
	ktap_result(s.exit_grandchild > s.exec && s.exit_child > s.exit_grandchild
		    && s.exit_ids_ok, "EXIT for both, in order, with parents");
	ktap_result(s.outside == 0, "nothing about processes outside the "
		    "followed tree (%llu records)", (unsigned long long)s.outside);
	ktap_result(sum.generated == sum.delivered + sum.lost && !sum.lost &&
		    !d.malformed, "every sideband record delivered and well formed");
	session_close(&ts);
	return ktap_finish();
}
