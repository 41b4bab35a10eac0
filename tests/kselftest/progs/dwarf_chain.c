// SPDX-License-Identifier: GPL-2.0
/*
 * A workload only DWARF unwinding can follow: built without frame
 * pointers (see the Makefile), main() -> dw_a() -> dw_b() -> dw_c() spins,
 * or ("qsort") qsort() in libc calls dw_cmp(), which spins. Each caller
 * does work after its call, so no call becomes a jump.
 *
 *   dwarf_chain chain|qsort SECONDS
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static unsigned long dw_c(unsigned long n)
{
	volatile unsigned long x = 0;
	unsigned long i;

	for (i = 0; i < n; i++)
		x += i;
	return x;
}

__attribute__((noinline)) static unsigned long dw_b(unsigned long n)
{
	return dw_c(n) * 3 + 1;
}

__attribute__((noinline)) static unsigned long dw_a(unsigned long n)
{
	return dw_b(n) * 5 + 2;
}

__attribute__((noinline)) static int dw_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	dw_c(2000);
	return (x > y) - (x < y);
}

__attribute__((noinline)) static void sort_it(int *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = (int)((i * 2654435761u) % 1000);
	qsort(v, n, sizeof(*v), dw_cmp);
	v[0] += 1;
}

int main(int argc, char *argv[])
{
	double end = now() + (argc > 2 ? atof(argv[2]) : 1.0);
	static int v[256];
	unsigned long sum = 0;

	if (argc > 1 && !strcmp(argv[1], "qsort")) {
		while (now() < end)
			sort_it(v, 256);
		return v[0] == -1;
	}
	while (now() < end)
		sum += dw_a(2000000);
	return sum == 1;
}
