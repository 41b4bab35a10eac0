// SPDX-License-Identifier: GPL-2.0
/*
 * An independent oracle for Intel's event lists and what skidless makes of
 * them.
 *
 * This test reads kmod/intel/perfmon (mapfile.csv and the core lists) again,
 * with jansson rather than the generator's json-c, and derives every
 * expected value from the JSON and the rules of kmod/intel/perfmon/README.md
 * ("How skidless reads them", rules 1-8) as written there, by its own code:
 * nothing of kmod/intel/gen_events.c is reused, so a misreading in the
 * generator cannot hide behind the same misreading here. Checked against
 * that oracle:
 *
 *   test_mapfile		skd_cpu_matches[] and skd_event_list_match()
 *				(rule 1)
 *   test_rules		every entry of skd_event_lists[] (rules 2-8)
 *   test_info		every entry of skd_event_infos[] (names,
 *				descriptions, MSRValue, SampleAfterValue, ...)
 *   test_placement	skd_pmu_plan() for every event of every list at
 *				precise 0-3 on a nominal PMU per list: where it
 *				may go, PEBS, exact IP, the extra MSRs
 *
 * and the rules of Linux's arch/x86/events/intel that the lists do not
 * state, written down below from the Linux source (not from
 * kmod/intel/models.c), one test each:
 *
 *   test_tfa		TSX force-abort: no GP counter 3 (core.c
 *				tfa_get_event_constraints())
 *   test_skl_pebs_gp0_3	Skylake family: PEBS on GP counters 0-3 only
 *				(ds.c intel_skl_pebs_event_constraints)
 *   test_periods		full-width writes and the period limits
 *				(core.c x86_pmu.max_period, spr_limit_period())
 *   test_taken_alone	Intel's TakenAlone
 *   test_extra_msrs	the valid bits of the offcore-response and
 *				front-end MSRs (core.c *_extra_regs), and the
 *				two offcore-response MSRs (core.c
 *				intel_fixup_er())
 *
 * Where the README leaves a choice, this oracle reads it so (none of these
 * changes a table entry of the vendored snapshot): "lists with" a field
 * (rules 4-6) means any event of the list has it; "their counters" of a
 * *.PREC_DIST event (rule 6) is Counter; rules 5 and 6 are applied per
 * event, then merged (rule 8). An extra-MSR value outside Linux's valid
 * bits is refused even when Intel's list gives it (two Gracemont events).
 *
 * A table of cases is one test; each prints how many cases it checked,
 * and its first disagreements as "#" lines naming the list, the event and
 * both values, before it fails.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "event_info.h"
#include "event_rules.h"
#include "models.h"
#include "plan.h"

#ifndef PERFMON_DIR
#error "build with -DPERFMON_DIR='\"<repository>/kmod/intel/perfmon\"'"
#endif

/*
 * Counter slots as event_rules.h documents them (GP i bit i, fixed j bit
 * 8 + j), spelled out here so a wrong macro there shows up.
 */
#define GP(i)		((u16)(1U << (i)))
#define FX(j)		((u16)(1U << (8 + (j))))
#define ALL_GP		((u16)0x00ff)
#define ALL_FX		((u16)0x0f00)
#define GP0_3		((u16)0x000f)

#define MAX_LISTS	32
#define MAX_ROWS	256
#define MAX_SHOWN	40	/* disagreements printed per test */

/* The request of every planning case (the brief's nominal session). */
#define PERIOD		100003
#define MAX_FREQ	100000
#define PEBS_BYTES	65536
#define ATTR_SIZE	48

/* core.c is_mem_loads_aux_event(): event 0x03, umask 0x82. */
#define LDLAT_AUX	0x8203

/* ---- the oracle's reading of the JSON ----------------------------------- */

enum extra_msr {
	X_NONE,
	X_LDLAT,	/* MSRIndex 0x3F6 */
	X_FRONTEND,	/* 0x3F7 */
	X_OFFCORE,	/* 0x1a6,0x1a7, or two encodings (rule 2) */
};

/* One JSON event, as rules 2-7 read it. */
struct o_event {
	char *name;			/* lower case */
	char *desc;			/* BriefDescription */
	u32 enc[2];			/* rule 2 */
	unsigned int nr_enc;
	enum extra_msr msr;
	u64 msr_value;
	u64 sample_after;
	bool deprecated;
	u16 counters, htoff, pebs, pdist;	/* rules 3, 4, 6 */
	bool exact, data_la, taken_alone;	/* rules 5, 7 */
};

/* One encoding: the union of its events (rule 8). */
struct o_rule {
	u32 config;
	u16 counters, htoff, pebs, pdist, alt, flags;
	bool has_alt;
};

struct o_list {
	char *name;			/* "skylake" */
	char *path;
	char *version, *date;		/* Header */
	struct o_event *ev;
	unsigned int nr_ev;
	struct o_rule *rules;		/* sorted by config */
	unsigned int nr_rules;
	int gen;			/* index in skd_event_lists[], -1: none */
};

/* A mapfile.csv row of this snapshot (rule 1). */
struct o_row {
	u32 family, model;
	u16 steppings;
	u32 core_type;
	unsigned int list;		/* in oracle.lists */
	char cpu[64];			/* as the file spells it, for messages */
};

struct oracle {
	struct o_list lists[MAX_LISTS];
	unsigned int nr_lists;
	struct o_row rows[MAX_ROWS];
	unsigned int nr_rows;
};

static struct oracle *O;
static char load_err[512];

static __printf(1, 2) int bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(load_err, sizeof(load_err), fmt, ap);
	va_end(ap);
	return -1;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	if (!p)
		abort();
	return p;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * A JSON number field: "0x..." hex, else decimal (a leading 0 is not
 * octal); "" is 0. false when it is neither.
 */
static bool parse_num(const char *s, u64 *out)
{
	unsigned int base = 10;
	bool any = false;
	u64 v = 0;
	int d;

	while (isspace((unsigned char)*s))
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (; *s && !isspace((unsigned char)*s); s++) {
		d = hexval((unsigned char)*s);
		if (d < 0 || (unsigned int)d >= base ||
		    v > (UINT64_MAX - (u64)d) / base)
			return false;
		v = v * base + (u64)d;
		any = true;
	}
	while (isspace((unsigned char)*s))
		s++;
	if (*s || (base == 16 && !any))
		return false;
	*out = v;
	return true;
}

/* Is @key in the event at all? */
static bool has(json_t *ev, const char *key)
{
	return json_object_get(ev, key);
}

/* A field's string, "" when absent, NULL when it is not a string. */
static const char *fld(json_t *ev, const char *key)
{
	json_t *v = json_object_get(ev, key);

	return v ? json_string_value(v) : "";
}

static int fnum(json_t *ev, const char *key, u64 *v)
{
	const char *s = fld(ev, key);

	if (!s || !parse_num(s, v))
		return bad("field %s of %s is not a number", key,
			   fld(ev, "EventName") ? fld(ev, "EventName") : "?");
	return 0;
}

/* "0xB7, 0xBB" into up to two numbers; how many, or -1. */
static int split2(const char *s, u64 v[2])
{
	char buf[64], *tok, *save = NULL;
	int n = 0;

	if (!s || strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == 2 || !parse_num(tok, &v[n]))
			return -1;
		n++;
	}
	return n ? n : -1;
}

/*
 * Rules 3, 4, 6: a counter field into slots. "0,1,2,3", "Fixed counter
 * 1", PEBScounters' 32 + j for fixed counter j; "" and "NA": none.
 */
static int parse_slots(const char *s, u16 *out)
{
	char buf[128], *tok, *save = NULL;
	u64 n;

	*out = 0;
	if (!s || strlen(s) >= sizeof(buf))
		return -1;
	while (isspace((unsigned char)*s))
		s++;
	if (!*s || !strcmp(s, "NA"))
		return 0;
	if (!strncmp(s, "Fixed counter ", 14)) {
		if (!parse_num(s + 14, &n) || n > 3)
			return -1;
		*out = FX(n);
		return 0;
	}
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!parse_num(tok, &n))
			return -1;
		if (n < 8)
			*out |= GP(n);
		else if (n >= 32 && n < 36)
			*out |= FX(n - 32);
		else
			return -1;
	}
	return 0;
}

static int slots_field(json_t *ev, const char *key, u16 *out)
{
	if (parse_slots(fld(ev, key), out))
		return bad("field %s of %s is not a counter list", key,
			   fld(ev, "EventName"));
	return 0;
}

/* Rule 7: MSRIndex, "0", "0x3F6", "0x1a6,0x1a7", ... */
static int parse_msr(json_t *ev, enum extra_msr *out)
{
	u64 v[2] = { 0, 0 };
	int n = split2(fld(ev, "MSRIndex"), v);

	if (!has(ev, "MSRIndex") || (n == 1 && v[0] == 0)) {
		*out = X_NONE;
	} else if (n == 1 && v[0] == 0x3f6) {
		*out = X_LDLAT;
	} else if (n == 1 && v[0] == 0x3f7) {
		*out = X_FRONTEND;
	} else if ((n == 2 && v[0] == 0x1a6 && v[1] == 0x1a7) ||
		   (n == 1 && (v[0] == 0x1a6 || v[0] == 0x1a7))) {
		*out = X_OFFCORE;
	} else {
		return bad("MSRIndex `%s' of %s is not one README rule 7 names",
			   fld(ev, "MSRIndex"), fld(ev, "EventName"));
	}
	return 0;
}

/* Which fields a list has: rules 4-6 are per list. */
struct list_fields {
	bool pebs_counters, precise, pebs, pdist;
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static int read_event(json_t *ev, const struct list_fields *lf,
		      struct o_event *e)
{
	u64 code[2], umask[2], edge, any, inv, cmask, v;
	const char *name = fld(ev, "EventName"), *s;
	int nc, nu;
	unsigned int k;
	char *p;

