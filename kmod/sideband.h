/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_SIDEBAND_H
#define _SKD_SIDEBAND_H

/* COMM, EXEC, FORK and EXIT records from scheduler tracepoints. */
int skd_sideband_init(void);
void skd_sideband_uninit(void);

#endif /* _SKD_SIDEBAND_H */
