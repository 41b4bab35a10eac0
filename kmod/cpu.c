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

#include "compat.h"
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

static int skd_cpu_suspend(SKD_SYSCORE_ARGS)
{
	skd_sessions_cpu_sleep(false);
	return 0;
}

static void skd_cpu_resume(SKD_SYSCORE_ARGS)
{
	skd_sessions_cpu_sleep(true);
}

/* Registered after the kernel's own: resumed after the local APIC. */
static struct skd_syscore skd_syscore = {
	.ops = {
		.suspend	= skd_cpu_suspend,
		.resume		= skd_cpu_resume,
	},
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
	skd_register_syscore(&skd_syscore);
	return 0;
}

void skd_cpu_uninit(void)
{
	skd_unregister_syscore(&skd_syscore);
	cpuhp_remove_state_nocalls(skd_cpuhp_state);
}
