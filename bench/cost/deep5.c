// SPDX-License-Identifier: GPL-2.0
/*
 * The cost benchmark's workload (bench/cost.sh): a fixed amount of work,
 * single-threaded, its leaf five calls below main(): main -> f1 -> f2 ->
 * f3 -> f4 -> leaf, with a few system calls per trip down the chain (a
 * few percent of its time in the kernel), so that both rates of the
 * benchmark take kernel samples and the recorders do the same work for
 * them at both (reading kallsyms, for one). The work is a count, not a time, so that it executes
 * the same instructions however slowly a profiler makes it run. Built with
 * frame pointers, for call chains through every frame.
 *
 *   deep5 [MILLIONS]   about MILLIONS * 1e6 instructions (default 200)
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile unsigned long sink;

/* Six instructions per iteration at -O1 (gcc 12). */
__attribute__((noinline)) static void leaf(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink += i;
}

/* The stores after each call keep the calls from becoming jumps. */
__attribute__((noinline)) static void f4(unsigned long n)
{
	int i;

	for (i = 0; i < 40; i++)
		syscall(SYS_getppid);
	leaf(n);
	sink++;
}

__attribute__((noinline)) static void f3(unsigned long n)
{
	f4(n);
	sink++;
}

__attribute__((noinline)) static void f2(unsigned long n)
{
	f3(n);
	sink++;
}

__attribute__((noinline)) static void f1(unsigned long n)
{
	unsigned long chunk = 100000, done;

	/* Many short trips down the chain: every frame stays live. */
	for (done = 0; done < n; done += chunk)
		f2(chunk < n - done ? chunk : n - done);
	sink++;
}

int main(int argc, char *argv[])
{
	unsigned long millions = argc > 1 ? strtoul(argv[1], NULL, 10) : 200;

	f1(millions * 1000000 / 6);
	return 0;
}
