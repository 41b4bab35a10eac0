// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug and system sleep. The hotplug callbacks run on the CPU
 * concerned, in its hotplug thread: after it comes up (and after the
 * kernel's own PMU setup for it), and before it goes down. Suspend takes
 * every other CPU down that way; the boot CPU stays, and its PMU state is
 * lost to firmware, so syscore ops stop its sessions (restoring the MSRs)
 * before and program them again after, once the local APIC is back.
 * Sessions keep their rings across both; only sampling pauses.
 */
#include <linux/cpuhotplug.h>
#include <linux/syscore_ops.h>

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

static int skd_cpu_suspend(void)
{
	skd_sessions_cpu_sleep(false);
	return 0;
}

static void skd_cpu_resume(void)
{
	skd_sessions_cpu_sleep(true);
}

/* Registered after the kernel's own: resumed after the local APIC. */
static struct syscore_ops skd_syscore_ops = {
	.suspend	= skd_cpu_suspend,
	.resume		= skd_cpu_resume,
};

int skd_cpu_init(void)
{
	int ret;

	/* No session exists yet, so there is nothing to call now. */
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "skidless:online",
					skd_cpu_online, skd_cpu_offline);
	if (ret < 0)
		return ret;
	skd_cpuhp_state = ret;
	register_syscore_ops(&skd_syscore_ops);
	return 0;
}

void skd_cpu_uninit(void)
{
	unregister_syscore_ops(&skd_syscore_ops);
	cpuhp_remove_state_nocalls(skd_cpuhp_state);
}
