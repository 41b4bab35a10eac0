// SPDX-License-Identifier: GPL-2.0
/*
 * Stress: sampling at the maximum rate for SECS seconds (argv[1], default
 * 60) on the sim model argv[2], every CPU busy, far more samples asked for
 * than max_sample_rate allows. Throttling must engage and release all
 * along, hold each CPU near the limit, never stop sampling for good, and
 * account exactly for every record.
 */
#include <stdio.h>
#include <stdlib.h>

#include "device.h"
#include "ktap.h"
#include "pmulib.h"
#include "testlib.h"

#define MAX_RATE_PARAM	"/sys/module/skidless/parameters/max_sample_rate"
#define LIMIT		2000
#define NR_CPUS_MAX	64

struct tally {
	uint64_t samples[NR_CPUS_MAX], late[NR_CPUS_MAX];
	uint64_t throttle, unthrottle;
	uint64_t t_late;		/* ns: the last tenth of the run */
};

static void each(const struct skd_event *ev, void *arg)
{
	struct tally *t = arg;
	unsigned int cpu = ev->id->cpu;

	if (ev->type == SKD_REC_SAMPLE && cpu < NR_CPUS_MAX) {
		t->samples[cpu]++;
		t->late[cpu] += t->t_late && ev->id->time >= t->t_late;
	}
	t->throttle += ev->type == SKD_REC_THROTTLE;
	t->unthrottle += ev->type == SKD_REC_UNTHROTTLE;
}

int main(int argc, char **argv)
{
	static const char *const cycles_pp[] = { "cycles:pp" };
	double secs = argc > 1 ? atof(argv[1]) : 60;
	struct skd_cpu_stats st[NR_CPUS_MAX], sum;
	struct tally t = { 0 };
	struct drained d = { .each = each, .arg = &t };
	struct skd_event_attr ev[1];
	struct skd_config cfg;
	struct test_session s;
	struct pmu_test pt;
	uint64_t old_rate = 100000;
	unsigned int cpu, nr, held = 0, alive = 0;
	bool exact = true, ok;
	double t0, elapsed;
	char text[32];
	pid_t spin[2];

	pmu_test_init(&pt, argc - 1, argv + 1);
	ktap_plan(4);
	read_u64(MAX_RATE_PARAM, &old_rate);
	snprintf(text, sizeof(text), "%u", LIMIT);
	/* period 20011 of cycles: tens of thousands of samples/s asked */
	ok = !write_text(MAX_RATE_PARAM, text) &&
	     !pmu_config(&pt, &cfg, ev, cycles_pp, 1, 20011, 64);
	cfg.callchain_depth = 8;	/* a PMI per sample */
	if (!ok || session_open(&s, &cfg))
		ktap_fail_all("cannot set up a sim session");
	nr = s.info.nr_cpu_ids < NR_CPUS_MAX ? s.info.nr_cpu_ids : NR_CPUS_MAX;

	spin[0] = spawn_spinner_on(secs, 0);
	spin[1] = spawn_spinner_on(secs, 1);
	t0 = now_seconds();
	skd_dev_start(s.fd);
	while ((elapsed = now_seconds() - t0) < secs) {
		if (!t.t_late && elapsed >= secs * 0.9)
			t.t_late = (uint64_t)(now_seconds() * 1e9);
		session_drain(&s, &d);
		sleep_seconds(0.05);
	}
	skd_dev_stop(s.fd);
	elapsed = now_seconds() - t0;
	session_drain(&s, &d);
	session_stats(&s, st, nr, &sum);
	reap(spin[0]);
	reap(spin[1]);
	snprintf(text, sizeof(text), "%llu", (unsigned long long)old_rate);
	write_text(MAX_RATE_PARAM, text);

	for (cpu = 0; cpu < nr; cpu++) {
		exact &= st[cpu].generated == st[cpu].delivered + st[cpu].lost &&
			 d.per_cpu_records[cpu] == st[cpu].delivered;
		/* a window's overshoot aside, no more than the limit */
		held += t.samples[cpu] <= LIMIT * (elapsed * 1.05 + 1);
		alive += t.late[cpu] > 0;
		ktap_diag("cpu%u: %llu samples (%.0f/s), %llu in the last tenth; "
			  "generated %llu delivered %llu lost %llu", cpu,
			  (unsigned long long)t.samples[cpu],
			  t.samples[cpu] / elapsed,
			  (unsigned long long)t.late[cpu],
			  (unsigned long long)st[cpu].generated,
			  (unsigned long long)st[cpu].delivered,
			  (unsigned long long)st[cpu].lost);
	}
	ktap_result(t.throttle > 10 && t.unthrottle > 10, "throttling engaged "
		    "and released all along %.0f s (%llu THROTTLE, %llu "
		    "UNTHROTTLE)", elapsed, (unsigned long long)t.throttle,
		    (unsigned long long)t.unthrottle);
	ktap_result(held == nr, "every CPU held to max_sample_rate=%u (%u of %u)",
		    LIMIT, held, nr);
	ktap_result(alive == nr, "every CPU still sampled in the last tenth "
		    "(%u of %u)", alive, nr);
	ktap_result(exact, "per CPU, generated == delivered + lost == read + "
		    "lost (lost %llu)", (unsigned long long)sum.lost);
	session_close(&s);
	return ktap_finish();
}
