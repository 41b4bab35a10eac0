// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the PEBS record decoder, kmod/intel/pebs.c.
 *
 * Every record here is laid out byte by byte, little-endian, at offsets
 * computed from the record layouts of the Intel SDM (Vol. 3B, the PEBS
 * record formats of the "Performance Monitoring" chapters, and adaptive
 * PEBS: the basic, memory info, GPR, XMM and LBR groups of
 * MSR_PEBS_DATA_CFG), the same layouts Linux's struct pebs_record_nhm,
 * _hsw, _skl (arch/x86/events/intel/ds.c) and struct pebs_basic,
 * pebs_meminfo, pebs_gprs (arch/x86/include/asm/perf_event.h) have. They
 * are transcribed below as lists of field names (FIXED_* and the adaptive
 * group lists). Nothing is taken from pebs.c: only pebs.h's public API,
 * whose size constants are themselves checked against the tables.
 *
 * Records are placed so that their last byte is the last byte before a
 * PROT_NONE guard page, and the decoder is told exactly how many bytes
 * exist: a read past @avail faults and fails the test.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "pebs.h"

/* ------------------------------------------------------------------ */
/* Little-endian words at byte offsets                                 */

static void put64(uint8_t *b, size_t off, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b[off + i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get64(const uint8_t *b, size_t off)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | b[off + i];
	return v;
}

/* ------------------------------------------------------------------ */
/* Buffer ending at a guard page                                       */

#define GUARD_DATA_PAGES 8

static uint8_t *g_map;		/* whole mapping */
static uint8_t *g_data;		/* first readable byte */
static uint8_t *g_end;		/* first byte of the guard page */
static size_t g_page;

static int guard_setup(void **state)
{
	(void)state;
	g_page = (size_t)sysconf(_SC_PAGESIZE);
	g_map = mmap(NULL, (GUARD_DATA_PAGES + 1) * g_page,
		     PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g_map == MAP_FAILED)
		return -1;
	g_data = g_map;
	g_end = g_map + GUARD_DATA_PAGES * g_page;
	return mprotect(g_end, g_page, PROT_NONE);
}

static int guard_teardown(void **state)
{
	(void)state;
	return munmap(g_map, (GUARD_DATA_PAGES + 1) * g_page);
}

/* @n bytes whose last one is right before the guard page, zeroed. */
static uint8_t *at_end(size_t n)
{
	assert_true(n <= (size_t)(g_end - g_data));
	memset(g_end - n, 0, n);
	return g_end - n;
}

/* ------------------------------------------------------------------ */
/* Record layouts (SDM; ds.c, asm/perf_event.h)                        */

/*
 * Formats 0-3, in record order: fmt0 is flags, ip, ax, bx, cx, dx, si,
 * di, bp, sp, r8-r15; fmt1 adds status, dla, dse, lat; fmt2 adds real_ip,
 * tsx_tuning; fmt3 adds tsc. One u64 each.
 */
enum fixed_field {
	F_FLAGS, F_IP, F_AX, F_BX, F_CX, F_DX, F_SI, F_DI, F_BP, F_SP,
	F_R8, F_R9, F_R10, F_R11, F_R12, F_R13, F_R14, F_R15,
	F_STATUS, F_DLA, F_DSE, F_LAT,
	F_REAL_IP, F_TSX_TUNING,
	F_TSC,
	F_NR
};

/* Fields per format, and the record size of each. */
static const unsigned int fixed_nfields[4] = { 18, 22, 24, 25 };
static const unsigned int fixed_ref_size[4] = { 144, 176, 192, 200 };

/* Register fields of formats 0-3, as the decoder's SKD_GPR_* slots. */
static const struct { enum fixed_field f; int gpr; } fixed_gprs[] = {
	{ F_FLAGS, SKD_GPR_FLAGS }, { F_IP, SKD_GPR_IP },
	{ F_AX, SKD_GPR_AX }, { F_BX, SKD_GPR_BX }, { F_CX, SKD_GPR_CX },
	{ F_DX, SKD_GPR_DX }, { F_SI, SKD_GPR_SI }, { F_DI, SKD_GPR_DI },
	{ F_BP, SKD_GPR_BP }, { F_SP, SKD_GPR_SP }, { F_R8, SKD_GPR_R8 },
	{ F_R9, SKD_GPR_R9 }, { F_R10, SKD_GPR_R10 }, { F_R11, SKD_GPR_R11 },
	{ F_R12, SKD_GPR_R12 }, { F_R13, SKD_GPR_R13 },
	{ F_R14, SKD_GPR_R14 }, { F_R15, SKD_GPR_R15 },
};

/* Adaptive basic group: format_size, ip, applicable_counters, tsc. */
#define B_FORMAT_SIZE	0
#define B_IP		8
#define B_APPLICABLE	16
#define B_TSC		24
#define BASIC_BYTES	32
/* Memory info group: address, aux, latency, tsx_tuning. */
#define M_ADDRESS	0
#define M_AUX		8
#define M_LATENCY	16
#define M_TSX_TUNING	24
#define MEMINFO_BYTES	32
/* GPR group, hardware order: flags, ip, ax, cx, dx, bx, sp, bp, si, di, r8-r15 */
static const int adaptive_gpr_order[18] = {
	SKD_GPR_FLAGS, SKD_GPR_IP, SKD_GPR_AX, SKD_GPR_CX, SKD_GPR_DX,
	SKD_GPR_BX, SKD_GPR_SP, SKD_GPR_BP, SKD_GPR_SI, SKD_GPR_DI,
	SKD_GPR_R8, SKD_GPR_R9, SKD_GPR_R10, SKD_GPR_R11, SKD_GPR_R12,
	SKD_GPR_R13, SKD_GPR_R14, SKD_GPR_R15,
};

#define GPRS_BYTES	(18 * 8)
#define XMM_BYTES	(16 * 2 * 8)	/* xmm0-15, two u64 each */
#define LBR_BYTES	(3 * 8)		/* from, to, info */

/* MSR_PEBS_DATA_CFG bits, which the format_size low bits reuse. */
#define CFG_MEMINFO	0x1ULL
#define CFG_GPRS	0x2ULL
#define CFG_XMMS	0x4ULL
#define CFG_LBRS	0x8ULL
#define CFG_LBR_SHIFT	24

#define RFLAGS_RSVD3	0x8ULL		/* reserved; perf's PERF_EFLAGS_EXACT */

/* ------------------------------------------------------------------ */
/* Values                                                              */

/* A kernel-looking eventing IP and the next instruction 3 bytes on. */
#define EVENT_IP(tag)	(0xffffffff81234000ULL + 0x40 * (uint64_t)(tag))
#define NEXT_IP(tag)	(EVENT_IP(tag) + 3)

/* Distinct per format, field and tag: 0xf, fmt, tag, field, 0xa5a5 + field */
static uint64_t fixed_val(unsigned int fmt, enum fixed_field f, unsigned int tag)
{
	switch (f) {
	case F_IP:
		return NEXT_IP(tag);
	case F_REAL_IP:
		return EVENT_IP(tag);
	case F_FLAGS:
		/* IF, ZF, PF and the reserved bit 3 set. */
		return 0x0000000000000246ULL | RFLAGS_RSVD3 |
		       ((uint64_t)tag << 20);
	default:
		return 0xf000000000000000ULL | ((uint64_t)fmt << 52) |
		       ((uint64_t)tag << 40) | ((uint64_t)f << 32) |
		       (0xa5a50000U + f);
	}
}

static uint32_t fixed_size(unsigned int fmt)
{
	return 8 * fixed_nfields[fmt];
}

static void fixed_write(uint8_t *r, unsigned int fmt, unsigned int tag)
{
	for (unsigned int f = 0; f < fixed_nfields[fmt]; f++)
		put64(r, 8 * f, fixed_val(fmt, f, tag));
}

/* Does any u64 of the decoded record hold @v? */
static bool rec_holds(const struct skd_pebs_rec *o, uint64_t v)
{
	if (o->ip == v || o->applicable == v || o->addr == v ||
	    o->source == v || o->latency == v || o->tsc == v)
		return true;
	for (int i = 0; i < SKD_GPR_NR; i++)
		if (o->gprs[i] == v)
			return true;
	return false;
}

static void check_fixed(const struct skd_pebs_rec *o, unsigned int fmt,
			unsigned int tag)
{
	assert_int_equal(o->size, fixed_size(fmt));
	assert_true(o->has_gprs);
	for (size_t i = 0; i < ARRAY_SIZE(fixed_gprs); i++) {
		uint64_t want = fixed_val(fmt, fixed_gprs[i].f, tag);

		if (fixed_gprs[i].f == F_FLAGS)
			want &= ~RFLAGS_RSVD3;
		assert_int_equal(o->gprs[fixed_gprs[i].gpr], want);
	}
	assert_int_equal(o->applicable, fixed_val(fmt, F_STATUS, tag));
	assert_true(o->has_mem);
	assert_int_equal(o->addr, fixed_val(fmt, F_DLA, tag));
	assert_int_equal(o->source, fixed_val(fmt, F_DSE, tag));
	assert_int_equal(o->latency, fixed_val(fmt, F_LAT, tag));
	if (fmt == 1) {
		/* No EventingIP: the off-by-1 IP, flagged inexact. */
		assert_int_equal(o->ip, NEXT_IP(tag));
		assert_false(o->exact);
	} else {
		assert_int_equal(o->ip, EVENT_IP(tag));
		assert_true(o->exact);
		assert_int_equal(o->gprs[SKD_GPR_IP], NEXT_IP(tag));
		assert_false(rec_holds(o, fixed_val(fmt, F_TSX_TUNING, tag)));
	}
	if (fmt == 3) {
		assert_true(o->has_tsc);
		assert_int_equal(o->tsc, fixed_val(fmt, F_TSC, tag));
	} else {
		assert_false(o->has_tsc);
		assert_int_equal(o->tsc, 0);
	}
	assert_int_equal(o->nr_lbr, 0);
	assert_null(o->lbr);
}

/* ------------------------------------------------------------------ */
/* Adaptive records                                                    */

struct ad_spec {
	bool mem, gprs, xmm, lbr;
	unsigned int nlbr;		/* with lbr: 1..256 */
	unsigned int junk_nlbr;		/* without lbr: bits 31:24 anyway */
	unsigned int extra;		/* bytes after the groups */
};

static uint32_t ad_need(const struct ad_spec *s)
{
	return BASIC_BYTES + (s->mem ? MEMINFO_BYTES : 0) +
	       (s->gprs ? GPRS_BYTES : 0) + (s->xmm ? XMM_BYTES : 0) +
	       (s->lbr ? LBR_BYTES * s->nlbr : 0);
}

static uint32_t ad_size(const struct ad_spec *s)
{
	return ad_need(s) + s->extra;
}

static uint64_t ad_flags(const struct ad_spec *s)
{
	uint64_t f = (s->mem ? CFG_MEMINFO : 0) | (s->gprs ? CFG_GPRS : 0) |
		     (s->xmm ? CFG_XMMS : 0);

	if (s->lbr)
		f |= CFG_LBRS | ((uint64_t)(s->nlbr - 1) << CFG_LBR_SHIFT);
	else
		f |= (uint64_t)s->junk_nlbr << CFG_LBR_SHIFT;
	return f;
}

static uint64_t ad_mem_val(unsigned int slot, unsigned int tag)
{
	return 0x4d454d0000000000ULL | ((uint64_t)tag << 16) | (slot + 1);
}

/* GPR group value by hardware position (1 is the off-by-1 IP). */
static uint64_t ad_gpr_val(unsigned int pos, unsigned int tag)
{
	if (pos == 0)
		return 0x0000000000000202ULL | RFLAGS_RSVD3 | ((uint64_t)tag << 20);
	if (pos == 1)
		return NEXT_IP(tag);
	return 0x6750520000000000ULL | ((uint64_t)tag << 16) | (pos << 8) | pos;
}

static uint64_t ad_xmm_val(unsigned int i, unsigned int tag)
{
	return 0x584d4d0000000000ULL | ((uint64_t)tag << 16) | i;
}

static uint64_t ad_lbr_val(unsigned int e, unsigned int w, unsigned int tag)
{
	return 0xffffffff82000000ULL | ((uint64_t)tag << 16) |
	       ((uint64_t)e << 4) | w;
}

#define AD_APPLICABLE_VAL(tag)	(0x0000000100000005ULL | ((uint64_t)(tag) << 8))
#define AD_TSC_VAL(tag)		(0x0123456789a00000ULL + (tag))

/*
 * Write the record of @s at @r. @hdr_size is what format_size claims
 * (normally ad_size(s)); only the bytes of ad_size(s) are written.
 */
static void ad_write_sized(uint8_t *r, const struct ad_spec *s,
			   uint32_t hdr_size, unsigned int tag)
{
	size_t off = BASIC_BYTES;

	put64(r, B_FORMAT_SIZE, ((uint64_t)hdr_size << 48) | ad_flags(s));
	put64(r, B_IP, EVENT_IP(tag));
	put64(r, B_APPLICABLE, AD_APPLICABLE_VAL(tag));
	put64(r, B_TSC, AD_TSC_VAL(tag));
	if (s->mem) {
		put64(r, off + M_ADDRESS, ad_mem_val(0, tag));
		put64(r, off + M_AUX, ad_mem_val(1, tag));
		put64(r, off + M_LATENCY, ad_mem_val(2, tag));
		put64(r, off + M_TSX_TUNING, ad_mem_val(3, tag));
		off += MEMINFO_BYTES;
	}
	if (s->gprs) {
		for (unsigned int i = 0; i < 18; i++)
			put64(r, off + 8 * i, ad_gpr_val(i, tag));
		off += GPRS_BYTES;
	}
	if (s->xmm) {
		for (unsigned int i = 0; i < XMM_BYTES / 8; i++)
			put64(r, off + 8 * i, ad_xmm_val(i, tag));
		off += XMM_BYTES;
	}
	if (s->lbr) {
		for (unsigned int e = 0; e < s->nlbr; e++)
			for (unsigned int w = 0; w < 3; w++)
				put64(r, off + LBR_BYTES * e + 8 * w,
				      ad_lbr_val(e, w, tag));
		off += LBR_BYTES * s->nlbr;
	}
	for (unsigned int i = 0; i < s->extra; i++)
		r[off + i] = 0xee;
}

static void ad_write(uint8_t *r, const struct ad_spec *s, unsigned int tag)
{
	ad_write_sized(r, s, ad_size(s), tag);
}

static void check_adaptive(const struct skd_pebs_rec *o, const uint8_t *r,
			   const struct ad_spec *s, unsigned int tag)
{
	uint32_t size = ad_size(s);
	size_t off = BASIC_BYTES;

	assert_int_equal(o->size, size);
	assert_int_equal(o->ip, EVENT_IP(tag));
	assert_true(o->exact);
	assert_int_equal(o->applicable, AD_APPLICABLE_VAL(tag));
	assert_true(o->has_tsc);
	assert_int_equal(o->tsc, AD_TSC_VAL(tag));

	assert_int_equal(o->has_mem, s->mem);
	if (s->mem) {
		assert_int_equal(o->addr, ad_mem_val(0, tag));
		assert_int_equal(o->source, ad_mem_val(1, tag));
		assert_int_equal(o->latency, ad_mem_val(2, tag));
		assert_false(rec_holds(o, ad_mem_val(3, tag)));
		off += MEMINFO_BYTES;
	} else {
		assert_int_equal(o->addr, 0);
		assert_int_equal(o->source, 0);
		assert_int_equal(o->latency, 0);
	}

	assert_int_equal(o->has_gprs, s->gprs);
	if (s->gprs) {
		for (unsigned int i = 0; i < 18; i++) {
			uint64_t want = ad_gpr_val(i, tag);

			if (i == 0)
				want &= ~RFLAGS_RSVD3;
			assert_int_equal(o->gprs[adaptive_gpr_order[i]], want);
		}
		/* The GPR ip is the off-by-1 one; ->ip stays EventingIP. */
		assert_int_equal(o->gprs[SKD_GPR_IP], NEXT_IP(tag));
		off += GPRS_BYTES;
	} else {
		for (int i = 0; i < SKD_GPR_NR; i++)
			assert_int_equal(o->gprs[i], 0);
	}

	if (s->xmm) {
		for (unsigned int i = 0; i < XMM_BYTES / 8; i++)
			assert_false(rec_holds(o, ad_xmm_val(i, tag)));
		off += XMM_BYTES;
	}

	if (s->lbr) {
		assert_int_equal(o->nr_lbr, s->nlbr);
		assert_ptr_equal(o->lbr, r + off);
		assert_true(o->lbr + LBR_BYTES * o->nr_lbr <= r + size);
		for (unsigned int e = 0; e < s->nlbr; e++)
			for (unsigned int w = 0; w < 3; w++)
				assert_int_equal(get64(o->lbr, LBR_BYTES * e + 8 * w),
						 ad_lbr_val(e, w, tag));
	} else {
		assert_int_equal(o->nr_lbr, 0);
		assert_null(o->lbr);
	}
}

static struct ad_spec spec_of(unsigned int mask, unsigned int nlbr)
{
	struct ad_spec s = {
		.mem = mask & 1, .gprs = mask & 2, .xmm = mask & 4,
		.lbr = mask & 8, .nlbr = nlbr, .junk_nlbr = 7,
	};

	return s;
}

static const unsigned int lbr_counts[] = { 1, 8, 32 };

/*
 * Run the statements after @s once for each of the 16 group sets (LBR ones
 * once per count of lbr_counts), with @s describing the record.
 */
#define FOR_EACH_SPEC(s, ...) do {						\
	for (unsigned int mask_ = 0; mask_ < 16; mask_++) {			\
		for (unsigned int c_ = 0; c_ < 3; c_++) {			\
			if (!(mask_ & 8) && c_)					\
				break;						\
			struct ad_spec s = spec_of(mask_, lbr_counts[c_]);	\
			__VA_ARGS__						\
		}								\
	}									\
} while (0)

