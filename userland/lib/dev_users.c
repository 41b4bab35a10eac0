// SPDX-License-Identifier: GPL-2.0
/* Who holds /dev/skidless: a scan of /proc/PID/fd and /proc/PID/maps. */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dev_users.h"

static bool has_fd_of(const char *proc, const char *pid, dev_t rdev)
{
	char dir[512], path[1024];
	struct dirent *de;
	struct stat st;
	bool found = false;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/%s/fd", proc, pid);
	d = opendir(dir);
	if (!d)
		return false;	/* gone, or not ours to read */
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		/* stat follows the fd's link to the open file itself. */
		found = !stat(path, &st) && S_ISCHR(st.st_mode) &&
			st.st_rdev == rdev;
	}
	closedir(d);
	return found;
}

/* A maps line ends in the mapped file's path: the device's, when mapped. */
static bool has_mapping_of(const char *proc, const char *pid, const char *dev)
{
	char path[512], *line = NULL, *name;
	size_t cap = 0;
	bool found = false;
	ssize_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/maps", proc, pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && (len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		name = strchr(line, '/');
		found = name && !strcmp(name, dev);
	}
	free(line);
	fclose(f);
	return found;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

int skd_dev_users(const char *proc, const char *dev, pid_t *pids, int max)
{
	struct dirent *de;
	struct stat st;
	int count = 0;
	char *end;
	long pid;
	DIR *d;

	if (stat(dev, &st))
		return -errno;
	if (!S_ISCHR(st.st_mode))
		return -ENOTTY;
	d = opendir(proc);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		pid = strtol(de->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		if (!has_fd_of(proc, de->d_name, st.st_rdev) &&
		    !has_mapping_of(proc, de->d_name, dev))
			continue;
		if (count < max)
			pids[count] = (pid_t)pid;
		count++;
	}
	closedir(d);
	qsort(pids, (size_t)(count < max ? count : max), sizeof(*pids),
	      cmp_pid);
	return count;
}
