/* SPDX-License-Identifier: GPL-2.0 */
/* The call graph under a report entry: a tree of functions, periods summed. */
#ifndef _SKD_REPORT_CALLGRAPH_H
#define _SKD_REPORT_CALLGRAPH_H

#include "report_hist.h"

/*
 * Add a path of @n functions under @root, each node on the way charged
 * @period and one sample. 0 or -ENOMEM.
 */
int rh_graph_add(struct rh_node *root, const struct rh_sym *const *path,
		 unsigned int n, uint64_t period);
/* Children busiest first, at every level. 0 or -ENOMEM. */
int rh_graph_sort(struct rh_node *root);
/* Frees what hangs under @root (not @root itself). */
void rh_graph_free(struct rh_node *root);

#endif /* _SKD_REPORT_CALLGRAPH_H */
