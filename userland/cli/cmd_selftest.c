// SPDX-License-Identifier: GPL-2.0
/*
 * skidless selftest: calibrate skidless on this machine's PMU (or a sim
 * model) with workloads whose samples have one right answer.
 *
 *   skid  a loop in which one instruction does every load, sampled on the
 *         model's all-loads event with PEBS: the share of samples on that
 *         instruction is the measured skid (100% means none). The same
 *         event without PEBS is shown beside it for comparison.
 *   lbr   root -> a -> b -> c spending its time in c, sampled with LBR
 *         call stacks: the share of samples in c whose stack says b called
 *         c, a called b and root called a.
 *
 * Each check passes at 95%. Exit status 0: all passed; 1: one failed;
 * 2: the checks could not run (no module, no usable PMU).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "decode.h"
#include "device.h"
#include "event_rules.h"
#include "events.h"
#include "explain.h"
#include "reader.h"
#include "record_pmu.h"
#include "selftest_work.h"
#include "subcommands.h"

#define PASS_PERCENT	95
#define MIN_SAMPLES	100
#define RING_PAGES	256
#define PERIOD		100003
#define MAX_OFFSETS	4
#define NEAR_BYTES	64	/* the loop and what surrounds it */

struct tally {
	pid_t pid;
	uint64_t samples;	/* of the workload's process */
	uint64_t hits;		/* the check's right answers */
	uint64_t in_scope;	/* samples the check looks at */
	uint64_t lost;
	/* skid: where the samples off the load instruction went */
	int64_t offset[MAX_OFFSETS];
	uint64_t at_offset[MAX_OFFSETS];
	uint64_t far;		/* further than NEAR_BYTES, or past MAX_OFFSETS */
	bool (*judge)(struct tally *t, const struct skd_event *ev);
};

static const char usage_text[] =
	"Usage: %s selftest [--backend intel|sim:MODEL] [--seconds S]\n"
	"\n"
	"Checks skidless against this machine's PMU with known workloads:\n"
	"the share of precise samples on the one instruction that caused\n"
	"them (skid), and whether LBR call stacks rebuild a known call chain.\n"
	"Each check passes at 95%%.\n"
	"\n"
	"  --backend B   intel (the default where the CPU has a PMU) or\n"
	"                sim:MODEL, the simulated PMU\n"
	"  --seconds S   how long each workload runs (default 1)\n"
	"\n"
	"Exit status: 0 all checks passed, 1 a check failed, 2 the checks\n"
	"could not run.\n";

static bool judge_skid(struct tally *t, const struct skd_event *ev)
{
	int64_t off = (int64_t)(ev->sample.rec->ip - selftest_load_insn());
	unsigned int i;

	t->in_scope++;
	if (!off)
		return true;
	for (i = 0; off > -NEAR_BYTES && off < NEAR_BYTES && i < MAX_OFFSETS;
	     i++) {
		if (t->at_offset[i] && t->offset[i] != off)
			continue;
		t->offset[i] = off;
		t->at_offset[i]++;
		return false;
	}
	t->far++;
	return false;
}

static bool judge_chain(struct tally *t, const struct skd_event *ev)
{
	if (!selftest_in_c(ev->sample.rec->ip))
		return false;
	t->in_scope++;
	return ev->sample.branches &&
	       (ev->sample.branch_flags & SKD_BR_CALL_STACK) &&
	       selftest_chain_matches(ev->sample.branches,
				      ev->sample.nr_branches);
}

