// SPDX-License-Identifier: GPL-2.0
/*
 * -e and -j as perf spells them (see events.h). Names, descriptions and
 * extra-MSR values come from Intel's lists (event_info.h, generated from
 * kmod/intel/perfmon); whether an event can be sampled, where and how
 * precisely is the module's planner's to say (kmod/intel/plan.c, linked
 * in), asked about a session of that one event. This file holds the
 * grammar and the choice among encodings, not the rules, so the command
 * can never accept what the module refuses or the other way round.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "event_info.h"
#include "event_rules.h"
#include "events.h"
#include "models.h"
#include "msrs.h"
#include "plan.h"

/*
 * What skd_event_check() plans with: a period (any will do, the planner
 * checks where and how an event counts) and the module's PEBS buffer
 * (kmod/intel/backend.c PEBS_BUFFER_BYTES), so a record always fits.
 */
#define CHECK_PERIOD		100003
#define CHECK_PEBS_BUFFER	(64 * 1024)
#define WHY_LEN			320
#define NAME_LEN		128

/*
 * perf's generic hardware events. Without p: the architectural encoding
 * (SDM vol. 3B, "Pre-defined Architectural Performance Events"). With p:
 * the first of the architectural encoding and Intel's PEBS event for it
 * that the planner samples best (events.h).
 */
static const struct generic {
	const char *name;
	u32 arch;			/* architectural encoding */
	const char *pebs_name;		/* Intel's PEBS event for it */
	bool pebs_first;		/* try pebs_name before arch */
} generics[] = {
	/* Cycles do not retire: PEBS samples them through an instruction. */
	{ "cycles", 0x3c, "inst_retired.total_cycles_ps", true },
	{ "instructions", 0xc0, "inst_retired.prec_dist", false },
	{ "branches", 0xc4, "br_inst_retired.all_branches_pebs", false },
	{ "branch-misses", 0xc5, "br_misp_retired.all_branches_pebs", false },
};

static const struct {
	const char *name;
	unsigned int gen;		/* index in generics[] */
} generic_aliases[] = {
	{ "cycles", 0 },
	{ "cpu-cycles", 0 },
	{ "instructions", 1 },
	{ "branches", 2 },
	{ "branch-instructions", 2 },
	{ "branch-misses", 3 },
};

enum term_id {
	T_EVENT,
	T_UMASK,
	T_CMASK,
	T_INV,
	T_EDGE,
	T_ANY,
	T_LDLAT,
	T_FRONTEND,
	T_OFFCORE,
	T_PERIOD,
	T_FREQ,
	T_NR,
};

#define TBIT(t)		(1U << (t))
#define TERMS_CPU	(TBIT(T_NR) - 1)
#define TERMS_EXTRA	(TBIT(T_LDLAT) | TBIT(T_FRONTEND) | TBIT(T_OFFCORE))
#define TERMS_GENERIC	(TBIT(T_PERIOD) | TBIT(T_FREQ))
#define TERMS_NAMED	(TERMS_EXTRA | TERMS_GENERIC)

/*
 * Limits of the term syntax. The limits of the values themselves (the
 * threshold's range, the bits an extra MSR defines) are the planner's.
 */
static const struct term_def {
	const char *name;
	bool flag;		/* may stand alone, meaning =1 */
	bool hex;		/* state the limit in hex */
	u64 min, max;
} term_defs[T_NR] = {
	[T_EVENT]	= { "event", false, true, 0, 0xff },
	[T_UMASK]	= { "umask", false, true, 0, 0xff },
	[T_CMASK]	= { "cmask", false, true, 0, 0xff },
	[T_INV]		= { "inv", true, false, 0, 1 },
	[T_EDGE]	= { "edge", true, false, 0, 1 },
	[T_ANY]		= { "any", true, false, 0, 1 },
	[T_LDLAT]	= { "ldlat", false, false, 1, UINT64_MAX },
	[T_FRONTEND]	= { "frontend", false, false, 1, UINT64_MAX },
	[T_OFFCORE]	= { "offcore_rsp", false, false, 1, UINT64_MAX },
	[T_PERIOD]	= { "period", false, false, 1, UINT64_MAX },
	[T_FREQ]	= { "freq", false, false, 1, UINT64_MAX },
};

enum ev_kind {
	EV_GENERIC,
	EV_NAMED,
	EV_RAW,
	EV_CPU,
};

struct ev_spec {
	const char *spec;
	enum ev_kind kind;
	const char *name;		/* the name as written */
	size_t namelen;
	const struct generic *gen;	/* EV_GENERIC */
	const struct skd_event_info *info;	/* EV_NAMED */
	u64 raw;			/* EV_RAW */
	u64 val[T_NR];			/* terms given */
	unsigned int seen;		/* TBIT()s of the terms given */
	unsigned int nr_p;
	bool user, kernel;		/* u, k */
};

static int fail(char *why, size_t whylen, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *why, size_t whylen, int err, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* Appending to a fixed buffer, truncating, always NUL-terminated. */
struct sbuf {
	char *buf;
	size_t len, pos;
};

static void sb_printf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!sb->len || sb->pos + 1 >= sb->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->pos, sb->len - sb->pos, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sb->pos += (size_t)n;
	if (sb->pos >= sb->len)
		sb->pos = sb->len - 1;
}

