/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_DEVICE_H
#define _SKD_DEVICE_H

/* The /dev/skidless misc device. Registered last, removed first. */
int skd_device_init(void);
void skd_device_uninit(void);

#endif /* _SKD_DEVICE_H */
