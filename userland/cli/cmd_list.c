// SPDX-License-Identifier: GPL-2.0
/* skidless list: the events -e accepts on this CPU or a simulated model. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "explain.h"
#include "models.h"
#include "pmu_query.h"
#include "subcommands.h"

static const char *const precise_names[] = { "", ":p :pp", ":ppp" };

static void list_generic(const struct skd_cpu_model *m)
{
	unsigned int g, level;

	printf("Generic events (precise levels this model has):\n");
	for (g = 0; g < SKD_GEN_NR; g++) {
		const struct skd_generic_event *ge = &m->generic[g];

		printf("  %-34s", ge->name);
		for (level = 1; level < 3; level++)
			if (ge->config[level])
				printf(" %s", precise_names[level]);
		printf("\n");
	}
}

static void list_table(const struct skd_cpu_model *m)
{
	unsigned int i;

	printf("\n%s events:\n", m->desc);
	for (i = 0; i < m->nr_events; i++) {
		const struct skd_event_def *e = &m->events[i];

		printf("  %-34s r%04x %s%s%s%s\n      %s\n", e->name, e->config,
		       e->flags & SKD_EVF_PEBS ? "[PEBS" : "[",
		       e->flags & SKD_EVF_PRECDIST ? ", ppp" : "",
		       e->flags & SKD_EVF_MEM ? ", data address" : "",
		       e->flags & SKD_EVF_LDLAT ? ", needs ldlat=N]" : "]",
		       e->desc);
	}
	printf("\nAlso: rNNNN (raw EVENTSEL bits) and "
	       "cpu/event=0x..,umask=0x..,cmask=N,inv,edge,ldlat=N,period=N,freq=N/\n"
	       "with modifiers p, pp, ppp (PEBS), u (user only), k (kernel only).\n");
}

int list_main(int argc, char *argv[])
{
	const char *name = argc > 2 && !strcmp(argv[1], "--pmu") ? argv[2] :
			   "intel";
	const struct skd_cpu_model *m;
	struct skd_pmu_info q;
	uint32_t backend, model;
	int fd, ret;

	if (argc > 1 && !(argc == 3 && !strcmp(argv[1], "--pmu"))) {
		fprintf(stderr, "Usage: %s %s [--pmu intel|sim|sim:MODEL]\n",
			PROG_NAME, argv[0]);
		return strcmp(argv[1], "-h") && strcmp(argv[1], "--help");
	}
	if (!pmu_parse_name("--pmu", name, &backend, &model))
		return 1;
	fd = skd_dev_open(true);
	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_OPEN, -fd));
		return 1;
	}
	ret = pmu_query(fd, backend, model, &q);
	close(fd);
	if (ret) {
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_INFO, -ret));
		return 1;
	}
	m = skd_cpu_model_by_name(q.model_name);
	if (!m) {
		printf("%s: %s\n", name, q.why[0] ? q.why :
		       "a CPU model skidless has no event table for: generic "
		       "events without PEBS, rNNNN and cpu/.../ only");
		return 0;
	}
	printf("%s: %s\n\n", name, m->desc);
	list_generic(m);
	list_table(m);
	return 0;
}
