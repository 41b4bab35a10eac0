/* SPDX-License-Identifier: GPL-2.0 */
/* The call graph under a report entry: a tree of functions, periods summed. */
#ifndef _SKD_REPORT_CALLGRAPH_H
#define _SKD_REPORT_CALLGRAPH_H

#include "report_hist.h"

/*
 * The nodes of all the trees of a report, and where the children of
 * every node are found by (parent, function), so a wide node costs no
 * walk along its siblings. Nodes are carved from big blocks and freed
 * with the index: a report makes millions.
 */
struct rh_graph_index {
	struct rh_graph_slot {
		const struct rh_node *parent;
		struct rh_node *node;
	} *v;
	size_t cap, n;
	struct rh_node **blocks;
	size_t nr_blocks, used;		/* nodes used in the last block */
};

/*
 * Add a path of @n functions under @root, each node on the way charged
 * @period and one sample. 0 or -ENOMEM.
 */
int rh_graph_add(struct rh_graph_index *ix, struct rh_node *root,
		 const struct rh_sym *const *path, unsigned int n,
		 uint64_t period);
/* The same, and the nodes of the path into @nodes (n of them). */
int rh_graph_add_path(struct rh_graph_index *ix, struct rh_node *root,
		      const struct rh_sym *const *path, unsigned int n,
		      uint64_t period, struct rh_node **nodes);
/* Frees the index and every node of every tree. */
void rh_graph_index_free(struct rh_graph_index *ix);
/*
 * Children busiest first, at every level, down to the nodes at or above
 * @limit percent of @total: those below stay unsorted after them and
 * their subtrees are not visited (a graph of millions of nodes is mostly
 * tail nobody prints). 0 or -ENOMEM.
 */
int rh_graph_sort(struct rh_node *root, uint64_t total, double limit);
/* Is @n shown: at least @limit percent of @total? */
bool rh_graph_shown(const struct rh_node *n, uint64_t total, double limit);

#endif /* _SKD_REPORT_CALLGRAPH_H */
