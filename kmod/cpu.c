// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug and system sleep. The hotplug callbacks run on the CPU
 * concerned, in its hotplug thread: after it comes up (and after the
 * kernel's own PMU setup for it), and before it goes down. Suspend takes
 * every other CPU down that way; the boot CPU stays, and its PMU state is
 * lost to firmware, so syscore ops stop its sessions (restoring the MSRs)
 * before and program them again after, once the local APIC is back.
 * Sessions keep their rings across both; only sampling pauses.
 *
 * The syscore ops are registered while a configured session exists, from
 * the first CONFIG, not at load: resume runs them in the order they were
 * registered, so ours come after the kernel's (the local APIC) and after
 * whatever was loaded before the first session (the simulated PMU,
 * standing in for firmware, resets its registers first).
 */
#include <linux/cpuhotplug.h>
#include <linux/mutex.h>

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

static struct skd_syscore skd_syscore = {
	.ops = {
		.suspend	= skd_cpu_suspend,
		.resume		= skd_cpu_resume,
	},
};

static DEFINE_MUTEX(skd_sleep_lock);
static unsigned int skd_sleep_users;

void skd_cpu_sleep_get(void)
{
	mutex_lock(&skd_sleep_lock);
	if (!skd_sleep_users++)
		skd_register_syscore(&skd_syscore);
	mutex_unlock(&skd_sleep_lock);
}

void skd_cpu_sleep_put(void)
{
	mutex_lock(&skd_sleep_lock);
	if (!--skd_sleep_users)
		skd_unregister_syscore(&skd_syscore);
	mutex_unlock(&skd_sleep_lock);
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

/* Every session is gone by now, and with them the syscore ops. */
void skd_cpu_uninit(void)
{
	cpuhp_remove_state_nocalls(skd_cpuhp_state);
}