static int on_record(const struct skd_rec_header *h, void *arg)
{
	struct tally *t = arg;
	struct skd_event ev;

	if (skd_decode(h, h->size, &ev) < 0)
		return 0;
	if (ev.type == SKD_REC_LOST) {
		t->lost += ev.lost->lost;
		return 0;
	}
	if (ev.type != SKD_REC_SAMPLE || ev.id->pid != (uint32_t)t->pid)
		return 0;
	t->samples++;
	t->hits += t->judge(t, &ev);
	return 0;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* A child that runs @work once the parent writes to its pipe. */
static pid_t spawn_held(void (*work)(double), double seconds, int *go)
{
	int fds[2];
	pid_t pid;
	char c;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (!pid) {
		close(fds[1]);
		if (read(fds[0], &c, 1) == 1)
			work(seconds);
		_exit(0);
	}
	close(fds[0]);
	if (pid < 0)
		close(fds[1]);
	*go = fds[1];
	return pid;
}

/* Let @pid run only on the CPUs of @cpus (PMU_CPU_WORDS words). */
static int pin_to(pid_t pid, const uint64_t *cpus)
{
	cpu_set_t set;
	unsigned int cpu;

	CPU_ZERO(&set);
	for (cpu = 0; cpu < PMU_CPU_WORDS * 64 && cpu < CPU_SETSIZE; cpu++)
		if (cpus[cpu / 64] & (1ULL << (cpu % 64)))
			CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

/*
 * Sample @work in a child of its own under event @spec (and @branches),
 * following only that child. 0, or -1 after saying why.
 */
static int sample_workload(const char *backend_arg, const char *spec,
			   uint32_t branches, void (*work)(double),
			   double seconds, struct tally *t)
{
	struct record_pmu rp = {
		.backend_arg = backend_arg,
		.event_args = { spec },
		.nr_event_args = 1,
		.period = PERIOD,
		.branch_sample = branches,
		.follows = true,
		.quiet = true,		/* describe() said it */
	};
	struct skd_reader *reader = NULL;
	struct skd_config cfg = { .size = sizeof(cfg) };
	struct skd_info info;
	int fd, go = -1, status, ret = -1;
	pid_t pid = -1;

	fd = skd_dev_open(true);
	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_OPEN, -fd));
		return -1;
	}
	if (skd_dev_info(fd, &info)) {
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_INFO, errno));
		goto out;
	}
	if (backend_arg && !record_pmu_backend_arg(&rp, backend_arg))
		goto out;
	if (!record_pmu_resolve(&rp, fd, &info))
		goto out;
	t->pid = pid = spawn_held(work, seconds, &go);
	if (pid < 0) {
		perror("fork");
		goto out;
	}
	/* A hybrid part: the workload stays on the cores sampled. */
	if (rp.picked && pin_to(pid, rp.picked_cpus)) {
		perror("selftest: sched_setaffinity");
		goto out_child;
	}
	cfg.flags = SKD_CFG_PID | SKD_CFG_EXCLUDE_KERNEL | SKD_CFG_NO_SIDEBAND;
	cfg.backend = rp.backend;
	cfg.sim_model = rp.backend == SKD_BACKEND_SIM ? rp.sim_model : 0;
	cfg.ring_pages = RING_PAGES;
	cfg.sample_period = PERIOD;
	cfg.pid = pid;
	cfg.events_ptr = (uintptr_t)rp.events;
	cfg.nr_events = rp.nr_events;
	cfg.event_attr_size = sizeof(rp.events[0]);
	cfg.branch_sample = branches;
	if (rp.picked) {
		cfg.cpumask_ptr = (uintptr_t)rp.picked_cpus;
		cfg.cpumask_bytes = sizeof(rp.picked_cpus);
	}
	ret = skd_dev_config(fd, &cfg);
	if (ret) {
		if (!record_pmu_explain(&rp, &cfg))
			fprintf(stderr, "%s: -e %s: %s\n", PROG_NAME, spec,
				skd_explain(SKD_OP_CONFIG, -ret));
		goto out_child;
	}
	reader = skd_reader_open(fd, &info, RING_PAGES);
	if (!reader) {
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_MMAP, errno));
		goto out_child;
	}
	ret = skd_dev_start(fd);
	if (ret) {
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_START, -ret));
		goto out_child;
	}
	if (write(go, "g", 1) != 1)
		perror("selftest: releasing the workload");
	while (waitpid(pid, &status, WNOHANG) == 0) {
		skd_reader_drain(reader, on_record, t);
		sleep_ms(20);
	}
	pid = -1;
	skd_dev_stop(fd);
	skd_reader_drain(reader, on_record, t);
	ret = 0;
out_child:
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	if (go >= 0)
		close(go);
out:
	skd_reader_close(reader);
	close(fd);
	return ret ? -1 : 0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static bool verdict(const struct tally *t)
{
	return t->in_scope >= MIN_SAMPLES &&
	       t->hits * 100 >= t->in_scope * PASS_PERCENT;
}

static const char *verdict_word(const struct tally *t)
{
	if (t->in_scope < MIN_SAMPLES)
		return "FAIL (too few samples)";
	return verdict(t) ? "pass" : "FAIL";
}

/* Where the rest went: near offsets from the instruction, then the rest. */
static void print_offsets(const struct tally *t)
{
	const char *sep = " (elsewhere: ";
	unsigned int i;

	for (i = 0; i < MAX_OFFSETS && t->at_offset[i]; i++) {
		printf("%s%+" PRId64 " bytes %.1f%%", sep, t->offset[i],
		       pct(t->at_offset[i], t->in_scope));
		sep = ", ";
	}
	if (t->far)
		printf("%soutside the loop %.1f%%", sep,
		       pct(t->far, t->in_scope));
	if (i || t->far)
		printf(")");
}

/*
 * The event that counts every retired load with the data address in its
 * PEBS records: big cores call it mem_inst_retired.all_loads, Atom cores
 * (Gracemont) mem_uops_retired.all_loads. NULL when @caps has neither.
 */
static const char *all_loads_event(const struct skd_pmu_caps *caps)
{
	static const char *const names[] = {
		"mem_inst_retired.all_loads",
		"mem_uops_retired.all_loads",
	};
	struct skd_event_attr attr;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!skd_event_parse(names[i], caps, &attr, NULL, 0))
			return names[i];
	return NULL;
}

