// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>

#include "record_idle.h"
#include "skidless.h"

const char *record_idle_conflict(bool idle, bool follows, uint32_t backend)
{
	if (!idle)
		return NULL;
	if (follows)
		return "--idle samples the idle task, which -p and a COMMAND "
		       "never follow: use it with -a or -C";
	if (backend != SKD_BACKEND_TIMER)
		return "--idle is for the timer backend: PMU sampling never "
		       "wakes an idle CPU, there is nothing to ask for";
	return NULL;
}

uint32_t record_idle_flags(bool idle, uint32_t features)
{
	return idle && (features & SKD_FEAT_TIMER_FOLLOWS) ? SKD_CFG_IDLE : 0;
}
