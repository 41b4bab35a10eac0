// SPDX-License-Identifier: GPL-2.0
/* skidless stat: open sessions and their per-CPU counters, through netlink. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nl_cli.h"
#include "subcommands.h"

#define MAX_CPUS	8192
#define MAX_SESSIONS	64

static void usage(FILE *f)
{
	fprintf(f, "Usage: %s stat [-s SESSION] [--watch [SECS]] [--count N]\n\n"
		"List the module's open sessions (owner, state, backend, "
		"events, CPUs,\nring memory) with their counters; with "
		"--watch, every SECS seconds\n(default 1), each CPU's samples, "
		"losses and throttles per second.\n\n"
		"  -s, --session SESSION  only this session (its id in the list)\n"
		"  --watch [SECS]         refresh every SECS seconds\n"
		"  --count N              with --watch: stop after N refreshes\n",
		PROG_NAME);
}

/* The counters of one session at one time. */
struct snap {
	uint32_t id;
	double t;
	unsigned int nr;
	struct skd_nl_cpu_stats *st;
};

struct stat_run {
	struct skd_nl *nl;
	uint32_t only;			/* 0: every session */
	bool watch;
	double interval;
	unsigned int found;
	struct skd_nl_session sess[MAX_SESSIONS];
	struct snap old[MAX_SESSIONS], cur[MAX_SESSIONS];
	unsigned int nr_old, nr_cur;
	int err;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const struct snap *find_old(const struct stat_run *r, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < r->nr_old; i++)
		if (r->old[i].id == id)
			return &r->old[i];
	return NULL;
}

static void print_header(const struct skd_nl_session *s)
{
	char b[32];
	unsigned int i;

	printf("session %u: pid %u (%s) uid %u, %s", s->id, s->pid, s->comm,
	       s->uid, nl_cli_state(s->state));
	if (!s->configured) {
		printf(", not configured\n");
		return;
	}
	printf(", %s, CPUs %s", nl_cli_backend(s->backend, b, sizeof(b)),
	       s->cpus);
	if (s->target_pid)
		printf(", follows pid %u", s->target_pid);
	if (s->freq)
		printf(", %llu Hz", (unsigned long long)s->freq);
	else
		printf(", period %llu", (unsigned long long)s->period);
	printf(", %llu KiB of rings\n",
	       (unsigned long long)(s->bytes_mapped >> 10));
	for (i = 0; i < s->nr_events; i++)
		printf("  event %u: config 0x%llx%s%.*s, %s %llu\n", i,
		       (unsigned long long)s->events[i].config,
		       s->events[i].precise ? " :" : "",
		       (int)s->events[i].precise, "ppp",
		       s->events[i].flags & SKD_EV_FREQ ? "Hz" : "period",
		       (unsigned long long)s->events[i].period);
}

static void print_counts(const struct snap *c, bool all)
{
	struct skd_nl_cpu_stats sum = { 0 };
	unsigned int i;

	printf("  %5s %12s %12s %12s %10s %10s\n", "cpu", "samples",
	       "generated", "lost", "throttles", "unread");
	for (i = 0; i < c->nr; i++) {
		const struct skd_nl_cpu_stats *s = &c->st[i];

		sum.samples += s->samples;
		sum.generated += s->generated;
		sum.lost += s->lost;
		sum.throttles += s->throttles;
		sum.unread += s->unread;
		if (!all && !s->generated)
			continue;
		printf("  %5u %12llu %12llu %12llu %10llu %10llu\n", s->cpu,
		       (unsigned long long)s->samples,
		       (unsigned long long)s->generated,
		       (unsigned long long)s->lost,
		       (unsigned long long)s->throttles,
		       (unsigned long long)s->unread);
	}
	printf("  %5s %12llu %12llu %12llu %10llu %10llu\n", "all",
	       (unsigned long long)sum.samples,
	       (unsigned long long)sum.generated,
	       (unsigned long long)sum.lost,
	       (unsigned long long)sum.throttles,
	       (unsigned long long)sum.unread);
}

static double rate(uint64_t now_v, uint64_t then, double dt)
{
	return now_v >= then && dt > 0 ? (now_v - then) / dt : 0;
}

static void print_rates(const struct snap *c, const struct snap *o, bool all)
{
	double dt = c->t - o->t;
	unsigned int i;

	printf("  %5s %12s %12s %12s\n", "cpu", "samples/s", "lost/s",
	       "throttles/s");
	for (i = 0; i < c->nr && i < o->nr; i++) {
		const struct skd_nl_cpu_stats *s = &c->st[i], *p = &o->st[i];

		if (!all && s->generated == p->generated &&
		    s->throttles == p->throttles)
			continue;
		printf("  %5u %12.0f %12.0f %12.1f\n", s->cpu,
		       rate(s->samples, p->samples, dt),
		       rate(s->lost, p->lost, dt),
		       rate(s->throttles, p->throttles, dt));
	}
}