/* Decimal, or hex after 0x. 0, -EINVAL (not a number), -ERANGE. */
static int parse_num(const char *s, size_t len, int base, u64 *v)
{
	u64 x = 0;
	size_t i = 0;
	unsigned int d;

	if (base == 0) {
		base = 10;
		if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
			base = 16;
			i = 2;
		}
	}
	if (i == len)
		return -EINVAL;
	for (; i < len; i++) {
		char c = s[i];

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -EINVAL;
		if (x > (UINT64_MAX - d) / (unsigned int)base)
			return -ERANGE;
		x = x * base + d;
	}
	*v = x;
	return 0;
}

/* ---- Intel's lists ------------------------------------------------------- */

/* The descriptions of list @l: event_info.h's array runs parallel. */
static const struct skd_event_info_list *
infos_of_list(const struct skd_event_list *l)
{
	unsigned int i;

	for (i = 0; l && i < skd_nr_event_lists; i++)
		if (&skd_event_lists[i] == l)
			return strcmp(skd_event_infos[i].name, l->name) ? NULL :
			       &skd_event_infos[i];
	return NULL;
}

const struct skd_event_info_list *
skd_event_infos_of(const struct skd_pmu_caps *caps)
{
	return caps ? infos_of_list(caps->events) : NULL;
}

static int cmp_info_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct skd_event_info *)elem)->name);
}

/* Intel's event @name (lower case) in @il, by binary search. */
static const struct skd_event_info *
info_by_name(const struct skd_event_info_list *il, const char *name)
{
	if (!il)
		return NULL;
	return bsearch(name, il->events, il->nr_events, sizeof(il->events[0]),
		       cmp_info_name);
}

/* @s (@n bytes) in lower case into @buf; false when it does not fit. */
static bool lower_name(const char *s, size_t n, char *buf, size_t len)
{
	size_t i;

	if (!n || n >= len)
		return false;
	for (i = 0; i < n; i++)
		buf[i] = (s[i] >= 'A' && s[i] <= 'Z') ? s[i] - 'A' + 'a' : s[i];
	buf[n] = '\0';
	return true;
}

/* The rule of @attr's encoding on @caps, NULL when the list has none. */
static const struct skd_event_rule *rule_of(const struct skd_pmu_caps *caps,
					    u64 config)
{
	if (!caps || config >> 32)
		return NULL;
	return skd_event_rule_find(caps->events, (u32)config);
}

static bool wants_config1(const struct skd_event_rule *r)
{
	return r && (r->flags & (SKD_RULE_FRONTEND | SKD_RULE_OFFCORE |
				 SKD_RULE_OFFCORE1));
}

void skd_event_info_attr(const struct skd_pmu_caps *caps,
			 const struct skd_event_info *in,
			 struct skd_event_attr *attr)
{
	const struct skd_event_rule *r = rule_of(caps, in->config);

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->config = in->config;
	/* MSRValue goes where the encoding's extra MSR is (README rule 7). */
	if (r && (r->flags & SKD_RULE_LDLAT))
		attr->ldlat = in->msr_value;
	else if (wants_config1(r))
		attr->config1 = in->msr_value;
}

const struct skd_event_info *
skd_event_info_of(const struct skd_pmu_caps *caps,
		  const struct skd_event_attr *attr)
{
	const struct skd_event_info_list *il = skd_event_infos_of(caps);
	const struct skd_event_rule *r = rule_of(caps, attr->config);
	const struct skd_event_info *dep = NULL;
	bool ldlat = r && (r->flags & SKD_RULE_LDLAT);
	bool cfg1 = wants_config1(r);
	u32 i;

	if (!il || !r)
		return NULL;
	for (i = 0; i < il->nr_events; i++) {
		const struct skd_event_info *in = &il->events[i];
		bool match;

		if (in->config != attr->config)
			continue;
		if (ldlat)
			match = attr->ldlat == in->msr_value && !attr->config1;
		else if (cfg1)
			match = attr->config1 == in->msr_value && !attr->ldlat;
		else
			match = !attr->ldlat && !attr->config1;
		if (!match)
			continue;
		if (!in->deprecated)
			return in;
		if (!dep)
			dep = in;
	}
	return dep;
}

/* ---- the planner as the arbiter ------------------------------------------ */

int skd_event_check(const struct skd_pmu_caps *caps,
		    const struct skd_event_attr *attr, uint32_t *flags,
		    uint32_t *idx, char *why, size_t whylen)
{
	struct skd_event_attr ev = *attr;
	struct skd_plan_request req = {
		.events = &ev,
		.nr_events = 1,
		.default_period = CHECK_PERIOD,
		.max_freq = UINT32_MAX,
		.pebs_buffer_bytes = CHECK_PEBS_BUFFER,
	};
	struct skd_pmu_plan plan;
	int ret;

	/*
	 * A frequency is checked against the module's max_sample_rate when
	 * the session is configured; here only the event is in question.
	 */
	if (ev.flags & SKD_EV_FREQ) {
		ev.flags &= ~(u32)SKD_EV_FREQ;
		ev.sample_period = 0;
	}
	ret = skd_pmu_plan(caps, &req, &plan, why, whylen);
	if (ret)
		return ret;
	if (flags)
		*flags = plan.ev[0].flags;
	if (idx)
		*idx = plan.ev[0].idx;
	return 0;
}

