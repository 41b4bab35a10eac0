// SPDX-License-Identifier: GPL-2.0
/*
 * -e and -j as perf spells them (see events.h). Every encoding comes from
 * the CPU model table shared with the module, except the four
 * architectural ones used when the CPU is not in the table. Checks here
 * exist for the message: the module validates the result again.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "events.h"
#include "models.h"
#include "msrs.h"

/* The architectural encodings of the generic events (umask 0). */
static const u32 arch_generic[SKD_GEN_NR] = {
	[SKD_GEN_CYCLES]	= 0x3c,
	[SKD_GEN_INSTRUCTIONS]	= 0xc0,
	[SKD_GEN_BRANCHES]	= 0xc4,
	[SKD_GEN_BRANCH_MISSES]	= 0xc5,
};

static const char *const generic_names[SKD_GEN_NR] = {
	[SKD_GEN_CYCLES]	= "cycles",
	[SKD_GEN_INSTRUCTIONS]	= "instructions",
	[SKD_GEN_BRANCHES]	= "branches",
	[SKD_GEN_BRANCH_MISSES]	= "branch-misses",
};

static const struct {
	const char *name;
	enum skd_generic gen;
} generic_aliases[] = {
	{ "cycles", SKD_GEN_CYCLES },
	{ "cpu-cycles", SKD_GEN_CYCLES },
	{ "instructions", SKD_GEN_INSTRUCTIONS },
	{ "branches", SKD_GEN_BRANCHES },
	{ "branch-instructions", SKD_GEN_BRANCHES },
	{ "branch-misses", SKD_GEN_BRANCH_MISSES },
};

/*
 * Models whose PEBS is not adaptive: only the events their table lists
 * as PEBS-capable may be sampled precisely. The model table has no field
 * for the PEBS format, so it is kept here; a model not named here is
 * taken to have adaptive PEBS (any event), and the module has the last
 * word.
 */
static const char *const legacy_pebs_models[] = { "skylake" };

/* The threshold suggested when a load-latency event comes without one. */
#define LDLAT_SUGGESTED		30

enum term_id {
	T_EVENT,
	T_UMASK,
	T_CMASK,
	T_INV,
	T_EDGE,
	T_LDLAT,
	T_PERIOD,
	T_FREQ,
	T_NR,
};

#define TBIT(t)		(1U << (t))
#define TERMS_CPU	(TBIT(T_NR) - 1)
#define TERMS_NAMED	(TBIT(T_LDLAT) | TBIT(T_PERIOD) | TBIT(T_FREQ))
#define TERMS_GENERIC	(TBIT(T_PERIOD) | TBIT(T_FREQ))

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
	[T_LDLAT]	= { "ldlat", false, false, 1, 65535 },
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
	enum skd_generic gen;		/* EV_GENERIC */
	const struct skd_event_def *def;	/* EV_NAMED */
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

	if (sb->pos + 1 >= sb->len)
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

static bool model_pebs_any(const struct skd_cpu_model *m)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(legacy_pebs_models); i++)
		if (!strcmp(m->name, legacy_pebs_models[i]))
			return false;
	return true;
}

static bool generic_precdist(const struct skd_cpu_model *m, enum skd_generic g)
{
	return m->generic[g].config[2] &&
	       (m->generic[g].counters[2] & m->pdist_counters);
}

static const struct skd_event_def *model_ldlat_event(const struct skd_cpu_model *m)
{
	unsigned int i;

	for (i = 0; i < m->nr_events; i++)
		if (m->events[i].flags & SKD_EVF_LDLAT)
			return &m->events[i];
	return NULL;
}

/* ---- skd_event_name ----------------------------------------------------- */

static bool name_generic(const struct skd_event_attr *a,
			 const struct skd_cpu_model *m, enum skd_generic *gen)
{
	unsigned int level = !a->precise ? 0 : a->precise < 3 ? 1 : 2;
	int g;

	if (a->ldlat)
		return false;
	for (g = 0; g < SKD_GEN_NR; g++) {
		u32 config = m ? m->generic[g].config[level] :
				 level ? 0 : arch_generic[g];

		if (config && config == a->config) {
			*gen = g;
			return true;
		}
	}
	return false;
}

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

/* ldlat=, period=, freq= for a term list, after a comma when @comma. */
static void put_terms(struct sbuf *sb, const struct skd_event_attr *a,
		      bool comma)
{
	if (a->ldlat) {
		sb_printf(sb, "%sldlat=%llu", comma ? "," : "",
			  (unsigned long long)a->ldlat);
		comma = true;
	}
	if (a->sample_period)
		sb_printf(sb, "%s%s=%llu", comma ? "," : "",
			  a->flags & SKD_EV_FREQ ? "freq" : "period",
			  (unsigned long long)a->sample_period);
}

