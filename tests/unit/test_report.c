// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for report's option parsing, filters and aggregation
 * (userland/cli/report_opts.c, report_hist.c, report_callgraph.c), on
 * samples made up here whose self, children and call-graph sums are
 * worked out by hand in the comments.
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

#include "cpulist.h"
#include "report_callgraph.h"
#include "report_hist.h"
#include "report_output.h"

static char err[512];

/* ---- option values ------------------------------------------------------ */

static void test_parse_sort(void **state)
{
	enum rh_key k[RH_MAX_KEYS];
	unsigned int n;

	(void)state;
	assert_int_equal(rh_parse_sort("sym", k, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(k[0], RH_SYM);
	assert_int_equal(rh_parse_sort("comm,pid,sym,comm,ip,srcline,cpu,tid,dso",
				       k, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 8);	/* comm once */
	assert_int_equal(k[0], RH_COMM);
	assert_int_equal(k[1], RH_PID);
	assert_int_equal(k[7], RH_DSO);
	assert_int_equal(rh_parse_sort("sym,bogus", k, &n, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "unknown sort key `bogus'"));
	assert_int_equal(rh_parse_sort("sym,", k, &n, err, sizeof(err)), -EINVAL);
	assert_int_equal(rh_parse_sort("", k, &n, err, sizeof(err)), -EINVAL);
}

static void test_parse_fields(void **state)
{
	unsigned int f[RH_MAX_FIELDS], n, nk;
	enum rh_key k[RH_MAX_KEYS];

	(void)state;
	assert_int_equal(rh_parse_fields("overhead,sample,dso,period,sym", f, &n,
					 k, &nk, err, sizeof(err)), 0);
	assert_int_equal(n, 5);
	assert_int_equal(f[0], RH_F_OVERHEAD);
	assert_int_equal(f[1], RH_F_SAMPLE);
	assert_int_equal(f[2], RH_F_KEY + RH_DSO);
	assert_int_equal(f[3], RH_F_PERIOD);
	assert_int_equal(f[4], RH_F_KEY + RH_SYM);
	/* The keys among the fields, in their order, sort. */
	assert_int_equal(nk, 2);
	assert_int_equal(k[0], RH_DSO);
	assert_int_equal(k[1], RH_SYM);
	assert_int_equal(rh_parse_fields("overhead,nope", f, &n, k, &nk, err,
					 sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unknown field `nope'"));
}

static void test_parse_time(void **state)
{
	uint64_t a, b;

	(void)state;
	assert_int_equal(rh_parse_time("1.5,2", &a, &b, err, sizeof(err)), 0);
	assert_int_equal(a, 1500000000ULL);
	assert_int_equal(b, 2000000000ULL);
	assert_int_equal(rh_parse_time("12345.000000001,", &a, &b, err,
				       sizeof(err)), 0);
	assert_int_equal(a, 12345000000001ULL);
	assert_int_equal(b, 0);
	assert_int_equal(rh_parse_time(",3", &a, &b, err, sizeof(err)), 0);
	assert_int_equal(a, 0);
	assert_int_equal(b, 3000000000ULL);
	/* Digits past the ns are dropped, not rounded. */
	assert_int_equal(rh_parse_time("0.1234567899,", &a, &b, err,
				       sizeof(err)), 0);
	assert_int_equal(a, 123456789ULL);
	assert_int_equal(rh_parse_time("abc,def", &a, &b, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "bad --time"));
	assert_int_equal(rh_parse_time("3,1", &a, &b, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "START is after END"));
	assert_int_equal(rh_parse_time("10", &a, &b, err, sizeof(err)), -EINVAL);
	assert_int_equal(rh_parse_time("1,2,3", &a, &b, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(rh_parse_time("1.2.3,", &a, &b, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(rh_parse_time("-1,", &a, &b, err, sizeof(err)), -EINVAL);
	assert_int_equal(rh_parse_time("99999999999999999999,", &a, &b, err,
				       sizeof(err)), -EINVAL);
}

static void test_parse_callgraph(void **state)
{
	enum rh_order o = RH_CALLEE;
	bool on = false, set = false;
	double limit = 0.5;

	(void)state;
	assert_int_equal(rh_parse_callgraph("caller,2", &on, &o, &set, &limit,
					    err, sizeof(err)), 0);
	assert_true(on);
	assert_true(set);
	assert_int_equal(o, RH_CALLER);
	assert_true(limit == 2.0);
	assert_int_equal(rh_parse_callgraph("graph,0.25,callee", &on, &o, &set,
					    &limit, err, sizeof(err)), 0);
	assert_int_equal(o, RH_CALLEE);
	assert_true(limit == 0.25);
	assert_int_equal(rh_parse_callgraph("none", &on, &o, &set, &limit, err,
					    sizeof(err)), 0);
	assert_false(on);
	assert_int_equal(rh_parse_callgraph("sideways", &on, &o, &set, &limit,
					    err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "bad -g"));
	assert_int_equal(rh_parse_callgraph("caller,101", &on, &o, &set, &limit,
					    err, sizeof(err)), -EINVAL);
}

static void test_parse_ids_names(void **state)
{
	struct rh_filter f = { 0 };

	(void)state;
	assert_int_equal(rh_parse_ids("1,22,333", &f.pids, &f.nr_pids, err,
				      sizeof(err)), 0);
	assert_int_equal(f.nr_pids, 3);
	assert_int_equal(f.pids[2], 333);
	assert_int_equal(rh_parse_ids("4,5x", &f.tids, &f.nr_tids, err,
				      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "bad id `5x'"));
	assert_int_equal(rh_parse_ids("4294967296", &f.tids, &f.nr_tids, err,
				      sizeof(err)), -EINVAL);
	assert_int_equal(rh_parse_names("a,,bb", &f.comms, &f.nr_comms), 0);
	assert_int_equal(f.nr_comms, 2);
	assert_string_equal(f.comms[1], "bb");
	rh_filter_free(&f);
}

/* ---- filters ------------------------------------------------------------- */

static const struct rh_frame fr_main = { "main", "prog", 0x401000, 0x10,
					 false, "/src/prog.c", 12 };
static const struct rh_frame fr_a = { "a", "prog", 0x402000, 0x4, false,
				      "/src/prog.c", 5 };
static const struct rh_frame fr_b = { "b", "libx.so", 0x7f0000001000, 0x8,
				      false, NULL, 0 };
static const struct rh_frame fr_k = { "do_syscall_64", "[kernel.kallsyms]",
				      0xffffffff81000000, 0x71, true, NULL, 0 };
static const struct rh_frame fr_u1 = { NULL, "[unknown]", 0x1234, 0, false,
				       NULL, 0 };
static const struct rh_frame fr_u2 = { NULL, "[unknown]", 0x5678, 0, false,
				       NULL, 0 };

static struct rh_sample sample(uint64_t time, uint32_t cpu, uint32_t pid,
			       const char *comm, const struct rh_frame *f,
			       unsigned int nr)
{
	return (struct rh_sample){ .event = 0, .time = time, .period = 100,
				   .cpu = cpu, .pid = pid, .tid = pid,
				   .comm = comm, .nr = nr, .f = f };
}

static void test_filters(void **state)
{
	const struct rh_frame chain[] = { fr_b, fr_a, fr_main };
	struct rh_filter f = { 0 };
	struct rh_sample s = sample(2000000000, 3, 42, "prog", chain, 3);

	(void)state;
	assert_true(rh_filter_match(&f, &s));
	assert_true(rh_filter_shown(&f, &s));
	/* --time is inclusive at both ends, as perf's. */
	assert_int_equal(rh_parse_time("2,2", &f.start, &f.end, err,
				       sizeof(err)), 0);
	f.has_time = true;
	assert_true(rh_filter_match(&f, &s));
	s.time++;
	assert_false(rh_filter_match(&f, &s));
	f.end = 0;	/* open end */
	assert_true(rh_filter_match(&f, &s));
	f.has_time = false;

	assert_int_equal(skd_cpulist_parse("0-2", f.cpus, RH_MAX_CPUS / 64), 3);
	f.has_cpus = true;
	assert_false(rh_filter_match(&f, &s));
	s.cpu = 2;
	assert_true(rh_filter_match(&f, &s));
	s.cpu = RH_MAX_CPUS + 5;	/* beyond the bitmap: not in the list */
	assert_false(rh_filter_match(&f, &s));
	f.has_cpus = false;

	/* --dso and --sym look at the leaf (b in libx.so), by path or name. */
	assert_int_equal(rh_parse_names("/usr/lib/libx.so", &f.dsos, &f.nr_dsos), 0);
	assert_true(rh_filter_shown(&f, &s));
	assert_int_equal(rh_parse_names("a", &f.syms, &f.nr_syms), 0);
	assert_false(rh_filter_shown(&f, &s));	/* a is a caller only */
	assert_int_equal(rh_parse_names("b", &f.syms, &f.nr_syms), 0);
	assert_true(rh_filter_shown(&f, &s));
	assert_int_equal(rh_parse_ids("41", &f.pids, &f.nr_pids, err,
				      sizeof(err)), 0);
	assert_false(rh_filter_shown(&f, &s));
	assert_int_equal(rh_parse_ids("42", &f.pids, &f.nr_pids, err,
				      sizeof(err)), 0);
	assert_true(rh_filter_shown(&f, &s));
	assert_int_equal(rh_parse_names("other", &f.comms, &f.nr_comms), 0);
	assert_false(rh_filter_shown(&f, &s));
	rh_filter_free(&f);
}

/* ---- aggregation ---------------------------------------------------------- */

static struct rh_entry *find(struct rh_hist *h, const char *want, size_t *rank)
{
	struct rh_entry **v;
	char buf[256];
	size_t n, i;

	v = rh_hist_sorted(h, 0, &n);
	for (i = 0; i < n; i++) {
		rh_key_format(h, v[i], 0, buf, sizeof(buf));
		if (!strcmp(buf, want)) {
			if (rank)
				*rank = i;
			return v[i];
		}
	}
	return NULL;
}

/*
 * Four samples of period 100:
 *   b <- a <- main
 *   a <- main
 *   a <- a <- main          (recursion)
 *   do_syscall_64 <- b <- main
 * self: a 200, b 100, do_syscall_64 100, main 0
 * children: main 400, a 300 (once in the recursive one), b 200,
 *           do_syscall_64 100
 */
static void add_four(struct rh_hist *h)
{
	static const struct rh_frame s1[] = { fr_b, fr_a, fr_main };
	static const struct rh_frame s2[] = { fr_a, fr_main };
	static const struct rh_frame s3[] = { fr_a, fr_a, fr_main };
	static const struct rh_frame s4[] = { fr_k, fr_b, fr_main };
	struct rh_sample s;

	s = sample(1, 0, 7, "prog", s1, 3);
	assert_int_equal(rh_hist_add(h, &s), 0);
	s = sample(2, 0, 7, "prog", s2, 2);
	assert_int_equal(rh_hist_add(h, &s), 0);
	s = sample(3, 1, 8, "prog", s3, 3);
	assert_int_equal(rh_hist_add(h, &s), 0);
	s = sample(4, 1, 8, "prog", s4, 3);
	assert_int_equal(rh_hist_add(h, &s), 0);
}

static void test_self(void **state)
{
	struct rh_config c = { .keys = { RH_SYM }, .nr_keys = 1 };
	struct rh_hist *h = rh_hist_new(&c);
	struct rh_entry *e;
	size_t rank;

	(void)state;
	assert_non_null(h);
	add_four(h);
	assert_int_equal(rh_hist_totals(h, 0)->samples, 4);
	assert_int_equal(rh_hist_totals(h, 0)->period, 400);
	assert_int_equal(rh_hist_totals(h, 1)->samples, 0);
	e = find(h, "[.] a", &rank);
	assert_non_null(e);
	assert_int_equal(e->self, 200);
	assert_int_equal(e->samples, 2);
	assert_int_equal(rank, 0);
	e = find(h, "[k] do_syscall_64", &rank);
	assert_non_null(e);
	assert_int_equal(e->self, 100);
	/* A tie with b: ordered by the key as printed ("[.] b" < "[k] ..."). */
	assert_int_equal(rank, 2);
	assert_null(find(h, "[.] main", NULL));	/* no self, no children mode */
	rh_hist_free(h);
}

static void test_children(void **state)
{
	struct rh_config c = { .keys = { RH_SYM }, .nr_keys = 1,
			       .children = true };
	struct rh_hist *h = rh_hist_new(&c);
	struct rh_entry **v;
	size_t n;

	(void)state;
	add_four(h);
	v = rh_hist_sorted(h, 0, &n);
	assert_int_equal(n, 4);
	/* By children first: main 400, a 300, b 200, do_syscall_64 100. */
	assert_string_equal(v[0]->sym->name, "main");
	assert_int_equal(v[0]->children, 400);
	assert_int_equal(v[0]->self, 0);
	assert_string_equal(v[1]->sym->name, "a");
	assert_int_equal(v[1]->children, 300);
	assert_int_equal(v[1]->self, 200);
	assert_string_equal(v[2]->sym->name, "b");
	assert_int_equal(v[2]->children, 200);
	assert_string_equal(v[3]->sym->name, "do_syscall_64");
	assert_true(v[3]->sym->kernel);
	rh_hist_free(h);
}

static void test_sort_keys(void **state)
{
	struct rh_config c = { .keys = { RH_COMM, RH_PID, RH_DSO, RH_CPU },
			       .nr_keys = 4 };
	static const struct rh_frame s1[] = { fr_a };
	static const struct rh_frame s2[] = { fr_b };
	struct rh_hist *h = rh_hist_new(&c);
	struct rh_entry **v;
	struct rh_sample s;
	char buf[256];
	size_t n;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		s = sample(1, 0, 10, "one", s1, 1);
		assert_int_equal(rh_hist_add(h, &s), 0);
	}
	s = sample(1, 0, 10, "one", s2, 1);	/* another dso */
	assert_int_equal(rh_hist_add(h, &s), 0);
	s = sample(1, 1, 10, "one", s1, 1);	/* another cpu */
	assert_int_equal(rh_hist_add(h, &s), 0);
	s = sample(1, 0, 11, "two", s1, 1);	/* another process */
	assert_int_equal(rh_hist_add(h, &s), 0);
	v = rh_hist_sorted(h, 0, &n);
	assert_int_equal(n, 4);
	assert_int_equal(v[0]->self, 300);
	rh_key_format(h, v[0], 0, buf, sizeof(buf));
	assert_string_equal(buf, "one");
	rh_key_format(h, v[0], 1, buf, sizeof(buf));
	assert_string_equal(buf, "     10:one");
	rh_key_format(h, v[0], 2, buf, sizeof(buf));
	assert_string_equal(buf, "prog");
	rh_key_format(h, v[0], 3, buf, sizeof(buf));
	assert_string_equal(buf, "000");
	rh_hist_free(h);
}

static void test_srcline_ip_unknown(void **state)
{
	struct rh_config c = { .keys = { RH_SRCLINE }, .nr_keys = 1 };
	static const struct rh_frame s1[] = { fr_a };
	static const struct rh_frame s2[] = { fr_b };
	static const struct rh_frame s3[] = { fr_u1 };
	static const struct rh_frame s4[] = { fr_u2 };
	struct rh_hist *h = rh_hist_new(&c);
	struct rh_sample s;

	(void)state;
	s = sample(1, 0, 1, "p", s1, 1);
	assert_int_equal(rh_hist_add(h, &s), 0);
	s = sample(1, 0, 1, "p", s2, 1);
	assert_int_equal(rh_hist_add(h, &s), 0);
	s = sample(1, 0, 1, "p", s3, 1);
	assert_int_equal(rh_hist_add(h, &s), 0);
	/* Base name and line; without lines perf's sym+offset (decimal). */
	assert_non_null(find(h, "prog.c:5", NULL));
	assert_non_null(find(h, "b+8", NULL));
	assert_non_null(find(h, "??:0", NULL));
	rh_hist_free(h);

	/* Unknown functions are one entry per address, shown as it. */
	c.keys[0] = RH_SYM;
	h = rh_hist_new(&c);
	s = sample(1, 0, 1, "p", s3, 1);
	assert_int_equal(rh_hist_add(h, &s), 0);
	assert_int_equal(rh_hist_add(h, &s), 0);
	s = sample(1, 0, 1, "p", s4, 1);
	assert_int_equal(rh_hist_add(h, &s), 0);
	assert_int_equal(find(h, "[.] 0x0000000000001234", NULL)->self, 200);
	assert_int_equal(find(h, "[.] 0x0000000000005678", NULL)->self, 100);
	rh_hist_free(h);

	c.keys[0] = RH_IP;
	h = rh_hist_new(&c);
	s = sample(1, 0, 1, "p", s1, 1);
	assert_int_equal(rh_hist_add(h, &s), 0);
	assert_non_null(find(h, "0x0000000000402000", NULL));
	rh_hist_free(h);
}

static void test_kernel_module(void **state)
{
	struct rh_config c = { .keys = { RH_SYM, RH_DSO }, .nr_keys = 2 };
	static const struct rh_frame s1[] = {
		{ "probe_exit [skidless]", "[kernel.kallsyms]",
		  0xffffffffc0001000, 0x10, true, NULL, 0 } };
	struct rh_hist *h = rh_hist_new(&c);
	struct rh_sample s = sample(1, 0, 1, "p", s1, 1);
	struct rh_entry **v;
	char buf[256];
	size_t n;

	(void)state;
	assert_int_equal(rh_hist_add(h, &s), 0);
	v = rh_hist_sorted(h, 0, &n);
	assert_int_equal(n, 1);
	/* As perf: the module is the object, not part of the name. */
	rh_key_format(h, v[0], 0, buf, sizeof(buf));
	assert_string_equal(buf, "[k] probe_exit");
	rh_key_format(h, v[0], 1, buf, sizeof(buf));
	assert_string_equal(buf, "[skidless]");
	rh_hist_free(h);
}

static void test_hidden(void **state)
{
	struct rh_config c = { .keys = { RH_SYM }, .nr_keys = 1 };
	static const struct rh_frame s1[] = { fr_a };
	struct rh_hist *h = rh_hist_new(&c);
	struct rh_sample s = sample(1, 0, 1, "p", s1, 1);
	size_t n;

	(void)state;
	s.hidden = true;
	assert_int_equal(rh_hist_add(h, &s), 0);
	assert_int_equal(rh_hist_totals(h, 0)->period, 100);
	rh_hist_sorted(h, 0, &n);
	assert_int_equal(n, 0);
	s.event = SKD_REPORT_EVENTS;	/* no such event: refused */
	assert_int_equal(rh_hist_add(h, &s), -EINVAL);
	rh_hist_free(h);
}

/* The child of @n named @name, or NULL. */
static const struct rh_node *child(const struct rh_node *n, const char *name)
{
	for (n = n->child; n; n = n->next)
		if (n->sym->name && !strcmp(n->sym->name, name))
			return n;
	return NULL;
}

static void test_callgraph(void **state)
{
	struct rh_config c = { .keys = { RH_SYM }, .nr_keys = 1,
			       .callgraph = true, .order = RH_CALLEE };
	struct rh_hist *h = rh_hist_new(&c);
	const struct rh_node *n;
	struct rh_entry *e;

	(void)state;
	add_four(h);
	/* Self, callee order: a's callers are main (100) and a (100), whose
	 * caller is main. */
	e = find(h, "[.] a", NULL);
	assert_int_equal(rh_graph_sort(&e->root, 400, 0), 0);
	n = child(&e->root, "main");
	assert_non_null(n);
	assert_int_equal(n->period, 100);
	assert_null(n->child);
	n = child(&e->root, "a");
	assert_non_null(n);
	assert_int_equal(n->period, 100);
	assert_int_equal(child(n, "main")->period, 100);
	rh_hist_free(h);

	/* Children, caller order: under main its callees. */
	c.children = true;
	c.order = RH_CALLER;
	h = rh_hist_new(&c);
	add_four(h);
	e = find(h, "[.] main", NULL);
	assert_int_equal(rh_graph_sort(&e->root, 400, 0), 0);
	/* main -> a (300: s1, s2, s3), main -> b (100: s4) */
	assert_string_equal(e->root.child->sym->name, "a");	/* busiest first */
	n = child(&e->root, "a");
	assert_int_equal(n->period, 300);
	assert_int_equal(n->samples, 3);
	assert_int_equal(child(n, "b")->period, 100);
	assert_int_equal(child(n, "a")->period, 100);
	n = child(&e->root, "b");
	assert_int_equal(n->period, 100);
	assert_int_equal(child(n, "do_syscall_64")->period, 100);
	rh_hist_free(h);

	/* Self, caller order: from the root down to the sample's parent. */
	c.children = false;
	h = rh_hist_new(&c);
	add_four(h);
	e = find(h, "[.] b", NULL);
	n = child(&e->root, "main");
	assert_non_null(n);
	assert_int_equal(child(n, "a")->period, 100);
	rh_hist_free(h);
}

/*
 * The text layout, checked against perf report --stdio's: percent
 * columns 8 wide after two spaces, "#" in the header's first column,
 * the graph's "|--PCT--name" branches and " --" for the last, a chain
 * without branches as one column of names, a blank line after a tree;
 * ties in name order. add_four()'s sums: main's callees a 300 (under
 * it a 100 from the recursion, b 100) and b 100 (do_syscall_64 100);
 * a's own callee b 100 (the recursive sample charges a once, at its
 * leaf, with nothing below).
 */
static void test_stdio_layout(void **state)
{
	static const char want[] =
		"#\n"
		"# event: cycles, 4 samples, period 400\n"
		"#\n"
		"# Children      Self  Symbol\n"
		"#\n"
		"   100.00%     0.00%  [.] main\n"
		"            |\n"
		"            |--75.00%--a\n"
		"            |          |\n"
		"            |          |--25.00%--a\n"
		"            |           --25.00%--b\n"
		"            |\n"
		"             --25.00%--b\n"
		"                       do_syscall_64\n"
		"\n"
		"    75.00%    50.00%  [.] a\n"
		"            |\n"
		"             --25.00%--b\n"
		"\n";
	struct rh_config c = { .keys = { RH_SYM }, .nr_keys = 1,
			       .children = true, .callgraph = true,
			       .order = RH_CALLER };
	struct ro_opts o = { .fields = { RH_F_CHILDREN, RH_F_OVERHEAD,
					 RH_F_KEY + RH_SYM },
			     .nr_fields = 3, .top = 2, .limit = 20,
			     .names = { "cycles" } };
	struct rh_hist *h = rh_hist_new(&c);
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	add_four(h);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(ro_print_stdio(f, h, &o), 0);
	fclose(f);
	if (strcmp(text, want))
		fail_msg("got:\n%s\nwant:\n%s", text, want);
	free(text);
	rh_hist_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_sort),
		cmocka_unit_test(test_parse_fields),
		cmocka_unit_test(test_parse_time),
		cmocka_unit_test(test_parse_callgraph),
		cmocka_unit_test(test_parse_ids_names),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_self),
		cmocka_unit_test(test_children),
		cmocka_unit_test(test_sort_keys),
		cmocka_unit_test(test_srcline_ip_unknown),
		cmocka_unit_test(test_kernel_module),
		cmocka_unit_test(test_hidden),
		cmocka_unit_test(test_callgraph),
		cmocka_unit_test(test_stdio_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
