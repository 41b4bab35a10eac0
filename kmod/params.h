/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_PARAMS_H
#define _SKD_PARAMS_H

/* Module parameters, defined in main.c. Read-only after load. */
extern unsigned int skd_max_freq;	/* timer backend, Hz */
extern unsigned int skd_max_ring_pages;	/* per CPU ring */

#define SKD_VERSION	"0.1.0"

#endif /* _SKD_PARAMS_H */
