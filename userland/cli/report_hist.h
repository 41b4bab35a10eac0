/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report's aggregation: samples (already named, frame by frame) into
 * entries keyed by the --sort keys, self and children periods, the call
 * graph under each entry, and the filters that decide which samples
 * count. Knows nothing of files: tests feed it samples directly.
 */
#ifndef _SKD_REPORT_HIST_H
#define _SKD_REPORT_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rh_key {
	RH_SYM, RH_DSO, RH_COMM, RH_PID, RH_TID, RH_CPU, RH_SRCLINE, RH_IP,
	RH_NR_KEYS
};

/* Columns: the metrics, then one per sort key (RH_F_KEY + key). */
enum rh_field {
	RH_F_OVERHEAD, RH_F_CHILDREN, RH_F_SAMPLE, RH_F_PERIOD, RH_F_KEY
};

#define RH_MAX_KEYS	RH_NR_KEYS
#define RH_MAX_FIELDS	(RH_F_KEY + RH_NR_KEYS)
#define RH_MAX_CPUS	4096
/* Events of a session (SKD_MAX_EVENTS). */
#define SKD_REPORT_EVENTS	16

/* Call-graph order: under an entry, its callees or its callers. */
enum rh_order { RH_CALLEE, RH_CALLER };

/* A frame as profile.c names it; strings must outlive the hist. */
struct rh_frame {
	const char *sym;	/* NULL: unknown */
	const char *dso;
	uint64_t ip;
	uint64_t off;		/* ip - symbol start */
	bool kernel;
	const char *file;	/* NULL: no line information */
	unsigned int line;
};

struct rh_sample {
	unsigned int event;
	uint64_t time, period;
	uint32_t cpu, pid, tid;
	const char *comm;	/* never NULL */
	/* The thread's name as the pid and tid keys show it (perf: its
	 * latest), NULL: comm. */
	const char *thread_name;
	unsigned int nr;	/* frames, leaf first; at least 1 */
	const struct rh_frame *f;
	bool hidden;		/* in the totals only (rh_filter_shown) */
	/*
	 * Samples with the same non-zero key have the same callers (f[1]
	 * on, skd_profile_callers_key()): their graph path is found again
	 * without a search. 0: no such promise.
	 */
	uint64_t callers_key;
};

/* Which samples count; an empty list lets everything through. */
struct rh_filter {
	char **comms, **dsos, **syms;
	size_t nr_comms, nr_dsos, nr_syms;
	uint32_t *pids, *tids;
	size_t nr_pids, nr_tids;
	bool has_cpus, has_time;
	uint64_t cpus[RH_MAX_CPUS / 64];
	uint64_t start, end;	/* ns, inclusive; 0: open */
};

struct rh_config {
	enum rh_key keys[RH_MAX_KEYS];
	unsigned int nr_keys;
	bool children;		/* also charge every caller of the sample */
	bool callgraph;		/* build the trees */
	enum rh_order order;
};

/* A function as the call graph and the sym key see it. */
struct rh_sym {
	const char *name;	/* NULL: unknown, then ip says which */
	const char *dso;	/* interned */
	uint64_t ip;		/* 0 when name is known */
	bool kernel;
};

/* One node of an entry's call graph; siblings chained. */
struct rh_node {
	const struct rh_sym *sym;
	uint64_t period, samples;
	struct rh_node *child, *next;
};

struct rh_entry {
	unsigned int event;
	uint64_t val[RH_MAX_KEYS];	/* by position in config keys */
	const struct rh_sym *sym;	/* of the key's frame */
	const char *comm;		/* thread name, for pid/tid */
	uint64_t self, children, samples;
	struct rh_node root;		/* root.child: the graph */
};

struct rh_hist;

/* Parsers: 0, or -EINVAL with a sentence naming the fix in @err. */
int rh_parse_sort(const char *s, enum rh_key *keys, unsigned int *n,
		  char *err, size_t errlen);
/* -F: fields in order; sort keys among them are returned in @keys too. */
int rh_parse_fields(const char *s, unsigned int *fields, unsigned int *n,
		    enum rh_key *keys, unsigned int *nkeys, char *err,
		    size_t errlen);
/* "START,END" in seconds (either may be empty), as perf --time. */
int rh_parse_time(const char *s, uint64_t *start, uint64_t *end, char *err,
		  size_t errlen);
/* "a,b,c" appended to *@v (strings copied). 0 or -ENOMEM. */
int rh_parse_names(const char *s, char ***v, size_t *n);
int rh_parse_ids(const char *s, uint32_t **v, size_t *n, char *err,
		 size_t errlen);
/* -g "caller|callee|none|graph|fractal|flat[,LIMIT][,caller|callee]". */
int rh_parse_callgraph(const char *s, bool *on, enum rh_order *order,
		       bool *order_set, double *limit, char *err,
		       size_t errlen);
void rh_filter_free(struct rh_filter *f);

const char *rh_key_name(enum rh_key k);
/*
 * Perf 6.1's two kinds of filter. --time and --cpu drop samples: shares
 * are of what is left. --comm, --pid, --tid, --dso and --sym (the last
 * two on the sample's leaf) hide them: a hidden sample still counts in
 * its event's total, so the entries shown keep their shares of the whole.
 */
bool rh_filter_match(const struct rh_filter *f, const struct rh_sample *s);
bool rh_filter_shown(const struct rh_filter *f, const struct rh_sample *s);

struct rh_hist *rh_hist_new(const struct rh_config *c);
void rh_hist_free(struct rh_hist *h);
/* Count @s (filters are the caller's). 0 or -ENOMEM. */
int rh_hist_add(struct rh_hist *h, const struct rh_sample *s);

struct rh_totals {
	uint64_t samples, period;
};
const struct rh_totals *rh_hist_totals(const struct rh_hist *h,
				       unsigned int event);
/*
 * The entries of @event, busiest first (children, then self, in
 * children mode; self alone otherwise), ties in key order; the call
 * graphs are not sorted (rh_graph_sort, for the entries shown). The
 * array is the hist's; NULL + 0 when none.
 */
struct rh_entry **rh_hist_sorted(struct rh_hist *h, unsigned int event,
				 size_t *n);

/* The text of key @k of @e ("[k] name", "libc.so.6", "1234:comm", ...). */
void rh_key_format(const struct rh_hist *h, const struct rh_entry *e,
		   unsigned int pos, char *buf, size_t len);
/* "[k] sym", "[.] sym" or "[.] 0x..." for a call-graph node or entry. */
void rh_sym_format(const struct rh_sym *s, char *buf, size_t len);
const struct rh_config *rh_hist_config(const struct rh_hist *h);

#endif /* _SKD_REPORT_HIST_H */
