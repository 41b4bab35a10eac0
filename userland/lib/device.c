// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "decode.h"
#include "device.h"
#include "kmod_explain.h"
#include "kmodload.h"

static int ret_errno(int ret)
{
	if (ret < 0) {
		ret = -errno;
		errno = -ret;
	}
	return ret;
}

/* The module, loaded as `skidless load` does; says so on stderr. */
static void autoload_module(void)
{
	struct skd_kmod k = {};
	int ret;

	fprintf(stderr, "skidless: %s is missing: loading the skidless "
		"module\n", SKD_DEVICE_PATH);
	ret = skd_kmod_load(&k, NULL, 0);
	if (!ret)
		fprintf(stderr, "skidless: loaded %s\n", k.path);
	else
		fprintf(stderr, "skidless: could not load it: %s\n",
			skd_kmod_explain(SKD_KMOD_LOAD, -ret,
					 skd_lockdown_active(NULL)));
}

int skd_dev_open(bool autoload)
{
	int fd = open(SKD_DEVICE_PATH, O_RDWR | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT && autoload) {
		autoload_module();
		fd = open(SKD_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	}
	if (fd < 0)
		return ret_errno(-1);
	return fd;
}

#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif

bool skd_perfmon_capable(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};

	if (syscall(SYS_capget, &hdr, data))
		return true;	/* let the module decide */
	return (data[CAP_PERFMON / 32].effective & (1U << (CAP_PERFMON % 32))) ||
	       (data[CAP_SYS_ADMIN / 32].effective &
		(1U << (CAP_SYS_ADMIN % 32)));
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

int skd_dev_read_maps(int fd, int (*fn)(const struct skd_event *ev,
					void *arg), void *arg)
{
	struct skd_read_maps rm = {
		.size = sizeof(rm),
		.buf_len = 64 * 1024,
	};
	struct skd_event ev;
	uint64_t *buf;
	size_t at;
	int ret = 0, n;

	/* 8-byte aligned, as skd_decode() wants. */
	buf = malloc(rm.buf_len);
	if (!buf)
		return -ENOMEM;
	rm.buf_ptr = (uintptr_t)buf;
	for (;;) {
		ret = ret_errno(ioctl(fd, SKD_IOC_READ_MAPS, &rm));
		if (ret || !rm.bytes)
			break;
		if (rm.bytes > rm.buf_len) {
			ret = -EBADMSG;
			break;
		}
		for (at = 0; at < rm.bytes; at += (size_t)n) {
			n = skd_decode((const uint8_t *)buf + at, rm.bytes - at,
				       &ev);
			if (n < 0) {
				ret = -EBADMSG;
				goto out;
			}
			ret = fn(&ev, arg);
			if (ret)
				goto out;
		}
	}
out:
	free(buf);
	return ret;
}
