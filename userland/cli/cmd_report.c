// SPDX-License-Identifier: GPL-2.0
/*
 * skidless report: where the samples landed, one section per event, as
 * perf report shows it: self and children, sort keys, filters, call
 * graphs. Shares are of the event's total period over the samples the
 * filters keep (perf's default, relative): in frequency mode the period
 * changes from sample to sample, and a count of samples would over-weigh
 * whatever ran while it was short.
 *
 * This file reads the options and feeds named samples to report_hist.c;
 * report_output.c prints.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "params.h"
#include "profile.h"
#include "report_common.h"
#include "report_hist.h"
#include "report_output.h"
#include "subcommands.h"

static const char usage_text[] =
	"Usage: %s %s [-i FILE] [OPTIONS]\n"
	"\n"
	"Per event, where the samples landed: each entry's share of the event's\n"
	"total period (events counted, or ns for the timer backend), its own\n"
	"(self) and, with call chains, with everything it called (children).\n"
	"\n"
	"  -i, --input FILE      capture to read (default perf.data)\n"
	"  -n, --top N           the N busiest entries per event (default 20;\n"
	"                        0: all)\n"
	"  -s, --sort KEYS       entries by these keys, comma-separated: sym,\n"
	"                        dso, comm, pid, tid, cpu, srcline, ip\n"
	"                        (default sym)\n"
	"  -F, --fields LIST     columns: overhead, children, sample, period and\n"
	"                        sort keys (the keys among them sort, if no -s)\n"
	"      --children        charge each sample to its callers too (default\n"
	"                        when the capture has call chains)\n"
	"      --no-children     self only\n"
	"  -g, --call-graph G    caller|callee[,LIMIT] tree under each entry,\n"
	"                        nodes below LIMIT %% of the event hidden\n"
	"                        (default 0.5), or none; on by default with\n"
	"                        call chains (callee order; caller with\n"
	"                        --children)\n"
	"      --comm(s) LIST    only samples of these commands\n"
	"      --pid(s) LIST     only these processes\n"
	"      --tid(s) LIST     only these threads\n"
	"  -C, --cpu LIST        only these CPUs (0-3,8)\n"
	"      --dso(s) LIST     only samples that landed in these objects\n"
	"      --sym(bols) LIST  only samples that landed in these functions\n"
	"      --time START,END  only samples in this range, seconds as\n"
	"                        script prints times (either side may be empty)\n"
	"      --return-address  name callers by their return address, as perf\n"
	"                        does, not by the call before it (they differ\n"
	"                        where a call ends its function)\n"
	"      --stdio           text (the default)\n"
	"      --json            one JSON document instead\n"
	"      --branches        the LBR branch view instead (record -b;\n"
	"                        report --branches --help)\n"
	"      --mem             the memory-sample view instead (PEBS load/store\n"
	"                        latency events; report --mem --help)\n";

enum {
	OPT_CHILDREN = 0x100, OPT_NO_CHILDREN, OPT_COMM, OPT_PID, OPT_TID,
	OPT_DSO, OPT_SYM, OPT_TIME, OPT_STDIO, OPT_JSON, OPT_RETURN,
};

struct args {
	const char *input;
	struct rh_config c;
	struct rh_filter filter;
	struct ro_opts out;
	bool children_set, children, callgraph_set, callgraph, order_set;
	bool fields_set, sort_set, json, exact_returns;
};

/* A sample's frames as report_hist takes them, grown as needed. */
struct frames {
	struct rh_frame *v;
	unsigned int cap;
};

static bool fail(const char *what)
{
	fprintf(stderr, "%s report: %s\n", PROG_NAME, what);
	return false;
}

