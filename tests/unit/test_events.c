// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for userland/lib/events.c (-e and -j parsing, event names) and
 * userland/lib/pmu_models.c (the PMUs they are parsed for).
 *
 * The oracle is Intel's own event data: every encoding and MSR value
 * expected below was read from kmod/intel/perfmon/DIR/events/LIST_core.json by
 * hand and is written out with the event and file it comes from, never
 * taken from the generated tables or the code under test. Where the
 * expectation is a property (a name parses back into the same event; the
 * counters `skidless list` shows hold the one the planner picks) it is
 * checked over every event of every list.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_info.h"
#include "event_rules.h"
#include "events.h"
#include "models.h"
#include "plan.h"
#include "pmu_models.h"

#define EXU	SKD_EV_EXCLUDE_USER
#define EXK	SKD_EV_EXCLUDE_KERNEL
#define FREQ	SKD_EV_FREQ

/* No note expected / a note expected. */
#define QUIET	false
#define NOTE	true

static unsigned int nr_checks;

/* The nominal PMU of list or alias @name; NULL stands for no PMU known. */
static const struct skd_pmu_caps *pmu(const char *name)
{
	static struct skd_pmu_caps caps[16];
	static const char *names[16];
	unsigned int i;

	if (!name)
		return NULL;
	for (i = 0; i < 16 && names[i]; i++)
		if (!strcmp(names[i], name))
			return &caps[i];
	if (i == 16)
		fail_msg("too many PMUs");
	if (skd_caps_nominal(name, &caps[i]))
		fail_msg("no nominal PMU %s", name);
	names[i] = name;
	return &caps[i];
}

static const char *pname(const char *name)
{
	return name ? name : "(no PMU)";
}

struct want {
	u64 config;
	unsigned int precise;
	u32 flags;
	u64 ldlat, config1, sample;
};

/* Parse @spec on @caps; it must give @w, with a note or not. */
static void expect_caps(const struct skd_pmu_caps *caps, const char *label,
			const char *spec, const struct want *w, bool note)
{
	struct skd_event_attr a, b;
	char why[512], why2[512], name[200];
	int ret;

	nr_checks++;
	memset(&a, 0xa5, sizeof(a));
	memset(why, 'x', sizeof(why));
	ret = skd_event_parse(spec, caps, &a, why, sizeof(why));
	if (ret)
		fail_msg("%s on %s: %d (%s)", spec, label, ret, why);
	if (a.size != sizeof(a) || a.config != w->config ||
	    a.precise != w->precise || a.flags != w->flags ||
	    a.ldlat != w->ldlat || a.config1 != w->config1 ||
	    a.sample_period != w->sample || a.reserved0[0] ||
	    a.reserved0[1] || a.reserved0[2] || a.reserved1)
		fail_msg("%s on %s: config %#llx precise %u flags %#x ldlat %llu config1 %#llx sample %llu size %u",
			 spec, label, (unsigned long long)a.config, a.precise,
			 a.flags, (unsigned long long)a.ldlat,
			 (unsigned long long)a.config1,
			 (unsigned long long)a.sample_period, a.size);
	if (note != !!why[0])
		fail_msg("%s on %s: note \"%s\"", spec, label, why);

	/* The name parses back into the same attr. */
	skd_event_name(&a, caps, name, sizeof(name));
	memset(&b, 0x5a, sizeof(b));
	ret = skd_event_parse(name, caps, &b, why2, sizeof(why2));
	if (ret || memcmp(&a, &b, sizeof(a)))
		fail_msg("%s on %s: name %s parses to %d (%s)", spec, label,
			 name, ret, why2);
}

static void expect(const char *model, const char *spec, u64 config,
		   unsigned int precise, u32 flags, bool note)
{
	struct want w = { .config = config, .precise = precise,
			  .flags = flags };

	expect_caps(pmu(model), pname(model), spec, &w, note);
}

static void expect_extra(const char *model, const char *spec, u64 config,
			 unsigned int precise, u64 ldlat, u64 config1)
{
	struct want w = { .config = config, .precise = precise,
			  .ldlat = ldlat, .config1 = config1 };

	expect_caps(pmu(model), pname(model), spec, &w, QUIET);
}

/* Fail with @err; @why names the spec and holds @word; *attr untouched. */
static void refuse_caps(const struct skd_pmu_caps *caps, const char *label,
			const char *spec, int err, const char *word)
{
	struct skd_event_attr a, before;
	char why[512];
	int ret;

	nr_checks++;
	memset(&a, 0xa5, sizeof(a));
	before = a;
	why[0] = '\0';
	ret = skd_event_parse(spec, caps, &a, why, sizeof(why));
	if (ret != err)
		fail_msg("%s on %s: %d, wanted %d (%s)", spec ? spec : "NULL",
			 label, ret, err, ret ? why : "");
	if (memcmp(&a, &before, sizeof(a)))
		fail_msg("%s on %s: attr written on error", spec, label);
	if (!why[0] || (word && !strstr(why, word)))
		fail_msg("%s on %s: \"%s\" does not say \"%s\"", spec, label,
			 why, word);
}

static void refuse(const char *model, const char *spec, int err,
		   const char *word)
{
	refuse_caps(pmu(model), pname(model), spec, err, word);
}

/* The note of a spec that parses. */
static void note_says(const char *model, const char *spec, const char *word)
{
	struct skd_event_attr a;
	char why[512];

	nr_checks++;
	if (skd_event_parse(spec, pmu(model), &a, why, sizeof(why)))
		fail_msg("%s on %s: %s", spec, pname(model), why);
	if (!strstr(why, word))
		fail_msg("%s on %s: note \"%s\" does not say \"%s\"", spec,
			 pname(model), why, word);
}

/* ---- generic events ------------------------------------------------------ */

struct gen_case {
	const char *model;
	const char *name;
	const char *alias;
	u64 config[4];		/* by number of p's */
	unsigned int precise[4];
	bool note[4];
	int err[4];
};

/*
 * skylakex_core.json (SKX): INST_RETIRED.TOTAL_CYCLES_PS is EventCode
 * 0xC0 UMask 0x01 Invert 1 CounterMask 10, PEBS 2 -> 0x0a8001c0;
 * INST_RETIRED.ANY_P (0xC0) and INST_RETIRED.ANY (fixed 0) have PEBS 0;
 * INST_RETIRED.PREC_DIST is 0xC0/0x01 on counter 1, PEBS 2 -> 0x01c0;
 * BR_INST_RETIRED.ALL_BRANCHES and BR_MISP_RETIRED.ALL_BRANCHES (0xC4,
 * 0xC5) have PEBS 0, their _PEBS events are UMask 0x04 with PEBS 2.
 */
#define SKX_CYCLES_PS	0x0a8001c0ULL
#define SKX_PREC_DIST	0x01c0ULL
#define SKX_BR_PEBS	0x04c4ULL
#define SKX_MISP_PEBS	0x04c5ULL

