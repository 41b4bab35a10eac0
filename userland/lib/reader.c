// SPDX-License-Identifier: GPL-2.0
/*
 * Draining follows the reader loop documented in uapi/skidless.h: acquire
 * data_head, walk records, release data_tail. The data region is mapped
 * twice back to back, so a record is contiguous even where it wraps.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cpulist.h"
#include "reader.h"

#define MAX_CPU_WORDS	(SKD_CPUMASK_MAX_BYTES / 8)

struct ring_map {
	struct skd_ring_ctrl *ctrl;	/* NULL: no ring for this CPU */
	const uint8_t *data;
	uint64_t size;
};

struct skd_reader {
	struct ring_map *rings;
	unsigned int nr;
	size_t page_size;
	uint64_t corrupt;
};

int skd_ring_ctrl_check(const struct skd_ring_ctrl *c, unsigned int cpu,
			uint64_t data_size)
{
	/* A newer layout still serves ours when compat_version says so. */
	if (c->compat_version > SKD_RING_VERSION || !c->version ||
	    c->version < c->compat_version ||
	    c->size < offsetof(struct skd_ring_ctrl, data_tail) +
		      sizeof(c->data_tail) ||
	    c->cpu != cpu || c->data_size != data_size)
		return -EPROTO;
	return 0;
}

static int map_ring(int fd, unsigned int cpu, struct ring_map *m,
		    size_t page_size, uint64_t size)
{
	void *ctrl, *data;

	ctrl = mmap(NULL, page_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    SKD_MMAP_OFFSET(cpu, SKD_MMAP_CONTROL));
	if (ctrl == MAP_FAILED)
		return -errno;
	if (skd_ring_ctrl_check(ctrl, cpu, size)) {
		munmap(ctrl, page_size);
		return -EPROTO;
	}
	data = mmap(NULL, 2 * size, PROT_READ, MAP_SHARED, fd,
		    SKD_MMAP_OFFSET(cpu, SKD_MMAP_DATA));
	if (data == MAP_FAILED) {
		int err = -errno;

		munmap(ctrl, page_size);
		return err;
	}
	m->ctrl = ctrl;
	m->data = data;
	m->size = size;
	return 0;
}

struct skd_reader *skd_reader_open(int fd, const struct skd_info *info,
				   unsigned int ring_pages)
{
	uint64_t possible[MAX_CPU_WORDS];
	struct skd_reader *r;
	unsigned int cpu;
	int ret;

	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->page_size = info->page_size;
	r->nr = info->nr_cpu_ids;
	r->rings = calloc(r->nr, sizeof(*r->rings));
	if (!r->rings)
		goto err;
	if (skd_cpus_possible(possible, MAX_CPU_WORDS))
		goto err;

	for (cpu = 0; cpu < r->nr; cpu++) {
		if (cpu >= MAX_CPU_WORDS * 64 || !skd_cpu_isset(possible, cpu))
			continue;
		ret = map_ring(fd, cpu, &r->rings[cpu], r->page_size,
			       (uint64_t)ring_pages * r->page_size);
		if (ret) {
			errno = -ret;
			goto err;
		}
	}
	return r;
err:
	ret = errno;
	skd_reader_close(r);
	errno = ret;
	return NULL;
}

/*
 * The whole record must be readable and sane before anyone looks at it.
 * Records start 8-byte aligned; a tail that is not has been resynced to
 * a data_head no record ends at, and nothing there can be read.
 */
static bool record_ok(const struct skd_rec_header *h, uint64_t avail,
		      uint64_t ring_size)
{
	return !((uintptr_t)h % 8) && h->size >= sizeof(*h) &&
	       !(h->size % 8) && h->size <= avail && h->size <= ring_size;
}

static long drain_ring(struct skd_reader *r, struct ring_map *m,
		       skd_record_fn fn, void *arg)
{
	uint64_t head, tail;
	long n = 0;
	int stop = 0;

	head = __atomic_load_n(&m->ctrl->data_head, __ATOMIC_ACQUIRE);
	tail = m->ctrl->data_tail;
	while (tail != head && !stop) {
		const struct skd_rec_header *h =
			(const void *)(m->data + (tail & (m->size - 1)));

		if (head - tail > m->size || !record_ok(h, head - tail, m->size)) {
			/* Cannot resync inside a ring: drop what is there. */
			r->corrupt += head - tail;
			tail = head;
			n = -EIO;
			break;
		}
		stop = fn(h, arg);
		if (stop)
			break;
		tail += h->size;
		n++;
	}
	__atomic_store_n(&m->ctrl->data_tail, tail, __ATOMIC_RELEASE);
	return n;
}

long skd_reader_drain(struct skd_reader *r, skd_record_fn fn, void *arg)
{
	long total = 0, n;
	int err = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < r->nr; cpu++) {
		if (!r->rings[cpu].ctrl)
			continue;
		n = drain_ring(r, &r->rings[cpu], fn, arg);
		if (n < 0)
			err = (int)n;
		else
			total += n;
	}
	return err ? err : total;
}

uint64_t skd_reader_unread(const struct skd_reader *r)
{
	uint64_t sum = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < r->nr; cpu++) {
		const struct ring_map *m = &r->rings[cpu];

		if (m->ctrl)
			sum += __atomic_load_n(&m->ctrl->data_head,
					       __ATOMIC_ACQUIRE) -
			       m->ctrl->data_tail;
	}
	return sum;
}

uint64_t skd_reader_corrupt(const struct skd_reader *r)
{
	return r->corrupt;
}

void skd_reader_close(struct skd_reader *r)
{
	unsigned int cpu;

	if (!r)
		return;
	for (cpu = 0; r->rings && cpu < r->nr; cpu++) {
		struct ring_map *m = &r->rings[cpu];

		if (!m->ctrl)
			continue;
		munmap(m->ctrl, r->page_size);
		munmap((void *)m->data, 2 * m->size);
	}
	free(r->rings);
	free(r);
}
