// SPDX-License-Identifier: GPL-2.0
/* skidless info: what the loaded module offers on this machine. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "explain.h"
#include "nl_cli.h"
#include "params.h"
#include "pmu_query.h"
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

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

/* Everything detection found, for one PMU backend. */
static void print_pmu(const char *name, const struct skd_pmu_info *q)
{
	uint32_t sig = q->cpu_signature;
	char type[32];

	printf("pmu:          %s%s\n", name,
	       q->flags & SKD_PMU_SIMULATED ? " (simulated)" : "");
	printf("usable:       %s%s%s\n", yes_no(q->flags & SKD_PMU_USABLE),
	       q->why[0] ? ": " : "", q->why);
	if (!sig)
		return;
	printf("cpu:          family %u model 0x%x stepping %u (%s)\n",
	       ((sig >> 8) & 0xf) + ((sig >> 8 & 0xf) == 0xf ? (sig >> 20) & 0xff : 0),
	       ((sig >> 4) & 0xf) | ((sig >> 12) & 0xf0), sig & 0xf,
	       q->model_name[0] ? q->model_name : "in none of Intel's event lists skidless has");
	if (q->flags & SKD_PMU_HYBRID)
		printf("core type:    %s of a hybrid part (CPU %u; the other "
		       "core type has its own PMU: skidless list shows both)\n",
		       pmu_core_type_name(q->core_type, type, sizeof(type)),
		       q->cpu);
	if (!(q->flags & SKD_PMU_USABLE))
		return;
	printf("perfmon:      v%u, %u general-purpose counters of %u bits, "
	       "fixed counters 0x%x of %u bits\n", q->perfmon_version,
	       q->nr_gp, q->gp_width, q->fixed_mask, q->fixed_width);
	if (q->flags & SKD_PMU_PEBS)
		printf("PEBS:         format %u%s%s\n", q->pebs_format,
		       q->flags & SKD_PMU_PEBS_BASELINE ? ", adaptive" : "",
		       q->flags & SKD_PMU_PEBS_TRAP ? ", trap-like" : "");
	else
		printf("PEBS:         none\n");
	if (q->flags & SKD_PMU_ARCH_LBR)
		printf("LBR:          architectural, %u entries (CPUID.1CH "
		       "EBX 0x%x: CPL filter %s, branch filter %s, call stack "
		       "%s)\n", q->lbr_depth, q->arch_lbr_ebx,
		       yes_no(q->arch_lbr_ebx & 1), yes_no(q->arch_lbr_ebx & 2),
		       yes_no(q->arch_lbr_ebx & 4));
	else if (q->flags & SKD_PMU_LBR)
		printf("LBR:          %u entries, format %u\n", q->lbr_depth,
		       q->lbr_format);
	else
		printf("LBR:          none\n");
	printf("capabilities: 0x%llx (full-width writes %s, hybrid %s, "
	       "hypervisor %s)\n", (unsigned long long)q->perf_capabilities,
	       yes_no(q->flags & SKD_PMU_FW_WRITES),
	       yes_no(q->flags & SKD_PMU_HYBRID),
	       yes_no(q->flags & SKD_PMU_HYPERVISOR));
	if (q->flags & SKD_PMU_TFA)
		printf("TSX force-abort is off: counter 3 belongs to TSX and "
		       "is not used\n");
	if (q->flags & SKD_PMU_VMX)
		printf("VMX is on (or KVM loaded): no PEBS\n");
	if (q->flags & SKD_PMU_PTI)
		printf("page-table isolation is on: no PEBS (boot with pti=off, "
		       "or use a CPU not affected by Meltdown)\n");
	printf("throttling:   above %u samples/s per CPU\n", q->max_sample_rate);
}

static int show_pmu(int fd, const char *name)
{
	struct skd_pmu_info q;
	uint32_t backend, model;
	int ret;

	if (!pmu_parse_name("--pmu", name, &backend, &model))
		return 1;
	ret = pmu_query(fd, backend, model, &q);
	if (ret) {
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_INFO, -ret));
		return 1;
	}
	print_pmu(name, &q);
	return 0;
}

static void print_sim_models(int fd)
{
	struct skd_pmu_info q;
	const char *sep = "";
	uint32_t id;

	if (pmu_query(fd, SKD_BACKEND_SIM, 0, &q))
		return;
	printf("sim models:  ");
	for (id = 1; id < 32; id++) {
		if (!(q.sim_models & (1U << id)) || !pmu_sim_model_name(id))
			continue;
		printf("%s%s%s", sep, pmu_sim_model_name(id),
		       id == q.sim_model ? " (default)" : "");
		sep = ", ";
	}
	printf("\n");
}

/*
 * The loaded module's answer through generic netlink: no session is
 * opened, so any user may ask. 0, or -errno when netlink cannot answer
 * (the module is not loaded, or predates netlink).
 */
static int info_netlink(void)
{
	struct skd_nl_info ni;
	uint32_t set[16] = { 0 };
	struct skd_nl *nl;
	int fd, ret;

	ret = nl_cli_open(&nl, false, true);
	if (ret)
		return ret;
	ret = skd_nl_get_info(nl, &ni);
	if (!ret)
		ret = skd_nl_get_settings(nl, set);
	skd_nl_close(nl);
	if (ret)
		return ret;
	/* skd_nl_settings: max_sample_rate, max_freq, max_ring_pages, mlock_kb */
	printf("skidless:    tool %s, module %.*s, ABI %u%s\n", SKD_TOOL_VERSION,
	       (int)sizeof(ni.info.version), ni.info.version,
	       ni.info.abi_version, ni.info.abi_version == SKD_ABI_VERSION ?
	       "" : " (this tool speaks another ABI)");
	print_backends(&ni.info);
	printf("pmu:         %.*s\n", (int)sizeof(ni.info.pmu), ni.info.pmu);
	/* The sim models are the device's to tell: only when it opens. */
	fd = skd_dev_open(false);
	if (fd >= 0) {
		print_sim_models(fd);
		close(fd);
	}
	printf("cpus:        %u online, ids below %u\n",
	       ni.info.nr_cpus_online, ni.info.nr_cpu_ids);
	printf("rings:       up to %u pages of %u bytes per CPU\n",
	       ni.info.max_ring_pages, ni.info.page_size);
	printf("timer:       up to %u Hz\n", ni.info.max_freq);
	printf("throttling:  above %u PMU samples/s per CPU\n", set[0]);
	printf("memlock:     %u KiB per CPU without RLIMIT_MEMLOCK\n", set[3]);
	printf("call chains: up to %u frames\n", ni.info.max_callchain);
	printf("sessions:    %u open\n", ni.info.sessions);
	return 0;
}

int info_main(int argc, char *argv[])
{
	const char *pmu = NULL;
	struct skd_info info;
	int fd, ret = 1;

	if (argc == 3 && !strcmp(argv[1], "--pmu")) {
		pmu = argv[2];
	} else if (argc > 1) {
		bool help = !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help");

		if (!help)
			fprintf(stderr, "%s %s: unexpected argument `%s'\n",
				PROG_NAME, argv[0], argv[1]);
		fprintf(help ? stdout : stderr,
			"Usage: %s %s [--pmu intel|sim|sim:MODEL]\n",
			PROG_NAME, argv[0]);
		return !help;
	}

	if (!pmu && !info_netlink())
		return 0;
	fd = skd_dev_open(true);
	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_OPEN, -fd));
		return 1;
	}
	if (pmu) {
		ret = show_pmu(fd, pmu);
		goto out;
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
	print_sim_models(fd);
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
