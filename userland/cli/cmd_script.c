// SPDX-License-Identifier: GPL-2.0
/* skidless script: one line per sample, in time order, frames named. */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "profile.h"
#include "report_common.h"
#include "subcommands.h"
#include "writers.h"

static const char usage_text[] =
	"Usage: %s %s [-i FILE] [--all | --perf]\n"
	"\n"
	"Print every sample of a capture: command, pid/tid, CPU, time, period,\n"
	"event (PMU backends), mode (U user, K kernel; a * after it: the ip is\n"
	"the exact instruction that caused the event) and the call chain, leaf\n"
	"first. PEBS memory samples add `| mem ADDR lat N src S', branch stacks\n"
	"`| brstack FROM/TO/P|M/CYCLES ...', newest branch first.\n"
	"\n"
	"  -i, --input FILE   capture to read (default perf.data)\n"
	"      --all          also print COMM, EXEC, FORK, EXIT, LOST and\n"
	"                     THROTTLE records\n"
	"      --perf         perf script's own layout instead: a header line\n"
	"                     per sample, one line per frame, a blank line\n"
	"                     (what FlameGraph's stackcollapse-perf.pl reads)\n";

/* @v in decimal, right-aligned in @width (zero-padded with @zero). */
static char *put_dec(char *p, uint64_t v, int width, bool zero)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (; width > n; width--)
		*p++ = zero ? '0' : ' ';
	while (n)
		*p++ = tmp[--n];
	return p;
}

/*
 * "%16s %6u/%-6u [%03u] %lu.%06lu: " without printf, which costs more
 * than the rest of the line in a script of millions of samples.
 */
static void print_prefix(const struct skd_profile *p,
			 const struct skd_event *ev)
{
	const char *comm = skd_profile_comm(p, ev->id->pid, ev->id->tid,
					    ev->id->time);
	char unnamed[16], buf[128], *q = buf, *tid;
	size_t len;

	/* As perf: a thread whose name is not known is ":TID". */
	if (!comm && ev->id->pid) {
		snprintf(unnamed, sizeof(unnamed), ":%u", ev->id->tid);
		comm = unnamed;
	} else if (!comm) {
		comm = "swapper";
	}
	len = strlen(comm);
	if (len < 16) {
		memset(q, ' ', 16 - len);
		q += 16 - len;
	}
	fwrite_unlocked(buf, 1, (size_t)(q - buf), stdout);
	fputs_unlocked(comm, stdout);
	q = buf;
	*q++ = ' ';
	q = put_dec(q, ev->id->pid, 6, false);
	*q++ = '/';
	tid = q;
	q = put_dec(q, ev->id->tid, 0, false);
	while (q - tid < 6)
		*q++ = ' ';
	memcpy(q, " [", 2);
	q = put_dec(q + 2, ev->id->cpu, 3, true);
	memcpy(q, "] ", 2);
	q = put_dec(q + 2, (uint64_t)ev->id->time / 1000000000, 0, false);
	*q++ = '.';
	q = put_dec(q, (uint64_t)ev->id->time % 1000000000 / 1000, 6, true);
	memcpy(q, ": ", 2);
	fwrite_unlocked(buf, 1, (size_t)(q + 2 - buf), stdout);
}

static void print_mem(const struct skd_sample_mem *mem)
{
	uint64_t lat = mem->latency;

	printf(" | mem 0x%" PRIx64, (uint64_t)mem->addr);
	/* Golden Cove and Gracemont: instruction and cache latency apart. */
	if (mem->flags & SKD_MEM_LAT_SPLIT)
		printf(" lat %" PRIu64 "/%" PRIu64, lat & 0xffff,
		       (lat >> 32) & 0xffff);
	else
		printf(" lat %" PRIu64, lat);
	printf(" src 0x%" PRIx64 "%s", (uint64_t)mem->source,
	       mem->flags & SKD_MEM_MODELED ? " modeled" : "");
}

/* Branch stacks as perf's brstacksym: from/to/P|M/cycles, newest first. */
static void print_branches(struct skd_profile *p, const struct skd_event *ev)
{
	const struct skd_branch_entry *b = ev->sample.branches;
	struct skd_frame from, to;
	unsigned int i;

	fputs(" | brstack", stdout);
	for (i = 0; i < ev->sample.nr_branches; i++) {
		skd_profile_addr(p, ev, b[i].from, &from);
		skd_profile_addr(p, ev, b[i].to, &to);
		putchar(' ');
		print_symbol(stdout, &from);
		putchar('/');
		print_symbol(stdout, &to);
		printf("/%c/%u", b[i].info & SKD_BR_INFO_MISPRED ? 'M' : 'P',
		       b[i].info & SKD_BR_INFO_CYC_VALID ?
		       (unsigned int)(b[i].info & SKD_BR_INFO_CYCLES) : 0);
	}
}

/*
 * A sample's chain, built whole and written at once: the frames are most
 * of a script's output, and stdio's per-call work was most of its time.
 */
struct text {
	char *p;
	size_t len, cap;
};

static struct text chain;

