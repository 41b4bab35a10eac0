// SPDX-License-Identifier: GPL-2.0
/* skidless events: follow the module's "events" multicast group. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nl_cli.h"
#include "subcommands.h"

static void usage(FILE *f)
{
	fprintf(f, "Usage: %s events [--json] [--count N] [--timeout SECS]\n\n"
		"Print one line per event of the module: sessions started and "
		"stopped,\nthrottling, lost records, refusals.\n\n"
		"  --json          one JSON object per line\n"
		"  --count N       exit after N events\n"
		"  --timeout SECS  exit after SECS seconds\n", PROG_NAME);
}

/* @s as a JSON string body: the kernel's text is ASCII. */
static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void print_json(const struct skd_nl_event *ev)
{
	char b[32];

	printf("{\"event\":\"%s\"", skd_nl_event_name(ev->what));
	if (ev->session_id) {
		printf(",\"session\":%u,\"pid\":%u,\"uid\":%u,\"comm\":",
		       ev->session_id, ev->pid, ev->uid);
		json_str(ev->comm);
	}
	if (ev->backend)
		printf(",\"backend\":\"%s\"",
		       nl_cli_backend(ev->backend, b, sizeof(b)));
	if (ev->count)
		printf(",\"count\":%llu", (unsigned long long)ev->count);
	if (ev->err) {
		printf(",\"errno\":%u,\"error\":", ev->err);
		json_str(strerror(ev->err));
	}
	if (ev->message[0]) {
		printf(",\"message\":");
		json_str(ev->message);
	}
	printf("}\n");
}

static void print_text(const struct skd_nl_event *ev)
{
	char b[32];

	printf("%s", skd_nl_event_name(ev->what));
	if (ev->session_id)
		printf(" session %u pid %u (%s) uid %u", ev->session_id,
		       ev->pid, ev->comm, ev->uid);
	if (ev->backend)
		printf(" %s", nl_cli_backend(ev->backend, b, sizeof(b)));
	if (ev->what == SKD_NOTIFY_LOST)
		printf(": %llu records lost", (unsigned long long)ev->count);
	else if (ev->what == SKD_NOTIFY_THROTTLED)
		printf(": throttled %llu times", (unsigned long long)ev->count);
	if (ev->err)
		printf(": %s", strerror(ev->err));
	if (ev->message[0])
		printf(": %s", ev->message);
	printf("\n");
}

static bool number(const char *opt, const char *arg, double *out)
{
	char *end;

	if (arg) {
		*out = strtod(arg, &end);
		if (end != arg && !*end && *out >= 0)
			return true;
	}
	fprintf(stderr, "%s events: %s takes a number\n", PROG_NAME, opt);
	return false;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int events_main(int argc, char *argv[])
{
	double count = 0, timeout = -1, end = 0;
	unsigned long long seen = 0;
	struct skd_nl_event ev;
	struct skd_nl *nl;
	bool json = false;
	int i, ret, wait;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--count")) {
			if (!number("--count", ++i < argc ? argv[i] : NULL, &count))
				return 1;
		} else if (!strcmp(argv[i], "--timeout")) {
			if (!number("--timeout", ++i < argc ? argv[i] : NULL,
				    &timeout))
				return 1;
		} else {
			fprintf(stderr, "%s events: unexpected argument `%s'\n",
				PROG_NAME, argv[i]);
			usage(stderr);
			return 1;
		}
	}
	if (nl_cli_open(&nl, true, false))
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (timeout >= 0)
		end = now() + timeout;
	for (;;) {
		wait = -1;
		if (timeout >= 0) {
			double left = end - now();

			if (left <= 0)
				break;
			wait = (int)(left * 1000) + 1;
		}
		ret = skd_nl_next_event(nl, wait, &ev);
		if (ret == -ENOBUFS) {
			fprintf(stderr, "%s events: events were lost: this "
				"reader fell behind and the socket's buffer "
				"overflowed\n", PROG_NAME);
			continue;
		}
		if (ret < 0) {
			fprintf(stderr, "%s events: %s\n", PROG_NAME,
				strerror(-ret));
			skd_nl_close(nl);
			return 1;
		}
		if (!ret)
			continue;
		if (json)
			print_json(&ev);
		else
			print_text(&ev);
		if (count && ++seen >= count)
			break;
	}
	skd_nl_close(nl);
	return 0;
}
