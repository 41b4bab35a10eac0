// SPDX-License-Identifier: GPL-2.0
/*
 * Ring mappings: the right ones work, and a wrong size, offset, protection
 * or sharing mode fails; data can never become writable.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "testlib.h"

#define RING_PAGES	4

static int fd;
static size_t page;

/* errno of the mmap, 0 when it mapped (and is unmapped again). */
static int map_errno(size_t len, int prot, int flags, uint64_t off)
{
	void *p = mmap(NULL, len, prot, flags, fd, off);

	if (p == MAP_FAILED)
		return errno;
	munmap(p, len);
	return 0;
}

static void check(const char *desc, size_t len, int prot, int flags,
		  uint64_t off, int expect)
{
	int err = map_errno(len, prot, flags, off);

	ktap_result(err == expect, "%s: %s (got %s)", desc,
		    expect ? strerror(expect) : "maps", err ? strerror(err) : "maps");
}

int main(void)
{
	const int rw = PROT_READ | PROT_WRITE;
	struct skd_config cfg = test_config(100, RING_PAGES, 0);
	struct skd_info info;
	size_t data;
	uint64_t ctl0 = SKD_MMAP_OFFSET(0, SKD_MMAP_CONTROL);
	uint64_t dat0 = SKD_MMAP_OFFSET(0, SKD_MMAP_DATA);
	void *p;
	int err;

	fd = skd_dev_open(false);
	if (fd < 0)
		ktap_fail_all("cannot open /dev/skidless");
	skd_dev_info(fd, &info);
	page = info.page_size;
	data = RING_PAGES * page;
	/* CPU 0's ring must fill while this process sleeps: idle samples. */
	cfg.flags |= SKD_CFG_IDLE;

	ktap_plan(15);
	check("mmap before CONFIG", page, rw, MAP_SHARED, ctl0, EBADFD);
	if (skd_dev_config(fd, &cfg)) {
		printf("Bail out! CONFIG failed\n");
		return KTAP_FAIL;
	}
	check("control page read-write", page, rw, MAP_SHARED, ctl0, 0);
	check("data read-only", data, PROT_READ, MAP_SHARED, dat0, 0);
	check("data twice over", 2 * data, PROT_READ, MAP_SHARED, dat0, 0);
	check("writable data", data, rw, MAP_SHARED, dat0, EPERM);
	check("control page, two pages long", 2 * page, rw, MAP_SHARED, ctl0,
	      EINVAL);
	check("data, one page short", data - page, PROT_READ, MAP_SHARED, dat0,
	      EINVAL);
	check("data, three times over", 3 * data, PROT_READ, MAP_SHARED, dat0,
	      EINVAL);
	check("private mapping", page, PROT_READ, MAP_PRIVATE, ctl0, EINVAL);
	check("offset inside a region", page, PROT_READ, MAP_SHARED,
	      ctl0 + page, EINVAL);
	check("unknown region", page, PROT_READ, MAP_SHARED,
	      SKD_MMAP_OFFSET(0, 7), EINVAL);
	check("CPU beyond nr_cpu_ids", page, PROT_READ, MAP_SHARED,
	      SKD_MMAP_OFFSET(info.nr_cpu_ids, SKD_MMAP_CONTROL), EINVAL);

	/* A read-only data mapping must not become writable later. */
	p = mmap(NULL, data, PROT_READ, MAP_SHARED, fd, dat0);
	err = p == MAP_FAILED ? errno : (mprotect(p, data, rw) ? errno : 0);
	ktap_result(err == EACCES, "mprotect of data to writable: EACCES "
		    "(got %s)", strerror(err));
	if (p != MAP_FAILED)
		munmap(p, data);

	/* The two halves of a double mapping are the same memory. */
	p = mmap(NULL, 2 * data, PROT_READ, MAP_SHARED, fd, dat0);
	if (p != MAP_FAILED) {
		struct skd_ring_ctrl *c = mmap(NULL, page, rw, MAP_SHARED, fd,
					       ctl0);

		skd_dev_start(fd);
		sleep_seconds(0.3);
		skd_dev_stop(fd);
		ktap_result(c != MAP_FAILED && c->data_head > 0 &&
			    !memcmp(p, (char *)p + data, data),
			    "double mapping shows the same bytes twice "
			    "(head %llu)", c != MAP_FAILED ?
			    (unsigned long long)c->data_head : 0ULL);
		ktap_result(c != MAP_FAILED && c->version == SKD_RING_VERSION &&
			    c->data_size == data && c->cpu == 0 &&
			    c->data_offset == dat0,
			    "control page describes the ring");
		if (c != MAP_FAILED)
			munmap(c, page);
		munmap(p, 2 * data);
	} else {
		ktap_result(false, "double mapping: %s", strerror(errno));
		ktap_result(false, "control page describes the ring");
	}
	close(fd);
	return ktap_finish();
}