static const struct gen_case gen_cases[] = {
	{ "skylakex", "cycles", "cpu-cycles",
	  { 0x3c, SKX_CYCLES_PS, SKX_CYCLES_PS, SKX_CYCLES_PS }, { 0, 1, 2, 2 },
	  { QUIET, QUIET, QUIET, NOTE }, { 0 } },
	{ "skylakex", "instructions", "INSTRUCTIONS",
	  { 0xc0, SKX_PREC_DIST, SKX_PREC_DIST, SKX_PREC_DIST }, { 0, 1, 2, 3 },
	  { QUIET }, { 0 } },
	{ "skylakex", "branches", "branch-instructions",
	  { 0xc4, SKX_BR_PEBS, SKX_BR_PEBS, SKX_BR_PEBS }, { 0, 1, 2, 2 },
	  { QUIET, QUIET, QUIET, NOTE }, { 0 } },
	{ "skylakex", "branch-misses", "Branch-Misses",
	  { 0xc5, SKX_MISP_PEBS, SKX_MISP_PEBS, SKX_MISP_PEBS }, { 0, 1, 2, 2 },
	  { QUIET, QUIET, QUIET, NOTE }, { 0 } },

	/*
	 * icelakex_core.json (ICX): CPU_CLK_UNHALTED.THREAD_P (0x3C) and
	 * .THREAD (fixed 1) have Precise 0 and no TOTAL_CYCLES_PS: cycles
	 * samples through PEBS without the exact IP. INST_RETIRED.ANY_P
	 * (0xc0) is Precise 1, and INST_RETIRED.PREC_DIST is fixed counter
	 * 0 (the list has no PDISTCounter: rule 6's *.PREC_DIST). The
	 * branch events are Precise 1 without a PREC_DIST event.
	 */
	{ "icelakex", "cycles", "cpu-cycles", { 0x3c, 0x3c, 0x3c, 0x3c },
	  { 0, 1, 2, 2 }, { QUIET, NOTE, NOTE, NOTE }, { 0 } },
	{ "icx", "instructions", NULL, { 0xc0, 0xc0, 0xc0, 0xc0 },
	  { 0, 1, 2, 3 }, { QUIET }, { 0 } },
	{ "icelakex", "branches", "branch-instructions",
	  { 0xc4, 0xc4, 0xc4, 0xc4 }, { 0, 1, 2, 2 },
	  { QUIET, QUIET, QUIET, NOTE }, { 0 } },
	{ "icelakex", "branch-misses", NULL, { 0xc5, 0xc5, 0xc5, 0xc5 },
	  { 0, 1, 2, 2 }, { QUIET, QUIET, QUIET, NOTE }, { 0 } },

	/*
	 * sapphirerapids_core.json (SPR): CPU_CLK_UNHALTED.THREAD_P Precise
	 * 0; INST_RETIRED.ANY (fixed 0) PDISTCounter 32;
	 * BR_INST_RETIRED.ALL_BRANCHES and BR_MISP_RETIRED.ALL_BRANCHES
	 * (0xc4, 0xc5) Precise 1, PDISTCounter 0.
	 */
	{ "sapphirerapids", "cycles", "cpu-cycles", { 0x3c, 0x3c, 0x3c, 0x3c },
	  { 0, 1, 2, 2 }, { QUIET, NOTE, NOTE, NOTE }, { 0 } },
	{ "spr", "instructions", NULL, { 0xc0, 0xc0, 0xc0, 0xc0 },
	  { 0, 1, 2, 3 }, { QUIET }, { 0 } },
	{ "sapphirerapids", "branches", "branch-instructions",
	  { 0xc4, 0xc4, 0xc4, 0xc4 }, { 0, 1, 2, 3 }, { QUIET }, { 0 } },
	{ "sapphirerapids", "branch-misses", NULL, { 0xc5, 0xc5, 0xc5, 0xc5 },
	  { 0, 1, 2, 3 }, { QUIET }, { 0 } },

	/*
	 * alderlake_gracemont_core.json (GRT): CPU_CLK_UNHALTED.CORE_P
	 * (0x3c) Precise 0; INST_RETIRED.ANY (fixed 0) PDISTCounter 32;
	 * BR_INST_RETIRED.ALL_BRANCHES (0xc4) Precise 1, PDISTCounter NA.
	 */
	{ "alderlake_gracemont", "cycles", NULL, { 0x3c, 0x3c, 0x3c, 0x3c },
	  { 0, 1, 2, 2 }, { QUIET, NOTE, NOTE, NOTE }, { 0 } },
	{ "adl-e", "instructions", NULL, { 0xc0, 0xc0, 0xc0, 0xc0 },
	  { 0, 1, 2, 3 }, { QUIET }, { 0 } },
	{ "alderlake_gracemont", "branches", NULL, { 0xc4, 0xc4, 0xc4, 0xc4 },
	  { 0, 1, 2, 2 }, { QUIET, QUIET, QUIET, NOTE }, { 0 } },

	/* No PMU known: the architectural encodings, without p. */
	{ NULL, "cycles", "cpu-cycles", { 0x3c }, { 0 }, { QUIET },
	  { 0, -EOPNOTSUPP, -EOPNOTSUPP, -EOPNOTSUPP } },
	{ NULL, "instructions", NULL, { 0xc0 }, { 0 }, { QUIET },
	  { 0, -EOPNOTSUPP, -EOPNOTSUPP, -EOPNOTSUPP } },
	{ NULL, "branches", "branch-instructions", { 0xc4 }, { 0 }, { QUIET },
	  { 0, -EOPNOTSUPP, -EOPNOTSUPP, -EOPNOTSUPP } },
	{ NULL, "branch-misses", NULL, { 0xc5 }, { 0 }, { QUIET },
	  { 0, -EOPNOTSUPP, -EOPNOTSUPP, -EOPNOTSUPP } },
};

/* u, k and their combinations: the letters and the flags they give. */
static const struct {
	const char *letters;
	u32 flags;
} privs[] = {
	{ "", 0 },
	{ "u", EXK },
	{ "k", EXU },
	{ "uk", 0 },
	{ "ku", 0 },
	{ "uu", EXK },
};

static void gen_one(const struct gen_case *c, const char *name,
		    unsigned int np, const char *mods, u32 flags,
		    const char *terms, u64 sample, u32 sflags)
{
	struct want w = { .config = c->config[np], .precise = c->precise[np],
			  .flags = flags | sflags, .sample = sample };
	char spec[128];

	if (terms)
		snprintf(spec, sizeof(spec), "%s/%s/%s", name, terms, mods);
	else if (*mods)
		snprintf(spec, sizeof(spec), "%s:%s", name, mods);
	else
		snprintf(spec, sizeof(spec), "%s", name);
	if (c->err[np])
		refuse(c->model, spec, c->err[np], spec);
	else
		expect_caps(pmu(c->model), pname(c->model), spec, &w,
			    c->note[np]);
}

static void test_generic(void **state)
{
	static const char ps[][4] = { "", "p", "pp", "ppp" };
	unsigned int start = nr_checks, np;
	size_t i, j, k;
	char mods[24];

	(void)state;
	for (i = 0; i < ARRAY_SIZE(gen_cases); i++) {
		const struct gen_case *c = &gen_cases[i];
		const char *names[2] = { c->name, c->alias };

		for (j = 0; j < 2 && names[j]; j++) {
			for (np = 0; np < 4; np++) {
				for (k = 0; k < ARRAY_SIZE(privs); k++) {
					u32 f = privs[k].flags;
					const char *l = privs[k].letters;

					snprintf(mods, sizeof(mods), "%s%s", ps[np], l);
					gen_one(c, names[j], np, mods, f, NULL, 0, 0);
					if (!*l || !np)
						continue;
					snprintf(mods, sizeof(mods), "%s%s", l, ps[np]);
					gen_one(c, names[j], np, mods, f, NULL, 0, 0);
				}
				gen_one(c, names[j], np, ps[np], 0,
					"period=10007", 10007, 0);
				snprintf(mods, sizeof(mods), ":%su", ps[np]);
				gen_one(c, names[j], np, mods, EXK,
					"freq=0x3e8", 1000, FREQ);
			}
		}
	}
	print_message("# generic: %u specs\n", nr_checks - start);
}

/* Where the planner puts an event alone. */
static u32 planned_idx(const char *model, const char *spec, u32 *flags)
{
	struct skd_event_attr a;
	char why[512];
	u32 idx = ~0U;

	if (skd_event_parse(spec, pmu(model), &a, why, sizeof(why)))
		fail_msg("%s on %s: %s", spec, model, why);
	if (skd_event_check(pmu(model), &a, flags, &idx, why, sizeof(why)))
		fail_msg("%s on %s: check: %s", spec, model, why);
	nr_checks++;
	return idx;
}

static void test_generic_placement(void **state)
{
	u32 flags;

	(void)state;
	/* SPR BR_INST_RETIRED.ALL_BRANCHES PDISTCounter 0 (sapphirerapids_core.json). */
	assert_int_equal(planned_idx("sapphirerapids", "branches:ppp", &flags), 0);
	assert_true(flags & SKD_PLAN_PEBS);
	assert_true(flags & SKD_PLAN_EXACT);
	/* SKX INST_RETIRED.PREC_DIST Counter 1 (skylakex_core.json). */
	assert_int_equal(planned_idx("skylakex", "instructions:ppp", &flags), 1);
	assert_true(flags & SKD_PLAN_EXACT);
	/* ICX INST_RETIRED.PREC_DIST is fixed counter 0 (icelakex_core.json). */
	assert_int_equal(planned_idx("icelakex", "instructions:ppp", &flags),
			 SKD_IDX_FIXED(0));
	/* ICX cycles: PEBS, but Precise 0 everywhere. */
	planned_idx("icelakex", "cycles:pp", &flags);
	assert_true(flags & SKD_PLAN_PEBS);
	assert_false(flags & SKD_PLAN_EXACT);
	/* SKX TOTAL_CYCLES_PS: Counter 0,2,3; exact. */
	assert_int_not_equal(planned_idx("skylakex", "cycles:pp", &flags), 1);
	assert_true(flags & SKD_PLAN_EXACT);
}