	if (!name || !*name)
		return bad("an event without EventName");
	e->name = xstrdup(name);
	for (p = e->name; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	s = fld(ev, "BriefDescription");
	if (!s)
		return bad("BriefDescription of %s is not a string", name);
	e->desc = xstrdup(s);

	/* Rule 2. */
	nc = split2(fld(ev, "EventCode"), code);
	nu = split2(fld(ev, "UMask"), umask);
	if (nc < 0 || nu < 0)
		return bad("EventCode or UMask of %s", name);
	if (fnum(ev, "EdgeDetect", &edge) || fnum(ev, "AnyThread", &any) ||
	    fnum(ev, "Invert", &inv) || fnum(ev, "CounterMask", &cmask))
		return -1;
	if (edge > 1 || any > 1 || inv > 1 || cmask > 0xff)
		return bad("edge, any, inv or cmask of %s out of range", name);
	e->nr_enc = nc > nu ? nc : nu;
	for (k = 0; k < e->nr_enc; k++) {
		u64 c = code[nc > 1 ? k : 0], u = umask[nu > 1 ? k : 0];

		if (c > 0xff || u > 0xff)
			return bad("EventCode or UMask of %s beyond 8 bits",
				   name);
		e->enc[k] = (u32)(c | u << 8 | edge << 18 | any << 21 |
				  inv << 23 | cmask << 24);
	}

	/* Rule 3. */
	if (slots_field(ev, "Counter", &e->counters))
		return -1;
	if (has(ev, "CounterHTOff")) {
		if (slots_field(ev, "CounterHTOff", &e->htoff))
			return -1;
	} else {
		e->htoff = e->counters;
	}

	/* Rule 4. */
	if (lf->pebs_counters) {
		if (fnum(ev, "CollectPEBSRecord", &v))
			return -1;
		if (v >= 1 && slots_field(ev, "PEBScounters", &e->pebs))
			return -1;
	} else if (lf->pebs) {
		if (fnum(ev, "PEBS", &v))
			return -1;
		if (v >= 1)
			e->pebs = e->htoff;
	}

	/* Rule 5. */
	if (lf->precise) {
		if (fnum(ev, "Precise", &v))
			return -1;
		e->exact = v == 1 && e->pebs;
	} else if (lf->pebs) {
		if (fnum(ev, "PEBS", &v))
			return -1;
		e->exact = v >= 1;
	}

	/* Rule 6. */
	if (lf->pdist) {
		if (slots_field(ev, "PDISTCounter", &e->pdist))
			return -1;
	} else if (ends_with(name, ".PREC_DIST")) {
		e->pdist = e->counters;
	}
	e->pdist &= e->pebs;

	/* Rule 7; two encodings are the two response MSRs (rule 2). */
	if (fnum(ev, "Data_LA", &v))
		return -1;
	e->data_la = v == 1;
	if (fnum(ev, "TakenAlone", &v))
		return -1;
	e->taken_alone = v == 1;
	if (parse_msr(ev, &e->msr))
		return -1;
	if (e->nr_enc == 2)
		e->msr = X_OFFCORE;
	if (fnum(ev, "MSRValue", &e->msr_value) ||
	    fnum(ev, "SampleAfterValue", &e->sample_after) ||
	    fnum(ev, "Deprecated", &v))
		return -1;
	e->deprecated = v != 0;
	return 0;
}

static int cmp_rule(const void *a, const void *b)
{
	const struct o_rule *x = a, *y = b;

	return x->config < y->config ? -1 : x->config > y->config;
}

/* Rule 8: every encoding of every event, merged. */
static int build_rules(struct o_list *l)
{
	unsigned int i, k, j;

	l->rules = calloc(2 * l->nr_ev + 1, sizeof(*l->rules));
	if (!l->rules)
		abort();
	for (i = 0; i < l->nr_ev; i++) {
		const struct o_event *e = &l->ev[i];

		for (k = 0; k < e->nr_enc; k++) {
			struct o_rule *r = NULL;
			u16 f = 0;

			for (j = 0; j < l->nr_rules && !r; j++)
				if (l->rules[j].config == e->enc[k])
					r = &l->rules[j];
			if (!r) {
				r = &l->rules[l->nr_rules++];
				r->config = e->enc[k];
			}
			if (e->exact)
				f |= SKD_RULE_EXACT;
			if (e->data_la)
				f |= SKD_RULE_DATA_LA;
			if (e->taken_alone)
				f |= SKD_RULE_TAKEN_ALONE;
			if (e->msr == X_LDLAT)
				f |= SKD_RULE_LDLAT;
			if (e->msr == X_FRONTEND)
				f |= SKD_RULE_FRONTEND;
			/* Rule 2: the first encoding MSR_OFFCORE_RSP_0. */
			if (e->msr == X_OFFCORE)
				f |= k ? SKD_RULE_OFFCORE1 : SKD_RULE_OFFCORE;
			if (e->nr_enc == 2) {
				u16 alt = e->enc[!k] & 0xffff;

				if (r->has_alt && r->alt != alt)
					return bad("%s: encoding 0x%x pairs with both 0x%x and 0x%x",
						   l->name, r->config, r->alt,
						   alt);
				r->alt = alt;
				r->has_alt = true;
			}
			r->counters |= e->counters;
			r->htoff |= e->htoff;
			r->pebs |= e->pebs;
			r->pdist |= e->pdist;
			r->flags |= f;
		}
	}
	qsort(l->rules, l->nr_rules, sizeof(*l->rules), cmp_rule);
	return 0;
}

static int load_list(struct o_list *l)
{
	struct list_fields lf = { 0 };
	json_t *root, *events, *hdr, *ev;
	json_error_t jerr;
	size_t i;
	int ret = 0;

	root = json_load_file(l->path, 0, &jerr);
	if (!root)
		return bad("%s: %s (line %d)", l->path, jerr.text, jerr.line);
	events = json_object_get(root, "Events");
	if (!json_is_array(events)) {
		json_decref(root);
		return bad("%s: no Events array", l->path);
	}
	hdr = json_object_get(root, "Header");
	l->version = xstrdup(hdr ? json_string_value(json_object_get(hdr, "Version")) : "");
	l->date = xstrdup(hdr ? json_string_value(json_object_get(hdr, "DatePublished")) : "");

	json_array_foreach(events, i, ev) {
		lf.pebs_counters |= has(ev, "PEBScounters");
		lf.precise |= has(ev, "Precise");
		lf.pebs |= has(ev, "PEBS");
		lf.pdist |= has(ev, "PDISTCounter");
	}
	l->nr_ev = (unsigned int)json_array_size(events);
	l->ev = calloc(l->nr_ev + 1, sizeof(*l->ev));
	if (!l->ev)
		abort();
	json_array_foreach(events, i, ev) {
		if (!json_is_object(ev) || read_event(ev, &lf, &l->ev[i])) {
			if (!load_err[0])
				bad("%s: event %zu is not an object", l->path, i);
			ret = -1;
			break;
		}
	}
	json_decref(root);
	return ret ? ret : build_rules(l);
}

/* Rule 1: "GenuineIntel-6-55-[56789ABCDEF]". */
static int parse_cpu(const char *s, struct o_row *r)
{
	const char *p;
	char *end;
	int lo, hi, d;

	snprintf(r->cpu, sizeof(r->cpu), "%s", s);
	if (strncmp(s, "GenuineIntel-", 13))
		return bad("mapfile.csv: `%s' is not GenuineIntel", s);
	r->family = (u32)strtoul(s + 13, &end, 16);
	if (end == s + 13 || *end != '-')
		return bad("mapfile.csv: family of `%s'", s);
	p = end + 1;
	r->model = (u32)strtoul(p, &end, 16);
	if (end == p)
		return bad("mapfile.csv: model of `%s'", s);
	if (!*end) {
		r->steppings = 0xffff;		/* none listed: all */
		return 0;
	}
	if (strncmp(end, "-[", 2))
		return bad("mapfile.csv: steppings of `%s'", s);
	r->steppings = 0;
	for (p = end + 2; *p != ']'; p++) {
		lo = hexval((unsigned char)*p);
		if (lo < 0)
			return bad("mapfile.csv: steppings of `%s'", s);
		hi = lo;
		if (p[1] == '-') {
			hi = hexval((unsigned char)p[2]);
			if (hi < lo)
				return bad("mapfile.csv: steppings of `%s'", s);
			p += 2;
		}
		for (d = lo; d <= hi; d++)
			r->steppings |= (u16)(1U << d);
	}
	if (p[1])
		return bad("mapfile.csv: trailing text in `%s'", s);
	return 0;
}

/* Rule 1: "/ADL/events/alderlake_gracemont_core.json" names "alderlake_gracemont". */
static int list_of_file(const char *file, unsigned int *idx)
{
	const char *base = strrchr(file, '/');
	char name[128], path[1024];
	unsigned int i;
	size_t n;

	base = base ? base + 1 : file;
	if (!ends_with(base, "_core.json"))
		return bad("mapfile.csv: core list `%s' is not *_core.json",
			   file);
	n = strlen(base) - strlen("_core.json");
	if (!n || n >= sizeof(name))
		return bad("mapfile.csv: list name of `%s'", file);
	memcpy(name, base, n);
	name[n] = '\0';
	for (i = 0; i < O->nr_lists; i++)
		if (!strcmp(O->lists[i].name, name)) {
			*idx = i;
			return 0;
		}
	if (O->nr_lists == MAX_LISTS)
		return bad("more than %d lists", MAX_LISTS);
	snprintf(path, sizeof(path), "%s%s", PERFMON_DIR, file);
	O->lists[O->nr_lists].name = xstrdup(name);
	O->lists[O->nr_lists].path = xstrdup(path);
	O->lists[O->nr_lists].gen = -1;
	*idx = O->nr_lists++;
	return 0;
}

static int load_mapfile(void)
{
	char line[1024], path[1024], *col[8], *p;
	unsigned int n, lineno = 0;
	u64 v;
	FILE *f;
	int ret = 0;

	f = fopen(PERFMON_DIR "/mapfile.csv", "r");
	if (!f)
		return bad("cannot open mapfile.csv: %s", strerror(errno));
	while (!ret && fgets(line, sizeof(line), f)) {
		struct o_row *r;

		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		if (lineno == 1 || !line[0])
			continue;	/* the header */
		for (n = 0, p = line; n < 8 && p; n++) {
			col[n] = p;
			p = strchr(p, ',');
			if (p)
				*p++ = '\0';
		}
		if (n < 5) {
			ret = bad("mapfile.csv line %u: %u columns", lineno, n);
			break;
		}
		if (strcmp(col[3], "core") && strcmp(col[3], "hybridcore"))
			continue;
		snprintf(path, sizeof(path), "%s%s", PERFMON_DIR, col[2]);
		if (access(path, R_OK))
			continue;	/* not in this snapshot */
		if (O->nr_rows == MAX_ROWS) {
			ret = bad("more than %d rows", MAX_ROWS);
			break;
		}
		r = &O->rows[O->nr_rows++];
		ret = parse_cpu(col[0], r);
		if (!ret && col[4][0]) {
			if (!parse_num(col[4], &v) || v > 0xff)
				ret = bad("mapfile.csv line %u: Core Type `%s'",
					  lineno, col[4]);
			r->core_type = (u32)v;
		}
		if (!ret)
			ret = list_of_file(col[2], &r->list);
	}
	fclose(f);
	if (!ret && !O->nr_rows)
		ret = bad("no core list of mapfile.csv is in the snapshot");
	return ret;
}

static void free_oracle(void)
{
	unsigned int i, j;

	if (!O)
		return;
	for (i = 0; i < O->nr_lists; i++) {
		struct o_list *l = &O->lists[i];

		for (j = 0; l->ev && j < l->nr_ev; j++) {
			free(l->ev[j].name);
			free(l->ev[j].desc);
		}
		free(l->ev);
		free(l->rules);
		free(l->name);
		free(l->path);
		free(l->version);
		free(l->date);
	}
	free(O);
	O = NULL;
}

static int setup(void **state)
{
	unsigned int i, k;

	(void)state;
	O = calloc(1, sizeof(*O));
	if (!O)
		return -1;
	if (load_mapfile())
		goto fail;
	for (i = 0; i < O->nr_lists; i++) {
		if (load_list(&O->lists[i]))
			goto fail;
		for (k = 0; k < skd_nr_event_lists; k++)
			if (!strcmp(skd_event_lists[k].name, O->lists[i].name))
				O->lists[i].gen = (int)k;
	}
	return 0;
fail:
	print_error("oracle: %s\n", load_err);
	free_oracle();
	return -1;
}

static int teardown(void **state)
{
	(void)state;
	free_oracle();
	return 0;
}

/* ---- helpers ------------------------------------------------------------- */

static const struct o_rule *o_rule_find(const struct o_list *l, u32 config)
{
	struct o_rule key = { .config = config };

	return bsearch(&key, l->rules, l->nr_rules, sizeof(key), cmp_rule);
}

static const struct skd_event_list *gen_of(const struct o_list *l)
{
	return l->gen >= 0 ? &skd_event_lists[l->gen] : NULL;
}

static unsigned int popcount16(u16 v)
{
	unsigned int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/* A planned counter index (GP i = i, fixed j = 32 + j) as a slot bit. */
static u16 slot_of_idx(u32 idx)
{
	if (idx < 8)
		return GP(idx);
	if (idx >= 32 && idx < 36)
		return FX(idx - 32);
	return 0;
}

/* Failures are counted and the first few printed; the test asserts 0. */
static unsigned int nr_bad;

static __printf(1, 2) void disagree(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (nr_bad++ >= MAX_SHOWN)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	print_message("# MISMATCH %s\n", buf);
}

static void done(const char *what)
{
	if (nr_bad > MAX_SHOWN)
		print_message("# ... %u more\n", nr_bad - MAX_SHOWN);
	if (nr_bad)
		print_message("# %s: %u disagreements\n", what, nr_bad);
	assert_int_equal(nr_bad, 0);
}

/* ---- 1. mapfile.csv ----------------------------------------------------- */

/*
 * The list rule 1 picks for a CPU: every row matching family, model,
 * stepping and, for a hybrid row, the core type. NULL when none; the
 * rows of one CPU never name two lists in this snapshot (checked).
 */
static const struct o_list *o_match(u32 family, u32 model, u32 stepping,
				    u32 core_type, bool *ambiguous)
{
	const struct o_list *found = NULL;
	unsigned int i;

	for (i = 0; i < O->nr_rows; i++) {
		const struct o_row *r = &O->rows[i];

		if (r->family != family || r->model != model ||
		    stepping > 15 || !(r->steppings & (1U << stepping)))
			continue;
		if (r->core_type && r->core_type != core_type)
			continue;
		if (found && found != &O->lists[r->list])
			*ambiguous = true;
		found = &O->lists[r->list];
	}
	return found;
}

static void test_mapfile(void **state)
{
	static const u32 core_types[] = { 0, 0x20, 0x40 };
	unsigned int i, k, s, t, n, lookups = 0;

	(void)state;
	nr_bad = 0;
	if (skd_nr_cpu_matches != O->nr_rows)
		disagree("%u core rows in mapfile.csv with their file present, %u in skd_cpu_matches[]",
			 O->nr_rows, skd_nr_cpu_matches);
	if (skd_nr_event_lists != O->nr_lists)
		disagree("%u lists named in mapfile.csv, %u in skd_event_lists[]",
			 O->nr_lists, skd_nr_event_lists);
	for (i = 0; i < O->nr_lists; i++) {
		if (O->lists[i].gen < 0)
			disagree("list %s is not in skd_event_lists[]",
				 O->lists[i].name);
		else if (skd_event_list_by_name(O->lists[i].name) !=
			 gen_of(&O->lists[i]))
			disagree("skd_event_list_by_name(\"%s\") is not its list",
				 O->lists[i].name);
	}

	/* Every row, once, with every field as rule 1 reads it. */
	for (i = 0; i < O->nr_rows; i++) {
		const struct o_row *r = &O->rows[i];

		for (k = 0, n = 0; k < skd_nr_cpu_matches; k++) {
			const struct skd_cpu_match *m = &skd_cpu_matches[k];

			if (m->family == r->family && m->model == r->model &&
			    m->steppings == r->steppings &&
			    m->core_type == r->core_type &&
			    m->list < skd_nr_event_lists &&
			    !strcmp(skd_event_lists[m->list].name,
				    O->lists[r->list].name))
				n++;
		}
		if (n != 1)
			disagree("%s core type 0x%x (%s, steppings 0x%04x): %u rows in skd_cpu_matches[], 1 expected",
				 r->cpu, r->core_type, O->lists[r->list].name,
				 r->steppings, n);
	}

	/* Every row's CPU at every stepping and core type. */
	for (i = 0; i < O->nr_rows; i++) {
		const struct o_row *r = &O->rows[i];

		for (s = 0; s < 16; s++) {
			for (t = 0; t < ARRAY_SIZE(core_types); t++) {
				const struct skd_event_list *got, *want_gen;
				const struct o_list *want;
				bool amb = false;

				want = o_match(r->family, r->model, s,
					       core_types[t], &amb);
				if (amb)
					disagree("%s stepping %u core type 0x%x: rows name two lists",
						 r->cpu, s, core_types[t]);
				want_gen = want ? gen_of(want) : NULL;
				got = skd_event_list_match(r->family, r->model,
							   s, core_types[t]);
				lookups++;
				/*
				 * Also a stepping the row does not list: the
				 * list of another row (Skylake server and
				 * Cascade Lake), or none.
				 */
				if (got != want_gen)
					disagree("skd_event_list_match(%u, 0x%x, %u, 0x%x) = %s, expected %s",
						 r->family, r->model, s,
						 core_types[t],
						 got ? got->name : "NULL",
						 want ? want->name : "NULL");
			}
		}
	}

	/* CPUs without a row have none (Haswell; hybrid, no core type). */
	{
		bool amb = false;

		assert_null(o_match(6, 0x3c, 3, 0, &amb));
		assert_null(skd_event_list_match(6, 0x3c, 3, 0));
		lookups++;
		for (i = 0; i < O->nr_rows; i++) {
			const struct o_row *r = &O->rows[i];

			if (!r->core_type || o_match(r->family, r->model, 0, 0,
						     &amb))
				continue;
			if (skd_event_list_match(r->family, r->model, 0, 0))
				disagree("hybrid %s asked without a core type gives a list",
					 r->cpu);
			lookups++;
		}
	}
	print_message("# checked %u mapfile rows, %u lists, %u lookups\n",
		      O->nr_rows, O->nr_lists, lookups);
	done("mapfile");
}

/* ---- 2. the rules -------------------------------------------------------- */

static void cmp_field(const struct o_list *l, u32 config, const char *what,
		      unsigned int want, unsigned int got)
{
	if (want != got)
		disagree("%s 0x%08x: %s 0x%x expected, 0x%x generated",
			 l->name, config, what, want, got);
}

static void test_rules(void **state)
{
	unsigned int i, k, n, entries = 0;

	(void)state;
	nr_bad = 0;
	for (i = 0; i < O->nr_lists; i++) {
		const struct o_list *l = &O->lists[i];
		const struct skd_event_list *g = gen_of(l);

		if (!g) {
			disagree("list %s not generated", l->name);
			continue;
		}
		if (g->nr_rules != l->nr_rules)
			disagree("%s: %u encodings expected, %u generated",
				 l->name, l->nr_rules, g->nr_rules);
		n = g->nr_rules < l->nr_rules ? g->nr_rules : l->nr_rules;
		for (k = 0; k < n; k++) {
			const struct o_rule *w = &l->rules[k];
			const struct skd_event_rule *r = &g->rules[k];

			entries++;
			if (w->config != r->config) {
				disagree("%s entry %u: config 0x%08x expected, 0x%08x generated",
					 l->name, k, w->config, r->config);
				continue;
			}
			cmp_field(l, w->config, "counters", w->counters,
				  r->counters);
			cmp_field(l, w->config, "counters_htoff", w->htoff,
				  r->counters_htoff);
			cmp_field(l, w->config, "pebs", w->pebs, r->pebs);
			cmp_field(l, w->config, "pdist", w->pdist, r->pdist);
			cmp_field(l, w->config, "alt", w->alt, r->alt);
			cmp_field(l, w->config, "flags", w->flags, r->flags);
			/* The lookup finds every entry. */
			if (skd_event_rule_find(g, w->config) != r)
				disagree("%s: skd_event_rule_find(0x%x) misses it",
					 l->name, w->config);
		}
	}
	print_message("# checked %u encodings of %u lists\n", entries,
		      O->nr_lists);
	done("rules");
}

/* ---- 3. the command's names and descriptions ----------------------------- */

static void test_info(void **state)
{
	unsigned int i, k, j, events = 0;

	(void)state;
	nr_bad = 0;
	for (i = 0; i < O->nr_lists; i++) {
		const struct o_list *l = &O->lists[i];
		const struct skd_event_info_list *il;
		const struct skd_event_list *g = gen_of(l);

		if (!g) {
			disagree("list %s not generated", l->name);
			continue;
		}
		il = &skd_event_infos[l->gen];
		if (strcmp(il->name, l->name))
			disagree("skd_event_infos[%d] is %s, not %s", l->gen,
				 il->name, l->name);
		if (!strstr(il->version, l->version) ||
		    !strstr(il->version, l->date))
			disagree("%s: version `%s' lacks Version %s or date %s",
				 l->name, il->version, l->version, l->date);
		if (il->nr_events != l->nr_ev)
			disagree("%s: %u events in the JSON, %u infos",
				 l->name, l->nr_ev, il->nr_events);
		for (k = 1; k < il->nr_events; k++)
			if (strcmp(il->events[k - 1].name,
				   il->events[k].name) >= 0)
				disagree("%s: infos not sorted at %s, %s",
					 l->name, il->events[k - 1].name,
					 il->events[k].name);

		for (k = 0; k < l->nr_ev; k++) {
			const struct o_event *e = &l->ev[k];
			const struct skd_event_info *in = NULL;
			u32 sav = e->sample_after > UINT32_MAX ? UINT32_MAX :
				  (u32)e->sample_after;
			const struct o_rule *r = o_rule_find(l, e->enc[0]);

			events++;
			for (j = 0; j < il->nr_events && !in; j++)
				if (!strcmp(il->events[j].name, e->name))
					in = &il->events[j];
			if (!in) {
				disagree("%s: no info for %s", l->name,
					 e->name);
				continue;
			}
			if (strcmp(in->desc, e->desc))
				disagree("%s %s: desc `%s' expected, `%s'",
					 l->name, e->name, e->desc, in->desc);
			if (in->config != e->enc[0])
				disagree("%s %s: config 0x%x expected, 0x%x",
					 l->name, e->name, e->enc[0],
					 in->config);
			if (in->msr_value != e->msr_value)
				disagree("%s %s: msr_value 0x%llx expected, 0x%llx",
					 l->name, e->name,
					 (unsigned long long)e->msr_value,
					 (unsigned long long)in->msr_value);
			if (in->sample_after != sav)
				disagree("%s %s: sample_after %u expected, %u",
					 l->name, e->name, sav,
					 in->sample_after);
			if (in->deprecated != e->deprecated)
				disagree("%s %s: deprecated %d expected, %d",
					 l->name, e->name, e->deprecated,
					 in->deprecated);
			if (!r || in->rule != (u32)(r - l->rules) ||
			    in->rule >= g->nr_rules ||
			    g->rules[in->rule].config != e->enc[0])
				disagree("%s %s: rule %u is not the entry of 0x%x",
					 l->name, e->name, in->rule,
					 e->enc[0]);
		}
	}
	print_message("# checked %u events of %u lists\n", events,
		      O->nr_lists);
	done("info");
}

/* ---- the nominal PMUs, and Linux's rules the lists do not state ---------- */

/* MSR_PEBS_FRONTEND bits per event (event | umask << 8), up to a 0 mask. */
struct fe_mask {
	u32 config;
	u64 mask;
};

struct part {
	const char *list;
	u32 model, stepping, core_type;
	u32 version, nr_gp, fixed_mask, pebs_fmt;
	u32 flags;			/* besides USABLE | PEBS | FW_WRITES */
	/* ds.c intel_skl_pebs_event_constraints: INTEL_ALL_EVENT_CONSTRAINT(0, 0xf) */
	bool skl;
	/* core.c require_mem_loads_aux_event(): SPR, EMR, ADL big core */
	bool ldlat_aux;
	/* core.c spr_limit_period(): :ppp periods of at least 128 */
	bool pdist_min128;
	/* core.c intel_{skl,icl,spr,grt,gnr}_extra_regs valid bits; 0: no MSR */
	u64 offcore_mask;
	const struct fe_mask *frontend;	/* per event; NULL: no MSR */
};

/* Offcore-response and front-end valid bits, by core.c's tables. */
#define SKL_RSP		0x3fffff8fffULL	/* intel_skl_extra_regs */
#define ICL_RSP		0x3fffffbfffULL	/* intel_icl_extra_regs */
#define GLC_RSP		0x3fffffffffULL	/* intel_spr_extra_regs, ADL big core */
#define GRT_RSP		0x3fffffffffULL	/* intel_grt_extra_regs */
/* intel_skl_extra_regs, intel_icl_extra_regs: FRONTEND_RETIRED only */
static const struct fe_mask SKL_FE[] = { { 0x01c6, 0x7fff17 }, { 0, 0 } };
/* intel_spr_extra_regs: also INT_MISC.UNKNOWN_BRANCH_CYCLES, UOPS_RETIRED.MS */
static const struct fe_mask GLC_FE[] = {
	{ 0x01c6, 0x7fff1f }, { 0x40ad, 0x7 }, { 0x04c2, 0x8 }, { 0, 0 },
};
/* 6.12 intel_gnr_extra_regs: FRONTEND_RETIRED has umasks 2 and 3 */
static const struct fe_mask GNR_FE[] = {
	{ 0x02c6, 0x9 }, { 0x03c6, 0x7fff1f }, { 0x40ad, 0x7 }, { 0x04c2, 0x8 },
	{ 0, 0 },
};

#define F_LEGACY	SKD_PMU_LBR
#define F_ICL		(SKD_PMU_PEBS_BASELINE | SKD_PMU_LBR)
#define F_GLC		(SKD_PMU_PEBS_BASELINE | SKD_PMU_ARCH_LBR)

static const struct part parts[] = {
	{ "skylake", 0x5e, 3, 0, 4, 4, 0x7, 3, F_LEGACY,
	  true, false, false, SKL_RSP, SKL_FE },
	{ "skylakex", 0x55, 4, 0, 4, 4, 0x7, 3, F_LEGACY,
	  true, false, false, SKL_RSP, SKL_FE },
	{ "cascadelakex", 0x55, 7, 0, 4, 4, 0x7, 3, F_LEGACY,
	  true, false, false, SKL_RSP, SKL_FE },
	{ "icelake", 0x7e, 5, 0, 5, 8, 0xf, 4, F_ICL,
	  false, false, false, ICL_RSP, SKL_FE },
	{ "icelakex", 0x6a, 6, 0, 5, 8, 0xf, 4, F_ICL,
	  false, false, false, ICL_RSP, SKL_FE },
	{ "tigerlake", 0x8c, 1, 0, 5, 8, 0xf, 4, F_ICL,
	  false, false, false, ICL_RSP, SKL_FE },
	{ "rocketlake", 0xa7, 1, 0, 5, 8, 0xf, 4, F_ICL,
	  false, false, false, ICL_RSP, SKL_FE },
	{ "sapphirerapids", 0x8f, 8, 0, 5, 8, 0xf, 5, F_GLC,
	  false, true, true, GLC_RSP, GLC_FE },
	{ "emeraldrapids", 0xcf, 2, 0, 5, 8, 0xf, 5, F_GLC,
	  false, true, true, GLC_RSP, GLC_FE },
	{ "graniterapids", 0xad, 1, 0, 5, 8, 0xf, 5, F_GLC,
	  false, false, true, GLC_RSP, GNR_FE },
	{ "alderlake_goldencove", 0x97, 2, 0x40, 5, 8, 0xf, 5,
	  F_GLC | SKD_PMU_HYBRID, false, true, true, GLC_RSP, GLC_FE },
	{ "alderlake_gracemont", 0x97, 2, 0x20, 5, 6, 0x7, 5,
	  F_GLC | SKD_PMU_HYBRID, false, false, true, GRT_RSP, NULL },
};

/* The front-end bits event @config may set on @pt; 0: none. */
static u64 fe_mask_of(const struct part *pt, u32 config)
{
	const struct fe_mask *f;

	for (f = pt->frontend; f && f->mask; f++)
		if (f->config == (config & 0xffff))
			return f->mask;
	return 0;
}

static const struct part *part_of(const struct o_list *l)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(parts); i++)
		if (!strcmp(parts[i].list, l->name))
			return &parts[i];
	return NULL;
}

/* A PMU of @pt with @nr_gp GP counters, filled by hand (no detection). */
static void make_caps(const struct part *pt, const struct o_list *l,
		      u32 nr_gp, struct skd_pmu_caps *c)
{
	bool arch_lbr = pt->flags & SKD_PMU_ARCH_LBR;

	memset(c, 0, sizeof(*c));
	memcpy(c->vendor, "GenuineIntel", 13);
	c->family = 6;
	c->model = pt->model;
	c->stepping = pt->stepping;
	c->signature = pt->stepping | (pt->model & 0xf) << 4 | 6 << 8 |
		       (pt->model >> 4) << 16;
	c->version = pt->version;
	c->nr_gp = nr_gp;
	c->gp_width = 48;
	c->fixed_mask = pt->fixed_mask;
	c->nr_fixed = popcount16((u16)pt->fixed_mask);
	c->fixed_width = 48;
	c->pebs_fmt = pt->pebs_fmt;
	/* IA32_PERF_CAPABILITIES: LBR format 5, PEBS format, FW, baseline. */
	c->perf_cap = (arch_lbr ? 0x3f : 5) | (u64)pt->pebs_fmt << 8 |
		      1ULL << 13 |
		      (pt->flags & SKD_PMU_PEBS_BASELINE ? 1ULL << 14 : 0);
	c->lbr_nr = 32;
	if (arch_lbr) {
		c->arch_lbr_depths = 1U << 3;	/* depth 32 */
		c->arch_lbr_ebx = 0x7;		/* CPL, filter, call stack */
	} else {
		c->lbr_fmt = 5;
		c->lbr_from = 0x680;
		c->lbr_to = 0x6c0;
		c->lbr_info = 0xdc0;
	}
	c->flags = SKD_PMU_USABLE | SKD_PMU_PEBS | SKD_PMU_FW_WRITES |
		   pt->flags;
	c->core_type = pt->core_type;
	c->events = gen_of(l);
	c->cpu = skd_cpu_model_of(c->events);
}

static u16 existing(const struct skd_pmu_caps *c)
{
	return (u16)(((1U << c->nr_gp) - 1) | (c->fixed_mask & 0xf) << 8);
}

static struct skd_event_attr attr_of(u64 config, unsigned int precise)
{
	struct skd_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = ATTR_SIZE;
	a.config = config;
	a.sample_period = PERIOD;
	a.precise = (u8)precise;
	return a;
}

/* The request the brief gives for a JSON event. */
static struct skd_event_attr attr_event(const struct o_event *e,
					unsigned int precise)
{
	struct skd_event_attr a = attr_of(e->enc[0], precise);

	if (e->msr == X_LDLAT)
		a.ldlat = e->msr_value;
	else if (e->msr != X_NONE)
		a.config1 = e->msr_value;
	return a;
}

static int plan_n(const struct skd_pmu_caps *caps,
		  const struct skd_event_attr *ev, unsigned int n,
		  struct skd_pmu_plan *plan, char *why, size_t whylen)
{
	struct skd_plan_request req = {
		.events = ev,
		.nr_events = n,
		.max_freq = MAX_FREQ,
		.pebs_buffer_bytes = PEBS_BYTES,
	};

