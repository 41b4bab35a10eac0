// SPDX-License-Identifier: GPL-2.0
/*
 * skidless: precise sampling with PEBS and LBR, drained through per-CPU
 * rings. This file only brings the pieces up in dependency order and takes
 * them down in reverse; the device, which lets users in, comes up last.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "backend.h"
#include "cpu.h"
#include "device.h"
#include "intel/hw.h"
#include "params.h"
#include "pmu_info.h"
#include "record.h"
#include "sideband.h"
#include "intel/vmx_guard.h"
#include "memlock.h"
#include "mmap_events.h"
#include "netlink.h"

/* Ring indexes are local_t: 64 bits wide only on 64-bit kernels. */
#ifndef CONFIG_X86_64
#error "skidless supports x86-64 kernels only"
#endif

static char *backend = "timer";
module_param(backend, charp, 0444);
MODULE_PARM_DESC(backend, "Default backend for sessions that do not pick one (timer, intel)");

unsigned int skd_max_freq = 20000;
module_param_named(max_freq, skd_max_freq, uint, 0444);
MODULE_PARM_DESC(max_freq, "Highest timer backend sampling frequency, Hz, 1..100000 (default 20000)");

unsigned int skd_max_ring_pages = 4096;
module_param_named(max_ring_pages, skd_max_ring_pages, uint, 0444);
MODULE_PARM_DESC(max_ring_pages, "Largest ring per CPU, in pages (default 4096)");

static int __init skd_init(void)
{
	char pmu[128];
	int ret;

	if (!skd_max_freq || skd_max_freq > SKD_MAX_FREQ_LIMIT ||
	    !is_power_of_2(skd_max_ring_pages) ||
	    skd_max_ring_pages > SKD_MAX_RING_PAGES_LIMIT) {
		pr_err("max_freq must be 1..%u and max_ring_pages a power of two up to %u\n",
		       SKD_MAX_FREQ_LIMIT, SKD_MAX_RING_PAGES_LIMIT);
		return -EINVAL;
	}
	ret = skd_hw_detect();
	if (ret)
		return ret;
	ret = skd_backend_init(backend);
	if (ret)
		goto err_hw;
	ret = skd_vmx_guard_init();
	if (ret)
		goto err_hw;
	ret = skd_record_init();
	if (ret)
		goto err_guard;
	ret = skd_sideband_init();
	if (ret)
		goto err_record;
	ret = skd_mmap_events_init();
	if (ret)
		goto err_sideband;
	ret = skd_cpu_init();
	if (ret)
		goto err_mmap;
	/* Before the device: sessions tell the "events" group. */
	ret = skd_netlink_init();
	if (ret)
		goto err_cpu;
	ret = skd_device_init();
	if (ret)
		goto err_netlink;

	skd_pmu_describe(pmu, sizeof(pmu));
	pr_info("%s loaded, backend %s; PMU: %s\n", SKD_VERSION, backend, pmu);
	return 0;

err_netlink:
	skd_netlink_uninit();
err_cpu:
	skd_cpu_uninit();
err_mmap:
	skd_mmap_events_uninit();
err_sideband:
	skd_sideband_uninit();
err_record:
	skd_record_uninit();
err_guard:
	skd_vmx_guard_uninit();
err_hw:
	skd_hw_forget();
	return ret;
}

static void __exit skd_exit(void)
{
	/* The device holds a module reference per session: none are left. */
	skd_device_uninit();
	skd_netlink_uninit();
	skd_cpu_uninit();
	skd_mmap_events_uninit();
	skd_sideband_uninit();
	skd_record_uninit();
	skd_vmx_guard_uninit();
	skd_memlock_uninit();
	skd_hw_forget();
}

module_init(skd_init);
module_exit(skd_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("skidless developers");
MODULE_DESCRIPTION("Precise sampling with PEBS and LBR through per-CPU rings");
MODULE_VERSION(SKD_VERSION);