/* ------------------------------------------------------------------ */
/* Tests                                                               */

/* pebs.h's size constants agree with the reference tables. */
static void test_constants_match_reference(void **state)
{
	(void)state;
	for (unsigned int fmt = 0; fmt < 4; fmt++)
		assert_int_equal(fixed_size(fmt), fixed_ref_size[fmt]);
	assert_int_equal(SKD_PEBS_FMT1_SIZE, 176);
	assert_int_equal(SKD_PEBS_FMT2_SIZE, 192);
	assert_int_equal(SKD_PEBS_FMT3_SIZE, 200);
	assert_int_equal(SKD_PEBS_BASIC_SIZE, BASIC_BYTES);
	assert_int_equal(SKD_PEBS_MEMINFO_SIZE, MEMINFO_BYTES);
	assert_int_equal(SKD_PEBS_GPRS_SIZE, GPRS_BYTES);
	assert_int_equal(SKD_PEBS_XMMS_SIZE, XMM_BYTES);
	assert_int_equal(SKD_PEBS_LBR_SIZE, LBR_BYTES);
}

/* Formats 1-3 have one size whatever baseline and DATA_CFG say. */
static void test_record_size_fixed(void **state)
{
	static const uint64_t cfgs[] = { 0, 0xf, 0xff00000f, ~0ULL };

	(void)state;
	for (unsigned int fmt = 1; fmt <= 3; fmt++)
		for (size_t i = 0; i < 4; i++) {
			assert_int_equal(skd_pebs_record_size(fmt, false, cfgs[i]),
					 fixed_ref_size[fmt]);
			assert_int_equal(skd_pebs_record_size(fmt, true, cfgs[i]),
					 fixed_ref_size[fmt]);
		}
}

