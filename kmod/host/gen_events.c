// SPDX-License-Identifier: GPL-2.0
/*
 * gen_events: Intel's perfmon JSON (perfmon/, mapfile.csv and the core
 * lists) into C tables, at build time, as perf's jevents does.
 *
 *	gen_events --rules -o event_table.c PERFMON_DIR
 *	gen_events --info -o event_info.c PERFMON_DIR
 *
 * --rules writes what the module enforces (event_rules.h), --info what the
 * command shows (userland/lib/event_info.h); both index the lists the same
 * way. The derivation follows perfmon/README.md rule by rule (the numbers
 * in the comments below); tests/unit/test_event_data.c checks its output
 * against the JSON with another JSON library.
 *
 * A host program (Kbuild builds it as a hostprog for the module, the
 * Makefile for the command): plain C and json-c. Bad data stops it with a
 * message naming the file and the event, and nothing is written.
 */
#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define MAX_LISTS	32
#define MAX_MATCHES	256
#define NAME_MAX_LEN	64

/* The module's slot layout (event_rules.h): GP i bit i, fixed j bit 8+j. */
#define SLOT_GP(i)	(1U << (i))
#define SLOT_FIXED(j)	(1U << (8 + (j)))

/* event_rules.h's enum skd_rule_flags. */
#define R_EXACT		(1U << 0)
#define R_DATA_LA	(1U << 1)
#define R_TAKEN_ALONE	(1U << 2)
#define R_LDLAT		(1U << 3)
#define R_FRONTEND	(1U << 4)
#define R_OFFCORE	(1U << 5)
#define R_OFFCORE1	(1U << 6)

struct rule {
	uint32_t config;
	uint16_t counters, counters_htoff, pebs, pdist, alt, flags;
};

struct info {
	char *name, *desc;
	uint64_t msr_value;
	uint32_t config, sample_after;
	uint32_t rule;
	bool deprecated;
};

struct list {
	char name[NAME_MAX_LEN];
	char file[512];
	char version[96];
	struct rule *rules;
	size_t nr_rules;
	struct info *infos;
	size_t nr_infos;
};

struct match {
	unsigned int family, model, steppings, core_type, list;
};

static struct list lists[MAX_LISTS];
static unsigned int nr_lists;
static struct match matches[MAX_MATCHES];
static unsigned int nr_matches;

static const char *cur_file = "", *cur_event = "";

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gen_events: %s%s%s%s", cur_file,
		*cur_event ? ": event " : "", cur_event,
		*cur_file ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory");
	return p;
}

/* ---- JSON fields ------------------------------------------------------ */

/* A field as a string ("" when absent); numbers are given as strings. */
static const char *field(json_object *ev, const char *key, bool *present)
{
	json_object *v;

	if (present)
		*present = false;
	if (!json_object_object_get_ex(ev, key, &v) || !v)
		return "";
	if (present)
		*present = true;
	if (json_object_get_type(v) != json_type_string &&
	    json_object_get_type(v) != json_type_int)
		die("field %s is neither a string nor a number", key);
	return json_object_get_string(v);
}

/* A number, decimal or 0x hex, whole string. */
static uint64_t number(const char *key, const char *s)
{
	char *end;
	uint64_t v;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return 0;
	errno = 0;
	v = strtoull(s, &end, 0);
	while (isspace((unsigned char)*end))
		end++;
	if (errno || *end)
		die("field %s: `%s' is not a number", key, s);
	return v;
}

static uint64_t num_field(json_object *ev, const char *key)
{
	return number(key, field(ev, key, NULL));
}

/*
 * Up to two comma-separated numbers (EventCode, UMask; rule 2). Returns
 * how many.
 */
static unsigned int alternatives(json_object *ev, const char *key,
				 unsigned int out[2])
{
	char buf[64], *comma;
	const char *s = field(ev, key, NULL);

	if (strlen(s) >= sizeof(buf))
		die("field %s is too long", key);
	strcpy(buf, s);
	comma = strchr(buf, ',');
	if (!comma) {
		out[0] = number(key, buf);
		return 1;
	}
	*comma = '\0';
	if (strchr(comma + 1, ','))
		die("field %s has more than two values", key);
	out[0] = number(key, buf);
	out[1] = number(key, comma + 1);
	return 2;
}

/*
 * Counter numbers into slots (rules 3, 4, 6): "0,1,2,3", "Fixed counter 1",
 * PEBScounters' "32" for fixed counter 0; "NA" and "" are none.
 */
