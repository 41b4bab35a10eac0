// SPDX-License-Identifier: GPL-2.0
/*
 * The encoders of skidless convert, fed frames made here.
 *
 * Folded names: the expected names are what FlameGraph's
 * stackcollapse-perf.pl printed for the same frames in perf script's
 * layout (tests/analysis/helpers/stackcollapse-perf.pl, run once by hand on
 * "\t1 SYM+0x1 (/x)" lines; the script drops a frame starting with '(').
 * The SVG is read back by libxml2's parser, the pprof file by zlib and
 * protobuf-c's decoder generated from the same profile.proto, JSON lines
 * by json-c's parser.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <zlib.h>

#include <json.h>

#include "flamegraph.h"
#include "jsonl_encode.h"
#include "pprof_encode.h"
#include "profile.pb-c.h"
#include "stacks.h"

static struct skd_frame user(const char *sym, const char *path)
{
	const char *slash = strrchr(path, '/');

	return (struct skd_frame){ .ip = 0x401000, .sym = sym, .dso = slash ?
				   slash + 1 : path, .path = path,
				   .map_start = 0x400000, .map_end = 0x500000 };
}

static void test_folded_names(void **state)
{
	static const struct { const char *sym, *path, *want; } cases[] = {
		{ "foo", "/x", "foo" },
		{ "ns::Foo::bar(int, char const*)", "/x", "ns::Foo::bar" },
		{ "ns::(anonymous namespace)::f(int)", "/x",
		  "ns::(anonymous namespace)::f" },
		{ "main.(*T).Method", "/x", "main.(*T).Method" },
		{ "a;b", "/x", "a:b" },
		{ "it's \"q\"", "/x", "its q" },
		{ NULL, "/usr/lib/libc.so.6", "[libc.so.6]" },
		{ NULL, "[unknown]", "[unknown]" },
		{ NULL, "[kernel.kallsyms]", "[[kernel.kallsyms]]" },
	};
	struct skd_frame f;
	char buf[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		f = user(cases[i].sym, cases[i].path);
		assert_true(stacks_frame_name(&f, buf, sizeof(buf)));
		assert_string_equal(buf, cases[i].want);
	}
	f = user("(anonymous namespace)::g()", "/x");
	assert_false(stacks_frame_name(&f, buf, sizeof(buf)));
	/* Cut to the buffer, still terminated. */
	f = user("abcdefgh", "/x");
	assert_true(stacks_frame_name(&f, buf, 4));
	assert_string_equal(buf, "abc");
}

/* Stacks of names, leaf first, all in /x. */
static void add(struct stacks *s, const char *comm, uint64_t period, int n, ...)
{
	struct skd_frame f[8];
	va_list ap;
	int i;

	va_start(ap, n);
	for (i = 0; i < n; i++)
		f[i] = user(va_arg(ap, const char *), "/x");
	va_end(ap);
	assert_int_equal(stacks_add(s, comm, f, (unsigned int)n, period), 0);
}

static void test_folded_merge_and_order(void **state)
{
	struct stacks s = { 0 };
	char buf[256];

	(void)state;
	add(&s, "my prog", 10, 2, "leaf", "main");
	add(&s, "my prog", 5, 2, "leaf", "main");
	add(&s, "my prog", 7, 1, "main");
	add(&s, "a", 1, 1, "main;x");
	assert_int_equal(s.n, 3);
	assert_int_equal(s.total_period, 23);
	assert_int_equal(s.total_samples, 4);
	stacks_sort(&s);
	/* Byte order of the joined text, as Perl's sort: "main" < "main;leaf". */
	stacks_format(&s, s.v[0], buf, sizeof(buf));
	assert_string_equal(buf, "a;main:x");
	stacks_format(&s, s.v[1], buf, sizeof(buf));
	assert_string_equal(buf, "my_prog;main");
	assert_int_equal(s.v[1]->period, 7);
	stacks_format(&s, s.v[2], buf, sizeof(buf));
	assert_string_equal(buf, "my_prog;main;leaf");
	assert_int_equal(s.v[2]->period, 15);
	assert_int_equal(s.v[2]->samples, 2);
	stacks_free(&s);
}

