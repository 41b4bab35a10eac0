/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PLT entries named like perf ("puts@plt"), from .rela.plt. libdwfl has no
 * symbols for them (no ELF symbol covers a PLT stub), so this stays
 * hand-written: x86-64 only, lazy .plt (a 16-byte header, then one 16-byte
 * stub per relocation) or, with IBT, .plt.sec (16-byte stubs, no header),
 * and .plt.got (8- or 16-byte stubs jumping through a GOT slot that
 * .rela.dyn binds at load time).
 */
#ifndef _SKD_PLT_H
#define _SKD_PLT_H

#include <libelf.h>

struct skd_symtab;

/*
 * A table of "name@plt" symbols at ELF virtual addresses. An ELF without a
 * usable .rela.plt gives an empty table. NULL + errno: ENOEXEC for
 * inconsistent headers, ENOMEM.
 */
struct skd_symtab *skd_plt_symtab(Elf *e);

#endif /* _SKD_PLT_H */
