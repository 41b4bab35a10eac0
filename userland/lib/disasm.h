/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 machine code to instructions, through capstone: what annotate
 * needs and nothing more. Bytes capstone cannot decode become one-byte
 * "(bad)" entries, as objdump shows them, and decoding goes on after them.
 */
#ifndef _SKD_DISASM_H
#define _SKD_DISASM_H

#include <stddef.h>
#include <stdint.h>

enum skd_disasm_syntax {
	SKD_DISASM_ATT,		/* objdump's and perf's default */
	SKD_DISASM_INTEL,
};

struct skd_insn {
	uint64_t addr;
	uint16_t size;
	char mnemonic[32];
	char operands[160];
};

/*
 * Decode @len bytes of @code loaded at @addr into a new array *@out of
 * *@n instructions (free() it). 0, or -ENOMEM / -EINVAL (capstone would
 * not start: a message in @err).
 */
int skd_disasm(const uint8_t *code, size_t len, uint64_t addr,
	       enum skd_disasm_syntax syntax, struct skd_insn **out, size_t *n,
	       char *err, size_t errlen);

#endif /* _SKD_DISASM_H */
