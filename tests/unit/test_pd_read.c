// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for userland/lib/perfdata_read.c: every record type the converter
 * emits goes through the writer and comes back through the reader with
 * the values it went in with (file and pipe mode); damaged files are
 * refused with the errno perfdata_read.h promises for each damage. Inputs
 * are malloc'd at their exact length so ASan reports any read past them,
 * and the file is also cut at every length and read to the end.
 *
 * The damage follows the perf ABI (tools/perf/util/header.c
 * perf_file_header__read(), read_attr(); include/uapi/linux/
 * perf_event.h for the record layouts).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <linux/perf_event.h>

#include "pd_fx.h"
#include "perfdata_read.h"

#define NSAMPLES	3

struct sess {
	uint8_t *p;
	size_t len;
	uint64_t ids[2];
	struct fx_sample s[NSAMPLES];
};

static void put(struct pd_writer *w, const struct pd_header *h, int err)
{
	assert_non_null(h);
	assert_int_equal(err, 0);
	assert_int_equal(pd_writer_put(w, h), 0);
}

static void write_session(bool pipe, struct sess *o)
{
	struct pd_conv *c = fx_conv(2, "skylake");
	const struct pd_event_spec *specs;
	struct pd_buf desc = { 0 };
	struct pd_writer *w;
	struct fx_rec r;
	unsigned int nr, i;
	int fd, err = 0;

	assert_non_null(c);
	specs = pd_conv_events(c, &nr);
	o->ids[0] = specs[0].id;
	o->ids[1] = specs[1].id;
	fd = memfd_create("pd", 0);
	assert_true(fd >= 0);
	w = pd_writer_open(fd, pipe, specs, nr);
	assert_non_null(w);
	assert_int_equal(pd_conv_event_desc(c, &desc), 0);
	assert_int_equal(pd_writer_feature(w, PD_FEAT_EVENT_DESC, desc.p,
					   desc.len), 0);
	assert_int_equal(fx_build_comm(&r, "worker", true, FX_T0 + 1), 0);
	put(w, pd_conv_record(c, &r.ev, &err), err);
	assert_int_equal(fx_build_mmap(&r, "/usr/bin/fx", 0x400000, FX_T0 + 2), 0);
	put(w, pd_conv_record(c, &r.ev, &err), err);
	put(w, pd_conv_kernel_mmap(c, "[kernel.kallsyms]_text",
				   0xffffffff81000000ULL, 0x1000000, 0, &err), err);
	for (i = 0; i < NSAMPLES; i++) {
		fx_sample_default(&o->s[i], i);
		o->s[i].event = (uint16_t)(i % 2);
		if (i == 2) {		/* a user sample without a chain */
			o->s[i].misc = SKD_MISC_USER;
			o->s[i].nr = 0;
			o->s[i].ip = 0x401234;
		}
		assert_int_equal(fx_build_sample(&r, &o->s[i]), 0);
		put(w, pd_conv_record(c, &r.ev, &err), err);
	}
	assert_int_equal(fx_build_task(&r, SKD_REC_FORK, 4000, 4001, FX_T0 + 10), 0);
	put(w, pd_conv_record(c, &r.ev, &err), err);
	assert_int_equal(fx_build_task(&r, SKD_REC_EXIT, 4000, 4001, FX_T0 + 11), 0);
	put(w, pd_conv_record(c, &r.ev, &err), err);
	assert_int_equal(fx_build_lost(&r, 17, FX_T0 + 12), 0);
	put(w, pd_conv_record(c, &r.ev, &err), err);
	assert_int_equal(fx_build_throttle(&r, true, FX_T0 + 13), 0);
	put(w, pd_conv_record(c, &r.ev, &err), err);
	assert_int_equal(fx_build_throttle(&r, false, FX_T0 + 14), 0);
	put(w, pd_conv_record(c, &r.ev, &err), err);
	assert_int_equal(pd_writer_close(w, NULL), 0);
	o->p = fx_slurp(fd, &o->len);
	assert_non_null(o->p);
	close(fd);
	pd_buf_free(&desc);
	pd_conv_free(c);
}

static uint64_t rd64(const void *p, size_t off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)p + off, 8);
	return v;
}

static uint32_t rd32(const void *p, size_t off)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)p + off, 4);
	return v;
}

