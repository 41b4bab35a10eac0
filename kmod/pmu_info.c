// SPDX-License-Identifier: GPL-2.0
/*
 * A one-line description of the performance monitoring unit, or of why
 * there is none skidless could use. Until the Intel backend lands this is
 * all the module says about the PMU.
 */
#include <linux/kernel.h>
#include <asm/cpufeature.h>
#include <asm/processor.h>

#include "pmu_info.h"

void skd_pmu_describe(char *buf, size_t len)
{
	struct cpuinfo_x86 *c = &boot_cpu_data;
	unsigned int eax, ebx, ecx, edx;
	bool hv = boot_cpu_has(X86_FEATURE_HYPERVISOR);

	if (c->x86_vendor != X86_VENDOR_INTEL) {
		snprintf(buf, len, "none: CPU vendor is %s, not Intel",
			 c->x86_vendor_id[0] ? c->x86_vendor_id : "unknown");
		return;
	}
	if (c->cpuid_level < 0xa) {
		snprintf(buf, len, "none: CPUID leaf 0xA is missing%s",
			 hv ? " (hypervisor without a virtual PMU)" : "");
		return;
	}
	cpuid(0xa, &eax, &ebx, &ecx, &edx);
	if (!(eax & 0xff)) {
		snprintf(buf, len,
			 "none: CPUID.0AH reports no architectural perfmon%s",
			 hv ? " (hypervisor without a virtual PMU)" : "");
		return;
	}
	snprintf(buf, len,
		 "Intel arch perfmon v%u: %u GP counters of %u bits, %u fixed%s",
		 eax & 0xff, (eax >> 8) & 0xff, (eax >> 16) & 0xff, edx & 0x1f,
		 hv ? " (under a hypervisor)" : "");
}
