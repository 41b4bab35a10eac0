// SPDX-License-Identifier: GPL-2.0
#include <time.h>

#include "selftest_work.h"

#ifndef __x86_64__
#error "the selftest workloads are x86-64 code"
#endif

static volatile unsigned long sink;

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * skd_selftest_load_loop(p, n): n loads of *p. The load starts the loop,
 * so it is also where every loop iteration (and basic block) begins; the
 * loop's other instructions neither load nor store.
 */
__asm__(".text\n"
	".globl skd_selftest_load_loop\n"
	".type skd_selftest_load_loop, @function\n"
	"skd_selftest_load_loop:\n"
	".globl skd_selftest_load_at\n"
	"skd_selftest_load_at:\n"
	"	movq (%rdi), %rax\n"
	"	decq %rsi\n"
	"	jnz skd_selftest_load_at\n"
	"	ret\n"
	".size skd_selftest_load_loop, .-skd_selftest_load_loop\n");

void skd_selftest_load_loop(const volatile unsigned long *p, unsigned long n);
extern const char skd_selftest_load_at[];

void selftest_loads(double seconds)
{
	double end = now_seconds() + seconds;

	do
		skd_selftest_load_loop(&sink, 10000000);
	while (now_seconds() < end);
}

uint64_t selftest_load_insn(void)
{
	return (uintptr_t)skd_selftest_load_at;
}

/* One section per function, so a sample or a branch can be placed. */
#define CHAIN_FN(name)	__attribute__((noinline, noclone,	\
					section("skd_st_" #name)))	\
			static void chain_##name(double seconds)

extern const char __start_skd_st_root[], __stop_skd_st_root[];
extern const char __start_skd_st_a[], __stop_skd_st_a[];
extern const char __start_skd_st_b[], __stop_skd_st_b[];
extern const char __start_skd_st_c[], __stop_skd_st_c[];

CHAIN_FN(c);
CHAIN_FN(b);
CHAIN_FN(a);
CHAIN_FN(root);

CHAIN_FN(c)
{
	double end = now_seconds() + seconds;
	unsigned long i;

	do {
		for (i = 0; i < 5000000; i++)
			sink += i;
	} while (now_seconds() < end);
}

/* The stores after each call keep the calls from becoming jumps. */
CHAIN_FN(b)
{
	chain_c(seconds);
	sink++;
}

CHAIN_FN(a)
{
	chain_b(seconds);
	sink++;
}

CHAIN_FN(root)
{
	chain_a(seconds);
	sink++;
}

void selftest_chain(double seconds)
{
	chain_root(seconds);
}

static bool within(uint64_t ip, const char *start, const char *stop)
{
	return ip >= (uintptr_t)start && ip < (uintptr_t)stop;
}

bool selftest_in_c(uint64_t ip)
{
	return within(ip, __start_skd_st_c, __stop_skd_st_c);
}

bool selftest_chain_matches(const struct skd_branch_entry *e, unsigned int nr)
{
	return nr >= 3 &&
	       within(e[0].from, __start_skd_st_b, __stop_skd_st_b) &&
	       e[0].to == (uintptr_t)chain_c &&
	       within(e[1].from, __start_skd_st_a, __stop_skd_st_a) &&
	       e[1].to == (uintptr_t)chain_b &&
	       within(e[2].from, __start_skd_st_root, __stop_skd_st_root) &&
	       e[2].to == (uintptr_t)chain_a;
}
