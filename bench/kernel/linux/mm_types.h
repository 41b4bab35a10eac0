/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_BENCH_LINUX_MM_TYPES_H
#define _SKD_BENCH_LINUX_MM_TYPES_H

struct page;
struct vm_area_struct;

#endif /* _SKD_BENCH_LINUX_MM_TYPES_H */