/* false: stop, with *@status the exit status (0 after --help). */
static bool parse_args(int argc, char *argv[], struct args *a, int *status)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "top", required_argument, NULL, 'n' },
		{ "sort", required_argument, NULL, 's' },
		{ "fields", required_argument, NULL, 'F' },
		{ "children", no_argument, NULL, OPT_CHILDREN },
		{ "no-children", no_argument, NULL, OPT_NO_CHILDREN },
		{ "call-graph", required_argument, NULL, 'g' },
		{ "comm", required_argument, NULL, OPT_COMM },
		{ "comms", required_argument, NULL, OPT_COMM },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "pids", required_argument, NULL, OPT_PID },
		{ "tid", required_argument, NULL, OPT_TID },
		{ "tids", required_argument, NULL, OPT_TID },
		{ "cpu", required_argument, NULL, 'C' },
		{ "dso", required_argument, NULL, OPT_DSO },
		{ "dsos", required_argument, NULL, OPT_DSO },
		{ "sym", required_argument, NULL, OPT_SYM },
		{ "symbols", required_argument, NULL, OPT_SYM },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "stdio", no_argument, NULL, OPT_STDIO },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "return-address", no_argument, NULL, OPT_RETURN },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rh_filter *f = &a->filter;
	char err[512];
	int c, ret;

	*status = 1;
	a->out.top = 20;
	a->out.limit = 0.5;
	while ((c = getopt_long(argc, argv, "i:n:s:F:g:C:h", longopts,
				NULL)) != -1) {
		ret = 0;
		err[0] = '\0';
		switch (c) {
		case 'i':
			a->input = optarg;
			break;
		case 'n':
			if (!parse_uint("-n", optarg, 0, UINT32_MAX, &a->out.top))
				return false;
			break;
		case 's':
			ret = rh_parse_sort(optarg, a->c.keys, &a->c.nr_keys,
					    err, sizeof(err));
			a->sort_set = true;
			break;
		case 'F':
			/* The keys -F names sort unless --sort says otherwise. */
			if (a->sort_set) {
				enum rh_key k[RH_MAX_KEYS];
				unsigned int nk;

				ret = rh_parse_fields(optarg, a->out.fields,
						      &a->out.nr_fields, k, &nk,
						      err, sizeof(err));
			} else {
				ret = rh_parse_fields(optarg, a->out.fields,
						      &a->out.nr_fields,
						      a->c.keys, &a->c.nr_keys,
						      err, sizeof(err));
			}
			a->fields_set = true;
			break;
		case OPT_CHILDREN:
		case OPT_NO_CHILDREN:
			a->children_set = true;
			a->children = c == OPT_CHILDREN;
			break;
		case 'g':
			ret = rh_parse_callgraph(optarg, &a->callgraph,
						 &a->c.order, &a->order_set,
						 &a->out.limit, err,
						 sizeof(err));
			a->callgraph_set = true;
			break;
		case OPT_COMM:
			ret = rh_parse_names(optarg, &f->comms, &f->nr_comms);
			break;
		case OPT_PID:
			ret = rh_parse_ids(optarg, &f->pids, &f->nr_pids, err,
					   sizeof(err));
			break;
		case OPT_TID:
			ret = rh_parse_ids(optarg, &f->tids, &f->nr_tids, err,
					   sizeof(err));
			break;
		case 'C':
			if (skd_cpulist_parse(optarg, f->cpus,
					      RH_MAX_CPUS / 64) <= 0) {
				snprintf(err, sizeof(err), "bad --cpu `%s': give "
					 "a CPU list such as 0-3,8 (CPUs below "
					 "%d)", optarg, RH_MAX_CPUS);
				ret = -EINVAL;
			}
			f->has_cpus = true;
			break;
		case OPT_DSO:
			ret = rh_parse_names(optarg, &f->dsos, &f->nr_dsos);
			break;
		case OPT_SYM:
			ret = rh_parse_names(optarg, &f->syms, &f->nr_syms);
			break;
		case OPT_TIME:
			ret = rh_parse_time(optarg, &f->start, &f->end, err,
					    sizeof(err));
			f->has_time = true;
			break;
		case OPT_STDIO:
			a->json = false;
			break;
		case OPT_JSON:
			a->json = true;
			break;
		case OPT_RETURN:
			a->exact_returns = true;
			break;
		case 'h':
			printf(usage_text, PROG_NAME, argv[0]);
			*status = 0;
			return false;
		default:
			fprintf(stderr, usage_text, PROG_NAME, argv[0]);
			return false;
		}
		if (ret == -ENOMEM && !err[0])
			snprintf(err, sizeof(err), "out of memory");
		if (ret)
			return fail(err);
	}
	return true;
}

/* Does the capture have call chains (any sample with more than its ip)? */
static bool has_chains(struct skd_profile *p)
{
	size_t i, n = skd_profile_nr_samples(p);
	struct skd_event ev;

	for (i = 0; i < n; i++) {
		skd_profile_sample(p, i, &ev);
		if (ev.sample.nr > 1 || ev.sample.ustack ||
		    (ev.sample.branches &&
		     ev.sample.branch_flags & SKD_BR_CALL_STACK))
			return true;
	}
	return false;
}

/* Settle what the options left open, now that the capture is known. */
static void complete_args(struct args *a, struct skd_profile *p)
{
	bool chains = has_chains(p);
	unsigned int k;
	bool lines;

	/* As perf: without call chains there is nothing to charge callers. */
	a->c.children = chains && (a->children_set ? a->children : true);
	a->c.callgraph = a->callgraph_set ? a->callgraph : chains;
	if (!a->order_set)
		a->c.order = a->c.children ? RH_CALLER : RH_CALLEE;
	if (!a->c.nr_keys) {
		a->c.keys[0] = RH_SYM;
		a->c.nr_keys = 1;
	}
	if (!a->fields_set) {
		if (a->c.children)
			a->out.fields[a->out.nr_fields++] = RH_F_CHILDREN;
		a->out.fields[a->out.nr_fields++] = RH_F_OVERHEAD;
		for (k = 0; k < a->c.nr_keys; k++)
			a->out.fields[a->out.nr_fields++] = RH_F_KEY + a->c.keys[k];
	}
	for (k = 0; k < SKD_REPORT_EVENTS; k++)
		a->out.names[k] = skd_profile_event_name(p, k);
	/* DWARF lines cost most of the naming: only srcline needs them. */
	lines = false;
	for (k = 0; k < a->c.nr_keys; k++)
		lines |= a->c.keys[k] == RH_SRCLINE;
	skd_profile_set_lines(p, lines);
	skd_profile_set_exact_returns(p, a->exact_returns);
}

