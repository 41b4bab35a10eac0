// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the LBR decoder, kmod/intel/lbr_decode.c.
 *
 * Raw FROM/TO/INFO values are composed here from the bit positions the
 * Intel SDM gives (Vol. 3B, "Last Branch Records": the LBR record formats
 * of IA32_PERF_CAPABILITIES[5:0], MSR_LBR_INFO_x, and for architectural
 * LBR IA32_LBR_x_INFO with the fields CPUID leaf 1CH:ECX enumerates;
 * Linux decodes the same layouts in arch/x86/events/intel/lbr.c,
 * intel_pmu_lbr_read_64() and intel_pmu_arch_lbr_read()), written out
 * below as RAW_*, and the expected entries from the SKD_BR_INFO_* layout
 * of uapi/skidless.h. Addresses are a kernel one (negative, so every
 * sign-extension bit is 1) and a user one (every such bit 0); a decoder
 * that masks instead of sign-extending, or extends from the wrong bit,
 * gets one of the two wrong.
 *
 * Tables of cases are one test each, and say how many cases they ran.
 */
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

#include "lbr.h"

/* SDM bit positions of the raw values. */
#define RAW_MISPRED	(1ULL << 63)	/* FROM fmt 3/4/6; INFO fmt 5/7/arch */
#define RAW_IN_TX	(1ULL << 62)	/* FROM fmt 4; INFO fmt 5/arch */
#define RAW_ABORT	(1ULL << 61)	/* FROM fmt 4; INFO fmt 5/arch */
#define RAW_CYC_VALID	(1ULL << 60)	/* arch INFO */
#define RAW_TYPE(t)	((uint64_t)(t) << 56)	/* arch INFO 59:56 */
#define RAW_TO_CYC(c)	((uint64_t)(c) << 48)	/* fmt 6 TO 63:48 */

#define KADDR		0xffffffff81a0b0c8ULL	/* kernel: negative */
#define KADDR2		0xffffffffc0de1234ULL	/* module space */
#define UADDR		0x00007f1234567890ULL	/* user */
#define UADDR2		0x0000000000401006ULL

static const uint64_t addrs[] = { KADDR, KADDR2, UADDR, UADDR2 };
#define NADDR ARRAY_SIZE(addrs)

/* The low @bits bits of @a: what is left of an address under flags. */
static uint64_t low(uint64_t a, unsigned int bits)
{
	return a & ((1ULL << bits) - 1);
}

static uint64_t flags_of(bool m, bool t, bool a)
{
	return (m ? SKD_BR_INFO_MISPRED : 0) | (t ? SKD_BR_INFO_IN_TX : 0) |
	       (a ? SKD_BR_INFO_ABORT : 0);
}

static void expect(const struct skd_branch_entry *e, uint64_t from,
		   uint64_t to, uint64_t info)
{
	if (e->from != from || e->to != to || e->info != info)
		print_error("got %#" PRIx64 " %#" PRIx64 " %#" PRIx64
			    ", want %#" PRIx64 " %#" PRIx64 " %#" PRIx64 "\n",
			    (uint64_t)e->from, (uint64_t)e->to,
			    (uint64_t)e->info, from, to, info);
	assert_int_equal(e->from, from);
	assert_int_equal(e->to, to);
	assert_int_equal(e->info, info);
}

static const uint16_t cycles[] = { 0, 1, 0x1234, 0xbeef, 0xffff };
#define NCYC ARRAY_SIZE(cycles)

/* Bits of LBR_INFO that no format defines: must never reach ->info. */
#define INFO_RESERVED	0x0fffffffffff0000ULL	/* 59:16 */

/* Format 0: one u64 holds from (31:0) and to (63:32); TO is ignored. */
static void test_fmt0(void **state)
{
	struct skd_branch_entry e;

	(void)state;
	skd_lbr_decode_legacy(0, 0xc0001234080491a0ULL, 0x1111111111111111ULL,
			      ~0ULL, &e);
	/* 32-bit addresses, zero-extended (bit 31 of "to" is set). */
	expect(&e, 0x080491a0, 0xc0001234, 0);
	skd_lbr_decode_legacy(0, 0x00000010fffffff0ULL, 0, 0, &e);
	expect(&e, 0xfffffff0, 0x10, 0);
}