/* The backend the checks run on, described; false when there is none. */
static bool describe(const char *backend_arg, struct record_pmu *rp)
{
	struct skd_info info;
	int fd = skd_dev_open(true);
	bool ok = false;

	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_OPEN, -fd));
		return false;
	}
	rp->event_args[0] = "cycles";
	rp->nr_event_args = 1;
	/* The checks follow workloads of their own (sample_workload()). */
	rp->follows = true;
	if (skd_dev_info(fd, &info))
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_INFO, errno));
	else if ((!backend_arg || record_pmu_backend_arg(rp, backend_arg)) &&
		 record_pmu_resolve(rp, fd, &info))
		ok = true;
	close(fd);
	if (ok)
		printf("selftest on %s: PEBS format %u, %u LBR entries%s\n",
		       rp->pmu_name, rp->pmu.pebs_format, rp->pmu.lbr_depth,
		       rp->pmu.flags & SKD_PMU_SIMULATED ?
		       " (simulated: checks the driver, not a CPU)" : "");
	return ok;
}

int selftest_main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "backend", required_argument, NULL, 'B' },
		{ "seconds", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tally skid = { .judge = judge_skid };
	struct tally skid_plain = { .judge = judge_skid };
	struct tally chain = { .judge = judge_chain };
	struct record_pmu rp = { 0 };
	const char *backend_arg = NULL, *loads;
	char spec_pebs[80], spec_plain[80];
	double seconds = 1.0;
	char *end;
	int c, failed = 0;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'B':
			backend_arg = optarg;
			break;
		case 's':
			seconds = strtod(optarg, &end);
			if (*end || !(seconds > 0 && seconds <= 60)) {
				fprintf(stderr, "--seconds: `%s' is not a "
					"number of seconds in (0, 60]\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			printf(usage_text, PROG_NAME);
			return 0;
		default:
			fprintf(stderr, usage_text, PROG_NAME);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "selftest: unexpected argument `%s'\n",
			argv[optind]);
		return 2;
	}
	if (!describe(backend_arg, &rp))
		return 2;
	if (!rp.caps.events) {
		fprintf(stderr, "%s: this CPU is in none of Intel's event lists "
			"skidless has, so PEBS cannot be asked for: see "
			"`skidless info --pmu`\n", PROG_NAME);
		return 2;
	}
	loads = all_loads_event(&rp.caps);
	if (!loads) {
		fprintf(stderr, "%s: Intel's list for %s has no all-loads event "
			"to measure skid with\n", PROG_NAME,
			rp.caps.events->name);
		return 2;
	}

	/*
	 * User mode only: the loop is the subject, and the loads the kernel
	 * does in interrupts and faults that land in it are not skid.
	 */
	snprintf(spec_pebs, sizeof(spec_pebs), "%s:ppu", loads);
	snprintf(spec_plain, sizeof(spec_plain), "%s:u", loads);
	if (sample_workload(backend_arg, spec_pebs, 0, selftest_loads, seconds,
			    &skid) ||
	    sample_workload(backend_arg, spec_plain, 0, selftest_loads,
			    seconds, &skid_plain))
		return 2;
	printf("  skid  loads:ppu %8" PRIu64 " samples, %5.1f%% on the load "
	       "instruction: %s", skid.in_scope, pct(skid.hits, skid.in_scope),
	       verdict_word(&skid));
	print_offsets(&skid);
	printf("\n  skid  loads:u   %8" PRIu64 " samples, %5.1f%% on the load "
	       "instruction without PEBS, for comparison", skid_plain.in_scope,
	       pct(skid_plain.hits, skid_plain.in_scope));
	print_offsets(&skid_plain);
	printf("\n");
	failed += !verdict(&skid);

	if (!rp.pmu.lbr_depth) {
		printf("  lbr   skipped: this PMU has no LBR\n");
	} else if (sample_workload(backend_arg, "cycles", SKD_BRANCH_USER |
				   SKD_BRANCH_CALL_STACK, selftest_chain,
				   seconds, &chain)) {
		return 2;
	} else {
		printf("  lbr   call stack root -> a -> b -> c: %" PRIu64
		       " samples in c, %.1f%% rebuild the chain: %s\n",
		       chain.in_scope, pct(chain.hits, chain.in_scope),
		       verdict_word(&chain));
		failed += !verdict(&chain);
	}
	if (skid.lost || skid_plain.lost || chain.lost)
		printf("  note: %" PRIu64 " samples were lost (ring full); the "
		       "shares are of the samples read\n",
		       skid.lost + skid_plain.lost + chain.lost);
	printf("selftest: %s\n", failed ? "FAILED" : "pass");
	return failed ? 1 : 0;
}