/* Formats 0 and 6+ are not decoded: size 0, -EINVAL, no read. */
static void test_unknown_formats(void **state)
{
	static const uint32_t fmts[] = { 0, 6, 7, 8, 15, 16, 0xff, 0xffffffffU };
	struct skd_pebs_rec o;
	uint8_t *r = at_end(256);

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(fmts); i++) {
		for (int b = 0; b < 2; b++) {
			assert_int_equal(skd_pebs_record_size(fmts[i], b, 0), 0);
			assert_int_equal(skd_pebs_record_size(fmts[i], b, 0xf), 0);
			fixed_write(r + 56, 3, 1);
			assert_int_equal(skd_pebs_decode(r, 256, fmts[i], b, &o),
					 -EINVAL);
			assert_int_equal(skd_pebs_decode(g_end, 0, fmts[i], b, &o),
					 -EINVAL);
		}
	}
}

/* Every field of formats 1, 2, 3 at its reference offset. */
static void test_fixed_fields(void **state)
{
	struct skd_pebs_rec o;

	(void)state;
	for (unsigned int fmt = 1; fmt <= 3; fmt++) {
		for (int b = 0; b < 2; b++) {
			uint32_t size = fixed_size(fmt);
			uint8_t *r = at_end(size);

			fixed_write(r, fmt, fmt + 10 * b);
			assert_int_equal(skd_pebs_decode(r, size, fmt, b, &o),
					 (int)size);
			check_fixed(&o, fmt, fmt + 10 * b);

			/* More bytes after it: still one record. */
			r = at_end(size + 72);
			fixed_write(r, fmt, 5);
			memset(r + size, 0xff, 72);
			assert_int_equal(skd_pebs_decode(r, size + 72, fmt, b, &o),
					 (int)size);
			check_fixed(&o, fmt, 5);
		}
	}
}

