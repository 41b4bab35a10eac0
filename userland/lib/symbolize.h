/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Report time: addresses of a capture to names. Keeps one struct skd_dso
 * per (path, build-id), one JIT map per process and the kernel's symbols;
 * a failure (missing file, rebuilt file, hidden kallsyms) is reported once,
 * through opts.warn, and remembered.
 *
 * Kernel symbols come from the capture (KSYM records), else from the
 * kallsyms text the build-id cache holds for the capture's kernel
 * build-id, else from this machine's /proc/kallsyms only when the running
 * kernel has that same build-id. Without any of these, kernel frames stay
 * addresses.
 */
#ifndef _SKD_SYMBOLIZE_H
#define _SKD_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dso.h"
#include "symbols.h"

struct skd_symbolizer_opts {
	const char *cache_dir;		/* NULL: $HOME/.debug; "": none */
	const char *debug_dir;		/* NULL: /usr/lib/debug */
	const char *jit_dir;		/* NULL: /tmp */
	const char *kallsyms;		/* NULL: /proc/kallsyms */
	const char *kernel_notes;	/* NULL: /sys/kernel/notes */
	/* Each problem once; NULL: "skidless: <msg>" on stderr. */
	void (*warn)(const char *msg, void *arg);
	void *warn_arg;
};

struct skd_symbol {
	const char *name;	/* NULL when unknown */
	uint64_t off;		/* address - symbol start */
	const char *file;	/* source of the address, NULL unknown */
	unsigned int line;
	unsigned int nr_inline;	/* functions inlined there, innermost first */
	const struct skd_srcloc *inl;
};

struct skd_symbolizer;

/* NULL + ENOMEM. @o may be NULL; its strings must outlive the symbolizer. */
struct skd_symbolizer *skd_symbolizer_new(const struct skd_symbolizer_opts *o);
void skd_symbolizer_free(struct skd_symbolizer *s);

/*
 * The capture's kernel: symbols it carries (@syms, may be 0) and its
 * kernel build-id (NULL if unknown). 0 or -ENOMEM / -EINVAL.
 */
int skd_symbolizer_set_kernel(struct skd_symbolizer *s,
			      const struct skd_sym *syms, size_t n,
			      const char *build_id);

/*
 * A user address @lookup (@ip - 1 for a return address) of process @pid
 * in the mapping of @path at @start with file offset @pgoff; @build_id is
 * the capture's (NULL if none). out->off is relative to @ip. @path and
 * @build_id must keep their address and text while @s lives (a profile's
 * maps and build-ids do): the objects last used are found by address.
 */
void skd_symbolize_user(struct skd_symbolizer *s, uint32_t pid,
			const char *path, uint64_t start, uint64_t pgoff,
			const char *build_id, uint64_t ip, uint64_t lookup,
			struct skd_symbol *out);

/*
 * Whether skd_symbolize_user() fills file, line and inlines (the
 * default) or names only, which is much faster over many addresses.
 */
void skd_symbolizer_set_lines(struct skd_symbolizer *s, bool lines);

/* A kernel address (kernel and modules). */
void skd_symbolize_kernel(struct skd_symbolizer *s, uint64_t ip,
			  uint64_t lookup, struct skd_symbol *out);

#endif /* _SKD_SYMBOLIZE_H */
