// SPDX-License-Identifier: GPL-2.0
/* skidless info: what the loaded module offers on this machine. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "explain.h"
#include "params.h"
#include "subcommands.h"

static const char *const backend_names[__SKD_BACKEND_MAX] = {
	[SKD_BACKEND_TIMER] = "timer",
	[SKD_BACKEND_INTEL] = "intel",
	[SKD_BACKEND_SIM] = "sim",
};

static void print_backends(const struct skd_info *info)
{
	const char *sep = "";
	unsigned int id;

	printf("backends:    ");
	for (id = 1; id < __SKD_BACKEND_MAX; id++) {
		if (!(info->backends & (1U << id)))
			continue;
		printf("%s%s%s", sep, backend_names[id],
		       id == info->default_backend ? " (default)" : "");
		sep = ", ";
	}
	printf("\n");
}

int info_main(int argc, char *argv[])
{
	struct skd_info info;
	int fd, ret = 1;

	if (argc > 1) {
		if (strcmp(argv[1], "-h") && strcmp(argv[1], "--help"))
			fprintf(stderr, "%s %s: unexpected argument `%s'\n",
				PROG_NAME, argv[0], argv[1]);
		fprintf(stderr, "Usage: %s %s\n", PROG_NAME, argv[0]);
		return strcmp(argv[1], "-h") && strcmp(argv[1], "--help");
	}

	fd = skd_dev_open(true);
	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_OPEN, -fd));
		return 1;
	}
	if (skd_dev_info(fd, &info)) {
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_INFO, errno));
		goto out;
	}

	printf("skidless:    tool %s, module %.*s, ABI %u%s\n", SKD_TOOL_VERSION,
	       (int)sizeof(info.version), info.version, info.abi_version,
	       info.abi_version == SKD_ABI_VERSION ? "" : " (this tool speaks another ABI)");
	print_backends(&info);
	printf("pmu:         %.*s\n", (int)sizeof(info.pmu), info.pmu);
	printf("cpus:        %u online, ids below %u\n", info.nr_cpus_online,
	       info.nr_cpu_ids);
	printf("rings:       up to %u pages of %u bytes per CPU\n",
	       info.max_ring_pages, info.page_size);
	printf("timer:       up to %u Hz\n", info.max_freq);
	printf("call chains: up to %u frames\n", info.max_callchain);
	printf("sessions:    %u open (this one included)\n", info.sessions);
	ret = 0;
out:
	close(fd);
	return ret;
}
