// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for userland/lib/pmu_query.c: GET_PMU with the version 1 size,
 * per CPU, and the grouping of CPUs by core type that `skidless list` and
 * `record` use on hybrid parts. The module is played by a wrapped
 * ioctl() that answers as kmod/device.c ioctl_get_pmu() does: a version
 * 1 module of a hybrid part (CPUs 0-1 P-cores, 2-3 E-cores, the rest not
 * there), or a version 0 module that knows no query field.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cpulist.h"
#include "pmu_query.h"

#define WORDS	PMU_CPU_WORDS

struct fake_module {
	bool ver0;		/* a module of uapi version 0 */
	unsigned int nr_cpus;	/* CPUs below this exist */
	unsigned int calls;
	uint32_t last_size;
};

static struct fake_module module;

int __wrap_ioctl(int fd, unsigned long req, ...);

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	struct skd_pmu_info *q;
	va_list ap;
	uint32_t cpu = 0;

	va_start(ap, req);
	q = va_arg(ap, struct skd_pmu_info *);
	va_end(ap);
	assert_int_equal(fd, 42);
	assert_int_equal(req, SKD_IOC_GET_PMU);
	module.calls++;
	module.last_size = q->size;
	/* Bytes a version 0 module does not know must be zero (E2BIG). */
	if (module.ver0 && (q->query || q->cpu)) {
		errno = E2BIG;
		return -1;
	}
	if (q->query & SKD_PMU_QUERY_CPU)
		cpu = q->cpu;
	if (cpu >= module.nr_cpus) {
		errno = ENXIO;
		return -1;
	}
	q->flags = SKD_PMU_USABLE | SKD_PMU_PEBS | SKD_PMU_HYBRID;
	q->cpu_signature = 0x90672;
	q->cpu = cpu;
	q->core_type = cpu < 2 ? 0x40 : 0x20;
	q->nr_gp = cpu < 2 ? 8 : 6;
	snprintf(q->model_name, sizeof(q->model_name), "%s",
		 cpu < 2 ? "alderlake_goldencove" : "alderlake_gracemont");
	if (module.ver0) {
		q->core_type = 0;
		q->size = SKD_PMU_INFO_SIZE_VER0;
	}
	return 0;
}

static void set_cpus(uint64_t *mask, const char *list)
{
	memset(mask, 0, WORDS * sizeof(*mask));
	assert_true(skd_cpulist_parse(list, mask, WORDS) > 0);
}

static void test_query_size(void **state)
{
	struct skd_pmu_info q;

	(void)state;
	module = (struct fake_module){ .nr_cpus = 4 };
	assert_int_equal(pmu_query(42, SKD_BACKEND_INTEL, 0, &q), 0);
	assert_int_equal(module.last_size, SKD_PMU_INFO_SIZE_VER1);
	assert_int_equal(q.cpu, 0);
	assert_int_equal(pmu_query_cpu(42, SKD_BACKEND_SIM, SKD_SIM_ALDERLAKE,
				       3, &q), 0);
	assert_int_equal(q.core_type, 0x20);
	assert_string_equal(q.model_name, "alderlake_gracemont");
	assert_int_equal(pmu_query_cpu(42, SKD_BACKEND_INTEL, 0, 9, &q),
			 -ENXIO);
}