static uint16_t slots(const char *key, const char *s)
{
	uint16_t v = 0;
	char *end;
	long n;

	if (!strncmp(s, "Fixed counter ", 14)) {
		n = strtol(s + 14, &end, 10);
		if (*end || n < 0 || n > 3)
			die("field %s: bad fixed counter `%s'", key, s);
		return SLOT_FIXED(n);
	}
	if (!*s || !strcmp(s, "NA"))
		return 0;
	while (*s) {
		while (*s == ' ' || *s == ',')
			s++;
		if (!*s)
			break;
		n = strtol(s, &end, 10);
		if (end == s)
			die("field %s: bad counter list", key);
		if (n >= 0 && n < 8)
			v |= SLOT_GP(n);
		else if (n >= 32 && n < 36)
			v |= SLOT_FIXED(n - 32);
		else
			die("field %s: counter %ld out of range", key, n);
		s = end;
	}
	return v;
}

/* ---- rules ------------------------------------------------------------- */

static struct rule *rule_for(struct list *l, uint32_t config, size_t *cap)
{
	size_t i;

	for (i = 0; i < l->nr_rules; i++)
		if (l->rules[i].config == config)
			return &l->rules[i];
	if (l->nr_rules == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		l->rules = realloc(l->rules, *cap * sizeof(*l->rules));
		if (!l->rules)
			die("out of memory");
	}
	memset(&l->rules[l->nr_rules], 0, sizeof(l->rules[0]));
	l->rules[l->nr_rules].config = config;
	return &l->rules[l->nr_rules++];
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* One event: its rule for each encoding (merged, rule 8) and its info. */
static void add_event(struct list *l, json_object *ev, size_t *rule_cap,
		      size_t *info_cap)
{
	unsigned int code[2], umask[2], nc, nu, k, n;
	uint32_t base, config[2];
	uint16_t counters, htoff, pebs = 0, pdist = 0, flags = 0;
	const char *name = field(ev, "EventName", NULL);
	const char *msr, *s;
	bool has_pebs_counters, has_precise, has_pdist, has_htoff, has_pebs;
	struct info *in;
	uint64_t v;
	char *p;

	cur_event = name;
	if (!*name)
		die("an event without EventName");
	nc = alternatives(ev, "EventCode", code);
	nu = alternatives(ev, "UMask", umask);
	if (nc == 2 && nu == 2)
		die("two EventCodes and two UMasks");
	/* Rule 2. */
	base = (num_field(ev, "EdgeDetect") ? 1U << 18 : 0) |
	       (num_field(ev, "AnyThread") ? 1U << 21 : 0) |
	       (num_field(ev, "Invert") ? 1U << 23 : 0) |
	       (uint32_t)(num_field(ev, "CounterMask") & 0xff) << 24;
	n = nc > nu ? nc : nu;
	for (k = 0; k < n; k++) {
		unsigned int c = code[nc > 1 ? k : 0];
		unsigned int u = umask[nu > 1 ? k : 0];

		if (c > 0xff || u > 0xff)
			die("EventCode or UMask beyond 8 bits");
		config[k] = base | c | u << 8;
	}

	/* Rule 3. */
	counters = slots("Counter", field(ev, "Counter", NULL));
	s = field(ev, "CounterHTOff", &has_htoff);
	htoff = has_htoff ? slots("CounterHTOff", s) : counters;
	if (!counters)
		die("no counter can count it");

	/* Rules 4 and 5. */
	s = field(ev, "PEBScounters", &has_pebs_counters);
	field(ev, "Precise", &has_precise);
	if (has_pebs_counters) {
		if (num_field(ev, "CollectPEBSRecord") >= 1)
			pebs = slots("PEBScounters", s);
		if (pebs && has_precise && num_field(ev, "Precise") == 1)
			flags |= R_EXACT;
	} else {
		field(ev, "PEBS", &has_pebs);
		if (has_pebs && num_field(ev, "PEBS") >= 1) {
			pebs = htoff;
			flags |= R_EXACT;
		}
	}

	/* Rule 6. */
	s = field(ev, "PDISTCounter", &has_pdist);
	if (has_pdist)
		pdist = slots("PDISTCounter", s);
	else if (ends_with(name, ".PREC_DIST"))
		pdist = counters;
	pdist &= pebs;

	/* Rule 7. */
	if (num_field(ev, "Data_LA"))
		flags |= R_DATA_LA;
	if (num_field(ev, "TakenAlone"))
		flags |= R_TAKEN_ALONE;
	msr = field(ev, "MSRIndex", NULL);
	if (!strcasecmp(msr, "0x3F6"))
		flags |= R_LDLAT;
	else if (!strcasecmp(msr, "0x3F7"))
		flags |= R_FRONTEND;
	else if (!strcasecmp(msr, "0x1a6,0x1a7") || !strcasecmp(msr, "0x1a6"))
		flags |= R_OFFCORE;
	else if (!strcasecmp(msr, "0x1a7"))
		flags |= R_OFFCORE1;
	else if (number("MSRIndex", msr))
		die("MSRIndex %s is none skidless knows", msr);
	/* Two encodings are the two response MSRs (rule 2), MSRIndex or not. */
	for (k = 0; k < n; k++) {
		struct rule *r = rule_for(l, config[k], rule_cap);
		uint16_t f = flags;

		if (n == 2) {
			f &= ~(R_OFFCORE | R_OFFCORE1);
			f |= k ? R_OFFCORE1 : R_OFFCORE;
			r->alt = config[!k] & 0xffff;
		}
		r->counters |= counters;
		r->counters_htoff |= htoff;
		r->pebs |= pebs;
		r->pdist |= pdist;
		r->flags |= f;
	}

	if (l->nr_infos == *info_cap) {
		*info_cap = *info_cap ? *info_cap * 2 : 256;
		l->infos = realloc(l->infos, *info_cap * sizeof(*l->infos));
		if (!l->infos)
			die("out of memory");
	}
	in = &l->infos[l->nr_infos++];
	memset(in, 0, sizeof(*in));
	in->name = xstrdup(name);
	for (p = in->name; *p; p++)
		*p = tolower((unsigned char)*p);
	in->desc = xstrdup(field(ev, "BriefDescription", NULL));
	in->config = config[0];
	v = num_field(ev, "MSRValue");
	in->msr_value = v;
	v = num_field(ev, "SampleAfterValue");
	in->sample_after = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	in->deprecated = num_field(ev, "Deprecated") != 0;
	cur_event = "";
}

static int cmp_rule(const void *a, const void *b)
{
	const struct rule *x = a, *y = b;

	return x->config < y->config ? -1 : x->config > y->config;
}

static int cmp_info(const void *a, const void *b)
{
	const struct info *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	/* Names are unique in Intel's lists; ties by encoding, to be stable. */
	if (c)
		return c;
	return x->config < y->config ? -1 : x->config > y->config;
}

static void load_list(struct list *l)
{
	size_t rule_cap = 0, info_cap = 0, i, j, nr;
	json_object *root, *events, *header, *v;

	cur_file = l->file;
	root = json_object_from_file(l->file);
	if (!root)
		die("not a JSON file (%s)", json_util_get_last_err());
	if (!json_object_object_get_ex(root, "Events", &events) ||
	    json_object_get_type(events) != json_type_array)
		die("no \"Events\" array");
	if (json_object_object_get_ex(root, "Header", &header)) {
		const char *ver = "", *date = "";

		if (json_object_object_get_ex(header, "Version", &v))
			ver = json_object_get_string(v);
		if (json_object_object_get_ex(header, "DatePublished", &v))
			date = json_object_get_string(v);
		snprintf(l->version, sizeof(l->version), "V%s%s%s", ver,
			 *date ? ", " : "", date);
	}
	nr = json_object_array_length(events);
	for (i = 0; i < nr; i++)
		add_event(l, json_object_array_get_idx(events, i), &rule_cap,
			  &info_cap);
	json_object_put(root);

	qsort(l->rules, l->nr_rules, sizeof(*l->rules), cmp_rule);
	qsort(l->infos, l->nr_infos, sizeof(*l->infos), cmp_info);
	for (i = 0; i < l->nr_infos; i++) {
		for (j = 0; j < l->nr_rules; j++)
			if (l->rules[j].config == l->infos[i].config)
				break;
		l->infos[i].rule = j;
	}
	cur_file = "";
}

/* ---- mapfile.csv (rule 1) ----------------------------------------------- */

static unsigned int hex_digit(char c)
{
	return isdigit((unsigned char)c) ? (unsigned int)(c - '0') :
	       (unsigned int)(tolower((unsigned char)c) - 'a' + 10);
}

/* "GenuineIntel-6-55-[01234]": family, model and the steppings' mask. */
static void parse_cpu(const char *s, struct match *m)
{
	unsigned int lo, hi, d;
	const char *p;
	char *end;

	if (strncmp(s, "GenuineIntel-", 13))
		die("mapfile.csv: `%s' is not a GenuineIntel CPU", s);
	m->family = strtoul(s + 13, &end, 16);
	if (*end != '-')
		die("mapfile.csv: bad family in `%s'", s);
	m->model = strtoul(end + 1, &end, 16);
	m->steppings = 0xffff;
	if (!*end)
		return;
	if (strncmp(end, "-[", 2) || !strchr(end, ']'))
		die("mapfile.csv: bad stepping list in `%s'", s);
	m->steppings = 0;
	for (p = end + 2; *p != ']'; p++) {
		if (!isxdigit((unsigned char)*p))
			die("mapfile.csv: bad stepping list in `%s'", s);
		lo = hex_digit(*p);
		hi = lo;
		if (p[1] == '-' && isxdigit((unsigned char)p[2])) {
			p += 2;
			hi = hex_digit(*p);
		}
		for (d = lo; d <= hi; d++)
			m->steppings |= 1U << d;
	}
}

/* "alderlake_gracemont" from ".../alderlake_gracemont_core.json". */
static void list_name(const char *file, char *name)
{
	const char *base = strrchr(file, '/');
	size_t n;

	base = base ? base + 1 : file;
	if (!ends_with(base, "_core.json"))
		die("mapfile.csv: core list `%s' is not named *_core.json", file);
	n = strlen(base) - strlen("_core.json");
	if (!n || n >= NAME_MAX_LEN)
		die("mapfile.csv: bad list file name `%s'", file);
	memcpy(name, base, n);
	name[n] = '\0';
}

static unsigned int list_index(const char *dir, const char *file)
{
	char path[512], name[NAME_MAX_LEN];
	unsigned int i;

	list_name(file, name);
	for (i = 0; i < nr_lists; i++)
		if (!strcmp(lists[i].name, name))
			return i;
	if (nr_lists == MAX_LISTS)
		die("mapfile.csv: more than %d lists", MAX_LISTS);
	if ((size_t)snprintf(path, sizeof(path), "%s%s", dir, file) >=
	    sizeof(path))
		die("path too long: %s%s", dir, file);
	strcpy(lists[nr_lists].name, name);
	strcpy(lists[nr_lists].file, path);
	return nr_lists++;
}

static void load_mapfile(const char *dir)
{
	char path[512], line[1024], path2[600];
	char *col[8], *p;
	unsigned int n, lineno = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/mapfile.csv", dir);
	cur_file = path;
	f = fopen(path, "r");
	if (!f)
		die("cannot open (%s)", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		struct match *m;

		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		if (lineno == 1 || !line[0])
			continue;	/* the header */
		for (n = 0, p = line; n < 8; n++) {
			col[n] = p;
			p = strchr(p, ',');
			if (!p)
				break;
			*p++ = '\0';
		}
		if (n < 4)
			die("line %u: fewer than 5 columns", lineno);
		if (strcmp(col[3], "core") && strcmp(col[3], "hybridcore"))
			continue;
		/* Only the lists of this snapshot. */
		snprintf(path2, sizeof(path2), "%s%s", dir, col[2]);
		if (access(path2, R_OK))
			continue;
		if (nr_matches == MAX_MATCHES)
			die("more than %d CPU rows", MAX_MATCHES);
		m = &matches[nr_matches++];
		parse_cpu(col[0], m);
		m->core_type = n >= 4 && col[4][0] ? number("Core Type", col[4]) : 0;
		m->list = list_index(dir, col[2]);
	}
	fclose(f);
	cur_file = "";
	if (!nr_matches)
		die("%s: no core list of mapfile.csv is in the snapshot", dir);
}

/* ---- output ------------------------------------------------------------ */

/* @s as a C string literal: quotes, backslashes and non-ASCII escaped. */
static void put_string(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\%03o", *p);
		else
			fputc(*p, f);
		/* "??" trigraphs: break the literal after a '?'. */
		if (*p == '?')
			fputs("\" \"", f);
	}
	fputc('"', f);
}