static struct rh_frame *frame_slot(struct frames *fr, unsigned int i)
{
	if (i >= fr->cap) {
		unsigned int cap = fr->cap ? fr->cap * 2 : 256;
		struct rh_frame *v;

		while (cap <= i)
			cap *= 2;
		v = realloc(fr->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		fr->v = v;
		fr->cap = cap;
	}
	return &fr->v[i];
}

static void name_frame(struct skd_profile *p, const struct skd_event *ev,
		       unsigned int i, struct rh_frame *out)
{
	struct skd_frame f;

	skd_profile_frame(p, ev, i, &f);
	*out = (struct rh_frame){ .sym = f.sym, .dso = f.dso, .ip = f.ip,
				  .off = f.off, .kernel = f.kernel, .file = f.file,
				  .line = f.line };
}

/*
 * A thread's command at the sample; before the first name it was given
 * (samples of an exec before its COMM record), the name it got later,
 * as perf 6.1 names them; ":TID" if none is known, swapper for pid 0.
 */
static const char *comm_of(const struct skd_profile *p,
			   const struct skd_event *ev, char *buf, size_t len)
{
	const char *comm = skd_profile_comm(p, ev->id->pid, ev->id->tid,
					    ev->id->time);

	if (!comm)
		comm = skd_profile_comm(p, ev->id->pid, ev->id->tid, UINT64_MAX);
	if (comm)
		return comm;
	if (!ev->id->pid)
		return "swapper";
	snprintf(buf, len, ":%u", ev->id->tid);
	return buf;
}

/*
 * Callers named lately, by skd_profile_callers_key(): a profile repeats
 * its stacks, and naming the callers is most of a report's work. A
 * direct-mapped table: a wide profile just misses.
 */
#define CHAIN_SLOTS	8192
#define CHAIN_MAX	16

struct chain_slot {
	uint64_t key;			/* 0: empty */
	uint32_t pid;
	unsigned int n;			/* callers */
	uint64_t ips[CHAIN_MAX];	/* checked, not trusted to the key */
	struct rh_frame f[CHAIN_MAX];
};

/* The slot that holds (or will hold) @ev's callers, or NULL: uncached. */
static struct chain_slot *chain_slot(struct chain_slot *t, uint64_t key,
				     const struct skd_event *ev, bool *hit)
{
	struct chain_slot *c;
	unsigned int n;

	*hit = false;
	if (!t || !key || ev->sample.nr < 2 || ev->sample.nr - 1u > CHAIN_MAX)
		return NULL;
	n = ev->sample.nr - 1u;
	c = &t[(key ^ key >> 29) % CHAIN_SLOTS];
	*hit = c->key == key && c->pid == ev->id->pid && c->n == n &&
	       !memcmp(c->ips, ev->sample.ips + 1, n * sizeof(c->ips[0]));
	return c;
}

/* Every sample the filters keep into @h; the count of damaged ones skipped. */
static int aggregate(struct skd_profile *p, const struct args *a,
		     struct rh_hist *h, uint64_t *skipped)
{
	bool chain = a->c.children || a->c.callgraph;
	size_t i, n = skd_profile_nr_samples(p);
	struct frames fr = { 0 };
	struct chain_slot *cache = NULL, *cs;
	uint64_t key;
	struct rh_sample s;
	struct skd_event ev;
	unsigned int j, nr;
	char unnamed[16];
	bool hit = false, need_comm = false, need_thread = false;
	int ret = 0;

