/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_CPU_H
#define _SKD_CPU_H

/* Sessions follow CPUs going offline and online, and system sleep. */
int skd_cpu_init(void);
void skd_cpu_uninit(void);

#endif /* _SKD_CPU_H */
