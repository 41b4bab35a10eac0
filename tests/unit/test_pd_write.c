// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for userland/lib/perfdata_write.c (with the converter and the
 * host features that feed it): the bytes of the perf.data it writes,
 * decoded here independently of our reader and of perf_data.h, against
 * the perf ABI:
 *   - Linux tools/perf/util/header.c: struct perf_file_header (104 bytes,
 *     "PERFILE2", attr_size = attr.size + 16), perf_session__do_write_
 *     header() (ids, attrs, data, then the feature table at data.offset +
 *     data.size, one perf_file_section per set bit in ascending order),
 *     do_write_string() (u32 length rounded up to NAME_ALIGN 64, NUL
 *     padding), write_nrcpus() (cpu__max_present_cpu(), then
 *     sysconf(_SC_NPROCESSORS_ONLN); process_nrcpus() reads them in that
 *     order), write_event_desc(), perf_header__write_pipe() (16 bytes);
 *   - Linux include/uapi/linux/perf_event.h (the system's copy, included
 *     here): sample field order, PERF_CONTEXT_* markers, perf_branch_entry
 *     flag bits, sample_id trailer order, record bodies;
 *   - tools/lib/perf/include/perf/event.h: PERF_RECORD_HEADER_ATTR 64,
 *     PERF_RECORD_FINISHED_ROUND 68, PERF_RECORD_HEADER_FEATURE 80.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/perf_event.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "pd_fx.h"
#include "perfdata_host.h"

/* tools/lib/perf/include/perf/event.h, enum perf_user_event_type. */
#define REC_HEADER_ATTR		64
#define REC_FINISHED_ROUND	68
#define REC_HEADER_FEATURE	80
#define REC_HEADER_BUILD_ID	67
#define FEAT_BUILD_ID		2
/* tools/perf/util/header.h, enum HEADER_*. */
#define FEAT_HOSTNAME		3
#define FEAT_NRCPUS		7
#define FEAT_EVENT_DESC		12
#define FEAT_BRANCH_STACK	15
#define FEAT_SAMPLE_TIME	21

static uint64_t u64at(const uint8_t *p, size_t off)
{
	uint64_t v;

	memcpy(&v, p + off, 8);
	return v;
}

static uint32_t u32at(const uint8_t *p, size_t off)
{
	uint32_t v;

	memcpy(&v, p + off, 4);
	return v;
}

static uint16_t u16at(const uint8_t *p, size_t off)
{
	uint16_t v;

	memcpy(&v, p + off, 2);
	return v;
}

/* attr bytes decoded through the uapi struct (bitfields and all). */
static struct perf_event_attr attr_at(const uint8_t *p, size_t off)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	memcpy(&a, p + off, 128);
	return a;
}

struct out {
	uint8_t *p;
	size_t len;
	uint64_t ids[2];
	unsigned int nr_ids;
};

static void put(struct pd_writer *w, const struct pd_header *h, int err)
{
	assert_non_null(h);
	assert_int_equal(err, 0);
	assert_int_equal(pd_writer_put(w, h), 0);
}

/*
 * Write a file (or stream) with @nr_events events: COMM, MMAP2, a
 * sample per event, FORK, EXIT, LOST, THROTTLE, UNTHROTTLE, a kernel
 * MMAP, FINISHED_ROUND; features as perf record gives them.
 */
static void write_session(unsigned int nr_events, const char *model,
			  bool pipe, bool host, struct out *o,
			  struct fx_sample *samples)
{
	struct pd_conv *c = fx_conv(nr_events, model);
	const struct pd_event_spec *specs;
	struct pd_writer_result res;
	struct pd_buf desc = { 0 }, host_s = { 0 };
	struct pd_header fr = { REC_FINISHED_ROUND, 0, 8 };
	struct fx_rec r;
	struct pd_writer *w;
	unsigned int nr, i;
	uint64_t st[2] = { FX_T0, FX_T0 + 99 };
	char *argv[] = { "skidless", "record", NULL };
	int fd, err = 0;

	assert_non_null(c);
	specs = pd_conv_events(c, &nr);
	fd = memfd_create("pd", 0);
	assert_true(fd >= 0);
	w = pd_writer_open(fd, pipe, specs, nr);
	assert_non_null(w);
	assert_int_equal(pd_conv_event_desc(c, &desc), 0);
	assert_int_equal(pd_writer_feature(w, FEAT_EVENT_DESC, desc.p,
					   desc.len), 0);
	assert_int_equal(pd_writer_feature(w, FEAT_BRANCH_STACK, NULL, 0), 0);
	if (host) {
		assert_int_equal(pd_host_features(w, 2, argv, NULL), 0);
	} else {
		pd_buf_string(&host_s, "fx-host");
		assert_int_equal(pd_writer_feature(w, FEAT_HOSTNAME, host_s.p,
						   host_s.len), 0);
	}

