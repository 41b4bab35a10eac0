/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a perf.data header says about the machine, read at record time:
 * the feature payloads perf's `perf record` writes from the same sources
 * (uname, /proc/cpuinfo, /proc/meminfo, sysconf), the kernel's and the
 * modules' maps (/proc/kallsyms, /proc/modules) and build-ids (ELF
 * notes of files, /sys/kernel/notes, /sys/module/NAME/notes).
 */
#ifndef _SKD_PERFDATA_HOST_H
#define _SKD_PERFDATA_HOST_H

#include <stdint.h>

#include "perfdata_conv.h"
#include "perfdata_write.h"

/*
 * HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID, TOTAL_MEM,
 * CMDLINE (@argc/@argv), CLOCKID and CLOCK_DATA. Missing sources leave
 * their feature out. Returns the first writer error.
 */
/* @cpudesc: CPUDESC instead of /proc/cpuinfo's model name, or NULL. */
int pd_host_features(struct pd_writer *w, int argc, char *const argv[],
		     const char *cpudesc);

/* Kernel and module maps as MMAP records, written to @w. */
int pd_host_kernel_maps(struct pd_writer *w, struct pd_conv *c);

/*
 * One element of the BUILD_ID feature: a HEADER_BUILD_ID record for
 * @path (misc KERNEL for the kernel and modules, else USER), pid -1.
 */
void pd_build_id_entry(struct pd_buf *b, uint16_t cpumode,
		       const uint8_t *id, uint8_t id_len, const char *path);

/* The running kernel's build-id entry, if /sys/kernel/notes has one. */
int pd_host_kernel_build_id(struct pd_buf *b);

#endif /* _SKD_PERFDATA_HOST_H */
