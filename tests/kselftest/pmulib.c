// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "events.h"
#include "ktap.h"
#include "pmu_models.h"
#include "pmu_query.h"
#include "pmulib.h"

/* The real PMU: usable, absent (needs hardware), or refused (fails). */
static void hw_init(struct pmu_test *t, int fd)
{
	int ret = pmu_query(fd, SKD_BACKEND_INTEL, 0, &t->pmu);

	if (ret) {
		close(fd);
		ktap_fail_all("GET_PMU of the intel backend failed");
	}
	if (t->pmu.flags & SKD_PMU_USABLE)
		return;
	close(fd);
	/* No PMU at all: what every VM of make check has. */
	if (!t->pmu.perfmon_version || !t->pmu.nr_gp)
		ktap_needs_hardware(t->pmu.why[0] ? t->pmu.why :
				    "no architectural perfmon here");
	ktap_fail_all(t->pmu.why[0] ? t->pmu.why :
		      "the intel backend is not usable");
}

void pmu_test_init(struct pmu_test *t, int argc, char **argv)
{
	struct skd_pmu_info q;
	char name[64];
	uint32_t backend, cpu;
	int fd, ret;

	memset(t, 0, sizeof(*t));
	if (argc < 2)
		ktap_fail_all("usage: give a sim model name, or hw");
	t->model_name = argv[1];
	t->hw = !strcmp(argv[1], "hw");
	t->backend = t->hw ? SKD_BACKEND_INTEL : SKD_BACKEND_SIM;
	snprintf(name, sizeof(name), "sim:%s", argv[1]);
	if (!t->hw && !pmu_parse_name("model", name, &backend, &t->sim_model))
		ktap_fail_all("not a sim model");
	fd = skd_dev_open(false);
	if (fd < 0)
		ktap_fail_all("cannot open /dev/skidless");
	if (t->hw) {
		hw_init(t, fd);
	} else {
		ret = pmu_query(fd, SKD_BACKEND_SIM, t->sim_model, &t->pmu);
		if (ret || !(t->pmu.flags & SKD_PMU_USABLE)) {
			close(fd);
			ktap_fail_all("the sim backend is not usable (skidless_sim.ko loaded?)");
		}
	}
	/* Sessions take CPU 0's core type (a hybrid part has two). */
	for (cpu = 0; cpu < 64; cpu++) {
		if (pmu_query_cpu(fd, t->backend, t->sim_model, cpu, &q))
			continue;
		if (q.core_type == t->pmu.core_type &&
		    !strcmp(q.model_name, t->pmu.model_name))
			t->cpu_mask |= 1ULL << cpu;
	}
	close(fd);
	/*
	 * A hybrid part: sessions take CPU 0's core type, so the test and
	 * the workloads it forks run on those CPUs only.
	 */
	if (t->pmu.flags & SKD_PMU_HYBRID) {
		cpu_set_t set;

		CPU_ZERO(&set);
		for (cpu = 0; cpu < 64; cpu++)
			if (t->cpu_mask & (1ULL << cpu))
				CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			ktap_fail_all("cannot keep the test on CPU 0's core type");
	}
	skd_caps_from_info(&t->pmu, &t->caps);
	if (!t->caps.events)
		ktap_fail_all("the model's event list is not in the command");
	ktap_diag("%s %s: %s, perfmon v%u, %u GP + %u fixed counters, "
		  "PEBS format %u, LBR depth %u%s, CPUs 0x%llx",
		  t->hw ? "PMU" : "sim model", t->model_name,
		  t->pmu.model_name, t->pmu.perfmon_version, t->pmu.nr_gp,
		  t->pmu.nr_fixed, t->pmu.pebs_format, t->pmu.lbr_depth,
		  t->pmu.flags & SKD_PMU_ARCH_LBR ? " (architectural)" : "",
		  (unsigned long long)t->cpu_mask);
}

