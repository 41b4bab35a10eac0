// SPDX-License-Identifier: GPL-2.0
/*
 * Nothing is lost silently. A reader that stops makes the rings overflow;
 * afterwards, on every CPU, generated == delivered + lost exactly, the
 * records read equal the records delivered, and the LOST records in the
 * stream plus the still-unreported count equal the losses.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "testlib.h"

#define NR_CPUS_MAX	64

int main(void)
{
	struct skd_cpu_stats st[NR_CPUS_MAX], sum;
	struct drained d = { 0 };
	struct test_session s;
	struct skd_config cfg;
	bool exact = true, read_ok = true, lost_ok;
	unsigned int cpu, nr;
	pid_t spinner;

	ktap_plan(6);
	/* One page per CPU, 4 kHz, deep chains: the rings fill in moments. */
	cfg = test_config(4000, 1, 32);
	if (session_open(&s, &cfg))
		ktap_fail_all("cannot set up a session");
	nr = s.info.nr_cpu_ids < NR_CPUS_MAX ? s.info.nr_cpu_ids : NR_CPUS_MAX;

	spinner = spawn_spinner(3.0);
	skd_dev_start(s.fd);
	sleep_seconds(1.0);			/* reader stalled: overflow */
	session_drain(&s, &d);			/* space returns... */
	sleep_seconds(0.5);			/* ...and LOST records go in */
	session_drain(&s, &d);
	sleep_seconds(0.5);			/* stalled again */
	skd_dev_stop(s.fd);
	session_drain(&s, &d);
	reap(spinner);

	if (session_stats(&s, st, nr, &sum)) {
		printf("Bail out! GET_STATS failed\n");
		return KTAP_FAIL;
	}
	for (cpu = 0; cpu < nr; cpu++) {
		if (st[cpu].generated != st[cpu].delivered + st[cpu].lost)
			exact = false;
		if (d.per_cpu_records[cpu] != st[cpu].delivered)
			read_ok = false;
		ktap_diag("cpu%u: generated %llu delivered %llu lost %llu "
			  "(unreported %llu) read %llu wakeups %llu", cpu,
			  (unsigned long long)st[cpu].generated,
			  (unsigned long long)st[cpu].delivered,
			  (unsigned long long)st[cpu].lost,
			  (unsigned long long)st[cpu].lost_unreported,
			  (unsigned long long)d.per_cpu_records[cpu],
			  (unsigned long long)st[cpu].wakeups);
	}
	lost_ok = d.lost_in_stream + sum.lost_unreported == sum.lost;

	ktap_result(sum.lost > 0, "the stalled reader made the rings overflow "
		    "(%llu lost)", (unsigned long long)sum.lost);
	ktap_result(exact, "per CPU, generated == delivered + lost exactly");
	ktap_result(read_ok, "per CPU, records read == records delivered");
	ktap_result(d.records[SKD_REC_LOST] > 0,
		    "LOST records came once the reader caught up (%llu)",
		    (unsigned long long)d.records[SKD_REC_LOST]);
	ktap_result(lost_ok, "LOST counts %llu + unreported %llu == lost %llu",
		    (unsigned long long)d.lost_in_stream,
		    (unsigned long long)sum.lost_unreported,
		    (unsigned long long)sum.lost);
	ktap_result(d.malformed == 0, "no malformed record in a full ring");
	session_close(&s);
	return ktap_finish();
}
