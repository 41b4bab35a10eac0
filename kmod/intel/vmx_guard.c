// SPDX-License-Identifier: GPL-2.0
/*
 * PEBS and virtual machines. A PEBS assist in VMX non-root mode writes its
 * record through the guest's page tables: Linux takes perf's PEBS counters
 * out of GLOBAL_CTRL and zeroes PEBS_ENABLE at every VM entry
 * (arch/x86/events/intel/core.c intel_guest_get_msrs()), but it knows
 * nothing of skidless's counters, and skidless has no hook on VM entry.
 * So PEBS never runs while this CPU can enter a guest:
 *
 *   - START of a session with PEBS fails with EBUSY while a hypervisor
 *     module is loaded (kvm_intel, VirtualBox's vboxdrv, VMware's vmmon:
 *     each may turn VMX on at any time) or one of its CPUs has VMX on
 *     (CR4.VMXE, struct skd_pmu_ops.virt_active);
 *   - while such a session runs, loading one of those modules fails with
 *     EBUSY (a module notifier vetoes it before its init runs), and says
 *     why in the kernel log.
 *
 * A session and a hypervisor module coming at the same time: each side
 * counts itself before it looks at the other (full barriers of the atomic
 * increments), so at least one of them sees the other.
 */
#include <linux/atomic.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/string.h>

#include "netlink.h"
#include "vmx_guard.h"

static const char *const hypervisors[] = { "kvm_intel", "vboxdrv", "vmmon" };

static atomic_t pebs_sessions = ATOMIC_INIT(0);
/* Loads of each hypervisor module let through since we were loaded. */
static atomic_t coming[ARRAY_SIZE(hypervisors)];

static int hypervisor_index(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hypervisors); i++)
		if (!strcmp(name, hypervisors[i]))
			return i;
	return -1;
}

static bool hypervisor_coming(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hypervisors); i++)
		if (atomic_read(&coming[i]) > 0)
			return true;
	return false;
}

/* A hypervisor module loaded before us: it has a /sys/module entry. */
static const char *hypervisor_loaded(void)
{
	struct kset *modules = THIS_MODULE->mkobj.kobj.kset;
	struct kobject *kobj;
	unsigned int i;

	for (i = 0; modules && i < ARRAY_SIZE(hypervisors); i++) {
		kobj = kset_find_obj(modules, hypervisors[i]);
		if (kobj) {
			kobject_put(kobj);
			return hypervisors[i];
		}
	}
	return NULL;
}

int skd_vmx_guard_get(char *why, size_t len)
{
	const char *hv;

	atomic_inc_return(&pebs_sessions);
	hv = hypervisor_coming() ? "a hypervisor module" : hypervisor_loaded();
	if (!hv)
		return 0;
	atomic_dec(&pebs_sessions);
	snprintf(why, len,
		 "PEBS refused: %s is loaded and can run virtual machines, where PEBS would stay armed; stop the VMs and unload it, or sample without :p",
		 hv);
	return -EBUSY;
}

bool skd_vmx_guard_hypervisor(void)
{
	return hypervisor_coming() || hypervisor_loaded();
}

void skd_vmx_guard_put(void)
{
	atomic_dec(&pebs_sessions);
}

static int module_event(struct notifier_block *nb, unsigned long action,
			void *data)
{
	struct module *mod = data;
	int i = hypervisor_index(mod->name);

	if (i < 0)
		return NOTIFY_DONE;
	if (action == MODULE_STATE_GOING) {
		/* One loaded before us was never counted. */
		atomic_dec_if_positive(&coming[i]);
		return NOTIFY_DONE;
	}
	if (action != MODULE_STATE_COMING)
		return NOTIFY_DONE;
	atomic_inc_return(&coming[i]);
	if (!atomic_read(&pebs_sessions))
		return NOTIFY_DONE;
	atomic_dec(&coming[i]);
	pr_warn_ratelimited("refusing to load %s while a PEBS session runs (guests would run with PEBS armed); stop the session first\n",
			    mod->name);
	skd_nl_refused(NULL, -EBUSY,
		       "refused to load %s while a PEBS session runs (guests would run with PEBS armed); stop the session first",
		       mod->name);
	return notifier_from_errno(-EBUSY);
}

static struct notifier_block module_nb = {
	.notifier_call = module_event,
};

int skd_vmx_guard_init(void)
{
	return register_module_notifier(&module_nb);
}

void skd_vmx_guard_uninit(void)
{
	unregister_module_notifier(&module_nb);
}
