// SPDX-License-Identifier: GPL-2.0
/*
 * Every ioctl with bad arguments fails with its own errno, leaves the
 * session usable, and a good call right after still works.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "testlib.h"

static struct skd_info info;
static pid_t unused_pid;
static uint64_t cpus_empty[1], cpus_bad[1], cpus_ok[1];

static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

static struct skd_config good(void)
{
	return test_config(100, 4, 16);
}

/* Each case mutates a good config into a bad one. */
#define CASE(name, stmt) \
	static void name(struct skd_config *c) { stmt; }

CASE(unknown_flag, c->flags |= 1U << 31)
CASE(reserved_set, c->reserved[2] = 1)
CASE(backend_unknown, c->backend = 99)
CASE(ring_zero, c->ring_pages = 0)
CASE(ring_not_pow2, c->ring_pages = 3)
CASE(ring_too_big, c->ring_pages = info.max_ring_pages * 2)
CASE(freq_zero, c->sample_freq = 0)
CASE(freq_too_high, c->sample_freq = info.max_freq + 1ULL)
CASE(period_zero, c->flags &= ~SKD_CFG_FREQ; c->sample_period = 0)
CASE(period_too_short, c->flags &= ~SKD_CFG_FREQ; c->sample_period = 1)
CASE(wakeup_too_big, c->wakeup_bytes = c->ring_pages * info.page_size / 2 + 8)
CASE(depth_too_big, c->callchain_depth = SKD_MAX_CALLCHAIN + 1)
CASE(exclude_both, c->flags |= SKD_CFG_EXCLUDE_USER | SKD_CFG_EXCLUDE_KERNEL)
CASE(pid_zero, c->flags |= SKD_CFG_PID; c->pid = 0)
CASE(pid_negative, c->flags |= SKD_CFG_PID; c->pid = -5)
CASE(pid_without_flag, c->pid = getpid())
CASE(pid_missing, c->flags |= SKD_CFG_PID; c->pid = unused_pid)
CASE(mask_odd_size, c->cpumask_bytes = 5; c->cpumask_ptr = (uintptr_t)cpus_ok)
CASE(mask_too_big, c->cpumask_bytes = SKD_CPUMASK_MAX_BYTES + 8;
     c->cpumask_ptr = (uintptr_t)cpus_ok)
CASE(mask_null, c->cpumask_bytes = 8; c->cpumask_ptr = 0)
CASE(mask_empty, c->cpumask_bytes = 8; c->cpumask_ptr = (uintptr_t)cpus_empty)
CASE(mask_no_such_cpu, c->cpumask_bytes = 8; c->cpumask_ptr = (uintptr_t)cpus_bad)
CASE(size_small, c->size = SKD_CONFIG_SIZE_VER0 - 8)
CASE(size_zero, c->size = 0)
CASE(size_huge, c->size = 1 << 20)

static const struct {
	const char *desc;
	void (*mutate)(struct skd_config *c);
	int expect;
} config_cases[] = {
	{ "unknown flag bit", unknown_flag, EOPNOTSUPP },
	{ "reserved field set", reserved_set, EINVAL },
	{ "unknown backend", backend_unknown, EINVAL },
	{ "ring_pages 0", ring_zero, EINVAL },
	{ "ring_pages not a power of two", ring_not_pow2, EINVAL },
	{ "ring_pages above max_ring_pages", ring_too_big, ERANGE },
	{ "frequency 0", freq_zero, EINVAL },
	{ "frequency above max_freq", freq_too_high, ERANGE },
	{ "period 0", period_zero, EINVAL },
	{ "period shorter than 1/max_freq", period_too_short, ERANGE },
	{ "wakeup above half the ring", wakeup_too_big, ERANGE },
	{ "call chain deeper than 127", depth_too_big, ERANGE },
	{ "user and kernel both excluded", exclude_both, EINVAL },
	{ "pid 0", pid_zero, EINVAL },
	{ "negative pid", pid_negative, EINVAL },
	{ "pid without SKD_CFG_PID", pid_without_flag, EINVAL },
	{ "pid of no process", pid_missing, ESRCH },
	{ "cpumask size not whole words", mask_odd_size, EINVAL },
	{ "cpumask larger than 8192 CPUs", mask_too_big, ERANGE },
	{ "cpumask at NULL", mask_null, EFAULT },
	{ "empty cpumask", mask_empty, EINVAL },
	{ "cpumask naming a CPU that does not exist", mask_no_such_cpu, ENXIO },
	{ "struct size below version 0", size_small, EINVAL },
	{ "struct size 0", size_zero, EINVAL },
	{ "struct size above a page", size_huge, E2BIG },
};