static void test_generic_notes(void **state)
{
	char why[512];
	struct skd_event_attr a;

	(void)state;
	note_says("icelakex", "cycles:ppp",
		  "cycles:ppp on icelakex samples as cycles:pp: no precise distribution for cycles");
	note_says("icelakex", "cycles:pp", "without the exact IP");
	note_says("icelakex", "cycles:p", "imprecise");
	note_says("skylakex", "branches:ppp", "samples as branches:pp");
	/* An encoding Intel does not list samples through PEBS_ALL, no IP. */
	note_says("icelakex", "r1234:p", "not in Intel's list for icelakex");
	note_says("alderlake_gracemont", "branches:ppp",
		  "no precise distribution for branches");
	/* A note does not survive into the next call. */
	assert_int_equal(skd_event_parse("cycles", pmu("icelakex"), &a, why,
					 sizeof(why)), 0);
	assert_string_equal(why, "");
	/* Nor is one needed to parse. */
	assert_int_equal(skd_event_parse("cycles:ppp", pmu("icelakex"), &a,
					 NULL, 0), 0);
	assert_int_equal(a.precise, 2);
	/* No PMU: the sentence says why there is no p. */
	refuse(NULL, "cycles:p", -EOPNOTSUPP, "use cycles without p");
}

/* ---- Intel's names --------------------------------------------------------- */

static void test_named(void **state)
{
	unsigned int start = nr_checks;

	(void)state;
	/* skylakex_core.json MEM_INST_RETIRED.ALL_LOADS: 0xD0/0x81, PEBS 1. */
	expect("skylakex", "MEM_INST_RETIRED.ALL_LOADS:pp", 0x81d0, 2, 0, QUIET);
	expect("skylakex", "mem_inst_retired.all_loads", 0x81d0, 0, 0, QUIET);
	expect("skx", "Mem_Inst_Retired.All_Loads:pu", 0x81d0, 1, EXK, QUIET);
	expect("skylakex", "mem_inst_retired.all_loads:k", 0x81d0, 0, EXU, QUIET);
	{
		struct want w = { .config = 0x81d0, .flags = EXU,
				  .sample = 1009 };

		expect_caps(pmu("skylakex"), "skylakex",
			    "mem_inst_retired.all_loads/period=1009/k", &w,
			    QUIET);
	}
	/* skylakex_core.json MEM_LOAD_RETIRED.L3_MISS: 0xD1/0x20, PEBS 1. */
	expect("skylakex", "mem_load_retired.l3_miss:p", 0x20d1, 1, 0, QUIET);
	/* ... and on Cascade Lake's list (cascadelakex_core.json): the same. */
	expect("cascadelakex", "MEM_LOAD_RETIRED.L3_MISS:pp", 0x20d1, 2, 0,
	       QUIET);
	/* icelakex_core.json MEM_INST_RETIRED.ALL_LOADS: 0xd0/0x81, Precise 1. */
	expect("icelakex", "mem_inst_retired.ALL_LOADS:ppk", 0x81d0, 2, EXU,
	       QUIET);
	/* sapphirerapids_core.json MEM_INST_RETIRED.ALL_LOADS PDISTCounter 0. */
	expect("sapphirerapids", "mem_inst_retired.all_loads:ppp", 0x81d0, 3, 0,
	       QUIET);
	/* alderlake_gracemont_core.json MEM_UOPS_RETIRED.ALL_LOADS: 0xd0/0x81. */
	expect("alderlake_gracemont", "MEM_UOPS_RETIRED.ALL_LOADS:pp", 0x81d0,
	       2, 0, QUIET);
	/* icelakex_core.json CPU_CLK_UNHALTED.THREAD_P: Precise 0, a note. */
	expect("icelakex", "cpu_clk_unhalted.thread_p:p", 0x3c, 1, 0, NOTE);
	/* skylakex_core.json INST_RETIRED.TOTAL_CYCLES_PS (see above). */
	expect("skylakex", "inst_retired.total_cycles_ps:pp", SKX_CYCLES_PS, 2,
	       0, QUIET);
	print_message("# named: %u specs\n", nr_checks - start);
}

static void test_named_ldlat(void **state)
{
	(void)state;
	/*
	 * MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32: EventCode 0xcd UMask 0x01,
	 * MSRIndex 0x3F6, MSRValue 0x20 in skylakex_core.json,
	 * icelakex_core.json and sapphirerapids_core.json; _GT_4 has
	 * MSRValue 0x4 (skylakex_core.json).
	 */
	expect_extra("skylakex", "mem_trans_retired.load_latency_gt_32:p",
		     0x1cd, 1, 32, 0);
	expect_extra("icelakex", "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32:pp",
		     0x1cd, 2, 32, 0);
	expect_extra("sapphirerapids", "mem_trans_retired.load_latency_gt_32:p",
		     0x1cd, 1, 32, 0);
	expect_extra("skylakex", "mem_trans_retired.load_latency_gt_4:p",
		     0x1cd, 1, 4, 0);
	/* ldlat= overrides the threshold the name brings. */
	expect_extra("skylakex", "mem_trans_retired.load_latency_gt_4/ldlat=100/p",
		     0x1cd, 1, 100, 0);
	expect_extra("icelakex", "cpu/event=0xcd,umask=1,ldlat=30/p", 0x1cd, 1,
		     30, 0);
	/* MEM_UOPS_RETIRED.LOAD_LATENCY_GT_32: 0xd0/0x05, MSRValue 0x20 (GRT). */
	expect_extra("alderlake_gracemont",
		     "mem_uops_retired.load_latency_gt_32:p", 0x05d0, 1, 32, 0);

	/* The planner's refusals, passed through with the spec first. */
	refuse("skylakex", "mem_trans_retired.load_latency_gt_32", -EINVAL,
	       "mem_trans_retired.load_latency_gt_32: ");
	refuse("skylakex", "mem_trans_retired.load_latency_gt_32", -EINVAL,
	       "PEBS");
	refuse("skylakex", "mem_trans_retired.load_latency_gt_32:ppp",
	       -EOPNOTSUPP, "precise distribution");
	refuse("icelakex", "cpu/event=0xcd,umask=1/p", -EINVAL, "ldlat");
	/* With cmask it is another encoding, which Intel does not list. */
	refuse("icelakex", "cpu/event=0xcd,umask=1,cmask=2,ldlat=30/p", -EINVAL,
	       "not a load-latency event");
	refuse("icelakex", "mem_trans_retired.load_latency_gt_32/ldlat=70000/p",
	       -EINVAL, "65535");
	refuse("skylakex", "mem_inst_retired.all_loads/ldlat=30/p", -EINVAL,
	       "not a load-latency event");
	refuse("skylakex", "cycles/ldlat=30/p", -EINVAL, "ldlat=30");
	refuse("skylakex", "mem_trans_retired.load_latency_gt_32/ldlat=0/p",
	       -EINVAL, "ldlat=0");
	refuse("skylakex", "mem_trans_retired.load_latency_gt_32/ldlat=3,ldlat=4/p",
	       -EINVAL, "twice");
	/* No PMU, no list: no threshold. */
	refuse(NULL, "cpu/event=0xcd,umask=1,ldlat=30/p", -EOPNOTSUPP, "no PMU");
	refuse(NULL, "r01cd/ldlat=30/", -EOPNOTSUPP, "ldlat=");
}

/* Carries memory info: parse @spec on @model, ask the planner. */
static bool mem_of(const char *model, const char *spec)
{
	struct skd_event_attr a;
	char why[512];

	if (skd_event_parse(spec, pmu(model), &a, why, sizeof(why)))
		fail_msg("%s on %s: %s", spec, model, why);
	return skd_event_carries_mem(pmu(model), &a);
}

/*
 * Which events' samples carry memory info, so record writes ADDR,
 * DATA_SRC and WEIGHT only for them, as perf does: Data_LA in Intel's
 * lists (MEM_INST_RETIRED.ALL_LOADS, MEM_LOAD_RETIRED.L1_MISS) and the
 * load-latency events; not the branch events AutoFDO and BOLT sample,
 * nor cycles, nor anything without PEBS.
 */
static void test_carries_mem(void **state)
{
	static const char *const models[] = { "skylake", "icelake",
					      "sapphirerapids" };
	unsigned int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		const char *m = models[i];

		assert_true(mem_of(m, "mem_inst_retired.all_loads:pp"));
		assert_true(mem_of(m, "mem_load_retired.l1_miss:p"));
		assert_true(mem_of(m, "mem_trans_retired.load_latency_gt_32:p"));
		assert_false(mem_of(m, "br_inst_retired.near_taken:pp"));
		assert_false(mem_of(m, "branches:pp"));
		assert_false(mem_of(m, "cycles:pp"));
		assert_false(mem_of(m, "mem_inst_retired.all_loads"));
	}
	assert_true(mem_of("alderlake_gracemont",
			   "mem_uops_retired.load_latency_gt_32:p"));
}

