/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files written whole or not at all: through a temporary beside
 * the target, renamed over it only when the writing succeeded, so a
 * failure leaves the previous file as it was.
 */
#ifndef _SKD_OUTFILE_H
#define _SKD_OUTFILE_H

#include <stdio.h>

/*
 * @fn(f, @arg) writes the content (0, or -errno after saying why on
 * stderr). Returns 0 or -errno; every failure is said on stderr.
 */
int write_atomically(const char *path, int (*fn)(FILE *f, void *arg),
		     void *arg);

/*
 * Flush standard output; when that fails, or @ret says the writing did
 * (-EIO), say why on stderr. Returns 0 when all went out, else -errno.
 */
int finish_stdout(int ret);

#endif /* _SKD_OUTFILE_H */
