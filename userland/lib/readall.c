// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "readall.h"

int skd_read_fd(int fd, size_t max, char **bufp, size_t *lenp)
{
	size_t cap = 0, len = 0, ncap;
	char *buf = NULL, *nb;
	ssize_t r;

	for (;;) {
		if (cap - len < 4096) {
			ncap = cap ? cap * 2 : 16384;
			if (ncap > max) {
				free(buf);
				return -EFBIG;
			}
			/* One more byte for the NUL. */
			nb = realloc(buf, ncap + 1);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap = ncap;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return -errno;
		}
		if (!r)
			break;
		len += (size_t)r;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}
