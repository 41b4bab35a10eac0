// SPDX-License-Identifier: GPL-2.0
/*
 * Why CONFIG may refuse rings with EPERM: the module charges them as perf
 * charges its buffers (kmod/memlock.c): each user may pin mlock_kb per
 * online CPU, the rest counts against the process's RLIMIT_MEMLOCK
 * unless it has CAP_IPC_LOCK. This redoes that sum from what user space
 * can see, to name the limit and the fix.
 */
#include <inttypes.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "memlock_explain.h"

#define MLOCK_KB_PARAM	"/sys/module/skidless/parameters/mlock_kb"
#define MLOCK_KB_DEFAULT 516

static uint64_t mlock_kb(void)
{
	unsigned long long kb = MLOCK_KB_DEFAULT;
	FILE *f = fopen(MLOCK_KB_PARAM, "r");

	if (f) {
		if (fscanf(f, "%llu", &kb) != 1)
			kb = MLOCK_KB_DEFAULT;
		fclose(f);
	}
	return kb;
}

bool skd_memlock_explain(uint64_t ring_pages, uint32_t nr_cpu_ids,
			 char *buf, size_t len)
{
	uint64_t page_kb = (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t need_kb = (uint64_t)nr_cpu_ids * (ring_pages + 1) * page_kb;
	uint64_t free_kb = mlock_kb() * (uint64_t)(online > 0 ? online : 1);
	struct rlimit rl;

	if (need_kb <= free_kb || getrlimit(RLIMIT_MEMLOCK, &rl) ||
	    rl.rlim_cur == RLIM_INFINITY ||
	    need_kb - free_kb <= rl.rlim_cur / 1024)
		return false;
	snprintf(buf, len,
		 "the rings need %" PRIu64 " KiB of pinned memory (%" PRIu64
		 " pages and a control page on each of %u CPUs); beyond the "
		 "%" PRIu64 " KiB the module's mlock_kb gives, that is more "
		 "than RLIMIT_MEMLOCK's %" PRIu64 " KiB: use a smaller -m, "
		 "raise ulimit -l, run with CAP_IPC_LOCK, or raise "
		 MLOCK_KB_PARAM, need_kb, ring_pages, nr_cpu_ids, free_kb,
		 (uint64_t)rl.rlim_cur / 1024);
	return true;
}
