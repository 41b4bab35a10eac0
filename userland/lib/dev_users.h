/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_DEV_USERS_H
#define _SKD_DEV_USERS_H

#include <sys/types.h>

/*
 * The processes that hold the character device @dev (a path, such as
 * /dev/skidless): an open file descriptor of that device (by its rdev,
 * whatever the name it was opened by) or a mapping of it, which pins the
 * module after the fd is closed. @proc is the proc mount ("/proc"; tests
 * pass a tree of their own). Up to @max pids go into @pids, in ascending
 * order; returns how many there are (possibly more than @max), or -errno
 * when @dev or @proc cannot be read. Other users' processes need root.
 */
int skd_dev_users(const char *proc, const char *dev, pid_t *pids, int max);

#endif /* _SKD_DEV_USERS_H */
