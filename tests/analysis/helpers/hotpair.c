// SPDX-License-Identifier: GPL-2.0
/*
 * Two hot leaves under one caller, their balance set by argv[2]: leaf_b
 * does 1/R of leaf_a's work inside mid (R = 3 or 1 in the tests), so two
 * runs make a pair of captures whose shares differ by a known direction.
 */
#include <stdlib.h>

static volatile unsigned long sink;
static unsigned long ratio = 3;

__attribute__((noinline)) static void leaf_a(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 3;
}

__attribute__((noinline)) static void leaf_b(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink ^= i;
}

__attribute__((noinline)) static void mid(unsigned long n)
{
	leaf_a(n);
	leaf_b(n / ratio);
	sink++;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000000UL;

	if (argc > 2)
		ratio = strtoul(argv[2], NULL, 0) ? strtoul(argv[2], NULL, 0) : 1;
	for (int k = 0; k < 4; k++) {
		mid(n / 4);
		leaf_a(n / 8);
	}
	return 0;
}
