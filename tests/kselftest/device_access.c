// SPDX-License-Identifier: GPL-2.0
/*
 * Who may open /dev/skidless: only callers with CAP_PERFMON or
 * CAP_SYS_ADMIN (EPERM otherwise), behind a 0600 root-owned node.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "testlib.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif

/* Drop @caps from the effective set of this process. */
static int drop_caps(const int *caps, int n)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	int i;

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	for (i = 0; i < n; i++)
		data[caps[i] / 32].effective &= ~(1U << (caps[i] % 32));
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

/* errno of open() in a child after @setup, 0 if it opened. */
static int open_errno_after(int (*setup)(void))
{
	int status, fd, err;
	pid_t pid = fork();

	if (!pid) {
		err = setup();
		if (err)
			_exit(200);
		fd = open(SKD_DEVICE_PATH, O_RDWR);
		_exit(fd >= 0 ? 0 : errno);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int without_perf_caps(void)
{
	static const int caps[] = { CAP_PERFMON, CAP_SYS_ADMIN };

	return drop_caps(caps, 2);
}

static int without_sys_admin(void)
{
	static const int caps[] = { CAP_SYS_ADMIN };

	return drop_caps(caps, 1);
}

static int without_perfmon(void)
{
	static const int caps[] = { CAP_PERFMON };

	return drop_caps(caps, 1);
}

static int as_nobody(void)
{
	return setgid(65534) || setuid(65534) ? -errno : 0;
}

static int as_root(void)
{
	return 0;
}

int main(void)
{
	struct stat st;
	int err;

	ktap_plan(6);
	if (stat(SKD_DEVICE_PATH, &st))
		ktap_fail_all("no /dev/skidless: module not loaded");

	ktap_result(S_ISCHR(st.st_mode) && (st.st_mode & 07777) == 0600 &&
		    st.st_uid == 0, "device is a root-owned 0600 char node "
		    "(mode %o, uid %u)", st.st_mode & 07777, st.st_uid);

	err = open_errno_after(as_root);
	ktap_result(err == 0, "root opens it (errno %d)", err);

	err = open_errno_after(without_perf_caps);
	ktap_result(err == EPERM, "without CAP_PERFMON and CAP_SYS_ADMIN: "
		    "EPERM (got %d)", err);

	err = open_errno_after(without_sys_admin);
	ktap_result(err == 0, "CAP_PERFMON alone suffices (errno %d)", err);

	err = open_errno_after(without_perfmon);
	ktap_result(err == 0, "CAP_SYS_ADMIN alone suffices (errno %d)", err);

	err = open_errno_after(as_nobody);
	ktap_result(err == EACCES, "an unprivileged user is kept out by "
		    "the mode: EACCES (got %d)", err);
	return ktap_finish();
}