/* Same name in two objects: one folded line, as the text cannot tell. */
static void test_folded_same_name_two_objects(void **state)
{
	struct skd_frame f[2] = { user("memmove", "/lib/ld.so"),
				  user("main", "/bin/x") };
	struct stacks s = { 0 };

	(void)state;
	assert_int_equal(stacks_add(&s, "p", f, 2, 1), 0);
	f[0] = user("memmove", "/lib/libc.so.6");
	assert_int_equal(stacks_add(&s, "p", f, 2, 2), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.v[0]->period, 3);
	stacks_free(&s);
}

static size_t count_elements(xmlNode *n, const char *name)
{
	size_t c = 0;

	for (; n; n = n->next) {
		if (n->type == XML_ELEMENT_NODE &&
		    !strcmp((const char *)n->name, name))
			c++;
		c += count_elements(n->children, name);
	}
	return c;
}

/* The first <title> whose text starts with @prefix, or NULL. */
static xmlNode *find_title(xmlNode *n, const char *prefix)
{
	xmlNode *r;

	for (; n; n = n->next) {
		if (n->type == XML_ELEMENT_NODE &&
		    !strcmp((const char *)n->name, "title") && n->children &&
		    !strncmp((const char *)n->children->content, prefix,
			     strlen(prefix)))
			return n;
		r = find_title(n->children, prefix);
		if (r)
			return r;
	}
	return NULL;
}

