// SPDX-License-Identifier: GPL-2.0
/*
 * The session planner: which counter each event gets, and the value of
 * every register while the session samples. A pure function of the CPU's
 * capabilities and the request, so that tests/unit/test_plan.c can check
 * the exact MSR values on the host against the reference
 * (../shared/ref/pmu-intel.md), and the programming and PMI code only copy
 * them out.
 *
 * skd_pmu_plan() applies its rules in this order, one function each:
 *
 *   check_request(), check_event()	the request is well formed (rule 1)
 *   resolve_event()			where an event may count (rule 2)
 *   restrict_pebs()			what PEBS allows (rule 3)
 *   check_ldlat()			load-latency threshold (rule 4)
 *   plan_lbr()				LBR_SELECT or ARCH_LBR_CTL (rule 9)
 *   assign_counters()			one counter per event (rule 5)
 *   plan_period(), program_counter()	periods and controls (rules 7, 6)
 *   plan_pebs_record()			record layout, DS area (rule 8)
 *
 * Every refusal returns -errno with one sentence in @why that names the
 * event and the reason, so the command can print it as it is.
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
/* tests/unit/plan.mk defines it as the format attribute. */
#ifndef __printf
#define __printf(a, b)
#endif
#endif

#include "models.h"
#include "plan.h"

#define EVSEL_MODIFIERS	(SKD_EVSEL_EDGE | SKD_EVSEL_INV | SKD_EVSEL_CMASK)
#define GP_COUNTERS	0xffULL
#define FIXED_COUNTERS	(0xfULL << 32)
#define NAME_LEN	48

/*
 * Counter slots of the assignment search: GP i is slot i, fixed j is
 * slot SKD_MAX_GP + j, so a set of counters fits in a u16.
 */
#define NR_SLOTS	(SKD_MAX_GP + SKD_MAX_FIXED)

/* A fixed counter counts exactly one event (reference 2.1). */
static const struct {
	u16 config;		/* event and umask */
	u8 fixed;
} fixed_events[] = {
	{ 0x00c0, 0 },		/* INST_RETIRED.ANY */
	{ 0x0100, 0 },		/* its pseudo encoding */
	{ 0x003c, 1 },		/* CPU_CLK_UNHALTED.CORE */
	{ 0x0300, 2 },		/* CPU_CLK_UNHALTED.REF_TSC */
	{ 0x0400, 3 },		/* TOPDOWN.SLOTS */
};

static const char *const precise_suffix[] = { "", ":p", ":pp", ":ppp" };

/*
 * The assignment search's bipartite matching (rule 5): events on one
 * side, counter slots on the other.
 */
struct matching {
	u16 allowed[SKD_MAX_EVENTS];	/* free slots each event may take */
	int owner[NR_SLOTS];		/* event in each slot, -1: none */
	u16 seen;			/* slots the last augment() visited */
	u32 reached;			/* events it visited */
};

struct planner {
	const struct skd_pmu_caps *caps;
	const struct skd_plan_request *req;
	struct skd_pmu_plan *plan;
	char *why;
	size_t whylen;
	bool adaptive;			/* PEBS baseline: any counter, groups */
	unsigned int nr_pebs;		/* events sampled with PEBS */
	const struct skd_event_def *def[SKD_MAX_EVENTS];
	u64 allowed[SKD_MAX_EVENTS];	/* GLOBAL_CTRL layout */
	u16 slots[SKD_MAX_EVENTS];	/* the same as slots */
	struct matching scratch;	/* place()'s, one level at a time */
	char cpu[40];			/* the model, for messages */
};

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

static u16 to_slots(u64 counters)
{
	return (counters & GP_COUNTERS) |
	       ((counters & FIXED_COUNTERS) >> (32 - SKD_MAX_GP));
}

static u32 slot_idx(unsigned int slot)
{
	return slot < SKD_MAX_GP ? slot : SKD_IDX_FIXED(slot - SKD_MAX_GP);
}

