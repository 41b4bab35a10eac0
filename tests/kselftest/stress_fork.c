// SPDX-License-Identifier: GPL-2.0
/*
 * Stress: for SECS seconds (argv[1], default 30) two processes fork as
 * fast as they can; every child execs /bin/true (busybox: static, so the
 * storm is not all dynamic linking), which exits at once. A system-wide
 * session drains all along. Every fork, exec and exit of the storm must
 * show up as exactly one FORK, EXEC and EXIT record, with the right
 * parent and path, and nothing may be lost.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "testlib.h"

#define STORMS		2
#define EXEC_PATH	"/bin/true"
#define PID_LIMIT	(1 << 22)	/* pid_max can be no more */

struct storm_counts {
	pid_t pid[STORMS];
	unsigned long forks[STORMS];
};

struct seen {
	const struct storm_counts *sc;
	char path[PATH_MAX];		/* EXEC_PATH, links resolved */
	uint8_t *forked;		/* bitmap: pids a storm forked */
	uint32_t *exec_pids;		/* pids that exec'd path, in order */
	size_t nr_exec, max_exec;
	uint64_t forks, exits;
};

static int storm_index(const struct storm_counts *sc, uint32_t tgid)
{
	int i;

	for (i = 0; i < STORMS; i++)
		if (sc->pid[i] && (uint32_t)sc->pid[i] == tgid)
			return i;
	return -1;
}

/*
 * FORK and EXIT name the storm as the parent. Other processes may exec
 * busybox too, so EXECs are matched against the storm's children at the
 * end: the rings of two CPUs are read in turn, and a child's EXEC can be
 * read before its FORK.
 */
static void each(const struct skd_event *ev, void *arg)
{
	struct seen *s = arg;
	uint32_t pid = ev->id->pid;

	switch (ev->type) {
	case SKD_REC_FORK:
		if (storm_index(s->sc, ev->task->ppid) >= 0 && pid < PID_LIMIT) {
			s->forks++;
			s->forked[pid / 8] |= 1U << (pid % 8);
		}
		break;
	case SKD_REC_EXIT:
		s->exits += storm_index(s->sc, ev->task->ppid) >= 0 &&
			    pid == ev->id->tid;
		break;
	case SKD_REC_EXEC:
		if (!strcmp(ev->exec.path, s->path) && s->nr_exec < s->max_exec)
			s->exec_pids[s->nr_exec++] = pid;
		break;
	}
}

static uint64_t storm_execs(const struct seen *s)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < s->nr_exec; i++)
		n += s->exec_pids[i] < PID_LIMIT &&
		     (s->forked[s->exec_pids[i] / 8] >> (s->exec_pids[i] % 8) & 1);
	return n;
}

static void storm(struct storm_counts *sc, int i, double secs)
{
	double end = now_seconds() + secs;
	int status;
	pid_t c;

	while (now_seconds() < end) {
		c = fork();
		if (c < 0)
			_exit(3);
		if (!c) {
			execl(EXEC_PATH, "true", (char *)NULL);
			_exit(127);
		}
		if (waitpid(c, &status, 0) != c || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			_exit(4);
		sc->forks[i]++;
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	struct storm_counts *sc;
	struct seen s = { 0 };
	struct drained d = { .each = each, .arg = &s };
	struct skd_cpu_stats st[64], sum;
	struct test_session s_;
	struct skd_config cfg;
	double secs, t0;
	unsigned long forks = 0;
	int i, status, storm_ok = 0;

	secs = argc > 1 ? atof(argv[1]) : 30;
	if (!realpath(EXEC_PATH, s.path))
		ktap_fail_all("no " EXEC_PATH " here");
	s.max_exec = 1 << 20;
	s.forked = calloc(PID_LIMIT / 8, 1);
	s.exec_pids = calloc(s.max_exec, sizeof(*s.exec_pids));
	if (!s.forked || !s.exec_pids)
		ktap_fail_all("out of memory");
	sc = mmap(NULL, sizeof(*sc), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sc == MAP_FAILED)
		ktap_fail_all("cannot map the shared counters");
	memset(sc, 0, sizeof(*sc));
	s.sc = sc;

	ktap_plan(4);
	/* sideband is the point: a slow sampling clock, a big ring */
	cfg = test_config(100, 256, 0);
	if (session_open(&s_, &cfg))
		ktap_fail_all("cannot set up a session");
	skd_dev_start(s_.fd);
	fflush(stdout);
	for (i = 0; i < STORMS; i++) {
		pid_t p = fork();

		if (!p)
			storm(sc, i, secs);
		sc->pid[i] = p;
	}
	t0 = now_seconds();
	while (now_seconds() - t0 < secs + 1) {
		session_drain(&s_, &d);
		sleep_seconds(0.02);
	}
	for (i = 0; i < STORMS; i++) {
		if (waitpid(sc->pid[i], &status, 0) == sc->pid[i] &&
		    WIFEXITED(status) && !WEXITSTATUS(status))
			storm_ok++;
		forks += sc->forks[i];
	}
	sleep_seconds(0.2);
	skd_dev_stop(s_.fd);
	session_drain(&s_, &d);
	session_stats(&s_, st, 64, &sum);

	ktap_result(storm_ok == STORMS && forks > 50, "%lu fork+exec+exit in "
		    "%.0f s (%.0f/s)", forks, secs, forks / secs);
	ktap_result(sum.lost == 0 && sum.generated == sum.delivered &&
		    !d.malformed, "no record lost or malformed (generated %llu, "
		    "lost %llu)", (unsigned long long)sum.generated,
		    (unsigned long long)sum.lost);
	ktap_result(s.forks == forks && s.exits == forks, "one FORK and one "
		    "EXIT record per child (%llu, %llu of %lu)",
		    (unsigned long long)s.forks, (unsigned long long)s.exits,
		    forks);
	ktap_result(storm_execs(&s) == forks, "one EXEC record per child, with "
		    "the program's path %s (%llu of %lu)", s.path,
		    (unsigned long long)storm_execs(&s), forks);
	session_close(&s_);
	free(s.forked);
	free(s.exec_pids);
	return ktap_finish();
}
