// SPDX-License-Identifier: GPL-2.0
/* Tests for userland/cli/record_idle.c: skidless record --idle. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "record_idle.h"
#include "skidless.h"

static void test_conflict(void **state)
{
	static const uint32_t backends[] = {
		SKD_BACKEND_TIMER, SKD_BACKEND_INTEL, SKD_BACKEND_SIM,
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
		/* Without --idle nothing conflicts. */
		assert_null(record_idle_conflict(false, false, backends[i]));
		assert_null(record_idle_conflict(false, true, backends[i]));
		/* A followed process is never the idle task. */
		assert_non_null(strstr(record_idle_conflict(true, true,
							    backends[i]),
				       "-a or -C"));
	}
	/* System-wide: the timer takes it, a PMU backend refuses. */
	assert_null(record_idle_conflict(true, false, SKD_BACKEND_TIMER));
	assert_non_null(strstr(record_idle_conflict(true, false,
						    SKD_BACKEND_INTEL),
			       "timer backend"));
	assert_non_null(strstr(record_idle_conflict(true, false,
						    SKD_BACKEND_SIM),
			       "timer backend"));
}

static void test_flags(void **state)
{
	(void)state;
	assert_int_equal(record_idle_flags(false, SKD_FEAT_TIMER_FOLLOWS), 0);
	assert_int_equal(record_idle_flags(true, SKD_FEAT_TIMER_FOLLOWS |
					   SKD_FEAT_USER_STACK), SKD_CFG_IDLE);
	/* An older module samples idle anyway and knows no such flag. */
	assert_int_equal(record_idle_flags(true, SKD_FEAT_USER_STACK |
					   SKD_FEAT_READ_MAPS), 0);
	assert_int_equal(record_idle_flags(false, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conflict),
		cmocka_unit_test(test_flags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
