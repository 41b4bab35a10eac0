// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling follows CPU hotplug: a CPU taken offline stops producing
 * samples, one brought back resumes, and the session survives it all with
 * exact accounting.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "testlib.h"

#define CPU		1
#define ONLINE		"/sys/devices/system/cpu/cpu1/online"
#define CYCLES		5

struct windows {
	uint64_t t_off, t_on;			/* the first cycle, ns */
	uint64_t before, during, after;		/* samples on CPU */
};

static void classify(const struct skd_event *ev, void *arg)
{
	struct windows *w = arg;
	uint64_t t = ev->id->time;

	if (ev->type != SKD_REC_SAMPLE || ev->id->cpu != CPU)
		return;
	if (t < w->t_off)
		w->before++;
	else if (t < w->t_on)
		w->during++;
	else
		w->after++;
}

static int set_online(int on)
{
	int fd = open(ONLINE, O_WRONLY);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, on ? "1" : "0", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

static uint64_t ns_now(void)
{
	return (uint64_t)(now_seconds() * 1e9);
}

int main(void)
{
	struct windows w = { 0 };
	struct drained d = { .each = classify, .arg = &w };
	struct skd_cpu_stats st[64], sum;
	struct test_session s;
	struct skd_config cfg;
	int i, cycles_ok = 0;

	if (access(ONLINE, W_OK))
		ktap_skip_all("CPU 1 cannot be taken offline here");
	ktap_plan(5);
	cfg = test_config(1000, 64, 8);
	/* CPU 1 may idle: its idle task's samples show it sampling. */
	cfg.flags |= SKD_CFG_IDLE;
	if (session_open(&s, &cfg))
		ktap_fail_all("cannot set up a session");

	skd_dev_start(s.fd);
	sleep_seconds(0.5);
	if (set_online(0)) {
		printf("Bail out! cannot take CPU 1 offline\n");
		return KTAP_FAIL;
	}
	w.t_off = ns_now();		/* after the write: CPU 1 is down */
	sleep_seconds(0.5);
	session_drain(&s, &d);
	w.t_on = ns_now();		/* before the write: still down */
	set_online(1);
	sleep_seconds(0.5);
	session_drain(&s, &d);

	/* A few more quick cycles while sampling. */
	for (i = 0; i < CYCLES; i++) {
		cycles_ok += !set_online(0);
		sleep_seconds(0.05);
		cycles_ok += !set_online(1);
		sleep_seconds(0.05);
		session_drain(&s, &d);
	}
	sleep_seconds(0.3);
	skd_dev_stop(s.fd);
	session_drain(&s, &d);
	session_stats(&s, st, 64, &sum);

	ktap_result(w.before > 0, "CPU 1 sampled before going offline (%llu)",
		    (unsigned long long)w.before);
	ktap_result(w.during == 0, "no samples from CPU 1 while offline (%llu)",
		    (unsigned long long)w.during);
	ktap_result(w.after > 0, "CPU 1 sampled again once back (%llu)",
		    (unsigned long long)w.after);
	ktap_result(cycles_ok == 2 * CYCLES, "%d more offline/online cycles "
		    "while sampling", CYCLES);
	ktap_result(sum.generated == sum.delivered + sum.lost && !sum.lost &&
		    d.records[SKD_REC_SAMPLE] == sum.samples,
		    "the session survived with exact accounting (generated %llu, "
		    "delivered %llu, lost %llu, read %llu samples)",
		    (unsigned long long)sum.generated,
		    (unsigned long long)sum.delivered,
		    (unsigned long long)sum.lost,
		    (unsigned long long)d.records[SKD_REC_SAMPLE]);
	session_close(&s);
	return ktap_finish();
}
