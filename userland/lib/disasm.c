// SPDX-License-Identifier: GPL-2.0
#include <capstone/capstone.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disasm.h"

static struct skd_insn *push(struct skd_insn **v, size_t *n, size_t *cap)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		struct skd_insn *p = realloc(*v, c * sizeof(*p));

		if (!p)
			return NULL;
		*v = p;
		*cap = c;
	}
	memset(&(*v)[*n], 0, sizeof(**v));
	return &(*v)[(*n)++];
}

int skd_disasm(const uint8_t *code, size_t len, uint64_t addr,
	       enum skd_disasm_syntax syntax, struct skd_insn **out, size_t *n,
	       char *err, size_t errlen)
{
	struct skd_insn *v = NULL, *in;
	size_t nr = 0, cap = 0;
	cs_insn *insn;
	cs_err ce;
	csh h;
	int ret = 0;

	ce = cs_open(CS_ARCH_X86, CS_MODE_64, &h);
	if (ce == CS_ERR_OK && syntax == SKD_DISASM_ATT)
		ce = cs_option(h, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	if (ce != CS_ERR_OK) {
		snprintf(err, errlen, "capstone: %s", cs_strerror(ce));
		return ce == CS_ERR_MEM ? -ENOMEM : -EINVAL;
	}
	insn = cs_malloc(h);
	if (!insn) {
		cs_close(&h);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	while (len) {
		const uint8_t *at = code;
		uint64_t pc = addr;

		in = push(&v, &nr, &cap);
		if (!in) {
			ret = -ENOMEM;
			snprintf(err, errlen, "out of memory");
			break;
		}
		if (cs_disasm_iter(h, &code, &len, &addr, insn)) {
			in->addr = insn->address;
			in->size = insn->size;
			snprintf(in->mnemonic, sizeof(in->mnemonic), "%s",
				 insn->mnemonic);
			snprintf(in->operands, sizeof(in->operands), "%s",
				 insn->op_str);
			continue;
		}
		/* Undecodable: one byte, then try again after it. */
		in->addr = pc;
		in->size = 1;
		snprintf(in->mnemonic, sizeof(in->mnemonic), "(bad)");
		code = at + 1;
		addr = pc + 1;
		len--;
	}
	cs_free(insn, 1);
	cs_close(&h);
	if (ret) {
		free(v);
		return ret;
	}
	*out = v;
	*n = nr;
	return 0;
}
