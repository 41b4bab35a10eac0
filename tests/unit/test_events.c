// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for userland/lib/events.c: -e and -j parsing and event names.
 *
 * The expected encodings below are written out from kmod/intel/models.c
 * by hand, not read from the table, so a change to the table shows up
 * here; test_named_cover checks that every table event has an entry.
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

#include "events.h"
#include "models.h"

#define EXU	SKD_EV_EXCLUDE_USER
#define EXK	SKD_EV_EXCLUDE_KERNEL
#define FREQ	SKD_EV_FREQ

/* Skylake's cycles:p: inst_retired.prec_dist, inv, cmask 16. */
#define SKL_PCYC	0x108001c0ULL

static unsigned int nr_checks;

static const struct skd_cpu_model *model(const char *name)
{
	const struct skd_cpu_model *m;

	if (!name)
		return NULL;
	m = skd_cpu_model_by_name(name);
	if (!m)
		fail_msg("model %s is not in the table", name);
	return m;
}

static const char *mname(const char *name)
{
	return name ? name : "(none)";
}

/* Parse, and check the result is what skd_event_name gives back. */
static void expect_ok(const char *mod, const char *spec, u64 config,
		      unsigned int precise, u32 flags, u64 ldlat, u64 sample,
		      bool note)
{
	const struct skd_cpu_model *m = model(mod);
	struct skd_event_attr a, b;
	char why[256], why2[256], name[160];
	int ret;

	nr_checks++;
	memset(&a, 0xa5, sizeof(a));
	memset(why, 'x', sizeof(why));
	ret = skd_event_parse(spec, m, &a, why, sizeof(why));
	if (ret)
		fail_msg("%s on %s: %d (%s)", spec, mname(mod), ret, why);
	if (a.size != sizeof(a) || a.config != config ||
	    a.precise != precise || a.flags != flags || a.ldlat != ldlat ||
	    a.sample_period != sample || a.reserved0[0] || a.reserved0[1] ||
	    a.reserved0[2] || a.reserved1)
		fail_msg("%s on %s: config %#llx precise %u flags %#x ldlat %llu sample %llu size %u",
			 spec, mname(mod), (unsigned long long)a.config,
			 a.precise, a.flags, (unsigned long long)a.ldlat,
			 (unsigned long long)a.sample_period, a.size);
	if (note != !!why[0])
		fail_msg("%s on %s: note \"%s\"", spec, mname(mod), why);

	/* The name parses back into the same attr, without a note. */
	skd_event_name(&a, m, name, sizeof(name));
	memset(&b, 0x5a, sizeof(b));
	ret = skd_event_parse(name, m, &b, why2, sizeof(why2));
	if (ret || memcmp(&a, &b, sizeof(a)) || why2[0])
		fail_msg("%s on %s: name %s parses to %d (%s)", spec,
			 mname(mod), name, ret, why2);
}

/* Fail with @err; @why names @token; *attr untouched. */
static void expect_err(const char *mod, const char *spec, int err,
		       const char *token)
{
	const struct skd_cpu_model *m = model(mod);
	struct skd_event_attr a, before;
	char why[512];
	int ret;

	nr_checks++;
	memset(&a, 0xa5, sizeof(a));
	before = a;
	ret = skd_event_parse(spec, m, &a, why, sizeof(why));
	if (ret != err)
		fail_msg("%s on %s: %d, wanted %d (%s)", spec ? spec : "NULL",
			 mname(mod), ret, err, ret ? why : "");
	if (memcmp(&a, &before, sizeof(a)))
		fail_msg("%s on %s: attr written on error", spec, mname(mod));
	if (!why[0] || (token && !strstr(why, token)))
		fail_msg("%s on %s: \"%s\" does not name %s", spec,
			 mname(mod), why, token);
}

/* ---- generic events ----------------------------------------------------- */

struct gen_case {
	const char *model;
	const char *name;
	const char *aliases[3];
	u64 config[4];		/* by number of p's */
	unsigned int precise[4];
	int err[4];
	bool note[4];
};

#define NOPPP	{ 0, 0, 0, -EOPNOTSUPP }
#define NOP	{ 0, -EOPNOTSUPP, -EOPNOTSUPP, -EOPNOTSUPP }
#define P0123	{ 0, 1, 2, 3 }