	assert_int_equal(fx_build_comm(&r, "worker", true, FX_T0 + 1), 0);
	put(w, pd_conv_record(c, &r.ev, &err), err);
	assert_int_equal(fx_build_mmap(&r, "/usr/bin/fx", 0x400000, FX_T0 + 2), 0);
	put(w, pd_conv_record(c, &r.ev, &err), err);
	for (i = 0; i < nr; i++) {
		fx_sample_default(&samples[i], i);
		samples[i].event = (uint16_t)i;
		assert_int_equal(fx_build_sample(&r, &samples[i]), 0);
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
	put(w, pd_conv_kernel_mmap(c, "[kernel.kallsyms]_text",
				   0xffffffff81000000ULL, 0x1000000, 0, &err), err);
	assert_int_equal(pd_writer_put(w, &fr), 0);
	/* Given after the data: pipe mode sends it at close. */
	assert_int_equal(pd_writer_feature(w, FEAT_SAMPLE_TIME, st, sizeof(st)), 0);
	assert_int_equal(pd_writer_close(w, &res), 0);
	assert_int_equal(res.lost, 0);
	o->p = fx_slurp(fd, &o->len);
	assert_non_null(o->p);
	close(fd);
	o->nr_ids = nr;
	for (i = 0; i < nr; i++)
		o->ids[i] = specs[i].id;
	pd_buf_free(&desc);
	pd_buf_free(&host_s);
	pd_conv_free(c);
}

/* [a, a+al) and [b, b+bl) do not overlap. */
static bool apart(uint64_t a, uint64_t al, uint64_t b, uint64_t bl)
{
	return a + al <= b || b + bl <= a;
}

struct layout {
	uint64_t attrs_off, attrs_size, data_off, data_size;
};

static struct layout check_header(const struct out *o, unsigned int nr)
{
	const uint8_t *p = o->p;
	struct layout l;
	unsigned int i;

