// SPDX-License-Identifier: GPL-2.0
/*
 * The session planner: which counter each event gets, and the value of
 * every register while the session samples. A pure function of the CPU's
 * capabilities and the request, so tests/unit/test_plan.c and
 * test_event_data.c check the exact MSR values and every event's placement
 * on the host, against the SDM and Intel's own event data, and the
 * programming and PMI code only copy them out.
 *
 * skd_pmu_plan() applies its rules in this order, one function each:
 *
 *   check_request(), check_event()	the request is well formed (rule 1)
 *   resolve_event()			where an event may count: Intel's
 *					list, fixed aliases, HT off, TFA (2)
 *   restrict_pebs()			where PEBS records it, :ppp (3)
 *   check_extra()			load latency, frontend and offcore
 *					MSR values (4)
 *   add_ldlat_aux()			the load-latency auxiliary event (4)
 *   plan_lbr()				LBR_SELECT or ARCH_LBR_CTL (9)
 *   assign_counters()			one counter per event (5)
 *   check_alone(), plan_offcore()	TakenAlone, response MSRs (5)
 *   plan_period(), program_counter()	periods and controls (7, 6)
 *   plan_pebs_record()			record layout, DS area (8)
 *
 * Every refusal returns -errno with one sentence in @why that names the
 * event, the reason and, where there is one, the fix, so the command can
 * print it as it is.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#endif

#include "event_rules.h"
#include "models.h"
#include "plan.h"

#define EVSEL_MODIFIERS	(ARCH_PERFMON_EVENTSEL_EDGE | ARCH_PERFMON_EVENTSEL_INV | \
			 ARCH_PERFMON_EVENTSEL_CMASK)
#define NAME_LEN	48
#define MAX_PLANNED	(SKD_MAX_EVENTS + 1)

/* The load-latency auxiliary event (core.c is_mem_loads_aux_event()). */
#define LDLAT_AUX_CONFIG	0x8203

/*
 * The assignment search's bipartite matching (rule 5): events on one
 * side, counter slots (event_rules.h's layout) on the other.
 */
#define NR_SLOTS	12

struct matching {
	u16 allowed[MAX_PLANNED];	/* free slots each event may take */
	int owner[NR_SLOTS];		/* event in each slot, -1: none */
	u16 seen;			/* slots the last augment() visited */
	u32 reached;			/* events it visited */
};

/* What one planned event may do, by counter slot. */
struct ev_caps {
	const struct skd_event_rule *rule;	/* NULL: not in Intel's list */
	const struct skd_event_rule *fixed;	/* the fixed counter's rule */
	u16 slots;			/* where it may be placed */
	u16 exact;			/* where records carry the eventing IP */
	u16 data_la;			/* where records carry data addresses */
};

struct planner {
	const struct skd_pmu_caps *caps;
	const struct skd_plan_request *req;
	struct skd_pmu_plan *plan;
	char *why;
	size_t whylen;
	bool adaptive;			/* PEBS baseline: any counter, groups */
	unsigned int nr;		/* planned events, aux included */
	unsigned int nr_pebs;		/* of which PEBS */
	struct skd_event_attr attr[MAX_PLANNED];	/* with session flags */
	struct ev_caps ec[MAX_PLANNED];
	struct matching scratch;	/* place()'s, one level at a time */
	char cpu[48];			/* the model, for messages */
};

static const char *const precise_suffix[] = { "", ":p", ":pp", ":ppp" };