int pmu_config(const struct pmu_test *t, struct skd_config *cfg,
	       struct skd_event_attr *ev, const char *const *specs,
	       unsigned int nr, uint64_t period, uint32_t ring_pages)
{
	static uint64_t mask;
	char why[256];
	unsigned int i;
	int ret;

	for (i = 0; i < nr; i++) {
		ret = skd_event_parse(specs[i], &t->caps, &ev[i], why,
				      sizeof(why));
		if (ret) {
			ktap_diag("-e %s: %s", specs[i], why);
			return ret;
		}
		if (period) {
			ev[i].sample_period = period;
			ev[i].flags &= ~SKD_EV_FREQ;
		}
	}
	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
	cfg->backend = t->backend;
	cfg->sim_model = t->sim_model;
	cfg->ring_pages = ring_pages;
	cfg->sample_period = period ? period : 100003;
	cfg->events_ptr = (uintptr_t)ev;
	cfg->nr_events = nr;
	cfg->event_attr_size = sizeof(*ev);
	if (t->pmu.flags & SKD_PMU_HYBRID) {
		mask = t->cpu_mask;
		cfg->cpumask_ptr = (uintptr_t)&mask;
		cfg->cpumask_bytes = sizeof(mask);
	}
	return 0;
}

int pmu_config_errno(const struct skd_config *cfg)
{
	int fd = skd_dev_open(false), ret;

	if (fd < 0)
		return fd;
	ret = skd_dev_config(fd, cfg);
	close(fd);
	return ret;
}

int pmu_start_errno(const struct skd_config *cfg)
{
	struct test_session s;
	int ret;

	ret = session_open(&s, cfg);
	if (ret)
		return ret;
	ret = skd_dev_start(s.fd);
	if (!ret)
		skd_dev_stop(s.fd);
	session_close(&s);
	return ret;
}

static FILE *open_cpu_file(unsigned int cpu, const char *what,
			   const char *mode)
{
	char path[128];

	snprintf(path, sizeof(path), SIM_DEBUGFS "/cpu%u/%s", cpu, what);
	return fopen(path, mode);
}

int sim_stats_read(unsigned int cpu, struct sim_stats *st)
{
	static const char *const names[] = {
		"ticks", "overflows", "records", "records_dropped", "pmis",
		"pmis_late", "pmis_masked", "events_skipped", "lbr_ticks",
		"lbr_frozen_ticks", "uncounted",
	};
	uint64_t *fields[] = {
		&st->ticks, &st->overflows, &st->records,
		&st->records_dropped, &st->pmis, &st->pmis_late,
		&st->pmis_masked, &st->events_skipped, &st->lbr_ticks,
		&st->lbr_frozen_ticks, &st->uncounted,
	};
	FILE *f = open_cpu_file(cpu, "stats", "r");
	char key[32];
	uint64_t v;
	unsigned int i, seen = 0;

	if (!f)
		return -errno;
	memset(st, 0, sizeof(*st));
	while (fscanf(f, "%31s %" SCNu64, key, &v) == 2)
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcmp(key, names[i])) {
				*fields[i] = v;
				seen++;
			}
	fclose(f);
	return seen == sizeof(names) / sizeof(names[0]) ? 0 : -EPROTO;
}

int sim_msrs_read(unsigned int cpu, struct sim_msrs *m)
{
	FILE *f = open_cpu_file(cpu, "msrs", "r");
	char line[128];
	unsigned int msr;
	uint64_t val;

	if (!f)
		return -errno;
	m->nr = 0;
	while (fgets(line, sizeof(line), f) && m->nr < SIM_MAX_MSRS) {
		if (sscanf(line, "0x%x 0x%" SCNx64, &msr, &val) != 2)
			continue;
		m->msr[m->nr] = msr;
		m->val[m->nr++] = val;
	}
	fclose(f);
	return m->nr ? 0 : -ENODATA;
}

int sim_msr_write(unsigned int cpu, uint32_t msr, uint64_t val)
{
	char path[128], text[64];

	snprintf(path, sizeof(path), SIM_DEBUGFS "/cpu%u/msrs", cpu);
	snprintf(text, sizeof(text), "0x%x 0x%" PRIx64 "\n", msr, val);
	return write_text(path, text);
}

bool sim_msr_get(const struct sim_msrs *m, uint32_t msr, uint64_t *val)
{
	unsigned int i;

	for (i = 0; i < m->nr; i++)
		if (m->msr[i] == msr) {
			*val = m->val[i];
			return true;
		}
	return false;
}

int write_text(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	if (n < 0)
		n = -errno;
	close(fd);
	return n < 0 ? (int)n : (size_t)n == len ? 0 : -EIO;
}

int read_u64(const char *path, uint64_t *val)
{
	FILE *f = fopen(path, "r");
	int ret;

	if (!f)
		return -errno;
	ret = fscanf(f, "%" SCNu64, val) == 1 ? 0 : -EPROTO;
	fclose(f);
	return ret;
}

bool branch_to(const struct skd_branch_entry *e, const void *fn)
{
	return e->to == (uintptr_t)fn;
}