/*
 * EventingIP vs the off-by-1 IP, per format: user-space addresses this
 * time, and the two IPs one 5-byte instruction apart.
 */
static void test_eventing_ip(void **state)
{
	const uint64_t eip = 0x401000, next = 0x401005;
	struct skd_pebs_rec o;

	(void)state;
	for (unsigned int fmt = 1; fmt <= 3; fmt++) {
		uint8_t *r = at_end(fixed_size(fmt));

		put64(r, 8 * F_IP, next);
		if (fmt >= 2)
			put64(r, 8 * F_REAL_IP, eip);
		assert_int_equal(skd_pebs_decode(r, fixed_size(fmt), fmt, false, &o),
				 (int)fixed_size(fmt));
		assert_int_equal(o.gprs[SKD_GPR_IP], next);
		if (fmt == 1) {
			assert_int_equal(o.ip, next);
			assert_false(o.exact);
		} else {
			assert_int_equal(o.ip, eip);
			assert_true(o.exact);
		}
	}
	for (unsigned int fmt = 4; fmt <= 5; fmt++) {
		struct ad_spec s = spec_of(CFG_GPRS, 1);
		uint8_t *r = at_end(ad_size(&s));

		ad_write(r, &s, 0);
		put64(r, B_IP, eip);
		put64(r, BASIC_BYTES + 8, next);	/* GPR group ip */
		assert_int_equal(skd_pebs_decode(r, ad_size(&s), fmt, true, &o),
				 (int)ad_size(&s));
		assert_int_equal(o.ip, eip);
		assert_true(o.exact);
		assert_int_equal(o.gprs[SKD_GPR_IP], next);

		/* Basic-only records still carry the EventingIP. */
		r = at_end(BASIC_BYTES);
		put64(r, B_IP, eip);
		assert_int_equal(skd_pebs_decode(r, BASIC_BYTES, fmt, false, &o),
				 BASIC_BYTES);
		assert_int_equal(o.ip, eip);
		assert_true(o.exact);
		assert_false(o.has_gprs);
	}
}