static void check_id(const struct pd_file *f, const struct pd_header *h,
		     size_t body, uint32_t pid, uint32_t tid, uint64_t time,
		     uint64_t id)
{
	struct pd_sample_id si;

	assert_int_equal(pd_parse_id(f, h, body, &si), 0);
	assert_int_equal(si.pid, pid);
	assert_int_equal(si.tid, tid);
	assert_true(si.has_time);
	assert_int_equal(si.time, time);
	assert_int_equal(si.cpu, pid == UINT32_MAX ? 0 : FX_CPU);
	assert_int_equal(si.id, id);
}

static void check_sample(const struct pd_file *f, const struct pd_header *h,
			 const struct sess *o, unsigned int i)
{
	const struct fx_sample *s = &o->s[i];
	struct pd_sample ps;
	unsigned int k;

	assert_int_equal(pd_parse_sample(f, h, &ps), 0);
	assert_int_equal(ps.id, o->ids[s->event]);
	assert_int_equal(ps.attr, s->event);
	assert_int_equal(ps.ip, s->ip);
	assert_int_equal(ps.pid, FX_PID);
	assert_int_equal(ps.tid, FX_TID);
	assert_int_equal(ps.time, s->time);
	assert_int_equal(ps.addr, s->addr);
	assert_int_equal(ps.cpu, FX_CPU);
	assert_int_equal(ps.period, s->period);
	if (s->nr) {
		assert_int_equal(ps.nr_ips, s->nr + 2);
		assert_int_equal(ps.ips[0], (uint64_t)PERF_CONTEXT_KERNEL);
		assert_int_equal(ps.ips[1], s->ips[0]);
		assert_int_equal(ps.ips[2], s->ips[1]);
		assert_int_equal(ps.ips[3], (uint64_t)PERF_CONTEXT_USER);
		assert_int_equal(ps.ips[6], s->ips[4]);
	} else {
		assert_int_equal(ps.nr_ips, 2);
		assert_int_equal(ps.ips[0], (uint64_t)PERF_CONTEXT_USER);
		assert_int_equal(ps.ips[1], s->ip);
	}
	assert_int_equal(ps.nr_branches, s->nr_br);
	for (k = 0; k < s->nr_br; k++) {
		assert_int_equal(ps.branches[k].from, s->br[k].from);
		assert_int_equal(ps.branches[k].to, s->br[k].to);
	}
	assert_int_equal(ps.regs_abi, PERF_SAMPLE_REGS_ABI_64);
	assert_int_equal(ps.nr_regs, SKD_USER_REGS_NR);
	for (k = 0; k < SKD_USER_REGS_NR; k++)
		assert_int_equal(ps.regs[k], s->regs[k]);
	assert_int_equal(ps.stack_size, (FX_STACK + 7) & ~7);
	assert_int_equal(ps.stack_dyn, FX_STACK);
	assert_memory_equal(ps.stack, s->stack, FX_STACK);
	assert_int_equal(ps.weight, s->latency);
	/* Event 1 (INST_RETIRED) has no memory info: PERF_MEM_NA. */
	if (s->event == 1) {
		assert_int_equal(ps.data_src, PERF_MEM_S(OP, NA) |
				 PERF_MEM_S(LVL, NA) | PERF_MEM_S(SNOOP, NA) |
				 PERF_MEM_S(LOCK, NA) | PERF_MEM_S(TLB, NA));
		return;
	}
	/* Skylake, load latency, source 3: ds.c pebs_data_source[0x03],
	 * an L2 hit, STLB hit. */
	assert_int_equal(ps.data_src,
			 PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) |
			 PERF_MEM_S(LVL, L2) | PERF_MEM_S(LVLNUM, L2) |
			 PERF_MEM_S(SNOOP, NONE) | PERF_MEM_S(TLB, HIT) |
			 PERF_MEM_S(TLB, L1) | PERF_MEM_S(TLB, L2) |
			 PERF_MEM_S(BLK, NA));
}