static void test_frontend_offcore(void **state)
{
	(void)state;
	/* FRONTEND_RETIRED.DSB_MISS: 0xC6/0x01, MSRIndex 0x3F7, MSRValue 0x11 (skylakex_core.json). */
	expect_extra("skylakex", "frontend_retired.dsb_miss:p", 0x1c6, 1, 0,
		     0x11);
	/* FRONTEND_RETIRED.L2_MISS: the same encoding, MSRValue 0x13 (skylakex_core.json). */
	expect_extra("skylakex", "frontend_retired.dsb_miss/frontend=0x13/pp",
		     0x1c6, 2, 0, 0x13);
	expect_extra("skylakex", "cpu/event=0xc6,umask=1,frontend=0x11/p",
		     0x1c6, 1, 0, 0x11);
	/* icelakex_core.json FRONTEND_RETIRED.DSB_MISS: 0xc6/0x01, 0x11. */
	expect_extra("icelakex", "FRONTEND_RETIRED.DSB_MISS:p", 0x1c6, 1, 0,
		     0x11);
	/*
	 * OCR.DEMAND_DATA_RD.L3_MISS: EventCode "0xB7, 0xBB" UMask 0x01
	 * MSRValue 0x3FBFC00001 (icelakex_core.json); EventCode "0x2A,0x2B"
	 * in sapphirerapids_core.json, same MSRValue. The first encoding.
	 */
	expect_extra("icelakex", "ocr.demand_data_rd.l3_miss", 0x1b7, 0, 0,
		     0x3fbfc00001ULL);
	expect_extra("sapphirerapids", "OCR.DEMAND_DATA_RD.L3_MISS", 0x12a, 0,
		     0, 0x3fbfc00001ULL);
	/* OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE: 0xB7/0x01, 0x10001 (skylakex_core.json). */
	expect_extra("skylakex", "offcore_response.demand_data_rd.any_response",
		     0x1b7, 0, 0, 0x10001);
	expect_extra("skylakex", "cpu/event=0xb7,umask=1,offcore_rsp=0x10001/",
		     0x1b7, 0, 0, 0x10001);
	expect_extra("skylakex", "offcore_response/offcore_rsp=0x10001/", 0x1b7,
		     0, 0, 0x10001);

	/* The term must be the event's register. */
	refuse("skylakex", "frontend_retired.dsb_miss/offcore_rsp=0x11/p",
	       -EINVAL, "frontend=N");
	refuse("icelakex", "ocr.demand_data_rd.l3_miss/frontend=1/", -EINVAL,
	       "offcore_rsp=N");
	refuse("icelakex", "cpu/event=0xb7,umask=1,frontend=1,offcore_rsp=1/",
	       -EINVAL, "exclude each other");
	/* The planner: a value without a register, a value it lacks, bad bits. */
	refuse("skylakex", "mem_inst_retired.all_loads/frontend=0x11/p", -EINVAL,
	       "config1");
	refuse("skylakex", "offcore_response", -EINVAL, "config1");
	refuse("skylakex", "frontend_retired.dsb_miss/frontend=0x80000000/p",
	       -EINVAL, "valid bits");
	refuse(NULL, "cpu/event=0xb7,umask=1,offcore_rsp=0x10001/", -EOPNOTSUPP,
	       "extra-MSR");
	refuse("skylakex", "frontend_retired.dsb_miss/frontend=0/p", -EINVAL,
	       "at least 1");
}

/* ---- raw and cpu/.../ -------------------------------------------------------- */

struct raw_case {
	const char *model;
	const char *spec;
	int err;
	const char *word;	/* errors: what why must contain */
	u64 config;
	unsigned int precise;
	u32 flags;
	u64 sample;
};

#define OK(mod, s, cfg, p, fl, smp) \
	{ .model = mod, .spec = s, .config = cfg, .precise = p, .flags = fl, \
	  .sample = smp }
#define ERR(mod, s, e, w) \
	{ .model = mod, .spec = s, .err = e, .word = w }

static const struct raw_case raw_cases[] = {
	/* rNNNN */
	OK(NULL, "r3c", 0x3c, 0, 0, 0),
	OK(NULL, "r003c", 0x3c, 0, 0, 0),
	OK(NULL, "rC0", 0xc0, 0, 0, 0),
	OK(NULL, "r108001c0", 0x108001c0, 0, 0, 0),
	OK(NULL, "r401c0", 0x401c0, 0, 0, 0),		/* edge */
	OK(NULL, "rff00ffff", 0xff00ffff, 0, 0, 0),
	OK(NULL, "r00000000000001c0:k", 0x1c0, 0, EXU, 0),
	OK(NULL, "r1cd/period=1000/", 0x1cd, 0, 0, 1000),
	ERR(NULL, "r01c0:ppp", -EOPNOTSUPP, "r01c0:ppp"),
	ERR(NULL, "r01c0:up", -EOPNOTSUPP, "r01c0:up"),
	ERR(NULL, "cpu/event=0x3c/p", -EOPNOTSUPP, "cpu/event=0x3c/p"),
	ERR(NULL, "r20003c", -EOPNOTSUPP, "any"),	/* AnyThread */
	ERR(NULL, "r10000", -EINVAL, "r10000"),		/* USR */
	ERR(NULL, "r20000", -EINVAL, "r20000"),		/* OS */
	ERR(NULL, "r100000", -EINVAL, "r100000"),	/* INT */
	ERR(NULL, "r400000", -EINVAL, "r400000"),	/* EN */
	ERR(NULL, "r100000000", -EINVAL, "r100000000"),
	ERR(NULL, "r123456789012345678901", -EINVAL, "r123456789012345678901"),
	ERR(NULL, "r", -EINVAL, "`r'"),
	ERR(NULL, "rxyz", -EINVAL, "`rxyz'"),
	ERR(NULL, "r12:pppp", -EINVAL, "pppp"),
	ERR(NULL, "r12/umask=1/", -EINVAL, "umask=1"),

	/* On a PMU the planner decides (see the JSON notes above). */
	OK("skylakex", "r01c0:ppp", SKX_PREC_DIST, 3, 0, 0),
	OK("skylakex", "ra8001c0:pp", SKX_CYCLES_PS, 2, 0, 0),
	OK("skylakex", "r20d1:pp", 0x20d1, 2, 0, 0),
	ERR("skylakex", "r00c0:p", -EOPNOTSUPP, "no PEBS"),
	ERR("skylakex", "r003c:p", -EOPNOTSUPP, "r003c:p"),
	ERR("skylakex", "r20d1:ppp", -EOPNOTSUPP, "precise distribution"),
	/* An encoding Intel does not list: counts anywhere, no PEBS on fmt 3. */
	OK("skylakex", "r1234", 0x1234, 0, 0, 0),
	ERR("skylakex", "r1234:p", -EOPNOTSUPP, "r1234:p"),
	/* AnyThread: perfmon v4 yes, v5 no (SDM; the planner's config mask). */
	OK("skylakex", "cpu/event=0x3c,any/", 0x20003c, 0, 0, 0),
	OK("skylakex", "r20003c", 0x20003c, 0, 0, 0),
	ERR("icelakex", "cpu/event=0x3c,any/", -EINVAL, "any"),
	/* Adaptive PEBS: an unlisted encoding samples through PEBS_ALL. */
	OK("icelakex", "r1234", 0x1234, 0, 0, 0),
	ERR("icelakex", "r1234:ppp", -EOPNOTSUPP, "r1234:ppp"),
	OK("icelakex", "r0100:ppp", 0x100, 3, 0, 0),

	/* cpu/.../ with each term */
	OK("sapphirerapids", "cpu/event=0xd0,umask=0x81/pp", 0x81d0, 2, 0, 0),
	OK("icelakex", "cpu/event=0xd0,umask=0x81/:pp", 0x81d0, 2, 0, 0),
	OK(NULL, "cpu/event=0xd0,umask=0x81/", 0x81d0, 0, 0, 0),
	OK(NULL, "cpu/event=208,umask=129/ku", 0x81d0, 0, 0, 0),
	OK(NULL, "cpu/event=0xc0,umask=1,inv,cmask=16/", 0x108001c0, 0, 0, 0),
	OK(NULL, "cpu/event=0xc0,umask=1,inv=1,cmask=0x10,edge/", 0x108401c0,
	   0, 0, 0),
	OK(NULL, "cpu/event=0xc0,inv=0,edge=0,cmask=0/", 0xc0, 0, 0, 0),
	OK(NULL, "cpu/event=0xff,umask=0xff,cmask=0xff/", 0xff00ffff, 0, 0, 0),
	OK(NULL, "cpu/event=0x3c,period=10007/", 0x3c, 0, 0, 10007),
	OK(NULL, "cpu/event=0x3c,freq=4000/u", 0x3c, 0, FREQ | EXK, 4000),
	OK(NULL, "cpu/EVENT=0x3C,Umask=0X1/", 0x13c, 0, 0, 0),
	OK(NULL, "cpu/event=0,umask=3/", 0x300, 0, 0, 0),
	OK(NULL, "cpu/period=18446744073709551615,event=1/", 1, 0, 0, UINT64_MAX),

	/* cpu/.../ errors */
	ERR(NULL, "cpu//", -EINVAL, "cpu//"),
	ERR(NULL, "cpu/umask=1/", -EINVAL, "event="),
	ERR(NULL, "cpu/event=0x1ff/", -EINVAL, "event=0x1ff"),
	ERR(NULL, "cpu/event=256/", -EINVAL, "event=256"),
	ERR(NULL, "cpu/event=1,umask=0x100/", -EINVAL, "umask=0x100"),
	ERR(NULL, "cpu/event=1,cmask=256/", -EINVAL, "cmask=256"),
	ERR(NULL, "cpu/event=1,ldlat=0/p", -EINVAL, "ldlat=0"),
	ERR(NULL, "cpu/event=1,period=0/", -EINVAL, "period=0"),
	ERR(NULL, "cpu/event=1,freq=0/", -EINVAL, "freq=0"),
	ERR(NULL, "cpu/event=1,period=1,freq=1/", -EINVAL, "freq="),
	ERR(NULL, "cpu/event=1,period=99999999999999999999/", -EINVAL,
	    "period=99999999999999999999"),
	ERR(NULL, "cpu/event=1,foo=2/", -EINVAL, "foo=2"),
	ERR(NULL, "cpu/event=1,,umask=1/", -EINVAL, "event=1,,umask=1"),
	ERR(NULL, "cpu/event=1,/", -EINVAL, "event=1,"),
	ERR(NULL, "cpu/,event=1/", -EINVAL, ",event=1"),
	ERR(NULL, "cpu/event=0xzz/", -EINVAL, "event=0xzz"),
	ERR(NULL, "cpu/event=/", -EINVAL, "event="),
	ERR(NULL, "cpu/event=0x/", -EINVAL, "event=0x"),
	ERR(NULL, "cpu/event=-1/", -EINVAL, "event=-1"),
	ERR(NULL, "cpu/event= 1/", -EINVAL, "event= 1"),
	ERR(NULL, "cpu/event/", -EINVAL, "event"),
	ERR(NULL, "cpu/event=1", -EINVAL, "cpu/event=1"),
	ERR(NULL, "cpu/event=1,event=2/", -EINVAL, "event"),
	ERR(NULL, "cpu/event=1,inv=2/", -EINVAL, "inv=2"),
	ERR(NULL, "cpu/event=1,edge=x/", -EINVAL, "edge=x"),
	ERR(NULL, "cpu/event=1/x", -EINVAL, "`x'"),
	ERR(NULL, "cpu/event=1/P", -EINVAL, "`P'"),
	ERR(NULL, "cpu/event=1/pppp", -EINVAL, "pppp"),
	ERR(NULL, "cpu/event=1/:", -EINVAL, "`:'"),
	ERR(NULL, "cpu/event=1/p:u", -EINVAL, "`:'"),
	ERR(NULL, "cpu/event=1/::p", -EINVAL, "`:'"),
};