static const struct gen_case gen_cases[] = {
	{ .model = "skylake", .name = "cycles",
	  .aliases = { "cpu-cycles", "CYCLES" },
	  .config = { 0x3c, SKL_PCYC, SKL_PCYC, SKL_PCYC }, .precise = P0123 },
	{ .model = "skylake", .name = "instructions",
	  .aliases = { "Instructions" },
	  .config = { 0xc0, 0xc0, 0xc0, 0x1c0 }, .precise = P0123 },
	{ .model = "skylake", .name = "branches",
	  .aliases = { "branch-instructions" },
	  .config = { 0xc4, 0xc4, 0xc4 }, .precise = P0123, .err = NOPPP },
	{ .model = "skylake", .name = "branch-misses",
	  .aliases = { "BRANCH-MISSES" },
	  .config = { 0xc5, 0xc5, 0xc5 }, .precise = P0123, .err = NOPPP },

	/* Ice Lake: cycles:ppp samples as :pp, with a note. */
	{ .model = "icelake", .name = "cycles", .aliases = { "cpu-cycles" },
	  .config = { 0x3c, 0x3c, 0x3c, 0x3c }, .precise = { 0, 1, 2, 2 },
	  .note = { false, false, false, true } },
	{ .model = "icelake", .name = "instructions",
	  .config = { 0xc0, 0xc0, 0xc0, 0x100 }, .precise = P0123 },
	{ .model = "icelake", .name = "branches",
	  .aliases = { "branch-instructions" },
	  .config = { 0xc4, 0xc4, 0xc4 }, .precise = P0123, .err = NOPPP },
	{ .model = "icelake", .name = "branch-misses",
	  .config = { 0xc5, 0xc5, 0xc5 }, .precise = P0123, .err = NOPPP },

	{ .model = "sapphirerapids", .name = "cycles",
	  .aliases = { "cpu-cycles" },
	  .config = { 0x3c, 0x3c, 0x3c, 0x3c }, .precise = P0123 },
	{ .model = "sapphirerapids", .name = "instructions",
	  .config = { 0xc0, 0xc0, 0xc0, 0x100 }, .precise = P0123 },
	{ .model = "sapphirerapids", .name = "branches",
	  .aliases = { "branch-instructions" },
	  .config = { 0xc4, 0xc4, 0xc4, 0xc4 }, .precise = P0123 },
	{ .model = "sapphirerapids", .name = "branch-misses",
	  .config = { 0xc5, 0xc5, 0xc5, 0xc5 }, .precise = P0123 },

	{ .model = "alderlake", .name = "cycles", .aliases = { "cpu-cycles" },
	  .config = { 0x3c, 0x3c, 0x3c, 0x3c }, .precise = P0123 },
	{ .model = "alderlake", .name = "instructions",
	  .config = { 0xc0, 0xc0, 0xc0, 0x100 }, .precise = P0123 },
	{ .model = "alderlake", .name = "branches",
	  .aliases = { "branch-instructions" },
	  .config = { 0xc4, 0xc4, 0xc4, 0xc4 }, .precise = P0123 },
	{ .model = "alderlake", .name = "branch-misses",
	  .config = { 0xc5, 0xc5, 0xc5, 0xc5 }, .precise = P0123 },

	/* Not in the table: architectural encodings, no precision. */
	{ .name = "cycles", .aliases = { "cpu-cycles" }, .config = { 0x3c },
	  .err = NOP },
	{ .name = "instructions", .config = { 0xc0 }, .err = NOP },
	{ .name = "branches", .aliases = { "branch-instructions" },
	  .config = { 0xc4 }, .err = NOP },
	{ .name = "branch-misses", .config = { 0xc5 }, .err = NOP },
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
	char spec[128];

	if (terms)
		snprintf(spec, sizeof(spec), "%s/%s/%s", name, terms, mods);
	else if (*mods)
		snprintf(spec, sizeof(spec), "%s:%s", name, mods);
	else
		snprintf(spec, sizeof(spec), "%s", name);
	if (c->err[np])
		expect_err(c->model, spec, c->err[np], spec);
	else
		expect_ok(c->model, spec, c->config[np], c->precise[np],
			  flags | sflags, 0, sample, c->note[np]);
}

