/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_CPU_H
#define _SKD_CPU_H

/* Sessions follow CPUs going offline and online, and system sleep. */
int skd_cpu_init(void);
void skd_cpu_uninit(void);
/* System sleep callbacks, held by each configured session. */
void skd_cpu_sleep_get(void);
void skd_cpu_sleep_put(void);

#endif /* _SKD_CPU_H */