/* RFLAGS bit 3 is cleared, the other bits kept, for all GPR layouts. */
static void test_rflags_bit3(void **state)
{
	struct skd_pebs_rec o;

	(void)state;
	for (unsigned int fmt = 1; fmt <= 5; fmt++) {
		uint32_t size;
		uint8_t *r;

		if (fmt <= 3) {
			size = fixed_size(fmt);
			r = at_end(size);
			put64(r, 8 * F_FLAGS, ~0ULL);
		} else {
			struct ad_spec s = spec_of(CFG_GPRS, 1);

			size = ad_size(&s);
			r = at_end(size);
			ad_write(r, &s, 0);
			put64(r, BASIC_BYTES, ~0ULL);
		}
		assert_int_equal(skd_pebs_decode(r, size, fmt, true, &o), (int)size);
		assert_int_equal(o.gprs[SKD_GPR_FLAGS], ~RFLAGS_RSVD3);
	}
}

/* A fixed record with fewer than its size readable: -EINVAL, no read. */
static void test_fixed_truncated(void **state)
{
	struct skd_pebs_rec o;

	(void)state;
	for (unsigned int fmt = 1; fmt <= 3; fmt++)
		for (uint32_t avail = 0; avail < fixed_size(fmt); avail++) {
			uint8_t *r = at_end(avail);

			memset(r, 0x5a, avail);
			assert_int_equal(skd_pebs_decode(r, avail, fmt, false, &o),
					 -EINVAL);
			assert_int_equal(skd_pebs_decode(r, avail, fmt, true, &o),
					 -EINVAL);
		}
}

/*
 * All 16 combinations of meminfo/GPRs/XMM/LBR, LBR with 1, 8 and 32
 * entries, formats 4 and 5: each field where the table puts it, the size
 * skd_pebs_record_size() predicts from the same flags as DATA_CFG, and the
 * LBR bytes in place. Without the LBR flag, bits 31:24 are set anyway and
 * must be ignored.
 */
