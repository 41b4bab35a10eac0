// SPDX-License-Identifier: GPL-2.0
/*
 * skidless list: the events -e accepts on a PMU, from Intel's list for it
 * (kmod/intel/perfmon), each with what the module's planner allows on
 * that part: the precise levels, the counters, PEBS, data addresses, and
 * the extra registers it needs.
 *
 *   --pmu MODEL         an event list or alias (pmu_models.h): the nominal
 *                       part, without the module
 *   --pmu intel, sim,   what the module reports; on a hybrid part one
 *   sim:MODEL, none     section per core type, with its CPUs
 *
 * Text is one line per event with Intel's description indented on the
 * next, for grep; --json is the same as one JSON document.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpulist.h"
#include "device.h"
#include "event_info.h"
#include "event_rules.h"
#include "events.h"
#include "explain.h"
#include "models.h"
#include "plan.h"
#include "pmu_models.h"
#include "pmu_query.h"
#include "subcommands.h"

/* One PMU to list: a core type of this machine, or a nominal part. */
struct section {
	const char *source;		/* "intel", "sim:icelake", "icelakex" */
	struct skd_pmu_caps caps;
	char cpus[128];			/* "0-7", "" when not asked */
	char type[32];			/* "P-core", "" when not hybrid */
	char note[256];			/* why nominal caps stand in */
};

struct lister {
	bool json;
	unsigned int nr_out;		/* sections printed (JSON commas) */
};

/* What one event can do on the section's PMU. */
struct event_view {
	struct skd_event_attr attr;
	bool counts, pebs, exact, pdist, data_la;
	u16 counters, pebs_slots;
	const struct skd_event_rule *rule;
	char why[320];			/* why it cannot count, else "" */
};

static const char *const generic_names[][2] = {
	{ "cycles", "cpu-cycles" },
	{ "instructions", NULL },
	{ "branches", "branch-instructions" },
	{ "branch-misses", NULL },
};

/* ---- what the planner allows ----------------------------------------- */

static void view_event(const struct skd_pmu_caps *caps,
		       const struct skd_event_info *in, struct event_view *v)
{
	struct skd_event_attr a;
	uint32_t flags;

	memset(v, 0, sizeof(*v));
	skd_event_info_attr(caps, in, &v->attr);
	v->rule = skd_event_rule_find(caps->events, in->config);
	skd_event_slots(caps, in->config, &v->counters, &v->pebs_slots);
	a = v->attr;
	/* Load-latency events count only with PEBS: the planner says so. */
	v->counts = !skd_event_check(caps, &a, NULL, NULL, v->why,
				     sizeof(v->why));
	a.precise = 1;
	if (!skd_event_check(caps, &a, &flags, NULL, NULL, 0)) {
		v->counts = true;
		v->pebs = true;
		v->exact = flags & SKD_PLAN_EXACT;
		v->data_la = flags & SKD_PLAN_DATA_LA;
		a.precise = 3;
		v->pdist = !skd_event_check(caps, &a, NULL, NULL, NULL, 0);
	}
	if (v->counts)
		v->why[0] = '\0';
}

/* "counters 0-3, fixed counter 1" in event_rules.h's slot layout. */
static void slot_text(u16 slots, char *buf, size_t len)
{
	size_t pos = 0;
	unsigned int base, i, j, bits, n;
	int w;

	buf[0] = '\0';
	for (base = 0; base <= 8; base += 8) {
		bits = (slots >> base) & 0xff;
		if (!bits)
			continue;
		n = __builtin_popcount(bits);
		w = snprintf(buf + pos, len - pos, "%s%s%s ", pos ? ", " : "",
			     base ? "fixed " : "", n > 1 ? "counters" : "counter");
		if (w < 0 || (size_t)w >= len - pos)
			return;
		pos += (size_t)w;
		for (i = 0, n = 0; i < 8; i = j + 1) {
			if (!(bits & (1U << i))) {
				j = i;
				continue;
			}
			for (j = i; j + 1 < 8 && (bits & (1U << (j + 1))); j++)
				;
			w = j == i ? snprintf(buf + pos, len - pos, "%s%u",
					      n++ ? "," : "", i) :
				     snprintf(buf + pos, len - pos, "%s%u-%u",
					      n++ ? "," : "", i, j);
			if (w < 0 || (size_t)w >= len - pos)
				return;
			pos += (size_t)w;
		}
	}
}