	return skd_pmu_plan(caps, &req, plan, why, whylen);
}

/*
 * What the oracle expects of one event at one precise level: the
 * counters it may be placed on, and what the record carries on each.
 */
struct expect {
	u16 set;		/* where it may go; 0: refused */
	u16 exact, data_la;	/* slots whose records carry those */
	bool bad_extra;		/* its extra-MSR value is refused */
	bool aux;		/* plans the load-latency auxiliary event */
};

/*
 * The fixed counter that counts an architectural encoding besides the
 * list's own counters (core.c FIXED_EVENT_CONSTRAINT(0x00c0, 0) and
 * (0x003c, 1)), and the pseudo encoding of that counter's event.
 */
static int fixed_alias(u32 config)
{
	return config == 0x00c0 ? 0 : config == 0x003c ? 1 : -1;
}

static void expect_of(const struct o_list *l, const struct part *pt,
		      const struct skd_pmu_caps *caps, const struct o_event *e,
		      unsigned int precise, struct expect *x)
{
	const struct o_rule *r = o_rule_find(l, e->enc[0]), *f = NULL;
	int alias = fixed_alias(e->enc[0]);
	u16 allowed, pebs, pdist, abit = 0;
	u64 mask;

	memset(x, 0, sizeof(*x));
	allowed = caps->nr_gp > 4 ? r->htoff : r->counters;
	x->exact = r->flags & SKD_RULE_EXACT ? ALL_GP | ALL_FX : 0;
	x->data_la = r->flags & SKD_RULE_DATA_LA ? ALL_GP | ALL_FX : 0;
	if (alias >= 0) {
		abit = FX(alias);
		allowed |= abit;
		/* The fixed counter records what its own event does. */
		f = o_rule_find(l, (u32)(alias + 1) << 8);
		x->exact &= ~abit;
		x->data_la &= ~abit;
		if (f && (f->flags & SKD_RULE_EXACT))
			x->exact |= abit;
		if (f && (f->flags & SKD_RULE_DATA_LA))
			x->data_la |= abit;
	}
	allowed &= existing(caps);

	if (!precise) {
		x->set = allowed;
	} else {
		pebs = r->pebs | (f ? f->pebs & abit : 0);
		pdist = r->pdist | (f ? f->pdist & abit : 0);
		if (pt->skl)
			pebs &= GP0_3;
		x->set = allowed & pebs;
		if (precise == 3)
			x->set &= pdist;
	}

	switch (e->msr) {
	case X_LDLAT:
		x->bad_extra = !precise;
		x->aux = pt->ldlat_aux;
		break;
	case X_FRONTEND:
	case X_OFFCORE:
		mask = e->msr == X_FRONTEND ? fe_mask_of(pt, e->enc[0]) :
					      pt->offcore_mask;
		x->bad_extra = !e->msr_value || (e->msr_value & ~mask);
		break;
	case X_NONE:
		break;
	}
}

/* ---- 4. every event placed ----------------------------------------------- */

struct tally {
	unsigned int cases, ok, einval, eopnotsupp, mask_refused;
	unsigned int capacity;		/* copies-of-one-event cases */
};

/*
 * k copies of one event fit iff k <= |set| (identical events, so Hall's
 * condition is just the count): |set| copies on |set| distinct counters
 * of the set, one more refused -ENOSPC. Together this pins the planner's
 * set to the oracle's exactly, where one placement only shows that the
 * counter it chose is allowed. Not for TakenAlone events (alone by rule)
 * nor where the load-latency auxiliary event competes for the counters.
 */
static void check_capacity(const struct o_list *l,
			   const struct skd_pmu_caps *caps,
			   const struct o_event *e, unsigned int precise,
			   const struct expect *x, struct tally *t)
{
	struct skd_event_attr a[SKD_MAX_EVENTS];
	unsigned int n = popcount16(x->set), k;
	struct skd_pmu_plan plan;
	u16 seen = 0;
	char why[256];
	int ret;

	if (e->taken_alone || x->aux || n + 1 > SKD_MAX_EVENTS)
		return;
	for (k = 0; k <= n; k++)
		a[k] = attr_event(e, precise);
	t->capacity += 2;
	ret = plan_n(caps, a, n, &plan, why, sizeof(why));
	if (ret) {
		disagree("%s/%ugp %u x %s:%u: refused %d (%s), expected on 0x%03x",
			 l->name, caps->nr_gp, n, e->name, precise, ret, why,
			 x->set);
	} else {
		for (k = 0; k < n; k++)
			seen |= slot_of_idx(plan.ev[k].idx);
		if (seen != x->set)
			disagree("%s/%ugp %u x %s:%u: placed on 0x%03x, expected 0x%03x",
				 l->name, caps->nr_gp, n, e->name, precise,
				 seen, x->set);
	}
	ret = plan_n(caps, a, n + 1, &plan, why, sizeof(why));
	if (ret != -ENOSPC)
		disagree("%s/%ugp %u x %s:%u: %d, -ENOSPC expected (only 0x%03x)",
			 l->name, caps->nr_gp, n + 1, e->name, precise, ret,
			 x->set);
}

static void check_one(const struct o_list *l, const struct part *pt,
		      const struct skd_pmu_caps *caps, const struct o_event *e,
		      unsigned int precise, struct tally *t)
{
	struct skd_event_attr a = attr_event(e, precise);
	struct skd_pmu_plan plan;
	struct expect x;
	char why[256];
	u16 slot;
	int ret;

	expect_of(l, pt, caps, e, precise, &x);
	ret = plan_n(caps, &a, 1, &plan, why, sizeof(why));
	t->cases++;

	if (!x.set || x.bad_extra) {
		/* Both refusals apply: either errno is right. */
		bool ok = (!x.set && ret == -EOPNOTSUPP) ||
			  (x.bad_extra && ret == -EINVAL);

		if (!ok)
			disagree("%s/%ugp %s:%u: %s expected, got %d (%s)",
				 l->name, caps->nr_gp, e->name, precise,
				 !x.set ? "-EOPNOTSUPP" : "-EINVAL", ret,
				 ret ? why : "planned");
		else if (ret == -EINVAL)
			t->einval++;
		else
			t->eopnotsupp++;
		if (ret == -EINVAL && e->msr_value &&
		    (e->msr == X_OFFCORE || e->msr == X_FRONTEND))
			t->mask_refused++;
		return;
	}
	if (ret) {
		disagree("%s/%ugp %s:%u: refused %d (%s), expected on 0x%03x",
			 l->name, caps->nr_gp, e->name, precise, ret, why,
			 x.set);
		return;
	}
	t->ok++;
	check_capacity(l, caps, e, precise, &x, t);
	slot = slot_of_idx(plan.ev[0].idx);
	if (!(slot & x.set))
		disagree("%s/%ugp %s:%u: placed on idx %u, allowed 0x%03x",
			 l->name, caps->nr_gp, e->name, precise,
			 plan.ev[0].idx, x.set);
	if (plan.nr != (x.aux ? 2U : 1U))
		disagree("%s %s:%u: %u planned events, %u expected", l->name,
			 e->name, precise, plan.nr, x.aux ? 2 : 1);
	if (plan.ev[0].event != 0 || plan.ev[0].config != e->enc[0])
		disagree("%s %s:%u: planned config 0x%llx", l->name, e->name,
			 precise, (unsigned long long)plan.ev[0].config);
	if (!!(plan.ev[0].flags & SKD_PLAN_PEBS) != !!precise)
		disagree("%s %s:%u: SKD_PLAN_PEBS %s", l->name, e->name,
			 precise, precise ? "missing" : "set");
	if (!!(plan.ev[0].flags & SKD_PLAN_EXACT) !=
	    (precise && (x.exact & slot)))
		disagree("%s/%ugp %s:%u on idx %u: SKD_PLAN_EXACT %s",
			 l->name, caps->nr_gp, e->name, precise,
			 plan.ev[0].idx,
			 plan.ev[0].flags & SKD_PLAN_EXACT ? "set" : "missing");
	if (!!(plan.ev[0].flags & SKD_PLAN_DATA_LA) !=
	    (precise && (x.data_la & slot)))
		disagree("%s %s:%u on idx %u: SKD_PLAN_DATA_LA %s", l->name,
			 e->name, precise, plan.ev[0].idx,
			 plan.ev[0].flags & SKD_PLAN_DATA_LA ? "set" : "missing");
	if (!!(plan.ev[0].flags & SKD_PLAN_LDLAT) != (e->msr == X_LDLAT))
		disagree("%s %s:%u: SKD_PLAN_LDLAT wrong", l->name, e->name,
			 precise);
	if (e->msr == X_LDLAT && plan.ld_lat != e->msr_value)
		disagree("%s %s: ld_lat 0x%llx", l->name, e->name,
			 (unsigned long long)plan.ld_lat);
	if (e->msr == X_FRONTEND && plan.frontend != e->msr_value)
		disagree("%s %s: frontend 0x%llx", l->name, e->name,
			 (unsigned long long)plan.frontend);
	/* Alone, an offcore event keeps its first encoding's MSR (rule 2). */
	if (e->msr == X_OFFCORE &&
	    (plan.offcore[0] != e->msr_value || plan.offcore[1]))
		disagree("%s %s: offcore 0x%llx 0x%llx", l->name, e->name,
			 (unsigned long long)plan.offcore[0],
			 (unsigned long long)plan.offcore[1]);
	if (x.aux && plan.nr == 2 &&
	    (plan.ev[1].config != LDLAT_AUX ||
	     !(plan.ev[1].flags & SKD_PLAN_AUX) ||
	     (plan.ev[1].flags & SKD_PLAN_PEBS) ||
	     plan.ev[1].event != SKD_PLAN_NO_EVENT ||
	     plan.ev[1].idx == plan.ev[0].idx || plan.ev[1].idx >= 8))
		disagree("%s %s:%u: the auxiliary event is config 0x%llx flags 0x%x idx %u",
			 l->name, e->name, precise,
			 (unsigned long long)plan.ev[1].config,
			 plan.ev[1].flags, plan.ev[1].idx);
}

/*
 * Intel's value for an event that Linux's valid bits refuse: the data and
 * Linux disagree, and the planner follows Linux (the case expects
 * -EINVAL). Named once each, so the disagreement stays visible.
 */
static void note_refused_values(const struct o_list *l, const struct part *pt)
{
	unsigned int k;

	for (k = 0; k < l->nr_ev; k++) {
		const struct o_event *e = &l->ev[k];
		u64 mask;

		if (e->msr != X_OFFCORE && e->msr != X_FRONTEND)
			continue;
		mask = e->msr == X_OFFCORE ? pt->offcore_mask :
					     fe_mask_of(pt, e->enc[0]);
		if (e->msr_value & ~mask)
			print_message("# note: %s %s: MSRValue 0x%llx sets bits 0x%llx outside Linux's valid 0x%llx\n",
				      l->name, e->name,
				      (unsigned long long)e->msr_value,
				      (unsigned long long)(e->msr_value & ~mask),
				      (unsigned long long)mask);
	}
}

static void test_placement(void **state)
{
	struct tally t = { 0 };
	unsigned int i, k, p, pass, nr_pass;
	struct skd_pmu_caps caps;

	(void)state;
	nr_bad = 0;
	for (i = 0; i < O->nr_lists; i++) {
		const struct o_list *l = &O->lists[i];
		const struct part *pt = part_of(l);

		if (!pt || !gen_of(l)) {
			disagree("no nominal PMU or no generated list for %s",
				 l->name);
			continue;
		}
		note_refused_values(l, pt);
		/* Skylake family twice: hyper-threading on (4 GP) and off (8). */
		nr_pass = pt->skl ? 2 : 1;
		for (pass = 0; pass < nr_pass; pass++) {
			make_caps(pt, l, pass ? 8 : pt->nr_gp, &caps);
			if (!caps.cpu)
				disagree("%s has no skd_cpu_model_of()",
					 l->name);
			for (k = 0; k < l->nr_ev; k++)
				for (p = 0; p <= 3; p++)
					check_one(l, pt, &caps, &l->ev[k], p,
						  &t);
		}
	}
	print_message("# checked %u cases (events x precise 0-3): %u planned, %u refused -EOPNOTSUPP, %u refused -EINVAL as expected\n",
		      t.cases, t.ok, t.eopnotsupp, t.einval);
	print_message("# of those -EINVAL, %u cases are events whose MSRValue has bits outside Linux's valid mask\n",
		      t.mask_refused);
	print_message("# and %u capacity cases (as many copies of a planned event as its counters, and one more)\n",
		      t.capacity);
	done("placement");
}

/*
 * ---- 5a. TSX force-abort -------------------------------------------------
 *
 * Linux sets PMU_FL_TFA on Skylake-family parts with the TSX_FORCE_ABORT
 * feature; the planner applies SKD_PMU_TFA whatever the model, so every
 * list is checked with it.
 */

/*
 * A plain event of @l that may count on every GP counter @caps has:
 * no extra MSR, not TakenAlone, not a fixed counter's encoding. With
 * @pebs, also PEBS-capable on all of them (by the list).
 */
static const struct o_rule *filler(const struct o_list *l,
				   const struct skd_pmu_caps *caps, bool pebs)
{
	u16 gp = existing(caps) & ALL_GP;
	unsigned int k;

	for (k = 0; k < l->nr_rules; k++) {
		const struct o_rule *r = &l->rules[k];
		u16 c = caps->nr_gp > 4 ? r->htoff : r->counters;

		if (!(r->config & 0xff) || fixed_alias(r->config) >= 0 ||
		    (r->flags & (SKD_RULE_EXTRA_MSR | SKD_RULE_TAKEN_ALONE)) ||
		    (c & gp) != gp || (pebs && (r->pebs & gp) != gp))
			continue;
		return r;
	}
	return NULL;
}

static bool uses_gp3(const struct skd_pmu_plan *plan)
{
	unsigned int k;

	for (k = 0; k < plan->nr; k++)
		if (plan->ev[k].idx == 3)
			return true;
	return false;
}

static void test_tfa(void **state)
{
	/* A made-up list whose one event counts on GP counter 3 only. */
	static const struct skd_event_rule only3_rules[] = {
		{ .config = 0x01a3, .counters = 0x8, .counters_htoff = 0x8 },
	};
	static const struct skd_event_list only3 = {
		"skylake", only3_rules, 1
	};
	struct skd_event_attr a[SKD_MAX_EVENTS];
	unsigned int i, k, n, nfill, cases = 0, skipped = 0;
	struct skd_pmu_plan plan;
	struct skd_pmu_caps caps;
	char why[256];
	int ret;

	(void)state;
	nr_bad = 0;
	for (i = 0; i < O->nr_lists; i++) {
		const struct o_list *l = &O->lists[i];
		const struct part *pt = part_of(l);
		const struct o_rule *fr;

		if (!pt || !gen_of(l))
			continue;
		make_caps(pt, l, pt->nr_gp, &caps);
		fr = filler(l, &caps, false);
		if (!fr) {
			disagree("%s: no plain event on every GP counter",
				 l->name);
			continue;
		}

		/* Every GP counter taken: with TFA one fewer fits. */
		for (n = 0; n < caps.nr_gp; n++)
			a[n] = attr_of(fr->config, 0);
		ret = plan_n(&caps, a, caps.nr_gp, &plan, why, sizeof(why));
		cases++;
		if (ret || !uses_gp3(&plan))
			disagree("%s: %u plain events without TFA: %d (%s)",
				 l->name, caps.nr_gp, ret, why);
		caps.flags |= SKD_PMU_TFA;
		ret = plan_n(&caps, a, caps.nr_gp, &plan, why, sizeof(why));
		cases++;
		if (ret != -ENOSPC)
			disagree("%s: %u plain events with TFA: %d, -ENOSPC expected",
				 l->name, caps.nr_gp, ret);
		ret = plan_n(&caps, a, caps.nr_gp - 1, &plan, why,
			     sizeof(why));
		cases++;
		if (ret || uses_gp3(&plan))
			disagree("%s: %u plain events with TFA: %d (%s)%s",
				 l->name, caps.nr_gp - 1, ret, why,
				 !ret ? ", counter 3 used" : "");

		/*
		 * Every event, with plain events filling all GP counters but
		 * one and counter 3: it must find a place off counter 3.
		 */
		for (k = 0; k < l->nr_ev; k++) {
			const struct o_event *e = &l->ev[k];
			unsigned int precise = e->msr == X_LDLAT ? 1 : 0;
			struct expect x;
			u16 set;

			expect_of(l, pt, &caps, e, precise, &x);
			if (x.bad_extra) {
				skipped++;
				continue;
			}
			set = x.set & ~GP(3);
			nfill = e->taken_alone ? 0 :
				caps.nr_gp - 2 - (x.aux ? 1 : 0);
			a[0] = attr_event(e, precise);
			for (n = 1; n <= nfill; n++)
				a[n] = attr_of(fr->config, 0);
			ret = plan_n(&caps, a, 1 + nfill, &plan, why,
				     sizeof(why));
			cases++;
			if (!set) {
				if (ret != -EOPNOTSUPP)
					disagree("%s %s:%u with TFA: %d, -EOPNOTSUPP expected (no counter but 3)",
						 l->name, e->name, precise,
						 ret);
				continue;
			}
			if (ret) {
				disagree("%s %s:%u + %u with TFA: refused %d (%s)",
					 l->name, e->name, precise, nfill,
					 ret, why);
				continue;
			}
			if (uses_gp3(&plan) ||
			    !(slot_of_idx(plan.ev[0].idx) & set))
				disagree("%s %s:%u + %u with TFA: idx %u, counter 3 %s",
					 l->name, e->name, precise, nfill,
					 plan.ev[0].idx,
					 uses_gp3(&plan) ? "used" : "free");
		}
	}

	/* An event on counter 3 alone: there without TFA, refused with it. */
	make_caps(&parts[0], &O->lists[0], 4, &caps);
	caps.events = &only3;
	caps.cpu = skd_cpu_model_of(&only3);
	a[0] = attr_of(0x01a3, 0);
	ret = plan_n(&caps, a, 1, &plan, why, sizeof(why));
	cases++;
	if (ret || plan.ev[0].idx != 3)
		disagree("counter-3-only event without TFA: %d idx %u", ret,
			 plan.ev[0].idx);
	caps.flags |= SKD_PMU_TFA;
	ret = plan_n(&caps, a, 1, &plan, why, sizeof(why));
	cases++;
	if (ret != -EOPNOTSUPP)
		disagree("counter-3-only event with TFA: %d, -EOPNOTSUPP expected",
			 ret);

	print_message("# checked %u cases with TSX force-abort (%u events with an invalid extra-MSR value skipped)\n",
		      cases, skipped);
	done("tfa");
}

/* ---- 5b. Skylake family: PEBS on GP counters 0-3 ------------------------- */

static bool pebs_on_4_7(const struct skd_pmu_plan *plan)
{
	unsigned int k;

	for (k = 0; k < plan->nr; k++)
		if ((plan->ev[k].flags & SKD_PLAN_PEBS) &&
		    plan->ev[k].idx >= 4 && plan->ev[k].idx < 8)
			return true;
	return false;
}

static void test_skl_pebs_gp0_3(void **state)
{
	/*
	 * A made-up Skylake list whose INST_RETIRED.ANY claims PEBS on fixed
	 * counter 0. No vendored Skylake list says so, but the rule is "GP
	 * 0-3 only": before extended PEBS (Ice Lake) fixed counters have no
	 * PEBS, and IA32_PEBS_ENABLE bit 32 is GP 0's load-latency enable.
	 */
	static const struct skd_event_rule fx_pebs_rules[] = {
		{ .config = 0x0100, .counters = 0x100, .counters_htoff = 0x100,
		  .pebs = 0x100, .flags = SKD_RULE_EXACT },
	};
	static const struct skd_event_list fx_pebs = {
		"skylake", fx_pebs_rules, 1
	};
	struct skd_event_attr a[SKD_MAX_EVENTS];
	unsigned int i, k, n, lists = 0, cases = 0;
	struct skd_pmu_plan plan;
	struct skd_pmu_caps caps;
	char why[256];
	int ret;

	(void)state;
	nr_bad = 0;
	for (i = 0; i < ARRAY_SIZE(parts); i++) {
		if (!parts[i].skl)
			continue;
		make_caps(&parts[i], &O->lists[0], 8, &caps);
		caps.events = &fx_pebs;
		caps.cpu = skd_cpu_model_by_name(parts[i].list);
		a[0] = attr_of(0x0100, 0);
		ret = plan_n(&caps, a, 1, &plan, why, sizeof(why));
		cases++;
		if (ret || plan.ev[0].idx != 32)
			disagree("%s: INST_RETIRED.ANY counting: %d (%s)",
				 parts[i].list, ret, why);
		a[0] = attr_of(0x0100, 1);
		ret = plan_n(&caps, a, 1, &plan, why, sizeof(why));
		cases++;
		if (ret != -EOPNOTSUPP)
			disagree("%s: a list giving fixed counter 0 PEBS: :p %d%s, -EOPNOTSUPP expected",
				 parts[i].list, ret,
				 ret ? "" : " (PEBS on fixed counter 0)");
	}
	for (i = 0; i < O->nr_lists; i++) {
		const struct o_list *l = &O->lists[i];
		const struct part *pt = part_of(l);
		const struct o_rule *fr;

		if (!pt || !pt->skl || !gen_of(l))
			continue;
		lists++;
		make_caps(pt, l, 8, &caps);	/* hyper-threading off */
		fr = filler(l, &caps, true);
		if (!fr) {
			disagree("%s: no plain event with PEBS on all of 0-7",
				 l->name);
			continue;
		}
		/* Eight events PEBS-capable on 0-7 by the list: four fit. */
		for (n = 0; n < 5; n++)
			a[n] = attr_of(fr->config, 1);
		ret = plan_n(&caps, a, 4, &plan, why, sizeof(why));
		cases++;
		if (ret || pebs_on_4_7(&plan))
			disagree("%s: 4 x 0x%x:p: %d (%s)", l->name,
				 fr->config, ret, why);
		ret = plan_n(&caps, a, 5, &plan, why, sizeof(why));
		cases++;
		if (ret != -ENOSPC)
			disagree("%s: 5 x 0x%x:p: %d, -ENOSPC expected",
				 l->name, fr->config, ret);

		for (k = 0; k < l->nr_ev; k++) {
			const struct o_event *e = &l->ev[k];
			struct expect x, x0;

			expect_of(l, pt, &caps, e, 1, &x);
			expect_of(l, pt, &caps, e, 0, &x0);
			if (x.bad_extra && x0.bad_extra)
				continue;

			/* Counting needs no PEBS: 4-7 stay usable. */
			if (!x0.bad_extra && e->msr != X_LDLAT &&
			    !e->taken_alone && (x0.set & 0xf0)) {
				a[0] = attr_event(e, 0);
				for (n = 1; n <= 4; n++)
					a[n] = attr_of(fr->config, 1);
				ret = plan_n(&caps, a, 5, &plan, why,
					     sizeof(why));
				cases++;
				if (ret || pebs_on_4_7(&plan) ||
				    plan.ev[0].idx < 4)
					disagree("%s %s + 4 PEBS events: %d (%s) idx %u",
						 l->name, e->name, ret, why,
						 ret ? 0 : plan.ev[0].idx);
			}
			if (x.bad_extra || !x.set)
				continue;

			a[0] = attr_event(e, 1);
			ret = plan_n(&caps, a, 1, &plan, why, sizeof(why));
			cases++;
			if (ret || pebs_on_4_7(&plan))
				disagree("%s %s:p alone: %d (%s) idx %u",
					 l->name, e->name, ret, why,
					 ret ? 0 : plan.ev[0].idx);
			if (e->taken_alone)
				continue;
			for (n = 1; n <= 4; n++)
				a[n] = attr_of(fr->config, 1);
			ret = plan_n(&caps, a, 4, &plan, why, sizeof(why));
			cases++;
			if (ret || pebs_on_4_7(&plan))
				disagree("%s %s:p + 3 PEBS events: %d (%s)",
					 l->name, e->name, ret, why);
			ret = plan_n(&caps, a, 5, &plan, why, sizeof(why));
			cases++;
			if (ret != -ENOSPC)
				disagree("%s %s:p + 4 PEBS events: %d, -ENOSPC expected",
					 l->name, e->name, ret);
		}
	}
	print_message("# checked %u cases on %u Skylake-family lists with 8 GP counters\n",
		      cases, lists);
	done("skl_pebs_gp0_3");
}

/* ---- 5c, 5d. periods ------------------------------------------------------ */

/* The first event with precise distribution on a counter @caps has. */
static const struct o_event *pdist_event(const struct o_list *l,
					 const struct part *pt,
					 const struct skd_pmu_caps *caps)
{
	unsigned int k;
	struct expect x;

	for (k = 0; k < l->nr_ev; k++) {
		expect_of(l, pt, caps, &l->ev[k], 3, &x);
		if (x.set && !x.bad_extra && l->ev[k].msr == X_NONE &&
		    !l->ev[k].taken_alone)
			return &l->ev[k];
	}
	return NULL;
}

static void test_periods(void **state)
{
	const u64 big = 1ULL << 40, max48 = (1ULL << 47) - 1;
	unsigned int i, c, fw, cases = 0;
	struct skd_event_attr a;
	struct skd_pmu_plan plan;
	struct skd_pmu_caps caps;
	char why[256];
	int ret;

	(void)state;
	nr_bad = 0;
	for (i = 0; i < O->nr_lists; i++) {
		const struct o_list *l = &O->lists[i];
		const struct part *pt = part_of(l);
		const struct o_rule *fr;
		const struct o_event *pe;
		u32 configs[2];

		if (!pt || !gen_of(l))
			continue;
		make_caps(pt, l, pt->nr_gp, &caps);
		fr = filler(l, &caps, false);
		if (!fr) {
			disagree("%s: no plain event", l->name);
			continue;
		}
		/* A GP counter, and fixed counter 0 (INST_RETIRED.ANY). */
		configs[0] = fr->config;
		configs[1] = 0x0100;

		/*
		 * 5c: with full-width writes the counters are written through
		 * MSR_IA32_PMC0 (0x4c1) and take cntval_mask >> 1; without,
		 * through the sign-extending 32-bit aliases (0xc1): 2^31 - 1.
		 */
		for (fw = 0; fw < 2; fw++) {
			make_caps(pt, l, pt->nr_gp, &caps);
			if (!fw)
				caps.flags &= ~(u32)SKD_PMU_FW_WRITES;
			for (c = 0; c < 2; c++) {
				u64 want = fw ? big : 0x7fffffff;
				u64 wmax = fw ? max48 : 0x7fffffff;

				a = attr_of(configs[c], 0);
				a.sample_period = big;
				ret = plan_n(&caps, &a, 1, &plan, why,
					     sizeof(why));
				cases++;
				if (ret) {
					disagree("%s 0x%x period 2^40: %d (%s)",
						 l->name, configs[c], ret, why);
					continue;
				}
				if (plan.pmc_base != (fw ? 0x4c1U : 0xc1U) ||
				    plan.ev[0].period != want ||
				    plan.ev[0].max_period != wmax ||
				    plan.ev[0].reset !=
				    (((1ULL << 48) - want) & ((1ULL << 48) - 1)))
					disagree("%s 0x%x %s full-width writes: pmc_base 0x%x period 0x%llx max 0x%llx reset 0x%llx",
						 l->name, configs[c],
						 fw ? "with" : "without",
						 plan.pmc_base,
						 (unsigned long long)plan.ev[0].period,
						 (unsigned long long)plan.ev[0].max_period,
						 (unsigned long long)plan.ev[0].reset);
			}
		}

		/* 5d: :ppp at period 2, and :pp at period 2. */
		make_caps(pt, l, pt->nr_gp, &caps);
		pe = pdist_event(l, pt, &caps);
		if (!pe) {
			disagree("%s: no event with precise distribution",
				 l->name);
			continue;
		}
		for (c = 2; c <= 3; c++) {
			u64 want = c == 3 && pt->pdist_min128 ? 128 : 2;

			a = attr_event(pe, c);
			a.sample_period = 2;
			ret = plan_n(&caps, &a, 1, &plan, why, sizeof(why));
			cases++;
			if (ret || plan.ev[0].period != want)
				disagree("%s %s:%u period 2: %d (%s), period %llu, %llu expected",
					 l->name, pe->name, c, ret, why,
					 (unsigned long long)plan.ev[0].period,
					 (unsigned long long)want);
		}
	}
	print_message("# checked %u period cases on %u lists\n", cases,
		      O->nr_lists);
	done("periods");
}

/* ---- 5e. TakenAlone --------------------------------------------------------- */

static void test_taken_alone(void **state)
{
	unsigned int i, k, cases = 0, events = 0, skipped = 0;
	struct skd_event_attr a[2];
	struct skd_pmu_plan plan;
	struct skd_pmu_caps caps;
	char why[256];
	int ret;

	(void)state;
	nr_bad = 0;
	for (i = 0; i < O->nr_lists; i++) {
		const struct o_list *l = &O->lists[i];
		const struct part *pt = part_of(l);

		if (!pt || !gen_of(l))
			continue;
		make_caps(pt, l, pt->nr_gp, &caps);
		for (k = 0; k < l->nr_ev; k++) {
			const struct o_event *e = &l->ev[k];
			unsigned int precise = e->msr == X_LDLAT ? 1 : 0;
			struct expect x;

			if (!e->taken_alone)
				continue;
			expect_of(l, pt, &caps, e, precise, &x);
			if (!x.set || x.bad_extra) {
				skipped++;
				continue;
			}
			events++;
			a[0] = attr_event(e, precise);
			ret = plan_n(&caps, a, 1, &plan, why, sizeof(why));
			cases++;
			if (ret)
				disagree("%s %s alone: %d (%s)", l->name,
					 e->name, ret, why);
			/* BR_INST_RETIRED.ALL_BRANCHES needs a GP counter. */
			a[1] = attr_of(0x00c4, 0);
			ret = plan_n(&caps, a, 2, &plan, why, sizeof(why));
			cases++;
			if (ret != -ENOSPC)
				disagree("%s %s + 0x00c4: %d, -ENOSPC expected",
					 l->name, e->name, ret);
			/* A fixed counter is not a GP counter. */
			a[1] = attr_of(0x0100, 0);
			ret = plan_n(&caps, a, 2, &plan, why, sizeof(why));
			cases++;
			if (ret)
				disagree("%s %s + INST_RETIRED.ANY on fixed 0: %d (%s)",
					 l->name, e->name, ret, why);
		}
	}
	print_message("# checked %u cases for %u TakenAlone events (%u that cannot be planned alone skipped)\n",
		      cases, events, skipped);
	done("taken_alone");
}

/* ---- 5f, 5g. the extra MSRs -------------------------------------------------- */

/*
 * The first event of @l with @msr and a value the model takes; with
 * @shared, one that may share the GP counters (every front-end event is
 * TakenAlone); with @not1, one of its encoding but another value (and
 * not @not2's).
 */
static const struct o_event *extra_event(const struct o_list *l,
					 enum extra_msr msr, u64 mask,
					 bool shared,
					 const struct o_event *not1,
					 const struct o_event *not2)
{
	unsigned int k;

	for (k = 0; k < l->nr_ev; k++) {
		const struct o_event *e = &l->ev[k];

		if (e->msr != msr || !e->msr_value || (e->msr_value & ~mask) ||
		    (shared && e->taken_alone) ||
		    e->nr_enc != (msr == X_OFFCORE ? 2U : 1U))
			continue;
		if ((not1 && (e->msr_value == not1->msr_value ||
			      e->enc[0] != not1->enc[0])) ||
		    (not2 && e->msr_value == not2->msr_value))
			continue;
		return e;
	}
	return NULL;
}

static void test_extra_msrs(void **state)
{
	unsigned int i, m, b, cases = 0;
	struct skd_event_attr a[3];
	struct skd_pmu_plan plan;
	struct skd_pmu_caps caps;
	char why[256];
	int ret;

	(void)state;
	nr_bad = 0;
	for (i = 0; i < O->nr_lists; i++) {
		const struct o_list *l = &O->lists[i];
		const struct part *pt = part_of(l);
		const struct o_event *e1, *e2, *e3;

		if (!pt || !gen_of(l))
			continue;
		make_caps(pt, l, pt->nr_gp, &caps);

		/*
		 * 5f: every bit of config1, alone: the offcore MSRs' bits for
		 * an offcore event, each front-end event's own bits for it.
		 */
		for (m = 0; m == 0 || (pt->frontend && pt->frontend[m - 1].mask);
		     m++) {
			enum extra_msr kind = m ? X_FRONTEND : X_OFFCORE;
			const struct fe_mask *fe = m ? &pt->frontend[m - 1] : NULL;
			u64 mask = m ? fe->mask : pt->offcore_mask;
			const struct o_event *e = NULL;
			unsigned int k;

			if (!mask)
				continue;	/* no such MSR or event here */
			for (k = 0; !e && k < l->nr_ev; k++) {
				const struct o_event *c = &l->ev[k];

				if (c->msr == kind && c->msr_value &&
				    !(c->msr_value & ~mask) &&
				    (!fe || (c->enc[0] & 0xffff) == fe->config))
					e = c;
			}
			if (!e) {
				disagree("%s: no %s event 0x%x with a valid value",
					 l->name, m ? "front-end" : "offcore",
					 fe ? fe->config : 0);
				continue;
			}
			for (b = 0; b < 64; b++) {
				bool valid = mask & (1ULL << b);

				a[0] = attr_event(e, 0);
				a[0].config1 = 1ULL << b;
				ret = plan_n(&caps, a, 1, &plan, why,
					     sizeof(why));
				cases++;
				if (valid ? ret != 0 : ret != -EINVAL)
					disagree("%s %s config1 bit %u: %d, %s expected",
						 l->name, e->name, b, ret,
						 valid ? "0" : "-EINVAL");
			}
			a[0] = attr_event(e, 0);
			a[0].config1 = mask;
			ret = plan_n(&caps, a, 1, &plan, why, sizeof(why));
			cases++;
			if (ret)
				disagree("%s %s config1 = the whole mask 0x%llx: %d (%s)",
					 l->name, e->name,
					 (unsigned long long)mask, ret, why);
		}

		/* 5g: two offcore values share the two MSRs; a third cannot. */
		e1 = extra_event(l, X_OFFCORE, pt->offcore_mask, true, NULL,
				 NULL);
		e2 = e1 ? extra_event(l, X_OFFCORE, pt->offcore_mask, true,
				      e1, NULL) : NULL;
		e3 = e2 ? extra_event(l, X_OFFCORE, pt->offcore_mask, true,
				      e1, e2) : NULL;
		if (!e3) {
			disagree("%s: no three offcore events of one encoding with distinct values",
				 l->name);
			continue;
		}
		a[0] = attr_event(e1, 0);
		a[1] = attr_event(e2, 0);
		a[2] = attr_event(e3, 0);
		ret = plan_n(&caps, a, 2, &plan, why, sizeof(why));
		cases++;
		if (ret) {
			disagree("%s %s + %s: %d (%s)", l->name, e1->name,
				 e2->name, ret, why);
		} else {
			bool both = (plan.offcore[0] == e1->msr_value &&
				     plan.offcore[1] == e2->msr_value) ||
				    (plan.offcore[0] == e2->msr_value &&
				     plan.offcore[1] == e1->msr_value);
			unsigned int on1 = plan.ev[0].config1 ==
					   plan.offcore[1] ? 0 : 1;

			/* Rule 2: MSR_OFFCORE_RSP_1 is the second encoding's. */
			if (!both || plan.ev[on1].config != e1->enc[1] ||
			    plan.ev[!on1].config != e1->enc[0])
				disagree("%s two offcore values: MSRs 0x%llx 0x%llx, configs 0x%llx 0x%llx",
					 l->name,
					 (unsigned long long)plan.offcore[0],
					 (unsigned long long)plan.offcore[1],
					 (unsigned long long)plan.ev[0].config,
					 (unsigned long long)plan.ev[1].config);
		}
		ret = plan_n(&caps, a, 3, &plan, why, sizeof(why));
		cases++;
		if (ret != -ENOSPC)
			disagree("%s three offcore values: %d, -ENOSPC expected",
				 l->name, ret);
		/* One value twice is one MSR. */
		a[1] = attr_event(e1, 0);
		ret = plan_n(&caps, a, 2, &plan, why, sizeof(why));
		cases++;
		if (ret || plan.offcore[0] != e1->msr_value ||
		    plan.offcore[1] ||
		    plan.ev[0].config != e1->enc[0] ||
		    plan.ev[1].config != e1->enc[0])
			disagree("%s one offcore value twice: %d, MSRs 0x%llx 0x%llx",
				 l->name, ret,
				 (unsigned long long)plan.offcore[0],
				 (unsigned long long)plan.offcore[1]);
	}
	print_message("# checked %u extra-MSR cases on %u lists\n", cases,
		      O->nr_lists);
	done("extra_msrs");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mapfile),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_info),
		cmocka_unit_test(test_placement),
		cmocka_unit_test(test_tfa),
		cmocka_unit_test(test_skl_pebs_gp0_3),
		cmocka_unit_test(test_periods),
		cmocka_unit_test(test_taken_alone),
		cmocka_unit_test(test_extra_msrs),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