/* Formats 1, 2: 64-bit addresses taken whole, no flags. */
static void test_fmt1_2(void **state)
{
	struct skd_branch_entry e;

	(void)state;
	for (uint32_t fmt = 1; fmt <= 2; fmt++)
		for (size_t i = 0; i < NADDR; i++) {
			uint64_t to = addrs[(i + 1) % NADDR];

			skd_lbr_decode_legacy(fmt, addrs[i], to, ~0ULL, &e);
			expect(&e, addrs[i], to, 0);
		}
}

/* Format 3: FROM[63] mispredicted, FROM sign-extended from bit 62. */
static void test_fmt3(void **state)
{
	struct skd_branch_entry e;

	(void)state;
	for (int m = 0; m < 2; m++)
		for (size_t i = 0; i < NADDR; i++) {
			uint64_t from = (m ? RAW_MISPRED : 0) | low(addrs[i], 63);
			uint64_t to = addrs[NADDR - 1 - i];

			skd_lbr_decode_legacy(3, from, to, ~0ULL, &e);
			expect(&e, addrs[i], to, flags_of(m, 0, 0));
		}
}

/* Format 4: FROM[63] mispred, [62] in_tx, [61] abort, extend from 60. */
static void test_fmt4(void **state)
{
	struct skd_branch_entry e;

	(void)state;
	for (int f = 0; f < 8; f++)
		for (size_t i = 0; i < NADDR; i++) {
			bool m = f & 1, t = f & 2, a = f & 4;
			uint64_t from = (m ? RAW_MISPRED : 0) |
					(t ? RAW_IN_TX : 0) |
					(a ? RAW_ABORT : 0) | low(addrs[i], 61);
			uint64_t to = addrs[(i + 2) % NADDR];

			skd_lbr_decode_legacy(4, from, to, ~0ULL, &e);
			expect(&e, addrs[i], to, flags_of(m, t, a));
		}
}

/*
 * Formats 5 and 7: flags and cycles in LBR_INFO (cycles always valid),
 * addresses whole. Format 7 has no TSX bits: set in INFO, they are not
 * reported. Reserved INFO bits are set in half the cases.
 */
static void test_fmt5_7(void **state)
{
	struct skd_branch_entry e;

	(void)state;
	for (uint32_t fmt = 5; fmt <= 7; fmt += 2)
		for (int f = 0; f < 16; f++)
			for (size_t c = 0; c < NCYC; c++)
				for (size_t i = 0; i < NADDR; i++) {
					bool m = f & 1, t = f & 2, a = f & 4;
					uint64_t info = (m ? RAW_MISPRED : 0) |
						(t ? RAW_IN_TX : 0) |
						(a ? RAW_ABORT : 0) |
						(f & 8 ? INFO_RESERVED : 0) |
						cycles[c];
					uint64_t to = addrs[(i + 3) % NADDR];
					uint64_t want = SKD_BR_INFO_CYC_VALID |
						cycles[c] |
						(fmt == 5 ? flags_of(m, t, a) :
						 flags_of(m, 0, 0));

					skd_lbr_decode_legacy(fmt, addrs[i], to,
							      info, &e);
					expect(&e, addrs[i], to, want);
				}
}

/*
 * Format 6: FROM[63] mispred, FROM extended from 62; TO[63:48] cycles,
 * TO extended from 47.
 */
static void test_fmt6(void **state)
{
	struct skd_branch_entry e;

	(void)state;
	for (int m = 0; m < 2; m++)
		for (size_t c = 0; c < NCYC; c++)
			for (size_t i = 0; i < NADDR; i++) {
				uint64_t to_addr = addrs[(i + 1) % NADDR];
				uint64_t from = (m ? RAW_MISPRED : 0) |
						low(addrs[i], 63);
				uint64_t to = RAW_TO_CYC(cycles[c]) | low(to_addr, 48);

				skd_lbr_decode_legacy(6, from, to, ~0ULL, &e);
				expect(&e, addrs[i], to_addr,
				       flags_of(m, 0, 0) | SKD_BR_INFO_CYC_VALID |
				       cycles[c]);
			}
}

