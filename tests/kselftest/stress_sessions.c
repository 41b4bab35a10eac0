// SPDX-License-Identifier: GPL-2.0
/*
 * Stress: PROCS processes (argv[1], default 8) each run ROUNDS sessions
 * (argv[2], default 50) at the same time: open, configure (timer, or the
 * sim model argv[3] when given, which only one session may hold), map,
 * start, drain, then end it one of three ways: STOP and close, close while
 * sampling, or close with the rings still mapped and unmap after. Every
 * step succeeds, or refuses with EBUSY where the PMU is taken; afterwards
 * nothing holds the module.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "pmulib.h"
#include "testlib.h"

#define REFCNT		"/sys/module/skidless/refcnt"
#define MAX_PROCS	32

struct outcome {
	unsigned int ok, busy, bad, pmu_ok;
};

static const char *const cycles_pp[] = { "cycles:pp" };

static void one_round(int round, const struct pmu_test *pt,
		      struct outcome *o)
{
	struct skd_event_attr ev[1];
	struct drained d = { 0 };
	struct test_session s;
	struct skd_config cfg;
	int ret;

	/* every third session asks for the PMU, when there is one */
	if (pt && round % 3 == 0) {
		if (pmu_config(pt, &cfg, ev, cycles_pp, 1, 100003, 8)) {
			o->bad++;
			return;
		}
	} else {
		cfg = test_config(2000 + 100 * (round % 7), 1U << (round % 4),
				  round % 9);
	}
	ret = session_open(&s, &cfg);
	if (ret == -EBUSY && cfg.backend != SKD_BACKEND_TIMER) {
		o->busy++;
		return;
	}
	if (ret) {
		o->bad++;
		return;
	}
	ret = skd_dev_start(s.fd);
	if (ret == -EBUSY && cfg.backend != SKD_BACKEND_TIMER) {
		o->busy++;
		session_close(&s);
		return;
	}
	if (ret || session_drain(&s, &d) < 0) {
		o->bad++;
		session_close(&s);
		return;
	}
	usleep(1000 * (round % 5));
	switch (round % 3) {
	case 0:			/* the orderly way */
		ret = skd_dev_stop(s.fd);
		session_drain(&s, &d);
		session_close(&s);
		break;
	case 1:			/* close while sampling */
		close(s.fd);
		s.fd = -1;
		session_close(&s);
		break;
	default:		/* the mapping outlives the fd a while */
		close(s.fd);
		s.fd = -1;
		session_drain(&s, &d);
		session_close(&s);
		break;
	}
	if (ret || d.malformed) {
		o->bad++;
	} else {
		o->ok++;
		o->pmu_ok += cfg.backend != SKD_BACKEND_TIMER;
	}
}

/* The children's tallies, where the parent can add them up. */
static struct outcome *mmap_shared_outcomes(int procs)
{
	void *p = mmap(NULL, procs * sizeof(struct outcome),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		exit(KTAP_FAIL);
	}
	return p;
}

int main(int argc, char **argv)
{
	int procs = argc > 1 ? atoi(argv[1]) : 8;
	int rounds = argc > 2 ? atoi(argv[2]) : 50;
	struct outcome *all, sum = { 0 };
	struct pmu_test pt;
	int i, r, status, deaths = 0;
	uint64_t refcnt = ~0ULL, refcnt0 = ~0ULL;
	double t0;

	if (procs < 1 || procs > MAX_PROCS || rounds < 1)
		ktap_fail_all("usage: stress_sessions PROCS(1-32) ROUNDS [MODEL]");
	if (argc > 3)
		pmu_test_init(&pt, 2, argv + 2);
	ktap_plan(argc > 3 ? 3 : 2);
	fflush(stdout);
	/* skidless_sim.ko, when loaded, holds one: it uses our symbols. */
	read_u64(REFCNT, &refcnt0);
	all = mmap_shared_outcomes(procs);
	t0 = now_seconds();
	for (i = 0; i < procs; i++) {
		if (fork() == 0) {
			/* only PMU sessions may be refused, with EBUSY */
			for (r = 0; r < rounds; r++)
				one_round(i * rounds + r,
					  argc > 3 ? &pt : NULL, &all[i]);
			_exit(0);
		}
	}
	while (wait(&status) > 0)
		deaths += !WIFEXITED(status) || WEXITSTATUS(status);
	for (i = 0; i < procs; i++) {
		sum.ok += all[i].ok;
		sum.busy += all[i].busy;
		sum.bad += all[i].bad;
		sum.pmu_ok += all[i].pmu_ok;
	}
	read_u64(REFCNT, &refcnt);

	ktap_result(!deaths && sum.ok + sum.busy == (unsigned int)(procs * rounds)
		    && !sum.bad, "%d processes x %d sessions in %.1f s: %u ran, "
		    "%u refused with EBUSY (PMU taken), %u went wrong", procs,
		    rounds, now_seconds() - t0, sum.ok, sum.busy, sum.bad);
	if (argc > 3)
		ktap_result(sum.pmu_ok > 0, "%s sessions took the PMU in turn "
			    "(%u ran)", argv[3], sum.pmu_ok);
	ktap_result(refcnt == refcnt0, "afterwards nothing more holds the "
		    "module (refcnt %llu, %llu before)",
		    (unsigned long long)refcnt, (unsigned long long)refcnt0);
	return ktap_finish();
}
