// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "subcommands.h"

int write_atomically(const char *path, int (*fn)(FILE *f, void *arg),
		     void *arg)
{
	size_t len = strlen(path) + sizeof(".XXXXXX");
	char *tmp = malloc(len);
	FILE *f = NULL;
	struct stat st;
	mode_t mask;
	int fd, ret;

	if (!tmp)
		return -ENOMEM;
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "%s: %s is a directory; give a file name to "
			"write\n", PROG_NAME, path);
		free(tmp);
		return -EISDIR;
	}
	snprintf(tmp, len, "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		ret = -errno;
		fprintf(stderr, "%s: cannot create a file beside %s: %s\n",
			PROG_NAME, path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return ret;
	}
	/* mkstemp makes 0600; an output file gets the usual 0666 - umask. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask))
		fprintf(stderr, "%s: warning: %s keeps mode 0600: %s\n",
			PROG_NAME, path, strerror(errno));
	ret = fn(f, arg);
	if (fflush(f) && !ret) {
		ret = -errno;
		fprintf(stderr, "%s: writing %s: %s\n", PROG_NAME, path,
			strerror(errno));
	}
	if (fclose(f) && !ret) {
		ret = -errno;
		fprintf(stderr, "%s: writing %s: %s\n", PROG_NAME, path,
			strerror(errno));
	}
	if (!ret && rename(tmp, path)) {
		ret = -errno;
		fprintf(stderr, "%s: cannot rename %s to %s: %s\n", PROG_NAME,
			tmp, path, strerror(errno));
	}
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}

int finish_stdout(int ret)
{
	int err = errno;	/* a failed write's, when @ret is -EIO */

	if (fflush(stdout))
		err = errno;
	else if (!ferror(stdout) && ret != -EIO)
		return ret;
	if (!err)
		err = EIO;
	fprintf(stderr, "%s: writing standard output: %s\n", PROG_NAME,
		strerror(err));
	return -err;
}
