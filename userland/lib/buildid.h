/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GNU build-ids: read from an ELF file, an open Elf or a note blob (such as
 * /sys/kernel/notes), as lower-case hex.
 *
 * Functions return the raw id length in bytes (> 0), or -errno: ENOEXEC
 * (not ELF), ENODATA (no NT_GNU_BUILD_ID note), ENOSPC (hex buffer shorter
 * than 2 * length + 1), or errors from open(2)/read(2).
 */
#ifndef _SKD_BUILDID_H
#define _SKD_BUILDID_H

#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest id accepted; GNU ld makes 16 (md5, uuid) or 20 (sha1) bytes. */
#define SKD_BUILD_ID_MAX	64
#define SKD_BUILD_ID_HEX	(2 * SKD_BUILD_ID_MAX + 1)

int skd_build_id_elf(Elf *e, char *hex, size_t hexlen);
int skd_build_id_file(const char *path, char *hex, size_t hexlen);
/* A sequence of ELF notes (4-byte aligned, native endianness). */
int skd_build_id_notes(const void *notes, size_t len, char *hex, size_t hexlen);
/* /sys/kernel/notes (or @path): the running kernel's build-id. */
int skd_build_id_kernel(const char *path, char *hex, size_t hexlen);

/* @hex as bytes into @out (@cap of them): their number, or -EINVAL. */
int skd_build_id_bytes(const char *hex, uint8_t *out, size_t cap);

/* A well-formed hex build-id: 2..2*SKD_BUILD_ID_MAX hex digits, even count. */
bool skd_build_id_valid(const char *hex);
/* Same id, ignoring case. */
bool skd_build_id_equal(const char *a, const char *b);

#endif /* _SKD_BUILDID_H */
