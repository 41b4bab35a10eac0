// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "explain.h"

struct explanation {
	enum skd_op op;
	int err;
	const char *text;
};

static const struct explanation table[] = {
	{ SKD_OP_OPEN, ENOENT,
	  "/dev/skidless does not exist: the module is not loaded. Load it with "
	  "`sudo skidless load` (an installed module: DKMS or make install) or "
	  "`sudo insmod skidless.ko`" },
	{ SKD_OP_OPEN, ENODEV,
	  "/dev/skidless exists but no driver answers: reload the module" },
	{ SKD_OP_OPEN, EACCES,
	  "permission denied on /dev/skidless (mode 0600, or 0660 for the "
	  "group skidless with the package's udev rule): run as root, or join "
	  "the device's group (`sudo adduser $USER skidless`, then log in "
	  "again)" },
	{ SKD_OP_OPEN, EPERM,
	  "opening /dev/skidless needs CAP_PERFMON or CAP_SYS_ADMIN (run as "
	  "root, or grant the capability: setcap cap_perfmon+ep skidless), or "
	  "membership of the group the module's access_gid names (see "
	  "skidless(4)), and a kernel not locked down for confidentiality "
	  "(see /sys/kernel/security/lockdown)" },
	{ SKD_OP_CONFIG, EOPNOTSUPP,
	  "the loaded module does not know a setting this skidless uses: it is "
	  "older than the tool; load the module that came with this skidless" },
	{ SKD_OP_CONFIG, E2BIG,
	  "the loaded module is older than this skidless and does not know "
	  "some settings: load the module that came with this skidless" },
	{ SKD_OP_CONFIG, ENODEV,
	  "that backend cannot run on this machine: `skidless info` says which "
	  "backends are usable and why the others are not" },
	{ SKD_OP_CONFIG, ESRCH,
	  "no such process: check the -p PID (it may have exited)" },
	{ SKD_OP_CONFIG, ERANGE,
	  "a value is beyond the module's limits: -F above max_freq (timer) or "
	  "the throttling rate (PMU backends), -m above max_ring_pages, or a "
	  "call-chain depth above 127 (see `skidless info`)" },
	{ SKD_OP_CONFIG, ENXIO,
	  "a CPU in -C does not exist on this machine (see "
	  "/sys/devices/system/cpu/possible)" },
	{ SKD_OP_CONFIG, EINVAL,
	  "the module rejected the session: -m must be a power of two, -F "
	  "above 0, -C not empty, not both user and kernel excluded, and "
	  "--idle only with -a or -C on the timer backend" },
	{ SKD_OP_CONFIG, EACCES,
	  "without CAP_PERFMON (as a member of the module's access_gid group) "
	  "a session samples only the user space of your own processes: a "
	  "command, or -p of a process of yours; -a and -C need CAP_PERFMON" },
	{ SKD_OP_CONFIG, EBUSY,
	  "this session is configured already: open a new one" },
	{ SKD_OP_CONFIG, ENOSPC,
	  "the events do not fit the PMU's counters: use fewer -e events "
	  "(`skidless info --pmu` gives the counters)" },
	{ SKD_OP_CONFIG, EPERM,
	  "refused: PEBS while kernel page-table isolation is on (boot with "
	  "pti=off, or drop the p modifiers), or rings larger than the memory "
	  "you may pin (a smaller -m, ulimit -l, CAP_IPC_LOCK, or the "
	  "module's mlock_kb); the kernel log says which" },
	{ SKD_OP_START, EBUSY,
	  "the PMU is in use by another skidless session, perf or the NMI "
	  "watchdog: stop them (sysctl kernel.nmi_watchdog=0) and retry" },
	{ SKD_OP_CONFIG, ENOMEM,
	  "not enough memory for the rings: use a smaller -m" },
	{ SKD_OP_MMAP, EINVAL,
	  "mapping a ring failed: the module and this skidless disagree on the "
	  "ring layout; load the module that came with this skidless" },
	{ SKD_OP_MMAP, EPERM,
	  "ring data can only be mapped read-only" },
	{ SKD_OP_MMAP, EPROTO,
	  "a ring's control page is not in a layout this skidless reads (a "
	  "newer ring version, or another ring's): load the module that came "
	  "with this skidless" },
	{ SKD_OP_START, EBADFD,
	  "the session must be configured before it starts" },
	{ SKD_OP_START, EALREADY, "the session is running already" },
	{ SKD_OP_STOP, EALREADY, "the session is not running" },
	{ SKD_OP_INFO, ENOTTY,
	  "/dev/skidless does not understand this request: the module is "
	  "from another skidless version; load the matching one" },
};

const char *skd_explain(enum skd_op op, int err)
{
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].op == op && table[i].err == err)
			return table[i].text;
	if (err == EFAULT)
		return "the module could not read our arguments (EFAULT): a bug "
		       "in skidless; please report it";
	return strerror(err);
}
