/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_MEMLOCK_EXPLAIN_H
#define _SKD_MEMLOCK_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Would rings of @ring_pages per CPU over @nr_cpu_ids CPUs exceed what
 * this process may pin (kmod/memlock.c's charge)? Then a sentence naming
 * the limit and the fixes goes to @buf and the answer is true.
 */
bool skd_memlock_explain(uint64_t ring_pages, uint32_t nr_cpu_ids,
			 char *buf, size_t len);

#endif /* _SKD_MEMLOCK_EXPLAIN_H */
