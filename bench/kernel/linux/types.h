/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's integer types: the uapi ones (__u64 ...) from the system
 * header this one shadows, u64 and friends and the local_t atomics from
 * the module's own host shim (kmod/host/kernel_shim.h), so the pure
 * sources and these stand-ins agree on every type. Also what the
 * kernel's headers bring along for these sources: memcpy(), errno values,
 * uid_t.
 */
#ifndef _SKD_BENCH_LINUX_TYPES_H
#define _SKD_BENCH_LINUX_TYPES_H

#include_next <linux/types.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>

#include "kernel_shim.h"

#endif /* _SKD_BENCH_LINUX_TYPES_H */
