/* SPDX-License-Identifier: GPL-2.0 */
/* The call graph under a report entry: a tree of functions, periods summed. */
#ifndef _SKD_REPORT_CALLGRAPH_H
#define _SKD_REPORT_CALLGRAPH_H

#include "report_hist.h"

/*
 * Where the children of every node are found by (parent, function):
 * one index for all the trees of a report, so a wide node costs no
 * walk along its siblings.
 */
struct rh_graph_index {
	struct rh_graph_slot {
		const struct rh_node *parent;
		struct rh_node *node;
	} *v;
	size_t cap, n;
};

/*
 * Add a path of @n functions under @root, each node on the way charged
 * @period and one sample. 0 or -ENOMEM.
 */
int rh_graph_add(struct rh_graph_index *ix, struct rh_node *root,
		 const struct rh_sym *const *path, unsigned int n,
		 uint64_t period);
void rh_graph_index_free(struct rh_graph_index *ix);
/* Children busiest first, at every level. 0 or -ENOMEM. */
int rh_graph_sort(struct rh_node *root);
/* Frees what hangs under @root (not @root itself). */
void rh_graph_free(struct rh_node *root);

#endif /* _SKD_REPORT_CALLGRAPH_H */