	assert_true(o->len >= 104);
	assert_memory_equal(p, "PERFILE2", 8);
	assert_int_equal(u64at(p, 8), 104);
	assert_int_equal(u64at(p, 16), 128 + 16);
	l.attrs_off = u64at(p, 24);
	l.attrs_size = u64at(p, 32);
	l.data_off = u64at(p, 40);
	l.data_size = u64at(p, 48);
	assert_int_equal(u64at(p, 56), 0);	/* event_types */
	assert_int_equal(u64at(p, 64), 0);
	assert_int_equal(l.attrs_size, nr * 144ULL);
	assert_true(l.attrs_off >= 104);
	assert_true(l.data_off >= 104);
	assert_true(apart(l.attrs_off, l.attrs_size, l.data_off, l.data_size));
	assert_true(l.attrs_off + l.attrs_size <= o->len);
	assert_true(l.data_off + l.data_size <= o->len);
	assert_int_equal(l.data_off % 8, 0);
	for (i = 0; i < nr; i++) {
		size_t e = l.attrs_off + i * 144ULL;
		struct perf_event_attr a = attr_at(p, e);
		uint64_t ids_off = u64at(p, e + 128), ids_size = u64at(p, e + 136);

		assert_int_equal(a.size, 128);
		assert_int_equal(ids_size, 8);
		assert_true(ids_off >= 104 && ids_off + ids_size <= o->len);
		assert_true(apart(ids_off, ids_size, l.attrs_off, l.attrs_size));
		assert_true(apart(ids_off, ids_size, l.data_off, l.data_size));
		assert_int_equal(u64at(p, ids_off), o->ids[i]);
		assert_int_equal(a.sample_id_all, 1);
		assert_int_equal(a.sample_type,
				 attr_at(p, l.attrs_off).sample_type);
	}
	return l;
}

static void test_file_header(void **state)
{
	struct fx_sample s[2];
	struct out o;
	struct layout l;

	(void)state;
	write_session(2, NULL, false, false, &o, s);
	l = check_header(&o, 2);
	/* The data section is exactly whole records. */
	{
		uint64_t at = l.data_off, n = 0;

		while (at < l.data_off + l.data_size) {
			uint16_t size = u16at(o.p, at + 6);

			assert_true(size >= 8 && size % 8 == 0);
			at += size;
			n++;
		}
		assert_int_equal(at, l.data_off + l.data_size);
		assert_int_equal(n, 2 + 2 + 5 + 1 + 1);
	}
	free(o.p);
}

/* Feature table at data end, ascending bits, payloads as perf writes them. */
static void test_features(void **state)
{
	struct fx_sample s[2];
	struct out o;
	struct layout l;
	uint64_t bits[4], table, end_prev = 0, tbl_end;
	unsigned int bit, k = 0, n = 0;
	struct utsname un;
	bool seen_host = false, seen_nr = false, seen_desc = false,
	     seen_br = false;

	(void)state;
	write_session(2, NULL, false, true, &o, s);
	l = check_header(&o, 2);
	memcpy(bits, o.p + 72, 32);
	assert_int_equal(bits[0] & 1, 0);	/* bit 0 is reserved */
	for (bit = 0; bit < 256; bit++)
		n += !!(bits[bit / 64] & (1ULL << (bit % 64)));
	table = l.data_off + l.data_size;
	tbl_end = table + 16ULL * n;
	assert_true(tbl_end <= o.len);
	assert_int_equal(uname(&un), 0);
	for (bit = 1; bit < 256; bit++) {
		uint64_t off, size;
		const uint8_t *q;

		if (!(bits[bit / 64] & (1ULL << (bit % 64))))
			continue;
		off = u64at(o.p, table + 16ULL * k);
		size = u64at(o.p, table + 16ULL * k + 8);
		k++;
		/* Payloads follow the table, in the table's order. */
		assert_true(off >= tbl_end && off + size <= o.len);
		assert_true(off >= end_prev);
		end_prev = off + size;
		q = o.p + off;
		if (bit == FEAT_HOSTNAME) {
			uint32_t len = u32at(q, 0);
			size_t sl = strlen(un.nodename), i;

			assert_int_equal(len % 64, 0);
			assert_int_equal(len, (sl + 1 + 63) / 64 * 64);
			assert_int_equal(size, 4 + len);
			assert_memory_equal(q + 4, un.nodename, sl);
			for (i = sl; i < len; i++)
				assert_int_equal(q[4 + i], 0);
			seen_host = true;
		} else if (bit == FEAT_NRCPUS) {
			FILE *f = fopen("/sys/devices/system/cpu/present", "r");
			unsigned int a, b = 0, last = 0;
			char sep;

			assert_int_equal(size, 8);
			assert_non_null(f);
			/* cpu__max_present_cpu(): the last of the list + 1. */
			while (fscanf(f, "%u", &a) == 1) {
				last = a;
				if (fscanf(f, "%c", &sep) != 1 || sep == '\n')
					break;
				if (sep == '-' && fscanf(f, "%u", &b) == 1) {
					last = b;
					if (fscanf(f, "%c", &sep) != 1 ||
					    sep == '\n')
						break;
				}
			}
			fclose(f);
			assert_int_equal(u32at(q, 0), last + 1);
			assert_int_equal(u32at(q, 4),
					 (uint32_t)sysconf(_SC_NPROCESSORS_ONLN));
			seen_nr = true;
		} else if (bit == FEAT_BRANCH_STACK) {
			assert_int_equal(size, 0);
			seen_br = true;
		} else if (bit == FEAT_EVENT_DESC) {
			/* u32 nr, u32 attr_size, then per event: attr, u32
			 * nr_ids, string, ids. */
			size_t at = 8;
			unsigned int e;

			assert_int_equal(u32at(q, 0), 2);
			assert_int_equal(u32at(q, 4), 128);
			for (e = 0; e < 2; e++) {
				uint32_t nids, slen;

				assert_int_equal(attr_at(q, at).size, 128);
				at += 128;
				nids = u32at(q, at);
				at += 4;
				slen = u32at(q, at);
				assert_int_equal(slen % 64, 0);
				assert_string_equal((const char *)q + at + 4,
					e ? "inst_retired.any:ppp" :
					"mem_trans_retired.load_latency_gt_3:pp");
				at += 4 + slen;
				assert_int_equal(nids, 1);
				assert_int_equal(u64at(q, at), o.ids[e]);
				at += 8;
			}
			assert_int_equal(at, size);
			seen_desc = true;
		}
	}
	assert_true(seen_host && seen_nr && seen_br && seen_desc);
	free(o.p);
}

/* do_write_string(): u32 len = strlen + 1 rounded up to 64, NUL padded. */
static void test_string_encoding(void **state)
{
	static const struct { size_t n; uint32_t len; } c[] = {
		{ 0, 64 }, { 3, 64 }, { 63, 64 }, { 64, 128 }, { 200, 256 },
	};
	char s[256];
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct pd_buf b = { 0 };

		memset(s, 'x', c[i].n);
		s[c[i].n] = '\0';
		pd_buf_string(&b, s);
		assert_int_equal(b.len, 4 + c[i].len);
		assert_int_equal(u32at(b.p, 0), c[i].len);
		assert_memory_equal(b.p + 4, s, c[i].n);
		for (k = c[i].n; k < c[i].len; k++)
			assert_int_equal(b.p[4 + k], 0);
		pd_buf_free(&b);
	}
}