/* The table event with exactly this encoding, edge/inv/cmask included. */
static const struct skd_event_def *event_exact(const struct skd_cpu_model *m,
					       u64 config)
{
	unsigned int i;

	for (i = 0; m && i < m->nr_events; i++)
		if (m->events[i].config == config)
			return &m->events[i];
	return NULL;
}

void skd_event_name(const struct skd_event_attr *attr,
		    const struct skd_cpu_model *m, char *buf, size_t len)
{
	struct sbuf sb = { buf, len, 0 };
	const struct skd_event_def *def;
	const char *name = NULL;
	enum skd_generic g;
	u64 c = attr->config;
	bool terms = attr->ldlat || attr->sample_period;

	if (!len)
		return;
	buf[0] = '\0';
	if (name_generic(attr, m, &g)) {
		name = generic_names[g];
	} else {
		def = event_exact(m, c);
		if (def)
			name = def->name;
	}

	if (name) {
		sb_printf(&sb, "%s", name);
		if (terms) {
			sb_printf(&sb, "/");
			put_terms(&sb, attr, false);
			sb_printf(&sb, "/");
		} else if (has_mods(attr)) {
			sb_printf(&sb, ":");
		}
	} else if (!terms) {
		sb_printf(&sb, "r%04llx", (unsigned long long)c);
		if (has_mods(attr))
			sb_printf(&sb, ":");
	} else {
		sb_printf(&sb, "cpu/event=0x%llx,umask=0x%llx",
			  (unsigned long long)(c & SKD_EVSEL_EVENT),
			  (unsigned long long)((c & SKD_EVSEL_UMASK) >> 8));
		if (c & SKD_EVSEL_EDGE)
			sb_printf(&sb, ",edge");
		if (c & SKD_EVSEL_INV)
			sb_printf(&sb, ",inv");
		if (c & SKD_EVSEL_CMASK)
			sb_printf(&sb, ",cmask=%llu",
				  (unsigned long long)((c & SKD_EVSEL_CMASK) >> 24));
		put_terms(&sb, attr, true);
		sb_printf(&sb, "/");
	}
	put_mods(&sb, attr);
}

