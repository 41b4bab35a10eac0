/* SPDX-License-Identifier: GPL-2.0 */
/* PEBS never runs while a CPU can enter a guest (vmx_guard.c). */
#ifndef _SKD_INTEL_VMX_GUARD_H
#define _SKD_INTEL_VMX_GUARD_H

#include <linux/types.h>

/*
 * A session with PEBS is about to start: 0, or -EBUSY with the reason and
 * the fix in @why when a hypervisor module is loaded. Pair with put().
 */
int skd_vmx_guard_get(char *why, size_t len);
void skd_vmx_guard_put(void);
/* Is a hypervisor module loaded or loading (what GET_PMU reports)? */
bool skd_vmx_guard_hypervisor(void);

int skd_vmx_guard_init(void);
void skd_vmx_guard_uninit(void);

#endif /* _SKD_INTEL_VMX_GUARD_H */
