// SPDX-License-Identifier: GPL-2.0
/*
 * report's output. The text is laid out as perf report --stdio lays
 * out its own (percent columns 8 wide, "[k]"/"[.]" before symbols, two
 * spaces between columns, call graphs drawn under each entry), so that
 * people and scripts that read one read the other.
 */
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "report_callgraph.h"
#include "report_output.h"

#define CELL	512

static double pct(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

static const char *field_header(const struct rh_hist *h, unsigned int f)
{
	static const char *const keys[RH_NR_KEYS] = {
		[RH_SYM] = "Symbol", [RH_DSO] = "Shared Object",
		[RH_COMM] = "Command", [RH_PID] = "    Pid:Command",
		[RH_TID] = "    Tid:Command", [RH_CPU] = "CPU",
		[RH_SRCLINE] = "Source:Line", [RH_IP] = "IP",
	};

	switch (f) {
	case RH_F_OVERHEAD:
		return rh_hist_config(h)->children ? "Self" : "Overhead";
	case RH_F_CHILDREN:
		return "Children";
	case RH_F_SAMPLE:
		return "Samples";
	case RH_F_PERIOD:
		return "Period";
	}
	return f - RH_F_KEY < RH_NR_KEYS ? keys[f - RH_F_KEY] : "?";
}

/* Position of key @k among the hist's sort keys. */
static unsigned int key_pos(const struct rh_hist *h, unsigned int k)
{
	const struct rh_config *c = rh_hist_config(h);
	unsigned int i;

	for (i = 0; i < c->nr_keys; i++)
		if (c->keys[i] == k)
			return i;
	return 0;
}

static bool is_number(unsigned int f)
{
	return f < RH_F_KEY;
}

static void cell(const struct rh_hist *h, const struct rh_entry *e,
		 uint64_t total, unsigned int f, char *buf)
{
	switch (f) {
	case RH_F_OVERHEAD:
		snprintf(buf, CELL, "%.2f%%", pct(e->self, total));
		break;
	case RH_F_CHILDREN:
		snprintf(buf, CELL, "%.2f%%", pct(e->children, total));
		break;
	case RH_F_SAMPLE:
		snprintf(buf, CELL, "%" PRIu64, e->samples);
		break;
	case RH_F_PERIOD:
		/* Self, as perf's period column, children or not. */
		snprintf(buf, CELL, "%" PRIu64, e->self);
		break;
	default:
		rh_key_format(h, e, key_pos(h, f - RH_F_KEY), buf, CELL);
	}
}

static void print_node_name(FILE *out, const struct rh_node *n)
{
	char buf[CELL];

	rh_sym_format(n->sym, buf, sizeof(buf));
	/* The graph names functions without the [k]/[.] marker, as perf. */
	fputs(buf + 4, out);
	fputc('\n', out);
}

static unsigned int visible(const struct rh_node *parent, uint64_t total,
			    double limit)
{
	const struct rh_node *c;
	unsigned int n = 0;

	/* Sorted by rh_graph_sort(): the shown ones come first. */
	for (c = parent->child; c && pct(c->period, total) >= limit; c = c->next)
		n++;
	return n;
}

static int print_graph(FILE *out, const struct rh_node *parent,
		       uint64_t total, double limit, const char *prefix)
{
	unsigned int n = visible(parent, total, limit), k = 0;
	const struct rh_node *c, *d;
	size_t plen = strlen(prefix);
	char *sub;
	int ret = 0;

	if (!n)
		return 0;
	sub = malloc(plen + 32);	/* the prefix, a bar, a percentage */
	if (!sub)
		return -ENOMEM;
	fprintf(out, "%s|\n", prefix);
	/* The blank line after the last branch, without trailing spaces. */
	while (plen && prefix[plen - 1] == ' ')
		plen--;
	for (c = parent->child; c && !ret; c = c->next) {
		char p[32];
		bool last;

		if (pct(c->period, total) < limit)
			break;
		last = ++k == n;
		snprintf(p, sizeof(p), "%.2f%%", pct(c->period, total));
		fprintf(out, "%s%s%s--", prefix, last ? " --" : "|--", p);
		print_node_name(out, c);
		/* Under the name: "|" while siblings follow, then spaces. */
		snprintf(sub, strlen(prefix) + 32, "%s%s%*s", prefix, last ? " " : "|",
			 (int)strlen(p) + 4, "");
		/* A chain with no branching is one column of names. */
		for (d = c; visible(d, total, limit) == 1 &&
			    d->child->period == d->period; d = d->child) {
			fputs(sub, out);
			print_node_name(out, d->child);
		}
		ret = print_graph(out, d, total, limit, sub);
		if (last)
			fprintf(out, "%.*s\n", (int)plen, prefix);
	}
	free(sub);
	return ret;
}

static int print_event(FILE *out, struct rh_hist *h, const struct ro_opts *o,
		       unsigned int event)
{
	const struct rh_totals *t = rh_hist_totals(h, event);
	const char *name = o->names[event] && o->names[event][0] ?
			   o->names[event] : "timer";
	size_t n, i, shown, w[RH_MAX_FIELDS];
	struct rh_entry **v = rh_hist_sorted(h, event, &n);
	char (*cells)[CELL];
	unsigned int f;
	int ret = 0;

	if (!v)
		return -ENOMEM;
	shown = o->top && o->top < n ? o->top : n;
	cells = malloc((shown ? shown : 1) * o->nr_fields * CELL);
	if (!cells)
		return -ENOMEM;
	for (f = 0; f < o->nr_fields; f++) {
		w[f] = strlen(field_header(h, o->fields[f]));
		if (is_number(o->fields[f]) && w[f] < 8)
			w[f] = 8;
	}
	for (i = 0; i < shown; i++)
		for (f = 0; f < o->nr_fields; f++) {
			char *c = cells[i * o->nr_fields + f];

			cell(h, v[i], t->period, o->fields[f], c);
			if (strlen(c) > w[f])
				w[f] = strlen(c);
		}

	fprintf(out, "#\n# event: %s, %" PRIu64 " samples, period %" PRIu64
		"\n#\n#", name, t->samples, t->period);
	for (f = 0; f < o->nr_fields; f++) {
		bool last = f + 1 == o->nr_fields;
		const char *hd = field_header(h, o->fields[f]);

		/* "#" stands in for the first column's leading space. */
		const char *sep = f ? "  " : " ";

		if (is_number(o->fields[f]))
			fprintf(out, "%s%*s", sep, (int)w[f], hd);
		else
			fprintf(out, "%s%-*s", sep, last ? 0 : (int)w[f], hd);
	}
	fputs("\n#\n", out);
	for (i = 0; i < shown; i++) {
		for (f = 0; f < o->nr_fields; f++) {
			const char *c = cells[i * o->nr_fields + f];
			bool last = f + 1 == o->nr_fields;

			if (is_number(o->fields[f]))
				fprintf(out, "  %*s", (int)w[f], c);
			else
				fprintf(out, "  %-*s", last ? 0 : (int)w[f], c);
		}
		fputc('\n', out);
		if (rh_hist_config(h)->callgraph) {
			ret = rh_graph_sort(&v[i]->root, t->period, o->limit);
			if (!ret)
				ret = print_graph(out, &v[i]->root, t->period,
					  o->limit, "            ");
			if (ret)
				break;
		}
	}
	free(cells);
	return ret;
}

int ro_print_stdio(FILE *out, struct rh_hist *h, const struct ro_opts *o)
{
	unsigned int e;
	int ret;

	for (e = 0; e < SKD_REPORT_EVENTS; e++) {
		if (!rh_hist_totals(h, e)->samples)
			continue;
		ret = print_event(out, h, o, e);
		if (ret)
			return ret;
	}
	return ferror(out) ? -EIO : 0;
}

/* json-c's adders fail only without memory; one check at the end. */
static void add(json_object *o, const char *k, json_object *v, bool *oom)
{
	if (!v || json_object_object_add(o, k, v)) {
		json_object_put(v);
		*oom = true;
	}
}

static void push(json_object *a, json_object *v, bool *oom)
{
	if (!v || json_object_array_add(a, v)) {
		json_object_put(v);
		*oom = true;
	}
}

static json_object *sym_json(const struct rh_sym *s, json_object *o,
			     bool *oom)
{
	char ip[32];

	if (s->name) {
		add(o, "sym", json_object_new_string(s->name), oom);
	} else {
		snprintf(ip, sizeof(ip), "0x%016" PRIx64, s->ip);
		add(o, "sym", json_object_new_string(ip), oom);
	}
	add(o, "dso", json_object_new_string(s->dso), oom);
	add(o, "kernel", json_object_new_boolean(s->kernel), oom);
	return o;
}

static json_object *graph_json(const struct rh_node *parent, uint64_t total,
			       double limit, bool *oom)
{
	json_object *a = json_object_new_array(), *o;
	const struct rh_node *c;

	if (!a) {
		*oom = true;
		return NULL;
	}
	for (c = parent->child; c; c = c->next) {
		if (pct(c->period, total) < limit)
			break;		/* sorted: the rest are smaller */
		o = json_object_new_object();
		if (!o) {
			*oom = true;
			break;
		}
		sym_json(c->sym, o, oom);
		add(o, "percent", json_object_new_double(pct(c->period, total)),
		    oom);
		add(o, "period", json_object_new_int64((int64_t)c->period), oom);
		add(o, "samples", json_object_new_int64((int64_t)c->samples),
		    oom);
		if (c->child && pct(c->child->period, total) >= limit)
			add(o, "callgraph", graph_json(c, total, limit, oom), oom);
		push(a, o, oom);
	}
	return a;
}

static json_object *entry_json(const struct rh_hist *h,
			       struct rh_entry *e, uint64_t total,
			       double limit, bool *oom)
{
	const struct rh_config *c = rh_hist_config(h);
	json_object *o = json_object_new_object();
	char buf[CELL];
	unsigned int k;

	if (!o) {
		*oom = true;
		return NULL;
	}
	add(o, "overhead", json_object_new_double(pct(e->self, total)), oom);
	if (c->children)
		add(o, "children",
		    json_object_new_double(pct(e->children, total)), oom);
	add(o, "samples", json_object_new_int64((int64_t)e->samples), oom);
	add(o, "period", json_object_new_int64((int64_t)e->self), oom);
	if (c->children)
		add(o, "children_period",
		    json_object_new_int64((int64_t)e->children), oom);
	for (k = 0; k < c->nr_keys; k++) {
		uint64_t v = e->val[k];

		switch (c->keys[k]) {
		case RH_SYM:
			sym_json(e->sym, o, oom);
			break;
		case RH_DSO:
			add(o, "dso", json_object_new_string(e->sym->dso), oom);
			break;
		case RH_PID:
		case RH_TID:
			add(o, c->keys[k] == RH_PID ? "pid" : "tid",
			    json_object_new_int64((int64_t)v), oom);
			add(o, "comm", json_object_new_string(e->comm), oom);
			break;
		case RH_CPU:
			add(o, "cpu", json_object_new_int64((int64_t)v), oom);
			break;
		default:
			rh_key_format(h, e, k, buf, sizeof(buf));
			add(o, rh_key_name(c->keys[k]),
			    json_object_new_string(buf), oom);
		}
	}
	if (c->callgraph && rh_graph_sort(&e->root, total, limit))
		*oom = true;
	else if (c->callgraph)
		add(o, "callgraph", graph_json(&e->root, total, limit, oom), oom);
	return o;
}

int ro_print_json(FILE *out, struct rh_hist *h, const struct ro_opts *o,
		  const char *input, const char *command, uint64_t samples)
{
	const struct rh_config *c = rh_hist_config(h);
	json_object *doc = json_object_new_object(), *events, *sort;
	bool oom = !doc;
	unsigned int e, k;
	int ret = 0;

	if (oom)
		return -ENOMEM;
	add(doc, "input", json_object_new_string(input), &oom);
	add(doc, "command", json_object_new_string(command), &oom);
	add(doc, "samples", json_object_new_int64((int64_t)samples), &oom);
	add(doc, "children", json_object_new_boolean(c->children), &oom);
	sort = json_object_new_array();
	for (k = 0; sort && k < c->nr_keys; k++)
		push(sort, json_object_new_string(rh_key_name(c->keys[k])),
		     &oom);
	add(doc, "sort", sort, &oom);
	events = json_object_new_array();
	add(doc, "events", events, &oom);
	for (e = 0; events && !oom && e < SKD_REPORT_EVENTS; e++) {
		const struct rh_totals *t = rh_hist_totals(h, e);
		json_object *ev, *entries;
		struct rh_entry **v;
		size_t n, i;

		if (!t->samples)
			continue;
		v = rh_hist_sorted(h, e, &n);
		ev = json_object_new_object();
		entries = json_object_new_array();
		if (!v || !ev || !entries) {
			json_object_put(ev);
			json_object_put(entries);
			oom = true;
			break;
		}
		add(ev, "event", json_object_new_string(o->names[e] &&
			o->names[e][0] ? o->names[e] : "timer"), &oom);
		add(ev, "index", json_object_new_int((int)e), &oom);
		add(ev, "samples", json_object_new_int64((int64_t)t->samples),
		    &oom);
		add(ev, "period", json_object_new_int64((int64_t)t->period),
		    &oom);
		for (i = 0; i < n && (!o->top || i < o->top); i++)
			push(entries, entry_json(h, v[i], t->period, o->limit,
						 &oom), &oom);
		add(ev, "entries", entries, &oom);
		push(events, ev, &oom);
	}
	if (oom)
		ret = -ENOMEM;
	else if (fprintf(out, "%s\n", json_object_to_json_string_ext(doc,
			 JSON_C_TO_STRING_PLAIN |
			 JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		ret = -EIO;
	json_object_put(doc);
	return ret;
}
