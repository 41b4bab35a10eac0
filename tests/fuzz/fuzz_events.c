// SPDX-License-Identifier: GPL-2.0
/*
 * Feeds -e, -j and -C argument text to events.c and cpulist.c, the PMU
 * picked by the first byte: what a user types gives an attr or a
 * sentence, and an event's printed name parses back into the same event.
 */
#include <string.h>

#include "cpulist.h"
#include "events.h"
#include "fuzzlib.h"
#include "pmu_models.h"

#define MAX_SPECS	16
#define CPU_WORDS	16

/*
 * The PMUs, by the input's first byte: no PMU known, the nominal part of
 * each of Intel's lists (pmu_models.h), and a CPU in none of them.
 */
static const char *const pmus[] = {
	NULL, "skylakex", "icelakex", "sapphirerapids", "alderlake_gracemont",
	"skylake", "cascadelakex", "icelake", "tigerlake", "rocketlake",
	"emeraldrapids", "graniterapids", "alderlake_goldencove", "",
};

static void parse_event(const char *spec, const struct skd_pmu_caps *caps)
{
	struct skd_event_attr attr, again;
	char why[512], name[160];
	int ret, ret2;

	memset(why, 'x', sizeof(why));
	ret = skd_event_parse(spec, caps, &attr, why, sizeof(why));
	/* The planner's errnos pass through; nominal PMUs give these. */
	FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -EOPNOTSUPP);
	FUZZ_CHECK(memchr(why, '\0', sizeof(why)));
	FUZZ_CHECK(ret == 0 || why[0]);
	/* Without room for a message, the same verdict. */
	ret2 = skd_event_parse(spec, caps, &again, NULL, 0);
	FUZZ_CHECK(ret2 == ret);
	if (ret)
		return;
	FUZZ_CHECK(!memcmp(&attr, &again, sizeof(attr)));
	FUZZ_CHECK(attr.size == sizeof(attr) && attr.precise <= 3);
	FUZZ_CHECK(!(attr.flags & ~__SKD_EV_ALL));

	/* The name shown for it means the same event. */
	skd_event_name(&attr, caps, name, sizeof(name));
	FUZZ_CHECK(strlen(name) < sizeof(name));
	if (strlen(name) == sizeof(name) - 1)
		return;		/* truncated: nothing to compare */
	ret = skd_event_parse(name, caps, &again, why, sizeof(why));
	if (ret)
		fprintf(stderr, "`%s' -> `%s': %s\n", spec, name, why);
	FUZZ_CHECK(!ret);
	if (memcmp(&attr, &again, sizeof(attr)))
		fprintf(stderr, "`%s' -> `%s' differ\n", spec, name);
	FUZZ_CHECK(!memcmp(&attr, &again, sizeof(attr)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int pick = (unsigned int)fuzz_take(&data, &size, 1);
	const struct skd_pmu_caps *caps = NULL;
	struct skd_pmu_caps nominal;
	const char *specs[MAX_SPECS];
	uint64_t mask[CPU_WORDS];
	uint32_t branches;
	char *s, *list, why[256];
	int n, i, ret;

	pick %= sizeof(pmus) / sizeof(pmus[0]);
	if (pmus[pick]) {
		/* "": a part of no list, as skd_caps_from_info() gives it. */
		FUZZ_CHECK(!skd_caps_nominal(pmus[pick][0] ? pmus[pick] :
					     "skylakex", &nominal));
		if (!pmus[pick][0]) {
			nominal.events = NULL;
			nominal.cpu = NULL;
		}
		caps = &nominal;
	}
	s = strndup((const char *)data, size);
	list = strndup((const char *)data, size);
	FUZZ_CHECK(s && list);

	parse_event(s, caps);
	n = skd_event_list_split(list, specs, MAX_SPECS);
	FUZZ_CHECK(n == -EINVAL || n == -E2BIG || (n >= 1 && n <= MAX_SPECS));
	for (i = 0; i < n; i++) {
		FUZZ_CHECK(specs[i] >= list && specs[i] < list + strlen(s) + 1);
		parse_event(specs[i], caps);
	}

	ret = skd_branch_parse(s, &branches, why, sizeof(why));
	FUZZ_CHECK(ret == 0 || (ret == -EINVAL && why[0]));
	if (!ret)
		FUZZ_CHECK(branches && !(branches & ~__SKD_BRANCH_ALL));

	ret = skd_cpulist_parse(s, mask, CPU_WORDS);
	FUZZ_CHECK(ret == -EINVAL || ret == -ERANGE || ret > 0);
	if (ret > 0) {
		for (i = 0, n = 0; i < CPU_WORDS; i++)
			n += __builtin_popcountll(mask[i]);
		FUZZ_CHECK(n == ret);
	}
	free(list);
	free(s);
	return 0;
}