/* The first SAMPLE record in the data section. */
static size_t find_rec(const struct out *o, const struct layout *l,
		       uint32_t type, unsigned int nth)
{
	uint64_t at = l->data_off;

	while (at < l->data_off + l->data_size) {
		if (u32at(o->p, at) == type && !nth--)
			return at;
		at += u16at(o->p, at + 6);
	}
	fail_msg("no record of type %u", type);
	return 0;
}

/*
 * perf_output_sample() order: IDENTIFIER, IP, TID, TIME, ADDR, ID,
 * STREAM_ID, CPU, PERIOD, READ, CALLCHAIN, RAW, BRANCH_STACK, REGS_USER,
 * STACK_USER, WEIGHT, DATA_SRC.
 */
static void check_sample(const struct out *o, size_t at, uint64_t st,
			 const struct fx_sample *s, uint64_t id)
{
	const uint8_t *p = o->p + at;
	uint16_t size = u16at(p, 6), misc = u16at(p, 4);
	size_t q = 8;
	uint64_t nr, k, flags;

	assert_int_equal(u32at(p, 0), PERF_RECORD_SAMPLE);
	assert_int_equal(misc & PERF_RECORD_MISC_CPUMODE_MASK,
			 PERF_RECORD_MISC_KERNEL);
	assert_true(misc & PERF_RECORD_MISC_EXACT_IP);
	if (st & PERF_SAMPLE_IDENTIFIER) {
		assert_int_equal(u64at(p, q), id);
		q += 8;
	}
	assert_int_equal(u64at(p, q), s->ip);
	q += 8;
	assert_int_equal(u32at(p, q), FX_PID);
	assert_int_equal(u32at(p, q + 4), FX_TID);
	q += 8;
	assert_int_equal(u64at(p, q), s->time);
	q += 8;
	assert_int_equal(u64at(p, q), s->addr);			/* ADDR */
	q += 8;
	if (st & PERF_SAMPLE_ID) {
		assert_int_equal(u64at(p, q), id);
		q += 8;
	}
	assert_int_equal(u32at(p, q), FX_CPU);			/* CPU, res */
	assert_int_equal(u32at(p, q + 4), 0);
	q += 8;
	assert_int_equal(u64at(p, q), s->period);
	q += 8;
	/* CALLCHAIN: kernel context, kernel ips, user context, user ips. */
	nr = u64at(p, q);
	q += 8;
	assert_int_equal(nr, s->nr + 2);
	assert_int_equal(u64at(p, q), (uint64_t)PERF_CONTEXT_KERNEL);
	assert_int_equal(u64at(p, q), (uint64_t)-128);
	for (k = 0; k < s->nr_kernel; k++)
		assert_int_equal(u64at(p, q + 8 + 8 * k), s->ips[k]);
	q += 8 * (1 + s->nr_kernel);
	assert_int_equal(u64at(p, q), (uint64_t)PERF_CONTEXT_USER);
	assert_int_equal(u64at(p, q), (uint64_t)-512);
	for (k = s->nr_kernel; k < s->nr; k++)
		assert_int_equal(u64at(p, q + 8 + 8 * (k - s->nr_kernel)),
				 s->ips[k]);
	q += 8 * (1 + s->nr - s->nr_kernel);
	/* BRANCH_STACK: nr, then {from, to, flags} (no hw_idx). */
	assert_int_equal(u64at(p, q), s->nr_br);
	q += 8;
	assert_int_equal(u64at(p, q), s->br[0].from);
	assert_int_equal(u64at(p, q + 8), s->br[0].to);
	flags = u64at(p, q + 16);
	assert_int_equal(flags & 1, 1);			/* mispred, bit 0 */
	assert_int_equal((flags >> 1) & 1, 0);		/* predicted, bit 1 */
	assert_int_equal((flags >> 2) & 1, 1);		/* in_tx, bit 2 */
	assert_int_equal((flags >> 3) & 1, 0);		/* abort, bit 3 */
	assert_int_equal((flags >> 4) & 0xffff, 0x1234);	/* cycles 4-19 */
	assert_int_equal((flags >> 20) & 0xf, PERF_BR_CALL);	/* type 20-23 */
	flags = u64at(p, q + 24 + 16);
	assert_int_equal(u64at(p, q + 24), s->br[1].from);
	assert_int_equal(flags & 1, 0);
	assert_int_equal((flags >> 1) & 1, 1);
	assert_int_equal((flags >> 2) & 1, 0);
	assert_int_equal((flags >> 3) & 1, 1);
	assert_int_equal((flags >> 4) & 0xffff, 0);
	assert_int_equal((flags >> 20) & 0xf, PERF_BR_RET);
	q += 24 * s->nr_br;
	/* REGS_USER: abi, then popcount(sample_regs_user) registers. */
	assert_int_equal(u64at(p, q), PERF_SAMPLE_REGS_ABI_64);
	q += 8;
	for (k = 0; k < SKD_USER_REGS_NR; k++)
		assert_int_equal(u64at(p, q + 8 * k), s->regs[k]);
	q += 8 * SKD_USER_REGS_NR;
	/* STACK_USER: size (a multiple of 8), data, dyn_size. */
	assert_int_equal(u64at(p, q), (FX_STACK + 7) & ~7);
	q += 8;
	assert_memory_equal(p + q, s->stack, FX_STACK);
	for (k = FX_STACK; k < ((FX_STACK + 7) & ~7); k++)
		assert_int_equal(p[q + k], 0);
	q += (FX_STACK + 7) & ~7;
	assert_int_equal(u64at(p, q), FX_STACK);
	q += 8;
	assert_int_equal(u64at(p, q), s->latency);		/* WEIGHT */
	q += 8;
	q += 8;							/* DATA_SRC */
	assert_int_equal(q, size);
}