static void round_trip(bool pipe)
{
	struct sess o;
	struct pd_file f;
	const struct pd_header *h;
	size_t off, bad = SIZE_MAX;
	unsigned int nsamp = 0, seen = 0;
	char err[256];
	uint8_t *copy;

	write_session(pipe, &o);
	copy = malloc(o.len);
	memcpy(copy, o.p, o.len);
	assert_int_equal(pd_file_open_mem(copy, o.len, &f, err, sizeof(err)), 0);
	free(copy);
	assert_int_equal(f.pipe, pipe);
	assert_int_equal(f.nr_attrs, 2);
	assert_true(f.sample_id_all);
	assert_string_equal(pd_event_name(&f, 1), "inst_retired.any:ppp");
	off = f.data_off;
	while ((h = pd_file_next(&f, &off, &bad))) {
		const uint8_t *b = (const uint8_t *)(h + 1);

		switch (h->type) {
		case PERF_RECORD_SAMPLE:
			check_sample(&f, h, &o, nsamp++);
			break;
		case PERF_RECORD_COMM:
			assert_true(h->misc & PERF_RECORD_MISC_COMM_EXEC);
			assert_string_equal((const char *)b + 8, "worker");
			check_id(&f, h, 16, FX_PID, FX_TID, FX_T0 + 1, o.ids[0]);
			seen |= 1;
			break;
		case PERF_RECORD_MMAP2:
			assert_int_equal(rd64(b, 8), 0x400000);
			assert_int_equal(rd64(b, 40), 123456);
			assert_string_equal((const char *)b + 64, "/usr/bin/fx");
			check_id(&f, h, 64 + 16, FX_PID, FX_TID, FX_T0 + 2,
				 o.ids[0]);
			seen |= 2;
			break;
		case PERF_RECORD_MMAP:
			assert_int_equal(h->misc & PERF_RECORD_MISC_CPUMODE_MASK,
					 PERF_RECORD_MISC_KERNEL);
			assert_int_equal(rd32(b, 0), UINT32_MAX);
			assert_int_equal(rd64(b, 8), 0xffffffff81000000ULL);
			assert_string_equal((const char *)b + 32,
					    "[kernel.kallsyms]_text");
			check_id(&f, h, 32 + 24, UINT32_MAX, 0, 0, o.ids[0]);
			seen |= 4;
			break;
		case PERF_RECORD_FORK:
		case PERF_RECORD_EXIT:
			assert_int_equal(rd32(b, 4), 4000);
			assert_int_equal(rd32(b, 12), 4001);
			check_id(&f, h, 24, FX_PID, FX_TID, rd64(b, 16), o.ids[0]);
			assert_int_equal(rd64(b, 16), h->type == PERF_RECORD_FORK ?
					 FX_T0 + 10 : FX_T0 + 11);
			seen |= h->type == PERF_RECORD_FORK ? 8 : 16;
			break;
		case PERF_RECORD_LOST:
			assert_int_equal(rd64(b, 0), o.ids[0]);
			assert_int_equal(rd64(b, 8), 17);
			check_id(&f, h, 16, 0, 0, FX_T0 + 12, o.ids[0]);
			seen |= 32;
			break;
		case PERF_RECORD_THROTTLE:
		case PERF_RECORD_UNTHROTTLE:
			assert_int_equal(rd64(b, 8), o.ids[0]);
			check_id(&f, h, 24, 0, 0, rd64(b, 0), o.ids[0]);
			seen |= h->type == PERF_RECORD_THROTTLE ? 64 : 128;
			break;
		}
	}
	assert_int_equal(bad, SIZE_MAX);
	assert_int_equal(nsamp, NSAMPLES);
	assert_int_equal(seen, 255);
	pd_file_close(&f);
	free(o.p);
}

static void test_round_trip_file(void **state)
{
	(void)state;
	round_trip(false);
}

static void test_round_trip_pipe(void **state)
{
	(void)state;
	round_trip(true);
}

/* Open an exact-length copy of @p; 0 or the -errno. */
/* 1 when @p opens as a file cut short, 0 when whole, else -errno. */
static int open_truncated(const uint8_t *p, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);
	struct pd_file f;
	char err[256] = "";
	int ret;

	memcpy(copy, p, len);
	ret = pd_file_open_mem(copy, len, &f, err, sizeof(err));
	if (!ret) {
		ret = f.truncated;
		pd_file_close(&f);
	}
	free(copy);
	return ret;
}

static int open_damaged(const uint8_t *p, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);
	struct pd_file f;
	char err[256] = "";
	int ret;

	memcpy(copy, p, len);
	ret = pd_file_open_mem(copy, len, &f, err, sizeof(err));
	free(copy);
	if (!ret)
		pd_file_close(&f);
	else
		assert_true(err[0] != '\0');	/* a sentence saying why */
	return ret;
}

static void set64(uint8_t *p, size_t off, uint64_t v)
{
	memcpy(p + off, &v, 8);
}

