/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel addresses seen while recording, turned into KSYM records at the
 * end, so a capture names its kernel frames on any machine, after a reboot
 * (KASLR) and without reading /proc/kallsyms again.
 */
#ifndef _SKD_RECORD_KSYMS_H
#define _SKD_RECORD_KSYMS_H

#include <stdint.h>

struct skd_capture_writer;
struct ksym_hits;

struct ksym_hits *ksym_hits_new(void);
void ksym_hits_add(struct ksym_hits *h, uint64_t ip);
/*
 * Write one KSYM record per kernel function hit. Returns how many, or
 * -errno when /proc/kallsyms cannot be used (e.g. EPERM: addresses hidden
 * by kptr_restrict).
 */
long ksym_hits_write(struct ksym_hits *h, struct skd_capture_writer *out);
void ksym_hits_free(struct ksym_hits *h);

#endif /* _SKD_RECORD_KSYMS_H */