static char *svg_of(const struct stacks *s, const struct flame_opts *o,
		    size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	assert_int_equal(flamegraph_write(s, o, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_svg(void **state)
{
	struct flame_opts o = { .title = "t & <t>" };
	struct stacks s = { 0 };
	xmlNode *root, *t, *rect;
	xmlChar *width;
	xmlDoc *doc;
	size_t len;
	char *svg;
	double w;

	(void)state;
	add(&s, "p", 30, 2, "a<b>&\"c'", "main");
	add(&s, "p", 10, 1, "main");
	s.event = "cycles";
	svg = svg_of(&s, &o, &len);
	doc = xmlReadMemory(svg, (int)len, "x.svg", NULL, XML_PARSE_NONET);
	assert_non_null(doc);
	root = xmlDocGetRootElement(doc);
	assert_string_equal((const char *)root->name, "svg");
	/* all, p, main, the leaf: one rectangle each, plus the background. */
	assert_int_equal(count_elements(root, "rect"), 5);
	assert_int_equal(count_elements(root, "title"), 4);
	/* Special characters survive the escaping (quotes are not kept in
	 * folded names, as stackcollapse-perf.pl drops them). */
	t = find_title(root, "a<b>&c");
	assert_non_null(t);
	assert_string_equal((const char *)t->children->content,
			    "a<b>&c (30 period, 75.00%)");
	assert_non_null(strstr(svg, ">t &amp; &lt;t&gt;</text>"));
	rect = xmlNextElementSibling(t);
	assert_non_null(rect);
	width = xmlGetProp(rect, (const xmlChar *)"width");
	w = strtod((const char *)width, NULL);
	xmlFree(width);
	assert_true(w > 884.99 && w < 885.01);	/* 3/4 of 1180 */
	xmlFreeDoc(doc);
	free(svg);
	stacks_free(&s);
}

static void test_svg_diff(void **state)
{
	struct stacks base = { 0 }, cur = { 0 };
	struct flame_opts o = { .base = &base };
	size_t len;
	char *svg;

	(void)state;
	add(&base, "p", 50, 2, "a", "main");
	add(&base, "p", 50, 2, "b", "main");
	add(&cur, "p", 75, 2, "a", "main");
	add(&cur, "p", 25, 2, "b", "main");
	svg = svg_of(&cur, &o, &len);
	/* a grew from 50% to 75%: red; b shrank: blue. */
	assert_non_null(strstr(svg, "<title>a (75 period, 75.00%; base 50.00%, "
			       "+25.00 points)</title><rect x=\"10.0000\""));
	/* Root at the bottom: 56 + 24 + 4 levels of 16 px, a on the top one. */
	assert_non_null(strstr(svg, "+25.00 points)</title><rect x=\"10.0000\" "
			       "y=\"56.0\" width=\"885.0000\" height=\"15.0\" "
			       "fill=\"rgb(255,55,55)\""));
	assert_non_null(strstr(svg, "width=\"295.0000\" height=\"15.0\" "
			       "fill=\"rgb(55,55,255)\""));
	free(svg);
	stacks_free(&base);
	stacks_free(&cur);
}

/* Inflate a gzip file whole (zlib) and decode it (protobuf-c). */
static Perftools__Profiles__Profile *read_back(const char *buf, size_t len)
{
	Perftools__Profiles__Profile *p;
	uint8_t *out = malloc(1 << 20);
	z_stream z = { 0 };

	assert_non_null(out);
	assert_true(len > 2 && (uint8_t)buf[0] == 0x1f && (uint8_t)buf[1] == 0x8b);
	assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = (uint8_t *)buf;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = 1 << 20;
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	p = perftools__profiles__profile__unpack(NULL, z.total_out, out);
	inflateEnd(&z);
	free(out);
	assert_non_null(p);
	return p;
}

static const char *S(const Perftools__Profiles__Profile *p, int64_t i)
{
	assert_true(i >= 0 && (size_t)i < p->n_string_table);
	return p->string_table[i];
}

static void test_pprof(void **state)
{
	static const struct skd_srcloc inl[] = {
		{ "inner", "in.h", 7 }, { "middle", "mid.h", 8 },
	};
	const char *events[] = { "cpu-clock", "cycles" };
	struct skd_frame f[3];
	Perftools__Profiles__Profile *p;
	Perftools__Profiles__Location *l;
	Perftools__Profiles__Mapping *m;
	Perftools__Profiles__Sample *s;
	struct pprof *pp = pprof_new(events, 2);
	char *buf = NULL;
	size_t len, i;
	FILE *out;

	(void)state;
	assert_non_null(pp);
	f[0] = user("outer", "/bin/prog");
	f[0].file = "outer.c";
	f[0].line = 42;
	f[0].nr_inline = 2;
	f[0].inl = inl;
	f[0].build_id = "00112233";
	f[0].map_pgoff = 0x1000;
	f[1] = (struct skd_frame){ .ip = 0xffffffff81000000ULL,
				   .sym = "kfunc", .dso = "[kernel.kallsyms]",
				   .kernel = true, .path = "[kernel.kallsyms]",
				   .map_start = 0xffff800000000000ULL,
				   .map_end = UINT64_MAX };
	f[2] = (struct skd_frame){ .ip = 0x1234, .dso = "[unknown]", .path = "" };
	assert_int_equal(pprof_add_sample(pp, 1, 10, 11, "prog", f, 3, 1000), 0);
	assert_int_equal(pprof_add_sample(pp, 1, 10, 11, "prog", f, 3, 500), 0);
	assert_int_equal(pprof_add_sample(pp, 0, 10, 11, "prog", f, 1, 7), 0);
	assert_int_equal(pprof_add_sample(pp, 2, 10, 11, "prog", f, 1, 7), -EINVAL);
	pprof_set_duration(pp, 99);
	out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(pprof_write(pp, out), 0);
	assert_int_equal(fclose(out), 0);
	pprof_free(pp);

	p = read_back(buf, len);
	assert_string_equal(p->string_table[0], "");
	assert_int_equal(p->n_sample_type, 4);
	assert_string_equal(S(p, p->sample_type[0]->type), "cpu-clock-samples");
	assert_string_equal(S(p, p->sample_type[0]->unit), "count");
	assert_string_equal(S(p, p->sample_type[1]->type), "cpu-clock");
	assert_string_equal(S(p, p->sample_type[1]->unit), "nanoseconds");
	assert_string_equal(S(p, p->sample_type[3]->type), "cycles");
	assert_string_equal(S(p, p->sample_type[3]->unit), "events");
	assert_string_equal(S(p, p->default_sample_type), "cpu-clock");
	assert_int_equal(p->duration_nanos, 99);
	/* The two cycles samples merged: 2 samples, period 1500. */
	assert_int_equal(p->n_sample, 2);
	s = p->sample[0];
	assert_int_equal(s->n_value, 4);
	assert_int_equal(s->value[0], 0);
	assert_int_equal(s->value[2], 2);
	assert_int_equal(s->value[3], 1500);
	assert_int_equal(s->n_location_id, 3);
	assert_int_equal(p->sample[1]->value[0], 1);
	assert_int_equal(p->sample[1]->value[1], 7);
	assert_int_equal(p->sample[1]->location_id[0], s->location_id[0]);
	assert_int_equal(s->n_label, 3);
	assert_string_equal(S(p, s->label[0]->key), "pid");
	assert_int_equal(s->label[0]->num, 10);
	assert_string_equal(S(p, s->label[2]->key), "comm");
	assert_string_equal(S(p, s->label[2]->str), "prog");
	/* Leaf location: inlined functions innermost first, then outer. */
	assert_int_equal(p->n_location, 3);
	l = p->location[s->location_id[0] - 1];
	assert_int_equal(l->id, s->location_id[0]);
	assert_int_equal(l->address, 0x401000);
	assert_int_equal(l->n_line, 3);
	assert_string_equal(S(p, p->function[l->line[0]->function_id - 1]->name),
			    "inner");
	assert_string_equal(S(p, p->function[l->line[0]->function_id - 1]->filename),
			    "in.h");
	assert_int_equal(l->line[0]->line, 7);
	assert_string_equal(S(p, p->function[l->line[2]->function_id - 1]->name),
			    "outer");
	assert_int_equal(l->line[2]->line, 42);
	/* Its mapping, first as the object of most leaves. */
	m = p->mapping[l->mapping_id - 1];
	assert_int_equal(l->mapping_id, 1);
	assert_string_equal(S(p, m->filename), "/bin/prog");
	assert_string_equal(S(p, m->build_id), "00112233");
	assert_int_equal(m->memory_start, 0x400000);
	assert_int_equal(m->memory_limit, 0x500000);
	assert_int_equal(m->file_offset, 0x1000);
	assert_true(m->has_functions && m->has_inline_frames);
	/* Kernel frame in its own mapping; the unmapped one without any. */
	l = p->location[s->location_id[1] - 1];
	assert_string_equal(S(p, p->mapping[l->mapping_id - 1]->filename),
			    "[kernel.kallsyms]");
	l = p->location[s->location_id[2] - 1];
	assert_int_equal(l->mapping_id, 0);
	assert_int_equal(l->n_line, 0);
	for (i = 0; i < p->n_function; i++)
		assert_int_equal(p->function[i]->id, i + 1);
	perftools__profiles__profile__free_unpacked(p, NULL);
	free(buf);
}

static void name_branch(void *ctx, uint64_t addr, struct skd_frame *f)
{
	(void)ctx;
	*f = user(addr == 0x401010 ? "target" : NULL, "/x");
	f->off = 2;
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	assert_true(json_object_object_get_ex(o, key, &v));
	return v;
}

static void test_jsonl(void **state)
{
	static const struct skd_srcloc inl[] = { { "in\"ner", NULL, 3 } };
	const struct skd_sample_mem mem = {
		.addr = 0xffffffff12345678ULL, .source = 0x42,
		.latency = 7 | (90ULL << 32), .flags = SKD_MEM_LAT_SPLIT,
	};
	const struct skd_branch_entry br[2] = {
		{ 0x401000, 0x401010, SKD_BR_INFO_MISPRED | SKD_BR_INFO_CYC_VALID | 5 },
		{ 0x401020, 0x401030, 0 },
	};
	struct skd_frame f[2];
	struct jsonl_sample s = {
		.time = 123456789012345ULL, .period = 1000, .ip = 0x401234,
		.cpu = 3, .pid = 10, .tid = 11, .misc = SKD_MISC_EXACT_IP,
		.comm = "a \"b\"\n", .event = "cycles:pp", .frames = f,
		.nr_frames = 2, .mem = &mem, .branches = br, .nr_branches = 2,
		.name = name_branch,
	};
	json_object *o, *a, *x;
	char *buf = NULL;
	size_t len;
	FILE *out;

	(void)state;
	f[0] = user("main", "/bin/x");
	f[0].nr_inline = 1;
	f[0].inl = inl;
	f[0].file = "x.c";
	f[0].line = 9;
	f[1] = (struct skd_frame){ .ip = 0x10, .dso = "[unknown]" };
	out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(jsonl_write_sample(out, &s), 0);
	assert_int_equal(fclose(out), 0);
	/* One line, then the newline. */
	assert_true(len > 0 && buf[len - 1] == '\n' && !memchr(buf, '\n', len - 1));
	o = json_tokener_parse(buf);
	assert_non_null(o);
	assert_int_equal(json_object_get_uint64(get(o, "time")), 123456789012345ULL);
	assert_int_equal(json_object_get_int(get(o, "cpu")), 3);
	assert_string_equal(json_object_get_string(get(o, "comm")), "a \"b\"\n");
	assert_string_equal(json_object_get_string(get(o, "ip")), "0x401234");
	assert_true(json_object_get_boolean(get(o, "exact")));
	assert_false(json_object_get_boolean(get(o, "kernel")));
	a = get(o, "frames");
	assert_int_equal(json_object_array_length(a), 2);
	x = json_object_array_get_idx(a, 0);
	assert_string_equal(json_object_get_string(get(x, "sym")), "main");
	assert_string_equal(json_object_get_string(get(x, "dso")), "x");
	assert_int_equal(json_object_get_int(get(x, "line")), 9);
	x = json_object_array_get_idx(get(x, "inlined"), 0);
	assert_string_equal(json_object_get_string(get(x, "func")), "in\"ner");
	assert_null(get(x, "file"));
	x = json_object_array_get_idx(a, 1);
	assert_null(get(x, "sym"));
	x = get(o, "mem");
	assert_string_equal(json_object_get_string(get(x, "addr")),
			    "0xffffffff12345678");
	assert_int_equal(json_object_get_int(get(x, "latency")), 7);
	assert_int_equal(json_object_get_int(get(x, "cache_latency")), 90);
	a = get(o, "branches");
	assert_int_equal(json_object_array_length(a), 2);
	x = json_object_array_get_idx(a, 0);
	/* Bit 63: a mispredict must not be lost on the way to a boolean. */
	assert_true(json_object_get_boolean(get(x, "mispredicted")));
	assert_int_equal(json_object_get_int(get(x, "cycles")), 5);
	assert_string_equal(json_object_get_string(get(x, "to_sym")), "target+0x2");
	assert_null(get(x, "from_sym"));
	x = json_object_array_get_idx(a, 1);
	assert_false(json_object_get_boolean(get(x, "mispredicted")));
	assert_false(json_object_object_get_ex(x, "cycles", NULL));
	json_object_put(o);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_folded_names),
		cmocka_unit_test(test_folded_merge_and_order),
		cmocka_unit_test(test_folded_same_name_two_objects),
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_svg_diff),
		cmocka_unit_test(test_pprof),
		cmocka_unit_test(test_jsonl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