static void test_bad_headers(void **state)
{
	struct sess o;
	uint8_t *d;
	uint64_t attrs_off, data_off, data_size;

	(void)state;
	write_session(false, &o);
	d = malloc(o.len);
	attrs_off = rd64(o.p, 24);
	data_off = rd64(o.p, 40);
	data_size = rd64(o.p, 48);

	memcpy(d, o.p, o.len);
	memcpy(d, "PERFILE3", 8);
	assert_int_equal(open_damaged(d, o.len), -ENOMSG);
	memcpy(d, "ELF\x7f\0\0\0\0", 8);
	assert_int_equal(open_damaged(d, o.len), -ENOMSG);
	assert_int_equal(open_damaged(o.p, 7), -ENOMSG);
	/* The magic of a big-endian writer: "2ELIFREP". */
	memcpy(d, "2ELIFREP", 8);
	assert_int_equal(open_damaged(d, o.len), -EPROTONOSUPPORT);
	memcpy(d, "PERFFILE", 8);		/* version 1 */
	assert_int_equal(open_damaged(d, o.len), -EPROTONOSUPPORT);

	/* header.size 72: the pre-features header. */
	memcpy(d, o.p, o.len);
	set64(d, 8, 72);
	assert_int_equal(open_damaged(d, o.len), -EINVAL);

	/* attr.size 136 (PERF_ATTR_SIZE_VER8, config3): newer than ours. */
	memcpy(d, o.p, o.len);
	memcpy(d + attrs_off + 4, &(uint32_t){ 136 }, 4);
	assert_int_equal(open_damaged(d, o.len), -EOVERFLOW);

	/*
	 * The data section runs past the end: a file cut short is read up
	 * to the end and flagged; a data section starting past it is not.
	 */
	assert_int_equal(open_truncated(o.p, data_off + data_size - 8), 1);
	memcpy(d, o.p, o.len);
	set64(d, 48, o.len);
	assert_int_equal(open_truncated(d, o.len), 1);
	memcpy(d, o.p, o.len);
	set64(d, 40, o.len + 8);
	assert_int_equal(open_damaged(d, o.len), -ERANGE);

	/* Overlapping sections: attrs inside the data, data over the header. */
	memcpy(d, o.p, o.len);
	set64(d, 24, data_off);
	assert_int_equal(open_damaged(d, o.len), -EINVAL);
	memcpy(d, o.p, o.len);
	set64(d, 40, attrs_off);
	assert_int_equal(open_damaged(d, o.len), -EINVAL);
	memcpy(d, o.p, o.len);
	set64(d, 40, 0);
	set64(d, 48, 64);
	assert_int_equal(open_damaged(d, o.len), -EINVAL);

	/* Unchanged, it opens. */
	assert_int_equal(open_damaged(o.p, o.len), 0);
	free(d);
	free(o.p);
}

/* Walk the records of an exact-length copy; the offset of a bad one. */
static size_t walk(const uint8_t *p, size_t len)
{
	uint8_t *copy = malloc(len);
	struct pd_file f;
	const struct pd_header *h;
	struct pd_sample s;
	struct pd_sample_id si;
	size_t off, bad = SIZE_MAX;
	char err[256];

	memcpy(copy, p, len);
	assert_int_equal(pd_file_open_mem(copy, len, &f, err, sizeof(err)), 0);
	free(copy);
	off = f.data_off;
	while ((h = pd_file_next(&f, &off, &bad))) {
		if (h->type == PERF_RECORD_SAMPLE)
			pd_parse_sample(&f, h, &s);
		else
			pd_parse_id(&f, h, 0, &si);
	}
	pd_file_close(&f);
	return bad;
}

static void set16(uint8_t *p, size_t off, uint16_t v)
{
	memcpy(p + off, &v, 2);
}

