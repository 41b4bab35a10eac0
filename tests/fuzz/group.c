// SPDX-License-Identifier: GPL-2.0
/*
 * Several fuzz targets in one libFuzzer binary, for CI. make check fuzzes
 * each binary for two minutes on a 2-core machine with a time budget:
 * nine targets would be 18 CPU minutes, the four groups of the Makefile
 * are 8. The single targets stay, for deep fuzzing of one decoder at a
 * time.
 *
 * The Makefile compiles each member's fuzz_X.c with LLVMFuzzerTestOneInput
 * renamed to fuzz_X_one and builds this file with the members in order,
 * -DFUZZ_GROUP='X(pebs) X(lbr) X(plan)'. The first input byte, modulo the
 * number of members, picks the member; it gets the rest of the input, so
 * a group input without its first byte is an input of the member's own
 * target (run.sh files crashes that way, under regressions/MEMBER/).
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#ifndef FUZZ_GROUP
#error "FUZZ_GROUP: the members, e.g. -DFUZZ_GROUP='X(pebs) X(lbr) X(plan)'"
#endif

#define X(m) int fuzz_##m##_one(const uint8_t *data, size_t size);
FUZZ_GROUP
#undef X

static const struct {
	const char *name;
	int (*one)(const uint8_t *data, size_t size);
} members[] = {
#define X(m) { #m, fuzz_##m##_one },
	FUZZ_GROUP
#undef X
};

#define NR_MEMBERS	(sizeof(members) / sizeof(members[0]))

/* Runs and time per member, for the log: how the group's time was shared. */
static unsigned long long runs[NR_MEMBERS];
static double secs[NR_MEMBERS];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One line on exit (libFuzzer exits normally at -max_total_time). */
__attribute__((destructor)) static void report(void)
{
	size_t i;

	fprintf(stderr, "fuzz group:");
	for (i = 0; i < NR_MEMBERS; i++)
		fprintf(stderr, " %s %llu runs %.1f s;", members[i].name,
			runs[i], secs[i]);
	fprintf(stderr, "\n");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t i;
	double t;
	int ret;

	if (!size)
		return 0;
	i = data[0] % NR_MEMBERS;
	t = now();
	ret = members[i].one(data + 1, size - 1);
	secs[i] += now() - t;
	runs[i]++;
	return ret;
}