static void put_header(FILE *f, bool kernel)
{
	fprintf(f, "// SPDX-License-Identifier: GPL-2.0\n"
		"/*\n * Generated by kmod/host/gen_events.c from Intel's perfmon event\n"
		" * lists (kmod/intel/perfmon, BSD-3-Clause). Do not edit.\n */\n");
	if (kernel)
		fprintf(f, "#include \"event_rules.h\"\n\n");
	else
		fprintf(f, "#include \"event_info.h\"\n\n");
}

static void write_rules(FILE *f)
{
	unsigned int i;
	size_t j;

	put_header(f, true);
	for (i = 0; i < nr_lists; i++) {
		const struct list *l = &lists[i];

		fprintf(f, "static const struct skd_event_rule rules_%s[] = {\n",
			l->name);
		for (j = 0; j < l->nr_rules; j++) {
			const struct rule *r = &l->rules[j];

			fprintf(f, "\t{ 0x%08x, 0x%03x, 0x%03x, 0x%03x, 0x%03x, 0x%04x, 0x%02x },\n",
				r->config, r->counters, r->counters_htoff,
				r->pebs, r->pdist, r->alt, r->flags);
		}
		fprintf(f, "};\n\n");
	}
	fprintf(f, "const struct skd_event_list skd_event_lists[] = {\n");
	for (i = 0; i < nr_lists; i++)
		fprintf(f, "\t{ \"%s\", rules_%s, %zu },\n", lists[i].name,
			lists[i].name, lists[i].nr_rules);
	fprintf(f, "};\n\nconst unsigned int skd_nr_event_lists = %u;\n\n",
		nr_lists);
	fprintf(f, "const struct skd_cpu_match skd_cpu_matches[] = {\n");
	for (i = 0; i < nr_matches; i++)
		fprintf(f, "\t{ 0x%x, 0x%02x, 0x%04x, 0x%02x, %u },\t/* %s */\n",
			matches[i].family, matches[i].model,
			matches[i].steppings, matches[i].core_type,
			matches[i].list, lists[matches[i].list].name);
	fprintf(f, "};\n\nconst unsigned int skd_nr_cpu_matches = %u;\n",
		nr_matches);
}

