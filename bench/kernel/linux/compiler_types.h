/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in kernel headers for bench/: the module's drain path (drain.c,
 * record.c and the pure sources under them) built on the host so that
 * callgrind can count its instructions.
 *
 * Every primitive here does on one CPU what the kernel's does on the hot
 * path: a per-CPU read stays one load, an atomic stays an atomic, an
 * out-of-line kernel function stays out of line (stubs.c) and does the
 * same work. Kbuild force-includes linux/compiler_types.h; so does
 * bench/run.sh, with this file.
 */
#ifndef _SKD_BENCH_COMPILER_TYPES_H
#define _SKD_BENCH_COMPILER_TYPES_H

/* Sparse address spaces: nothing to the compiler. */
#define __percpu
#define __rcu
#define __user
#define __iomem
#define __force

#define __always_inline		inline __attribute__((__always_inline__))
#define noinline		__attribute__((__noinline__))
#define notrace			__attribute__((__no_instrument_function__))
#define __noreturn		__attribute__((__noreturn__))
#ifndef __printf
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#endif

#endif /* _SKD_BENCH_COMPILER_TYPES_H */
