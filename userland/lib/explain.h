/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Turning an errno from the module into a sentence that names the fix. The
 * kernel's errnos are specific per operation (uapi/skidless.h), so the
 * operation plus the errno says what went wrong.
 */
#ifndef _SKD_EXPLAIN_H
#define _SKD_EXPLAIN_H

enum skd_op {
	SKD_OP_OPEN,
	SKD_OP_INFO,
	SKD_OP_CONFIG,
	SKD_OP_MMAP,
	SKD_OP_START,
	SKD_OP_STOP,
	SKD_OP_STATS,
};

/* A sentence for @err (positive errno) from @op; never NULL. */
const char *skd_explain(enum skd_op op, int err);

#endif /* _SKD_EXPLAIN_H */
