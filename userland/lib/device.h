/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The three-call facade over /dev/skidless: open a session, configure and
 * drive it, read its counters. Functions return 0 or -errno and leave errno
 * set, so callers can report with skd_explain().
 */
#ifndef _SKD_DEVICE_H
#define _SKD_DEVICE_H

#include <stdbool.h>

#include "skidless.h"

#define SKD_DEVICE_PATH	"/dev/" SKD_DEVICE_NAME

/*
 * Open a session. With @autoload, a missing device makes us load the
 * installed module (modprobe semantics, e.g. after a DKMS install) first.
 */
int skd_dev_open(bool autoload);
/*
 * Whether this process has CAP_PERFMON or CAP_SYS_ADMIN: the module then
 * lets it sample the kernel, every process and whole CPUs; without, it
 * may only have opened the device as a member of the module's access
 * group, for the user space of its own processes.
 */
bool skd_perfmon_capable(void);
int skd_dev_info(int fd, struct skd_info *info);
int skd_dev_config(int fd, const struct skd_config *cfg);
int skd_dev_start(int fd);
int skd_dev_stop(int fd);
/* Per-CPU counters into @st (room for @nr), *@nr_cpu_ids set. */
int skd_dev_stats(int fd, struct skd_cpu_stats *st, unsigned int nr,
		  unsigned int *nr_cpu_ids);

struct skd_event;

/*
 * SKD_IOC_READ_MAPS to completion: @fn is called with every record
 * (decoded; COMM then MMAP per followed process, in tgid order) and may
 * stop the walk by returning non-zero, which is then returned. Returns 0,
 * or -errno (-EBADMSG when the kernel hands back a malformed record).
 */
int skd_dev_read_maps(int fd, int (*fn)(const struct skd_event *ev,
					void *arg), void *arg);

#endif /* _SKD_DEVICE_H */