bool skd_event_carries_mem(const struct skd_pmu_caps *caps,
			   const struct skd_event_attr *attr)
{
	uint32_t flags;

	return attr->precise &&
	       !skd_event_check(caps, attr, &flags, NULL, NULL, 0) &&
	       (flags & (SKD_PLAN_DATA_LA | SKD_PLAN_LDLAT));
}

void skd_event_slots(const struct skd_pmu_caps *caps, uint64_t config,
		     uint16_t *counters, uint16_t *pebs)
{
	const struct skd_event_rule *r = rule_of(caps, config), *f = NULL;
	u32 nr_gp = caps ? caps->nr_gp : 0;
	u16 exist, slots, pslots;
	int alias;

	*counters = *pebs = 0;
	if (!r)
		return;
	if (nr_gp > SKD_MAX_GP)
		nr_gp = SKD_MAX_GP;
	exist = (u16)(((1U << nr_gp) - 1) | ((caps->fixed_mask & 0xf) << 8));
	/* plan.c resolve_event(): HT-off counters, fixed aliases, TFA. */
	slots = caps->nr_gp > 4 ? r->counters_htoff : r->counters;
	if (r->counters & SKD_SLOTS_FIXED)
		f = r;
	alias = skd_fixed_alias((u32)config);
	if (alias >= 0) {
		f = skd_event_rule_find(caps->events, (u32)(alias + 1) << 8);
		slots |= SKD_SLOT_FIXED(alias);
	}
	if (caps->flags & SKD_PMU_TFA)
		slots &= ~SKD_SLOT_GP(3);
	*counters = slots & exist;
	/* plan.c pebs_slots() and restrict_pebs(). */
	pslots = r->pebs & SKD_SLOTS_GP;
	if (f)
		pslots |= f->pebs & SKD_SLOTS_FIXED;
	if (caps->cpu && (caps->cpu->flags & SKD_MODEL_PEBS_GP0_3))
		pslots &= 0x000f | SKD_SLOTS_FIXED;
	if (caps->flags & SKD_PMU_PEBS)
		*pebs = pslots & *counters;
}

/* ---- generic events ------------------------------------------------------ */

/* The encodings to try for @g at p, pp and ppp, in order. */
static unsigned int generic_candidates(const struct generic *g,
				       const struct skd_pmu_caps *caps,
				       u32 cfg[2])
{
	const struct skd_event_info *in =
		info_by_name(skd_event_infos_of(caps), g->pebs_name);
	unsigned int n = 0;

	if (in && g->pebs_first)
		cfg[n++] = in->config;
	cfg[n++] = g->arch;
	if (in && !g->pebs_first)
		cfg[n++] = in->config;
	return n;
}

static const char *const p_suffix[] = { "", ":p", ":pp", ":ppp" };

/* "... samples come from PEBS records without the exact IP ..." */
static void note_imprecise(struct sbuf *sb, const struct skd_pmu_caps *caps,
			   const struct skd_event_attr *a)
{
	const struct skd_event_info *in = skd_event_info_of(caps, a);
	const char *list = caps->events ? caps->events->name : "this CPU";

	sb_printf(sb, "samples come from PEBS records without the exact IP: ");
	if (in)
		sb_printf(sb, "Intel marks %s imprecise on %s", in->name, list);
	else
		sb_printf(sb, "r%04llx is not in Intel's list for %s, which says which events are precise",
			  (unsigned long long)a->config, list);
}

/*
 * The encoding and precise level of generic event @g at @np p's on @caps
 * into @a, whose flags and period are set; a note in @why when the choice
 * is not what was asked (no exact IP, :ppp as :pp).
 */
