/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DWARF call-frame unwinding of a user sample through libdwfl: from the
 * registers and stack bytes the kernel copied (struct skd_user_stack) and
 * the process's mappings, the chain of return addresses, as perf's
 * --call-graph dwarf does. x86-64 only.
 */
#ifndef _SKD_UNWIND_DWARF_H
#define _SKD_UNWIND_DWARF_H

#include <stddef.h>
#include <stdint.h>

#include "dso.h"

/* perf's x86-64 user register order, as in struct skd_user_stack.regs[]. */
enum skd_ureg {
	SKD_UREG_AX, SKD_UREG_BX, SKD_UREG_CX, SKD_UREG_DX, SKD_UREG_SI,
	SKD_UREG_DI, SKD_UREG_BP, SKD_UREG_SP, SKD_UREG_IP, SKD_UREG_FLAGS,
	SKD_UREG_CS, SKD_UREG_SS, SKD_UREG_R8, SKD_UREG_R9, SKD_UREG_R10,
	SKD_UREG_R11, SKD_UREG_R12, SKD_UREG_R13, SKD_UREG_R14, SKD_UREG_R15,
	SKD_UREG_NR
};

struct skd_unwind_map {
	const char *path;	/* absolute, "[vdso]" (needs build_id), else skipped */
	uint64_t start, len, pgoff;
	const char *build_id;	/* hex, or NULL */
};

struct skd_unwinder;

/* NULL + ENOMEM. @o: where files are looked for by build-id (may be NULL). */
struct skd_unwinder *skd_unwinder_new(const struct skd_dso_opts *o);
void skd_unwinder_free(struct skd_unwinder *u);

/*
 * Unwind one sample. @space identifies the address space (e.g. pid and exec
 * generation): consecutive calls with the same @space and the same maps
 * reuse the objects already opened. @regs: SKD_UREG_NR values; @stack:
 * @stack_len bytes copied from regs[SKD_UREG_SP] upwards.
 *
 * Writes up to @max addresses: ips[0] is the sampled ip, the others are
 * return addresses (look up ip - 1 to name the call). Returns their
 * number (>= 1 when @max > 0): the unwind stops where the stack copy or
 * the call-frame information ends. -errno with a sentence in @err: EINVAL
 * (arguments), ENOENT (no mapping holds the ip), ENOMEM.
 */
int skd_unwind_dwarf(struct skd_unwinder *u, uint64_t space,
		     const uint64_t regs[SKD_UREG_NR], const void *stack,
		     size_t stack_len, const struct skd_unwind_map *maps,
		     size_t nr_maps, uint64_t *ips, size_t max, char *err,
		     size_t errlen);

#endif /* _SKD_UNWIND_DWARF_H */
