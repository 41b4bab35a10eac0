/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data loaded for report and script: its records rewritten as the
 * native capture's (struct skd_rec_* and the reader's own SKD_FREC_*),
 * so that profile.c loads one format. What perf.data cannot say is left
 * empty: a PEBS data-source field reads back as perf's data_src encoding
 * (not the raw PEBS bits), EXEC records carry no path.
 */
#ifndef _SKD_PERFDATA_PROFILE_H
#define _SKD_PERFDATA_PROFILE_H

#include <stddef.h>

#include "capture.h"

/*
 * Like skd_capture_open() for a perf.data at @path. -ENOMSG (and no
 * message) when the file is not perf.data; other -errno with @err set
 * when it is and cannot be read. A malformed record ends the data, and
 * c->bad_at says where.
 */
int skd_perf_capture_open(const char *path, struct skd_capture *c,
			  char *err, size_t errlen);
/* The same over bytes in memory (the fuzzer's entry). */
int skd_perf_capture_open_mem(const void *buf, size_t len,
			      struct skd_capture *c, char *err,
			      size_t errlen);

#endif /* _SKD_PERFDATA_PROFILE_H */