static int resolve_generic(const struct generic *g, const char *spec,
			   const struct skd_pmu_caps *caps,
			   struct skd_event_attr *a, unsigned int np,
			   char *why, size_t whylen)
{
	struct sbuf sb = { why, why ? whylen : 0, 0 };
	unsigned int n, i, level = np < 3 ? np : 2;
	int pick = -1, pebs = -1, err = 0, ret;
	char first[WHY_LEN];
	u32 cfg[2], flags, exact = 0;

	a->config = g->arch;
	a->precise = 0;
	if (!caps) {
		if (np)
			return fail(why, whylen, -EOPNOTSUPP,
				    "%s: PEBS (p) needs a PMU of Intel's lists, and none is known; use %s without p",
				    spec, g->name);
		return 0;
	}
	if (!np) {
		ret = skd_event_check(caps, a, NULL, NULL, first,
				      sizeof(first));
		if (ret)
			return fail(why, whylen, ret, "%s: %s", spec, first);
		return 0;
	}

	n = generic_candidates(g, caps, cfg);
	if (np == 3) {
		for (i = 0; i < n; i++) {
			a->config = cfg[i];
			a->precise = 3;
			if (skd_event_check(caps, a, &flags, NULL, NULL, 0))
				continue;
			if (!(flags & SKD_PLAN_EXACT)) {
				sb_printf(&sb, "%s:ppp: ", g->name);
				note_imprecise(&sb, caps, a);
			}
			return 0;
		}
	}

	first[0] = '\0';
	for (i = 0; i < n; i++) {
		a->config = cfg[i];
		a->precise = (u8)level;
		ret = skd_event_check(caps, a, &flags, NULL,
				      i ? NULL : first, i ? 0 : sizeof(first));
		if (ret) {
			if (!i)
				err = ret;
			continue;
		}
		if (flags & SKD_PLAN_EXACT) {
			pick = i;
			exact = SKD_PLAN_EXACT;
			break;
		}
		if (pebs < 0)
			pebs = i;
	}
	if (pick < 0)
		pick = pebs;
	if (pick < 0) {
		a->config = g->arch;
		a->precise = 0;
		return fail(why, whylen, err ? err : -EOPNOTSUPP, "%s: %s",
			    spec, first);
	}
	a->config = cfg[pick];
	a->precise = (u8)level;
	if (np == 3)
		sb_printf(&sb, "%s:ppp on %s samples as %s:pp: no precise distribution for %s",
			  g->name, caps->events ? caps->events->name : "this CPU",
			  g->name, g->name);
	if (!exact) {
		if (np == 3)
			sb_printf(&sb, "; its ");
		else
			sb_printf(&sb, "%s%s: ", g->name, p_suffix[np]);
		note_imprecise(&sb, caps, a);
	}
	return 0;
}

/* The generic event whose spelling parses into @attr on @caps, if any. */
static const struct generic *generic_of(const struct skd_event_attr *attr,
					const struct skd_pmu_caps *caps)
{
	struct skd_event_attr r;
	unsigned int g, n, i;
	u32 cfg[2];

	if (attr->ldlat || attr->config1 || attr->precise > 3)
		return NULL;
	for (g = 0; g < ARRAY_SIZE(generics); g++) {
		if (!attr->precise) {
			if (attr->config == generics[g].arch)
				return &generics[g];
			continue;
		}
		if (!caps)
			continue;
		n = generic_candidates(&generics[g], caps, cfg);
		for (i = 0; i < n && cfg[i] != attr->config; i++)
			;
		if (i == n)
			continue;
		r = *attr;
		if (resolve_generic(&generics[g], "", caps, &r, attr->precise,
				    NULL, 0))
			continue;
		if (r.config == attr->config && r.precise == attr->precise)
			return &generics[g];
	}
	return NULL;
}

/* ---- skd_event_name ------------------------------------------------------ */

static void put_mods(struct sbuf *sb, const struct skd_event_attr *a)
{
	bool xu = a->flags & SKD_EV_EXCLUDE_USER;
	bool xk = a->flags & SKD_EV_EXCLUDE_KERNEL;
	unsigned int i;

	for (i = 0; i < a->precise && i < 3; i++)
		sb_printf(sb, "p");
	/* Both excluded cannot be spelled; it counts nothing. */
	if (xk && !xu)
		sb_printf(sb, "u");
	if (xu && !xk)
		sb_printf(sb, "k");
}

static bool has_mods(const struct skd_event_attr *a)
{
	u32 x = a->flags & (SKD_EV_EXCLUDE_USER | SKD_EV_EXCLUDE_KERNEL);

	return a->precise || x == SKD_EV_EXCLUDE_USER ||
	       x == SKD_EV_EXCLUDE_KERNEL;
}

/* ldlat=, frontend= or offcore_rsp=, period= or freq=; after a comma? */
static void put_terms(struct sbuf *sb, const struct skd_event_attr *a,
		      const struct skd_pmu_caps *caps, bool comma)
{
	const struct skd_event_rule *r = rule_of(caps, a->config);

	if (a->ldlat) {
		sb_printf(sb, "%sldlat=%llu", comma ? "," : "",
			  (unsigned long long)a->ldlat);
		comma = true;
	}
	if (a->config1) {
		sb_printf(sb, "%s%s=0x%llx", comma ? "," : "",
			  r && (r->flags & SKD_RULE_FRONTEND) ? "frontend" :
								"offcore_rsp",
			  (unsigned long long)a->config1);
		comma = true;
	}
	if (a->sample_period)
		sb_printf(sb, "%s%s=%llu", comma ? "," : "",
			  a->flags & SKD_EV_FREQ ? "freq" : "period",
			  (unsigned long long)a->sample_period);
}

