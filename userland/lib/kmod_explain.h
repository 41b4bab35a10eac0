/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sentences naming the fix for what `skidless load` and `skidless unload`
 * (libkmod, init_module(2), delete_module(2)) return.
 */
#ifndef _SKD_KMOD_EXPLAIN_H
#define _SKD_KMOD_EXPLAIN_H

#include <stdbool.h>

enum skd_kmod_op {
	SKD_KMOD_LOAD,
	SKD_KMOD_UNLOAD,
};

/*
 * A sentence for @err (positive errno) from @op; never NULL. @locked_down:
 * the kernel is in lockdown (Secure Boot), where an unsigned or
 * wrongly signed module is refused with EPERM rather than EKEYREJECTED.
 */
const char *skd_kmod_explain(enum skd_kmod_op op, int err, bool locked_down);

/*
 * Whether @path (NULL: /sys/kernel/security/lockdown) names a lockdown
 * mode other than none ("none [integrity] confidentiality").
 */
bool skd_lockdown_active(const char *path);

#endif /* _SKD_KMOD_EXPLAIN_H */