#define NR_CONFIG_CASES (int)(sizeof(config_cases) / sizeof(config_cases[0]))

/* The bad config on a fresh session, then a good one on the same fd. */
static void config_case(int i)
{
	struct skd_config cfg = good(), ok = good();
	int fd = skd_dev_open(false), err, err_good;

	config_cases[i].mutate(&cfg);
	err = xioctl(fd, SKD_IOC_CONFIG, &cfg);
	err_good = xioctl(fd, SKD_IOC_CONFIG, &ok);
	ktap_result(err == config_cases[i].expect && !err_good,
		    "CONFIG with %s: %s (got %s), then a good CONFIG works (%s)",
		    config_cases[i].desc, strerror(config_cases[i].expect),
		    strerror(err), strerror(err_good));
	close(fd);
}

static void config_extension(void)
{
	struct {
		struct skd_config cfg;
		uint64_t future[2];
	} big = { .cfg = good() };
	int fd = skd_dev_open(false), err_tail, err_zero;

	big.cfg.size = sizeof(big);
	big.future[1] = 1;
	err_tail = xioctl(fd, SKD_IOC_CONFIG, &big);
	big.future[1] = 0;
	err_zero = xioctl(fd, SKD_IOC_CONFIG, &big);
	ktap_result(err_tail == E2BIG && !err_zero,
		    "a newer, larger config: E2BIG with unknown bytes set (%s), "
		    "accepted when they are zero (%s)", strerror(err_tail),
		    strerror(err_zero));
	close(fd);
}

static void backend_unusable(void)
{
	struct skd_config cfg = good();
	int fd, err;

	if (info.backends & (1U << SKD_BACKEND_INTEL)) {
		ktap_skip("CONFIG of an unusable backend", "this machine has a PMU");
		return;
	}
	fd = skd_dev_open(false);
	cfg.backend = SKD_BACKEND_INTEL;
	err = xioctl(fd, SKD_IOC_CONFIG, &cfg);
	ktap_result(err == ENODEV, "CONFIG of the intel backend without a PMU: "
		    "ENODEV (got %s)", strerror(err));
	close(fd);
}

static void state_machine(void)
{
	struct skd_config cfg = good();
	int fd = skd_dev_open(false);
	int e1, e2, e3, e4, e5, e6, e7, e8;

	e1 = xioctl(fd, SKD_IOC_START, NULL);
	e2 = xioctl(fd, SKD_IOC_STOP, NULL);
	xioctl(fd, SKD_IOC_CONFIG, &cfg);
	e3 = xioctl(fd, SKD_IOC_CONFIG, &cfg);
	e4 = xioctl(fd, SKD_IOC_STOP, NULL);
	e5 = ioctl(fd, SKD_IOC_START, 1) ? errno : 0;
	e6 = xioctl(fd, SKD_IOC_START, NULL);
	e7 = xioctl(fd, SKD_IOC_START, NULL);
	e8 = ioctl(fd, SKD_IOC_STOP, 1) ? errno : 0;
	ktap_result(e1 == EBADFD && e2 == EBADFD, "START/STOP before CONFIG: "
		    "EBADFD (%s, %s)", strerror(e1), strerror(e2));
	ktap_result(e3 == EBUSY, "second CONFIG: EBUSY (%s)", strerror(e3));
	ktap_result(e4 == EALREADY, "STOP when stopped: EALREADY (%s)",
		    strerror(e4));
	ktap_result(e5 == EINVAL && e8 == EINVAL, "START/STOP with an argument: "
		    "EINVAL (%s, %s)", strerror(e5), strerror(e8));
	ktap_result(!e6 && e7 == EALREADY, "START works, a second START: "
		    "EALREADY (%s, %s)", strerror(e6), strerror(e7));
	ktap_result(!xioctl(fd, SKD_IOC_STOP, NULL), "STOP after START works");
	close(fd);
}

static void info_errors(void)
{
	struct {
		struct skd_info info;
		uint8_t more[64];
	} big;
	int fd = skd_dev_open(false), e1, e2, e3, e4;
	struct skd_info small = { .size = SKD_INFO_SIZE_VER0 - 4 };

	e1 = xioctl(fd, SKD_IOC_GET_INFO, NULL);
	e2 = xioctl(fd, SKD_IOC_GET_INFO, &small);
	memset(&big, 0xa5, sizeof(big));
	big.info.size = 1 << 20;
	e3 = xioctl(fd, SKD_IOC_GET_INFO, &big);
	big.info.size = sizeof(big);
	e4 = xioctl(fd, SKD_IOC_GET_INFO, &big);
	ktap_result(e1 == EFAULT && e2 == EINVAL && e3 == E2BIG,
		    "GET_INFO at NULL: EFAULT (%s), size too small: EINVAL (%s), "
		    "above a page: E2BIG (%s)", strerror(e1), strerror(e2),
		    strerror(e3));
	ktap_result(!e4 && big.info.size == sizeof(struct skd_info) &&
		    big.more[0] == 0xa5, "GET_INFO from a newer caller fills %u "
		    "bytes and leaves the rest (%s)", big.info.size, strerror(e4));
	close(fd);
}