/* The extension bit is exactly the one the format gives. */
static void test_sign_bit_edges(void **state)
{
	struct skd_branch_entry e;

	(void)state;
	/* fmt 3: bit 62 alone is the sign; bit 61 alone is not. */
	skd_lbr_decode_legacy(3, 1ULL << 62, 0, 0, &e);
	expect(&e, 0xc000000000000000ULL, 0, 0);
	skd_lbr_decode_legacy(3, 1ULL << 61, 0, 0, &e);
	expect(&e, 1ULL << 61, 0, 0);
	/* fmt 4: bit 60 is the sign. */
	skd_lbr_decode_legacy(4, 1ULL << 60, 0, 0, &e);
	expect(&e, 0xf000000000000000ULL, 0, 0);
	skd_lbr_decode_legacy(4, 1ULL << 59, 0, 0, &e);
	expect(&e, 1ULL << 59, 0, 0);
	/* fmt 6: TO bit 47 is the sign, bits 63:48 are not address. */
	skd_lbr_decode_legacy(6, 0, 1ULL << 47, 0, &e);
	expect(&e, 0, 0xffff800000000000ULL, SKD_BR_INFO_CYC_VALID);
	skd_lbr_decode_legacy(6, 0, (1ULL << 47) - 1, 0, &e);
	expect(&e, 0, (1ULL << 47) - 1, SKD_BR_INFO_CYC_VALID);
	/* fmt 5: addresses are not touched at all. */
	skd_lbr_decode_legacy(5, 1ULL << 62, 1ULL << 47, 0, &e);
	expect(&e, 1ULL << 62, 1ULL << 47, SKD_BR_INFO_CYC_VALID);
}

/* Formats the reference does not define are taken as plain addresses. */
static void test_unknown_format(void **state)
{
	static const uint32_t fmts[] = { 8, 0x3f, 0xffffffffU };
	struct skd_branch_entry e;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(fmts); i++) {
		skd_lbr_decode_legacy(fmts[i], KADDR, UADDR, ~0ULL, &e);
		expect(&e, KADDR, UADDR, 0);
	}
}

/*
 * CPUID.1CH:ECX, the IA32_LBR_x_INFO fields an architectural LBR fills
 * (SDM: bit 0 MISPRED, bit 1 timed LBRs: CYC_CNT and CYC_CNT_VALID, bit 2
 * BR_TYPE). A field the CPU does not enumerate holds nothing meaningful
 * and must not be reported.
 */
#define ECX_MISPRED	0x1
#define ECX_CYCLES	0x2
#define ECX_TYPE	0x4
#define ECX_ALL		0x7

/* The entry an arch LBR INFO value gives with the fields @ecx enumerates. */
static uint64_t arch_want(uint64_t info, uint32_t ecx)
{
	uint64_t w = flags_of((ecx & ECX_MISPRED) && (info & RAW_MISPRED),
			      info & RAW_IN_TX, info & RAW_ABORT);

	if ((ecx & ECX_CYCLES) && (info & RAW_CYC_VALID))
		w |= SKD_BR_INFO_CYC_VALID | (info & 0xffff);
	if (ecx & ECX_TYPE)
		w |= SKD_BR_INFO_TYPE_VALID |
		     ((uint64_t)((info >> 56) & 0xf) << SKD_BR_INFO_TYPE_SHIFT);
	return w;
}

/*
 * Arch LBR: every flag combination, CYC_CNT_VALID set and clear, every
 * branch type, reserved bits 55:16 set and clear, under each of the eight
 * CPUID.1CH:ECX values. The expected entry is built inline, field by
 * field, and must also be what arch_want() (used by the record tests)
 * says.
 */