static void test_adaptive_combinations(void **state)
{
	struct skd_pebs_rec o;
	unsigned int n = 0;

	(void)state;
	for (unsigned int fmt = 4; fmt <= 5; fmt++) {
		FOR_EACH_SPEC(s, {
			uint32_t size = ad_size(&s);
			uint8_t *r = at_end(size);

			ad_write(r, &s, n);
			assert_int_equal(skd_pebs_record_size(fmt, true, ad_flags(&s)),
					 size);
			assert_int_equal(skd_pebs_decode(r, size, fmt, true, &o),
					 (int)size);
			check_adaptive(&o, r, &s, n);

			/* Followed by other bytes: same record. */
			r = at_end(size + 24);
			ad_write(r, &s, n);
			memset(r + size, 0xcc, 24);
			assert_int_equal(skd_pebs_decode(r, size + 24, fmt, true, &o),
					 (int)size);
			check_adaptive(&o, r, &s, n);
			n++;
		});
	}
	/* 8 sets without LBR + 8 with, times 3 counts; two formats. */
	assert_int_equal(n, 2 * (8 + 8 * 3));
}

/* The largest LBR count the header can express (256) and DATA_CFG's. */
static void test_adaptive_max_lbr(void **state)
{
	struct ad_spec s = spec_of(15, 256);
	uint32_t size = ad_size(&s);
	uint8_t *r = at_end(size);
	struct skd_pebs_rec o;

	(void)state;
	assert_int_equal(size, 32 + 32 + 144 + 256 + 24 * 256);
	ad_write(r, &s, 3);
	assert_int_equal(skd_pebs_record_size(5, true, ad_flags(&s)), size);
	assert_int_equal(skd_pebs_decode(r, size, 5, true, &o), (int)size);
	check_adaptive(&o, r, &s, 3);
	/* Unknown DATA_CFG bits do not change the size. */
	assert_int_equal(skd_pebs_record_size(4, true, 0xf0 | 0xff0000ULL), 32);
	assert_int_equal(skd_pebs_record_size(4, true, 0), 32);
}

/* A size larger than the groups need is walked over (future groups). */
static void test_adaptive_trailing(void **state)
{
	struct skd_pebs_rec o;

	(void)state;
	for (unsigned int extra = 8; extra <= 64; extra += 8) {
		FOR_EACH_SPEC(s, {
			s.extra = extra;
			uint32_t size = ad_size(&s);
			uint8_t *r = at_end(size);

			ad_write(r, &s, extra);
			assert_int_equal(skd_pebs_decode(r, size, 4, true, &o),
					 (int)size);
			check_adaptive(&o, r, &s, extra);
		});
	}
}

static void expect_bad(const struct ad_spec *s, uint32_t hdr_size,
		       uint32_t avail, unsigned int fmt)
{
	uint32_t written = ad_size(s) < avail ? ad_size(s) : avail;
	uint8_t *full = calloc(1, ad_size(s) + 8);
	struct skd_pebs_rec o;
	uint8_t *r;

	assert_non_null(full);
	ad_write_sized(full, s, hdr_size, 9);
	/* The first @avail bytes of the record, then the guard page. */
	r = at_end(avail);
	memset(r, 0xab, avail);
	memcpy(r, full, written);
	assert_int_equal(skd_pebs_decode(r, avail, fmt, true, &o), -EINVAL);
	free(full);
}

/*
 * Inconsistent adaptive records: size smaller than the flagged groups,
 * not a multiple of 8, zero, larger than what is readable, header cut off.
 */
static void test_adaptive_inconsistent(void **state)
{
	unsigned int cases = 0;

	(void)state;
	for (unsigned int fmt = 4; fmt <= 5; fmt++) {
		FOR_EACH_SPEC(s, {
			uint32_t need = ad_need(&s);

			/* Size short of the groups, by one word or one byte. */
			expect_bad(&s, need - 8, need, fmt);
			expect_bad(&s, need - 1, need, fmt);
			if (need > 64)
				expect_bad(&s, 32, need, fmt);
			expect_bad(&s, 0, need, fmt);
			/* Not a multiple of 8. */
			for (uint32_t d = 1; d < 8; d++)
				expect_bad(&s, need + d, need + 16, fmt);
			/* Consistent size, but the bytes end before it. */
			expect_bad(&s, need, need - 8, fmt);
			expect_bad(&s, need, need - 1, fmt);
			/* Claims more than is readable. */
			expect_bad(&s, need + 8, need, fmt);
			expect_bad(&s, 0xfff8, need, fmt);
			expect_bad(&s, 0xffff, need, fmt);
			cases++;
		});
	}
	assert_int_equal(cases, 64);
}