static u64 existing_counters(const struct skd_pmu_caps *caps)
{
	u32 nr_gp = caps->nr_gp < SKD_MAX_GP ? caps->nr_gp : SKD_MAX_GP;

	return (BIT_ULL(nr_gp) - 1) |
	       ((u64)(caps->fixed_mask & 0xf) << 32);
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

static const char *describe_counters(u64 counters, char *buf, size_t len)
{
	unsigned int gp = counters & GP_COUNTERS;
	unsigned int fx = (counters & FIXED_COUNTERS) >> 32;
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
	return buf;
}

/* The event as perf would name it: its table name, or rXXXX. */
static const char *event_name(const struct planner *p, unsigned int i,
			      char *buf)
{
	u64 config = p->req->events[i].config;

	if (p->def[i] && !(config & EVSEL_MODIFIERS))
		return p->def[i]->name;
	snprintf(buf, NAME_LEN, "r%04llx", (unsigned long long)config);
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

/*
 * Rule 1: one event's fields, and its period. An event's own period (or
 * frequency with SKD_EV_FREQ) wins; else the session's, in the event's
 * mode when the session has both.
 */
static int check_event(struct planner *p, unsigned int i)
{
	const struct skd_event_attr *a = &p->req->events[i];
	const struct skd_plan_request *req = p->req;
	struct skd_planned_event *ev = &p->plan->ev[i];
	const u32 excl = SKD_EV_EXCLUDE_USER | SKD_EV_EXCLUDE_KERNEL;
	bool freq = a->flags & SKD_EV_FREQ;

	/* Unknown flag bits: EOPNOTSUPP, as for the config's (uapi). */
	if (a->flags & ~(u32)__SKD_EV_ALL)
		return fail(p, -EOPNOTSUPP, "event %u: unknown flags 0x%x", i,
			    a->flags & ~(u32)__SKD_EV_ALL);
	if (a->reserved0[0] || a->reserved0[1] || a->reserved0[2] ||
	    a->reserved1)
		return fail(p, -EINVAL,
			    "event %u: reserved fields must be zero", i);
	if (a->config & ~SKD_EVSEL_USER_MASK)
		return fail(p, -EINVAL,
			    "event %u: config 0x%llx sets bits outside event, umask, edge, inv and cmask",
			    i, (unsigned long long)a->config);
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
	return 0;
}

/*
 * Rule 2: where the event may count. Its table entry says which GP
 * counters; a fixed counter is added when it counts exactly this event
 * (no edge, inv or cmask). Pseudo encodings (event 0x00) exist only on
 * their fixed counter.
 */
static int resolve_event(struct planner *p, unsigned int i)
{
	const struct skd_pmu_caps *caps = p->caps;
	u64 config = p->req->events[i].config;
	const struct skd_event_def *def;
	char name[NAME_LEN], where[80];
	u64 allowed, fixed = 0;
	unsigned int f;

	def = skd_event_find(caps->cpu, (u32)config);
	p->def[i] = def;
	allowed = def ? def->counters : SKD_CTR_ANY_GP;
	if (!(config & EVSEL_MODIFIERS)) {
		for (f = 0; f < ARRAY_SIZE(fixed_events); f++)
			if (fixed_events[f].config == (config & 0xffff))
				fixed = SKD_CTR_FIXED(fixed_events[f].fixed);
	}
	if (fixed & ((u64)caps->fixed_mask << 32))
		allowed |= fixed;
	if (!(config & SKD_EVSEL_EVENT)) {
		if (!fixed && (config & EVSEL_MODIFIERS))
			return fail(p, -EINVAL,
				    "`%s`: a pseudo encoding (event 0x00) counts only on its fixed counter, which takes no edge, inv or cmask",
				    event_name(p, i, name));
		if (!fixed)
			return fail(p, -EINVAL,
				    "`%s` is a pseudo encoding (event 0x00) that no fixed counter counts",
				    event_name(p, i, name));
		allowed = fixed;
	}
	if (!(allowed & existing_counters(caps)))
		return fail(p, -EOPNOTSUPP,
			    "`%s` can only count on %s, which %s does not have",
			    event_name(p, i, name),
			    describe_counters(allowed, where, sizeof(where)),
			    p->cpu);
	p->allowed[i] = allowed & existing_counters(caps);
	p->plan->ev[i].flags = def ? def->flags : 0;
	return 0;
}

/* Rule 3: PEBS (precise >= 1) and what it allows. */
static int restrict_pebs(struct planner *p, unsigned int i)
{
	const struct skd_pmu_caps *caps = p->caps;
	const struct skd_event_def *def = p->def[i];
	struct skd_planned_event *ev = &p->plan->ev[i];
	const char *sfx = precise_suffix[ev->precise];
	char name[NAME_LEN];

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
	if (!caps->cpu)
		return fail(p, -EOPNOTSUPP,
			    "`%s%s`: no PEBS on %s, a CPU model skidless does not know",
			    event_name(p, i, name), sfx, p->cpu);
	if (caps->pebs_fmt < 1 || caps->pebs_fmt > 5)
		return fail(p, -EOPNOTSUPP,
			    "`%s%s`: PEBS record format %u is not one skidless decodes",
			    event_name(p, i, name), sfx, caps->pebs_fmt);

	if (!p->adaptive) {
		if (!def || !(def->flags & SKD_EVF_PEBS))
			return fail(p, -EOPNOTSUPP,
				    "`%s` is not PEBS-capable on %s",
				    event_name(p, i, name), caps->cpu->name);
		/* Before adaptive PEBS only GP counters have PEBS. */
		p->allowed[i] &= ~FIXED_COUNTERS;
		if (!p->allowed[i])
			return fail(p, -EOPNOTSUPP,
				    "`%s%s` counts only on fixed counters, which have no PEBS on %s",
				    event_name(p, i, name), sfx,
				    caps->cpu->name);
	}
	if (ev->precise == 3) {
		/*
		 * The table says which of its events have precise
		 * distribution; events it does not list may use the
		 * model's PDIST counters (Golden Cove: any event on GP 0).
		 */
		if (def && !(def->flags & SKD_EVF_PRECDIST))
			return fail(p, -EOPNOTSUPP,
				    "`%s%s`: no precise distribution for this event on %s",
				    event_name(p, i, name), sfx,
				    caps->cpu->name);
		p->allowed[i] &= caps->cpu->pdist_counters;
		if (!p->allowed[i])
			return fail(p, -EOPNOTSUPP,
				    "`%s%s`: no precise distribution for this event on %s",
				    event_name(p, i, name), sfx,
				    caps->cpu->name);
	}

	ev->flags |= SKD_PLAN_PEBS;
	/* Format 1 records the IP after the eventing instruction. */
	if (caps->pebs_fmt >= 2)
		ev->flags |= SKD_PLAN_EXACT;
	p->nr_pebs++;
	return 0;
}

/* Rule 4: load latency. One threshold MSR for the whole PMU. */
static int check_ldlat(struct planner *p, unsigned int i)
{
	const struct skd_event_def *def = p->def[i];
	struct skd_planned_event *ev = &p->plan->ev[i];
	char name[NAME_LEN], other[NAME_LEN];
	unsigned int k;

	if (!def || !(def->flags & SKD_EVF_LDLAT)) {
		if (ev->ldlat)
			return fail(p, -EINVAL,
				    "`%s` is not a load-latency event; ldlat=%llu does not apply",
				    event_name(p, i, name),
				    (unsigned long long)ev->ldlat);
		return 0;
	}
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
	return 0;
}

/*
 * Rule 9: what the LBR keeps, as a "wanted" set in LBR_SELECT's bit
 * positions (bit 0 keep ring 0, bit 1 keep ring > 0, bits 2-8 branch
 * types), then in the polarity of the LBR in use.
 */
#define LBR_TYPES	(SKD_LBRSEL_JCC | SKD_LBRSEL_NEAR_REL_CALL | \
			 SKD_LBRSEL_NEAR_IND_CALL | SKD_LBRSEL_NEAR_RET | \
			 SKD_LBRSEL_NEAR_IND_JMP | SKD_LBRSEL_NEAR_REL_JMP | \
			 SKD_LBRSEL_FAR_BRANCH)
#define LBR_PRIV	(SKD_LBRSEL_CPL_EQ_0 | SKD_LBRSEL_CPL_NEQ_0)

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

/* LBR_SELECT bit -> ARCH_LBR_CTL bit (reference 5.3, 5.6). */
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

static int plan_arch_lbr(struct planner *p, u64 priv, u64 types,
			 bool call_stack)
{
	const struct skd_pmu_caps *caps = p->caps;
	struct skd_pmu_plan *plan = p->plan;
	u64 wanted, ctl = SKD_ARCH_LBR_EN;
	unsigned int b;

	if (call_stack && !(caps->arch_lbr_ebx & 0x4))
		return fail(p, -EOPNOTSUPP,
			    "the architectural LBR of %s has no call-stack mode (CPUID.1CH:EBX[2])",
			    p->cpu);
	if (priv != LBR_PRIV && !(caps->arch_lbr_ebx & 0x1))
		return fail(p, -EOPNOTSUPP,
			    "the architectural LBR of %s cannot keep only user or only kernel branches (CPUID.1CH:EBX[0])",
			    p->cpu);
	if (types && types != LBR_TYPES && !(caps->arch_lbr_ebx & 0x2))
		return fail(p, -EOPNOTSUPP,
			    "the architectural LBR of %s cannot filter branches by type (CPUID.1CH:EBX[1])",
			    p->cpu);

	wanted = priv | types;
	if (call_stack)
		wanted |= SKD_LBRSEL_NEAR_REL_CALL | SKD_LBRSEL_NEAR_IND_CALL |
			  SKD_LBRSEL_NEAR_RET;
	for (b = 0; b < ARRAY_SIZE(arch_lbr_bits); b++)
		if (wanted & arch_lbr_bits[b].lbrsel)
			ctl |= arch_lbr_bits[b].arch;
	if (call_stack)
		ctl |= SKD_ARCH_LBR_CALL_STACK;
	plan->arch_lbr_ctl = ctl;
	plan->arch_lbr_depth = caps->lbr_nr;
	/* Arch LBR has no DEBUGCTL.LBR; freezing is still DEBUGCTL[11]. */
	plan->debugctl = call_stack ? 0 : SKD_DEBUGCTL_FREEZE_LBRS_ON_PMI;
	return 0;
}

static int plan_lbr(struct planner *p)
{
	u32 br = p->req->branch_sample;
	struct skd_pmu_plan *plan = p->plan;
	bool call_stack = br & SKD_BRANCH_CALL_STACK;
	u64 priv = 0, types = 0, wanted;
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
		priv = LBR_PRIV;
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
			wanted |= SKD_LBRSEL_NEAR_REL_CALL |
				  SKD_LBRSEL_NEAR_IND_CALL |
				  SKD_LBRSEL_NEAR_RET;
		plan->lbr_select = (~wanted & SKD_LBRSEL_SUPPRESS_ALL) |
				   (call_stack ? SKD_LBRSEL_CALL_STACK : 0);
		/*
		 * No freezing in call-stack mode: a PMI near a call or return
		 * would move the TOS (reference 5.4).
		 */
		plan->debugctl = SKD_DEBUGCTL_LBR |
				 (call_stack ? 0 : SKD_DEBUGCTL_FREEZE_LBRS_ON_PMI);
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
		m->allowed[order[k]] = p->slots[order[k]] & ~used;
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
		if (!(p->slots[e] & BIT(s)) || (used & BIT(s)))
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

static u64 slots_to_counters(u16 slots)
{
	return (slots & GP_COUNTERS) |
	       ((u64)(slots >> SKD_MAX_GP) << 32);
}

static int explain_nospc(struct planner *p, const struct matching *m,
			 unsigned int e)
{
	u64 gp = existing_counters(p->caps) & GP_COUNTERS;
	u64 counters = slots_to_counters(m->seen);
	char name[NAME_LEN], other[NAME_LEN], where[80];
	unsigned int o, need = 0;

	/* Every event confined to those counters, not just the path's. */
	for (o = 0; o < p->req->nr_events; o++)
		if (!(p->slots[o] & ~m->seen))
			need++;
	describe_counters(counters, where, sizeof(where));
	if (popcount(m->seen) == 1) {
		for (o = 0; o < p->req->nr_events; o++)
			if (o != e && (m->reached & BIT(o)))
				break;
		return fail(p, -ENOSPC, "`%s` needs %s, which `%s` also needs",
			    event_name(p, e, name), where,
			    event_name(p, o, other));
	}
	if (counters == gp)
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
	unsigned int nr = p->req->nr_events, i, k, n;
	u8 order[SKD_MAX_EVENTS];
	int bad;

	/* Fewest allowed counters first, ties by index (insertion sort). */
	for (i = 0; i < nr; i++) {
		p->slots[i] = to_slots(p->allowed[i]);
		n = popcount(p->slots[i]);
		for (k = i; k > 0 && popcount(p->slots[order[k - 1]]) > n; k--)
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

/* Golden Cove cores: :ppp periods below 128 hit an SPR erratum (2.3). */
static bool golden_cove(const struct skd_cpu_model *m)
{
	return m && (!strcmp(m->name, "sapphirerapids") ||
		     !strcmp(m->name, "alderlake"));
}

/*
 * Rule 7: the period, clamped to what the counter can take, and the value
 * that overflows after it. Frequency events start at 10000 events; the
 * PMI adapts it.
 */
static void plan_period(struct planner *p, struct skd_planned_event *ev)
{
	const struct skd_pmu_caps *caps = p->caps;
	bool fixed = SKD_IDX_IS_FIXED(ev->idx);
	u32 width = fixed ? caps->fixed_width : caps->gp_width;
	u64 min = 2, max = width_mask(width) >> 1;

	/* Legacy PMC writes are 32 bits, sign-extended (reference 2.1). */
	if (!fixed && !(caps->flags & SKD_PMU_FW_WRITES) && max > 0x7fffffff)
		max = 0x7fffffff;
	if (ev->precise == 3 && golden_cove(caps->cpu))
		min = 128;
	if (ev->freq)
		ev->period = 10000;
	if (ev->period < min)
		ev->period = min;
	if (ev->period > max)
		ev->period = max;
	ev->reset = skd_counter_reset(ev->period, width);
}

/* Rule 6: the event's control bits, and its bits in the global MSRs. */
static void program_counter(struct planner *p, unsigned int i)
{
	const struct skd_event_attr *a = &p->req->events[i];
	struct skd_planned_event *ev = &p->plan->ev[i];
	struct skd_pmu_plan *plan = p->plan;
	bool user = !(a->flags & SKD_EV_EXCLUDE_USER);
	bool kernel = !(a->flags & SKD_EV_EXCLUDE_KERNEL);
	bool pebs = ev->flags & SKD_PLAN_PEBS;
	u64 bit = 1ULL << ev->idx;
	unsigned int j;
	u64 sel;

	if (SKD_IDX_IS_FIXED(ev->idx)) {
		j = ev->idx - SKD_IDX_FIXED(0);
		if (kernel)
			plan->fixed_ctrl |= SKD_FIXED_OS(j);
		if (user)
			plan->fixed_ctrl |= SKD_FIXED_USR(j);
		if (!pebs)
			plan->fixed_ctrl |= SKD_FIXED_PMI(j);
		else if (p->adaptive)
			plan->fixed_ctrl |= SKD_FIXED_ADAPTIVE(j);
	} else {
		sel = ev->config | SKD_EVSEL_EN;
		if (user)
			sel |= SKD_EVSEL_USR;
		if (kernel)
			sel |= SKD_EVSEL_OS;
		/* A PEBS counter interrupts through the DS threshold. */
		if (!pebs)
			sel |= SKD_EVSEL_INT;
		else if (p->adaptive)
			sel |= SKD_EVSEL_ADAPTIVE;
		plan->eventsel[ev->idx] = sel;
	}

	plan->global_ctrl |= bit;
	if (pebs) {
		plan->pebs_enable |= bit;
		plan->pebs_counters |= bit;
		/* Perfmon v5 dropped the load-latency enable bits. */
		if (ev->ldlat && p->caps->version < 5)
			plan->pebs_enable |= SKD_PEBS_EN_LDLAT(ev->idx);
	} else {
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
	for (i = 0; i < req->nr_events; i++) {
		const struct skd_planned_event *ev = &plan->ev[i];

		if ((ev->flags & SKD_PLAN_PEBS) &&
		    (ev->flags & (SKD_EVF_MEM | SKD_EVF_LDLAT)))
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
			plan->pebs_data_cfg |= SKD_DATACFG_MEMINFO;
		}
		if (p->adaptive && plan->lbr_nr) {
			size += 24 * plan->lbr_nr;
			plan->pebs_data_cfg |= SKD_DATACFG_LBRS |
				((u64)(plan->lbr_nr - 1) << SKD_DATACFG_LBR_SHIFT);
		}
	}
	plan->pebs_record_size = size;
	plan->exact_ip = fmt >= 2;
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
	 * record of headroom per PEBS counter (reference 4.8).
	 */
	plan->large_pebs = !req->callchain && !freq &&
			   p->nr_pebs == req->nr_events &&
			   (!req->branch_sample || plan->lbr_from_record) &&
			   plan->pebs_max_records > p->nr_pebs;
	plan->pebs_threshold_records = plan->large_pebs ?
		plan->pebs_max_records - p->nr_pebs : 1;
	return 0;
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
	if (caps->cpu)
		snprintf(p.cpu, sizeof(p.cpu), "%s", caps->cpu->name);
	else
		snprintf(p.cpu, sizeof(p.cpu), "family %u model 0x%02x",
			 caps->family, caps->model);
	p.adaptive = (caps->flags & SKD_PMU_PEBS_BASELINE) &&
		     caps->pebs_fmt >= 4;

	if (!(caps->flags & SKD_PMU_USABLE))
		return fail(&p, -ENODEV, "%s",
			    caps->why[0] ? caps->why : "the PMU is not usable");
	ret = check_request(&p);
	for (i = 0; !ret && i < req->nr_events; i++)
		ret = check_event(&p, i);
	for (i = 0; !ret && i < req->nr_events; i++) {
		ret = resolve_event(&p, i);
		if (!ret)
			ret = restrict_pebs(&p, i);
		if (!ret)
			ret = check_ldlat(&p, i);
	}
	if (!ret)
		ret = plan_lbr(&p);
	if (!ret)
		ret = assign_counters(&p);
	if (ret)
		return ret;

	plan->nr = req->nr_events;
	for (i = 0; i < plan->nr; i++) {
		plan_period(&p, &plan->ev[i]);
		program_counter(&p, i);
	}
	return plan_pebs_record(&p);
}