static void test_generic(void **state)
{
	static const char ps[][4] = { "", "p", "pp", "ppp" };
	unsigned int start = nr_checks;
	size_t i, j, k;
	unsigned int np;
	char mods[24];

	(void)state;
	for (i = 0; i < ARRAY_SIZE(gen_cases); i++) {
		const struct gen_case *c = &gen_cases[i];
		const char *names[4] = { c->name, c->aliases[0],
					 c->aliases[1], c->aliases[2] };

		for (j = 0; j < ARRAY_SIZE(names) && names[j]; j++) {
			for (np = 0; np < 4; np++) {
				for (k = 0; k < ARRAY_SIZE(privs); k++) {
					u32 f = privs[k].flags;
					const char *l = privs[k].letters;

					/* p's first, then u/k first. */
					snprintf(mods, sizeof(mods), "%s%s", ps[np], l);
					gen_one(c, names[j], np, mods, f, NULL, 0, 0);
					if (!*l || !np)
						continue;
					snprintf(mods, sizeof(mods), "%s%s", l, ps[np]);
					gen_one(c, names[j], np, mods, f, NULL, 0, 0);
					/* Interleaved: p u p p. */
					snprintf(mods, sizeof(mods), "p%s%s", l, ps[np] + 1);
					gen_one(c, names[j], np, mods, f, NULL, 0, 0);
				}
				/* A term list, modifiers after the slash or a colon. */
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

static void test_generic_messages(void **state)
{
	char why[256];
	struct skd_event_attr a;

	(void)state;
	assert_int_equal(skd_event_parse("cycles:ppp", model("icelake"), &a,
					 why, sizeof(why)), 0);
	assert_string_equal(why,
		"cycles:ppp on icelake samples as cycles:pp: precise distribution exists there for instructions only");
	assert_int_equal(skd_event_parse("branches:ppp", model("icelake"), &a,
					 why, sizeof(why)), -EOPNOTSUPP);
	assert_non_null(strstr(why, "use branches:pp"));
	assert_int_equal(skd_event_parse("branch-misses:pppu", model("skylake"),
					 &a, why, sizeof(why)), -EOPNOTSUPP);
	assert_non_null(strstr(why, "use branch-misses:ppu"));
	assert_int_equal(skd_event_parse("cycles:p", NULL, &a, why,
					 sizeof(why)), -EOPNOTSUPP);
	assert_non_null(strstr(why, "not known to skidless"));
	/* A note does not survive into the next call. */
	assert_int_equal(skd_event_parse("cycles", model("icelake"), &a, why,
					 sizeof(why)), 0);
	assert_string_equal(why, "");
	nr_checks += 6;
}

/* ---- named events --------------------------------------------------------- */

struct named_case {
	const char *name;
	u64 config;
	bool ppp;		/* precise distribution */
	bool ldlat;		/* load latency */
};

static const struct named_case skylake_named[] = {
	{ "inst_retired.prec_dist", 0x01c0, true, false },
	{ "inst_retired.any_p", 0x00c0, false, false },
	{ "uops_retired.all", 0x01c2, false, false },
	{ "br_inst_retired.all_branches", 0x00c4, false, false },
	{ "br_misp_retired.all_branches", 0x00c5, false, false },
	{ "mem_inst_retired.all_loads", 0x81d0, false, false },
	{ "mem_inst_retired.all_stores", 0x82d0, false, false },
	{ "mem_load_retired.l1_miss", 0x08d1, false, false },
	{ "mem_load_retired.l2_miss", 0x10d1, false, false },
	{ "mem_load_retired.l3_miss", 0x20d1, false, false },
	{ "mem_trans_retired.load_latency", 0x01cd, false, true },
	{ 0 }
};

static const struct named_case icelake_named[] = {
	{ "inst_retired.prec_dist", 0x0100, true, false },
	{ "inst_retired.any_p", 0x00c0, false, false },
	{ "uops_retired.slots", 0x02c2, false, false },
	{ "br_inst_retired.all_branches", 0x00c4, false, false },
	{ "br_misp_retired.all_branches", 0x00c5, false, false },
	{ "mem_inst_retired.all_loads", 0x81d0, false, false },
	{ "mem_inst_retired.all_stores", 0x82d0, false, false },
	{ "mem_load_retired.l1_miss", 0x08d1, false, false },
	{ "mem_load_retired.l2_miss", 0x10d1, false, false },
	{ "mem_load_retired.l3_miss", 0x20d1, false, false },
	{ "mem_trans_retired.load_latency", 0x01cd, false, true },
	{ 0 }
};

static const struct named_case goldencove_named[] = {
	{ "inst_retired.prec_dist", 0x0100, true, false },
	{ "inst_retired.any_p", 0x00c0, true, false },
	{ "uops_retired.slots", 0x02c2, true, false },
	{ "br_inst_retired.all_branches", 0x00c4, true, false },
	{ "br_misp_retired.all_branches", 0x00c5, true, false },
	{ "mem_inst_retired.all_loads", 0x81d0, true, false },
	{ "mem_inst_retired.all_stores", 0x82d0, true, false },
	{ "mem_load_retired.l1_miss", 0x08d1, true, false },
	{ "mem_load_retired.l2_miss", 0x10d1, true, false },
	{ "mem_load_retired.l3_miss", 0x20d1, true, false },
	{ "mem_trans_retired.load_latency", 0x01cd, false, true },
	{ 0 }
};

static const struct {
	const char *model;
	const struct named_case *ev;
} named_models[] = {
	{ "skylake", skylake_named },
	{ "icelake", icelake_named },
	{ "sapphirerapids", goldencove_named },
	{ "alderlake", goldencove_named },
};

static void upper(char *dst, const char *src, size_t len)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < len; i++)
		dst[i] = (src[i] >= 'a' && src[i] <= 'z') ? src[i] - 32 : src[i];
	dst[i] = '\0';
}

static void named_one(const char *mod, const struct named_case *e)
{
	static const char ps[][4] = { "", "p", "pp", "ppp" };
	char spec[160], up[96];
	unsigned int np;

	for (np = 0; np < 4; np++) {
		if (e->ldlat) {
			/* Needs ldlat= and :p; the message spells out both. */
			snprintf(spec, sizeof(spec), "%s%s%s", e->name,
				 np ? ":" : "", ps[np]);
			expect_err(mod, spec, -EINVAL,
				   "mem_trans_retired.load_latency/ldlat=30/p");
			snprintf(spec, sizeof(spec), "%s/ldlat=30/%s", e->name,
				 ps[np]);
			if (!np)
				expect_err(mod, spec, -EINVAL, "ldlat=30/p");
			else if (np == 3)
				expect_err(mod, spec, -EOPNOTSUPP, spec);
			else
				expect_ok(mod, spec, e->config, np, 0, 30, 0,
					  false);
			continue;
		}
		snprintf(spec, sizeof(spec), "%s%s%s", e->name, np ? ":" : "",
			 ps[np]);
		if (np == 3 && !e->ppp) {
			expect_err(mod, spec, -EOPNOTSUPP, spec);
			continue;
		}
		expect_ok(mod, spec, e->config, np, 0, 0, 0, false);
		upper(up, e->name, sizeof(up));
		snprintf(spec, sizeof(spec), "%s%s%sk", up, ":", ps[np]);
		expect_ok(mod, spec, e->config, np, EXU, 0, 0, false);
		snprintf(spec, sizeof(spec), "%s/period=10007/%s", e->name,
			 ps[np]);
		expect_ok(mod, spec, e->config, np, 0, 0, 10007, false);
		snprintf(spec, sizeof(spec), "%s/freq=99/:u%s", e->name, ps[np]);
		expect_ok(mod, spec, e->config, np, FREQ | EXK, 0, 99, false);
	}
	/* A name needs a model to mean anything. */
	expect_err(NULL, e->name, -EOPNOTSUPP, e->name);
}

static void test_named(void **state)
{
	unsigned int start = nr_checks;
	const struct named_case *e;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(named_models); i++)
		for (e = named_models[i].ev; e->name; e++)
			named_one(named_models[i].model, e);
	print_message("# named: %u specs\n", nr_checks - start);
}

/* Every event of the table has an entry above, and the same encoding. */
static void test_named_cover(void **state)
{
	const struct named_case *e;
	const struct skd_event_def *d;
	const struct skd_cpu_model *m;
	unsigned int n;
	size_t i;

	(void)state;
	assert_int_equal(skd_nr_cpu_models, ARRAY_SIZE(named_models));
	for (i = 0; i < ARRAY_SIZE(named_models); i++) {
		m = model(named_models[i].model);
		for (n = 0, e = named_models[i].ev; e->name; e++, n++) {
			d = skd_event_by_name(m, e->name);
			assert_non_null(d);
			assert_int_equal(d->config, e->config);
		}
		assert_int_equal(n, m->nr_events);
	}
}

static void test_named_ldlat(void **state)
{
	const char *ld = "mem_trans_retired.load_latency";
	char spec[128];

	(void)state;
	snprintf(spec, sizeof(spec), "%s/ldlat=1,period=10007/pu", ld);
	expect_ok("skylake", spec, 0x1cd, 1, EXK, 1, 10007, false);
	snprintf(spec, sizeof(spec), "%s/ldlat=0xffff/:pp", ld);
	expect_ok("sapphirerapids", spec, 0x1cd, 2, 0, 65535, 0, false);
	/* The fix keeps the threshold given. */
	snprintf(spec, sizeof(spec), "%s/ldlat=50/", ld);
	expect_err("icelake", spec, -EINVAL, "load_latency/ldlat=50/p");
	snprintf(spec, sizeof(spec), "%s/ldlat=0/p", ld);
	expect_err("icelake", spec, -EINVAL, "ldlat=0");
	snprintf(spec, sizeof(spec), "%s/ldlat=65536/p", ld);
	expect_err("icelake", spec, -EINVAL, "ldlat=65536");
	snprintf(spec, sizeof(spec), "%s/ldlat=30,ldlat=40/p", ld);
	expect_err("icelake", spec, -EINVAL, "ldlat");
	/* ldlat on anything else. */
	expect_err("skylake", "mem_load_retired.l3_miss/ldlat=30/p", -EINVAL,
		   "ldlat=30");
	expect_err("alderlake", "r20d1/ldlat=30/p", -EINVAL, "ldlat=30");
	expect_err("icelake", "cpu/event=0x12,ldlat=30/p", -EINVAL, "ldlat=30");
	expect_err("skylake", "cycles/ldlat=30/p", -EINVAL, "ldlat=30");
	/* Terms a named event does not take. */
	expect_err("skylake", "mem_load_retired.l3_miss/umask=1/", -EINVAL,
		   "umask=1");
	expect_err("skylake", "mem_load_retired.l3_miss/inv/", -EINVAL, "inv");
	expect_err("skylake", "mem_load_retired.l3_miss/bogus=1/", -EINVAL,
		   "bogus=1");
	expect_err("skylake", "cycles/cmask=1/", -EINVAL, "cmask=1");
	expect_err("skylake", "cycles/period=0/", -EINVAL, "period=0");
	expect_err("skylake", "cycles/period=5", -EINVAL, "cycles/period=5");
	expect_err("skylake", "cycles/period=5,freq=5/", -EINVAL, "freq=");
}

/* ---- raw and cpu/.../ ------------------------------------------------------ */

struct raw_case {
	const char *model;
	const char *spec;
	int err;
	const char *token;	/* errors: what why must contain */
	u64 config;
	unsigned int precise;
	u32 flags;
	u64 ldlat, sample;
};

#define OK(mod, s, cfg, p, fl, ld, smp) \
	{ .model = mod, .spec = s, .config = cfg, .precise = p, .flags = fl, \
	  .ldlat = ld, .sample = smp }
#define ERR(mod, s, e, tok) \
	{ .model = mod, .spec = s, .err = e, .token = tok }

static const struct raw_case raw_cases[] = {
	/* rNNNN */
	OK(NULL, "r3c", 0x3c, 0, 0, 0, 0),
	OK(NULL, "r003c", 0x3c, 0, 0, 0, 0),
	OK(NULL, "rC0", 0xc0, 0, 0, 0, 0),
	OK(NULL, "r0", 0, 0, 0, 0, 0),
	/* No PEBS on a CPU outside the table. */
	ERR(NULL, "r01c0:ppp", -EOPNOTSUPP, "r01c0:ppp"),
	ERR(NULL, "r01c0:up", -EOPNOTSUPP, "r01c0:up"),
	OK(NULL, "r108001c0", SKL_PCYC, 0, 0, 0, 0),
	OK(NULL, "r401c0", 0x401c0, 0, 0, 0, 0),		/* edge */
	OK(NULL, "rff00ffff", 0xff00ffff, 0, 0, 0, 0),
	OK(NULL, "r00000000000001c0:k", 0x1c0, 0, EXU, 0, 0),
	ERR(NULL, "r1cd/ldlat=30/p", -EOPNOTSUPP, "r1cd/ldlat=30/p"),
	OK(NULL, "r1cd/period=1000/", 0x1cd, 0, 0, 0, 1000),
	ERR(NULL, "r1cd/ldlat=30/", -EOPNOTSUPP, "ldlat="),
	ERR(NULL, "cpu/event=0x3c/p", -EOPNOTSUPP, "cpu/event=0x3c/p"),
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

	OK("skylake", "r003c", 0x3c, 0, 0, 0, 0),
	ERR("skylake", "r003c:p", -EOPNOTSUPP, "cycles:p"),
	OK("skylake", "r01c0:ppp", 0x1c0, 3, 0, 0, 0),
	OK("skylake", "r108001c0:ppp", SKL_PCYC, 3, 0, 0, 0),
	ERR("skylake", "r00c0:ppp", -EOPNOTSUPP, "r00c0:ppp"),
	OK("skylake", "r20d1:pp", 0x20d1, 2, 0, 0, 0),
	OK("skylake", "r1234", 0x1234, 0, 0, 0, 0),
	ERR("skylake", "r1234:p", -EOPNOTSUPP, "not PEBS-capable on skylake"),
	ERR("skylake", "r01cd", -EINVAL, "mem_trans_retired.load_latency/ldlat=30/p"),
	OK("skylake", "r01cd/ldlat=50/p", 0x1cd, 1, 0, 50, 0),
	ERR("skylake", "r01cd/ldlat=50/ppp", -EOPNOTSUPP, "r01cd/ldlat=50/ppp"),

	OK("icelake", "r1234:p", 0x1234, 1, 0, 0, 0),
	OK("icelake", "r003c:pp", 0x3c, 2, 0, 0, 0),
	ERR("icelake", "r1234:ppp", -EOPNOTSUPP, "r1234:ppp"),
	OK("icelake", "r0100:ppp", 0x100, 3, 0, 0, 0),
	ERR("icelake", "r00c0:ppp", -EOPNOTSUPP, "r00c0:ppp"),

	OK("sapphirerapids", "r1234:ppp", 0x1234, 3, 0, 0, 0),
	ERR("sapphirerapids", "r01cd/ldlat=30/ppp", -EOPNOTSUPP, "ppp"),
	OK("sapphirerapids", "r01cd/ldlat=30/pp", 0x1cd, 2, 0, 30, 0),
	OK("alderlake", "r00c0:ppp", 0xc0, 3, 0, 0, 0),

	/* cpu/.../ with each term */
	OK("sapphirerapids", "cpu/event=0xd0,umask=0x81/pp", 0x81d0, 2, 0, 0, 0),
	OK("icelake", "cpu/event=0xd0,umask=0x81/:pp", 0x81d0, 2, 0, 0, 0),
	OK(NULL, "cpu/event=0xd0,umask=0x81/", 0x81d0, 0, 0, 0, 0),
	OK(NULL, "cpu/event=208,umask=129/ku", 0x81d0, 0, 0, 0, 0),
	OK(NULL, "cpu/event=0xc0,umask=1,inv,cmask=16/", SKL_PCYC, 0, 0, 0, 0),
	OK(NULL, "cpu/event=0xc0,umask=1,inv=1,cmask=0x10,edge/", SKL_PCYC | 0x40000, 0, 0, 0, 0),
	OK(NULL, "cpu/event=0xc0,inv=0,edge=0,cmask=0/", 0xc0, 0, 0, 0, 0),
	OK(NULL, "cpu/event=0xff,umask=0xff,cmask=0xff/", 0xff00ffff, 0, 0, 0, 0),
	OK(NULL, "cpu/event=0x3c,period=10007/", 0x3c, 0, 0, 0, 10007),
	OK(NULL, "cpu/event=0x3c,freq=4000/u", 0x3c, 0, FREQ | EXK, 0, 4000),
	OK(NULL, "cpu/EVENT=0x3C,Umask=0X1/", 0x13c, 0, 0, 0, 0),
	OK("icelake", "cpu/event=0xcd,umask=1,ldlat=3/p", 0x1cd, 1, 0, 3, 0),
	OK(NULL, "cpu/event=0,umask=3/", 0x300, 0, 0, 0, 0),
	OK(NULL, "cpu/period=18446744073709551615,event=1/", 1, 0, 0, 0, UINT64_MAX),
	ERR("skylake", "cpu/event=0xcd,umask=1/p", -EINVAL, "mem_trans_retired.load_latency/ldlat=30/p"),
	OK("skylake", "cpu/event=0xcd,umask=1,ldlat=30/p", 0x1cd, 1, 0, 30, 0),
	OK("skylake", "cpu/event=0xcd,umask=1,ldlat=30,cmask=2/p", 0x20001cd, 1, 0, 30, 0),
	ERR("skylake", "cpu/event=0x12,umask=0x34/p", -EOPNOTSUPP, "not PEBS-capable on skylake"),
	OK("icelake", "cpu/event=0x12,umask=0x34/p", 0x3412, 1, 0, 0, 0),

	/* cpu/.../ errors */
	ERR(NULL, "cpu//", -EINVAL, "cpu//"),
	ERR(NULL, "cpu/umask=1/", -EINVAL, "event="),
	ERR(NULL, "cpu/event=0x1ff/", -EINVAL, "event=0x1ff"),
	ERR(NULL, "cpu/event=256/", -EINVAL, "event=256"),
	ERR(NULL, "cpu/event=1,umask=0x100/", -EINVAL, "umask=0x100"),
	ERR(NULL, "cpu/event=1,cmask=256/", -EINVAL, "cmask=256"),
	ERR(NULL, "cpu/event=1,ldlat=0/p", -EINVAL, "ldlat=0"),
	ERR(NULL, "cpu/event=1,ldlat=65536/p", -EINVAL, "ldlat=65536"),
	ERR(NULL, "cpu/event=1,period=0/", -EINVAL, "period=0"),
	ERR(NULL, "cpu/event=1,freq=0/", -EINVAL, "freq=0"),
	ERR(NULL, "cpu/event=1,period=1,freq=1/", -EINVAL, "freq="),
	ERR(NULL, "cpu/event=1,period=99999999999999999999/", -EINVAL, "period=99999999999999999999"),
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

		if (c->err)
			expect_err(c->model, c->spec, c->err, c->token);
		else
			expect_ok(c->model, c->spec, c->config, c->precise,
				  c->flags, c->ldlat, c->sample, false);
	}
	print_message("# raw and cpu//: %u specs\n", nr_checks - start);
}

