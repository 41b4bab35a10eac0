/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_CPULIST_H
#define _SKD_CPULIST_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse a CPU list ("0-3,8,10-11", the format of -C and of
 * /sys/devices/system/cpu/possible) into a bitmap of @nwords 64-bit words.
 * Returns the number of CPUs set, or -EINVAL (malformed), -ERANGE (a CPU
 * beyond the bitmap).
 */
int skd_cpulist_parse(const char *s, uint64_t *mask, size_t nwords);

/* The possible CPUs of this machine, as a bitmap; 0 or -errno. */
int skd_cpus_possible(uint64_t *mask, size_t nwords);
/* The online CPUs, as a bitmap; 0 or -errno. */
int skd_cpus_online(uint64_t *mask, size_t nwords);

/*
 * @mask as a CPU list ("0-3,8"), the inverse of skd_cpulist_parse();
 * when @len is too small, the ranges that fit.
 */
void skd_cpulist_format(const uint64_t *mask, size_t nwords, char *buf,
			size_t len);

static inline int skd_cpu_isset(const uint64_t *mask, unsigned int cpu)
{
	return (mask[cpu / 64] >> (cpu % 64)) & 1;
}

#endif /* _SKD_CPULIST_H */
