/* SPDX-License-Identifier: GPL-2.0 */
/* kuid_t, as struct skd_session holds one (its owner). */
#ifndef _SKD_BENCH_LINUX_UIDGID_H
#define _SKD_BENCH_LINUX_UIDGID_H

#include <linux/types.h>

typedef struct {
	uid_t val;
} kuid_t;

#endif /* _SKD_BENCH_LINUX_UIDGID_H */