/* ---- everything else that is wrong ---------------------------------------- */

static void test_errors(void **state)
{
	char longname[300];
	char why[256], tiny[8];
	struct skd_event_attr a;
	size_t i;

	(void)state;
	expect_err(NULL, "", -EINVAL, "empty");
	expect_err(NULL, NULL, -EINVAL, "empty");
	expect_err(NULL, ":p", -EINVAL, ":p");
	expect_err(NULL, "/period=1/", -EINVAL, "/period=1/");
	expect_err(NULL, "foo", -EINVAL,
		   "unknown event `foo': skidless list shows the events of this CPU");
	expect_err("skylake", "foo:pp", -EINVAL, "`foo'");
	expect_err("skylake", "foo/period=1/", -EINVAL, "`foo'");
	expect_err("skylake", "cycles,instructions", -EINVAL,
		   "`cycles,instructions'");
	expect_err("skylake", " cycles", -EINVAL, "` cycles'");
	expect_err("skylake", "cycles:", -EINVAL, "cycles:");
	expect_err("skylake", "cycles:x", -EINVAL, "`x'");
	expect_err("skylake", "cycles:pP", -EINVAL, "`P'");
	expect_err("skylake", "cycles:pppp", -EINVAL, "pppp");
	expect_err("skylake", "cycles::p", -EINVAL, "`:'");
	expect_err("skylake", "cycles:p/", -EINVAL, "`/'");
	expect_err("skylake", "cycles/period=1/x", -EINVAL, "`x'");
	/* Events of another model say so. */
	expect_err("skylake", "uops_retired.slots", -EINVAL, "icelake");
	expect_err("icelake", "uops_retired.all:p", -EINVAL, "skylake");
	expect_err(NULL, "mem_load_retired.l3_miss:pp", -EOPNOTSUPP,
		   "mem_load_retired.l3_miss");

	for (i = 0; i < sizeof(longname) - 1; i++)
		longname[i] = 'a' + i % 26;
	longname[sizeof(longname) - 1] = '\0';
	expect_err("skylake", longname, -EINVAL, "unknown event");

	/* No buffer for the sentence, or a small one. */
	assert_int_equal(skd_event_parse("foo", NULL, &a, NULL, 0), -EINVAL);
	assert_int_equal(skd_event_parse("cycles:ppp", model("icelake"), &a,
					 NULL, 0), 0);
	memset(tiny, 'x', sizeof(tiny));
	assert_int_equal(skd_event_parse("foo", NULL, &a, tiny, sizeof(tiny)),
			 -EINVAL);
	assert_int_equal(strlen(tiny), sizeof(tiny) - 1);
	memset(why, 'x', sizeof(why));
	assert_int_equal(skd_event_parse("cycles", NULL, &a, why, 1), 0);
	assert_int_equal(why[0], '\0');
	assert_int_equal(why[1], 'x');
	nr_checks += 5;
}