static void put_str(struct text *t, const char *s, size_t n)
{
	if (t->len + n > t->cap) {
		size_t cap = (t->len + n) * 2 + 256;
		char *np = realloc(t->p, cap);

		if (!np) {
			/* Out of memory: what fits now, the rest straight out. */
			fwrite_unlocked(t->p, 1, t->len, stdout);
			fwrite_unlocked(s, 1, n, stdout);
			t->len = 0;
			return;
		}
		t->p = np;
		t->cap = cap;
	}
	memcpy(t->p + t->len, s, n);
	t->len += n;
}

static void put_hex64(struct text *t, uint64_t v)
{
	char buf[2 + 16], *q = buf + sizeof(buf);

	do {
		*--q = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	*--q = 'x';
	*--q = '0';
	put_str(t, q, (size_t)(buf + sizeof(buf) - q));
}

/* As print_frame(): "sym+0xOFF (dso)", or "0xIP (dso)". */
static void put_frame(struct text *t, const struct skd_frame *f)
{
	if (f->sym) {
		put_str(t, f->sym, strlen(f->sym));
		put_str(t, "+", 1);
		put_hex64(t, f->off);
	} else {
		put_hex64(t, f->ip);
	}
	put_str(t, " (", 2);
	put_str(t, f->dso, strlen(f->dso));
	put_str(t, ")", 1);
}

static void print_sample(struct skd_profile *p, const struct skd_event *ev)
{
	unsigned int i, n = skd_profile_nr_frames(p, ev);
	const char *event = skd_profile_event_name(p, ev->sample.rec->event);
	struct skd_frame f;

	char buf[32], *q;

	print_prefix(p, ev);
	q = put_dec(buf, ev->sample.rec->period, 0, false);
	*q++ = ' ';
	fwrite_unlocked(buf, 1, (size_t)(q - buf), stdout);
	if (event[0]) {
		fputs_unlocked(event, stdout);
		putc_unlocked(' ', stdout);
	}
	putc_unlocked((ev->misc & SKD_MISC_CPUMODE_MASK) == SKD_MISC_KERNEL ?
		      'K' : 'U', stdout);
	fputs_unlocked(ev->misc & SKD_MISC_EXACT_IP ? "* " : " ", stdout);
	chain.len = 0;
	for (i = 0; i < n; i++) {
		skd_profile_frame(p, ev, i, &f);
		if (i)
			put_str(&chain, " <- ", 4);
		put_frame(&chain, &f);
	}
	fwrite_unlocked(chain.p, 1, chain.len, stdout);
	if (ev->sample.mem)
		print_mem(ev->sample.mem);
	/* A call stack is shown as the chain above, not again as branches. */
	if (ev->sample.branches &&
	    !(ev->sample.branch_flags & SKD_BR_CALL_STACK && !ev->sample.nr))
		print_branches(p, ev);
	putc_unlocked('\n', stdout);
}

static void print_other(const struct skd_profile *p, const struct skd_event *ev)
{
	print_prefix(p, ev);
	switch (ev->type) {
	case SKD_REC_COMM:
		printf("COMM %s%s\n", ev->comm->comm,
		       ev->misc & SKD_MISC_COMM_EXEC ? " (exec)" : "");
		break;
	case SKD_REC_EXEC:
		printf("EXEC %s\n", ev->exec.path);
		break;
	case SKD_REC_FORK:
		printf("FORK from %u/%u\n", ev->task->ppid, ev->task->ptid);
		break;
	case SKD_REC_EXIT:
		printf("EXIT\n");
		break;
	case SKD_REC_LOST:
		printf("LOST %" PRIu64 " records\n", (uint64_t)ev->lost->lost);
		break;
	case SKD_REC_THROTTLE:
	case SKD_REC_UNTHROTTLE:
		/* perf.data's THROTTLE has no limit: read back as 0. */
		if (ev->throttle->limit)
			printf("%s above %" PRIu64 " samples/s\n",
			       skd_rec_type_name(ev->type),
			       (uint64_t)ev->throttle->limit);
		else
			printf("%s\n", skd_rec_type_name(ev->type));
		break;
	}
}

static void print_record(struct skd_profile *p, const struct skd_event *ev,
			 void *arg)
{
	(void)arg;
	if (ev->type == SKD_REC_SAMPLE)
		print_sample(p, ev);
	else
		print_other(p, ev);
}

int script_main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "all", no_argument, NULL, 'A' },
		{ "perf", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = "perf.data";
	struct skd_profile *p;
	bool all = false, perf = false;
	int c;

	while ((c = getopt_long(argc, argv, "i:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'A':
			all = true;
			break;
		case 'P':
			perf = true;
			break;
		case 'h':
			printf(usage_text, PROG_NAME, argv[0]);
			return 0;
		default:
			fprintf(stderr, usage_text, PROG_NAME, argv[0]);
			return 1;
		}
	}
	p = load_input(argc, argv, optind, input);
	if (!p)
		return 1;

	if (perf && all) {
		fprintf(stderr, "%s %s: --perf shows samples only; drop --all\n",
			PROG_NAME, argv[0]);
		skd_profile_free(p);
		return 1;
	}
	/* Frames are shown as symbol+offset: no source lines to look up. */
	skd_profile_set_lines(p, false);
	if (perf)
		write_perf_script(p, stdout, NULL);
	else
		skd_profile_walk(p, all, print_record, NULL);
	warn_capture_problems(input, skd_profile_totals(p));
	skd_profile_free(p);
	free(chain.p);
	chain = (struct text){ 0 };
	return finish_stdout(0) ? 1 : 0;
}