/* Fewer bytes than a basic group: -EINVAL with and without baseline. */
static void test_adaptive_short_basic(void **state)
{
	struct skd_pebs_rec o;

	(void)state;
	for (unsigned int fmt = 4; fmt <= 5; fmt++)
		for (uint32_t avail = 0; avail < BASIC_BYTES; avail++) {
			uint8_t *r = at_end(avail);

			/* Whatever is there claims a 32-byte record. */
			if (avail >= 8)
				put64(r, 0, 32ULL << 48);
			assert_int_equal(skd_pebs_decode(r, avail, fmt, true, &o),
					 -EINVAL);
			assert_int_equal(skd_pebs_decode(r, avail, fmt, false, &o),
					 -EINVAL);
		}
}

/*
 * Format 4/5 without adaptive PEBS: the basic group only, 32 bytes, even
 * when its format_size word claims groups and another size.
 */
static void test_basic_only(void **state)
{
	struct ad_spec s = spec_of(15, 8);
	struct skd_pebs_rec o;
	uint8_t *r, *full;

	(void)state;
	for (unsigned int fmt = 4; fmt <= 5; fmt++) {
		assert_int_equal(skd_pebs_record_size(fmt, false, 0), 32);
		assert_int_equal(skd_pebs_record_size(fmt, false, ad_flags(&s)), 32);
		/* The basic group of a full record, claiming all groups. */
		full = calloc(1, ad_size(&s));
		assert_non_null(full);
		ad_write(full, &s, fmt);
		r = at_end(BASIC_BYTES);
		memcpy(r, full, BASIC_BYTES);
		free(full);
		assert_int_equal(skd_pebs_decode(r, BASIC_BYTES, fmt, false, &o),
				 BASIC_BYTES);
		assert_int_equal(o.size, BASIC_BYTES);
		assert_int_equal(o.ip, EVENT_IP(fmt));
		assert_true(o.exact);
		assert_int_equal(o.applicable, AD_APPLICABLE_VAL(fmt));
		assert_true(o.has_tsc);
		assert_int_equal(o.tsc, AD_TSC_VAL(fmt));
		assert_false(o.has_mem);
		assert_false(o.has_gprs);
		assert_int_equal(o.nr_lbr, 0);
		assert_null(o.lbr);
	}
}

/* Fill helper for the stream tests: @n specs back to back, end at guard. */
static uint8_t *stream_write(const struct ad_spec *specs, unsigned int n,
			     uint32_t *total)
{
	uint32_t len = 0, off = 0;
	uint8_t *p;

	for (unsigned int i = 0; i < n; i++)
		len += ad_size(&specs[i]);
	p = at_end(len);
	for (unsigned int i = 0; i < n; i++) {
		ad_write(p + off, &specs[i], 100 + i);
		off += ad_size(&specs[i]);
	}
	*total = len;
	return p;
}

/*
 * A buffer of adaptive records of different layouts, walked by the size
 * each decode returns, as the drain does; then the same with the last
 * record cut short, and a uniform fixed-format stream.
 */
static void test_stream(void **state)
{
	struct ad_spec specs[] = {
		spec_of(0, 1), spec_of(3, 1), spec_of(8, 8), spec_of(15, 32),
		spec_of(4, 1), spec_of(9, 1), spec_of(0, 1),
	};
	const unsigned int n = ARRAY_SIZE(specs);
	struct skd_pebs_rec o;
	uint32_t total, off;
	unsigned int i;
	uint8_t *p;
	int ret;

	(void)state;
	specs[4].extra = 16;
	p = stream_write(specs, n, &total);
	for (i = 0, off = 0; off < total; i++) {
		ret = skd_pebs_decode(p + off, total - off, 5, true, &o);
		assert_int_equal(ret, (int)ad_size(&specs[i]));
		check_adaptive(&o, p + off, &specs[i], 100 + i);
		off += ret;
	}
	assert_int_equal(i, n);
	assert_int_equal(off, total);

	/* The last record loses its tail: everything before still decodes. */
	specs[n - 1] = spec_of(2, 1);
	p = stream_write(specs, n, &total);
	p += 8;
	memmove(p, p - 8, total - 8);
	total -= 8;
	for (i = 0, off = 0; i < n - 1; i++) {
		ret = skd_pebs_decode(p + off, total - off, 4, true, &o);
		assert_int_equal(ret, (int)ad_size(&specs[i]));
		check_adaptive(&o, p + off, &specs[i], 100 + i);
		off += ret;
	}
	assert_int_equal(skd_pebs_decode(p + off, total - off, 4, true, &o),
			 -EINVAL);

	/* Fixed formats: uniform records. */
	for (unsigned int fmt = 1; fmt <= 3; fmt++) {
		const unsigned int nrec = 6;

		total = nrec * fixed_size(fmt);
		p = at_end(total);
		for (i = 0; i < nrec; i++)
			fixed_write(p + i * fixed_size(fmt), fmt, 20 + i);
		for (i = 0, off = 0; off < total; i++) {
			ret = skd_pebs_decode(p + off, total - off, fmt, false, &o);
			assert_int_equal(ret, (int)fixed_size(fmt));
			check_fixed(&o, fmt, 20 + i);
			off += ret;
		}
		assert_int_equal(i, nrec);
	}

	/* Basic-only records. */
	total = 5 * BASIC_BYTES;
	p = at_end(total);
	for (i = 0; i < 5; i++) {
		put64(p + i * BASIC_BYTES, B_FORMAT_SIZE, 0xffffULL << 48 | 0xf);
		put64(p + i * BASIC_BYTES, B_IP, EVENT_IP(i));
	}
	for (i = 0, off = 0; off < total; i++) {
		ret = skd_pebs_decode(p + off, total - off, 4, false, &o);
		assert_int_equal(ret, BASIC_BYTES);
		assert_int_equal(o.ip, EVENT_IP(i));
		off += ret;
	}
	assert_int_equal(i, 5);
}

