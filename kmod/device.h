/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_DEVICE_H
#define _SKD_DEVICE_H

/* The /dev/skidless misc device. Registered last, removed first. */
int skd_device_init(void);
void skd_device_uninit(void);

struct skd_info;
struct skd_pmu_info;
/* What SKD_IOC_GET_INFO answers, for netlink too. Process context. */
void skd_info_fill(struct skd_info *info);
/* What SKD_IOC_GET_PMU answers for the intel backend on CPU 0. */
void skd_pmu_info_fill(struct skd_pmu_info *info);

#endif /* _SKD_DEVICE_H */
