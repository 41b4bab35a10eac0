// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug. The callbacks run on the CPU concerned, in its hotplug
 * thread: after it comes up (and after the kernel's own PMU setup for it),
 * and before it goes down. Sessions keep their rings across the cycle; only
 * sampling pauses.
 */
#include <linux/cpuhotplug.h>

#include "cpu.h"
#include "session.h"

static enum cpuhp_state skd_cpuhp_state;

static int skd_cpu_online(unsigned int cpu)
{
	skd_sessions_cpu_online(cpu);
	return 0;
}

static int skd_cpu_offline(unsigned int cpu)
{
	skd_sessions_cpu_offline(cpu);
	return 0;
}

int skd_cpu_init(void)
{
	int ret;

	/* No session exists yet, so there is nothing to call now. */
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "skidless:online",
					skd_cpu_online, skd_cpu_offline);
	if (ret < 0)
		return ret;
	skd_cpuhp_state = ret;
	return 0;
}

void skd_cpu_uninit(void)
{
	cpuhp_remove_state_nocalls(skd_cpuhp_state);
}
