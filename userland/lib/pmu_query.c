// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "pmu_query.h"

static const char *const sim_names[__SKD_SIM_MAX] = {
	[SKD_SIM_SKYLAKE] = "skylake",
	[SKD_SIM_ICELAKE] = "icelake",
	[SKD_SIM_SAPPHIRERAPIDS] = "sapphirerapids",
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
			if (!strcmp(name + 4, sim_names[id])) {
				*backend = SKD_BACKEND_SIM;
				*sim_model = id;
				return true;
			}
		}
	}
	fprintf(stderr, "%s: `%s' is not intel, sim or sim:MODEL (models: "
		"skylake, icelake, sapphirerapids)\n", opt, name);
	return false;
}

int pmu_query(int fd, uint32_t backend, uint32_t sim_model,
	      struct skd_pmu_info *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	info->backend = backend;
	info->sim_model = sim_model;
	return ioctl(fd, SKD_IOC_GET_PMU, info) ? -errno : 0;
}
