// SPDX-License-Identifier: GPL-2.0
/*
 * skidless annotate: one function's instructions with the share of its
 * samples each one took, source lines between them, and how many of
 * those samples were exact-IP (PEBS names the eventing instruction; the
 * others may have skidded past it).
 *
 * Samples are grouped by the object file they fell in (path and the
 * build-id the capture recorded, as the symbolizer opens it) and by
 * event; each group is one section. Shares are of the group's period,
 * as report weighs them and as perf annotate's default local-period
 * percentages are.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "disasm.h"
#include "dso.h"
#include "hmap.h"
#include "profile.h"
#include "report_common.h"
#include "subcommands.h"

/*
 * Bytes decoded when the ELF gives the symbol no size, past its last
 * sample; the function then ends where the next symbol starts.
 */
#define SIZELESS_TAIL	4096
/* The largest function we decode. */
#define MAX_FUNC_BYTES	(4u << 20)

static const char usage_text[] =
	"Usage: %s %s [-i FILE] [-e EVENT] [--dso NAME] [--stdio|--tty]\n"
	"       [-M att|intel] SYMBOL\n"
	"\n"
	"Show the instructions of function SYMBOL with the share of its samples\n"
	"(period-weighted, as report) each one took, the source lines DWARF\n"
	"gives for them, and the samples whose ip is exact (PEBS: the\n"
	"instruction that caused the event; the others may have skidded).\n"
	"One section per event and object holding SYMBOL.\n"
	"\n"
	"  -i, --input FILE   capture to read (default perf.data)\n"
	"  -e, --event EVENT  only samples of EVENT (as report names it)\n"
	"      --dso NAME     only SYMBOL in object NAME (file name or path)\n"
	"      --stdio        plain text (the default when stdout is no terminal)\n"
	"      --tty          colours, hottest instruction highlighted (the\n"
	"                     default on a terminal)\n"
	"  -M SYNTAX          att (default, as objdump and perf) or intel\n";

struct hit {
	uint64_t period, samples, exact;
};

/* SYMBOL's samples of one event in one object. */
struct section {
	unsigned int event;
	const char *path, *bid, *dso;	/* live as long as the profile */
	struct skd_hmap hits;		/* file offset -> struct hit */
	uint64_t period, samples, exact;
	uint64_t some_offset;		/* of one sample, to find the symbol */
};

struct opts {
	const char *input, *event, *dso, *symbol;
	bool tty;
	enum skd_disasm_syntax syntax;
};

struct source_cache {
	char *path;
	char *text;
	char **lines;		/* into text; lines[0] is line 1 */
	size_t nr;
};

static bool event_matches(const char *name, const char *want)
{
	size_t n = strcspn(name, ":");

	return !strcmp(name, want) ||
	       (strlen(want) == n && !strncmp(name, want, n)) ||
	       (!name[0] && !strcmp(want, "timer"));
}

static bool dso_matches(const char *path, const char *base, const char *want)
{
	return !strcmp(base, want) || !strcmp(path, want);
}

static struct section *get_section(struct section **v, size_t *n,
				   unsigned int event,
				   const struct skd_object *o, const char *dso)
{
	struct section *s;
	size_t i;

	for (i = 0; i < *n; i++) {
		s = &(*v)[i];
		if (s->event == event && !strcmp(s->path, o->path) &&
		    (s->bid && o->build_id ? !strcmp(s->bid, o->build_id) :
					     s->bid == o->build_id))
			return s;
	}
	s = realloc(*v, (*n + 1) * sizeof(*s));
	if (!s)
		return NULL;
	*v = s;
	s = &s[(*n)++];
	memset(s, 0, sizeof(*s));
	s->event = event;
	s->path = o->path;
	s->bid = o->build_id;
	s->dso = dso;
	return s;
}

/* Sections in event order, as perf annotate prints them. */
static int by_event(const void *x, const void *y)
{
	const struct section *a = x, *b = y;
	int c;

	if (a->event != b->event)
		return a->event < b->event ? -1 : 1;
	c = strcmp(a->path, b->path);
	return c ? c : strcmp(a->bid ? a->bid : "", b->bid ? b->bid : "");
}

static void free_hit(uint64_t key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	free(val);
}

static void free_source(struct source_cache *c)
{
	free(c->path);
	free(c->text);
	free(c->lines);
	memset(c, 0, sizeof(*c));
}