static void test_raw(void **state)
{
	unsigned int start = nr_checks;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(raw_cases); i++) {
		const struct raw_case *c = &raw_cases[i];

		struct want w = { .config = c->config, .precise = c->precise,
				  .flags = c->flags, .sample = c->sample };

		if (c->err)
			refuse(c->model, c->spec, c->err, c->word);
		else
			expect_caps(pmu(c->model), pname(c->model), c->spec,
				    &w, QUIET);
	}
	print_message("# raw and cpu//: %u specs\n", nr_checks - start);
}

/* ---- refusals ------------------------------------------------------------- */

static void test_refusals(void **state)
{
	struct skd_pmu_caps c;
	char longname[300];
	size_t i;

	(void)state;
	/* skylakex_core.json INST_RETIRED.ANY_P: PEBS 0. */
	refuse("skylakex", "inst_retired.any_p:p", -EOPNOTSUPP, "no PEBS");
	refuse("skylakex", "inst_retired.any_p:p", -EOPNOTSUPP,
	       "inst_retired.any_p:p: ");
	/* skylakex_core.json MEM_INST_RETIRED.ALL_LOADS: not PREC_DIST. */
	refuse("skylakex", "mem_inst_retired.all_loads:ppp", -EOPNOTSUPP,
	       "precise distribution");
	/* TOPDOWN.SLOTS is in icelakex_core.json, not skylakex_core.json. */
	refuse("skylakex", "topdown.slots", -EINVAL, "not of skylakex");
	refuse("skylakex", "TOPDOWN.SLOTS:p", -EINVAL, "an event of icelake,");
	/* MEM_UOPS_RETIRED.ALL_LOADS: Gracemont's list, not Golden Cove's. */
	refuse("alderlake", "mem_uops_retired.all_loads", -EINVAL,
	       "alderlake_gracemont, not of alderlake_goldencove");
	refuse("skylakex", "no_such.event", -EINVAL, "skidless list");
	/* No PMU known: where the name is from, and how to give it raw. */
	refuse(NULL, "mem_inst_retired.all_loads:pp", -EOPNOTSUPP, "skylakex");
	refuse(NULL, "mem_inst_retired.all_loads", -EOPNOTSUPP, "cpu/event=");
	refuse(NULL, "foo", -EINVAL,
	       "unknown event `foo': skidless list shows the events of this CPU");

	/* A CPU in none of the lists: generic and raw only, no p. */
	assert_int_equal(skd_caps_nominal("skylakex", &c), 0);
	c.events = NULL;
	c.cpu = NULL;
	c.model = 0x3a;
	refuse_caps(&c, "no list", "cycles:p", -EOPNOTSUPP, "Intel's event lists");
	refuse_caps(&c, "no list", "r01c0:pp", -EOPNOTSUPP, "Intel's event lists");
	refuse_caps(&c, "no list", "cpu/event=0xcd,umask=1,ldlat=30/p",
		    -EOPNOTSUPP, "PEBS");
	refuse_caps(&c, "no list", "cpu/event=0xcd,umask=1,ldlat=30/", -EINVAL,
		    "ldlat");
	refuse_caps(&c, "no list", "mem_inst_retired.all_loads", -EOPNOTSUPP,
		    "none of Intel's lists");
	{
		struct want w = { .config = 0x3c };

		expect_caps(&c, "no list", "cycles", &w, QUIET);
		w.config = 0x81d0;
		expect_caps(&c, "no list", "r81d0", &w, QUIET);
	}

	/* Page-table isolation: the planner's EPERM, with its fix. */
	assert_int_equal(skd_caps_nominal("skylakex", &c), 0);
	c.flags |= SKD_PMU_PTI;
	refuse_caps(&c, "skylakex with PTI", "cycles:pp", -EPERM, "pti=off");
	refuse_caps(&c, "skylakex with PTI", "mem_inst_retired.all_loads:p",
		    -EPERM, "pti=off");
	/* An unusable PMU: the planner's ENODEV with the detection's why. */
	assert_int_equal(skd_caps_nominal("icelakex", &c), 0);
	c.flags &= ~(u32)SKD_PMU_USABLE;
	snprintf(c.why, sizeof(c.why), "the hypervisor hides the PMU");
	refuse_caps(&c, "unusable", "cycles", -ENODEV, "hypervisor");
	/* TSX force-abort off: counter 3 is not ours (plan.c resolve_event). */
	assert_int_equal(skd_caps_nominal("skylakex", &c), 0);
	c.flags |= SKD_PMU_TFA;
	{
		/*
		 * skylakex_core.json has no event on counter 3 only; a 4-event
		 * session shows it instead (test_plan's ground), so here only
		 * that a counting event still parses.
		 */
		struct want w = { .config = 0x81d0, .precise = 1 };

		expect_caps(&c, "skylakex with TFA", "mem_inst_retired.all_loads:p",
			    &w, QUIET);
	}

	/* Syntax. */
	refuse(NULL, "", -EINVAL, "empty");
	refuse(NULL, NULL, -EINVAL, "empty");
	refuse(NULL, ":p", -EINVAL, ":p");
	refuse(NULL, "/period=1/", -EINVAL, "/period=1/");
	refuse("skylakex", "foo:pp", -EINVAL, "`foo'");
	refuse("skylakex", "cycles,instructions", -EINVAL,
	       "`cycles,instructions'");
	refuse("skylakex", " cycles", -EINVAL, "` cycles'");
	refuse("skylakex", "cycles:", -EINVAL, "cycles:");
	refuse("skylakex", "cycles:x", -EINVAL, "`x'");
	refuse("skylakex", "cycles:pP", -EINVAL, "`P'");
	refuse("skylakex", "cycles:pppp", -EINVAL, "pppp");
	refuse("skylakex", "cycles::p", -EINVAL, "`:'");
	refuse("skylakex", "cycles:p/", -EINVAL, "`/'");
	refuse("skylakex", "cycles/period=1/x", -EINVAL, "`x'");
	refuse("skylakex", "cycles/cmask=1/", -EINVAL, "cmask=1");
	refuse("skylakex", "cycles/period=0/", -EINVAL, "period=0");
	refuse("skylakex", "cycles/period=5", -EINVAL, "cycles/period=5");
	refuse("skylakex", "cycles/period=5,freq=5/", -EINVAL, "freq=");
	refuse("skylakex", "mem_load_retired.l3_miss/umask=1/", -EINVAL,
	       "umask=1");
	refuse("skylakex", "mem_load_retired.l3_miss/inv/", -EINVAL, "inv");
	refuse("skylakex", "mem_load_retired.l3_miss/bogus=1/", -EINVAL,
	       "bogus=1");

	for (i = 0; i < sizeof(longname) - 1; i++)
		longname[i] = 'a' + i % 26;
	longname[sizeof(longname) - 1] = '\0';
	refuse("skylakex", longname, -EINVAL, "unknown event");
}

