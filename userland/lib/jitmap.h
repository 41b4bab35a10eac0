/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JIT symbol maps as perf reads them: /tmp/perf-PID.map, one
 * "START SIZE name" per line, START and SIZE in hex (0x optional).
 */
#ifndef _SKD_JITMAP_H
#define _SKD_JITMAP_H

#include <stddef.h>
#include <stdint.h>

struct skd_symtab;

/* NULL + errno: open errors, ENOEXEC when no line parses, ENOMEM. */
struct skd_symtab *skd_jitmap_open(const char *path);

/* @dir/perf-@pid.map into @out; @dir NULL: /tmp. */
int skd_jitmap_path(const char *dir, uint32_t pid, char *out, size_t len);

#endif /* _SKD_JITMAP_H */