static void test_arch(void **state)
{
	struct skd_branch_entry e;
	unsigned int n = 0;

	(void)state;
	for (uint32_t ecx = 0; ecx < 8; ecx++) {
		for (int f = 0; f < 32; f++)
			for (uint64_t type = 0; type < 16; type++)
				for (size_t c = 0; c < NCYC; c++) {
					bool m = f & 1, t = f & 2, a = f & 4;
					bool cv = f & 8;
					uint64_t info = (m ? RAW_MISPRED : 0) |
						(t ? RAW_IN_TX : 0) |
						(a ? RAW_ABORT : 0) |
						(cv ? RAW_CYC_VALID : 0) |
						RAW_TYPE(type) | cycles[c] |
						(f & 16 ? 0x00ffffffffff0000ULL : 0);
					uint64_t from = addrs[(f + c) % NADDR];
					uint64_t to = addrs[(type + c) % NADDR];
					uint64_t want = flags_of(m && (ecx & 1),
								 t, a);

					if ((ecx & 2) && cv)
						want |= SKD_BR_INFO_CYC_VALID |
							cycles[c];
					if (ecx & 4)
						want |= SKD_BR_INFO_TYPE_VALID |
							(type << SKD_BR_INFO_TYPE_SHIFT);
					skd_lbr_decode_arch(from, to, info, ecx,
							    &e);
					expect(&e, from, to, want);
					assert_int_equal(want,
							 arch_want(info, ecx));
					n++;
				}
	}
	assert_int_equal(n, 8 * 32 * 16 * NCYC);
	print_message("# %u cases\n", n);
}

/*
 * Each INFO field is reported only with its own ECX bit. Two INFO values
 * carry every field: a mispredicted near return (type 5) with a valid
 * cycle count of 0x2a, and the same with CYC_CNT_VALID clear. The
 * expected entries are written out by hand from the SKD_BR_INFO_*
 * positions: MISPRED 63, IN_TX 62, ABORT 61, CYC_VALID 60, type 59:56,
 * TYPE_VALID 55, cycles 15:0.
 */
static const struct {
	uint32_t ecx;
	uint64_t info;
	uint64_t want;
} arch_fields[] = {
	/* INFO 0x950000000000002a: MISPRED, CYC_VALID, type 5, 0x2a */
	{ 0x0, 0x950000000000002aULL, 0x0000000000000000ULL },
	{ 0x1, 0x950000000000002aULL, 0x8000000000000000ULL },
	{ 0x2, 0x950000000000002aULL, 0x100000000000002aULL },
	{ 0x4, 0x950000000000002aULL, 0x0580000000000000ULL },
	{ 0x3, 0x950000000000002aULL, 0x900000000000002aULL },
	{ 0x5, 0x950000000000002aULL, 0x8580000000000000ULL },
	{ 0x6, 0x950000000000002aULL, 0x158000000000002aULL },
	{ 0x7, 0x950000000000002aULL, 0x958000000000002aULL },
	/* INFO 0x850000000000002a: CYC_VALID clear, no cycles whatever ECX */
	{ 0x2, 0x850000000000002aULL, 0x0000000000000000ULL },
	{ 0x7, 0x850000000000002aULL, 0x8580000000000000ULL },
	/* IN_TX and ABORT (62, 61) have no ECX bit: always reported */
	{ 0x0, 0x6000000000000000ULL, 0x6000000000000000ULL },
	{ 0x7, 0x6000000000000000ULL, 0x6080000000000000ULL },
	/* type 0 (JCC) is a type: TYPE_VALID with a zero field */
	{ 0x4, 0x0000000000000000ULL, 0x0080000000000000ULL },
	{ 0x3, 0x0000000000000000ULL, 0x0000000000000000ULL },
	/* ECX bits above 2 enumerate nothing the decoder knows */
	{ 0xfffffff8U, 0x950000000000002aULL, 0x0000000000000000ULL },
	{ 0xffffffffU, 0x950000000000002aULL, 0x958000000000002aULL },
};