static void test_why_buffers(void **state)
{
	char why[256], tiny[8];
	struct skd_event_attr a;

	(void)state;
	assert_int_equal(skd_event_parse("foo", NULL, &a, NULL, 0), -EINVAL);
	assert_int_equal(skd_event_parse("inst_retired.any_p:p", pmu("skylakex"),
					 &a, NULL, 0), -EOPNOTSUPP);
	memset(tiny, 'x', sizeof(tiny));
	assert_int_equal(skd_event_parse("inst_retired.any_p:p", pmu("skylakex"),
					 &a, tiny, sizeof(tiny)), -EOPNOTSUPP);
	assert_int_equal(strlen(tiny), sizeof(tiny) - 1);
	memset(tiny, 'x', sizeof(tiny));
	assert_int_equal(skd_event_parse("cycles:pp", pmu("icelakex"), &a,
					 tiny, sizeof(tiny)), 0);
	assert_int_equal(strlen(tiny), sizeof(tiny) - 1);
	memset(why, 'x', sizeof(why));
	assert_int_equal(skd_event_parse("cycles", NULL, &a, why, 1), 0);
	assert_int_equal(why[0], '\0');
	assert_int_equal(why[1], 'x');
}

/* ---- skd_event_name ---------------------------------------------------------- */

static void name_is(const char *model, const char *spec, const char *want)
{
	const struct skd_pmu_caps *caps = pmu(model);
	struct skd_event_attr a;
	char why[512], name[200];

	nr_checks++;
	if (skd_event_parse(spec, caps, &a, why, sizeof(why)))
		fail_msg("%s on %s: %s", spec, pname(model), why);
	skd_event_name(&a, caps, name, sizeof(name));
	if (strcmp(name, want))
		fail_msg("%s on %s: named %s, wanted %s", spec, pname(model),
			 name, want);
}

static void test_name(void **state)
{
	static const struct {
		const char *model, *spec, *name;
	} cases[] = {
		{ "skylakex", "cycles:pp", "cycles:pp" },
		{ "skylakex", "cpu-cycles:upp", "cycles:ppu" },
		{ "skylakex", "CYCLES:ku", "cycles" },
		{ "skylakex", "MEM_LOAD_RETIRED.L3_MISS:p",
		  "mem_load_retired.l3_miss:p" },
		{ NULL, "r3c", "cycles" },
		{ "skylakex", "r3c:k", "cycles:k" },
		{ NULL, "cycles:u", "cycles:u" },
		{ NULL, "r1234:k", "r1234:k" },
		/* The generic name wins where it parses to the same event. */
		{ "skylakex", "r01c0:ppp", "instructions:ppp" },
		{ "skylakex", "inst_retired.prec_dist:pp", "instructions:pp" },
		{ "skylakex", "r01c0", "inst_retired.prec_dist" },
		{ "skylakex", "ra8001c0:p", "cycles:p" },
		{ "skylakex", "br_inst_retired.all_branches", "branches" },
		{ "skylakex", "r04c4:pp", "branches:pp" },
		{ "icelakex", "cycles:ppp", "cycles:pp" },
		{ "icelakex", "r00c0:ppp", "instructions:ppp" },
		{ "sapphirerapids", "r00c4:ppp", "branches:ppp" },
		/* Intel's name that carries the value, else the raw form. */
		{ "skylakex", "mem_trans_retired.load_latency_gt_4/ldlat=32/p",
		  "mem_trans_retired.load_latency_gt_32:p" },
		{ "skylakex", "cpu/event=0xcd,umask=1,ldlat=30/:p",
		  "cpu/event=0xcd,umask=0x1,ldlat=30/p" },
		{ "skylakex", "cpu/event=0xc6,umask=1,frontend=0x11/p",
		  "frontend_retired.dsb_miss:p" },
		{ "skylakex", "frontend_retired.dsb_miss/frontend=0x13/p",
		  "frontend_retired.l2_miss:p" },
		{ "icelakex", "cpu/event=0xb7,umask=1,offcore_rsp=0x3fbfc00001/",
		  "ocr.demand_data_rd.l3_miss" },
		{ "icelakex", "cpu/event=0xb7,umask=1,offcore_rsp=0x3/u",
		  "cpu/event=0xb7,umask=0x1,offcore_rsp=0x3/u" },
		{ "skylakex", "cycles/period=10007/ppu", "cycles/period=10007/ppu" },
		{ "skylakex", "cycles/freq=99/", "cycles/freq=99/" },
		{ "icelakex", "mem_trans_retired.load_latency_gt_32/freq=99/p",
		  "mem_trans_retired.load_latency_gt_32/freq=99/p" },
		{ "icelakex", "cpu/event=0xcd,umask=1,ldlat=30,freq=99/p",
		  "cpu/event=0xcd,umask=0x1,ldlat=30,freq=99/p" },
		{ NULL, "cpu/cmask=16,inv,umask=1,period=5,edge,event=0xc0/k",
		  "cpu/event=0xc0,umask=0x1,edge,inv,cmask=16,period=5/k" },
		/* skylakex_core.json CPU_CLK_UNHALTED.THREAD_P_ANY: 0x3C AnyThread 1. */
		{ "skylakex", "cpu/event=0x3c,any,period=5/",
		  "cpu_clk_unhalted.thread_p_any/period=5/" },
		{ "skylakex", "cpu/event=0xd0,umask=0x81,any,period=5/",
		  "cpu/event=0xd0,umask=0x81,any,period=5/" },
		{ "icelakex", "cpu/event=0xd1,umask=0x20,cmask=1/pp",
		  "r10020d1:pp" },
	};
	struct skd_event_attr a;
	char buf[40];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		name_is(cases[i].model, cases[i].spec, cases[i].name);

	/* Truncation, and attrs parsing cannot produce. */
	assert_int_equal(skd_event_parse("mem_load_retired.l3_miss:pp",
					 pmu("skylakex"), &a, NULL, 0), 0);
	skd_event_name(&a, pmu("skylakex"), buf, 4);
	assert_string_equal(buf, "mem");
	skd_event_name(&a, pmu("skylakex"), buf, 1);
	assert_string_equal(buf, "");
	memset(buf, 'x', sizeof(buf));
	skd_event_name(&a, pmu("skylakex"), buf, 0);
	assert_int_equal(buf[0], 'x');
	a.flags = EXU | EXK;
	a.precise = 0;
	skd_event_name(&a, pmu("skylakex"), buf, sizeof(buf));
	assert_string_equal(buf, "mem_load_retired.l3_miss");
	memset(&a, 0, sizeof(a));
	a.config = 0x3c;
	a.precise = 1;
	skd_event_name(&a, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "r003c:p");
}

/*
 * Every Intel event of every list, at every level the planner allows,
 * names something that parses back into the same attr.
 */
static void test_name_every_event(void **state)
{
	static const char *const sfx[] = { "", ":p", ":pp", ":ppp" };
	struct skd_event_attr a, b;
	struct skd_pmu_caps caps;
	char spec[160], name[200], why[512];
	unsigned int l, np, n = 0;
	u32 i;

	(void)state;
	for (l = 0; l < skd_nr_event_lists; l++) {
		const struct skd_event_info_list *il = &skd_event_infos[l];

		assert_int_equal(skd_caps_nominal(skd_event_lists[l].name, &caps),
				 0);
		assert_ptr_equal(skd_event_infos_of(&caps), il);
		for (i = 0; i < il->nr_events; i++) {
			for (np = 0; np < 4; np++) {
				snprintf(spec, sizeof(spec), "%s%s",
					 il->events[i].name, sfx[np]);
				if (skd_event_parse(spec, &caps, &a, NULL, 0))
					continue;
				skd_event_name(&a, &caps, name, sizeof(name));
				if (skd_event_parse(name, &caps, &b, why,
						    sizeof(why)) ||
				    memcmp(&a, &b, sizeof(a)))
					fail_msg("%s on %s: %s does not parse back (%s)",
						 spec, il->name, name, why);
				n++;
			}
		}
	}
	nr_checks += n;
	print_message("# names of every list: %u round trips\n", n);
}

/*
 * What `skidless list` shows as an event's counters and PEBS counters
 * holds wherever the planner puts it, on every list.
 */