void skd_event_name(const struct skd_event_attr *attr,
		    const struct skd_pmu_caps *caps, char *buf, size_t len)
{
	struct sbuf sb = { buf, len, 0 };
	const struct skd_event_info *in;
	const struct generic *g;
	const char *name = NULL;
	u64 c = attr->config;

	if (!len)
		return;
	buf[0] = '\0';
	g = generic_of(attr, caps);
	if (g) {
		name = g->name;
	} else {
		in = skd_event_info_of(caps, attr);
		if (in)
			name = in->name;
	}

	if (name) {
		/* A name carries its extra-MSR value; the period is a term. */
		sb_printf(&sb, "%s", name);
		if (attr->sample_period) {
			struct skd_event_attr t = *attr;

			t.ldlat = 0;
			t.config1 = 0;
			sb_printf(&sb, "/");
			put_terms(&sb, &t, caps, false);
			sb_printf(&sb, "/");
		} else if (has_mods(attr)) {
			sb_printf(&sb, ":");
		}
	} else if (!attr->ldlat && !attr->config1 && !attr->sample_period) {
		sb_printf(&sb, "r%04llx", (unsigned long long)c);
		if (has_mods(attr))
			sb_printf(&sb, ":");
	} else {
		sb_printf(&sb, "cpu/event=0x%llx,umask=0x%llx",
			  (unsigned long long)(c & ARCH_PERFMON_EVENTSEL_EVENT),
			  (unsigned long long)((c & ARCH_PERFMON_EVENTSEL_UMASK) >> 8));
		if (c & ARCH_PERFMON_EVENTSEL_EDGE)
			sb_printf(&sb, ",edge");
		if (c & ARCH_PERFMON_EVENTSEL_ANY)
			sb_printf(&sb, ",any");
		if (c & ARCH_PERFMON_EVENTSEL_INV)
			sb_printf(&sb, ",inv");
		if (c & ARCH_PERFMON_EVENTSEL_CMASK)
			sb_printf(&sb, ",cmask=%llu",
				  (unsigned long long)((c & ARCH_PERFMON_EVENTSEL_CMASK) >> 24));
		put_terms(&sb, attr, caps, true);
		sb_printf(&sb, "/");
	}
	put_mods(&sb, attr);
}

/* ---- skd_event_parse ----------------------------------------------------- */

static int parse_term(struct ev_spec *ep, const char *t, size_t tlen,
		      unsigned int allowed, char *why, size_t whylen)
{
	const struct term_def *td = NULL;
	const char *eq = memchr(t, '=', tlen);
	size_t klen = eq ? (size_t)(eq - t) : tlen;
	int id, ret;
	u64 v;

	for (id = 0; id < T_NR; id++) {
		if (strlen(term_defs[id].name) == klen &&
		    !strncasecmp(term_defs[id].name, t, klen)) {
			td = &term_defs[id];
			break;
		}
	}
	if (!td) {
		char list[128];
		struct sbuf sb = { list, sizeof(list), 0 };
		int i, n = 0;

		list[0] = '\0';
		for (i = 0; i < T_NR; i++)
			if (allowed & TBIT(i))
				sb_printf(&sb, "%s%s", n++ ? ", " : "",
					  term_defs[i].name);
		return fail(why, whylen, -EINVAL,
			    "unknown term `%.*s' in `%s': valid here are %s",
			    (int)tlen, t, ep->spec, list);
	}
	if (!(allowed & TBIT(id))) {
		if (ep->kind == EV_GENERIC)
			return fail(why, whylen, -EINVAL,
				    "`%.*s' does not apply to %s, which takes period= and freq= only",
				    (int)tlen, t, ep->gen->name);
		return fail(why, whylen, -EINVAL,
			    "`%.*s' cannot change the event `%.*s', which takes ldlat=, frontend=, offcore_rsp=, period= and freq= only; give the encoding as cpu/event=N,umask=N,.../ instead",
			    (int)tlen, t, (int)ep->namelen, ep->name);
	}
	if (ep->seen & TBIT(id))
		return fail(why, whylen, -EINVAL,
			    "`%s' is given twice in `%s': give each term once",
			    td->name, ep->spec);
	if (!eq) {
		if (!td->flag)
			return fail(why, whylen, -EINVAL,
				    "`%.*s' needs a value, as in %s=N",
				    (int)tlen, t, td->name);
		v = 1;
	} else {
		ret = parse_num(eq + 1, tlen - klen - 1, 0, &v);
		if (ret == -ERANGE)
			return fail(why, whylen, -EINVAL,
				    "`%.*s' is too large", (int)tlen, t);
		if (ret)
			return fail(why, whylen, -EINVAL,
				    "`%.*s' is not a number: write decimal or 0x hex",
				    (int)tlen, t);
	}
	if (td->flag && v > 1)
		return fail(why, whylen, -EINVAL,
			    "`%.*s': %s is a flag; write %s, %s=1 or %s=0",
			    (int)tlen, t, td->name, td->name, td->name,
			    td->name);
	if (v > td->max && td->hex)
		return fail(why, whylen, -EINVAL,
			    "`%.*s' is larger than 0x%llx", (int)tlen, t,
			    (unsigned long long)td->max);
	if (v < td->min)
		return fail(why, whylen, -EINVAL,
			    "`%.*s' must be at least %llu", (int)tlen, t,
			    (unsigned long long)td->min);
	ep->val[id] = v;
	ep->seen |= TBIT(id);
	return 0;
}