/* "p pp ppp", "p", "-": the levels as -e spells them. */
static void levels_text(const struct event_view *v, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", v->pebs ? "p" : "-",
		 v->exact ? " pp" : "", v->pdist ? " ppp" : "");
}

/* ---- JSON ------------------------------------------------------------ */

static void json_str(const char *s)
{
	const unsigned char *p;

	putchar('"');
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

static void json_slots(const char *key, u16 slots, bool fixed)
{
	unsigned int i, n = 0, base = fixed ? 8 : 0;

	printf(",\"%s\":[", key);
	for (i = 0; i < 8; i++)
		if (slots & (1U << (base + i)))
			printf("%s%u", n++ ? "," : "", i);
	printf("]");
}

/* ---- generic events -------------------------------------------------- */

/* What -e NAME gives at one level: "r003c" or Intel's name. */
static void encoding_text(const struct skd_pmu_caps *caps,
			  const struct skd_event_attr *a, char *buf, size_t len)
{
	const struct skd_event_info *in = skd_event_info_of(caps, a);

	if (in)
		snprintf(buf, len, "%s", in->name);
	else
		snprintf(buf, len, "r%04llx", (unsigned long long)a->config);
}

struct generic_view {
	bool ok[4];			/* by number of p's */
	bool note[4];			/* not exact, or ppp as pp */
	char enc[4][80];
	char why[320];			/* why not even without p */
};

static void view_generic(const struct skd_pmu_caps *caps, const char *name,
			 struct generic_view *g)
{
	static const char *const sfx[] = { "", ":p", ":pp", ":ppp" };
	struct skd_event_attr a;
	char spec[48], why[320];
	unsigned int np;

	memset(g, 0, sizeof(*g));
	for (np = 0; np < 4; np++) {
		snprintf(spec, sizeof(spec), "%s%s", name, sfx[np]);
		if (skd_event_parse(spec, caps, &a, why, sizeof(why))) {
			if (!np)
				snprintf(g->why, sizeof(g->why), "%s", why);
			continue;
		}
		g->ok[np] = true;
		g->note[np] = why[0] || (np == 3 && a.precise != 3);
		encoding_text(caps, &a, g->enc[np], sizeof(g->enc[np]));
	}
}

static void print_generic(const struct lister *l,
			  const struct skd_pmu_caps *caps)
{
	struct generic_view g;
	char head[64];
	unsigned int i;

	if (!l->json)
		printf("Generic events:\n");
	for (i = 0; i < ARRAY_SIZE(generic_names); i++) {
		const char *name = generic_names[i][0];
		const char *alias = generic_names[i][1];

		view_generic(caps, name, &g);
		if (l->json) {
			printf("%s{\"name\":\"%s\",\"aliases\":[%s%s%s]",
			       i ? "," : "", name, alias ? "\"" : "",
			       alias ? alias : "", alias ? "\"" : "");
			printf(",\"event\":");
			json_str(g.ok[0] ? g.enc[0] : "");
			printf(",\"p\":");
			json_str(g.ok[1] ? g.enc[1] : "");
			printf(",\"exact_ip\":%s", g.ok[2] && !g.note[2] ?
			       "true" : "false");
			printf(",\"ppp\":");
			json_str(g.ok[3] && !g.note[3] ? g.enc[3] : "");
			printf("}");
			continue;
		}
		snprintf(head, sizeof(head), "%s%s%s%s", name,
			 alias ? " (" : "", alias ? alias : "",
			 alias ? ")" : "");
		printf("  %-40s %s%s%s\n", head, g.ok[1] ? "p" : "-",
		       g.ok[2] && !g.note[2] ? " pp" : "",
		       g.ok[3] && !g.note[3] ? " ppp" : "");
		if (!g.ok[0]) {
			printf("      %s\n", g.why);
			continue;
		}
		printf("      %s", g.enc[0]);
		if (g.ok[1])
			printf("; :p, :pp %s%s", g.enc[1],
			       g.note[1] ? " (no exact IP)" : "");
		if (g.ok[3])
			printf("; :ppp %s", g.note[3] ? "as :pp (no precise distribution)" :
			       g.enc[3]);
		printf("\n");
	}
}

/* ---- Intel's events -------------------------------------------------- */

static void print_event_text(const struct skd_event_info *in,
			     const struct event_view *v)
{
	char where[64], pebs[64], levels[32], config[16];
	u16 f = v->rule ? v->rule->flags : 0;

	slot_text(v->counters, where, sizeof(where));
	levels_text(v, levels, sizeof(levels));
	snprintf(config, sizeof(config), "r%04x", in->config);
	printf("  %-46s %-9s %-8s %s", in->name, config, levels,
	       where[0] ? where : "no counter here");
	if (v->pebs) {
		slot_text(v->pebs_slots, pebs, sizeof(pebs));
		printf("; PEBS on %s", pebs);
	}
	if (v->data_la)
		printf("; data address");
	if (f & SKD_RULE_LDLAT)
		printf("; ldlat=%llu", (unsigned long long)v->attr.ldlat);
	if (f & SKD_RULE_FRONTEND)
		printf("; frontend=0x%llx", (unsigned long long)v->attr.config1);
	if (f & (SKD_RULE_OFFCORE | SKD_RULE_OFFCORE1)) {
		if (v->attr.config1)
			printf("; offcore_rsp=0x%llx",
			       (unsigned long long)v->attr.config1);
		else
			printf("; needs offcore_rsp=N");
	}
	if (f & SKD_RULE_TAKEN_ALONE)
		printf("; alone (TakenAlone)");
	if (in->deprecated)
		printf("; deprecated");
	printf("\n      %s\n", in->desc);
	/* An offcore event without a value says what it needs above. */
	if (!v->counts && !((f & (SKD_RULE_OFFCORE | SKD_RULE_OFFCORE1)) &&
			    !v->attr.config1))
		printf("      not here: %s\n", v->why);
}

static void print_event_json(const struct skd_event_info *in,
			     const struct event_view *v, bool first)
{
	u16 f = v->rule ? v->rule->flags : 0;

	printf("%s{\"name\":", first ? "" : ",");
	json_str(in->name);
	printf(",\"desc\":");
	json_str(in->desc);
	printf(",\"config\":\"0x%x\",\"counts\":%s", in->config,
	       v->counts ? "true" : "false");
	printf(",\"precise\":[%s%s%s]", v->pebs ? "\"p\"" : "",
	       v->exact ? ",\"pp\"" : "", v->pdist ? ",\"ppp\"" : "");
	json_slots("counters", v->counters, false);
	json_slots("fixed_counters", v->counters, true);
	json_slots("pebs_counters", v->pebs ? v->pebs_slots : 0, false);
	json_slots("pebs_fixed_counters", v->pebs ? v->pebs_slots : 0, true);
	printf(",\"data_address\":%s", v->data_la ? "true" : "false");
	if (f & SKD_RULE_LDLAT)
		printf(",\"ldlat\":%llu", (unsigned long long)v->attr.ldlat);
	if (f & SKD_RULE_FRONTEND)
		printf(",\"frontend\":\"0x%llx\"",
		       (unsigned long long)v->attr.config1);
	if (f & (SKD_RULE_OFFCORE | SKD_RULE_OFFCORE1))
		printf(",\"offcore_rsp\":\"0x%llx\"",
		       (unsigned long long)v->attr.config1);
	printf(",\"taken_alone\":%s,\"deprecated\":%s",
	       f & SKD_RULE_TAKEN_ALONE ? "true" : "false",
	       in->deprecated ? "true" : "false");
	if (!v->counts) {
		printf(",\"why\":");
		json_str(v->why);
	}
	printf("}\n");
}

static void print_events(const struct lister *l,
			 const struct skd_pmu_caps *caps)
{
	const struct skd_event_info_list *il = skd_event_infos_of(caps);
	struct event_view v;
	u32 i;

	if (!il)
		return;
	if (!l->json)
		printf("\nIntel's events for %s (%s, %u events; precise "
		       "levels: p PEBS, pp exact IP, ppp precise distribution):\n",
		       il->name, il->version, il->nr_events);
	for (i = 0; i < il->nr_events; i++) {
		view_event(caps, &il->events[i], &v);
		if (l->json)
			print_event_json(&il->events[i], &v, !i);
		else
			print_event_text(&il->events[i], &v);
	}
}

static void print_section(struct lister *l, const struct section *s)
{
	const struct skd_pmu_caps *c = &s->caps;
	const char *desc = c->cpu ? c->cpu->desc : NULL;
	const char *list = c->events ? c->events->name : "";

	if (l->json) {
		printf("%s{\"pmu\":", l->nr_out ? "," : "");
		json_str(s->source);
		printf(",\"list\":");
		json_str(list);
		printf(",\"cpus\":");
		json_str(s->cpus);
		printf(",\"core_type\":%u,\"note\":", c->core_type);
		json_str(s->note);
		printf(",\"generic\":[");
		print_generic(l, c);
		printf("],\"events\":[\n");
		print_events(l, c);
		printf("]}\n");
		l->nr_out++;
		return;
	}
	if (l->nr_out++)
		printf("\n");
	printf("%s: %s%s%s%s%s%s%s\n", s->source, list[0] ? list : "a CPU in none of Intel's event lists skidless has",
	       desc ? " (" : "", desc ? desc : "", desc ? ")" : "",
	       s->type[0] ? ", " : "", s->type, s->type[0] ? "s" : "");
	if (s->cpus[0])
		printf("CPUs: %s\n", s->cpus);
	if (s->note[0])
		printf("note: %s\n", s->note);
	printf("\n");
	print_generic(l, c);
	print_events(l, c);
	if (!c->events)
		printf("\nWithout a list: generic events without p, rNNNN and "
		       "cpu/event=N,umask=N,.../, no PEBS.\n");
	printf("\nAlso: rNNNN (raw EVENTSEL bits) and cpu/event=0x..,umask=0x..,"
	       "cmask=N,inv,edge,any,ldlat=N,frontend=N,offcore_rsp=N,period=N,"
	       "freq=N/ with modifiers p, pp, ppp, u (user only), k (kernel "
	       "only).\n");
}

/* ---- which PMU ------------------------------------------------------- */

/*
 * A group the module reported: its own caps when usable; else, when its
 * list is known, the nominal part of that list, said so.
 */
static void section_of_group(struct section *s, const char *source,
			     const struct pmu_group *g, bool hybrid)
{
	memset(s, 0, sizeof(*s));
	s->source = source;
	skd_caps_from_info(&g->info, &s->caps);
	skd_cpulist_format(g->cpus, PMU_CPU_WORDS, s->cpus, sizeof(s->cpus));
	if (hybrid || g->info.core_type) {
		char t[32];

		snprintf(s->type, sizeof(s->type), "%s",
			 pmu_core_type_name(g->info.core_type, t, sizeof(t)));
	}
	if (s->caps.flags & SKD_PMU_USABLE)
		return;
	if (s->caps.events &&
	    !skd_caps_nominal(s->caps.events->name, &s->caps)) {
		snprintf(s->note, sizeof(s->note),
			 "the PMU is not usable here (%.*s): levels are those of a typical %s part",
			 (int)sizeof(g->info.why), g->info.why,
			 s->caps.events->name);
		return;
	}
	snprintf(s->note, sizeof(s->note), "the PMU is not usable here: %.*s",
		 (int)sizeof(g->info.why), g->info.why);
}

static int list_module(struct lister *l, const char *name)
{
	struct pmu_group groups[PMU_MAX_GROUPS];
	struct section *s;
	uint32_t backend, model;
	int fd, n, i;

	if (!pmu_parse_name("--pmu", name, &backend, &model))
		return 1;
	fd = skd_dev_open(true);
	if (fd < 0) {
		fprintf(stderr, "%s: %s (skidless list --pmu MODEL lists a "
			"model's events without the module)\n", PROG_NAME,
			skd_explain(SKD_OP_OPEN, -fd));
		return 1;
	}
	n = pmu_query_groups(fd, backend, model, NULL, groups, PMU_MAX_GROUPS);
	close(fd);
	if (n < 0) {
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_INFO, -n));
		return 1;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		fprintf(stderr, "%s: out of memory\n", PROG_NAME);
		return 1;
	}
	if (l->json)
		printf("[");
	for (i = 0; i < n; i++) {
		section_of_group(s, name, &groups[i], n > 1);
		print_section(l, s);
	}
	if (l->json)
		printf("]\n");
	free(s);
	return 0;
}

