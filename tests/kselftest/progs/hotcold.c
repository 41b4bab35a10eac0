// SPDX-License-Identifier: GPL-2.0
/*
 * The demo workload: a hot loop that should own about 70% of the samples,
 * a warm one about 20% and a cold one about 10%, all under main().
 */
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Each function spins in its own loop, so each is a leaf of its own. */
#define SPINNER(name, iterations)					\
	__attribute__((noinline)) static unsigned long name(void)	\
	{								\
		volatile unsigned long x = 0;				\
		unsigned long i;					\
									\
		for (i = 0; i < (iterations); i++)			\
			x += i ^ (x >> 3);				\
		return x;						\
	}

SPINNER(hot_loop, 7000000)
SPINNER(warm_loop, 2000000)
SPINNER(cold_loop, 1000000)

int main(int argc, char *argv[])
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 3.0);
	unsigned long sum = 0;

	while (now() < end)
		sum += hot_loop() + warm_loop() + cold_loop();
	return sum == 42;
}
