/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_READALL_H
#define _SKD_READALL_H

#include <stddef.h>

/*
 * Read @fd to its end into a new NUL-terminated buffer (*@bufp, *@lenp
 * bytes before the NUL). Made for /proc files, whose st_size says 0.
 * Returns 0, or -errno: -EFBIG past @max bytes, -ENOMEM, read errors.
 */
int skd_read_fd(int fd, size_t max, char **bufp, size_t *lenp);

#endif /* _SKD_READALL_H */
