// SPDX-License-Identifier: GPL-2.0
/*
 * A known call chain for the PMU tests: main() -> a() -> b() -> c(), with
 * c() spinning for the given seconds, so LBR call stacks and frame-pointer
 * chains of nearly every sample must read c <- b <- a <- main.
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static void c(double seconds)
{
	double end = now() + seconds;
	unsigned long i;

	do {
		for (i = 0; i < 2000000; i++)
			sink += i;
	} while (now() < end);
}

/* The stores after each call keep the calls from becoming jumps. */
__attribute__((noinline)) static void b(double seconds)
{
	c(seconds);
	sink++;
}

__attribute__((noinline)) static void a(double seconds)
{
	b(seconds);
	sink++;
}

int main(int argc, char *argv[])
{
	a(argc > 1 ? atof(argv[1]) : 1.0);
	return 0;
}
