/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_KMOD_PARAMS_H
#define _SKD_KMOD_PARAMS_H

#include <stddef.h>

/*
 * The command line's NAME[=VALUE] words as one module option string for
 * the kernel ("a=1 b=\"x y\""), each NAME checked against the @nknown
 * names the module declares (modinfo's parm and parmtype). The kernel
 * only warns of a parameter it does not know and loads anyway; we refuse.
 * Returns 0, -EINVAL with the offending word's name in @bad (a name the
 * module lacks, or not a name), -E2BIG when @out is too small.
 */
int skd_kmod_join_params(char *out, size_t len, char *const params[],
			 int nparams, const char *const known[], size_t nknown,
			 char *bad, size_t badlen);

#endif /* _SKD_KMOD_PARAMS_H */
