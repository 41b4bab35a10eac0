/* SPDX-License-Identifier: GPL-2.0 */
/*
 * skidless userland: symbol tables.
 *
 * A struct skd_symtab holds the function symbols of one object (an ELF file,
 * the kernel's kallsyms, or a list stored in a capture file), sorted by
 * address with aliases folded, so that an address is turned into a name with
 * one binary search. Tables are immutable once built and may be shared by
 * readers on several threads; struct skd_symcache is not thread-safe.
 *
 * Errors: functions returning a pointer return NULL and set errno; functions
 * returning int return 0 (or a length) on success and -errno on failure.
 */
#ifndef _SKD_SYMBOLS_H
#define _SKD_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

/* Where Debian's dbgsym packages put separate debug files, by build-id. */
#define SKD_DEBUG_ROOT		"/usr/lib/debug"

struct skd_sym {
	uint64_t addr;
	uint64_t size;		/* 0 only for a last symbol whose end is unknown */
	const char *name;	/* owned by the table */
};

/* Opaque: the sorted symbols of one object. */
struct skd_symtab;

/*
 * An ELF file's function symbols (STT_FUNC and STT_GNU_IFUNC): .symtab if it
 * has any, else .dynsym. If the file has a build-id and
 * SKD_DEBUG_ROOT/.build-id/xx/rest.debug exists and carries the same build-id,
 * that file's .symtab is used instead. Addresses are the ELF's own virtual
 * addresses. A valid ELF without function symbols gives an empty table.
 * NULL + errno: ENOENT/EACCES/... from open(2), ENOEXEC for a file that is
 * not a well-formed ET_EXEC/ET_DYN ELF (truncated, bogus headers), ENOMEM.
 */
struct skd_symtab *skd_symtab_open_elf(const char *path);

/*
 * Same, looking for the separate debug file under debug_root instead of
 * SKD_DEBUG_ROOT (debug_root/.build-id/xx/rest.debug); NULL: do not look.
 */
struct skd_symtab *skd_symtab_open_elf_debug(const char *path, const char *debug_root);

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

/*
 * File offset inside the ELF -> ELF virtual address through its PT_LOAD
 * segments; for a /proc/PID/maps line, offset = ip - start + pgoff.
 * -EINVAL: NULL argument or a table that was not built from an ELF file;
 * -ENOENT: no PT_LOAD segment holds that offset.
 */
int skd_symtab_offset_to_vaddr(const struct skd_symtab *t, uint64_t offset, uint64_t *vaddr);

/*
 * The ELF's GNU build-id (NT_GNU_BUILD_ID note) as lower-case hex plus NUL in
 * hex[hexlen]. Returns the raw id length in bytes, or -errno: ENOEXEC (not
 * ELF), ENODATA (no build-id note), ENOSPC (hexlen < 2 * length + 1), or
 * errors from open(2).
 */
int skd_elf_build_id(const char *path, char *hex, size_t hexlen);

/*
 * path -> symtab, each file opened once (skd_symtab_open_elf). Failed opens
 * are remembered too: later calls return NULL with the same errno without
 * touching the file system again (except ENOMEM, which says nothing about
 * the file). Tables belong to the cache.
 */
struct skd_symcache;

struct skd_symcache *skd_symcache_new(void);
const struct skd_symtab *skd_symcache_get(struct skd_symcache *c, const char *path);
void skd_symcache_free(struct skd_symcache *c);

#endif /* _SKD_SYMBOLS_H */