/* The comma-separated terms between the slashes of @t (@tlen bytes). */
static int parse_terms(struct ev_spec *ep, const char *t, size_t tlen,
		       unsigned int allowed, char *why, size_t whylen)
{
	size_t i = 0, j;
	int ret;

	if (!tlen)
		return 0;
	for (;;) {
		for (j = i; j < tlen && t[j] != ','; j++)
			;
		if (j == i)
			return fail(why, whylen, -EINVAL,
				    "empty term in `/%.*s/': separate terms with one comma",
				    (int)tlen, t);
		ret = parse_term(ep, t + i, j - i, allowed, why, whylen);
		if (ret)
			return ret;
		if (j == tlen)
			break;
		i = j + 1;
	}
	if ((ep->seen & TBIT(T_PERIOD)) && (ep->seen & TBIT(T_FREQ)))
		return fail(why, whylen, -EINVAL,
			    "`period=' and `freq=' in `%s' exclude each other: give one",
			    ep->spec);
	if ((ep->seen & TBIT(T_FRONTEND)) && (ep->seen & TBIT(T_OFFCORE)))
		return fail(why, whylen, -EINVAL,
			    "`frontend=' and `offcore_rsp=' in `%s' exclude each other: an event has one extra MSR",
			    ep->spec);
	return 0;
}

/* Modifier letters, @s to the end of the spec. */
static int parse_mods(struct ev_spec *ep, const char *s, bool colon, char *why,
		      size_t whylen)
{
	const char *p;

	if (colon && !*s)
		return fail(why, whylen, -EINVAL,
			    "nothing after the `:' of `%s': modifiers are p, pp, ppp (precise), u (user only), k (kernel only)",
			    ep->spec);
	for (p = s; *p; p++) {
		switch (*p) {
		case 'p':
			ep->nr_p++;
			break;
		case 'u':
			ep->user = true;
			break;
		case 'k':
			ep->kernel = true;
			break;
		default:
			return fail(why, whylen, -EINVAL,
				    "`%c' in `%s' is not a modifier: use p, pp, ppp (precise), u (user only), k (kernel only)",
				    *p, ep->spec);
		}
	}
	if (ep->nr_p > 3)
		return fail(why, whylen, -EINVAL,
			    "`%s' asks for precise level %u: the highest is ppp",
			    s, ep->nr_p);
	return 0;
}

static bool is_raw(const char *s, size_t len)
{
	size_t i;

	if (len < 2 || s[0] != 'r')
		return false;
	for (i = 1; i < len; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]))
			return false;
	return true;
}

/* "icelake, icelakex and 3 more": the lists that have event @name. */
static unsigned int lists_with(const char *name,
			       const struct skd_event_list *not, char *buf,
			       size_t len)
{
	struct sbuf sb = { buf, len, 0 };
	unsigned int i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < skd_nr_event_lists; i++) {
		if (&skd_event_lists[i] == not ||
		    !info_by_name(&skd_event_infos[i], name))
			continue;
		if (n < 3)
			sb_printf(&sb, "%s%s", n ? ", " : "",
				  skd_event_infos[i].name);
		n++;
	}
	if (n > 3)
		sb_printf(&sb, " and %u more", n - 3);
	return n;
}

/* What the name before any / or : is. */
static int lookup_name(struct ev_spec *ep, const struct skd_pmu_caps *caps,
		       char *why, size_t whylen)
{
	const struct skd_event_list *own = caps ? caps->events : NULL;
	const char *s = ep->name;
	size_t i, n = ep->namelen;
	char name[NAME_LEN], where[NAME_LEN];
	int ret;

	for (i = 0; i < ARRAY_SIZE(generic_aliases); i++) {
		if (strlen(generic_aliases[i].name) == n &&
		    !strncasecmp(generic_aliases[i].name, s, n)) {
			ep->kind = EV_GENERIC;
			ep->gen = &generics[generic_aliases[i].gen];
			return 0;
		}
	}
	if (!lower_name(s, n, name, sizeof(name)))
		name[0] = '\0';
	ep->info = name[0] ? info_by_name(skd_event_infos_of(caps), name) :
			     NULL;
	if (ep->info) {
		ep->kind = EV_NAMED;
		return 0;
	}
	if (is_raw(s, n)) {
		ep->kind = EV_RAW;
		ret = parse_num(s + 1, n - 1, 16, &ep->raw);
		if (ret || (ep->raw & ~(SKD_EVSEL_USER_MASK | ARCH_PERFMON_EVENTSEL_ANY)))
			return fail(why, whylen, -EINVAL,
				    "`%.*s' sets bits beyond the event fields; a raw event holds event [7:0], umask [15:8], edge (18), any (21), inv (23) and cmask [31:24], and :u/:k choose the privilege levels",
				    (int)n, s);
		return 0;
	}

	/* Not this CPU's: say whether another list has it. */
	if (name[0] && lists_with(name, own, where, sizeof(where))) {
		if (!own)
			return fail(why, whylen, -EOPNOTSUPP,
				    "`%s' is an event of %s, and %s: give its encoding from Intel's list as rNNNN or cpu/event=N,umask=N/",
				    name, where,
				    caps ? "this CPU is in none of Intel's lists skidless has" :
					   "no PMU is known");
		return fail(why, whylen, -EINVAL,
			    "unknown event `%s': it is an event of %s, not of %s; skidless list shows the events of this CPU",
			    name, where, own->name);
	}
	return fail(why, whylen, -EINVAL,
		    "unknown event `%.*s': skidless list shows the events of this CPU",
		    (int)n, s);
}

