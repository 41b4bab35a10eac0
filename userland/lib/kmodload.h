/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_KMODLOAD_H
#define _SKD_KMODLOAD_H

/*
 * Load the skidless module through libkmod: the installed one by name
 * (@path NULL: /lib/modules, as DKMS installs it) or a .ko file, with
 * module parameters @params ("backend=timer ...", may be NULL).
 * Returns 0 (also when already loaded) or -errno.
 */
int skd_kmod_load(const char *path, const char *params);
/* Unload it; -EBUSY while a session is open. */
int skd_kmod_unload(void);

#endif /* _SKD_KMODLOAD_H */
