// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for maps and user_stack:
 *   maps_prog dlopen LIB RFD WFD  dlopen LIB, write "ready" to WFD, wait
 *                                 for a byte on RFD, spin ~20 ms, exit 0
 *   maps_prog brief               spin ~5 ms, exit 0
 *   maps_prog stack SECONDS WFD   write "leaf_start leaf_end array" to
 *                                 WFD, then spin in leaf() with a known
 *                                 pattern in its caller's local array
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define PATTERN_WORDS	16
#define PATTERN(i)	(0x5eed5eed00000000ULL | ((uint64_t)(i) * 0x01010101U))

static volatile sig_atomic_t stop;

static void on_alarm(int sig)
{
	(void)sig;
	stop = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void spin(double seconds)
{
	double end = now() + seconds;

	while (now() < end)
		;
}

/* A leaf: no calls, no stack of its own beyond what the compiler keeps. */
__attribute__((noinline, section("skd_leaf")))
static void leaf(volatile uint64_t *words)
{
	while (!stop)
		words[0] = words[0];
}

extern const char __start_skd_leaf[], __stop_skd_leaf[];

__attribute__((noinline))
static int stack_mode(double seconds, int wfd)
{
	volatile uint64_t words[PATTERN_WORDS];
	struct itimerval it = { .it_value = {
		.tv_sec = (time_t)seconds,
		.tv_usec = (suseconds_t)((seconds - (time_t)seconds) * 1e6),
	} };
	char line[128];
	int i, n;

	for (i = 0; i < PATTERN_WORDS; i++)
		words[i] = PATTERN(i);
	n = snprintf(line, sizeof(line), "%p %p %p\n", (void *)__start_skd_leaf,
		     (void *)__stop_skd_leaf, (void *)words);
	if (write(wfd, line, (size_t)n) != n)
		return 1;
	close(wfd);
	signal(SIGALRM, on_alarm);
	setitimer(ITIMER_REAL, &it, NULL);
	leaf(words);
	for (i = 0; i < PATTERN_WORDS; i++)
		if (words[i] != PATTERN(i))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	char c;

	if (argc == 5 && !strcmp(argv[1], "dlopen")) {
		if (!dlopen(argv[2], RTLD_NOW))
			return 2;
		if (write(atoi(argv[4]), "ready", 5) != 5 ||
		    read(atoi(argv[3]), &c, 1) != 1)
			return 3;
		spin(0.02);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "brief")) {
		spin(0.005);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "stack"))
		return stack_mode(atof(argv[2]), atoi(argv[3]));
	fprintf(stderr, "usage: maps_prog dlopen LIB RFD WFD | brief | stack SECONDS WFD\n");
	return 64;
}
