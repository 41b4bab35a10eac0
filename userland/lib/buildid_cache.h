/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The build-id cache, laid out as perf 6.1 lays out ~/.debug, so `perf
 * buildid-cache --list` and `perf report` find what skidless saves and the
 * other way round:
 *
 *   <dir>/<abs path>/<build-id>/elf          a copy of the object
 *   <dir>/[vdso]/<build-id>/vdso             the vdso image
 *   <dir>/[kernel.kallsyms]/<build-id>/kallsyms   /proc/kallsyms text
 *   <dir>/.build-id/<2 hex>/<rest> -> ../../<abs path>/<build-id>
 *
 * Files are written to a temporary name and renamed, links likewise, so a
 * reader never sees half an entry. Functions return 0 or -errno and write
 * a sentence naming the problem and its fix into @err.
 */
#ifndef _SKD_BUILDID_CACHE_H
#define _SKD_BUILDID_CACHE_H

#include <stddef.h>

#define SKD_VDSO_NAME		"[vdso]"
#define SKD_KALLSYMS_NAME	"[kernel.kallsyms]"

/* $HOME/.debug, perf's default; -ENOENT without HOME. */
int skd_buildid_cache_dir(char *out, size_t len);

/*
 * Record time, the single entry point: save the object a sample hit.
 * @path is an absolute file path, SKD_VDSO_NAME (this process's vdso:
 * the kernel gives every process the same image) or SKD_KALLSYMS_NAME
 * (/proc/kallsyms under the running kernel's build-id). @build_id, when
 * not NULL, is what the capture saw: a file that no longer carries it is
 * refused with -ESTALE. The build-id saved is written to @bid_out
 * (SKD_BUILD_ID_HEX bytes) when not NULL. An entry already there is kept.
 * @dir NULL: skd_buildid_cache_dir().
 */
int skd_buildid_cache_add(const char *dir, const char *path,
			  const char *build_id, char *bid_out, char *err,
			  size_t errlen);

/* The parts of add, for tests and special sources. */
int skd_buildid_cache_add_vdso_image(const char *dir, const void *image,
				     size_t len, char *bid_out, char *err,
				     size_t errlen);
int skd_buildid_cache_add_kallsyms(const char *dir, const char *kallsyms,
				   const char *notes, char *bid_out,
				   char *err, size_t errlen);

/* This process's vdso image (getauxval(AT_SYSINFO_EHDR)) and its length. */
int skd_vdso_image(const void **image, size_t *len);

/*
 * Report time: the cached file for @build_id (its "elf", "vdso",
 * "kallsyms" or "debug") into @out. -ENOENT when not cached, -EINVAL for a
 * malformed id, -ENAMETOOLONG.
 */
int skd_buildid_cache_lookup(const char *dir, const char *build_id,
			     char *out, size_t outlen);

#endif /* _SKD_BUILDID_CACHE_H */
