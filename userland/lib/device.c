// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "device.h"
#include "kmodload.h"

static int ret_errno(int ret)
{
	if (ret < 0) {
		ret = -errno;
		errno = -ret;
	}
	return ret;
}

int skd_dev_open(bool autoload)
{
	int fd = open(SKD_DEVICE_PATH, O_RDWR | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT && autoload &&
	    skd_kmod_load(NULL, NULL) == 0)
		fd = open(SKD_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return ret_errno(-1);
	return fd;
}

int skd_dev_info(int fd, struct skd_info *info)
{
	info->size = sizeof(*info);
	return ret_errno(ioctl(fd, SKD_IOC_GET_INFO, info));
}

int skd_dev_config(int fd, const struct skd_config *cfg)
{
	return ret_errno(ioctl(fd, SKD_IOC_CONFIG, cfg));
}

int skd_dev_start(int fd)
{
	return ret_errno(ioctl(fd, SKD_IOC_START, 0));
}

int skd_dev_stop(int fd)
{
	return ret_errno(ioctl(fd, SKD_IOC_STOP, 0));
}

int skd_dev_stats(int fd, struct skd_cpu_stats *st, unsigned int nr,
		  unsigned int *nr_cpu_ids)
{
	struct skd_stats q = {
		.size = sizeof(q),
		.nr_cpus = nr,
		.cpu_stats_size = sizeof(*st),
		.cpus_ptr = (uintptr_t)st,
	};
	int ret = ret_errno(ioctl(fd, SKD_IOC_GET_STATS, &q));

	if (!ret && nr_cpu_ids)
		*nr_cpu_ids = q.nr_cpus;
	return ret;
}
