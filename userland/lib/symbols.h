/* SPDX-License-Identifier: GPL-2.0 */
/*
 * skidless userland: symbol tables.
 *
 * A struct skd_symtab holds the function symbols of one source (the kernel's
 * kallsyms, a list stored in a capture file, a JIT map, PLT stubs), sorted by
 * address with aliases folded, so that an address is turned into a name with
 * one binary search. Tables are immutable once built and may be shared by
 * readers on several threads. ELF objects: dso.h (libdwfl).
 *
 * Errors: functions returning a pointer return NULL and set errno; functions
 * returning int return 0 (or a length) on success and -errno on failure.
 */
#ifndef _SKD_SYMBOLS_H
#define _SKD_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

struct skd_sym {
	uint64_t addr;
	uint64_t size;		/* 0 only for a last symbol whose end is unknown */
	const char *name;	/* owned by the table */
};

/* Opaque: the sorted symbols of one object. */
struct skd_symtab;

/*
 * /proc/kallsyms format: "ffffffff81000000 T _text", optionally followed by
 * whitespace and "[module]". Keeps text symbols (t T w W); a module symbol
 * is named "name [module]". Sizes run up to the next symbol of any type, so
 * a module's last function ends where its data begins. Lines that do not
 * parse are skipped. NULL + errno: EPERM when every address is zero
 * (kptr_restrict), ENOEXEC when no line parses at all, errors from open/read.
 */
struct skd_symtab *skd_symtab_open_kallsyms(const char *path);

/*
 * A table from (addr, size, name) triples, e.g. symbols stored in a capture
 * file. Input order does not matter; names are copied; size 0 means "up to
 * the next symbol". NULL + EINVAL if syms is NULL with n > 0 or a name is
 * NULL.
 */
struct skd_symtab *skd_symtab_from_list(const struct skd_sym *syms, size_t n);

/*
 * The symbol whose [addr, addr + size) contains addr, or NULL. A symbol of
 * size 0 matches its own address only.
 */
const struct skd_sym *skd_symtab_lookup(const struct skd_symtab *t, uint64_t addr);

size_t skd_symtab_count(const struct skd_symtab *t);

/* The i-th symbol in address order (e.g. to store a table), or NULL. */
const struct skd_sym *skd_symtab_at(const struct skd_symtab *t, size_t i);

void skd_symtab_free(struct skd_symtab *t);

#endif /* _SKD_SYMBOLS_H */
