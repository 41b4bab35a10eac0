/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading and unloading the skidless module through libkmod, as modprobe
 * does: by name from /lib/modules/$(uname -r) (where DKMS and make install
 * put it), dependencies first, options from modprobe.d, blacklist honoured.
 * libkmod's own log lines are captured, never written to the terminal.
 */
#ifndef _SKD_KMODLOAD_H
#define _SKD_KMODLOAD_H

#include <stdbool.h>
#include <stddef.h>

#define SKD_MODULE_NAME	"skidless"

/* What a load or unload found out besides its errno. */
struct skd_kmod {
	bool verbose;		/* in: libkmod logs at info level, not err */
	char log[4096];		/* libkmod's log lines, NUL-terminated */
	char path[256];		/* the .ko modprobe chose ("" if none) */
	char bad_param[64];	/* load: a parameter the module lacks */
	char known_params[256];	/* load: the ones it has, ", "-separated */
	char holders[128];	/* unload: modules that use it */
};

/*
 * Load the installed module with the parameters @params ("NAME=VALUE",
 * @nparams of them, may be 0). Returns 0, -EEXIST when it is loaded
 * already (nothing done), -ENOENT when it is not installed, -ECANCELED
 * when modprobe.d blacklists it, -EINVAL for a parameter the module does
 * not have (k->bad_param) or malformed, else the kernel's -errno.
 */
int skd_kmod_load(struct skd_kmod *k, char *const params[], int nparams);

/*
 * Unload it. -ENOENT when not loaded, -EBUSY when in use: by modules
 * (k->holders) or by open files and mappings (see skd_dev_users()).
 */
int skd_kmod_unload(struct skd_kmod *k);

#endif /* _SKD_KMODLOAD_H */