/* xorshift64*: fixed seed, reproducible. */
static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

#define FUZZ_ITERS 40000

/*
 * Random bytes and sizes for every format (0-7, some larger), baseline on
 * and off. Most adaptive cases (and some others) get a header with
 * plausible flags and a size near what they need, so both the accept and
 * the reject paths run. Every return is -EINVAL or a size within @avail,
 * and the LBR pointer stays inside the record. The record ends at the
 * guard page.
 */
static void test_random(void **state)
{
	const uint32_t max = GUARD_DATA_PAGES * (uint32_t)g_page;
	unsigned int accepted = 0, rejected = 0, adaptive_ok = 0;
	struct skd_pebs_rec o;

	(void)state;
	for (unsigned int it = 0; it < FUZZ_ITERS; it++) {
		uint64_t r0 = rnd();
		uint32_t fmt = (r0 & 0xf) < 12 ? (r0 & 7) : (uint32_t)(r0 >> 32);
		bool baseline = r0 & 0x10;
		uint32_t avail;
		uint8_t *p;
		int ret;

		switch ((r0 >> 5) & 3) {
		case 0:
			avail = rnd() % (max + 1);
			break;
		case 1:
			avail = rnd() % 64;
			break;
		default:
			avail = rnd() % 2048;
			break;
		}
		p = at_end(avail);
		for (uint32_t i = 0; i < avail; i += 8) {
			uint64_t v = rnd();

			for (uint32_t j = 0; j < 8 && i + j < avail; j++)
				p[i + j] = (uint8_t)(v >> (8 * j));
		}
		if (avail >= 8 && ((r0 & 0x80) ||
				   ((fmt == 4 || fmt == 5) && (r0 & 0x700)))) {
			uint64_t flags = rnd() & (0xfULL | (0xffULL << 24));

			/* Mostly LBR counts that fit the sizes drawn above. */
			if (rnd() % 4)
				flags &= ~(0xe0ULL << 24);
			uint32_t need = skd_pebs_record_size(5, true, flags);
			uint32_t size;

			switch (rnd() % 4) {
			case 0:
				size = need;
				break;
			case 1:
				size = need + 8 * (rnd() % 4);
				break;
			case 2:
				size = need - 8 * (rnd() % 4);
				break;
			default:
				size = rnd() & 0xffff;
				break;
			}
			put64(p, 0, ((uint64_t)(size & 0xffff) << 48) | flags |
				    (rnd() & 0xffff00fffff0ULL));
		}
		ret = skd_pebs_decode(p, avail, fmt, baseline, &o);
		if (ret == -EINVAL) {
			rejected++;
			continue;
		}
		accepted++;
		assert_true(ret > 0);
		assert_true((uint32_t)ret <= avail);
		assert_int_equal(ret % 8, 0);
		assert_int_equal(o.size, (uint32_t)ret);
		assert_true(fmt >= 1 && fmt <= 5);
		if (fmt <= 3 || !baseline) {
			assert_int_equal(ret, skd_pebs_record_size(fmt, baseline, 0));
		} else {
			uint64_t hdr = get64(p, 0);

			assert_int_equal((uint32_t)ret, hdr >> 48);
			assert_true(skd_pebs_record_size(fmt, true, hdr) <=
				    (uint32_t)ret);
			adaptive_ok++;
		}
		if (o.nr_lbr) {
			assert_true(o.nr_lbr <= 256);
			assert_true(o.lbr >= p + BASIC_BYTES);
			assert_true(o.lbr + (size_t)LBR_BYTES * o.nr_lbr <=
				    p + ret);
		} else {
			assert_null(o.lbr);
		}
	}
	print_message("# random: %u accepted (%u adaptive), %u rejected\n",
		      accepted, adaptive_ok, rejected);
	assert_true(accepted > FUZZ_ITERS / 10);
	assert_true(adaptive_ok > FUZZ_ITERS / 100);
	assert_true(rejected > FUZZ_ITERS / 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constants_match_reference),
		cmocka_unit_test(test_record_size_fixed),
		cmocka_unit_test(test_unknown_formats),
		cmocka_unit_test(test_fixed_fields),
		cmocka_unit_test(test_eventing_ip),
		cmocka_unit_test(test_rflags_bit3),
		cmocka_unit_test(test_fixed_truncated),
		cmocka_unit_test(test_adaptive_combinations),
		cmocka_unit_test(test_adaptive_max_lbr),
		cmocka_unit_test(test_adaptive_trailing),
		cmocka_unit_test(test_adaptive_inconsistent),
		cmocka_unit_test(test_adaptive_short_basic),
		cmocka_unit_test(test_basic_only),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, guard_setup, guard_teardown);
}
