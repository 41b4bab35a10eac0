// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "cpulist.h"
#include "pmu_query.h"

/*
 * The fields this command reads are those of uapi version 1; a module of
 * version 0 fills fewer (info->size says how many) and leaves the rest 0.
 */
_Static_assert(sizeof(struct skd_pmu_info) >= SKD_PMU_INFO_SIZE_VER1,
	       "struct skd_pmu_info is smaller than its version 1");

static const char *const sim_names[__SKD_SIM_MAX] = {
	[SKD_SIM_SKYLAKE] = "skylake",
	[SKD_SIM_ICELAKE] = "icelake",
	[SKD_SIM_SAPPHIRERAPIDS] = "sapphirerapids",
	[SKD_SIM_SKYLAKE_HTOFF] = "skylake-htoff",
	[SKD_SIM_ALDERLAKE] = "alderlake",
};

const char *pmu_sim_model_name(uint32_t id)
{
	return id && id < __SKD_SIM_MAX ? sim_names[id] : NULL;
}

bool pmu_parse_name(const char *opt, const char *name, uint32_t *backend,
		    uint32_t *sim_model)
{
	uint32_t id;

	*sim_model = 0;
	if (!strcmp(name, "intel")) {
		*backend = SKD_BACKEND_INTEL;
		return true;
	}
	if (!strcmp(name, "sim")) {
		*backend = SKD_BACKEND_SIM;
		return true;
	}
	if (!strncmp(name, "sim:", 4)) {
		for (id = 1; id < __SKD_SIM_MAX; id++) {
			if (sim_names[id] && !strcmp(name + 4, sim_names[id])) {
				*backend = SKD_BACKEND_SIM;
				*sim_model = id;
				return true;
			}
		}
	}
	fprintf(stderr, "%s: `%s' is not intel, sim or sim:MODEL (models:",
		opt, name);
	for (id = 1; id < __SKD_SIM_MAX; id++)
		if (sim_names[id])
			fprintf(stderr, "%s %s", id > 1 ? "," : "",
				sim_names[id]);
	fprintf(stderr, ")\n");
	return false;
}

static int query(int fd, uint32_t backend, uint32_t sim_model, uint32_t query,
		 uint32_t cpu, struct skd_pmu_info *info)
{
	memset(info, 0, sizeof(*info));
	info->size = SKD_PMU_INFO_SIZE_VER1;
	info->backend = backend;
	info->sim_model = sim_model;
	info->query = query;
	info->cpu = cpu;
	return ioctl(fd, SKD_IOC_GET_PMU, info) ? -errno : 0;
}

int pmu_query(int fd, uint32_t backend, uint32_t sim_model,
	      struct skd_pmu_info *info)
{
	return query(fd, backend, sim_model, 0, 0, info);
}

int pmu_query_cpu(int fd, uint32_t backend, uint32_t sim_model, uint32_t cpu,
		  struct skd_pmu_info *info)
{
	return query(fd, backend, sim_model, SKD_PMU_QUERY_CPU, cpu, info);
}

const char *pmu_core_type_name(uint32_t core_type, char *buf, size_t len)
{
	/* CPUID.1AH:EAX[31:24] (SDM vol. 2A, CPUID leaf 1AH). */
	if (core_type == 0x40)
		return "P-core";
	if (core_type == 0x20)
		return "E-core";
	snprintf(buf, len, "core type 0x%02x", core_type);
	return buf;
}

static bool same_kind(const struct skd_pmu_info *a,
		      const struct skd_pmu_info *b)
{
	return a->core_type == b->core_type &&
	       !strncmp(a->model_name, b->model_name, sizeof(a->model_name));
}

int pmu_query_groups(int fd, uint32_t backend, uint32_t sim_model,
		     const uint64_t *cpus, struct pmu_group *groups,
		     unsigned int max)
{
	uint64_t online[PMU_CPU_WORDS] = { 0 };
	struct skd_pmu_info q;
	unsigned int cpu, g, nr = 0;
	int ret, first_err = 0;

	if (!max)
		return -E2BIG;
	if (!cpus) {
		/* Without sysfs, CPU 0 stands for the machine. */
		if (skd_cpus_online(online, PMU_CPU_WORDS))
			online[0] = 1;
		cpus = online;
	}
	for (cpu = 0; cpu < PMU_CPU_WORDS * 64; cpu++) {
		if (!skd_cpu_isset(cpus, cpu))
			continue;
		ret = pmu_query_cpu(fd, backend, sim_model, cpu, &q);
		if (ret == -E2BIG || ret == -EOPNOTSUPP) {
			/* A version 0 module: one PMU, CPU 0's. */
			ret = pmu_query(fd, backend, sim_model, &q);
			if (ret)
				return ret;
			memset(groups, 0, sizeof(groups[0]));
			groups[0].info = q;
			memcpy(groups[0].cpus, cpus, sizeof(groups[0].cpus));
			for (cpu = 0; cpu < PMU_CPU_WORDS * 64; cpu++)
				groups[0].nr_cpus += skd_cpu_isset(cpus, cpu);
			return 1;
		}
		if (ret) {
			/* Offline, or beyond the module's CPUs: not a kind. */
			if (!first_err)
				first_err = ret;
			continue;
		}
		for (g = 0; g < nr && !same_kind(&groups[g].info, &q); g++)
			;
		if (g == nr) {
			if (nr == max)
				return -E2BIG;
			memset(&groups[nr], 0, sizeof(groups[nr]));
			groups[nr++].info = q;
		}
		groups[g].cpus[cpu / 64] |= 1ULL << (cpu % 64);
		groups[g].nr_cpus++;
	}
	return nr ? (int)nr : first_err ? first_err : -ENXIO;
}