static void test_arch_ecx_fields(void **state)
{
	struct skd_branch_entry e;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(arch_fields); i++) {
		skd_lbr_decode_arch(KADDR, UADDR, arch_fields[i].info,
				    arch_fields[i].ecx, &e);
		if (e.info != arch_fields[i].want)
			print_error("case %zu: ECX %#x INFO %#" PRIx64 "\n", i,
				    arch_fields[i].ecx, arch_fields[i].info);
		expect(&e, KADDR, UADDR, arch_fields[i].want);
	}
	print_message("# %zu cases\n", i);
}

/* ------------------------------------------------------------------ */
/* Adaptive PEBS LBR group: { from, to, info } u64 triples             */

static uint8_t *g_map;
static size_t g_page, g_len;

static int guard_setup(void **state)
{
	(void)state;
	g_page = (size_t)sysconf(_SC_PAGESIZE);
	g_len = 2 * g_page;
	g_map = mmap(NULL, g_len + g_page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g_map == MAP_FAILED)
		return -1;
	return mprotect(g_map + g_len, g_page, PROT_NONE);
}

static int guard_teardown(void **state)
{
	(void)state;
	return munmap(g_map, g_len + g_page);
}

static void put64(uint8_t *b, size_t off, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b[off + i] = (uint8_t)(v >> (8 * i));
}

/* Entry @i of a test group: varied addresses and INFO bits. */
static uint64_t grp_from(unsigned int i)
{
	return addrs[i % NADDR] + 0x10 * i;
}

static uint64_t grp_to(unsigned int i)
{
	return addrs[(i + 1) % NADDR] + 0x20 * i;
}

static uint64_t grp_info(unsigned int i)
{
	return (i & 1 ? RAW_MISPRED : 0) | (i & 2 ? RAW_IN_TX : 0) |
	       (i & 4 ? RAW_ABORT : 0) | (i & 8 ? RAW_CYC_VALID : 0) |
	       RAW_TYPE((i * 7) & 15) | (0x100 + i);
}

/*
 * Groups of 1 to 64 entries ending at the guard page, decoded as legacy
 * LBR_INFO (format 5) and as arch LBR under every CPUID.1CH:ECX value.
 * The legacy layout has all its fields whatever ECX says: the ECX
 * argument must not reach it.
 */
static void test_record_groups(void **state)
{
	static const uint32_t counts[] = { 1, 8, 32, 64 };
	struct skd_branch_entry out[65];
	unsigned int n = 0;

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(counts); k++) {
		uint32_t nr = counts[k];
		size_t bytes = 24 * (size_t)nr;
		uint8_t *raw = g_map + g_len - bytes;	/* ends at the guard */

		for (uint32_t i = 0; i < nr; i++) {
			put64(raw, 24 * i, grp_from(i));
			put64(raw, 24 * i + 8, grp_to(i));
			put64(raw, 24 * i + 16, grp_info(i));
		}
		for (int arch = 0; arch < 2; arch++)
			for (uint32_t ecx = 0; ecx < 8; ecx++) {
				memset(out, 0x77, sizeof(out));
				skd_lbr_decode_record(raw, nr, arch, ecx, out);
				for (uint32_t i = 0; i < nr; i++) {
					uint64_t info = grp_info(i), want;

					if (arch)
						want = arch_want(info, ecx);
					else	/* LBR_INFO of format 5 */
						want = flags_of(info & RAW_MISPRED,
								info & RAW_IN_TX,
								info & RAW_ABORT) |
						       SKD_BR_INFO_CYC_VALID |
						       (0x100 + i);
					expect(&out[i], grp_from(i), grp_to(i),
					       want);
				}
				/* Nothing written past the last entry. */
				assert_int_equal(out[nr].from,
						 0x7777777777777777ULL);
				assert_int_equal(out[nr].info,
						 0x7777777777777777ULL);
				n++;
			}
	}
	print_message("# %u cases\n", n);
}

/*
 * The hand-written cases of test_arch_ecx_fields, through the arch path
 * of a PEBS record's LBR group: one entry per case, each group decoded
 * with that case's ECX.
 */
