// SPDX-License-Identifier: GPL-2.0
/*
 * The timer backend samples CPU time, not wall time. A per-task session
 * does not wake a CPU its task does not run on (local timer interrupts of
 * an idle CPU, from /proc/interrupts); a system-wide one takes no sample
 * of the idle task unless SKD_CFG_IDLE asks for them, and then it does;
 * and a task that sleeps half the time, in bursts shorter than the period,
 * gets one period of samples per period of CPU time it used (the rest of
 * the period carries across its sleeps).
 *
 * This process and the spinners stay on CPU 0; CPU 1 is the idle one.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "testlib.h"

#define BUSY_CPU	0
#define IDLE_CPU	1
#define TASK_FREQ	4000	/* Hz: the per-task session of test 1 */
#define WIDE_FREQ	2000	/* Hz: the system-wide sessions */
#define HALF_FREQ	200	/* Hz: 5 ms periods... */
#define HALF_RUN_NS	3000000	/* ...and bursts of 3 ms of CPU time */
#define HALF_SECONDS	3.0

struct tally {
	pid_t pid;
	uint64_t of_pid, idle, other;
	uint64_t period_ns;	/* the pid's samples' periods, summed */
};

static void count(const struct skd_event *ev, void *arg)
{
	struct tally *t = arg;

	if (ev->type != SKD_REC_SAMPLE)
		return;
	if (ev->id->pid == (uint32_t)t->pid) {
		t->of_pid++;
		t->period_ns += ev->sample.rec->period;
	} else if (ev->id->pid == 0) {
		t->idle++;
	} else {
		t->other++;
	}
}