static void test_bad_records(void **state)
{
	struct sess o;
	uint8_t *d;
	uint64_t data_off, data_end, at, last = 0;

	(void)state;
	write_session(false, &o);
	d = malloc(o.len);
	data_off = rd64(o.p, 40);
	data_end = data_off + rd64(o.p, 48);
	assert_int_equal(walk(o.p, o.len), SIZE_MAX);

	memcpy(d, o.p, o.len);
	set16(d, data_off + 6, 0);
	assert_int_equal(walk(d, o.len), data_off);
	set16(d, data_off + 6, 4);
	assert_int_equal(walk(d, o.len), data_off);
	set16(d, data_off + 6, (uint16_t)(rd32(o.p, data_off + 4) >> 16) + 4);
	assert_int_equal(walk(d, o.len), data_off);	/* not a multiple of 8 */
	for (at = data_off; at < data_end; at += (uint16_t)(rd32(o.p, at + 4) >> 16))
		last = at;
	memcpy(d, o.p, o.len);
	set16(d, last + 6, (uint16_t)(data_end - last + 8));
	assert_int_equal(walk(d, o.len), last);		/* past the data end */
	free(d);
	free(o.p);
}

/* The first SAMPLE of the session, copied into a buffer of its own size. */
static uint8_t *first_sample(const struct sess *o, struct pd_file *f,
			     uint16_t *size)
{
	const struct pd_header *h;
	size_t off, bad;
	char err[256];
	uint8_t *r;

	assert_int_equal(pd_file_open_mem(o->p, o->len, f, err, sizeof(err)), 0);
	off = f->data_off;
	while ((h = pd_file_next(f, &off, &bad)) && h->type != PERF_RECORD_SAMPLE)
		;
	assert_non_null(h);
	*size = h->size;
	r = malloc(h->size);
	memcpy(r, h, h->size);
	return r;
}

static int parse_copy(const struct pd_file *f, const uint8_t *r, uint16_t size)
{
	uint8_t *c = malloc(size);
	struct pd_sample s;
	int ret;

	memcpy(c, r, size);
	set16(c, 6, size);
	ret = pd_parse_sample(f, (const struct pd_header *)c, &s);
	free(c);
	return ret;
}

static void test_bad_samples(void **state)
{
	struct sess o;
	struct pd_file f;
	uint8_t *r;
	uint16_t size, cut;
	/* IDENTIFIER, IP, TID, TIME, ADDR, CPU, PERIOD: then the chain. */
	const size_t chain = 8 + 7 * 8;
	size_t branches;

	(void)state;
	write_session(false, &o);
	branches = chain + 8 + 8 * (o.s[0].nr + 2);
	r = first_sample(&o, &f, &size);
	assert_int_equal(parse_copy(&f, r, size), 0);
	/* Every shorter length is refused, without reading past it. */
	for (cut = 8; cut < size; cut += 8)
		assert_int_equal(parse_copy(&f, r, cut), -EINVAL);
	/* A chain longer than the record. */
	assert_int_equal(rd64(r, chain), o.s[0].nr + 2);
	set64(r, chain, 1000);
	assert_int_equal(parse_copy(&f, r, size), -EINVAL);
	set64(r, chain, UINT64_MAX / 4);
	assert_int_equal(parse_copy(&f, r, size), -EINVAL);
	set64(r, chain, o.s[0].nr + 2);
	/* A branch stack longer than the record. */
	assert_int_equal(rd64(r, branches), o.s[0].nr_br);
	set64(r, branches, 100);
	assert_int_equal(parse_copy(&f, r, size), -EINVAL);
	set64(r, branches, UINT64_MAX / 8);
	assert_int_equal(parse_copy(&f, r, size), -EINVAL);
	free(r);
	pd_file_close(&f);
	free(o.p);
}

/* A file cut at every length: refused or read, never read past. */
static void test_every_cut(void **state)
{
	struct sess o;
	size_t len, step;

	(void)state;
	for (int pipe = 0; pipe < 2; pipe++) {
		write_session(pipe, &o);
		step = o.len > 4096 ? 3 : 1;
		for (len = 0; len < o.len; len += step) {
			uint8_t *c = malloc(len ? len : 1);
			struct pd_file f;
			const struct pd_header *h;
			struct pd_sample s;
			size_t off, bad;
			char err[128];

			memcpy(c, o.p, len);
			if (!pd_file_open_mem(c, len, &f, err, sizeof(err))) {
				off = f.data_off;
				while ((h = pd_file_next(&f, &off, &bad)))
					if (h->type == PERF_RECORD_SAMPLE)
						pd_parse_sample(&f, h, &s);
				pd_event_name(&f, 0);
				pd_file_close(&f);
			}
			free(c);
		}
		free(o.p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_file),
		cmocka_unit_test(test_round_trip_pipe),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_bad_records),
		cmocka_unit_test(test_bad_samples),
		cmocka_unit_test(test_every_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
