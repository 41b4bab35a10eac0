// SPDX-License-Identifier: GPL-2.0
/*
 * Feeds one ring (bytes, size, head and tail from the input) to reader.c's
 * drain loop, included unchanged, and skd_decode() to each record it hands
 * out: a reader must survive whatever a buggy module leaves in its rings.
 */
#include "../../userland/lib/reader.c"

#include <string.h>

#include "decode.h"
#include "fuzzlib.h"

/*
 * Input: a header, then the ring's bytes (zero-padded to its size).
 *	u8  size order: the ring is 64 << (order & 7) bytes
 *	u8  the callback stops the drain at this record (0: never)
 *	u16 head - tail at the first drain: may exceed the ring
 *	u16 what the kernel publishes between the two drains
 *	u64 data_tail before the first drain (8-aligned, as the reader keeps it)
 */
struct consumer {
	const uint8_t *lo, *hi;	/* the double mapping */
	unsigned int stop_at;
	unsigned int seen;
	uint64_t sink;
};

/* @p and @len bytes after it lie inside the record @h. */
static int in_record(const struct skd_rec_header *h, const void *p,
		     size_t len)
{
	const uint8_t *b = (const void *)h, *q = p;

	return q >= b && q <= b + h->size && len <= (size_t)(b + h->size - q);
}

static void touch_sample(struct consumer *c, const struct skd_rec_header *h,
			 const struct skd_event *ev)
{
	unsigned int i;

	FUZZ_CHECK(in_record(h, ev->sample.rec, sizeof(*ev->sample.rec)));
	c->sink += ev->sample.rec->ip + ev->sample.rec->period;
	if (ev->sample.ips) {
		FUZZ_CHECK(ev->sample.nr_kernel <= ev->sample.nr);
		FUZZ_CHECK(ev->sample.nr <= SKD_MAX_CALLCHAIN);
		FUZZ_CHECK(in_record(h, ev->sample.ips,
				     ev->sample.nr * sizeof(__u64)));
		for (i = 0; i < ev->sample.nr; i++)
			c->sink += ev->sample.ips[i];
	}
	if (ev->sample.mem) {
		FUZZ_CHECK(in_record(h, ev->sample.mem,
				     sizeof(*ev->sample.mem)));
		c->sink += ev->sample.mem->addr + ev->sample.mem->latency;
	}
	if (ev->sample.branches) {
		FUZZ_CHECK(in_record(h, ev->sample.branches,
				     ev->sample.nr_branches *
				     sizeof(struct skd_branch_entry)));
		for (i = 0; i < ev->sample.nr_branches; i++)
			c->sink += ev->sample.branches[i].from ^
				   ev->sample.branches[i].to ^
				   ev->sample.branches[i].info;
	}
}

static int consume(const struct skd_rec_header *h, void *arg)
{
	struct consumer *c = arg;
	struct skd_event ev;
	int n;

	/* The reader hands out whole records inside its mapping. */
	FUZZ_CHECK((const uint8_t *)h >= c->lo &&
		   h->size <= (size_t)(c->hi - (const uint8_t *)h));
	n = skd_decode(h, h->size, &ev);
	c->sink += strlen(skd_rec_type_name(h->type));
	if (n < 0) {
		FUZZ_CHECK(n == -EINVAL);
	} else {
		FUZZ_CHECK(n == h->size && ev.hdr == h && ev.size == h->size);
		FUZZ_CHECK(!ev.id == (h->type == 0 || h->type >= __SKD_REC_MAX));
		if (ev.id)
			c->sink += ev.id->time + ev.id->pid + ev.id->tid;
		switch (ev.type) {
		case SKD_REC_SAMPLE:
			touch_sample(c, h, &ev);
			break;
		case SKD_REC_LOST:
			c->sink += ev.lost->lost;
			break;
		case SKD_REC_COMM:
			FUZZ_CHECK(strlen(ev.comm->comm) < SKD_COMM_LEN);
			break;
		case SKD_REC_EXEC:
			FUZZ_CHECK(in_record(h, ev.exec.path,
					     strlen(ev.exec.path) + 1));
			break;
		case SKD_REC_FORK:
		case SKD_REC_EXIT:
			c->sink += ev.task->ppid + ev.task->ptid;
			break;
		case SKD_REC_THROTTLE:
		case SKD_REC_UNTHROTTLE:
			c->sink += ev.throttle->limit;
			break;
		}
	}
	return ++c->seen == c->stop_at;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t ring_size = 64ULL << (fuzz_take(&data, &size, 1) & 7);
	struct consumer c = { .stop_at = fuzz_take(&data, &size, 1) };
	uint64_t first = fuzz_take(&data, &size, 2);
	uint64_t more = fuzz_take(&data, &size, 2);
	uint64_t tail = fuzz_take(&data, &size, 8) & ~7ULL;
	struct skd_ring_ctrl ctrl = { .data_size = ring_size };
	struct ring_map m = { .ctrl = &ctrl, .size = ring_size };
	struct skd_reader r = { .rings = &m, .nr = 1, .page_size = 4096 };
	uint64_t before;
	uint8_t *buf;
	long n;

	/* The data twice back to back, as the double mapping shows it. */
	buf = calloc(2, ring_size);
	if (!buf)
		return 0;
	memcpy(buf, data, size < ring_size ? size : ring_size);
	memcpy(buf + ring_size, buf, ring_size);
	m.data = buf;
	c.lo = buf;
	c.hi = buf + 2 * ring_size;

	ctrl.data_tail = tail;
	ctrl.data_head = tail + first;
	n = skd_reader_drain(&r, consume, &c);
	FUZZ_CHECK(n == -EIO || (n >= 0 && (unsigned long)n <= c.seen));
	/* Consumed up to a record boundary, never past the head. */
	FUZZ_CHECK(ctrl.data_head - ctrl.data_tail <= first);
	FUZZ_CHECK(skd_reader_unread(&r) == ctrl.data_head - ctrl.data_tail);
	FUZZ_CHECK(n != -EIO || skd_reader_corrupt(&r));

	/* The kernel publishes more; the reader goes on from its tail. */
	before = skd_reader_corrupt(&r);
	ctrl.data_head += more;
	c.stop_at = 0;
	n = skd_reader_drain(&r, consume, &c);
	FUZZ_CHECK(n == -EIO || ctrl.data_tail == ctrl.data_head);
	FUZZ_CHECK(skd_reader_corrupt(&r) >= before);

	free(buf);
	return 0;
}