static __printf(3, 4) int fail(struct planner *p, int err, const char *fmt, ...)
{
	va_list ap;

	if (p->why && p->whylen) {
		va_start(ap, fmt);
		vsnprintf(p->why, p->whylen, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* snprintf at *@pos, which never passes the terminating NUL. */
static __printf(4, 5) void append(char *buf, size_t len, size_t *pos,
				  const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*pos + 1 >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos = *pos + n < len ? *pos + n : len - 1;
}

static unsigned int popcount(u64 v)
{
	unsigned int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

static u64 width_mask(u32 width)
{
	return width >= 64 ? ~0ULL : BIT_ULL(width) - 1;
}

u64 skd_counter_reset(u64 period, u32 width)
{
	return (0 - period) & width_mask(width);
}

static u32 slot_idx(unsigned int slot)
{
	return slot < 8 ? slot : SKD_IDX_FIXED(slot - 8);
}

static unsigned int idx_slot(u32 idx)
{
	return SKD_IDX_IS_FIXED(idx) ? 8 + idx - SKD_IDX_FIXED(0) : idx;
}

/* The counter's bit in IA32_PERF_GLOBAL_CTRL and _STATUS. */
static u64 idx_bit(u32 idx)
{
	return BIT_ULL(idx);
}

static u16 existing_slots(const struct skd_pmu_caps *caps)
{
	u32 nr_gp = caps->nr_gp < SKD_MAX_GP ? caps->nr_gp : SKD_MAX_GP;

	return (u16)((BIT(nr_gp) - 1) | ((caps->fixed_mask & 0xf) << 8));
}

/* "counter 1", "counters 0-3 and fixed counter 1", ... */
static void add_ranges(char *buf, size_t len, size_t *pos, unsigned int bits)
{
	const char *sep = "";
	unsigned int i = 0, j;

	while (i < 8) {
		if (!(bits & BIT(i))) {
			i++;
			continue;
		}
		j = i;
		while (j + 1 < 8 && (bits & BIT(j + 1)))
			j++;
		if (j == i)
			append(buf, len, pos, "%s%u", sep, i);
		else
			append(buf, len, pos, "%s%u-%u", sep, i, j);
		sep = ", ";
		i = j + 1;
	}
}

static const char *describe_slots(u16 slots, char *buf, size_t len)
{
	unsigned int gp = slots & SKD_SLOTS_GP, fx = slots >> 8;
	size_t pos = 0;

	buf[0] = '\0';
	if (gp) {
		append(buf, len, &pos, "%s ",
		       popcount(gp) > 1 ? "counters" : "counter");
		add_ranges(buf, len, &pos, gp);
	}
	if (gp && fx)
		append(buf, len, &pos, " and ");
	if (fx) {
		append(buf, len, &pos, "fixed %s ",
		       popcount(fx) > 1 ? "counters" : "counter");
		add_ranges(buf, len, &pos, fx);
	}
	if (!gp && !fx)
		append(buf, len, &pos, "no counter");
	return buf;
}

/* The event as perf would spell a raw one: rXXXX. */
static const char *event_name(const struct planner *p, unsigned int i,
			      char *buf)
{
	if (p->attr[i].config == LDLAT_AUX_CONFIG && i >= p->req->nr_events)
		return "the load-latency auxiliary event r8203";
	snprintf(buf, NAME_LEN, "r%04llx",
		 (unsigned long long)p->attr[i].config);
	return buf;
}

/* Rule 1: the session as a whole. */
static int check_request(struct planner *p)
{
	const struct skd_plan_request *req = p->req;

	if (!req->events || req->nr_events < 1 ||
	    req->nr_events > SKD_MAX_EVENTS)
		return fail(p, -EINVAL,
			    "a session samples 1 to %u events, not %u",
			    SKD_MAX_EVENTS, req->nr_events);
	if (req->branch_sample & ~(u32)__SKD_BRANCH_ALL)
		return fail(p, -EOPNOTSUPP, "unknown branch_sample bits 0x%x",
			    req->branch_sample & ~(u32)__SKD_BRANCH_ALL);
	return 0;
}

/* The config bits an event may set on this PMU. */
static u64 config_mask(const struct skd_pmu_caps *caps)
{
	/* AnyThread: perfmon v3 and v4 only (SDM 18.2.3; v5 deprecates). */
	if (caps->version >= 3 && caps->version < 5)
		return SKD_EVSEL_USER_MASK | ARCH_PERFMON_EVENTSEL_ANY;
	return SKD_EVSEL_USER_MASK;
}

/*
 * Rule 1: one event's fields, and its period. An event's own period (or
 * frequency with SKD_EV_FREQ) wins; else the session's, in the event's
 * mode when the session has both. The session's exclude flags join the
 * event's.
 */
static int check_event(struct planner *p, unsigned int i)
{
	const struct skd_plan_request *req = p->req;
	struct skd_event_attr *a = &p->attr[i];
	struct skd_planned_event *ev = &p->plan->ev[i];
	const u32 excl = SKD_EV_EXCLUDE_USER | SKD_EV_EXCLUDE_KERNEL;
	bool freq;

	*a = req->events[i];
	freq = a->flags & SKD_EV_FREQ;
	/* Unknown flag bits: EOPNOTSUPP, as for the config's (uapi). */
	if (a->flags & ~(u32)__SKD_EV_ALL)
		return fail(p, -EOPNOTSUPP, "event %u: unknown flags 0x%x", i,
			    a->flags & ~(u32)__SKD_EV_ALL);
	a->flags |= req->exclude & excl;
	if (a->reserved0[0] || a->reserved0[1] || a->reserved0[2] ||
	    a->reserved1)
		return fail(p, -EINVAL,
			    "event %u: reserved fields must be zero", i);
	if (a->config & ~config_mask(p->caps))
		return fail(p, -EINVAL,
			    "event %u: config 0x%llx sets bits outside event, umask, edge, %sinv and cmask",
			    i, (unsigned long long)a->config,
			    config_mask(p->caps) & ARCH_PERFMON_EVENTSEL_ANY ? "any, " : "");
	if ((a->flags & excl) == excl)
		return fail(p, -EINVAL,
			    "event %u: excluding both user and kernel leaves nothing to count",
			    i);
	if (a->precise > 3)
		return fail(p, -EINVAL, "event %u: precise is 0 to 3, not %u",
			    i, a->precise);

	if (freq)
		ev->freq = a->sample_freq;
	else
		ev->period = a->sample_period;
	if (!ev->freq && !ev->period) {
		if (freq && req->default_freq)
			ev->freq = req->default_freq;
		else if (req->default_period)
			ev->period = req->default_period;
		else
			ev->freq = req->default_freq;
	}
	if (!ev->freq && !ev->period)
		return fail(p, -EINVAL,
			    "event %u: no sample period or frequency, and the session has none",
			    i);
	/* Above the throttle's rate a frequency could never be met. */
	if (ev->freq > req->max_freq)
		return fail(p, -ERANGE,
			    "event %u: %llu samples/s is above max_sample_rate %u; lower -F or raise that module parameter",
			    i, (unsigned long long)ev->freq, req->max_freq);

	ev->event = i;
	ev->config = a->config;
	ev->precise = a->precise;
	ev->ldlat = a->ldlat;
	ev->config1 = a->config1;
	return 0;
}

/*
 * Rule 2: where the event may count. Intel's list gives the counters
 * (CounterHTOff when the CPU reports more than four GP counters, which
 * Skylake-family parts do with hyper-threading off); a fixed counter is
 * added when it counts exactly this encoding (skd_fixed_alias()). An
 * encoding the list does not have may use any GP counter, as perf lets a
 * raw event. With TSX force-abort off, counter 3 is TSX's (core.c
 * tfa_get_event_constraints(): "Without TFA we must not use PMC3").
 */
static int resolve_event(struct planner *p, unsigned int i)
{
	const struct skd_pmu_caps *caps = p->caps;
	struct ev_caps *ec = &p->ec[i];
	u64 config = p->attr[i].config;
	const struct skd_event_rule *r;
	char name[NAME_LEN], where[80];
	u16 slots;
	int alias;

	r = skd_event_rule_find(caps->events, (u32)config);
	ec->rule = r;
	if (r)
		slots = caps->nr_gp > 4 ? r->counters_htoff : r->counters;
	else if (config & ARCH_PERFMON_EVENTSEL_EVENT)
		slots = SKD_SLOTS_GP;
	else
		return fail(p, -EINVAL,
			    "`%s` is a pseudo encoding (event 0x00) that %s has no fixed counter for",
			    event_name(p, i, name), p->cpu);
	/* A fixed counter counts one event; its rule has that counter's PEBS. */
	if (r && (r->counters & SKD_SLOTS_FIXED))
		ec->fixed = r;
	alias = skd_fixed_alias((u32)config);
	if (alias >= 0) {
		ec->fixed = skd_event_rule_find(caps->events, (alias + 1) << 8);
		slots |= SKD_SLOT_FIXED(alias);
	}
	if (caps->flags & SKD_PMU_TFA)
		slots &= ~SKD_SLOT_GP(3);
	if (!(slots & existing_slots(caps)))
		return fail(p, -EOPNOTSUPP,
			    "`%s` can only count on %s, which %s does not have%s",
			    event_name(p, i, name),
			    describe_slots(slots, where, sizeof(where)), p->cpu,
			    (caps->flags & SKD_PMU_TFA) && slots == SKD_SLOT_GP(3) ?
			    " free (TSX force-abort is off: counter 3 belongs to TSX)" : "");
	ec->slots = slots & existing_slots(caps);
	return 0;
}

/* The PEBS capabilities of @ec by slot: GP from its rule, fixed from the fixed rule. */
static void pebs_slots(const struct planner *p, const struct ev_caps *ec,
		       u16 *pebs, u16 *pdist, u16 *exact, u16 *data_la)
{
	const struct skd_event_rule *g = ec->rule, *f = ec->fixed;

	*pebs = *pdist = *exact = *data_la = 0;
	if (g) {
		*pebs = g->pebs & SKD_SLOTS_GP;
		*pdist = g->pdist & SKD_SLOTS_GP;
		if (g->flags & SKD_RULE_EXACT)
			*exact = *pebs;
		if (g->flags & SKD_RULE_DATA_LA)
			*data_la = *pebs;
	} else if (p->adaptive) {
		/* PEBS_ALL: any event on any GP counter, without a known IP. */
		*pebs = SKD_SLOTS_GP;
	}
	if (f) {
		u16 fs = f->pebs & SKD_SLOTS_FIXED;

		*pebs |= fs;
		*pdist |= f->pdist & SKD_SLOTS_FIXED;
		if (f->flags & SKD_RULE_EXACT)
			*exact |= fs;
		if (f->flags & SKD_RULE_DATA_LA)
			*data_la |= fs;
	}
}

/* Rule 3: PEBS (precise >= 1) and what it allows. */
static int restrict_pebs(struct planner *p, unsigned int i)
{
	const struct skd_pmu_caps *caps = p->caps;
	struct skd_planned_event *ev = &p->plan->ev[i];
	const char *sfx = precise_suffix[ev->precise];
	struct ev_caps *ec = &p->ec[i];
	char name[NAME_LEN], where[80];
	u16 pebs, pdist, exact, data_la, listed;

	if (!ev->precise)
		return 0;
	if (!(caps->flags & SKD_PMU_PEBS))
		return fail(p, -EOPNOTSUPP,
			    "`%s%s` needs PEBS, and there is no PEBS on %s",
			    event_name(p, i, name), sfx, p->cpu);
	if (caps->flags & SKD_PMU_PTI)
		return fail(p, -EPERM,
			    "`%s%s` needs PEBS, which page-table isolation rules out: boot with pti=off, or use a CPU not affected by Meltdown",
			    event_name(p, i, name), sfx);
	if (!caps->events)
		return fail(p, -EOPNOTSUPP,
			    "`%s%s`: no PEBS on %s, a CPU Intel's event lists in skidless do not cover",
			    event_name(p, i, name), sfx, p->cpu);
	if (caps->pebs_fmt < 1 || caps->pebs_fmt > 5)
		return fail(p, -EOPNOTSUPP,
			    "`%s%s`: PEBS record format %u is not one skidless decodes",
			    event_name(p, i, name), sfx, caps->pebs_fmt);

	pebs_slots(p, ec, &pebs, &pdist, &exact, &data_la);
	listed = pebs;
	/*
	 * GP 0-3 and no fixed counter: these parts predate extended PEBS,
	 * and IA32_PEBS_ENABLE bits 32-35 are their load-latency enables.
	 */
	if (caps->cpu && (caps->cpu->flags & SKD_MODEL_PEBS_GP0_3))
		pebs &= 0x00f;
	/*
	 * Fixed counters have IA32_PEBS_ENABLE bits only with PEBS_BASELINE
	 * (IA32_PERF_CAPABILITIES[14]); Linux takes fixed counters as PEBS
	 * counters only then (ds.c intel_ds_init(): PMU_FL_PEBS_ALL).
	 */
	if (!p->adaptive)
		pebs &= SKD_SLOTS_GP;
	if (!(ec->slots & pebs)) {
		if (!listed)
			return fail(p, -EOPNOTSUPP,
				    "`%s%s`: Intel's list for %s gives this event no PEBS; sample it without p",
				    event_name(p, i, name), sfx, p->cpu);
		return fail(p, -EOPNOTSUPP,
			    "`%s%s`: PEBS records it only on %s, which %s cannot give it",
			    event_name(p, i, name), sfx,
			    describe_slots(pebs ? pebs : listed, where,
					   sizeof(where)), p->cpu);
	}
	ec->slots &= pebs;
	if (ev->precise == 3) {
		if (!(ec->slots & pdist))
			return fail(p, -EOPNOTSUPP,
				    "`%s%s`: no precise distribution for this event on %s; use :pp",
				    event_name(p, i, name), sfx, p->cpu);
		ec->slots &= pdist;
	}
	ec->exact = exact;
	ec->data_la = data_la;
	ev->flags |= SKD_PLAN_PEBS;
	p->nr_pebs++;
	return 0;
}

/*
 * What event @config's extra MSR may hold on this model (Linux's
 * extra_regs masks; the front-end ones are per event).
 */
static u64 extra_mask(const struct planner *p, u16 flag, u64 config)
{
	const struct skd_cpu_model *m = p->caps->cpu;

	if (!m)
		return 0;
	if (flag & SKD_RULE_FRONTEND)
		return skd_frontend_mask(m, config);
	return m->offcore_mask;
}

/*
 * Rule 4: the extra MSR an event needs. Load latency takes its threshold
 * from ldlat (one MSR for the whole PMU); front-end and offcore events
 * take config1, checked against the bits the model defines. An event
 * without an extra MSR takes neither.
 */
static int check_extra(struct planner *p, unsigned int i)
{
	const struct skd_event_rule *r = p->ec[i].rule;
	struct skd_planned_event *ev = &p->plan->ev[i];
	u16 need = r ? r->flags & SKD_RULE_EXTRA_MSR : 0;
	char name[NAME_LEN], other[NAME_LEN];
	unsigned int k;
	u64 mask;

	if (!(need & SKD_RULE_LDLAT) && ev->ldlat)
		return fail(p, -EINVAL,
			    "`%s` is not a load-latency event; ldlat=%llu does not apply",
			    event_name(p, i, name),
			    (unsigned long long)ev->ldlat);
	if (!(need & ~SKD_RULE_LDLAT) && ev->config1)
		return fail(p, -EINVAL,
			    "`%s` has no offcore-response or front-end MSR; config1=0x%llx does not apply",
			    event_name(p, i, name),
			    (unsigned long long)ev->config1);
	if (need & SKD_RULE_LDLAT) {
		if (ev->ldlat < 1 || ev->ldlat > 0xffff)
			return fail(p, -EINVAL,
				    "`%s` needs a load-latency threshold ldlat=1..65535, not %llu",
				    event_name(p, i, name),
				    (unsigned long long)ev->ldlat);
		if (!ev->precise)
			return fail(p, -EINVAL,
				    "`%s` is a load-latency event: it samples only with PEBS (:p)",
				    event_name(p, i, name));
		for (k = 0; k < i; k++) {
			const struct skd_planned_event *o = &p->plan->ev[k];

			if (o->ldlat && o->ldlat != ev->ldlat)
				return fail(p, -EINVAL,
					    "event %u (`%s`) wants ldlat=%llu but event %u (`%s`) wants ldlat=%llu; the PMU has one threshold",
					    i, event_name(p, i, name),
					    (unsigned long long)ev->ldlat, k,
					    event_name(p, k, other),
					    (unsigned long long)o->ldlat);
		}
		p->plan->ld_lat = ev->ldlat;
		ev->flags |= SKD_PLAN_LDLAT;
	}
	if (need & ~SKD_RULE_LDLAT) {
		mask = extra_mask(p, need, ev->config);
		if (!mask)
			return fail(p, -EOPNOTSUPP,
				    "`%s`: Linux programs no %s value for this event on %s, and neither does skidless",
				    event_name(p, i, name),
				    need & SKD_RULE_FRONTEND ? "front-end" :
							       "offcore-response",
				    p->cpu);
		if (!ev->config1)
			return fail(p, -EINVAL,
				    "`%s` needs the value of its %s MSR in config1 (Intel's list gives it for each named event)",
				    event_name(p, i, name),
				    need & SKD_RULE_FRONTEND ? "front-end" :
							       "offcore-response");
		if (ev->config1 & ~mask)
			return fail(p, -EINVAL,
				    "`%s`: config1=0x%llx sets bits %s does not define (0x%llx); the valid bits are 0x%llx",
				    event_name(p, i, name),
				    (unsigned long long)ev->config1, p->cpu,
				    (unsigned long long)(ev->config1 & ~mask),
				    (unsigned long long)mask);
		if (need & SKD_RULE_FRONTEND) {
			if (p->plan->frontend &&
			    p->plan->frontend != ev->config1)
				return fail(p, -ENOSPC,
					    "`%s` wants front-end value 0x%llx, another event 0x%llx; the PMU has one MSR_PEBS_FRONTEND",
					    event_name(p, i, name),
					    (unsigned long long)ev->config1,
					    (unsigned long long)p->plan->frontend);
			p->plan->frontend = ev->config1;
		}
	}
	p->plan->extra_msrs |= need;
	return 0;
}

/*
 * Rule 4: on models whose load latency "doesn't function quite right"
 * alone (core.c require_mem_loads_aux_event()), the auxiliary event
 * 0x03/0x82 counts beside it. It is planned like the session's events
 * but never samples.
 */
static int add_ldlat_aux(struct planner *p)
{
	const struct skd_pmu_caps *caps = p->caps;
	struct skd_planned_event *ev;
	unsigned int i, k = p->nr;
	u32 flags = 0;
	bool user = false, kernel = false;

	if (!caps->cpu || !(caps->cpu->flags & SKD_MODEL_LDLAT_AUX) ||
	    !p->plan->ld_lat)
		return 0;
	for (i = 0; i < p->nr; i++) {
		if (!(p->plan->ev[i].flags & SKD_PLAN_LDLAT))
			continue;
		user |= !(p->attr[i].flags & SKD_EV_EXCLUDE_USER);
		kernel |= !(p->attr[i].flags & SKD_EV_EXCLUDE_KERNEL);
	}
	if (!user)
		flags |= SKD_EV_EXCLUDE_USER;
	if (!kernel)
		flags |= SKD_EV_EXCLUDE_KERNEL;
	memset(&p->attr[k], 0, sizeof(p->attr[k]));
	p->attr[k].config = LDLAT_AUX_CONFIG;
	p->attr[k].flags = flags;
	ev = &p->plan->ev[k];
	memset(ev, 0, sizeof(*ev));
	ev->config = LDLAT_AUX_CONFIG;
	ev->period = 1ULL << 30;	/* never meant to overflow */
	ev->event = SKD_PLAN_NO_EVENT;
	ev->flags = SKD_PLAN_AUX;
	p->nr++;
	return resolve_event(p, k);
}

/*
 * Rule 9: what the LBR keeps, as a "wanted" set in LBR_SELECT's bit
 * positions (bit 0 keep ring 0, bit 1 keep ring > 0, bits 2-8 branch
 * types), then in the polarity of the LBR in use. The privilege levels
 * are those the session's events count, narrowed by -j u or k.
 */
#define LBR_TYPES	(SKD_LBRSEL_JCC | SKD_LBRSEL_NEAR_REL_CALL | \
			 SKD_LBRSEL_NEAR_IND_CALL | SKD_LBRSEL_NEAR_RET | \
			 SKD_LBRSEL_NEAR_IND_JMP | SKD_LBRSEL_NEAR_REL_JMP | \
			 SKD_LBRSEL_FAR_BRANCH)
#define LBR_PRIV	(SKD_LBRSEL_CPL_EQ_0 | SKD_LBRSEL_CPL_NEQ_0)
#define LBR_CALLS	(SKD_LBRSEL_NEAR_REL_CALL | SKD_LBRSEL_NEAR_IND_CALL | \
			 SKD_LBRSEL_NEAR_RET)

static const struct {
	u32 branch;		/* SKD_BRANCH_* */
	u64 wanted;		/* SKD_LBRSEL_* positions */
} lbr_types[] = {
	{ SKD_BRANCH_ANY, LBR_TYPES },
	{ SKD_BRANCH_ANY_CALL, SKD_LBRSEL_NEAR_REL_CALL |
			       SKD_LBRSEL_NEAR_IND_CALL |
			       SKD_LBRSEL_FAR_BRANCH },
	{ SKD_BRANCH_ANY_RETURN, SKD_LBRSEL_NEAR_RET | SKD_LBRSEL_FAR_BRANCH },
	{ SKD_BRANCH_IND_CALL, SKD_LBRSEL_NEAR_IND_CALL },
	{ SKD_BRANCH_IND_JUMP, SKD_LBRSEL_NEAR_IND_JMP },
	{ SKD_BRANCH_COND, SKD_LBRSEL_JCC },
	{ SKD_BRANCH_CALL, SKD_LBRSEL_NEAR_REL_CALL },
};

/* LBR_SELECT bit -> ARCH_LBR_CTL bit (SDM 18.1.2.2, 19.1.3). */
static const struct {
	u64 lbrsel;
	u64 arch;
} arch_lbr_bits[] = {
	{ SKD_LBRSEL_CPL_EQ_0, SKD_ARCH_LBR_OS },
	{ SKD_LBRSEL_CPL_NEQ_0, SKD_ARCH_LBR_USR },
	{ SKD_LBRSEL_JCC, SKD_ARCH_LBR_JCC },
	{ SKD_LBRSEL_NEAR_REL_CALL, SKD_ARCH_LBR_REL_CALL },
	{ SKD_LBRSEL_NEAR_IND_CALL, SKD_ARCH_LBR_IND_CALL },
	{ SKD_LBRSEL_NEAR_RET, SKD_ARCH_LBR_RET },
	{ SKD_LBRSEL_NEAR_IND_JMP, SKD_ARCH_LBR_IND_JMP },
	{ SKD_LBRSEL_NEAR_REL_JMP, SKD_ARCH_LBR_REL_JMP },
	{ SKD_LBRSEL_FAR_BRANCH, SKD_ARCH_LBR_OTHER },
};

/* CPUID.1CH:EBX: what the architectural LBR can filter (SDM 19.1.3). */
#define ARCH_LBR_CPL		BIT(0)
#define ARCH_LBR_FILTER		BIT(1)
#define ARCH_LBR_CALL_STACK	BIT(2)

/*
 * Architectural LBR: call-stack mode only with CPL and branch filtering
 * as well, privilege filters only with CPL filtering, types only with
 * branch filtering (lbr.c intel_pmu_arch_lbr_init()).
 */
static int plan_arch_lbr(struct planner *p, u64 priv, u64 types,
			 bool call_stack)
{
	const struct skd_pmu_caps *caps = p->caps;
	struct skd_pmu_plan *plan = p->plan;
	u32 ebx = caps->arch_lbr_ebx;
	u64 wanted, ctl = ARCH_LBR_CTL_LBREN;
	unsigned int b;

	if (call_stack && (~ebx & (ARCH_LBR_CPL | ARCH_LBR_FILTER |
				   ARCH_LBR_CALL_STACK)))
		return fail(p, -EOPNOTSUPP,
			    "the architectural LBR of %s has no call-stack mode: it needs CPL filtering, branch filtering and call stacks (CPUID.1CH:EBX[0..2] = %u%u%u); use --call-graph fp",
			    p->cpu, ebx & 1, (ebx >> 1) & 1, (ebx >> 2) & 1);
	if (priv != LBR_PRIV && !(ebx & ARCH_LBR_CPL))
		return fail(p, -EOPNOTSUPP,
			    "the architectural LBR of %s cannot keep only user or only kernel branches (CPUID.1CH:EBX[0]); count both privilege levels",
			    p->cpu);
	if (types != LBR_TYPES && !call_stack && !(ebx & ARCH_LBR_FILTER))
		return fail(p, -EOPNOTSUPP,
			    "the architectural LBR of %s cannot filter branches by type (CPUID.1CH:EBX[1]); use -j any",
			    p->cpu);

	wanted = priv | types;
	if (call_stack)
		wanted |= LBR_CALLS;
	for (b = 0; b < ARRAY_SIZE(arch_lbr_bits); b++)
		if (wanted & arch_lbr_bits[b].lbrsel)
			ctl |= arch_lbr_bits[b].arch;
	if (call_stack)
		ctl |= ARCH_LBR_CTL_STACK;
	plan->arch_lbr_ctl = ctl;
	plan->arch_lbr_depth = caps->lbr_nr;
	/* Arch LBR has no DEBUGCTL.LBR; freezing is still DEBUGCTL[11]. */
	plan->debugctl = call_stack ? 0 : DEBUGCTLMSR_FREEZE_LBRS_ON_PMI;
	return 0;
}

/* The privilege levels the session's events count, as LBR_SELECT keeps. */
static u64 counted_priv(const struct planner *p)
{
	u64 priv = 0;
	unsigned int i;

	for (i = 0; i < p->req->nr_events; i++) {
		if (!(p->attr[i].flags & SKD_EV_EXCLUDE_USER))
			priv |= SKD_LBRSEL_CPL_NEQ_0;
		if (!(p->attr[i].flags & SKD_EV_EXCLUDE_KERNEL))
			priv |= SKD_LBRSEL_CPL_EQ_0;
	}
	return priv;
}

static int plan_lbr(struct planner *p)
{
	u32 br = p->req->branch_sample;
	struct skd_pmu_plan *plan = p->plan;
	bool call_stack = br & SKD_BRANCH_CALL_STACK;
	u64 priv = 0, counted = counted_priv(p), types = 0, wanted;
	unsigned int t;
	int ret;

	if (!br)
		return 0;
	if (!p->caps->lbr_nr)
		return fail(p, -EOPNOTSUPP,
			    "branch stacks need the LBR; there is no LBR on %s",
			    p->cpu);

	if (br & SKD_BRANCH_USER)
		priv |= SKD_LBRSEL_CPL_NEQ_0;
	if (br & SKD_BRANCH_KERNEL)
		priv |= SKD_LBRSEL_CPL_EQ_0;
	if (!priv)
		priv = counted;
	if (!(priv & counted))
		return fail(p, -EINVAL,
			    "the branch filter keeps only %s branches, and every event excludes %s mode",
			    priv & SKD_LBRSEL_CPL_EQ_0 ? "kernel" : "user",
			    priv & SKD_LBRSEL_CPL_EQ_0 ? "kernel" : "user");
	priv &= counted;
	for (t = 0; t < ARRAY_SIZE(lbr_types); t++)
		if (br & lbr_types[t].branch)
			types |= lbr_types[t].wanted;
	if (!types && !call_stack)
		types = LBR_TYPES;

	if (p->caps->flags & SKD_PMU_ARCH_LBR) {
		ret = plan_arch_lbr(p, priv, types, call_stack);
		if (ret)
			return ret;
	} else {
		/* Bits 0-8 suppress what is not wanted; bit 9 enables. */
		wanted = priv | types;
		if (call_stack)
			wanted |= LBR_CALLS;
		plan->lbr_select = (~wanted & SKD_LBRSEL_SUPPRESS_ALL) |
				   (call_stack ? SKD_LBRSEL_CALL_STACK : 0);
		/*
		 * No freezing in call-stack mode: a PMI near a call or return
		 * would move the TOS (lbr.c __intel_pmu_lbr_enable()).
		 */
		plan->debugctl = DEBUGCTLMSR_LBR |
				 (call_stack ? 0 : DEBUGCTLMSR_FREEZE_LBRS_ON_PMI);
	}
	plan->lbr_nr = p->caps->lbr_nr;
	plan->lbr_from_record = p->adaptive &&
				p->nr_pebs == p->req->nr_events;
	return 0;
}

/*
 * Rule 5: one counter per event. A bipartite matching (augmenting paths)
 * tells whether the events left can still all be placed; the search
 * tries each event's preferred counters in order and keeps a choice only
 * while the rest stays placeable, so it never backtracks far. When no
 * placement exists, the failed augmenting path is a set of events that
 * need more counters than their constraints name together (Hall), which
 * is the sentence for the user.
 */

static bool augment(struct matching *m, unsigned int e)
{
	unsigned int s;

	m->reached |= 1U << e;
	for (s = 0; s < NR_SLOTS; s++) {
		if (!(m->allowed[e] & BIT(s)) || (m->seen & BIT(s)))
			continue;
		m->seen |= 1U << s;
		if (m->owner[s] < 0 || augment(m, m->owner[s])) {
			m->owner[s] = e;
			return true;
		}
	}
	return false;
}

/*
 * Can the events at order[from..nr-1] each get a slot outside @used?
 * -1 if so, else the position of the first that cannot.
 */
static int unplaceable(const struct planner *p, struct matching *m,
		       const u8 *order, unsigned int from, unsigned int nr,
		       u16 used)
{
	unsigned int k, s;

	for (s = 0; s < NR_SLOTS; s++)
		m->owner[s] = -1;
	for (k = from; k < nr; k++)
		m->allowed[order[k]] = p->ec[order[k]].slots & ~used;
	for (k = from; k < nr; k++) {
		m->seen = 0;
		m->reached = 0;
		if (!augment(m, order[k]))
			return k;
	}
	return -1;
}

/* Fixed counters first (they count nothing else), then GP by number. */
static const u8 slot_preference[] = { 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7 };

static bool place(struct planner *p, const u8 *order, unsigned int k,
		  unsigned int nr, u16 used)
{
	unsigned int e, i, s;

	if (k == nr)
		return true;
	e = order[k];
	for (i = 0; i < ARRAY_SIZE(slot_preference); i++) {
		s = slot_preference[i];
		if (!(p->ec[e].slots & BIT(s)) || (used & BIT(s)))
			continue;
		if (unplaceable(p, &p->scratch, order, k + 1, nr,
				used | 1U << s) >= 0)
			continue;
		if (place(p, order, k + 1, nr, used | 1U << s)) {
			p->plan->ev[e].idx = slot_idx(s);
			return true;
		}
	}
	return false;
}

static int explain_nospc(struct planner *p, const struct matching *m,
			 unsigned int e)
{
	u16 gp = existing_slots(p->caps) & SKD_SLOTS_GP;
	char name[NAME_LEN], other[NAME_LEN], where[80];
	unsigned int o, need = 0;

	/* Every event confined to those counters, not just the path's. */
	for (o = 0; o < p->nr; o++)
		if (!(p->ec[o].slots & ~m->seen))
			need++;
	describe_slots(m->seen, where, sizeof(where));
	if (popcount(m->seen) == 1) {
		for (o = 0; o < p->nr; o++)
			if (o != e && (m->reached & BIT(o)))
				break;
		return fail(p, -ENOSPC, "`%s` needs %s, which `%s` also needs",
			    event_name(p, e, name), where,
			    event_name(p, o, other));
	}
	if (m->seen == gp)
		return fail(p, -ENOSPC,
			    "`%s` cannot be placed: %u events need general-purpose counters; %s has %u",
			    event_name(p, e, name), need, p->cpu,
			    popcount(gp));
	return fail(p, -ENOSPC,
		    "`%s` cannot be placed: %u events can only use %s",
		    event_name(p, e, name), need, where);
}

static int assign_counters(struct planner *p)
{
	unsigned int nr = p->nr, i, k, n;
	u8 order[MAX_PLANNED];
	int bad;

	/* Fewest allowed counters first, ties by index (insertion sort). */
	for (i = 0; i < nr; i++) {
		n = popcount(p->ec[i].slots);
		for (k = i; k > 0 && popcount(p->ec[order[k - 1]].slots) > n; k--)
			order[k] = order[k - 1];
		order[k] = i;
	}
	bad = unplaceable(p, &p->scratch, order, 0, nr, 0);
	if (bad >= 0)
		return explain_nospc(p, &p->scratch, order[bad]);
	if (!place(p, order, 0, nr, 0))
		return fail(p, -ENOSPC, "no counter assignment found");
	return 0;
}

/*
 * Rule 5: Intel's TakenAlone: while such an event counts, no other event
 * may use a general-purpose counter (the auxiliary event of its own
 * measurement aside). Fixed counters stay free.
 */
static int check_alone(struct planner *p)
{
	char name[NAME_LEN], other[NAME_LEN];
	unsigned int i, k;

	for (i = 0; i < p->nr; i++) {
		const struct skd_event_rule *r = p->ec[i].rule;

		if (!r || !(r->flags & SKD_RULE_TAKEN_ALONE))
			continue;
		for (k = 0; k < p->nr; k++) {
			if (k == i || SKD_IDX_IS_FIXED(p->plan->ev[k].idx) ||
			    (p->plan->ev[k].flags & SKD_PLAN_AUX))
				continue;
			return fail(p, -ENOSPC,
				    "`%s` must count alone on the general-purpose counters (Intel marks it TakenAlone), but `%s` needs one too; sample them in separate sessions",
				    event_name(p, i, name),
				    event_name(p, k, other));
		}
	}
	return 0;
}

/*
 * Rule 5: the two offcore-response MSRs. An event keeps the MSR of its
 * encoding while that MSR is free or holds the same value, else moves to
 * its other encoding and the other MSR (core.c intel_fixup_er()).
 */
static int plan_offcore(struct planner *p)
{
	struct skd_pmu_plan *plan = p->plan;
	char name[NAME_LEN];
	unsigned int i, m;

	for (i = 0; i < p->nr; i++) {
		const struct skd_event_rule *r = p->ec[i].rule;
		struct skd_planned_event *ev = &plan->ev[i];

		if (!r || !(r->flags & (SKD_RULE_OFFCORE | SKD_RULE_OFFCORE1)))
			continue;
		m = r->flags & SKD_RULE_OFFCORE1 ? 1 : 0;
		if (plan->offcore[m] && plan->offcore[m] != ev->config1) {
			if (!r->alt || (plan->offcore[!m] &&
					plan->offcore[!m] != ev->config1))
				return fail(p, -ENOSPC,
					    "`%s` needs an offcore-response MSR of its own, and both hold other values",
					    event_name(p, i, name));
			m = !m;
			ev->config = (ev->config & ~0xffffULL) | r->alt;
		}
		plan->offcore[m] = ev->config1;
		plan->extra_msrs |= m ? SKD_RULE_OFFCORE1 : SKD_RULE_OFFCORE;
	}
	plan->extra_msrs &= ~(u32)(plan->offcore[0] ? 0 : SKD_RULE_OFFCORE);
	plan->extra_msrs &= ~(u32)(plan->offcore[1] ? 0 : SKD_RULE_OFFCORE1);
	return 0;
}

/*
 * Rule 7: the period, clamped to what the counter can take, and the value
 * that overflows after it. Without full-width writes a GP counter is
 * written through its 32-bit alias, which sign-extends bit 31, so
 * periods stay below 2^31; fixed counters are held to the same bound, as
 * perf's max_period is one for all counters (core.c: max_period = cntval_mask >> 1 only
 * with PERF_CAP_FW_WRITES, written through MSR_IA32_PMC0). Frequency
 * events start at 10000 events; the PMI adapts it.
 */
static void plan_period(struct planner *p, struct skd_planned_event *ev)
{
	const struct skd_pmu_caps *caps = p->caps;
	bool fixed = SKD_IDX_IS_FIXED(ev->idx);
	u32 width = fixed ? caps->fixed_width : caps->gp_width;
	u64 min = 2, max = width_mask(width) >> 1;

	if (!(caps->flags & SKD_PMU_FW_WRITES) && max > 0x7fffffff)
		max = 0x7fffffff;
	if (ev->precise == 3 && caps->cpu &&
	    (caps->cpu->flags & SKD_MODEL_PDIST_MIN128))
		min = 128;
	if (ev->freq)
		ev->period = 10000;
	if (ev->period < min)
		ev->period = min;
	if (ev->period > max)
		ev->period = max;
	ev->max_period = max;
	ev->reset = skd_counter_reset(ev->period, width);
}

/* Rule 6: the event's control bits, and its bits in the global MSRs. */
static void program_counter(struct planner *p, unsigned int i)
{
	const struct skd_event_attr *a = &p->attr[i];
	struct skd_planned_event *ev = &p->plan->ev[i];
	struct skd_pmu_plan *plan = p->plan;
	bool user = !(a->flags & SKD_EV_EXCLUDE_USER);
	bool kernel = !(a->flags & SKD_EV_EXCLUDE_KERNEL);
	bool pebs = ev->flags & SKD_PLAN_PEBS;
	bool aux = ev->flags & SKD_PLAN_AUX;
	unsigned int slot = idx_slot(ev->idx), j;
	u64 bit = idx_bit(ev->idx);
	u64 sel;

	if (pebs && (p->ec[i].exact & BIT(slot)) && p->caps->pebs_fmt >= 2)
		ev->flags |= SKD_PLAN_EXACT;
	if (pebs && (p->ec[i].data_la & BIT(slot)))
		ev->flags |= SKD_PLAN_DATA_LA;
	if (SKD_IDX_IS_FIXED(ev->idx)) {
		j = ev->idx - SKD_IDX_FIXED(0);
		plan->fixed_ctrl_mask |= SKD_FIXED_NIBBLE(j) |
					 SKD_FIXED_ADAPTIVE(j);
		if (kernel)
			plan->fixed_ctrl |= SKD_FIXED_OS(j);
		if (user)
			plan->fixed_ctrl |= SKD_FIXED_USR(j);
		/* THREAD_ANY and its kin: the rule allowed the bit. */
		if (ev->config & ARCH_PERFMON_EVENTSEL_ANY)
			plan->fixed_ctrl |= SKD_FIXED_ANY(j);
		if (!pebs)
			plan->fixed_ctrl |= SKD_FIXED_PMI(j);
		else if (p->adaptive)
			plan->fixed_ctrl |= SKD_FIXED_ADAPTIVE(j);
	} else {
		sel = ev->config | ARCH_PERFMON_EVENTSEL_ENABLE;
		if (user)
			sel |= ARCH_PERFMON_EVENTSEL_USR;
		if (kernel)
			sel |= ARCH_PERFMON_EVENTSEL_OS;
		/* A PEBS counter interrupts through the DS threshold. */
		if (!pebs && !aux)
			sel |= ARCH_PERFMON_EVENTSEL_INT;
		else if (pebs && p->adaptive)
			sel |= ICL_EVENTSEL_ADAPTIVE;
		plan->eventsel[ev->idx] = sel;
	}

	plan->global_ctrl |= bit;
	if (pebs) {
		plan->pebs_enable |= bit;
		plan->pebs_counters |= bit;
		/* Perfmon v5 dropped the load-latency enable bits. */
		if (ev->ldlat && p->caps->version < 5)
			plan->pebs_enable |= SKD_PEBS_EN_LDLAT(ev->idx);
	} else if (!aux) {
		plan->pmi_counters |= bit;
	}
}

/*
 * Rule 8: the PEBS record and the DS area. Adaptive records carry the
 * basic group, memory info when an event has a data address or a
 * latency, and the LBRs when the session asked for branch stacks.
 */
static int plan_pebs_record(struct planner *p)
{
	const struct skd_plan_request *req = p->req;
	struct skd_pmu_plan *plan = p->plan;
	u32 fmt = p->caps->pebs_fmt, size;
	bool mem = false, freq = false;
	unsigned int i;

	if (!p->nr_pebs)
		return 0;
	for (i = 0; i < p->nr; i++) {
		const struct skd_planned_event *ev = &plan->ev[i];

		if ((ev->flags & SKD_PLAN_PEBS) &&
		    (ev->flags & (SKD_PLAN_DATA_LA | SKD_PLAN_LDLAT)))
			mem = true;
		if (ev->freq)
			freq = true;
	}

	if (fmt == 1) {
		size = 176;
	} else if (fmt == 2) {
		size = 192;
	} else if (fmt == 3) {
		size = 200;
	} else {
		size = 32;
		if (p->adaptive && mem) {
			size += 32;
			plan->pebs_data_cfg |= PEBS_DATACFG_MEMINFO;
		}
		if (p->adaptive && plan->lbr_nr && plan->lbr_from_record) {
			size += 24 * plan->lbr_nr;
			plan->pebs_data_cfg |= PEBS_DATACFG_LBRS |
				((u64)(plan->lbr_nr - 1) << PEBS_DATACFG_LBR_SHIFT);
		}
	}
	plan->pebs_record_size = size;
	plan->exact_ip = fmt >= 2;
	plan->lat_split = p->caps->cpu &&
			  (p->caps->cpu->flags & SKD_MODEL_LAT_SPLIT);
	plan->ds_fixed_reset_slot = fmt >= 5 ? SKD_DS_RESET_FIXED_FMT5 :
					       SKD_DS_RESET_FIXED_FMT4;
	plan->pebs_max_records = req->pebs_buffer_bytes / size;
	if (!plan->pebs_max_records)
		return fail(p, -EINVAL,
			    "a PEBS buffer of %u bytes holds no %u-byte record",
			    req->pebs_buffer_bytes, size);

	/*
	 * Several records per PMI only when each record is a whole sample:
	 * no call chain (read at the PMI), no frequency event (re-armed at
	 * each sample), no counter without PEBS, LBRs from the record. One
	 * record of headroom per PEBS counter (ds.c
	 * intel_pmu_pebs_sched_task() and pebs_update_threshold()).
	 */
	plan->large_pebs = !req->callchain && !freq &&
			   p->nr_pebs == req->nr_events &&
			   (!req->branch_sample || plan->lbr_from_record) &&
			   plan->pebs_max_records > p->nr_pebs;
	plan->pebs_threshold_records = plan->large_pebs ?
		plan->pebs_max_records - p->nr_pebs : 1;
	return 0;
}

/*
 * Rules 1 to 7 for every event, in their order. Not inlined: the message
 * buffers of the rules stay out of skd_pmu_plan()'s frame, which holds
 * the planner (a debug kernel's KASAN redzones push the sum past 2 KiB).
 */
static noinline_for_stack int plan_events(struct planner *p)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; !ret && i < p->nr; i++)
		ret = check_event(p, i);
	for (i = 0; !ret && i < p->nr; i++) {
		ret = resolve_event(p, i);
		if (!ret)
			ret = restrict_pebs(p, i);
		if (!ret)
			ret = check_extra(p, i);
	}
	if (!ret)
		ret = add_ldlat_aux(p);
	if (!ret)
		ret = plan_lbr(p);
	if (!ret)
		ret = assign_counters(p);
	if (!ret)
		ret = check_alone(p);
	if (!ret)
		ret = plan_offcore(p);
	return ret;
}