static int stats_errno(int fd, struct skd_stats q)
{
	return xioctl(fd, SKD_IOC_GET_STATS, &q);
}

static void stats_errors(void)
{
	struct skd_cpu_stats st[8];
	uint8_t wide[8][80];
	struct skd_stats q = {
		.size = sizeof(q), .nr_cpus = 8, .cpu_stats_size = sizeof(st[0]),
		.cpus_ptr = (uintptr_t)st,
	}, bad;
	struct skd_config cfg = good();
	int fd = skd_dev_open(false), e_before, e;
	bool zeroed = true;
	unsigned int cpu;

	e_before = stats_errno(fd, q);
	xioctl(fd, SKD_IOC_CONFIG, &cfg);
	ktap_result(e_before == EBADFD, "GET_STATS before CONFIG: EBADFD (%s)",
		    strerror(e_before));
	e = xioctl(fd, SKD_IOC_GET_STATS, NULL);
	ktap_result(e == EFAULT, "GET_STATS at NULL: EFAULT (%s)", strerror(e));
	bad = q;
	bad.size = 8;
	e = stats_errno(fd, bad);
	ktap_result(e == EINVAL, "GET_STATS size too small: EINVAL (%s)",
		    strerror(e));
	bad = q;
	bad.cpu_stats_size = 8;
	e = stats_errno(fd, bad);
	ktap_result(e == EINVAL, "GET_STATS entry size too small: EINVAL (%s)",
		    strerror(e));
	bad = q;
	bad.reserved0 = 1;
	e = stats_errno(fd, bad);
	ktap_result(e == EINVAL, "GET_STATS reserved set: EINVAL (%s)",
		    strerror(e));
	bad = q;
	bad.cpus_ptr = 0;
	e = stats_errno(fd, bad);
	ktap_result(e == EFAULT, "GET_STATS array at NULL: EFAULT (%s)",
		    strerror(e));
	bad = q;
	bad.nr_cpus = 0;
	bad.cpus_ptr = 0;
	e = xioctl(fd, SKD_IOC_GET_STATS, &bad);
	ktap_result(!e && bad.nr_cpus == info.nr_cpu_ids,
		    "GET_STATS with no room says how many CPUs (%u, %s)",
		    bad.nr_cpus, strerror(e));
	memset(wide, 0xff, sizeof(wide));
	bad = q;
	bad.cpu_stats_size = sizeof(wide[0]);
	bad.cpus_ptr = (uintptr_t)wide;
	e = stats_errno(fd, bad);
	for (cpu = 0; cpu < info.nr_cpu_ids && cpu < 8; cpu++)
		for (size_t b = sizeof(st[0]); b < sizeof(wide[0]); b++)
			zeroed &= wide[cpu][b] == 0;
	ktap_result(!e && zeroed, "GET_STATS with larger entries zeroes the "
		    "bytes it does not know (%s)", strerror(e));
	close(fd);
}

static void foreign_ioctls(void)
{
	int fd = skd_dev_open(false), e1, e2;
	struct termios t;

	e1 = ioctl(fd, _IO(SKD_IOC_MAGIC, 0x7f), 0) ? errno : 0;
	e2 = ioctl(fd, TCGETS, &t) ? errno : 0;
	ktap_result(e1 == ENOTTY && e2 == ENOTTY, "unknown ioctls: ENOTTY "
		    "(%s, %s)", strerror(e1), strerror(e2));
	close(fd);
}

static pid_t find_unused_pid(void)
{
	pid_t pid;

	for (pid = 30000; pid > 1000; pid--)
		if (kill(pid, 0) && errno == ESRCH)
			return pid;
	return 0;
}

int main(void)
{
	int i;

	test_device_info(&info);
	unused_pid = find_unused_pid();
	cpus_ok[0] = 1;
	cpus_bad[0] = 1ULL << 63;

	ktap_plan(NR_CONFIG_CASES + 19);
	for (i = 0; i < NR_CONFIG_CASES; i++)
		config_case(i);
	config_extension();
	backend_unusable();
	state_machine();
	info_errors();
	stats_errors();
	foreign_ioctls();
	return ktap_finish();
}