static void test_slots_agree(void **state)
{
	struct skd_event_attr a;
	struct skd_pmu_caps caps;
	unsigned int l, n = 0;
	u16 counters, pebs;
	u32 i, flags, idx, slot;

	(void)state;
	for (l = 0; l < skd_nr_event_lists; l++) {
		const struct skd_event_info_list *il = &skd_event_infos[l];

		assert_int_equal(skd_caps_nominal(skd_event_lists[l].name, &caps),
				 0);
		for (i = 0; i < il->nr_events; i++) {
			skd_event_info_attr(&caps, &il->events[i], &a);
			skd_event_slots(&caps, a.config, &counters, &pebs);
			for (a.precise = 0; a.precise < 4; a.precise++) {
				if (skd_event_check(&caps, &a, &flags, &idx,
						    NULL, 0))
					continue;
				slot = SKD_IDX_IS_FIXED(idx) ?
				       8 + idx - SKD_IDX_FIXED(0) : idx;
				if (!(counters & (1U << slot)) ||
				    (a.precise && !(pebs & (1U << slot))))
					fail_msg("%s on %s :%u: counter %u outside 0x%x / PEBS 0x%x",
						 il->events[i].name, il->name,
						 a.precise, idx, counters, pebs);
				n++;
			}
		}
	}
	nr_checks += n;
	print_message("# slots shown vs planned: %u placements\n", n);
}

/* ---- the PMUs ------------------------------------------------------------------ */

static void test_nominal(void **state)
{
	static const struct {
		const char *name, *list;
		u32 nr_gp, fixed_mask, pebs_fmt, flags_set, flags_clear;
	} cases[] = {
		{ "skylake", "skylake", 4, 0x7, 3, SKD_PMU_LBR,
		  SKD_PMU_ARCH_LBR | SKD_PMU_PEBS_BASELINE },
		{ "SKX", "skylakex", 4, 0x7, 3, SKD_PMU_LBR, SKD_PMU_ARCH_LBR },
		{ "skylake-x", "skylakex", 4, 0x7, 3, SKD_PMU_LBR, 0 },
		{ "clx", "cascadelakex", 4, 0x7, 3, SKD_PMU_LBR, 0 },
		{ "icx", "icelakex", 8, 0xf, 4,
		  SKD_PMU_LBR | SKD_PMU_PEBS_BASELINE, SKD_PMU_ARCH_LBR },
		{ "icl", "icelake", 8, 0xf, 4, SKD_PMU_PEBS_BASELINE, 0 },
		{ "tgl", "tigerlake", 8, 0xf, 4, SKD_PMU_PEBS_BASELINE, 0 },
		{ "rkl", "rocketlake", 8, 0xf, 4, SKD_PMU_PEBS_BASELINE, 0 },
		{ "spr", "sapphirerapids", 8, 0xf, 5,
		  SKD_PMU_ARCH_LBR | SKD_PMU_PEBS_BASELINE, SKD_PMU_LBR },
		{ "emr", "emeraldrapids", 8, 0xf, 5, SKD_PMU_ARCH_LBR, 0 },
		{ "gnr", "graniterapids", 8, 0xf, 5, SKD_PMU_ARCH_LBR, 0 },
		{ "adl", "alderlake_goldencove", 8, 0xf, 5,
		  SKD_PMU_ARCH_LBR | SKD_PMU_HYBRID, 0 },
		{ "alderlake", "alderlake_goldencove", 8, 0xf, 5, 0, 0 },
		{ "adl-e", "alderlake_gracemont", 6, 0x7, 5,
		  SKD_PMU_ARCH_LBR | SKD_PMU_HYBRID, 0 },
		{ "gracemont", "alderlake_gracemont", 6, 0x7, 5, 0, 0 },
	};
	struct skd_pmu_caps c;
	char names[512];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (skd_caps_nominal(cases[i].name, &c))
			fail_msg("%s: no nominal PMU", cases[i].name);
		assert_non_null(c.events);
		assert_string_equal(c.events->name, cases[i].list);
		assert_string_equal(skd_caps_list_name(cases[i].name),
				    cases[i].list);
		assert_ptr_equal(c.cpu, skd_cpu_model_by_name(cases[i].list));
		/* The part's CPUID maps to its list by Intel's mapfile.csv. */
		assert_ptr_equal(skd_event_list_match(c.family, c.model,
						      c.stepping, c.core_type),
				 c.events);
		assert_int_equal(c.nr_gp, cases[i].nr_gp);
		assert_int_equal(c.fixed_mask, cases[i].fixed_mask);
		assert_int_equal(c.pebs_fmt, cases[i].pebs_fmt);
		assert_int_equal(c.gp_width, 48);
		assert_true((c.flags & cases[i].flags_set) == cases[i].flags_set);
		assert_false(c.flags & cases[i].flags_clear);
		assert_true(c.flags & SKD_PMU_USABLE);
		assert_true(c.flags & SKD_PMU_PEBS);
		assert_int_equal(c.lbr_nr, 32);
		if (c.flags & SKD_PMU_LBR) {
			/* lbr.c intel_pmu_lbr_init_skl(): FROM 0x680, TO 0x6c0, INFO 0xdc0. */
			assert_int_equal(c.lbr_from, 0x680);
			assert_int_equal(c.lbr_to, 0x6c0);
			assert_int_equal(c.lbr_info, 0xdc0);
			assert_int_equal(c.version, 0x4 + (c.pebs_fmt == 4));
		} else {
			assert_int_equal(c.arch_lbr_ebx, 0x7);
			assert_int_equal(c.arch_lbr_ecx, 0x7);
			assert_int_equal(c.version, 5);
		}
		nr_checks++;
	}
	/* Every list has a nominal part. */
	for (i = 0; i < skd_nr_event_lists; i++)
		assert_int_equal(skd_caps_nominal(skd_event_lists[i].name, &c), 0);
	assert_int_equal(skd_caps_nominal("pentium", &c), -ENOENT);
	assert_int_equal(skd_caps_nominal(NULL, &c), -ENOENT);
	assert_null(skd_caps_list_name("sim"));
	skd_caps_nominal_names(names, sizeof(names));
	assert_non_null(strstr(names, "skylakex (skx, skylake-x)"));
	assert_non_null(strstr(names, "alderlake_gracemont (adl-e"));
	skd_caps_nominal_names(names, 12);
	assert_int_equal(strlen(names), 11);
}

/* What GET_PMU reports (the module's skd_pmu_caps_to_info) comes back. */
static void test_caps_from_info(void **state)
{
	struct skd_pmu_info q;
	struct skd_pmu_caps c, back;
	unsigned int i;

	(void)state;
	for (i = 0; i < skd_nr_event_lists; i++) {
		assert_int_equal(skd_caps_nominal(skd_event_lists[i].name, &c), 0);
		memset(&q, 0, sizeof(q));
		q.size = sizeof(q);
		skd_pmu_caps_to_info(&c, &q);
		skd_caps_from_info(&q, &back);
		assert_string_equal(back.vendor, "GenuineIntel");
		assert_int_equal(back.signature, c.signature);
		assert_int_equal(back.family, c.family);
		assert_int_equal(back.model, c.model);
		assert_int_equal(back.stepping, c.stepping);
		assert_int_equal(back.version, c.version);
		assert_int_equal(back.nr_gp, c.nr_gp);
		assert_int_equal(back.gp_width, c.gp_width);
		assert_int_equal(back.nr_fixed, c.nr_fixed);
		assert_int_equal(back.fixed_width, c.fixed_width);
		assert_int_equal(back.fixed_mask, c.fixed_mask);
		assert_int_equal(back.perf_cap, c.perf_cap);
		assert_int_equal(back.pebs_fmt, c.pebs_fmt);
		assert_int_equal(back.lbr_fmt, c.lbr_fmt);
		assert_int_equal(back.lbr_nr, c.lbr_nr);
		assert_int_equal(back.lbr_from, c.lbr_from);
		assert_int_equal(back.lbr_to, c.lbr_to);
		assert_int_equal(back.lbr_info, c.lbr_info);
		assert_int_equal(back.arch_lbr_ebx, c.arch_lbr_ebx);
		assert_int_equal(back.arch_lbr_ecx, c.arch_lbr_ecx);
		assert_int_equal(back.flags, c.flags);
		assert_int_equal(back.core_type, c.core_type);
		assert_ptr_equal(back.events, c.events);
		assert_ptr_equal(back.cpu, c.cpu);
		assert_string_equal(back.why, "");
	}
	/* A version 0 module: arch LBR filters assumed, so only real limits show. */
	assert_int_equal(skd_caps_nominal("spr", &c), 0);
	memset(&q, 0, sizeof(q));
	skd_pmu_caps_to_info(&c, &q);
	q.size = SKD_PMU_INFO_SIZE_VER0;
	q.arch_lbr_ebx = q.arch_lbr_ecx = 0;
	skd_caps_from_info(&q, &back);
	assert_int_equal(back.arch_lbr_ebx, 0x7);
	/* A list this command does not know, and a non-Intel CPU. */
	snprintf(q.model_name, sizeof(q.model_name), "futurelake");
	skd_caps_from_info(&q, &back);
	assert_null(back.events);
	assert_null(back.cpu);
	memset(&q, 0, sizeof(q));
	q.size = sizeof(q);
	q.cpu_signature = 0x00a20f12;	/* family 0x19 */
	snprintf(q.why, sizeof(q.why), "CPU vendor is AuthenticAMD, not Intel");
	skd_caps_from_info(&q, &back);
	assert_string_equal(back.vendor, "");
	assert_int_equal(back.family, 0x19);
	assert_string_equal(back.why, q.why);
	refuse_caps(&back, "AMD", "cycles", -ENODEV, "AuthenticAMD");
}

