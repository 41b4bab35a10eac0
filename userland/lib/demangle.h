/* SPDX-License-Identifier: GPL-2.0 */
/*
 * C++ and Rust symbol names for people: libiberty's cplus_demangle with
 * DMGL_PARAMS | DMGL_ANSI in automatic style, which also knows Rust's
 * legacy (_ZN...17h<hash>E) and v0 (_R...) manglings.
 */
#ifndef _SKD_DEMANGLE_H
#define _SKD_DEMANGLE_H

/*
 * A new string (free() it) when @name is mangled and demangles; NULL when
 * it is not mangled, does not demangle, or memory runs out: keep @name.
 */
char *skd_demangle(const char *name);

#endif /* _SKD_DEMANGLE_H */
