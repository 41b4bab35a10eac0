// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "testlib.h"

struct ktap_state ktap;

struct skd_config test_config(uint64_t freq, uint32_t ring_pages,
			      uint32_t depth)
{
	struct skd_config cfg = {
		.size = sizeof(cfg),
		.flags = SKD_CFG_FREQ,
		.backend = SKD_BACKEND_TIMER,
		.ring_pages = ring_pages,
		.sample_freq = freq,
		.callchain_depth = depth,
	};

	return cfg;
}

void test_device_info(struct skd_info *info)
{
	int fd = skd_dev_open(false);

	if (fd < 0)
		ktap_fail_all("cannot open /dev/skidless");
	if (skd_dev_info(fd, info)) {
		printf("Bail out! GET_INFO failed: %s\n", strerror(errno));
		exit(KTAP_FAIL);
	}
	close(fd);
}

int session_open(struct test_session *s, const struct skd_config *cfg)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	s->fd = skd_dev_open(false);
	if (s->fd < 0) {
		ktap_diag("open /dev/skidless: %s", strerror(-s->fd));
		return s->fd;
	}
	ret = skd_dev_info(s->fd, &s->info);
	if (!ret)
		ret = skd_dev_config(s->fd, cfg);
	if (ret) {
		ktap_diag("info/config: %s", strerror(-ret));
		goto err;
	}
	s->reader = skd_reader_open(s->fd, &s->info, cfg->ring_pages);
	if (!s->reader) {
		ret = -errno;
		ktap_diag("mapping the rings: %s", strerror(errno));
		goto err;
	}
	return 0;
err:
	close(s->fd);
	s->fd = -1;
	return ret;
}

void session_close(struct test_session *s)
{
	skd_reader_close(s->reader);
	s->reader = NULL;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

static int count_record(const struct skd_rec_header *h, void *arg)
{
	struct drained *d = arg;
	struct skd_event ev;

	if (skd_decode(h, h->size, &ev) < 0 || !ev.id) {
		d->malformed++;
		return 0;
	}
	d->records[ev.type]++;
	if (ev.type == SKD_REC_LOST)
		d->lost_in_stream += ev.lost->lost;
	else if (ev.id->cpu < 64)
		d->per_cpu_records[ev.id->cpu]++;
	if (d->each && (!d->want || d->want(&ev, d->arg)))
		d->each(&ev, d->arg);
	return 0;
}

long session_drain(struct test_session *s, struct drained *d)
{
	return skd_reader_drain(s->reader, count_record, d);
}

int session_stats(struct test_session *s, struct skd_cpu_stats *per_cpu,
		  unsigned int nr, struct skd_cpu_stats *sum)
{
	unsigned int cpu;
	int ret;

	ret = skd_dev_stats(s->fd, per_cpu, nr, NULL);
	if (ret)
		return ret;
	memset(sum, 0, sizeof(*sum));
	for (cpu = 0; cpu < nr && cpu < s->info.nr_cpu_ids; cpu++) {
		sum->generated += per_cpu[cpu].generated;
		sum->delivered += per_cpu[cpu].delivered;
		sum->lost += per_cpu[cpu].lost;
		sum->lost_unreported += per_cpu[cpu].lost_unreported;
		sum->samples += per_cpu[cpu].samples;
		sum->wakeups += per_cpu[cpu].wakeups;
	}
	return 0;
}

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void sleep_seconds(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s,
			       .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Not inlined, not moved: tests check samples land between these symbols. */
__attribute__((noinline, section("skd_spin")))
void spin_for(double seconds)
{
	double end = now_seconds() + seconds;
	volatile unsigned long x = 0;
	unsigned long i;

	do {
		for (i = 0; i < 2000000; i++)
			x += i;
	} while (now_seconds() < end);
}

bool in_spin_loop(uint64_t ip)
{
	return ip >= (uintptr_t)__start_skd_spin &&
	       ip < (uintptr_t)__stop_skd_spin;
}

bool in_spin_caller(uint64_t ip)
{
	return ip >= (uintptr_t)__start_skd_spin_caller &&
	       ip < (uintptr_t)__stop_skd_spin_caller;
}

/* Its own section too: the spinner's return address must land here. */
__attribute__((noinline, section("skd_spin_caller")))
pid_t spawn_spinner(double seconds)
{
	pid_t pid = fork();

	if (!pid) {
		spin_for(seconds);
		_exit(0);
	}
	return pid;
}

pid_t spawn_spinner_on(double seconds, int cpu)
{
	pid_t pid = fork();
	cpu_set_t one;

	if (!pid) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			_exit(1);
		spin_for(seconds);
		_exit(0);
	}
	return pid;
}

bool reap_nohang(pid_t pid, bool *exited)
{
	int status;
	pid_t r = waitpid(pid, &status, WNOHANG);

	*exited = r == pid;
	if (!*exited)
		sleep_seconds(0.05);
	return r >= 0;
}

bool reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(status) && !WEXITSTATUS(status);
}