int skd_pmu_plan(const struct skd_pmu_caps *caps,
		 const struct skd_plan_request *req, struct skd_pmu_plan *plan,
		 char *why, size_t whylen)
{
	struct planner p = {
		.caps = caps, .req = req, .plan = plan,
		.why = why, .whylen = whylen,
	};
	unsigned int i;
	int ret;

	memset(plan, 0, sizeof(*plan));
	if (why && whylen)
		why[0] = '\0';
	if (caps->events)
		snprintf(p.cpu, sizeof(p.cpu), "%s", caps->events->name);
	else
		snprintf(p.cpu, sizeof(p.cpu), "family %u model 0x%02x",
			 caps->family, caps->model);
	p.adaptive = (caps->flags & SKD_PMU_PEBS_BASELINE) &&
		     caps->pebs_fmt >= 4;

	if (!(caps->flags & SKD_PMU_USABLE))
		return fail(&p, -ENODEV, "%s",
			    caps->why[0] ? caps->why : "the PMU is not usable");
	ret = check_request(&p);
	if (ret)
		return ret;
	p.nr = req->nr_events;
	ret = plan_events(&p);
	if (ret)
		return ret;

	plan->nr = p.nr;
	plan->pmc_base = caps->flags & SKD_PMU_FW_WRITES ? SKD_MSR_A_PMC(0) :
							    SKD_MSR_PMC(0);
	/*
	 * Every GP counter, fixed-counter-only sessions too: perf's first
	 * event reserves them all (core.c x86_reserve_hardware()), so holding
	 * them is what keeps perf and the NMI watchdog out.
	 */
	plan->gp_reserved = existing_slots(caps) & SKD_SLOTS_GP;
	for (i = 0; i < plan->nr; i++) {
		plan_period(&p, &plan->ev[i]);
		program_counter(&p, i);
	}
	return plan_pebs_record(&p);
}