static void test_sample_one_event(void **state)
{
	struct fx_sample s[1];
	struct perf_event_attr a;
	struct out o;
	struct layout l;
	uint64_t want = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK |
			PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
			PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC;
	size_t at;

	(void)state;
	write_session(1, NULL, false, false, &o, s);
	l = check_header(&o, 1);
	a = attr_at(o.p, l.attrs_off);
	assert_int_equal(a.sample_type, want);
	assert_int_equal(a.precise_ip, 2);
	assert_int_equal(__builtin_popcountll(a.sample_regs_user),
			 SKD_USER_REGS_NR);
	assert_int_equal(a.sample_stack_user, 8192);
	assert_true(a.branch_sample_type & PERF_SAMPLE_BRANCH_ANY);
	at = find_rec(&o, &l, PERF_RECORD_SAMPLE, 0);
	check_sample(&o, at, a.sample_type, &s[0], o.ids[0]);
	/* No model: the data source says "not available" in every field. */
	{
		uint16_t size = u16at(o.p, at + 6);
		uint64_t na = PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) |
			      PERF_MEM_S(SNOOP, NA) | PERF_MEM_S(LOCK, NA) |
			      PERF_MEM_S(TLB, NA);

		assert_int_equal(u64at(o.p, at + size - 8), na);
	}
	free(o.p);
}

/*
 * PEBS events the planner gives no memory info (br_inst_retired.near_taken
 * :pp, what AutoFDO samples) get no ADDR, DATA_SRC or WEIGHT fields, as
 * perf records them; one memory event among them brings them back. On a
 * Golden Cove model the weight is WEIGHT_STRUCT, which AutoFDO's reader
 * does not know: it refused every `record -b -e ...:pp` capture there.
 */
static void test_no_mem_fields(void **state)
{
	static const struct skd_event_attr evs[2] = {
		{ .size = sizeof(evs[0]), .config = 0x20c4,
		  .sample_period = 100003, .precise = 2 },
		{ .size = sizeof(evs[0]), .config = 0x81d0,
		  .sample_period = 1000, .precise = 2 },
	};
	static const char *const names[2] = {
		"br_inst_retired.near_taken:pp", "mem_inst_retired.all_loads:pp",
	};
	const uint64_t mem = PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC |
			     PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT;
	struct pd_conv_config cc = {
		.backend = SKD_BACKEND_SIM, .sample = 1000,
		.branch_sample = SKD_BRANCH_ANY | SKD_BRANCH_USER,
		.model = "sapphirerapids", .nr_events = 1, .events = evs,
		.names = names, .no_mem_events = 1,
	};
	struct fx_sample fs;
	struct fx_rec r;
	struct pd_conv *c = pd_conv_new(&cc);
	const struct pd_header *h;
	int err = 0;

	(void)state;
	assert_non_null(c);
	assert_int_equal(pd_conv_sample_type(c) & mem, 0);
	assert_true(pd_conv_sample_type(c) & PERF_SAMPLE_BRANCH_STACK);
	/* A sample with memory info all the same: written without it. */
	fx_sample_default(&fs, 0);
	assert_int_equal(fx_build_sample(&r, &fs), 0);
	h = pd_conv_record(c, &r.ev, &err);
	assert_non_null(h);
	assert_int_equal(err, 0);
	pd_conv_free(c);

	cc.nr_events = 2;
	c = pd_conv_new(&cc);
	assert_non_null(c);
	assert_int_equal(pd_conv_sample_type(c) & mem,
			 PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC |
			 PERF_SAMPLE_WEIGHT_STRUCT);
	pd_conv_free(c);
	/* Without the planner's word (no_mem_events 0): room kept, as before. */
	cc.nr_events = 1;
	cc.no_mem_events = 0;
	c = pd_conv_new(&cc);
	assert_non_null(c);
	assert_true(pd_conv_sample_type(c) & PERF_SAMPLE_ADDR);
	pd_conv_free(c);
}