/* The part after the name or cpu: an optional /terms/, then modifiers. */
static int parse_tail(struct ev_spec *ep, const char *p, unsigned int allowed,
		      char *why, size_t whylen)
{
	const char *end;
	int ret;

	if (*p == ':')
		return parse_mods(ep, p + 1, true, why, whylen);
	if (*p != '/')
		return 0;
	end = strchr(p + 1, '/');
	if (!end)
		return fail(why, whylen, -EINVAL,
			    "`%s' has no closing `/': write %.*s/TERMS/ with terms such as period=N",
			    ep->spec, (int)(p - ep->spec), ep->spec);
	ret = parse_terms(ep, p + 1, end - p - 1, allowed, why, whylen);
	if (ret)
		return ret;
	p = end + 1;
	if (*p == ':')
		return parse_mods(ep, p + 1, true, why, whylen);
	return parse_mods(ep, p, false, why, whylen);
}

/*
 * The extra-MSR terms: ldlat= sets the threshold, frontend= and
 * offcore_rsp= config1, each overriding what a named event brings. Which
 * of the last two applies is a matter of spelling, said here; whether the
 * event has such an MSR at all, and what values it takes, the planner's.
 */
static int apply_extra(const struct ev_spec *ep,
		       const struct skd_pmu_caps *caps, struct skd_event_attr *a,
		       char *why, size_t whylen)
{
	const struct skd_event_rule *r = rule_of(caps, a->config);
	bool offcore = r && (r->flags & (SKD_RULE_OFFCORE | SKD_RULE_OFFCORE1));
	bool frontend = r && (r->flags & SKD_RULE_FRONTEND);

	if (ep->seen & TBIT(T_LDLAT))
		a->ldlat = ep->val[T_LDLAT];
	if ((ep->seen & TBIT(T_FRONTEND)) && offcore)
		return fail(why, whylen, -EINVAL,
			    "`%s': this is an offcore-response event; give its MSR_OFFCORE_RSP value as offcore_rsp=N, not frontend=",
			    ep->spec);
	if ((ep->seen & TBIT(T_OFFCORE)) && frontend)
		return fail(why, whylen, -EINVAL,
			    "`%s': this is a front-end event; give its MSR_PEBS_FRONTEND value as frontend=N, not offcore_rsp=",
			    ep->spec);
	if (ep->seen & TBIT(T_FRONTEND))
		a->config1 = ep->val[T_FRONTEND];
	if (ep->seen & TBIT(T_OFFCORE))
		a->config1 = ep->val[T_OFFCORE];
	return 0;
}

/* A named, raw or cpu/.../ event: the planner says whether it can be. */
static int check_event(const struct ev_spec *ep,
		       const struct skd_pmu_caps *caps,
		       const struct skd_event_attr *a, char *why, size_t whylen)
{
	struct sbuf sb = { why, why ? whylen : 0, 0 };
	char buf[WHY_LEN];
	u32 flags;
	int ret;

	if (!caps) {
		const char *what = a->precise ? "p" : a->ldlat ? "ldlat=" :
				   a->config1 ? "an extra-MSR value" :
				   (a->config & ARCH_PERFMON_EVENTSEL_ANY) ? "any" : NULL;

		if (what)
			return fail(why, whylen, -EOPNOTSUPP,
				    "%s: no PMU is known, and %s needs one of Intel's lists; drop it",
				    ep->spec, what);
		return 0;
	}
	ret = skd_event_check(caps, a, &flags, NULL, buf, sizeof(buf));
	if (ret)
		return fail(why, whylen, ret, "%s: %s", ep->spec, buf);
	if (a->precise && !(flags & SKD_PLAN_EXACT)) {
		sb_printf(&sb, "%s: ", ep->spec);
		note_imprecise(&sb, caps, a);
	}
	return 0;
}

int skd_event_parse(const char *spec, const struct skd_pmu_caps *caps,
		    struct skd_event_attr *attr, char *why, size_t whylen)
{
	struct ev_spec ep = { .spec = spec };
	struct skd_event_attr a = { .size = sizeof(a) };
	unsigned int allowed;
	size_t n;
	int ret;

	if (why && whylen)
		why[0] = '\0';
	if (!spec || !*spec)
		return fail(why, whylen, -EINVAL,
			    "empty event: name one, such as cycles, rNNNN or cpu/event=N,umask=N/");

