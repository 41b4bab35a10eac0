// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"

static int parse_num(const char **p, unsigned long *v)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	errno = 0;
	*v = strtoul(*p, &end, 10);
	if (errno)
		return -ERANGE;
	*p = end;
	return 0;
}

int skd_cpulist_parse(const char *s, uint64_t *mask, size_t nwords)
{
	unsigned long lo, hi, cpu;
	const char *p = s;
	int count = 0, ret;

	memset(mask, 0, nwords * sizeof(*mask));
	while (*p && *p != '\n') {
		/* A number too big for strtoul is beyond the bitmap too. */
		ret = parse_num(&p, &lo);
		if (ret)
			return ret;
		hi = lo;
		if (*p == '-') {
			p++;
			ret = parse_num(&p, &hi);
			if (ret)
				return ret;
			if (hi < lo)
				return -EINVAL;
		}
		if (hi >= nwords * 64)
			return -ERANGE;
		for (cpu = lo; cpu <= hi; cpu++) {
			if (!skd_cpu_isset(mask, cpu))
				count++;
			mask[cpu / 64] |= 1ULL << (cpu % 64);
		}
		if (*p == ',') {
			/* A comma always announces another range. */
			if (!*++p || *p == '\n')
				return -EINVAL;
		} else if (*p && *p != '\n') {
			return -EINVAL;
		}
	}
	return count ? count : -EINVAL;
}

/* A sysfs CPU list file (possible, online) into @mask. */
static int read_cpu_file(const char *path, uint64_t *mask, size_t nwords)
{
	char buf[4096];
	size_t n;
	FILE *f;
	int ret;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	ret = skd_cpulist_parse(buf, mask, nwords);
	return ret < 0 ? ret : 0;
}

int skd_cpus_possible(uint64_t *mask, size_t nwords)
{
	return read_cpu_file("/sys/devices/system/cpu/possible", mask, nwords);
}

int skd_cpus_online(uint64_t *mask, size_t nwords)
{
	return read_cpu_file("/sys/devices/system/cpu/online", mask, nwords);
}

void skd_cpulist_format(const uint64_t *mask, size_t nwords, char *buf,
			size_t len)
{
	size_t cpu = 0, end, pos = 0, max = nwords * 64;
	int n;

	if (!len)
		return;
	buf[0] = '\0';
	while (cpu < max) {
		if (!skd_cpu_isset(mask, cpu)) {
			cpu++;
			continue;
		}
		for (end = cpu; end + 1 < max && skd_cpu_isset(mask, end + 1);
		     end++)
			;
		if (end == cpu)
			n = snprintf(buf + pos, len - pos, "%s%zu",
				     pos ? "," : "", cpu);
		else
			n = snprintf(buf + pos, len - pos, "%s%zu-%zu",
				     pos ? "," : "", cpu, end);
		if (n < 0 || (size_t)n >= len - pos) {
			/* Cut at the last whole range rather than mid-number. */
			buf[pos] = '\0';
			return;
		}
		pos += (size_t)n;
		cpu = end + 1;
	}
}
