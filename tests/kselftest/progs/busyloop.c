// SPDX-License-Identifier: GPL-2.0
/*
 * A known workload for end-to-end tests and the demo: main() -> work() ->
 * spin() for the given seconds, with frame pointers, so a profile must put
 * nearly all samples in spin() and show the chain to main().
 */
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static unsigned long spin(unsigned long n)
{
	volatile unsigned long x = 0;
	unsigned long i;

	for (i = 0; i < n; i++)
		x += i;
	return x;
}

__attribute__((noinline)) static unsigned long work(double seconds)
{
	double end = now() + seconds;
	unsigned long sum = 0;

	while (now() < end)
		sum += spin(2000000);
	return sum;
}

int main(int argc, char *argv[])
{
	double seconds = argc > 1 ? atof(argv[1]) : 1.0;

	return work(seconds) == 42;
}