/* Several events: IDENTIFIER in every attr, first in every sample. */
static void test_sample_identifier(void **state)
{
	struct fx_sample s[2];
	struct perf_event_attr a;
	struct out o;
	struct layout l;

	(void)state;
	write_session(2, NULL, false, false, &o, s);
	l = check_header(&o, 2);
	a = attr_at(o.p, l.attrs_off);
	assert_true(a.sample_type & PERF_SAMPLE_IDENTIFIER);
	check_sample(&o, find_rec(&o, &l, PERF_RECORD_SAMPLE, 0), a.sample_type,
		     &s[0], o.ids[0]);
	check_sample(&o, find_rec(&o, &l, PERF_RECORD_SAMPLE, 1), a.sample_type,
		     &s[1], o.ids[1]);
	assert_true(o.ids[0] != o.ids[1]);
	free(o.p);
}

/*
 * sample_id_all: every other record ends in {pid, tid}, {time}, {id},
 * {stream_id}, {cpu, res}, {identifier} as sample_type selects, here
 * TID, TIME, CPU, IDENTIFIER: 32 bytes.
 */
static void check_trailer(const uint8_t *r, uint32_t pid, uint32_t tid,
			  uint64_t time, uint64_t id)
{
	size_t t = u16at(r, 6) - 32;

	assert_int_equal(u32at(r, t), pid);
	assert_int_equal(u32at(r, t + 4), tid);
	assert_int_equal(u64at(r, t + 8), time);
	assert_int_equal(u32at(r, t + 16), FX_CPU);
	assert_int_equal(u32at(r, t + 20), 0);
	assert_int_equal(u64at(r, t + 24), id);
}