static int each_session(const struct skd_nl_session *s, void *arg)
{
	struct stat_run *r = arg;

	if ((r->only && s->id != r->only) || r->found >= MAX_SESSIONS)
		return 0;
	r->sess[r->found++] = *s;
	return 0;
}

/* One session's header and counters (or rates since the last refresh). */
static int show_session(struct stat_run *r, const struct skd_nl_session *s)
{
	struct snap *c = &r->cur[r->nr_cur];
	const struct snap *o = find_old(r, s->id);
	int ret;

	print_header(s);
	if (!s->configured)
		return 0;
	c->id = s->id;
	c->st = calloc(MAX_CPUS, sizeof(*c->st));
	if (!c->st)
		return -ENOMEM;
	r->nr_cur++;
	c->t = now();
	ret = skd_nl_get_stats(r->nl, c->id, c->st, MAX_CPUS, &c->nr);
	if (ret == -ENOENT)
		return 0;		/* closed since the list */
	if (ret) {
		fprintf(stderr, "%s stat: session %u: %s%s%s\n", PROG_NAME,
			c->id, strerror(-ret),
			skd_nl_message(r->nl)[0] ? ": " : "",
			skd_nl_message(r->nl));
		return ret;
	}
	if (r->watch && o)
		print_rates(c, o, r->only != 0);
	else
		print_counts(c, r->only != 0);
	return 0;
}

static int refresh(struct stat_run *r)
{
	unsigned int i;
	int ret;

	r->found = 0;
	r->nr_cur = 0;
	ret = skd_nl_list_sessions(r->nl, each_session, r);
	if (ret) {
		fprintf(stderr, "%s stat: LIST_SESSIONS: %s\n", PROG_NAME,
			strerror(-ret));
		return ret;
	}
	for (i = 0; i < r->found && !ret; i++)
		ret = show_session(r, &r->sess[i]);
	if (!r->found) {
		if (r->only)
			printf("no session %u\n", r->only);
		else
			printf("no open sessions\n");
	}
	for (i = 0; i < r->nr_old; i++)
		free(r->old[i].st);
	memcpy(r->old, r->cur, sizeof(r->cur[0]) * r->nr_cur);
	r->nr_old = r->nr_cur;
	if (ret)
		return ret;
	return r->only && !r->found ? -ENOENT : 0;
}

static bool number(const char *opt, const char *arg, double *out)
{
	char *end;

	if (arg) {
		*out = strtod(arg, &end);
		if (end != arg && !*end && *out > 0)
			return true;
	}
	fprintf(stderr, "%s stat: %s takes a positive number\n", PROG_NAME,
		opt);
	return false;
}

int stat_main(int argc, char *argv[])
{
	struct stat_run *r = calloc(1, sizeof(*r));
	double count = 0, id = 0;
	unsigned long long n;
	int i, ret = 1;
	char *end;

	if (!r)
		return 1;
	r->interval = 1;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			free(r);
			return 0;
		} else if (!strcmp(argv[i], "-s") ||
			   !strcmp(argv[i], "--session")) {
			if (!number("--session", ++i < argc ? argv[i] : NULL, &id))
				goto out;
			r->only = (uint32_t)id;
		} else if (!strcmp(argv[i], "--watch")) {
			r->watch = true;
			/* An optional number of seconds as the next word. */
			if (i + 1 < argc && (strtod(argv[i + 1], &end), !*end) &&
			    end != argv[i + 1] &&
			    !number("--watch", argv[++i], &r->interval))
				goto out;
		} else if (!strcmp(argv[i], "--count")) {
			if (!number("--count", ++i < argc ? argv[i] : NULL, &count))
				goto out;
		} else {
			fprintf(stderr, "%s stat: unexpected argument `%s'\n",
				PROG_NAME, argv[i]);
			usage(stderr);
			goto out;
		}
	}
	if (nl_cli_open(&r->nl, false, false))
		goto out;
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (n = 0;; n++) {
		if (n)
			printf("\n");
		if (refresh(r))
			goto out_close;
		if (!r->watch || (count && n + 1 >= count))
			break;
		nanosleep(&(struct timespec){ .tv_sec = (time_t)r->interval,
			  .tv_nsec = (long)((r->interval - (time_t)r->interval) * 1e9) },
			  NULL);
	}
	ret = 0;
out_close:
	for (i = 0; i < (int)r->nr_old; i++)
		free(r->old[i].st);
	skd_nl_close(r->nl);
out:
	free(r);
	return ret;
}
