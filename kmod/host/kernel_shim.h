/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel primitives the module's pure sources (the ring, the PEBS
 * and LBR decoders, the planner, the model table) use, mapped onto plain C
 * and GCC atomics so the same sources build into the command and the host
 * tests.
 * local_t ops are per-CPU atomics in the kernel; here they are full atomics,
 * which is stronger and so keeps every kernel guarantee.
 */
#ifndef _SKD_KERNEL_SHIM_H
#define _SKD_KERNEL_SHIM_H

#include <stdbool.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
typedef int32_t s32;

typedef struct {
	long a;
} local_t;

#define local_read(l)		__atomic_load_n(&(l)->a, __ATOMIC_RELAXED)
#define local_set(l, v)		__atomic_store_n(&(l)->a, (v), __ATOMIC_RELAXED)
#define local_inc(l)		((void)__atomic_fetch_add(&(l)->a, 1, __ATOMIC_RELAXED))
#define local_dec(l)		((void)__atomic_fetch_sub(&(l)->a, 1, __ATOMIC_RELAXED))
#define local_add(v, l)		((void)__atomic_fetch_add(&(l)->a, (long)(v), __ATOMIC_RELAXED))
#define local_xchg(l, v)	__atomic_exchange_n(&(l)->a, (v), __ATOMIC_RELAXED)

static inline long local_cmpxchg(local_t *l, long old, long new)
{
	__atomic_compare_exchange_n(&l->a, &old, new, false,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	return old;
}

#define barrier()		__asm__ __volatile__("" ::: "memory")
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#ifndef BIT
#define BIT(n)			(1UL << (n))
#endif
#ifndef BIT_ULL
#define BIT_ULL(n)		(1ULL << (n))
#endif

#ifndef __printf
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#endif
/* Not noinline: user code spells that inside __attribute__ itself. */
#ifndef noinline_for_stack
#define noinline_for_stack	__attribute__((__noinline__))
#endif

#endif /* _SKD_KERNEL_SHIM_H */