static void test_sideband_records(void **state)
{
	struct fx_sample s[2];
	struct out o;
	struct layout l;
	const uint8_t *r;
	uint64_t id;

	(void)state;
	write_session(2, NULL, false, false, &o, s);
	l = check_header(&o, 2);
	id = o.ids[0];
	/* COMM: pid, tid, comm NUL-padded to 8; COMM_EXEC in misc. */
	r = o.p + find_rec(&o, &l, PERF_RECORD_COMM, 0);
	assert_int_equal(u16at(r, 6), 8 + 8 + 8 + 32);
	assert_true(u16at(r, 4) & PERF_RECORD_MISC_COMM_EXEC);
	assert_int_equal(u32at(r, 8), FX_PID);
	assert_int_equal(u32at(r, 12), FX_TID);
	assert_memory_equal(r + 16, "worker\0\0", 8);
	check_trailer(r, FX_PID, FX_TID, FX_T0 + 1, id);
	/* MMAP2: pid, tid, addr, len, pgoff, maj, min, ino, ino_generation,
	 * prot, flags, filename. */
	r = o.p + find_rec(&o, &l, PERF_RECORD_MMAP2, 0);
	assert_int_equal(u16at(r, 4) & PERF_RECORD_MISC_CPUMODE_MASK,
			 PERF_RECORD_MISC_USER);
	assert_int_equal(u32at(r, 8), FX_PID);
	assert_int_equal(u32at(r, 12), FX_TID);
	assert_int_equal(u64at(r, 16), 0x400000);
	assert_int_equal(u64at(r, 24), 0x5000);
	assert_int_equal(u64at(r, 32), 0x1000);
	assert_int_equal(u32at(r, 40), 8);
	assert_int_equal(u32at(r, 44), 1);
	assert_int_equal(u64at(r, 48), 123456);
	assert_int_equal(u64at(r, 56), 7);
	assert_int_equal(u32at(r, 64), PROT_READ | PROT_EXEC);
	assert_int_equal(u32at(r, 68), MAP_PRIVATE);
	assert_string_equal((const char *)r + 72, "/usr/bin/fx");
	assert_int_equal(u16at(r, 6), 72 + 16 + 32);
	check_trailer(r, FX_PID, FX_TID, FX_T0 + 2, id);
	/* FORK and EXIT: pid, ppid, tid, ptid, time. */
	r = o.p + find_rec(&o, &l, PERF_RECORD_FORK, 0);
	assert_int_equal(u16at(r, 6), 8 + 24 + 32);
	assert_int_equal(u32at(r, 8), FX_PID);
	assert_int_equal(u32at(r, 12), 4000);
	assert_int_equal(u32at(r, 16), FX_TID);
	assert_int_equal(u32at(r, 20), 4001);
	assert_int_equal(u64at(r, 24), FX_T0 + 10);
	check_trailer(r, FX_PID, FX_TID, FX_T0 + 10, id);
	r = o.p + find_rec(&o, &l, PERF_RECORD_EXIT, 0);
	assert_int_equal(u16at(r, 6), 8 + 24 + 32);
	assert_int_equal(u64at(r, 24), FX_T0 + 11);
	check_trailer(r, FX_PID, FX_TID, FX_T0 + 11, id);
	/* LOST: id, lost. */
	r = o.p + find_rec(&o, &l, PERF_RECORD_LOST, 0);
	assert_int_equal(u16at(r, 6), 8 + 16 + 32);
	assert_int_equal(u64at(r, 8), id);
	assert_int_equal(u64at(r, 16), 17);
	check_trailer(r, 0, 0, FX_T0 + 12, id);
	/* THROTTLE, UNTHROTTLE: time, id, stream_id. */
	r = o.p + find_rec(&o, &l, PERF_RECORD_THROTTLE, 0);
	assert_int_equal(u16at(r, 6), 8 + 24 + 32);
	assert_int_equal(u64at(r, 8), FX_T0 + 13);
	assert_int_equal(u64at(r, 16), id);
	check_trailer(r, 0, 0, FX_T0 + 13, id);
	r = o.p + find_rec(&o, &l, PERF_RECORD_UNTHROTTLE, 0);
	assert_int_equal(u64at(r, 8), FX_T0 + 14);
	check_trailer(r, 0, 0, FX_T0 + 14, id);
	/* The kernel's MMAP: pid -1, misc KERNEL, start, len, pgoff, name. */
	r = o.p + find_rec(&o, &l, PERF_RECORD_MMAP, 0);
	assert_int_equal(u16at(r, 4) & PERF_RECORD_MISC_CPUMODE_MASK,
			 PERF_RECORD_MISC_KERNEL);
	assert_int_equal(u32at(r, 8), UINT32_MAX);
	assert_int_equal(u64at(r, 16), 0xffffffff81000000ULL);
	assert_int_equal(u64at(r, 24), 0x1000000);
	assert_string_equal((const char *)r + 40, "[kernel.kallsyms]_text");
	/* FINISHED_ROUND: a bare 8-byte header. */
	r = o.p + find_rec(&o, &l, REC_FINISHED_ROUND, 0);
	assert_int_equal(u16at(r, 6), 8);
	free(o.p);
}

/*
 * Pipe mode: {magic, 16}, a HEADER_ATTR per event (attr, then its ids),
 * HEADER_FEATURE records ({u64 feat_id}, payload) for what was known
 * before the first record, the data, and what came later at the end.
 * BRANCH_STACK is not among them: perf never streams it (see below).
 */
