// SPDX-License-Identifier: GPL-2.0
/*
 * The timer backend on a known program: a child that spins in one function
 * gets at least 90% of its user-mode samples there (its kernel share is
 * the kernel's interrupts and faults, which a debug kernel under load makes
 * large), with its own pid, the right call chain, and nothing from a
 * process outside the followed tree.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "testlib.h"

#define FREQ		1000
#define SPIN_SECONDS	2.0

struct tally {
	pid_t target, outsider;
	uint64_t samples, target_samples, in_spin, outsider_samples, foreign;
	uint64_t chain_ok, leaf_ok, user, kernel_ok, kernel;
	uint64_t period_ok, period_sum;
	uint64_t t0, t1, first, last;
};

static void each_sample(const struct skd_event *ev, void *arg)
{
	struct tally *t = arg;
	const struct skd_rec_sample *s = ev->sample.rec;
	bool user = (ev->misc & SKD_MISC_CPUMODE_MASK) == SKD_MISC_USER;

	if (ev->type != SKD_REC_SAMPLE)
		return;
	t->samples++;
	if (ev->id->pid == (uint32_t)t->outsider)
		t->outsider_samples++;
	if (ev->id->pid != (uint32_t)t->target) {
		t->foreign++;
		return;
	}
	t->target_samples++;
	/* Checked against the session's bounds once it is over. */
	if (!t->first || s->id.time < t->first)
		t->first = s->id.time;
	if (s->id.time > t->last)
		t->last = s->id.time;
	t->period_sum += s->period;
	/* Missed ticks widen a sample, never shrink it. */
	t->period_ok += s->period >= 1000000000 / FREQ &&
			s->period % (1000000000 / FREQ) == 0;
	if (user) {
		t->user++;
		t->leaf_ok += ev->sample.nr && ev->sample.nr_kernel == 0 &&
			      ev->sample.ips[0] == s->ip;
	} else {
		t->kernel++;
		t->kernel_ok += ev->sample.nr_kernel >= 1 &&
				ev->sample.ips[0] == s->ip &&
				skd_is_kernel_addr(s->ip);
	}
	if (user && in_spin_loop(s->ip)) {
		t->in_spin++;
		t->chain_ok += ev->sample.nr >= 2 &&
			       in_spin_caller(ev->sample.ips[1]);
	}
}

static uint64_t ns_now(void)
{
	return (uint64_t)(now_seconds() * 1e9);
}

int main(void)
{
	struct tally t = { 0 };
	struct drained d = { .each = each_sample, .arg = &t };
	struct skd_cpu_stats per_cpu[64], sum;
	struct test_session s;
	struct skd_config cfg;
	bool exited;

	ktap_plan(10);
	t.target = spawn_spinner(SPIN_SECONDS);
	t.outsider = spawn_spinner(SPIN_SECONDS);
	cfg = test_config(FREQ, 64, 32);
	cfg.flags |= SKD_CFG_PID;
	cfg.pid = t.target;
	if (session_open(&s, &cfg)) {
		kill(t.target, SIGKILL);
		kill(t.outsider, SIGKILL);
		ktap_fail_all("cannot set up a session");
	}
	t.t0 = ns_now();
	skd_dev_start(s.fd);
	/* Drain as we go so nothing is lost: this test is about placement. */
	while (!reap_nohang(t.target, &exited) || !exited)
		if (session_drain(&s, &d) < 0)
			break;
	skd_dev_stop(s.fd);
	t.t1 = ns_now();
	session_drain(&s, &d);
	reap(t.outsider);
	session_stats(&s, per_cpu, 64, &sum);

	ktap_diag("samples: %llu of the child, %llu in its loop, %llu user, "
		  "%llu kernel, %llu from others",
		  (unsigned long long)t.target_samples,
		  (unsigned long long)t.in_spin, (unsigned long long)t.user,
		  (unsigned long long)t.kernel, (unsigned long long)t.foreign);
	/*
	 * The periods add up to the CPU time sampled. Their number may
	 * fall well below it in a TCG guest whose other vCPU is busy: QEMU
	 * runs one vCPU at a time, and a timer interrupt waits for its
	 * vCPU's turn, to be one sample of several periods.
	 */
	ktap_result(t.period_sum >= SPIN_SECONDS / 2 * 1e9 &&
		    t.target_samples >= SPIN_SECONDS * FREQ / 10,
		    "the child got samples: %llu (at least %d), their periods "
		    "%.3f s of its %.1f s spin (at least half)",
		    (unsigned long long)t.target_samples,
		    (int)(SPIN_SECONDS * FREQ / 10), t.period_sum / 1e9,
		    SPIN_SECONDS);
	ktap_result(t.user && t.in_spin * 10 >= t.user * 9,
		    "at least 90%% of its user samples are in spin_for() "
		    "(%.1f%%; %.1f%% of all its samples)",
		    t.user ? 100.0 * t.in_spin / t.user : 0,
		    t.target_samples ? 100.0 * t.in_spin / t.target_samples : 0);
	ktap_result(t.foreign == 0 && t.outsider_samples == 0,
		    "no samples of other processes (%llu; %llu of the sibling)",
		    (unsigned long long)t.foreign,
		    (unsigned long long)t.outsider_samples);
	ktap_result(t.in_spin && t.chain_ok * 10 >= t.in_spin * 9,
		    "call chains lead from spin_for() to its caller (%llu of %llu)",
		    (unsigned long long)t.chain_ok, (unsigned long long)t.in_spin);
	ktap_result(t.user && t.leaf_ok == t.user,
		    "user samples: chain starts at the sample ip (%llu of %llu)",
		    (unsigned long long)t.leaf_ok, (unsigned long long)t.user);
	ktap_result(t.kernel_ok == t.kernel,
		    "kernel samples: kernel ip first in the chain (%llu of %llu)",
		    (unsigned long long)t.kernel_ok, (unsigned long long)t.kernel);
	ktap_result(t.period_ok == t.target_samples,
		    "every period is a whole number of %d ns ticks",
		    1000000000 / FREQ);
	ktap_result(t.first >= t.t0 && t.last <= t.t1,
		    "timestamps fall inside the session on CLOCK_MONOTONIC "
		    "(samples %llu..%llu, session %llu..%llu)",
		    (unsigned long long)t.first, (unsigned long long)t.last,
		    (unsigned long long)t.t0, (unsigned long long)t.t1);
	ktap_result(sum.generated == sum.delivered + sum.lost && sum.lost == 0,
		    "accounting: generated %llu = delivered %llu + lost %llu",
		    (unsigned long long)sum.generated,
		    (unsigned long long)sum.delivered,
		    (unsigned long long)sum.lost);
	ktap_result(d.malformed == 0 && d.records[SKD_REC_SAMPLE] == sum.samples,
		    "every sample generated was read, none malformed "
		    "(%llu read, %llu generated)",
		    (unsigned long long)d.records[SKD_REC_SAMPLE],
		    (unsigned long long)sum.samples);
	session_close(&s);
	return ktap_finish();
}
