// SPDX-License-Identifier: GPL-2.0
/*
 * userland/lib/disasm.c on fixed bytes. The expected decodings are what
 * `objdump -D -b binary -m i386:x86-64 [-M intel]` prints for the same
 * bytes (checked by hand when the test was written); capstone adds the
 * AT&T size suffix objdump leaves out where the operands imply it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "disasm.h"

/* test %rdi,%rdi; je +0x2c; lea (%rdx,%rdx,2),%rcx; ret */
static const uint8_t code[] = {
	0x48, 0x85, 0xff,
	0x74, 0x2c,
	0x48, 0x8d, 0x0c, 0x52,
	0xc3,
};

static void test_intel(void **state)
{
	struct skd_insn *in;
	char err[128];
	size_t n;

	(void)state;
	assert_int_equal(skd_disasm(code, sizeof(code), 0x1149,
				    SKD_DISASM_INTEL, &in, &n, err,
				    sizeof(err)), 0);
	assert_int_equal(n, 4);
	assert_int_equal(in[0].addr, 0x1149);
	assert_int_equal(in[0].size, 3);
	assert_string_equal(in[0].mnemonic, "test");
	assert_string_equal(in[0].operands, "rdi, rdi");
	assert_int_equal(in[1].addr, 0x114c);
	assert_string_equal(in[1].mnemonic, "je");
	assert_string_equal(in[1].operands, "0x117a");	/* 0x114e + 0x2c */
	assert_int_equal(in[2].addr, 0x114e);
	assert_string_equal(in[2].mnemonic, "lea");
	assert_string_equal(in[2].operands, "rcx, [rdx + rdx*2]");
	assert_int_equal(in[3].addr, 0x1152);
	assert_string_equal(in[3].mnemonic, "ret");
	free(in);
}

static void test_att(void **state)
{
	struct skd_insn *in;
	char err[128];
	size_t n;

	(void)state;
	assert_int_equal(skd_disasm(code, sizeof(code), 0x1149, SKD_DISASM_ATT,
				    &in, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 4);
	assert_string_equal(in[0].mnemonic, "testq");
	assert_string_equal(in[0].operands, "%rdi, %rdi");
	assert_string_equal(in[2].mnemonic, "leaq");
	free(in);
}

/* 0x06 (push %es) does not exist in 64-bit mode: objdump's "(bad)". */
static void test_bad_byte(void **state)
{
	static const uint8_t bad[] = { 0x90, 0x06, 0xc3 };
	struct skd_insn *in;
	char err[128];
	size_t n;

	(void)state;
	assert_int_equal(skd_disasm(bad, sizeof(bad), 0x10, SKD_DISASM_INTEL,
				    &in, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_string_equal(in[0].mnemonic, "nop");
	assert_int_equal(in[1].addr, 0x11);
	assert_int_equal(in[1].size, 1);
	assert_string_equal(in[1].mnemonic, "(bad)");
	assert_int_equal(in[2].addr, 0x12);
	assert_string_equal(in[2].mnemonic, "ret");
	free(in);
}

/* A truncated instruction at the end is (bad) bytes, not a read past it. */
static void test_truncated(void **state)
{
	struct skd_insn *in;
	char err[128];
	size_t n;

	(void)state;
	assert_int_equal(skd_disasm(code, 2, 0, SKD_DISASM_INTEL, &in, &n, err,
				    sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_string_equal(in[0].mnemonic, "(bad)");
	assert_string_equal(in[1].mnemonic, "(bad)");
	free(in);
	assert_int_equal(skd_disasm(code, 0, 0, SKD_DISASM_INTEL, &in, &n, err,
				    sizeof(err)), 0);
	assert_int_equal(n, 0);
	free(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intel),
		cmocka_unit_test(test_att),
		cmocka_unit_test(test_bad_byte),
		cmocka_unit_test(test_truncated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