/* The LOC (local timer interrupts) count of @cpu, or -1. */
static long long loc_count(int cpu)
{
	char line[4096], *p, *end;
	int col = -1, n = 0, i;
	long long v = -1;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	/* The header names the columns: CPU0 CPU1 ... (online CPUs). */
	if (fgets(line, sizeof(line), f)) {
		for (p = strtok(line, " \t\n"); p; p = strtok(NULL, " \t\n"), n++)
			if (!strncmp(p, "CPU", 3) && atoi(p + 3) == cpu)
				col = n;
	}
	while (col >= 0 && fgets(line, sizeof(line), f)) {
		p = line + strspn(line, " ");
		if (strncmp(p, "LOC:", 4))
			continue;
		p += 4;
		for (i = 0; i <= col; i++) {
			v = strtoll(p, &end, 10);
			if (end == p) {
				v = -1;
				break;
			}
			p = end;
		}
		break;
	}
	fclose(f);
	return v;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* LOC per second on @cpu over @seconds. */
static double loc_rate(int cpu, double seconds)
{
	long long a = loc_count(cpu), b;
	double t0 = now_seconds();

	sleep_seconds(seconds);
	b = loc_count(cpu);
	return a < 0 || b < 0 ? -1 : (b - a) / (now_seconds() - t0);
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Bursts of HALF_RUN_NS of CPU time, each followed by as long a sleep. */
static void half_sleep(void)
{
	struct timespec nap = { .tv_nsec = HALF_RUN_NS };
	double end = now_seconds() + HALF_SECONDS;
	volatile unsigned long x = 0;
	uint64_t until;

	while (now_seconds() < end) {
		until = thread_cpu_ns() + HALF_RUN_NS;
		while (thread_cpu_ns() < until)
			x++;
		nanosleep(&nap, NULL);
	}
}

/* On any CPU: not pinned as this process is. */
static pid_t spawn_half_sleeper(void)
{
	pid_t pid = fork();
	cpu_set_t all;
	int cpu;

	if (!pid) {
		CPU_ZERO(&all);
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
			CPU_SET(cpu, &all);
		sched_setaffinity(0, sizeof(all), &all);
		half_sleep();
		_exit(0);
	}
	return pid;
}

/* A system-wide session beside a spinner on BUSY_CPU: its tally. */
static int wide_session(uint32_t flags, struct tally *t, double *loc_idle)
{
	struct drained d = { .each = count, .arg = t };
	struct test_session s;
	struct skd_config cfg = test_config(WIDE_FREQ, 256, 0);
	int ret;

	cfg.flags |= flags;
	t->pid = spawn_spinner_on(1.5, BUSY_CPU);
	ret = session_open(&s, &cfg);
	if (ret) {
		kill(t->pid, SIGKILL);
		reap(t->pid);
		return ret;
	}
	skd_dev_start(s.fd);
	*loc_idle = loc_rate(IDLE_CPU, 1.0);
	skd_dev_stop(s.fd);
	session_drain(&s, &d);
	session_close(&s);
	kill(t->pid, SIGKILL);
	reap(t->pid);
	return 0;
}

int main(void)
{
	struct tally task = { 0 }, quiet = { 0 }, idle = { 0 }, half = { 0 };
	struct drained d = { .each = count, .arg = &task };
	double before, during, loc_quiet, loc_idle, ratio, cpu_s, t0, wall;
	struct test_session s;
	struct skd_config cfg;
	struct rusage ru;
	int status, err;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || loc_count(IDLE_CPU) < 0)
		ktap_skip_all("needs CPUs 0 and 1 online and LOC in /proc/interrupts");
	ktap_plan(6);
	if (pin(BUSY_CPU))
		ktap_fail_all("cannot pin this process to CPU 0");

	/* 1: a per-task session leaves an idle CPU alone. */
	before = loc_rate(IDLE_CPU, 1.0);
	task.pid = spawn_spinner_on(3.0, BUSY_CPU);
	cfg = test_config(TASK_FREQ, 256, 0);
	cfg.flags |= SKD_CFG_PID;
	cfg.pid = task.pid;
	if (session_open(&s, &cfg))
		ktap_fail_all("cannot set up a per-task session");
	skd_dev_start(s.fd);
	during = loc_rate(IDLE_CPU, 1.5);
	skd_dev_stop(s.fd);
	session_drain(&s, &d);
	session_close(&s);
	kill(task.pid, SIGKILL);
	reap(task.pid);
	ktap_diag("per-task session at %d Hz: CPU %d took %.0f LOC/s (%.0f "
		  "before), %llu samples of the task", TASK_FREQ, IDLE_CPU,
		  during, before, (unsigned long long)task.of_pid);
	ktap_result(during >= 0 && during < TASK_FREQ / 4,
		    "idle CPU %d: %.0f local timer interrupts/s during a %d Hz "
		    "session of a task on CPU %d (at most %d)", IDLE_CPU,
		    during, TASK_FREQ, BUSY_CPU, TASK_FREQ / 4);
	ktap_result(task.of_pid >= 1.5 * TASK_FREQ / 4 && !task.other &&
		    !task.idle,
		    "the task itself was sampled (%llu, %d expected at least), "
		    "nothing else (%llu)", (unsigned long long)task.of_pid,
		    (int)(1.5 * TASK_FREQ / 4),
		    (unsigned long long)(task.other + task.idle));

	/* 2, 3: system-wide, without and with SKD_CFG_IDLE. */
	err = wide_session(0, &quiet, &loc_quiet);
	ktap_diag("system-wide: %llu samples of the spinner, %llu of pid 0, "
		  "%llu others; CPU %d %.0f LOC/s", (unsigned long long)quiet.of_pid,
		  (unsigned long long)quiet.idle, (unsigned long long)quiet.other,
		  IDLE_CPU, loc_quiet);
	ktap_result(!err && quiet.of_pid > 0 && quiet.idle == 0,
		    "system-wide without SKD_CFG_IDLE: no sample of the idle "
		    "task (%llu; the spinner %llu) (%s)",
		    (unsigned long long)quiet.idle,
		    (unsigned long long)quiet.of_pid, strerror(-err));
	ktap_result(!err && loc_quiet >= 0 && loc_quiet < WIDE_FREQ / 4,
		    "...and idle CPU %d is not woken: %.0f LOC/s at %d Hz "
		    "(at most %d)", IDLE_CPU, loc_quiet, WIDE_FREQ,
		    WIDE_FREQ / 4);
	err = wide_session(SKD_CFG_IDLE, &idle, &loc_idle);
	ktap_diag("system-wide, SKD_CFG_IDLE: %llu samples of the spinner, "
		  "%llu of pid 0; CPU %d %.0f LOC/s",
		  (unsigned long long)idle.of_pid,
		  (unsigned long long)idle.idle, IDLE_CPU, loc_idle);
	ktap_result(!err && idle.idle >= WIDE_FREQ / 4 && idle.of_pid > 0,
		    "system-wide with SKD_CFG_IDLE: the idle task is sampled "
		    "(%llu, at least %d) (%s)", (unsigned long long)idle.idle,
		    WIDE_FREQ / 4, strerror(-err));

	/* 4: a period of samples per period of CPU time, sleeps or not. */
	half.pid = spawn_half_sleeper();
	d.arg = &half;
	cfg = test_config(HALF_FREQ, 256, 0);
	cfg.flags |= SKD_CFG_PID;
	cfg.pid = half.pid;
	t0 = now_seconds();
	err = session_open(&s, &cfg);
	if (!err)
		skd_dev_start(s.fd);
	while (wait4(half.pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	wall = now_seconds() - t0;
	if (!err) {
		skd_dev_stop(s.fd);
		session_drain(&s, &d);
		session_close(&s);
	}
	cpu_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	ratio = cpu_s > 0 ? half.period_ns / 1e9 / cpu_s : 0;
	ktap_diag("half sleeper: %.3f s of CPU in %.3f s, %llu samples at %d "
		  "Hz = %.3f s of periods: %.3f per CPU-second (%.1f samples "
		  "per wall second)", cpu_s, wall,
		  (unsigned long long)half.of_pid, HALF_FREQ,
		  half.period_ns / 1e9, ratio, half.of_pid / wall);
	ktap_result(!err && ratio >= 0.8 && ratio <= 1.2,
		    "a task in %d ms bursts (the period is %d ms) gets one "
		    "period of samples per period of CPU time: %.3f (0.8 to "
		    "1.2)", HALF_RUN_NS / 1000000, 1000 / HALF_FREQ, ratio);
	return ktap_finish();
}
