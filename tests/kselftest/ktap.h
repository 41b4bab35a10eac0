/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP output for skidless's in-VM tests, in the kselftest dialect: a plan,
 * "ok N desc", "not ok N desc", "ok N desc # SKIP why", "# diagnostics",
 * and exit codes 0 pass, 1 fail, 4 skip. Written for this project; the
 * contract is the TAP lines, not kselftest.h.
 */
#ifndef _SKD_KTAP_H
#define _SKD_KTAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define KTAP_PASS	0
#define KTAP_FAIL	1
#define KTAP_SKIP	4

struct ktap_state {
	int planned, run, failed, skipped;
};

extern struct ktap_state ktap;

static inline void ktap_plan(int n)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..%d\n", n);
	ktap.planned = n;
}

static inline void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* One result; returns @pass so callers can chain on it. */
static inline bool ktap_result(bool pass, const char *fmt, ...)
{
	va_list ap;

	ktap.run++;
	if (!pass)
		ktap.failed++;
	printf("%s %d ", pass ? "ok" : "not ok", ktap.run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return pass;
}

static inline void ktap_skip(const char *desc, const char *why)
{
	ktap.run++;
	ktap.skipped++;
	printf("ok %d %s # SKIP %s\n", ktap.run, desc, why);
}

/* A result that could not be reached because its setup failed: a failure. */
static inline void ktap_fail(const char *desc, const char *why)
{
	ktap_result(false, "%s (setup failed: %s)", desc, why);
}

/* Exit with the kselftest code for what was printed. */
static inline int ktap_finish(void)
{
	if (ktap.run != ktap.planned)
		ktap_diag("planned %d tests, ran %d", ktap.planned, ktap.run);
	if (ktap.failed || ktap.run != ktap.planned)
		return KTAP_FAIL;
	if (ktap.skipped == ktap.run)
		return KTAP_SKIP;
	return KTAP_PASS;
}

static inline void __attribute__((noreturn)) ktap_skip_all(const char *why)
{
	printf("TAP version 13\n1..0 # SKIP %s\n", why);
	exit(KTAP_SKIP);
}

/*
 * The test is one of the real PMU and this machine has none (the VMs of
 * make check): not a skip; the harness lists it as "needs hardware".
 */
static inline void __attribute__((noreturn)) ktap_needs_hardware(const char *why)
{
	printf("TAP version 13\n1..0 # needs hardware: %s\n", why);
	exit(KTAP_SKIP);
}

/* Setup failed: one failing result saying why (a setup failure fails). */
static inline void __attribute__((noreturn)) ktap_fail_all(const char *why)
{
	printf("TAP version 13\n1..1\nnot ok 1 setup: %s\n", why);
	exit(KTAP_FAIL);
}

#endif /* _SKD_KTAP_H */
