// SPDX-License-Identifier: GPL-2.0
/*
 * Stress: CPU 1 goes offline and online CYCLES times (argv[1], default
 * 100) while a system-wide session samples, with the timer backend or,
 * given a sim model (argv[2]), the intel backend on it. Every cycle must
 * work, the session must survive with exact accounting on every CPU, and
 * CPU 1 must sample again after the last one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "pmulib.h"
#include "testlib.h"

#define ONLINE		"/sys/devices/system/cpu/cpu1/online"
#define NR_CPUS_MAX	64

struct tail {
	uint64_t t_last_on;		/* ns: CPU 1 came back for good */
	uint64_t cpu1_after;		/* samples of CPU 1 after that */
};

static void after_last(const struct skd_event *ev, void *arg)
{
	struct tail *t = arg;

	if (ev->type == SKD_REC_SAMPLE && ev->id->cpu == 1 &&
	    t->t_last_on && ev->id->time > t->t_last_on)
		t->cpu1_after++;
}

int main(int argc, char **argv)
{
	static const char *const cycles_pp[] = { "cycles:pp" };
	struct skd_cpu_stats st[NR_CPUS_MAX], sum;
	struct tail t = { 0 };
	struct drained d = { .each = after_last, .arg = &t };
	struct skd_event_attr ev[1];
	struct test_session s;
	struct skd_config cfg;
	struct pmu_test pt;
	int cycles = argc > 1 ? atoi(argv[1]) : 100;
	int i, ok = 0;
	unsigned int cpu, nr;
	bool exact = true;
	pid_t spinner;
	double t0;

	if (access(ONLINE, W_OK))
		ktap_skip_all("CPU 1 cannot be taken offline here");
	if (argc > 2) {
		/* pmu_test_init() takes the model as its argv[1] */
		pmu_test_init(&pt, 2, argv + 1);
		if (pmu_config(&pt, &cfg, ev, cycles_pp, 1, 200003, 64))
			ktap_fail_all("cannot configure cycles:pp on the model");
	} else {
		cfg = test_config(1000, 64, 8);
		/* CPU 1 may idle: its idle task's samples show it sampling. */
		cfg.flags |= SKD_CFG_IDLE;
	}
	ktap_plan(3);
	if (session_open(&s, &cfg))
		ktap_fail_all("cannot set up a session");
	nr = s.info.nr_cpu_ids < NR_CPUS_MAX ? s.info.nr_cpu_ids : NR_CPUS_MAX;

	t0 = now_seconds();
	skd_dev_start(s.fd);
	for (i = 0; i < cycles; i++) {
		ok += !write_text(ONLINE, "0");
		session_drain(&s, &d);
		ok += !write_text(ONLINE, "1");
		session_drain(&s, &d);
	}
	t.t_last_on = (uint64_t)(now_seconds() * 1e9);
	/* The sim counts busy time only: keep CPU 1 busy a while. */
	spinner = spawn_spinner_on(1.0, 1);
	reap(spinner);
	skd_dev_stop(s.fd);
	session_drain(&s, &d);
	session_stats(&s, st, nr, &sum);
	for (cpu = 0; cpu < nr; cpu++)
		exact &= st[cpu].generated == st[cpu].delivered + st[cpu].lost &&
			 d.per_cpu_records[cpu] == st[cpu].delivered;

	ktap_result(ok == 2 * cycles, "%d offline/online cycles of CPU 1 while "
		    "sampling with %s (%d transitions worked, %.1f s)", cycles,
		    argc > 2 ? argv[2] : "the timer backend", ok,
		    now_seconds() - t0);
	ktap_result(exact, "per CPU, generated == delivered + lost == read + "
		    "lost (generated %llu, delivered %llu, lost %llu)",
		    (unsigned long long)sum.generated,
		    (unsigned long long)sum.delivered,
		    (unsigned long long)sum.lost);
	ktap_result(t.cpu1_after > 0, "CPU 1 samples after the last cycle (%llu)",
		    (unsigned long long)t.cpu1_after);
	session_close(&s);
	return ktap_finish();
}