	for (j = 0; j < a->c.nr_keys; j++) {
		need_comm |= a->c.keys[j] == RH_COMM;
		need_thread |= a->c.keys[j] == RH_PID || a->c.keys[j] == RH_TID;
	}
	need_comm |= need_thread || a->filter.nr_comms;
	if (!frame_slot(&fr, 0))
		return -ENOMEM;
	/* Without the table every sample is named frame by frame: slower. */
	if (chain)
		cache = calloc(CHAIN_SLOTS, sizeof(*cache));
	for (i = 0; i < n && !ret; i++) {
		skd_profile_sample(p, i, &ev);
		if (ev.sample.rec->event >= SKD_REPORT_EVENTS) {
			(*skipped)++;
			continue;
		}
		s = (struct rh_sample){
			.event = ev.sample.rec->event, .time = ev.id->time,
			.period = ev.sample.rec->period, .cpu = ev.id->cpu,
			.pid = ev.id->pid, .tid = ev.id->tid, .nr = 1,
			/* Looked up only when a key or filter shows it. */
			.comm = need_comm ? comm_of(p, &ev, unnamed,
						    sizeof(unnamed)) : "",
			.thread_name = need_thread ?
				skd_profile_comm(p, ev.id->pid, ev.id->tid,
						 UINT64_MAX) : NULL,
			.f = fr.v };
		/* The leaf decides the filters; the rest only if kept. */
		name_frame(p, &ev, 0, &fr.v[0]);
		if (!rh_filter_match(&a->filter, &s))
			continue;
		s.hidden = !rh_filter_shown(&a->filter, &s);
		nr = chain && !s.hidden ? skd_profile_nr_frames(p, &ev) : 1;
		if (!frame_slot(&fr, nr)) {
			ret = -ENOMEM;
			break;
		}
		hit = false;
		key = nr > 1 && nr == ev.sample.nr ?
		      skd_profile_callers_key(p, &ev) : 0;
		cs = chain_slot(cache, key, &ev, &hit);
		if (hit) {
			memcpy(&fr.v[1], cs->f, (nr - 1) * sizeof(fr.v[0]));
		} else {
			for (j = 1; j < nr; j++)
				name_frame(p, &ev, j, &fr.v[j]);
		}
		if (cs && !hit) {
			cs->key = key;
			cs->pid = ev.id->pid;
			cs->n = nr - 1;
			memcpy(cs->ips, ev.sample.ips + 1, cs->n * sizeof(cs->ips[0]));
			memcpy(cs->f, &fr.v[1], cs->n * sizeof(fr.v[0]));
		}
		s.nr = nr;
		s.f = fr.v;
		s.callers_key = key;
		if (!ret)
			ret = rh_hist_add(h, &s);
	}
	free(cache);
	free(fr.v);
	return ret;
}

static void print_header(const struct skd_profile *p, const char *input,
			 uint64_t samples)
{
	const struct skd_profile_totals *t = skd_profile_totals(p);

	printf("# skidless report of %s\n", input);
	printf("# command: %s\n", skd_profile_session_string(p, 2));
	printf("# host: %s, kernel %s\n", skd_profile_session_string(p, 0),
	       skd_profile_session_string(p, 1));
	printf("# samples: %" PRIu64 ", records lost: %" PRIu64 "\n", samples,
	       (uint64_t)t->stats.lost);
}

int report_main(int argc, char *argv[])
{
	struct args a = { .input = "perf.data" };
	struct rh_hist *h = NULL;
	struct skd_profile *p;
	uint64_t skipped = 0, kept = 0;
	unsigned int e;
	int ret = 1, err;

	/* The branch and memory views are commands of their own. */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--branches"))
			return report_branches_main(argc, argv);
		if (!strcmp(argv[i], "--mem"))
			return report_mem_main(argc, argv);
	}
	if (!parse_args(argc, argv, &a, &ret)) {
		rh_filter_free(&a.filter);
		return ret;
	}
	ret = 1;
	p = load_input(argc, argv, optind, a.input);
	if (!p) {
		rh_filter_free(&a.filter);
		return 1;
	}
	complete_args(&a, p);
	h = rh_hist_new(&a.c);
	if (!h || aggregate(p, &a, h, &skipped)) {
		fprintf(stderr, "%s: out of memory\n", PROG_NAME);
		goto out;
	}
	if (skipped)
		fprintf(stderr, "%s: %" PRIu64 " samples name an event no "
			"session has (the capture is damaged): skipped\n",
			PROG_NAME, skipped);
	for (e = 0; e < SKD_REPORT_EVENTS; e++)
		kept += rh_hist_totals(h, e)->samples;
	if (a.json) {
		err = ro_print_json(stdout, h, &a.out, a.input,
				    skd_profile_session_string(p, 2), kept);
	} else {
		print_header(p, a.input, skd_profile_nr_samples(p));
		err = ro_print_stdio(stdout, h, &a.out);
		if (!kept)
			printf("#\n# no samples%s\n",
			       skd_profile_nr_samples(p) ?
			       " (the filters kept none)" : "");
	}
	if (err) {
		fprintf(stderr, "%s report: %s\n", PROG_NAME, err == -ENOMEM ?
			"out of memory" : "cannot write the output");
		goto out;
	}
	warn_capture_problems(a.input, skd_profile_totals(p));
	ret = fflush(stdout) ? 1 : 0;
out:
	rh_hist_free(h);
	rh_filter_free(&a.filter);
	skd_profile_free(p);
	return ret;
}