/* Line @line of @path, or NULL when the file cannot be read. */
static const char *source_line(struct source_cache *c, const char *path,
			       unsigned int line)
{
	FILE *f;
	long len;
	size_t i;

	if (!c->path || strcmp(c->path, path)) {
		free_source(c);
		c->path = strdup(path);
		f = fopen(path, "r");
		if (f && !fseek(f, 0, SEEK_END) && (len = ftell(f)) >= 0 &&
		    !fseek(f, 0, SEEK_SET) && (c->text = malloc(len + 1)) &&
		    fread(c->text, 1, len, f) == (size_t)len) {
			c->text[len] = '\0';
			for (i = 0; i < (size_t)len; i++)
				c->nr += c->text[i] == '\n';
			c->lines = calloc(c->nr + 1, sizeof(*c->lines));
			if (c->lines) {
				char *s = c->text, *nl;

				for (c->nr = 0; *s; s = nl + 1) {
					c->lines[c->nr++] = s;
					nl = strchr(s, '\n');
					if (!nl)
						break;
					*nl = '\0';
				}
			}
		}
		if (f)
			fclose(f);
	}
	if (!c->lines || !line || line > c->nr)
		return NULL;
	return c->lines[line - 1];
}

/* The line table's place of @vaddr: the innermost inlined function's. */
static void place_of(struct skd_dso *d, uint64_t vaddr, const char **file,
		     unsigned int *line)
{
	struct skd_dso_sym ds;

	*file = NULL;
	*line = 0;
	if (skd_dso_lookup(d, vaddr, &ds))
		return;
	if (ds.nr_inline) {
		*file = ds.inl[0].file;
		*line = ds.inl[0].line;
	} else {
		*file = ds.file;
		*line = ds.line;
	}
}

/* Samples of a section spread over the instructions of its symbol. */
struct charge {
	struct skd_dso *d;
	uint64_t start, end;		/* the symbol's bytes [start, end) */
	const struct skd_insn *insn;
	size_t n;
	struct hit *per;		/* per instruction */
	uint64_t outside;		/* samples not in [start, end) */
};

/* Extend c->end to the furthest sampled address (a sizeless symbol). */
static void last_sample(uint64_t off, void *val, void *arg)
{
	struct charge *c = arg;
	uint64_t v;

	(void)val;
	if (!skd_dso_offset_to_vaddr(c->d, off, &v) && v > c->end &&
	    v >= c->start && v - c->start < MAX_FUNC_BYTES)
		c->end = v;
}

static void charge(uint64_t off, void *val, void *arg)
{
	const struct hit *h = val;
	struct charge *c = arg;
	size_t lo = 0, hi = c->n;
	uint64_t v;

	if (skd_dso_offset_to_vaddr(c->d, off, &v) || v < c->start ||
	    v >= c->end || !c->n) {
		c->outside += h->samples;
		return;
	}
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (c->insn[mid].addr <= v)
			lo = mid;
		else
			hi = mid;
	}
	c->per[lo].period += h->period;
	c->per[lo].samples += h->samples;
	c->per[lo].exact += h->exact;
}

#define C_RESET	"\033[0m"
#define C_RED	"\033[31m"
#define C_GREEN	"\033[32m"
#define C_HOT	"\033[1;37;41m"	/* bold white on red: the hottest line */
#define C_DIM	"\033[2m"