/* ---- skd_event_name --------------------------------------------------------- */

static void name_is(const char *mod, const char *spec, const char *want)
{
	const struct skd_cpu_model *m = model(mod);
	struct skd_event_attr a;
	char why[256], name[160];

	nr_checks++;
	if (skd_event_parse(spec, m, &a, why, sizeof(why)))
		fail_msg("%s on %s: %s", spec, mname(mod), why);
	skd_event_name(&a, m, name, sizeof(name));
	if (strcmp(name, want))
		fail_msg("%s on %s: named %s, wanted %s", spec, mname(mod),
			 name, want);
}

static void test_name(void **state)
{
	static const struct {
		const char *model, *spec, *name;
	} cases[] = {
		{ "skylake", "cycles:pp", "cycles:pp" },
		{ "skylake", "cpu-cycles:upp", "cycles:ppu" },
		{ "skylake", "CYCLES:ku", "cycles" },
		{ "skylake", "mem_load_retired.l3_miss:p", "mem_load_retired.l3_miss:p" },
		{ "skylake", "MEM_LOAD_RETIRED.L3_MISS", "mem_load_retired.l3_miss" },
		{ "sapphirerapids", "r01c0:ppp", "r01c0:ppp" },
		{ NULL, "r3c", "cycles" },
		{ "skylake", "r3c:k", "cycles:k" },
		{ NULL, "cycles:u", "cycles:u" },
		{ NULL, "r1234:k", "r1234:k" },
		{ "skylake", "r01c0:ppp", "instructions:ppp" },
		{ "skylake", "r01c0:p", "inst_retired.prec_dist:p" },
		{ "skylake", "r108001c0:p", "cycles:p" },
		{ "skylake", "inst_retired.any_p:p", "instructions:p" },
		{ "icelake", "cycles:ppp", "cycles:pp" },
		{ "icelake", "inst_retired.prec_dist:ppp", "instructions:ppp" },
		{ "icelake", "inst_retired.prec_dist", "inst_retired.prec_dist" },
		{ "alderlake", "r00c4:ppp", "branches:ppp" },
		{ "skylake", "mem_trans_retired.load_latency/ldlat=30/p",
		  "mem_trans_retired.load_latency/ldlat=30/p" },
		{ "skylake", "cpu/event=0xcd,umask=1,ldlat=30/:p",
		  "mem_trans_retired.load_latency/ldlat=30/p" },
		{ "skylake", "cycles/period=10007/ppu", "cycles/period=10007/ppu" },
		{ "skylake", "cycles/freq=99/", "cycles/freq=99/" },
		{ "icelake", "cpu/event=0xcd,umask=1,ldlat=30,freq=99/p",
		  "mem_trans_retired.load_latency/ldlat=30,freq=99/p" },
		{ "icelake", "cpu/event=0xcd,umask=1,cmask=2,ldlat=30,freq=99/p",
		  "cpu/event=0xcd,umask=0x1,cmask=2,ldlat=30,freq=99/p" },
		{ NULL, "cpu/cmask=16,inv,umask=1,period=5,edge,event=0xc0/k",
		  "cpu/event=0xc0,umask=0x1,edge,inv,cmask=16,period=5/k" },
		{ "icelake", "cpu/event=0xd1,umask=0x20,cmask=1/pp", "r10020d1:pp" },
	};
	struct skd_event_attr a;
	char buf[40];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		name_is(cases[i].model, cases[i].spec, cases[i].name);

	/* Truncation, and an attr parse cannot produce. */
	assert_int_equal(skd_event_parse("mem_load_retired.l3_miss:pp",
					 model("skylake"), &a, NULL, 0), 0);
	skd_event_name(&a, model("skylake"), buf, 4);
	assert_string_equal(buf, "mem");
	skd_event_name(&a, model("skylake"), buf, 1);
	assert_string_equal(buf, "");
	memset(buf, 'x', sizeof(buf));
	skd_event_name(&a, model("skylake"), buf, 0);
	assert_int_equal(buf[0], 'x');
	a.flags = EXU | EXK;
	a.precise = 0;
	skd_event_name(&a, model("skylake"), buf, sizeof(buf));
	assert_string_equal(buf, "mem_load_retired.l3_miss");
	/* What the module would refuse still has a name. */
	memset(&a, 0, sizeof(a));
	a.config = 0x3c;
	a.precise = 1;
	skd_event_name(&a, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "r003c:p");
	nr_checks += 5;
}