static void write_info(FILE *f)
{
	unsigned int i;
	size_t j;

	put_header(f, false);
	for (i = 0; i < nr_lists; i++) {
		const struct list *l = &lists[i];

		fprintf(f, "static const struct skd_event_info info_%s[] = {\n",
			l->name);
		for (j = 0; j < l->nr_infos; j++) {
			const struct info *in = &l->infos[j];

			fputs("\t{ ", f);
			put_string(f, in->name);
			fputs(",\n\t  ", f);
			put_string(f, in->desc);
			fprintf(f, ",\n\t  0x%llx, 0x%08x, %u, %u, %u },\n",
				(unsigned long long)in->msr_value, in->config,
				in->sample_after, in->rule, in->deprecated);
		}
		fprintf(f, "};\n\n");
	}
	fprintf(f, "const struct skd_event_info_list skd_event_infos[] = {\n");
	for (i = 0; i < nr_lists; i++) {
		fprintf(f, "\t{ \"%s\", ", lists[i].name);
		put_string(f, lists[i].version);
		fprintf(f, ", info_%s, %zu },\n", lists[i].name,
			lists[i].nr_infos);
	}
	fprintf(f, "};\n");
}

static void usage(void)
{
	fprintf(stderr, "usage: gen_events --rules|--info -o OUT.c PERFMON_DIR\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *out = NULL, *dir = NULL;
	bool rules = false, info = false;
	char tmp[600];
	unsigned int i;
	int a;
	FILE *f;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--rules"))
			rules = true;
		else if (!strcmp(argv[a], "--info"))
			info = true;
		else if (!strcmp(argv[a], "-o") && a + 1 < argc)
			out = argv[++a];
		else if (argv[a][0] != '-' && !dir)
			dir = argv[a];
		else
			usage();
	}
	if (rules == info || !out || !dir)
		usage();

	load_mapfile(dir);
	/* Lists and rows keep mapfile.csv's order: stable output. */
	for (i = 0; i < nr_lists; i++)
		load_list(&lists[i]);

	/* Written beside, renamed over: never a half-written table. */
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", out) >= sizeof(tmp))
		die("output path too long");
	f = fopen(tmp, "w");
	if (!f)
		die("cannot write %s (%s)", tmp, strerror(errno));
	if (rules)
		write_rules(f);
	else
		write_info(f);
	if (ferror(f) | fclose(f)) {
		unlink(tmp);
		die("writing %s failed", tmp);
	}
	if (rename(tmp, out)) {
		unlink(tmp);
		die("cannot rename %s to %s (%s)", tmp, out, strerror(errno));
	}
	return 0;
}
