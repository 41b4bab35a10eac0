/* SPDX-License-Identifier: GPL-2.0 */
/* Scratch directories for unit test groups: made once, removed whole. */
#ifndef _SKD_UNIT_TMP_H
#define _SKD_UNIT_TMP_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>

static inline int unit_rm_entry(const char *path, const struct stat *st, int flag,
			 struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* A new directory @parent/@name.XXXXXX into @dir; 0 or -1. */
static inline int unit_tmpdir_make(char *dir, size_t len, const char *parent,
				   const char *name)
{
	snprintf(dir, len, "%s/%s.XXXXXX", parent, name);
	return mkdtemp(dir) ? 0 : -1;
}

/* $TMPDIR, else /tmp. */
static inline const char *unit_tmp_parent(void)
{
	const char *base = getenv("TMPDIR");

	return base ? base : "/tmp";
}

static inline int unit_tmpdir_remove(const char *dir)
{
	return nftw(dir, unit_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

#endif /* _SKD_UNIT_TMP_H */