/* Every table event and generic level names something that parses back. */
static void test_name_table(void **state)
{
	const struct skd_cpu_model *m;
	struct skd_event_attr a, b;
	char name[160], why[256];
	unsigned int i, j, g, p;

	(void)state;
	for (i = 0; i < skd_nr_cpu_models; i++) {
		m = &skd_cpu_models[i];
		for (j = 0; j < m->nr_events; j++) {
			memset(&a, 0, sizeof(a));
			a.size = sizeof(a);
			a.config = m->events[j].config;
			for (p = 0; p < 3; p++) {
				a.precise = p;
				a.ldlat = m->events[j].flags & SKD_EVF_LDLAT ? 7 : 0;
				if (a.ldlat && !p)
					continue;
				skd_event_name(&a, m, name, sizeof(name));
				assert_int_equal(skd_event_parse(name, m, &b,
						 why, sizeof(why)), 0);
				assert_memory_equal(&a, &b, sizeof(a));
				nr_checks++;
			}
		}
		for (g = 0; g < SKD_GEN_NR; g++) {
			memset(&a, 0, sizeof(a));
			a.size = sizeof(a);
			a.config = m->generic[g].config[0];
			skd_event_name(&a, m, name, sizeof(name));
			assert_string_equal(name, m->generic[g].name);
			nr_checks++;
		}
	}
}

