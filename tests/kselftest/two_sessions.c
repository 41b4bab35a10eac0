// SPDX-License-Identifier: GPL-2.0
/*
 * Two sessions at once are independent: each sees what its own config
 * asks for, keeps its own counters, and closing one leaves the other
 * sampling.
 */
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "testlib.h"

struct seen {
	pid_t a, b;
	uint64_t of_a, of_b, other;
};

static void count_pids(const struct skd_event *ev, void *arg)
{
	struct seen *s = arg;

	if (ev->type != SKD_REC_SAMPLE)
		return;
	if (ev->id->pid == (uint32_t)s->a)
		s->of_a++;
	else if (ev->id->pid == (uint32_t)s->b)
		s->of_b++;
	else
		s->other++;
}

int main(void)
{
	struct seen seen_one = { 0 }, seen_all = { 0 };
	struct drained d1 = { .each = count_pids, .arg = &seen_one };
	struct drained d2 = { .each = count_pids, .arg = &seen_all };
	struct skd_cpu_stats st[64], sum1, sum2, before, after;
	struct skd_config c1, c2;
	struct test_session one, all;

	ktap_plan(6);
	seen_one.a = seen_all.a = spawn_spinner(2.0);
	seen_one.b = seen_all.b = spawn_spinner(2.0);
	c1 = test_config(500, 256, 8);
	c1.flags |= SKD_CFG_PID;
	c1.pid = seen_one.a;
	c2 = test_config(1000, 256, 8);
	if (session_open(&one, &c1) || session_open(&all, &c2))
		ktap_fail_all("cannot set up two sessions");

	skd_dev_start(one.fd);
	skd_dev_start(all.fd);
	sleep_seconds(0.8);
	session_drain(&one, &d1);
	session_drain(&all, &d2);
	skd_dev_stop(one.fd);
	session_drain(&one, &d1);
	session_stats(&one, st, 64, &sum1);
	session_close(&one);

	/* The survivor keeps going after its sibling session is gone. */
	session_stats(&all, st, 64, &before);
	sleep_seconds(0.5);
	session_drain(&all, &d2);
	session_stats(&all, st, 64, &after);
	skd_dev_stop(all.fd);
	session_drain(&all, &d2);
	session_stats(&all, st, 64, &sum2);
	reap(seen_one.a);
	reap(seen_one.b);

	ktap_result(seen_one.of_a > 0 && seen_one.of_b == 0 && !seen_one.other,
		    "the pid session sees only its process (%llu, %llu, %llu)",
		    (unsigned long long)seen_one.of_a,
		    (unsigned long long)seen_one.of_b,
		    (unsigned long long)seen_one.other);
	ktap_result(seen_all.of_a > 0 && seen_all.of_b > 0,
		    "the system-wide session sees both (%llu, %llu)",
		    (unsigned long long)seen_all.of_a,
		    (unsigned long long)seen_all.of_b);
	ktap_result(sum1.samples == d1.records[SKD_REC_SAMPLE] &&
		    sum2.samples == d2.records[SKD_REC_SAMPLE] &&
		    !sum1.lost && !sum2.lost,
		    "each session counts its own samples (%llu = %llu read and "
		    "%llu = %llu read, %llu + %llu lost)",
		    (unsigned long long)sum1.samples,
		    (unsigned long long)d1.records[SKD_REC_SAMPLE],
		    (unsigned long long)sum2.samples,
		    (unsigned long long)d2.records[SKD_REC_SAMPLE],
		    (unsigned long long)sum1.lost, (unsigned long long)sum2.lost);
	ktap_result(sum1.generated == sum1.delivered + sum1.lost &&
		    sum2.generated == sum2.delivered + sum2.lost,
		    "both account exactly");
	ktap_result(after.samples > before.samples,
		    "closing one session leaves the other sampling (%llu -> %llu)",
		    (unsigned long long)before.samples,
		    (unsigned long long)after.samples);
	ktap_result(seen_all.of_a > seen_one.of_a,
		    "the 1000 Hz session took more samples of the shared "
		    "process than the 500 Hz one (%llu > %llu)",
		    (unsigned long long)seen_all.of_a,
		    (unsigned long long)seen_one.of_a);
	session_close(&all);
	return ktap_finish();
}