static void test_pipe_mode(void **state)
{
	struct fx_sample s[2];
	struct out o;
	size_t at = 16;
	unsigned int nattr = 0, nfeat_before = 0, nsamples = 0, nfr = 0;
	bool data_seen = false, late_feat = false;

	(void)state;
	write_session(2, NULL, true, false, &o, s);
	assert_memory_equal(o.p, "PERFILE2", 8);
	assert_int_equal(u64at(o.p, 8), 16);
	while (at < o.len) {
		uint32_t type = u32at(o.p, at);
		uint16_t size = u16at(o.p, at + 6);

		assert_true(size >= 8 && size % 8 == 0 && at + size <= o.len);
		if (type == REC_HEADER_ATTR) {
			struct perf_event_attr a = attr_at(o.p, at + 8);

			assert_false(data_seen);
			assert_int_equal(a.size, 128);
			assert_int_equal(size, 8 + 128 + 8);
			assert_int_equal(u64at(o.p, at + 136), o.ids[nattr]);
			nattr++;
		} else if (type == REC_HEADER_FEATURE) {
			uint64_t f = u64at(o.p, at + 8);

			if (!data_seen) {
				assert_true(f == FEAT_EVENT_DESC ||
					    f == FEAT_HOSTNAME);
				nfeat_before++;
			} else {
				assert_int_equal(f, FEAT_SAMPLE_TIME);
				assert_int_equal(size, 16 + 16);
				assert_int_equal(u64at(o.p, at + 16), FX_T0);
				late_feat = true;
			}
			if (f == FEAT_HOSTNAME) {
				assert_int_equal(u32at(o.p, at + 16), 64);
				assert_string_equal((const char *)o.p + at + 20,
						    "fx-host");
			}
		} else {
			assert_int_equal(nattr, 2);
			data_seen = true;
			nsamples += type == PERF_RECORD_SAMPLE;
			if (type == REC_FINISHED_ROUND) {
				assert_int_equal(size, 8);
				nfr++;
			}
		}
		at += size;
	}
	assert_int_equal(at, o.len);
	assert_int_equal(nfeat_before, 2);
	assert_int_equal(nsamples, 2);
	assert_int_equal(nfr, 1);
	assert_true(late_feat);
	free(o.p);
}

/*
 * Pipe mode carries only the features perf itself streams as
 * HEADER_FEATURE (tools/perf/util/header.c: feat_ops[].synthesize, false
 * for TRACING_DATA, BUILD_ID, BRANCH_STACK, AUXTRACE, STAT); build-ids go
 * as PERF_RECORD_HEADER_BUILD_ID records, as `perf inject -b` writes
 * them. AutoFDO's reader (quipper) refuses a stream with a BUILD_ID or
 * BRANCH_STACK HEADER_FEATURE: "feature information is generated in own
 * event type".
 */
static void test_pipe_mode_perf_features(void **state)
{
	static const uint8_t id[20] = { 0xab, 0xcd, 1, 2, 3 };
	struct pd_event_spec spec = { .id = 7 };
	struct pd_writer_result res;
	struct pd_buf bid = { 0 };
	struct pd_writer *w;
	struct out o;
	size_t at = 16;
	unsigned int nbid = 0;
	int fd = memfd_create("pd", 0);

	(void)state;
	assert_true(fd >= 0);
	spec.attr.size = 128;
	spec.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	w = pd_writer_open(fd, true, &spec, 1);
	assert_non_null(w);
	assert_int_equal(pd_writer_feature(w, FEAT_BRANCH_STACK, NULL, 0), 0);
	pd_build_id_entry(&bid, PERF_RECORD_MISC_USER, id, sizeof(id), "/bin/fx");
	pd_build_id_entry(&bid, PERF_RECORD_MISC_KERNEL, id, 16,
			  "[kernel.kallsyms]");
	assert_int_equal(pd_writer_feature(w, FEAT_BUILD_ID, bid.p, bid.len), 0);
	assert_int_equal(pd_writer_close(w, &res), 0);
	o.p = fx_slurp(fd, &o.len);
	assert_non_null(o.p);
	close(fd);
	while (at < o.len) {
		uint32_t type = u32at(o.p, at);
		uint16_t size = u16at(o.p, at + 6);

		assert_true(size >= 8 && size % 8 == 0 && at + size <= o.len);
		if (type == REC_HEADER_FEATURE) {
			uint64_t f = u64at(o.p, at + 8);

			assert_true(f != FEAT_BRANCH_STACK && f != FEAT_BUILD_ID);
		}
		if (type == REC_HEADER_BUILD_ID) {
			/* header, pid -1, build_id[20] + size byte + pad, name */
			assert_int_equal((int32_t)u32at(o.p, at + 8), -1);
			assert_memory_equal(o.p + at + 12, id, 16);
			assert_int_equal(o.p[at + 32], nbid ? 16 : 20);
			assert_string_equal((const char *)o.p + at + 36,
					    nbid ? "[kernel.kallsyms]" : "/bin/fx");
			nbid++;
		}
		at += size;
	}
	assert_int_equal(at, o.len);
	assert_int_equal(nbid, 2);
	pd_buf_free(&bid);
	free(o.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_header),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_string_encoding),
		cmocka_unit_test(test_sample_one_event),
		cmocka_unit_test(test_sample_identifier),
		cmocka_unit_test(test_no_mem_fields),
		cmocka_unit_test(test_sideband_records),
		cmocka_unit_test(test_pipe_mode),
		cmocka_unit_test(test_pipe_mode_perf_features),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