/* ---- -j ----------------------------------------------------------------- */

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
		const char *spec, *token;
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
		    -EINVAL || bits != 0xdead || !strstr(why, bad[i].token) ||
		    !strstr(why, "call_stack"))
			fail_msg("-j %s: %#x (%s)", bad[i].spec ? bad[i].spec :
				 "NULL", bits, why);
		nr_checks++;
	}
	assert_int_equal(skd_branch_parse("bad", &bits, NULL, 0), -EINVAL);
	print_message("# total: %u checks\n", nr_checks);
}

/* Several specs in one -e: split at commas outside term lists. */
static void test_list_split(void **state)
{
	const char *out[4];
	char a[] = "cycles:pp,instructions";
	char b[] = "cpu/event=0xd0,umask=0x81/pp,branches,r01c0:u";
	char c[] = "mem_trans_retired.load_latency/ldlat=30,period=1009/p";
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
			    "mem_trans_retired.load_latency/ldlat=30,period=1009/p");
	assert_int_equal(skd_event_list_split(bad1, out, 4), -EINVAL);
	assert_int_equal(skd_event_list_split(bad2, out, 4), -EINVAL);
	assert_int_equal(skd_event_list_split(bad3, out, 4), -EINVAL);
	assert_int_equal(skd_event_list_split(bad4, out, 4), -EINVAL);
	assert_int_equal(skd_event_list_split(many, out, 4), -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generic),
		cmocka_unit_test(test_generic_messages),
		cmocka_unit_test(test_named),
		cmocka_unit_test(test_named_cover),
		cmocka_unit_test(test_named_ldlat),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_name),
		cmocka_unit_test(test_name_table),
		cmocka_unit_test(test_branch),
		cmocka_unit_test(test_list_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