static int print_section(struct skd_profile *p, const struct section *s,
			 const struct opts *o)
{
	const char *ev_name = skd_profile_event_name(p, s->event);
	struct source_cache src = { 0 };
	struct skd_insn *insn = NULL;
	struct hit *per = NULL;
	struct skd_dso *d;
	struct skd_dso_sym ds;
	uint64_t v, start, size, end, hottest = 0, outside = 0;
	struct charge c;
	const char *last_file = NULL;
	unsigned int last_line = 0;
	uint8_t *code = NULL;
	char err[1024] = "";
	size_t n = 0, i, hot_i = SIZE_MAX;
	int ret = 1;

	d = skd_dso_open(s->path, s->bid, NULL, err, sizeof(err));
	if (!d) {
		fprintf(stderr, "%s: cannot annotate %s in %s: %s\n", PROG_NAME,
			o->symbol, s->path, err[0] ? err : strerror(errno));
		return 1;
	}
	if (skd_dso_offset_to_vaddr(d, s->some_offset, &v) ||
	    skd_dso_lookup(d, v, &ds) || !ds.name) {
		fprintf(stderr, "%s: %s: no symbol at file offset 0x%" PRIx64
			" any more: is it the object the capture saw?\n",
			PROG_NAME, skd_dso_file(d), s->some_offset);
		goto out;
	}
	start = ds.start;
	size = ds.size;
	if (!size) {
		/* A label without .size: up to the last sample, and a bit. */
		c = (struct charge){ .d = d, .start = start, .end = v };

		skd_hmap_each(&s->hits, last_sample, &c);
		end = c.end;
		size = end - start + SIZELESS_TAIL;
	}
	if (size > MAX_FUNC_BYTES) {
		fprintf(stderr, "%s: %s is %" PRIu64 " bytes long: more than "
			"annotate decodes (%u)\n", PROG_NAME, ds.name, size,
			MAX_FUNC_BYTES);
		goto out;
	}
	code = malloc(size);
	if (!code) {
		fprintf(stderr, "%s: out of memory\n", PROG_NAME);
		goto out;
	}
	if (skd_dso_read(d, start, code, size)) {
		/* A sizeless label near a segment's end: what is there. */
		while (size > 1 && skd_dso_read(d, start, code, size))
			size--;
		if (skd_dso_read(d, start, code, size)) {
			fprintf(stderr, "%s: %s: the bytes of %s (0x%" PRIx64
				") are not in the file (stripped to debug "
				"info only?)\n", PROG_NAME, skd_dso_file(d),
				ds.name, start);
			goto out;
		}
	}
	if (skd_disasm(code, size, start, o->syntax, &insn, &n, err,
		       sizeof(err))) {
		fprintf(stderr, "%s: %s\n", PROG_NAME, err);
		goto out;
	}
	if (!ds.size) {
		struct skd_dso_sym next;

		/* As perf: a label without .size ends at the next symbol. */
		for (i = 1; i < n; i++)
			if (skd_dso_lookup(d, insn[i].addr, &next) ||
			    !next.name || next.start != start)
				break;
		n = i < n ? i : n;
		size = n ? insn[n - 1].addr + insn[n - 1].size - start : 0;
	}
	per = calloc(n ? n : 1, sizeof(*per));
	if (!per) {
		fprintf(stderr, "%s: out of memory\n", PROG_NAME);
		goto out;
	}
	/* Charge each sample to the instruction covering its address. */
	c = (struct charge){ .d = d, .start = start, .end = start + size,
			     .insn = insn, .n = n, .per = per };
	skd_hmap_each(&s->hits, charge, &c);
	outside = c.outside;
	for (i = 0; i < n; i++)
		if (per[i].period > hottest) {
			hottest = per[i].period;
			hot_i = i;
		}

	printf("#\n# %s in %s", ds.name, skd_dso_file(d));
	if (skd_dso_build_id(d)[0])
		printf(" (build-id %s)", skd_dso_build_id(d));
	printf("\n# event: %s, %" PRIu64 " samples (%" PRIu64 " exact-IP), "
	       "period %" PRIu64 "\n#\n", ev_name[0] ? ev_name : "timer",
	       s->samples, s->exact, s->period);
	printf("# %7s %8s %8s %16s  %s\n", "Percent", "Samples", "Exact",
	       "Address", "Instruction");
	for (i = 0; i < n; i++) {
		const char *file, *text, *color = "";
		unsigned int line;
		double pct = s->period ? 100.0 * (double)per[i].period /
					 (double)s->period : 0;

		place_of(d, insn[i].addr, &file, &line);
		if (file && (line != last_line || !last_file ||
			     strcmp(file, last_file))) {
			text = source_line(&src, file, line);
			printf("%s%46s%s:%u%s%s%s\n", o->tty ? C_DIM : "", "",
			       file, line, text ? "  " : "", text ? text : "",
			       o->tty ? C_RESET : "");
			last_file = file;
			last_line = line;
		}
		if (o->tty && i == hot_i)
			color = C_HOT;
		else if (o->tty && pct >= 5)
			color = C_RED;
		else if (o->tty && pct >= 0.5)
			color = C_GREEN;
		printf("%s  %7.2f %8" PRIu64 " %8" PRIu64 " %16" PRIx64
		       ":  %-7s %s%s\n", color, pct, per[i].samples,
		       per[i].exact, insn[i].addr, insn[i].mnemonic,
		       insn[i].operands, color[0] ? C_RESET : "");
	}
	if (outside)
		printf("# %" PRIu64 " samples named %s fell outside its bytes "
		       "in this file (not shown)\n", outside, ds.name);
	ret = 0;
out:
	free_source(&src);
	free(per);
	free(insn);
	free(code);
	skd_dso_free(d);
	return ret;
}

