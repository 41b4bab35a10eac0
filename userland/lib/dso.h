/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One object (executable, shared library, vdso image) opened through
 * elfutils' libdwfl for naming addresses: .symtab, .dynsym, separate debug
 * files (by build-id under the debug root, by .gnu_debuglink), MiniDebugInfo
 * (.gnu_debugdata), PLT stubs ("name@plt"), inlined functions and source
 * lines from DWARF, C++/Rust names demangled.
 *
 * The file used must carry the build-id the capture saw: a file that was
 * rebuilt since is never used; the build-id cache is searched instead.
 *
 * Addresses are the ELF's own virtual addresses (bias 0); a sample's ip
 * becomes one through skd_dso_offset_to_vaddr(ip - map start + pgoff).
 * Not thread-safe (libdwfl modules load lazily); results live as long as
 * the object.
 */
#ifndef _SKD_DSO_H
#define _SKD_DSO_H

#include <stddef.h>
#include <stdint.h>

struct skd_dso_opts {
	const char *cache_dir;	/* build-id cache; NULL: $HOME/.debug, "": none */
	const char *debug_dir;	/* separate debug files; NULL: /usr/lib/debug */
};

/* A place in the source: function (NULL if unknown), file and line (0). */
struct skd_srcloc {
	const char *func;
	const char *file;
	unsigned int line;
};

struct skd_dso_sym {
	const char *name;	/* demangled; NULL: no symbol covers the address */
	uint64_t start;		/* the symbol's address */
	uint64_t size;		/* bytes it covers; 0: the ELF does not say */
	/* Where in the symbol's own function: the outermost call of inl[]. */
	const char *file;	/* NULL when there is no line information */
	unsigned int line;
	/* Functions inlined at the address, innermost first, and where in each. */
	unsigned int nr_inline;
	const struct skd_srcloc *inl;
};

struct skd_dso;

/*
 * Which file to read for @path as a capture saw it with @build_id (hex, or
 * NULL when the capture has none: @path as it is). @path is absolute or
 * "[vdso]" (found in the cache by build-id only). Writes the file to
 * @out. -errno with a sentence in @err: ESTALE (the file's build-id is
 * not the capture's and the cache has no copy), ENOENT, EINVAL.
 */
int skd_dso_find_file(const char *path, const char *build_id,
		      const struct skd_dso_opts *o, char *out, size_t outlen,
		      char *err, size_t errlen);

/*
 * Open @path (see skd_dso_find_file). NULL + errno, with a sentence in
 * @err: those of skd_dso_find_file, ENOEXEC (not an ELF object), ENOMEM.
 */
struct skd_dso *skd_dso_open(const char *path, const char *build_id,
			     const struct skd_dso_opts *o, char *err,
			     size_t errlen);
void skd_dso_free(struct skd_dso *d);

/* The file actually read, and its build-id ("" when it has none). */
const char *skd_dso_file(const struct skd_dso *d);
const char *skd_dso_build_id(const struct skd_dso *d);

/* File offset -> ELF virtual address through PT_LOAD; -ENOENT if none. */
int skd_dso_offset_to_vaddr(const struct skd_dso *d, uint64_t off,
			    uint64_t *vaddr);

/*
 * Name @vaddr. Returns 0 (out->name may still be NULL: unknown address,
 * never a neighbour's name) or -EINVAL / -ENOMEM.
 */
int skd_dso_lookup(struct skd_dso *d, uint64_t vaddr, struct skd_dso_sym *out);

/*
 * Copy @len bytes of the file's contents at @vaddr (inside one PT_LOAD's
 * file part) into @buf: 0, or -ENOENT (not in the file) / -EIO.
 */
int skd_dso_read(const struct skd_dso *d, uint64_t vaddr, void *buf,
		 size_t len);

/*
 * The name alone (out->file NULL, no inlines), the same skd_dso_lookup()
 * gives, without reading DWARF or keeping anything per address: for a
 * reader that shows no source lines and meets millions of addresses.
 */
int skd_dso_lookup_name(struct skd_dso *d, uint64_t vaddr,
			struct skd_dso_sym *out);

#endif /* _SKD_DSO_H */