	if (!strncmp(spec, "cpu/", 4)) {
		ep.kind = EV_CPU;
		ep.name = spec;
		ep.namelen = 3;
		ret = parse_tail(&ep, spec + 3, TERMS_CPU, why, whylen);
		if (ret)
			return ret;
		if (!(ep.seen & TBIT(T_EVENT)))
			return fail(why, whylen, -EINVAL,
				    "`%s' names no event: cpu/.../ needs event=N (and umask=N for most events)",
				    spec);
		a.config = ep.val[T_EVENT] | ep.val[T_UMASK] << 8 |
			   (ep.val[T_EDGE] ? ARCH_PERFMON_EVENTSEL_EDGE : 0) |
			   (ep.val[T_ANY] ? ARCH_PERFMON_EVENTSEL_ANY : 0) |
			   (ep.val[T_INV] ? ARCH_PERFMON_EVENTSEL_INV : 0) |
			   ep.val[T_CMASK] << 24;
	} else {
		n = strcspn(spec, "/:");
		if (!n)
			return fail(why, whylen, -EINVAL,
				    "`%s' has no event name before the `%c'",
				    spec, spec[0]);
		ep.name = spec;
		ep.namelen = n;
		ret = lookup_name(&ep, caps, why, whylen);
		if (ret)
			return ret;
		allowed = ep.kind == EV_GENERIC ? TERMS_GENERIC : TERMS_NAMED;
		ret = parse_tail(&ep, spec + n, allowed, why, whylen);
		if (ret)
			return ret;
		if (ep.kind == EV_NAMED) {
			skd_event_info_attr(caps, ep.info, &a);
		} else if (ep.kind == EV_RAW) {
			a.config = ep.raw;
		}
	}

	/* perf's u and k: name what to count; both or neither count both. */
	if (ep.user && !ep.kernel)
		a.flags |= SKD_EV_EXCLUDE_KERNEL;
	if (ep.kernel && !ep.user)
		a.flags |= SKD_EV_EXCLUDE_USER;
	if (ep.seen & TBIT(T_FREQ)) {
		a.flags |= SKD_EV_FREQ;
		a.sample_freq = ep.val[T_FREQ];
	} else {
		a.sample_period = ep.val[T_PERIOD];
	}
	a.precise = (u8)ep.nr_p;

	if (ep.kind == EV_GENERIC) {
		ret = resolve_generic(ep.gen, spec, caps, &a, ep.nr_p, why,
				      whylen);
	} else {
		ret = apply_extra(&ep, caps, &a, why, whylen);
		if (!ret)
			ret = check_event(&ep, caps, &a, why, whylen);
	}
	if (ret)
		return ret;
	*attr = a;
	return 0;
}

/* ---- skd_branch_parse --------------------------------------------------- */

static const struct {
	const char *name;
	u32 bit;
} branch_terms[] = {
	{ "u", SKD_BRANCH_USER },
	{ "k", SKD_BRANCH_KERNEL },
	{ "any", SKD_BRANCH_ANY },
	{ "any_call", SKD_BRANCH_ANY_CALL },
	{ "any_ret", SKD_BRANCH_ANY_RETURN },
	{ "ind_call", SKD_BRANCH_IND_CALL },
	{ "ind_jmp", SKD_BRANCH_IND_JUMP },
	{ "cond", SKD_BRANCH_COND },
	{ "call", SKD_BRANCH_CALL },
	{ "call_stack", SKD_BRANCH_CALL_STACK },
};

static void branch_list(char *buf, size_t len)
{
	struct sbuf sb = { buf, len, 0 };
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(branch_terms); i++)
		sb_printf(&sb, "%s%s", i ? ", " : "", branch_terms[i].name);
}

int skd_branch_parse(const char *spec, uint32_t *branch_sample, char *why,
		     size_t whylen)
{
	const u32 plm = SKD_BRANCH_USER | SKD_BRANCH_KERNEL;
	const char *p = spec;
	char valid[128];
	u32 bits = 0;
	size_t n, i;

	if (why && whylen)
		why[0] = '\0';
	branch_list(valid, sizeof(valid));
	if (!spec || !*spec)
		return fail(why, whylen, -EINVAL,
			    "empty branch filter: give one or more of %s, comma separated",
			    valid);
	for (;;) {
		n = strcspn(p, ",");
		if (!n)
			return fail(why, whylen, -EINVAL,
				    "empty term in branch filter `%s': separate terms with one comma; valid are %s",
				    spec, valid);
		for (i = 0; i < ARRAY_SIZE(branch_terms); i++)
			if (strlen(branch_terms[i].name) == n &&
			    !strncasecmp(branch_terms[i].name, p, n))
				break;
		if (i == ARRAY_SIZE(branch_terms))
			return fail(why, whylen, -EINVAL,
				    "unknown branch filter `%.*s': valid are %s",
				    (int)n, p, valid);
		bits |= branch_terms[i].bit;
		if (!p[n])
			break;
		p += n + 1;
	}
	/* As in perf: privilege levels alone filter any branch. */
	if (!(bits & ~plm))
		bits |= SKD_BRANCH_ANY;
	*branch_sample = bits;
	return 0;
}

int skd_event_list_split(char *list, const char **out, unsigned int max)
{
	char *p, *start = list;
	bool in_terms = false;
	unsigned int n = 0;

	for (p = list;; p++) {
		if (*p == '/')
			in_terms = !in_terms;
		if (*p && (*p != ',' || in_terms))
			continue;
		if (p == start)
			return -EINVAL;
		if (n == max)
			return -E2BIG;
		out[n++] = start;
		if (!*p)
			return n;
		*p = '\0';
		start = p + 1;
	}
}