/* The list of the other core type of a hybrid part (mapfile.csv's rows). */
static const char *other_core(const struct skd_pmu_caps *c)
{
	unsigned int i;

	for (i = 0; c->core_type && i < skd_nr_cpu_matches; i++) {
		const struct skd_cpu_match *m = &skd_cpu_matches[i];

		if (m->family == c->family && m->model == c->model &&
		    m->core_type && m->core_type != c->core_type)
			return skd_event_lists[m->list].name;
	}
	return NULL;
}

static int list_nominal(struct lister *l, const char *name)
{
	struct section s = { .source = name };
	char names[512];

	if (skd_caps_nominal(name, &s.caps)) {
		skd_caps_nominal_names(names, sizeof(names));
		fprintf(stderr, "--pmu: `%s' is not intel, sim, sim:MODEL or an "
			"event list: %s\n", name, names);
		return 1;
	}
	if (s.caps.core_type) {
		char t[32];

		snprintf(s.type, sizeof(s.type), "%s",
			 pmu_core_type_name(s.caps.core_type, t, sizeof(t)));
	}
	snprintf(s.note, sizeof(s.note),
		 "a typical part (perfmon v%u, %u GP counters, PEBS format %u, %s LBR), not this machine%s%s",
		 s.caps.version, s.caps.nr_gp, s.caps.pebs_fmt,
		 s.caps.flags & SKD_PMU_ARCH_LBR ? "architectural" : "legacy",
		 other_core(&s.caps) ? "; its other cores: --pmu " : "",
		 other_core(&s.caps) ? other_core(&s.caps) : "");
	if (l->json)
		printf("[");
	print_section(l, &s);
	if (l->json)
		printf("]\n");
	return 0;
}

