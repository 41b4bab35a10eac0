// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in named kvm_intel for the VM tests, which cannot load the real
 * one (no VMX under QEMU's TCG): skidless refuses PEBS while a module of
 * this name is loaded and vetoes its loading while PEBS runs
 * (kmod/intel/vmx_guard.c). It does nothing else.
 */
#include <linux/init.h>
#include <linux/module.h>

static int __init stand_in_init(void)
{
	return 0;
}

static void __exit stand_in_exit(void)
{
}

module_init(stand_in_init);
module_exit(stand_in_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("skidless test stand-in for a hypervisor module");