static void test_groups_hybrid(void **state)
{
	struct pmu_group g[PMU_MAX_GROUPS];
	uint64_t cpus[WORDS];
	char list[32], type[32];

	(void)state;
	module = (struct fake_module){ .nr_cpus = 4 };
	/* CPUs 4-7 are not there: left out, not a kind. */
	set_cpus(cpus, "0-7");
	assert_int_equal(pmu_query_groups(42, SKD_BACKEND_INTEL, 0, cpus, g,
					  PMU_MAX_GROUPS), 2);
	assert_string_equal(g[0].info.model_name, "alderlake_goldencove");
	assert_int_equal(g[0].nr_cpus, 2);
	skd_cpulist_format(g[0].cpus, WORDS, list, sizeof(list));
	assert_string_equal(list, "0-1");
	assert_string_equal(g[1].info.model_name, "alderlake_gracemont");
	skd_cpulist_format(g[1].cpus, WORDS, list, sizeof(list));
	assert_string_equal(list, "2-3");
	assert_string_equal(pmu_core_type_name(g[0].info.core_type, type,
					       sizeof(type)), "P-core");
	assert_string_equal(pmu_core_type_name(g[1].info.core_type, type,
					       sizeof(type)), "E-core");
	assert_string_equal(pmu_core_type_name(0x30, type, sizeof(type)),
			    "core type 0x30");

	/* -C of one type: one group, in the order of the first CPU. */
	set_cpus(cpus, "3,2");
	assert_int_equal(pmu_query_groups(42, SKD_BACKEND_SIM, 5, cpus, g,
					  PMU_MAX_GROUPS), 1);
	assert_int_equal(g[0].info.core_type, 0x20);
	assert_int_equal(g[0].nr_cpus, 2);
	set_cpus(cpus, "3,1");
	assert_int_equal(pmu_query_groups(42, SKD_BACKEND_SIM, 5, cpus, g,
					  PMU_MAX_GROUPS), 2);
	assert_int_equal(g[0].info.core_type, 0x40);

	/* Room for one kind only. */
	set_cpus(cpus, "0-3");
	assert_int_equal(pmu_query_groups(42, SKD_BACKEND_INTEL, 0, cpus, g, 1),
			 -E2BIG);
	/* No CPU the module knows: its errno. */
	set_cpus(cpus, "8-9");
	assert_int_equal(pmu_query_groups(42, SKD_BACKEND_INTEL, 0, cpus, g,
					  PMU_MAX_GROUPS), -ENXIO);
}

static void test_groups_ver0(void **state)
{
	struct pmu_group g[PMU_MAX_GROUPS];
	uint64_t cpus[WORDS];

	(void)state;
	/* A version 0 module: CPU 0's PMU stands for every CPU asked. */
	module = (struct fake_module){ .ver0 = true, .nr_cpus = 4 };
	set_cpus(cpus, "0-3");
	assert_int_equal(pmu_query_groups(42, SKD_BACKEND_INTEL, 0, cpus, g,
					  PMU_MAX_GROUPS), 1);
	assert_int_equal(g[0].nr_cpus, 4);
	assert_int_equal(g[0].info.size, SKD_PMU_INFO_SIZE_VER0);
	assert_string_equal(g[0].info.model_name, "alderlake_goldencove");
}

static void test_sim_names(void **state)
{
	uint32_t backend, model;

	(void)state;
	assert_true(pmu_parse_name("--pmu", "sim:alderlake", &backend, &model));
	assert_int_equal(backend, SKD_BACKEND_SIM);
	assert_int_equal(model, SKD_SIM_ALDERLAKE);
	assert_true(pmu_parse_name("--pmu", "sim:skylake-htoff", &backend,
				   &model));
	assert_int_equal(model, SKD_SIM_SKYLAKE_HTOFF);
	assert_true(pmu_parse_name("--pmu", "intel", &backend, &model));
	assert_int_equal(backend, SKD_BACKEND_INTEL);
	assert_int_equal(model, 0);
	assert_false(pmu_parse_name("--pmu", "sim:pentium", &backend, &model));
	assert_string_equal(pmu_sim_model_name(SKD_SIM_SAPPHIRERAPIDS),
			    "sapphirerapids");
	assert_null(pmu_sim_model_name(0));
	assert_null(pmu_sim_model_name(__SKD_SIM_MAX));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_query_size),
		cmocka_unit_test(test_groups_hybrid),
		cmocka_unit_test(test_groups_ver0),
		cmocka_unit_test(test_sim_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
