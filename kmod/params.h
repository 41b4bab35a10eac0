/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_PARAMS_H
#define _SKD_PARAMS_H

/*
 * Module parameters, defined in main.c. Read-only in sysfs; root changes
 * them through netlink (SKD_CMD_SET_SETTINGS), so read them with
 * READ_ONCE(), once per decision.
 */
extern unsigned int skd_max_freq;	/* timer backend, Hz */
extern unsigned int skd_max_ring_pages;	/* per CPU ring, power of two */

/*
 * The timer backend's hrtimer fires at most this often per CPU: above
 * 100 kHz (10 us a sample, the PMU's default max_sample_rate) a CPU would
 * spend most of its time in the sampling interrupt.
 */
#define SKD_MAX_FREQ_LIMIT	100000
/* Rings beyond 4 GiB per CPU would overflow the ring's u32 page counts. */
#define SKD_MAX_RING_PAGES_LIMIT	1048576U	/* 2^20 */

#define SKD_VERSION	"0.1.0"

#endif /* _SKD_PARAMS_H */