static int parse_args(int argc, char *argv[], struct opts *o)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "event", required_argument, NULL, 'e' },
		{ "dso", required_argument, NULL, 'D' },
		{ "stdio", no_argument, NULL, 'S' },
		{ "tty", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->input = "perf.data";
	o->tty = isatty(STDOUT_FILENO);
	o->syntax = SKD_DISASM_ATT;
	while ((c = getopt_long(argc, argv, "i:e:M:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o->input = optarg;
			break;
		case 'e':
			o->event = optarg;
			break;
		case 'D':
			o->dso = optarg;
			break;
		case 'S':
			o->tty = false;
			break;
		case 'T':
			o->tty = true;
			break;
		case 'M':
			if (!strcmp(optarg, "att")) {
				o->syntax = SKD_DISASM_ATT;
			} else if (!strcmp(optarg, "intel")) {
				o->syntax = SKD_DISASM_INTEL;
			} else {
				fprintf(stderr, "%s %s: -M takes att or intel, "
					"not `%s'\n", PROG_NAME, argv[0],
					optarg);
				return 1;
			}
			break;
		case 'h':
			printf(usage_text, PROG_NAME, argv[0]);
			return -1;
		default:
			fprintf(stderr, usage_text, PROG_NAME, argv[0]);
			return 1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "%s %s: which function? Give its name (as "
			"report shows it)\n", PROG_NAME, argv[0]);
		fprintf(stderr, usage_text, PROG_NAME, argv[0]);
		return 1;
	}
	o->symbol = argv[optind];
	return 0;
}

int annotate_main(int argc, char *argv[])
{
	struct section *secs = NULL;
	struct skd_profile *p;
	struct skd_event ev;
	struct skd_object obj;
	struct skd_frame f;
	struct opts o = { 0 };
	uint64_t in_kernel = 0, unmapped = 0, other_dso = 0, unnamed = 0;
	size_t nsecs = 0, i, n;
	bool event_seen = false;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret < 0 ? 0 : ret;
	p = load_input(argc, argv, optind + 1, o.input);
	if (!p)
		return 1;

	ret = 1;
	n = skd_profile_nr_samples(p);
	for (i = 0; i < n; i++) {
		unsigned int e;
		struct section *s;
		struct hit *h;

		skd_profile_sample(p, i, &ev);
		e = ev.sample.rec->event;
		if (o.event && !event_matches(skd_profile_event_name(p, e),
					      o.event))
			continue;
		event_seen = true;
		skd_profile_frame(p, &ev, 0, &f);
		unnamed += !f.sym;
		if (!f.sym || strcmp(f.sym, o.symbol))
			continue;
		if (f.kernel) {
			in_kernel++;
			continue;
		}
		if (skd_profile_object(p, &ev, f.ip, &obj) || !obj.path[0]) {
			unmapped++;
			continue;
		}
		if (o.dso && !dso_matches(obj.path, f.dso, o.dso)) {
			other_dso++;
			continue;
		}
		s = get_section(&secs, &nsecs, e, &obj, f.dso);
		h = s ? skd_hmap_get_or_new(&s->hits, obj.file_offset,
					    sizeof(*h)) : NULL;
		if (!h) {
			fprintf(stderr, "%s: out of memory\n", PROG_NAME);
			goto out;
		}
		if (!s->samples)
			s->some_offset = obj.file_offset;
		h->samples++;
		h->period += ev.sample.rec->period;
		s->samples++;
		s->period += ev.sample.rec->period;
		if (ev.misc & SKD_MISC_EXACT_IP) {
			h->exact++;
			s->exact++;
		}
	}

	if (o.event && !event_seen) {
		fprintf(stderr, "%s: %s has no samples of event %s (report "
			"lists its events)\n", PROG_NAME, o.input, o.event);
		goto out;
	}
	if (!nsecs) {
		if (in_kernel)
			fprintf(stderr, "%s: %s is a kernel function (%" PRIu64
				" samples): annotate reads user-space objects "
				"only\n", PROG_NAME, o.symbol, in_kernel);
		else if (unmapped)
			fprintf(stderr, "%s: %s was sampled (%" PRIu64 ") in "
				"code no file holds (JIT or anonymous memory): "
				"nothing to disassemble\n", PROG_NAME, o.symbol,
				unmapped);
		else if (other_dso)
			fprintf(stderr, "%s: %s has samples only in objects "
				"other than %s (drop --dso or name another)\n",
				PROG_NAME, o.symbol, o.dso);
		else
			fprintf(stderr, "%s: no sample of %s names %s (report "
				"shows the sampled functions; names are "
				"demangled)\n", PROG_NAME, o.input, o.symbol);
		if (unnamed)
			fprintf(stderr, "%s: %" PRIu64 " samples fell where no "
				"function is named: an object that could not "
				"be read (said above) may hold %s\n", PROG_NAME,
				unnamed, o.symbol);
		goto out;
	}
	ret = 0;
	qsort(secs, nsecs, sizeof(*secs), by_event);
	for (i = 0; i < nsecs; i++)
		if (print_section(p, &secs[i], &o))
			ret = 1;
	if (in_kernel || unmapped)
		fprintf(stderr, "%s: %" PRIu64 " samples of %s in the kernel "
			"and %" PRIu64 " outside any file were not annotated\n",
			PROG_NAME, in_kernel, o.symbol, unmapped);
	warn_capture_problems(o.input, skd_profile_totals(p));
	if (fflush(stdout))
		ret = 1;
out:
	for (i = 0; i < nsecs; i++) {
		skd_hmap_each(&secs[i].hits, free_hit, NULL);
		skd_hmap_free(&secs[i].hits);
	}
	free(secs);
	skd_profile_free(p);
	return ret;
}