static const char usage[] =
	"Usage: %s list [--pmu intel|sim|sim:MODEL|LIST] [--json]\n"
	"\n"
	"The events -e accepts on a PMU: the generic ones and every event of\n"
	"Intel's list for it, with the precise levels, counters and extra\n"
	"registers the module allows there.\n"
	"\n"
	"  --pmu intel       this machine's PMU, as the module reports it\n"
	"                    (the default); hybrid parts per core type\n"
	"  --pmu sim[:MODEL] a model of the simulated PMU\n"
	"  --pmu LIST        a typical part of one of Intel's lists, without\n"
	"                    the module: skylakex, icelakex, sapphirerapids,\n"
	"                    alderlake (P-core), adl-e (E-core), ...\n"
	"  --json            one JSON document instead of text\n";

int list_main(int argc, char *argv[])
{
	struct lister l = { 0 };
	const char *name = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--pmu") && i + 1 < argc) {
			name = argv[++i];
		} else if (!strncmp(argv[i], "--pmu=", 6)) {
			name = argv[i] + 6;
		} else if (!strcmp(argv[i], "--json")) {
			l.json = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf(usage, PROG_NAME);
			return 0;
		} else {
			fprintf(stderr, "%s list: unexpected argument `%s'\n",
				PROG_NAME, argv[i]);
			fprintf(stderr, usage, PROG_NAME);
			return 1;
		}
	}
	if (!name || !strcmp(name, "intel") || !strcmp(name, "sim") ||
	    !strncmp(name, "sim:", 4))
		return list_module(&l, name ? name : "intel");
	return list_nominal(&l, name);
}
