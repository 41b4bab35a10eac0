// SPDX-License-Identifier: GPL-2.0
/*
 * Pinned memory is charged like perf's buffers (kmod/memlock.c): a user
 * gets mlock_kb per online CPU for nothing, the rest counts against the
 * process's RLIMIT_MEMLOCK (in VmPin) unless it has CAP_IPC_LOCK, and it
 * all comes back when the session closes. The test drops CAP_IPC_LOCK
 * from its effective set and plays with the limit; the timer backend's
 * rings are what it pins.
 */
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ktap.h"
#include "pmulib.h"
#include "testlib.h"

#define MLOCK_KB	"/sys/module/skidless/parameters/mlock_kb"

/* CAP_IPC_LOCK in or out of the effective set (raw capset: no libcap). */
static int ipc_lock(bool on)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	if (on)
		data[0].effective |= 1U << CAP_IPC_LOCK;
	else
		data[0].effective &= ~(1U << CAP_IPC_LOCK);
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

static int memlock_limit(unsigned long bytes)
{
	struct rlimit r = { bytes, bytes };

	return setrlimit(RLIMIT_MEMLOCK, &r) ? -errno : 0;
}

/* VmPin of this process, KiB; -1 if unreadable. */
static long vm_pin_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* CONFIG of a timer session with @pages per ring: its errno, open in @s. */
static int open_rings(struct test_session *s, uint32_t pages)
{
	struct skd_config cfg = test_config(1000, pages, 0);

	return session_open(s, &cfg);
}

int main(void)
{
	struct skd_info info;
	struct test_session s;
	uint64_t mlock_kb = 0;
	unsigned long allowance, pages;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), pin_open, pin_closed;
	int small, big, fits, capable;
	uint32_t big_pages;

	ktap_plan(4);
	test_device_info(&info);
	if (read_u64(MLOCK_KB, &mlock_kb) || ipc_lock(false) ||
	    memlock_limit(64 * 1024))
		ktap_fail_all("cannot read mlock_kb, drop CAP_IPC_LOCK or set RLIMIT_MEMLOCK");
	allowance = mlock_kb / 4 * cpus;
	/* Rings of nr_cpu_ids CPUs, each its pages and a control page. */
	big_pages = 256;
	while (info.nr_cpu_ids * (big_pages + 1UL) <= allowance + 64)
		big_pages *= 2;
	pages = info.nr_cpu_ids * (big_pages + 1UL);
	ktap_diag("allowance %lu pages (mlock_kb %llu x %ld CPUs); a session "
		  "of %u-page rings pins %lu pages on %u CPU ids", allowance,
		  (unsigned long long)mlock_kb, cpus, big_pages, pages,
		  info.nr_cpu_ids);

	small = open_rings(&s, 4);
	pin_open = vm_pin_kb();
	if (!small)
		session_close(&s);
	ktap_result(!small && pin_open == 0,
		    "rings within the user's allowance pin nothing of the "
		    "process's limit (%s, VmPin %ld kB)", strerror(-small),
		    pin_open);

	big = open_rings(&s, big_pages);
	if (!big)
		session_close(&s);
	ktap_result(big == -EPERM,
		    "beyond the allowance and a 64 KiB RLIMIT_MEMLOCK, without "
		    "CAP_IPC_LOCK: EPERM (%s)", strerror(-big));

	memlock_limit((pages - allowance + 16) * 4096);
	fits = open_rings(&s, big_pages);
	pin_open = vm_pin_kb();
	if (!fits)
		session_close(&s);
	pin_closed = vm_pin_kb();
	ktap_result(!fits && pin_open == (long)(pages - allowance) * 4 &&
		    pin_closed == 0,
		    "with the limit raised the rest is charged to VmPin "
		    "(%ld kB, %lu expected) and given back at close (%ld kB)",
		    pin_open, (pages - allowance) * 4, pin_closed);

	memlock_limit(64 * 1024);
	ipc_lock(true);
	capable = open_rings(&s, big_pages);
	if (!capable)
		session_close(&s);
	ktap_result(!capable, "with CAP_IPC_LOCK there is no limit, as in perf "
		    "(%s)", strerror(-capable));
	return ktap_finish();
}
