/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU data of one CPU: a pointer plus this CPU's offset, as the
 * kernel's this_cpu_ptr() adds %gs:this_cpu_off.
 */
#ifndef _SKD_BENCH_LINUX_PERCPU_H
#define _SKD_BENCH_LINUX_PERCPU_H

#include <linux/smp.h>
#include <linux/types.h>

extern unsigned long skd_bench_this_cpu_off;

#define this_cpu_ptr(ptr) \
	((__typeof__(ptr))((unsigned long)(ptr) + skd_bench_this_cpu_off))

/* run.h declares one; nothing here reads it. */
#define DECLARE_PER_CPU(type, name)	extern type name

void *__alloc_percpu(size_t size, size_t align);
void free_percpu(void *ptr);

#endif /* _SKD_BENCH_LINUX_PERCPU_H */