/* ---- -j and splitting ----------------------------------------------------------- */

static void test_branch(void **state)
{
	static const struct {
		const char *spec;
		u32 bits;
	} ok[] = {
		{ "u", SKD_BRANCH_USER | SKD_BRANCH_ANY },
		{ "k", SKD_BRANCH_KERNEL | SKD_BRANCH_ANY },
		{ "u,k", SKD_BRANCH_USER | SKD_BRANCH_KERNEL | SKD_BRANCH_ANY },
		{ "any", SKD_BRANCH_ANY },
		{ "any_call", SKD_BRANCH_ANY_CALL },
		{ "any_ret", SKD_BRANCH_ANY_RETURN },
		{ "ind_call", SKD_BRANCH_IND_CALL },
		{ "ind_jmp", SKD_BRANCH_IND_JUMP },
		{ "cond", SKD_BRANCH_COND },
		{ "call", SKD_BRANCH_CALL },
		{ "call_stack", SKD_BRANCH_CALL_STACK },
		{ "any,u", SKD_BRANCH_ANY | SKD_BRANCH_USER },
		{ "call_stack,u", SKD_BRANCH_CALL_STACK | SKD_BRANCH_USER },
		{ "any,any,u,u", SKD_BRANCH_ANY | SKD_BRANCH_USER },
		{ "ANY_CALL,K", SKD_BRANCH_ANY_CALL | SKD_BRANCH_KERNEL },
		{ "cond,call,ind_jmp", SKD_BRANCH_COND | SKD_BRANCH_CALL |
		  SKD_BRANCH_IND_JUMP },
		{ "u,k,any,any_call,any_ret,ind_call,ind_jmp,cond,call,call_stack",
		  __SKD_BRANCH_ALL },
	};
	static const struct {
		const char *spec, *word;
	} bad[] = {
		{ "", "empty" },
		{ NULL, "empty" },
		{ ",any", "`,any'" },
		{ "any,", "`any,'" },
		{ "any,,u", "`any,,u'" },
		{ "foo", "`foo'" },
		{ "any,foo", "`foo'" },
		{ "any u", "`any u'" },
		{ "hv", "`hv'" },
		{ "calls", "`calls'" },
	};
	uint32_t bits;
	char why[256];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		bits = 0xdead;
		why[0] = 'x';
		if (skd_branch_parse(ok[i].spec, &bits, why, sizeof(why)) ||
		    bits != ok[i].bits || why[0])
			fail_msg("-j %s: %#x (%s)", ok[i].spec, bits, why);
		nr_checks++;
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		bits = 0xdead;
		if (skd_branch_parse(bad[i].spec, &bits, why, sizeof(why)) !=
		    -EINVAL || bits != 0xdead || !strstr(why, bad[i].word) ||
		    !strstr(why, "call_stack"))
			fail_msg("-j %s: %#x (%s)", bad[i].spec ? bad[i].spec :
				 "NULL", bits, why);
		nr_checks++;
	}
	assert_int_equal(skd_branch_parse("bad", &bits, NULL, 0), -EINVAL);
}

/* Several specs in one -e: split at commas outside term lists. */
static void test_list_split(void **state)
{
	const char *out[4];
	char a[] = "cycles:pp,instructions";
	char b[] = "cpu/event=0xd0,umask=0x81/pp,branches,r01c0:u";
	char c[] = "mem_trans_retired.load_latency_gt_4/ldlat=30,period=1009/p";
	char bad1[] = "cycles,,branches", bad2[] = ",cycles", bad3[] = "cycles,";
	char bad4[] = "", many[] = "a,b,c,d,e";

	(void)state;
	assert_int_equal(skd_event_list_split(a, out, 4), 2);
	assert_string_equal(out[0], "cycles:pp");
	assert_string_equal(out[1], "instructions");
	assert_int_equal(skd_event_list_split(b, out, 4), 3);
	assert_string_equal(out[0], "cpu/event=0xd0,umask=0x81/pp");
	assert_string_equal(out[1], "branches");
	assert_string_equal(out[2], "r01c0:u");
	assert_int_equal(skd_event_list_split(c, out, 4), 1);
	assert_string_equal(out[0],
			    "mem_trans_retired.load_latency_gt_4/ldlat=30,period=1009/p");
	assert_int_equal(skd_event_list_split(bad1, out, 4), -EINVAL);
	assert_int_equal(skd_event_list_split(bad2, out, 4), -EINVAL);
	assert_int_equal(skd_event_list_split(bad3, out, 4), -EINVAL);
	assert_int_equal(skd_event_list_split(bad4, out, 4), -EINVAL);
	assert_int_equal(skd_event_list_split(many, out, 4), -E2BIG);
	print_message("# total: %u checks\n", nr_checks);
}

/*
 * Detection through skd_pmu_detect() on a made-up CPUID: an Alder Lake
 * (family 6, model 0x97) whose hybrid flag (CPUID.7:EDX[15]) is clear, as
 * an i5-12400 or a part with its E-cores off in firmware reports. mapfile.csv
 * lists model 0x97 only with core types; such a part's cores are all of
 * the Core type, so the Golden Cove list applies, not none.
 */
static bool fake_hybrid_flag;

static void fake_cpuid(u32 leaf, u32 sub, u32 r[4])
{
	(void)sub;
	memset(r, 0, 4 * sizeof(u32));
	switch (leaf) {
	case 0:
		r[0] = 0x20;
		memcpy(&r[1], "Genu", 4);
		memcpy(&r[3], "ineI", 4);
		memcpy(&r[2], "ntel", 4);
		break;
	case 1:
		r[0] = 0x90672;		/* family 6, model 0x97, stepping 2 */
		break;
	case 7:
		r[3] = fake_hybrid_flag ? 1U << 15 : 0;
		break;
	case 0xa:
		r[0] = 5 | (8 << 8) | (48 << 16) | (8 << 24);
		r[2] = 0x7;
		r[3] = 48 << 5;
		break;
	case 0x1a:
		r[0] = fake_hybrid_flag ? 0x40000000 : 0;
		break;
	}
}

static int fake_rdmsr(u32 msr, u64 *val)
{
	(void)msr;
	*val = 0;
	return -EIO;
}

static bool fake_no_pti(void)
{
	return false;
}

static void test_detect_adl_without_hybrid_flag(void **state)
{
	const struct skd_pmu_ops ops = {
		.name = "fake", .cpuid = fake_cpuid, .read_msr = fake_rdmsr,
		.pti_active = fake_no_pti,
	};
	struct skd_pmu_caps c;

	(void)state;
	fake_hybrid_flag = false;
	memset(&c, 0, sizeof(c));
	skd_pmu_detect(&ops, &c);
	assert_int_equal(c.model, 0x97);
	assert_non_null(c.events);
	assert_string_equal(c.events->name, "alderlake_goldencove");
	assert_false(c.flags & SKD_PMU_HYBRID);

	/* With the flag, leaf 0x1A's core type decides, as before. */
	fake_hybrid_flag = true;
	memset(&c, 0, sizeof(c));
	skd_pmu_detect(&ops, &c);
	assert_non_null(c.events);
	assert_string_equal(c.events->name, "alderlake_goldencove");
	assert_true(c.flags & SKD_PMU_HYBRID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generic),
		cmocka_unit_test(test_generic_placement),
		cmocka_unit_test(test_generic_notes),
		cmocka_unit_test(test_named),
		cmocka_unit_test(test_named_ldlat),
		cmocka_unit_test(test_carries_mem),
		cmocka_unit_test(test_frontend_offcore),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_why_buffers),
		cmocka_unit_test(test_name),
		cmocka_unit_test(test_name_every_event),
		cmocka_unit_test(test_slots_agree),
		cmocka_unit_test(test_nominal),
		cmocka_unit_test(test_caps_from_info),
		cmocka_unit_test(test_branch),
		cmocka_unit_test(test_list_split),
		cmocka_unit_test(test_detect_adl_without_hybrid_flag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