static void test_record_ecx_fields(void **state)
{
	struct skd_branch_entry out[2];
	uint8_t *raw = g_map + g_len - 48;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(arch_fields); i++) {
		put64(raw, 0, UADDR);
		put64(raw, 8, KADDR);
		put64(raw, 16, arch_fields[i].info);
		/* A second entry whose INFO has every bit set. */
		put64(raw, 24, KADDR2);
		put64(raw, 32, UADDR2);
		put64(raw, 40, ~0ULL);
		skd_lbr_decode_record(raw, 2, true, arch_fields[i].ecx, out);
		if (out[0].info != arch_fields[i].want)
			print_error("case %zu: ECX %#x INFO %#" PRIx64 "\n", i,
				    arch_fields[i].ecx, arch_fields[i].info);
		expect(&out[0], UADDR, KADDR, arch_fields[i].want);
		expect(&out[1], KADDR2, UADDR2,
		       arch_want(~0ULL, arch_fields[i].ecx));
	}
	print_message("# %zu cases\n", i);
}

/* No entries: nothing read (pointer at the guard), nothing written. */
static void test_record_empty(void **state)
{
	struct skd_branch_entry out = { 1, 2, 3 };

	(void)state;
	skd_lbr_decode_record(g_map + g_len, 0, true, ECX_ALL, &out);
	skd_lbr_decode_record(g_map + g_len, 0, false, 0, &out);
	expect(&out, 1, 2, 3);
}

/*
 * Raw bytes at every alignment: the group is read bytewise-safe, and the
 * two entries end right before the guard page or within 7 bytes of it.
 */
static void test_record_unaligned(void **state)
{
	struct skd_branch_entry out[2];

	(void)state;
	for (size_t d = 0; d < 8; d++) {
		uint8_t *raw = g_map + g_len - 48 - d;

		put64(raw, 0, KADDR);
		put64(raw, 8, UADDR);
		put64(raw, 16, RAW_MISPRED | 7);
		put64(raw, 24, UADDR);
		put64(raw, 32, KADDR);
		put64(raw, 40, RAW_ABORT | RAW_CYC_VALID | RAW_TYPE(4) | 9);
		skd_lbr_decode_record(raw, 2, false, ECX_ALL, out);
		expect(&out[0], KADDR, UADDR, SKD_BR_INFO_MISPRED |
		       SKD_BR_INFO_CYC_VALID | 7);
		expect(&out[1], UADDR, KADDR, SKD_BR_INFO_ABORT |
		       SKD_BR_INFO_CYC_VALID | 9);
		/* Arch with every field enumerated: type 0 (JCC) is valid. */
		skd_lbr_decode_record(raw, 2, true, ECX_ALL, out);
		expect(&out[0], KADDR, UADDR, SKD_BR_INFO_MISPRED |
		       SKD_BR_INFO_TYPE_VALID);
		expect(&out[1], UADDR, KADDR, SKD_BR_INFO_ABORT |
		       SKD_BR_INFO_CYC_VALID | 9 | SKD_BR_INFO_TYPE_VALID |
		       (4ULL << SKD_BR_INFO_TYPE_SHIFT));
		/* Arch with none: only ABORT, which has no ECX bit. */
		skd_lbr_decode_record(raw, 2, true, 0, out);
		expect(&out[0], KADDR, UADDR, 0);
		expect(&out[1], UADDR, KADDR, SKD_BR_INFO_ABORT);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt0),
		cmocka_unit_test(test_fmt1_2),
		cmocka_unit_test(test_fmt3),
		cmocka_unit_test(test_fmt4),
		cmocka_unit_test(test_fmt5_7),
		cmocka_unit_test(test_fmt6),
		cmocka_unit_test(test_sign_bit_edges),
		cmocka_unit_test(test_unknown_format),
		cmocka_unit_test(test_arch),
		cmocka_unit_test(test_arch_ecx_fields),
		cmocka_unit_test(test_record_groups),
		cmocka_unit_test(test_record_ecx_fields),
		cmocka_unit_test(test_record_empty),
		cmocka_unit_test(test_record_unaligned),
	};

	return cmocka_run_group_tests(tests, guard_setup, guard_teardown);
}