/* ---- skd_event_parse ---------------------------------------------------- */

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
		char list[96];
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
				    (int)tlen, t, generic_names[ep->gen]);
		return fail(why, whylen, -EINVAL,
			    "`%.*s' cannot change the named event `%.*s', which takes ldlat=, period= and freq= only; give the encoding as cpu/event=N,umask=N,.../ instead",
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
	if (v < td->min || v > td->max) {
		if (id == T_LDLAT)
			return fail(why, whylen, -EINVAL,
				    "`%.*s' is out of range: the latency threshold is %llu to %llu cycles",
				    (int)tlen, t, (unsigned long long)td->min,
				    (unsigned long long)td->max);
		return fail(why, whylen, -EINVAL,
			    "`%.*s' must be at least %llu", (int)tlen, t,
			    (unsigned long long)td->min);
	}
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

/* What the name before any / or : is. */
static int lookup_name(struct ev_spec *ep, const struct skd_cpu_model *m,
		       char *why, size_t whylen)
{
	const char *s = ep->name;
	size_t i, n = ep->namelen;
	char name[128];
	unsigned int k;
	int ret;

	for (i = 0; i < ARRAY_SIZE(generic_aliases); i++) {
		if (strlen(generic_aliases[i].name) == n &&
		    !strncasecmp(generic_aliases[i].name, s, n)) {
			ep->kind = EV_GENERIC;
			ep->gen = generic_aliases[i].gen;
			return 0;
		}
	}
	name[0] = '\0';
	if (n < sizeof(name)) {
		memcpy(name, s, n);
		name[n] = '\0';
	}
	if (m && name[0]) {
		ep->def = skd_event_by_name(m, name);
		if (ep->def) {
			ep->kind = EV_NAMED;
			return 0;
		}
	}
	if (is_raw(s, n)) {
		ep->kind = EV_RAW;
		ret = parse_num(s + 1, n - 1, 16, &ep->raw);
		if (ret || (ep->raw & ~SKD_EVSEL_USER_MASK))
			return fail(why, whylen, -EINVAL,
				    "`%.*s' sets bits beyond the event fields; a raw event holds event [7:0], umask [15:8], edge (18), inv (23) and cmask [31:24], and :u/:k choose the privilege levels",
				    (int)n, s);
		return 0;
	}

	/* Not ours: say whether another model has it. */
	for (k = 0; name[0] && k < skd_nr_cpu_models; k++) {
		const struct skd_cpu_model *o = &skd_cpu_models[k];

		if (o == m || !skd_event_by_name(o, name))
			continue;
		if (!m)
			return fail(why, whylen, -EOPNOTSUPP,
				    "`%s' is an event of %s, but this CPU's model is not known to skidless: give its encoding from Intel's event list as rNNNN or cpu/event=N,umask=N/",
				    name, o->name);
		return fail(why, whylen, -EINVAL,
			    "unknown event `%s': it is an event of %s, not of %s; skidless list shows the events of this CPU",
			    name, o->name, m->name);
	}
	return fail(why, whylen, -EINVAL,
		    "unknown event `%.*s': skidless list shows the events of this CPU",
		    (int)n, s);
}

static int precdist_count(const struct skd_cpu_model *m)
{
	int g, n = 0;

	for (g = 0; g < SKD_GEN_NR; g++)
		n += generic_precdist(m, g);
	return n;
}

/* The generic events with :ppp on @m: "a", "a and b", "a, b and c". */
static void precdist_list(const struct skd_cpu_model *m, struct sbuf *sb)
{
	int g, n = 0, total = precdist_count(m);

	for (g = 0; g < SKD_GEN_NR; g++) {
		if (!generic_precdist(m, g))
			continue;
		sb_printf(sb, "%s%s", !n ? "" : n == total - 1 ? " and " : ", ",
			  generic_names[g]);
		n++;
	}
}

static int resolve_generic(const struct ev_spec *ep,
			   const struct skd_cpu_model *m,
			   struct skd_event_attr *a, char *why, size_t whylen)
{
	const char *name = generic_names[ep->gen];
	const struct skd_generic_event *ge;
	struct skd_event_attr fix;
	unsigned int level;
	char alt[96];

	if (!m) {
		if (ep->nr_p)
			return fail(why, whylen, -EOPNOTSUPP,
				    "%s: this CPU's model is not known to skidless, which samples through PEBS only on the models it knows; use %s without p",
				    ep->spec, name);
		a->config = arch_generic[ep->gen];
		return 0;
	}

	ge = &m->generic[ep->gen];
	level = !ep->nr_p ? 0 : ep->nr_p < 3 ? 1 : 2;
	if ((level < 2 || generic_precdist(m, ep->gen)) && ge->config[level]) {
		a->config = ge->config[level];
		a->precise = (u8)ep->nr_p;
		return 0;
	}

	/* :ppp exists but is not precise distribution here: it is :pp. */
	if (level == 2 && ge->config[2] && ge->config[1]) {
		a->config = ge->config[1];
		a->precise = 2;
		if (why && whylen) {
			struct sbuf sb = { why, whylen, 0 };

			sb_printf(&sb, "%s:ppp on %s samples as %s:pp: ",
				  name, m->name, name);
			if (precdist_count(m)) {
				sb_printf(&sb, "precise distribution exists there for ");
				precdist_list(m, &sb);
				sb_printf(&sb, " only");
			} else {
				sb_printf(&sb, "%s has no precise distribution for generic events",
					  m->name);
			}
		}
		return 0;
	}

	/* The level asked for is missing; say which one exists. */
	if (!ge->config[0] && !(level == 2 && ge->config[1]))
		return fail(why, whylen, -EOPNOTSUPP,
			    "%s: %s has no encoding of %s; skidless list shows the events of this CPU",
			    ep->spec, m->name, name);
	fix = *a;
	fix.config = ge->config[0];
	fix.precise = 0;
	if (level == 2 && ge->config[1]) {
		fix.config = ge->config[1];
		fix.precise = 2;
	}
	skd_event_name(&fix, m, alt, sizeof(alt));
	if (fix.precise)
		return fail(why, whylen, -EOPNOTSUPP,
			    "%s: no precise distribution for %s on %s; use %s",
			    ep->spec, name, m->name, alt);
	return fail(why, whylen, -EOPNOTSUPP,
		    "%s: %s cannot be sampled precisely on %s; use %s",
		    ep->spec, name, m->name, alt);
}

/* Load latency, PEBS and precise distribution of a named or raw event. */
static int check_event(const struct ev_spec *ep, const struct skd_cpu_model *m,
		       const struct skd_event_attr *a, char *why, size_t whylen)
{
	const struct skd_event_def *def, *ld;
	struct skd_event_attr fix = *a;
	char alt[128];
	u64 counters;
	bool pdist;
	int g;

	/* The module has no PEBS for a CPU outside the table. */
	if (!m && (a->precise || a->ldlat))
		return fail(why, whylen, -EOPNOTSUPP,
			    "%s: this CPU's model is not known to skidless, which samples through PEBS (:p, ldlat=) only on the models it knows; drop the %s",
			    ep->spec, a->precise ? "p" : "ldlat=");

	def = ep->def ? ep->def : m ? skd_event_find(m, (u32)a->config) : NULL;
	if (def && (def->flags & SKD_EVF_LDLAT) && (!a->ldlat || !a->precise)) {
		if (!fix.ldlat)
			fix.ldlat = LDLAT_SUGGESTED;
		if (!fix.precise)
			fix.precise = 1;
		skd_event_name(&fix, m, alt, sizeof(alt));
		if (ep->def)
			return fail(why, whylen, -EINVAL,
				    "`%s' samples loads slower than a threshold through PEBS: it needs ldlat=CYCLES and :p, as in %s",
				    ep->spec, alt);
		return fail(why, whylen, -EINVAL,
			    "`%s' is %s, which samples loads slower than a threshold through PEBS: it needs ldlat=CYCLES and :p, as in %s",
			    ep->spec, def->name, alt);
	}
	if (a->ldlat && !(def && (def->flags & SKD_EVF_LDLAT))) {
		ld = model_ldlat_event(m);
		if (!ld)
			return fail(why, whylen, -EINVAL,
				    "`ldlat=%llu' in `%s': %s has no load-latency event",
				    (unsigned long long)a->ldlat, ep->spec,
				    m->name);
		return fail(why, whylen, -EINVAL,
			    "`ldlat=%llu' in `%s' applies to load-latency events only: on %s that is %s",
			    (unsigned long long)a->ldlat, ep->spec, m->name,
			    ld->name);
	}
	if (!m || !a->precise)
		return 0;

	if (def && !(def->flags & SKD_EVF_PEBS)) {
		fix.precise = 0;
		skd_event_name(&fix, m, alt, sizeof(alt));
		return fail(why, whylen, -EOPNOTSUPP,
			    "%s: %s is not PEBS-capable on %s; use %s",
			    ep->spec, def->name, m->name, alt);
	}
	if (!def && !model_pebs_any(m)) {
		/* The encoding of a generic event: the generic name has a PEBS one. */
		for (g = 0; g < SKD_GEN_NR; g++) {
			const struct skd_generic_event *ge = &m->generic[g];

			if (ge->config[0] == a->config && ge->config[1]) {
				fix.precise = a->precise < 3 ? a->precise : 2;
				fix.config = ge->config[1];
				skd_event_name(&fix, m, alt, sizeof(alt));
				return fail(why, whylen, -EOPNOTSUPP,
					    "%s: this encoding is not PEBS-capable on %s; use %s, which samples the same event through PEBS",
					    ep->spec, m->name, alt);
			}
		}
		return fail(why, whylen, -EOPNOTSUPP,
			    "%s: this event is not PEBS-capable on %s (skidless list shows the PEBS events); drop the p",
			    ep->spec, m->name);
	}
	if (a->precise == 3) {
		counters = def ? def->counters : SKD_CTR_ANY_GP;
		pdist = (counters & m->pdist_counters) &&
			(!def || (def->flags & SKD_EVF_PRECDIST));
		if (!pdist) {
			fix.precise = 2;
			skd_event_name(&fix, m, alt, sizeof(alt));
			return fail(why, whylen, -EOPNOTSUPP,
				    "%s: no precise distribution for %s on %s; use %s",
				    ep->spec, def ? def->name : "this event",
				    m->name, alt);
		}
	}
	return 0;
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

int skd_event_parse(const char *spec, const struct skd_cpu_model *m,
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
			   (ep.val[T_EDGE] ? SKD_EVSEL_EDGE : 0) |
			   (ep.val[T_INV] ? SKD_EVSEL_INV : 0) |
			   ep.val[T_CMASK] << 24;
	} else {
		n = strcspn(spec, "/:");
		if (!n)
			return fail(why, whylen, -EINVAL,
				    "`%s' has no event name before the `%c'",
				    spec, spec[0]);
		ep.name = spec;
		ep.namelen = n;
		ret = lookup_name(&ep, m, why, whylen);
		if (ret)
			return ret;
		allowed = ep.kind == EV_GENERIC ? TERMS_GENERIC : TERMS_NAMED;
		ret = parse_tail(&ep, spec + n, allowed, why, whylen);
		if (ret)
			return ret;
		if (ep.kind == EV_NAMED)
			a.config = ep.def->config;
		else if (ep.kind == EV_RAW)
			a.config = ep.raw;
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
	a.ldlat = ep.val[T_LDLAT];
	a.precise = (u8)ep.nr_p;

	if (ep.kind == EV_GENERIC)
		ret = resolve_generic(&ep, m, &a, why, whylen);
	else
		ret = check_event(&ep, m, &a, why, whylen);
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
