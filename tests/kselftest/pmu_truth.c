// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware truth, on one sim model (argv[1]): what an independent review
 * of the Intel backend found against Intel's event lists and Linux's
 * arch/x86/events/intel, each case a behaviour the device model (an
 * adversary: kmod/sim/rules.c, msr.c) makes visible when the driver gets
 * it wrong:
 *
 *   lbr-freeze      the LBR unfreezes after every PMI (GLOBAL_STATUS 58)
 *   intel-counters  memory events only where Intel's list puts them
 *   pebs-0-3        Skylake family: PEBS on counters 0-3 only, HT off too
 *   imprecise       samples are exact only for events Intel marks precise
 *   ldlat-aux       Golden Cove load latency with its auxiliary event
 *   taken-alone     Intel's TakenAlone events count alone
 *   full-width      periods of 2^31 and more through the full-width alias
 *   attribution     large-PEBS records go to their own task, at their time
 *   exclude         a session's exclude flags hold for PMU events and LBR
 *   lat-split       Golden Cove's two latencies are flagged as such
 *   hybrid          a hybrid part's core types are planned apart
 *   arch-lbr-caps   architectural LBR filters and fields per CPUID.1CH
 *   tfa             with TSX force-abort off, counter 3 is not used
 *   reservation     a fixed-counter-only session holds the GP counters
 *   foreign-bits    another owner's bits of shared MSRs stay untouched
 *   vmx             no PEBS while a CPU can enter a guest
 *   stop-order      START/STOP at a high PMI rate: no unclaimed NMI
 *
 * A case that does not apply to the model (no arch LBR on Skylake, say)
 * is not run; the plan counts only the cases that are. Each case also
 * asserts the model logged no broken rule while it ran.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device.h"
#include "events.h"
#include "ktap.h"
#include "models.h"
#include "msrs.h"
#include "pmu_models.h"
#include "pmu_query.h"
#include "pmulib.h"

#define RUN_SECONDS	1.0
#define MAX_CPUS	64
#define VIOLATIONS	SIM_DEBUGFS "/violations"

static volatile unsigned long sink;

/* ---- the model's log and knobs ----------------------------------------- */

/* On the real PMU ("hw"): no model, no log, no knobs. */
static bool on_hw;

/* Broken rules logged since the last call (the log is cleared). */
static uint64_t violations(void)
{
	uint64_t n = 0;
	char buf[512];
	ssize_t len;
	int fd;

	if (on_hw)
		return 0;
	if (read_u64(SIM_DEBUGFS "/violations_count", &n))
		return ~0ULL;
	if (n) {
		fd = open(VIOLATIONS, O_RDONLY);
		if (fd >= 0) {
			len = read(fd, buf, sizeof(buf) - 1);
			if (len > 0) {
				buf[len] = '\0';
				ktap_diag("model: %s", buf);
			}
			close(fd);
		}
	}
	write_text(VIOLATIONS, "clear\n");
	return n;
}

static void knob(const char *name, const char *value)
{
	char path[128];

	snprintf(path, sizeof(path), SIM_DEBUGFS "/%s", name);
	if (write_text(path, value))
		ktap_diag("cannot set %s to %s", name, value);
}

/* What the PMU is, from its event list's model (sim or real alike). */
static bool model_has(const struct pmu_test *pt, uint32_t flag)
{
	return pt->caps.cpu && (pt->caps.cpu->flags & flag);
}

static bool skylake_family(const struct pmu_test *pt)
{
	return model_has(pt, SKD_MODEL_PEBS_GP0_3);
}

/* Hyper-threading off: eight GP counters, PEBS still on four. */
static bool skylake_htoff(const struct pmu_test *pt)
{
	return skylake_family(pt) && pt->pmu.nr_gp > 4;
}

/* Four GP counters, so that losing counter 3 shows. */
static bool skylake_ht(const struct pmu_test *pt)
{
	return skylake_family(pt) && pt->pmu.nr_gp == 4;
}

/* Golden Cove big cores: load latency needs the auxiliary event. */
static bool golden_cove(const struct pmu_test *pt)
{
	return model_has(pt, SKD_MODEL_LDLAT_AUX);
}

/* Sum of one stats field over the CPUs. */
static void stats_sum(struct sim_stats *sum)
{
	struct sim_stats st;
	unsigned int cpu;

	memset(sum, 0, sizeof(*sum));
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (sim_stats_read(cpu, &st))
			break;
		sum->lbr_ticks += st.lbr_ticks;
		sum->lbr_frozen_ticks += st.lbr_frozen_ticks;
		sum->records += st.records;
		sum->uncounted += st.uncounted;
		sum->pmis += st.pmis;
	}
}

/* ---- sessions ---------------------------------------------------------- */

/* The executable mappings of a process, from /proc/PID/maps. */
#define MAX_RANGES	64
struct xranges {
	unsigned int nr;
	uint64_t lo[MAX_RANGES], hi[MAX_RANGES];
};

static void xranges_read(const char *path, struct xranges *r)
{
	unsigned long long lo, hi;
	char line[512], perm[8];
	FILE *f = fopen(path, "r");

	r->nr = 0;
	while (f && r->nr < MAX_RANGES && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx %7s", &lo, &hi, perm) == 3 &&
		    perm[2] == 'x') {
			r->lo[r->nr] = lo;
			r->hi[r->nr++] = hi;
		}
	if (f)
		fclose(f);
}

static bool in_xranges(const struct xranges *r, uint64_t ip)
{
	unsigned int i;

	for (i = 0; i < r->nr; i++)
		if (ip >= r->lo[i] && ip < r->hi[i])
			return true;
	return false;
}

struct seen {
	pid_t a, b;			/* the children, when two */
	struct xranges a_code;		/* a's executable mappings */
	uint64_t samples, exact, kernel, with_branches, branch_kernel;
	uint64_t mem, lat_split, lat_ok, a_ok, a_bad, b_ok, b_bad;
	uint64_t same_time, time_pairs, time_back;
	uint64_t last_time[MAX_CPUS];
	uint64_t lbr_cycles, lbr_type, lbr_mispred;
	uint64_t lbr_same;		/* stacks equal to the sample's before */
	uint64_t last_from, last_to;	/* newest entry of that sample */
	uint64_t ldlat;			/* threshold, for lat_ok */
};

static void tally(const struct skd_event *ev, void *arg)
{
	struct seen *t = arg;
	const struct skd_rec_sample *s = ev->sample.rec;
	bool user = (ev->misc & SKD_MISC_CPUMODE_MASK) == SKD_MISC_USER;
	uint64_t lat, cache, instr, *last;
	unsigned int i;

	if (ev->type != SKD_REC_SAMPLE)
		return;
	t->samples++;
	t->exact += !!(ev->misc & SKD_MISC_EXACT_IP);
	t->kernel += !user;
	if (ev->sample.branches && ev->sample.nr_branches) {
		const struct skd_branch_entry *e0 = &ev->sample.branches[0];

		t->with_branches++;
		/* A frozen LBR repeats the stack of the PMI that froze it. */
		t->lbr_same += e0->from == t->last_from && e0->to == t->last_to;
		t->last_from = e0->from;
		t->last_to = e0->to;
	}
	for (i = 0; ev->sample.branches && i < ev->sample.nr_branches; i++) {
		const struct skd_branch_entry *e = &ev->sample.branches[i];

		t->branch_kernel += (int64_t)e->from < 0 || (int64_t)e->to < 0;
		t->lbr_cycles += !!(e->info & SKD_BR_INFO_CYC_VALID);
		t->lbr_type += !!(e->info & SKD_BR_INFO_TYPE_VALID);
		t->lbr_mispred += !!(e->info & SKD_BR_INFO_MISPRED);
	}
	if (ev->sample.mem) {
		t->mem++;
		lat = ev->sample.mem->latency;
		if (ev->sample.mem->flags & SKD_MEM_LAT_SPLIT) {
			t->lat_split++;
			instr = lat & 0xffff;
			cache = (lat >> 32) & 0xffff;
			t->lat_ok += cache >= t->ldlat && instr >= cache;
		}
	}
	/*
	 * Whose code: a (a fork of this program) runs only code mapped in
	 * it, b (another program) never runs a's spin loop.
	 */
	if (user && t->a && ev->id->pid == (uint32_t)t->a) {
		if (in_xranges(&t->a_code, s->ip))
			t->a_ok++;
		else
			t->a_bad++;
	}
	if (user && t->b && ev->id->pid == (uint32_t)t->b) {
		if (in_spin_loop(s->ip))
			t->b_bad++;
		else
			t->b_ok++;
	}
	if (ev->id->cpu < MAX_CPUS) {
		last = &t->last_time[ev->id->cpu];
		if (*last) {
			t->time_pairs++;
			t->same_time += ev->id->time == *last;
			t->time_back += ev->id->time < *last;
		}
		*last = ev->id->time;
	}
}

/* Run @cfg while @child runs, draining into @t. 0 or -errno. */
static int run_session(struct skd_config *cfg, pid_t child, struct seen *t)
{
	struct drained d = { .each = tally, .arg = t };
	struct test_session s;
	bool exited = false;
	int ret;

	ret = session_open(&s, cfg);
	if (!ret)
		ret = skd_dev_start(s.fd);
	if (ret) {
		if (child > 0) {
			kill(child, SIGKILL);
			reap(child);
		}
		if (!ret)
			session_close(&s);
		return ret;
	}
	while (child > 0 && !exited && reap_nohang(child, &exited))
		if (session_drain(&s, &d) < 0)
			break;
	skd_dev_stop(s.fd);
	session_drain(&s, &d);
	session_close(&s);
	return d.malformed ? -EPROTO : 0;
}

static int config_one(const struct pmu_test *pt, struct skd_config *cfg,
		      struct skd_event_attr *ev, const char *spec,
		      uint64_t period)
{
	const char *specs[1] = { spec };

	return pmu_config(pt, cfg, ev, specs, 1, period, 64);
}

/* A child running a syscall loop: time in the kernel on its behalf. */
static pid_t spawn_syscaller(double seconds)
{
	pid_t pid = fork();
	double end;

	if (!pid) {
		end = now_seconds() + seconds;
		while (now_seconds() < end)
			sink += getppid();
		_exit(0);
	}
	return pid;
}

/*
 * The busyloop program beside this one (/skd/bin in the VM, build/kselftest
 * in a tree) on @cpu: another program, in another process.
 */
static pid_t spawn_busyloop_on(double seconds, int cpu)
{
	char arg[32], path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 16);
	cpu_set_t set;
	pid_t pid;

	if (n <= 0)
		return -1;
	path[n] = '\0';
	strcpy(strrchr(path, '/') + 1, "busyloop");
	pid = fork();
	if (!pid) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
		snprintf(arg, sizeof(arg), "%.1f", seconds);
		execl(path, "busyloop", arg, (char *)NULL);
		_exit(127);
	}
	return pid;
}

static bool pass_clean(bool ok, const char *what)
{
	uint64_t v = violations();

	if (v)
		ktap_diag("%s: the model logged %llu broken rules", what,
			  (unsigned long long)v);
	return ok && !v;
}

/* ---- the cases ----------------------------------------------------------- */

/*
 * With FREEZE_LBRS_ON_PMI the LBR must be unfrozen by the ack (GLOBAL_STATUS
 * bit 58, SDM 18.2.4.1; lbr.c: "v4 can do that as part of the
 * GLOBAL_STATUS ack").
 */
static void case_lbr_freeze(const struct pmu_test *pt)
{
	struct skd_event_attr ev[1];
	struct sim_stats before, after;
	struct skd_config cfg;
	struct seen t = { 0 };
	uint64_t ticks, frozen;
	int ret;

	ret = config_one(pt, &cfg, ev, "branches:p", 20011);
	cfg.branch_sample = SKD_BRANCH_ANY | SKD_BRANCH_USER;
	stats_sum(&before);
	if (!ret)
		ret = run_session(&cfg, spawn_spinner(RUN_SECONDS), &t);
	stats_sum(&after);
	ticks = after.lbr_ticks - before.lbr_ticks;
	frozen = after.lbr_frozen_ticks - before.lbr_frozen_ticks;
	/* The model counts frozen ticks; on hardware, repeated stacks show. */
	if (on_hw)
		ticks = t.with_branches, frozen = t.lbr_same;
	ktap_result(pass_clean(!ret && t.with_branches && ticks &&
			       frozen * 10 < ticks, "lbr-freeze"),
		    "lbr-freeze: the LBR records again after each PMI: frozen "
		    "%llu of %llu %s, %llu samples with branches (%s)",
		    (unsigned long long)frozen, (unsigned long long)ticks,
		    on_hw ? "samples repeat their predecessor's stack" :
			    "ticks", (unsigned long long)t.with_branches,
		    strerror(-ret));
}

/*
 * Memory events count on counters 0-3 only (Intel's lists), with
 * PEBS or without: five of them do not fit either way.
 */
static void case_intel_counters(const struct pmu_test *pt)
{
	static const char *const five[2][5] = {
		{ "mem_inst_retired.all_loads", "mem_inst_retired.all_stores",
		  "mem_load_retired.l1_miss", "mem_load_retired.l2_miss",
		  "mem_load_retired.l3_miss" },
		{ "mem_inst_retired.all_loads:p",
		  "mem_inst_retired.all_stores:p", "mem_load_retired.l1_miss:p",
		  "mem_load_retired.l2_miss:p", "mem_load_retired.l3_miss:p" },
	};
	struct skd_event_attr ev[5];
	struct skd_config cfg;
	int ret[2], k;

	for (k = 0; k < 2; k++) {
		ret[k] = pmu_config(pt, &cfg, ev, five[k], 5, 100003, 4);
		if (!ret[k])
			ret[k] = pmu_config_errno(&cfg);
	}
	ktap_result(pass_clean(ret[0] == -ENOSPC && ret[1] == -ENOSPC,
			       "intel-counters"),
		    "intel-counters: five memory events cannot share counters "
		    "0-3: CONFIG says ENOSPC without PEBS (%s) and with it (%s)",
		    strerror(-ret[0]), strerror(-ret[1]));
}

/*
 * Skylake family, HT off: PEBS still only on counters 0-3 (ds.c
 * intel_skl_pebs_event_constraints).
 */
static void case_pebs_0_3(const struct pmu_test *pt)
{
	/*
	 * Intel's list puts these on counters 0-7 with HT off (CounterHTOff);
	 * Linux never enables PEBS above counter 3 on Skylake.
	 */
	static const char *const five_pebs[] = {
		"br_inst_retired.near_taken:p", "br_inst_retired.near_call:p",
		"br_inst_retired.near_return:p", "br_inst_retired.conditional:p",
		"br_inst_retired.far_branch:p",
	};
	static const char *const specs[] = {
		"br_inst_retired.near_taken:p", "br_inst_retired.near_call:p",
		"br_inst_retired.near_return:p", "br_inst_retired.conditional:p",
		"br_inst_retired.all_branches", "br_misp_retired.all_branches",
		"uops_issued.any", "uops_executed.thread",
	};
	struct skd_event_attr ev[8];
	struct sim_msrs m;
	struct skd_config cfg;
	uint64_t pebs = 0;
	bool seen = false;
	int ret, five;

	/* Five PEBS events: there are four PEBS counters. */
	ret = pmu_config(pt, &cfg, ev, five_pebs, 5, 100003, 4);
	five = ret ? ret : pmu_config_errno(&cfg);
	ret = pmu_config(pt, &cfg, ev, specs, 8, 100003, 4);
	if (!ret) {
		struct test_session s;

		ret = session_open(&s, &cfg);
		if (!ret && !(ret = skd_dev_start(s.fd))) {
			seen = !sim_msrs_read(0, &m) &&
			       sim_msr_get(&m, MSR_IA32_PEBS_ENABLE, &pebs);
			skd_dev_stop(s.fd);
		}
		if (!ret || s.fd >= 0)
			session_close(&s);
	}
	ktap_result(pass_clean(five == -ENOSPC && !ret && seen &&
			       (pebs & 0xf) == 0xf && !(pebs & 0xf0),
			       "pebs-0-3"),
		    "pebs-0-3: five PEBS events refused (%s); four PEBS and "
		    "four plain events run with PEBS_ENABLE 0x%llx",
		    strerror(-five), (unsigned long long)pebs);
}

/* Exact IPs only for events Intel's lists mark precise (PEBS, Precise). */
static void case_imprecise(const struct pmu_test *pt)
{
	struct skd_event_attr ev[1];
	struct skd_config cfg;
	struct seen precise = { 0 }, cycles = { 0 };
	int r0 = 0, r1, r2, r3;

	/*
	 * Skylake: BR_INST_RETIRED.ALL_BRANCHES (C4/00) has PEBS 0 in
	 * Intel's list; its PEBS twin is ALL_BRANCHES_PEBS (C4/04).
	 */
	if (skylake_family(pt)) {
		r0 = config_one(pt, &cfg, ev,
				"br_inst_retired.all_branches:pp", 20011);
		if (!r0)
			r0 = pmu_config_errno(&cfg);
		r1 = config_one(pt, &cfg, ev,
				"br_inst_retired.all_branches_pebs:pp", 20011);
	} else {
		r1 = config_one(pt, &cfg, ev,
				"br_inst_retired.all_branches:pp", 20011);
	}
	if (!r1)
		r1 = run_session(&cfg, spawn_spinner(RUN_SECONDS), &precise);
	/* Cycles: CPU_CLK_UNHALTED has Precise 0 from Ice Lake on. */
	r2 = skylake_family(pt) ? 0 :
	     config_one(pt, &cfg, ev, "cpu_clk_unhalted.thread_p:p", 100003);
	if (!skylake_family(pt) && !r2)
		r2 = run_session(&cfg, spawn_spinner(RUN_SECONDS), &cycles);
	/* On Skylake INST_RETIRED.ANY_P has PEBS 0: no :p for it. */
	r3 = skylake_family(pt) ?
	     config_one(pt, &cfg, ev, "inst_retired.any_p:p", 100003) : 0;
	if (skylake_family(pt) && !r3)
		r3 = pmu_config_errno(&cfg);
	if (skylake_family(pt))
		ktap_result(pass_clean(!r1 && precise.samples &&
				       precise.exact == precise.samples &&
				       r0 == -EOPNOTSUPP && r3 == -EOPNOTSUPP,
				       "imprecise"),
			    "imprecise: all_branches_pebs:pp samples exact "
			    "(%llu of %llu); all_branches:pp (%s) and "
			    "inst_retired.any_p:p (%s) refused, PEBS 0 in "
			    "Intel's list",
			    (unsigned long long)precise.exact,
			    (unsigned long long)precise.samples, strerror(-r0),
			    strerror(-r3));
	else
		ktap_result(pass_clean(!r1 && precise.samples &&
				       precise.exact == precise.samples &&
				       !r2 && cycles.samples &&
				       cycles.exact == 0, "imprecise"),
			    "imprecise: precise branches exact (%llu of %llu), "
			    "cycles (Precise 0) never marked exact (%llu of "
			    "%llu)", (unsigned long long)precise.exact,
			    (unsigned long long)precise.samples,
			    (unsigned long long)cycles.exact,
			    (unsigned long long)cycles.samples);
}

/*
 * Golden Cove load latency: the auxiliary event (core.c
 * require_mem_loads_aux_event()) and two latencies (struct pebs_meminfo
 * in asm/perf_event.h, "Alder Lake and later").
 */
static void case_ldlat(const struct pmu_test *pt)
{
	struct skd_event_attr ev[1];
	struct skd_config cfg;
	struct seen t = { .ldlat = 32 };
	int ret;

	ret = config_one(pt, &cfg, ev,
			 "mem_trans_retired.load_latency_gt_32:p", 10007);
	if (!ret)
		ret = run_session(&cfg, spawn_spinner(RUN_SECONDS), &t);
	ktap_result(pass_clean(!ret && t.mem && t.mem == t.samples,
			       "ldlat-aux"),
		    "ldlat-aux: load latency records arrive beside event "
		    "0x03/0x82 (%llu samples, %llu with memory info: %s)",
		    (unsigned long long)t.samples, (unsigned long long)t.mem,
		    strerror(-ret));
	ktap_result(t.mem && t.lat_split == t.mem && t.lat_ok == t.mem,
		    "lat-split: each says its latency has two fields, cache "
		    ">= ldlat and instruction >= cache (%llu, %llu of %llu)",
		    (unsigned long long)t.lat_split,
		    (unsigned long long)t.lat_ok, (unsigned long long)t.mem);
}

/* Intel's TakenAlone: a load-latency event with another GP event. */
static void case_taken_alone(const struct pmu_test *pt)
{
	static const char *const two[] = {
		"mem_trans_retired.load_latency_gt_32:p",
		"br_inst_retired.all_branches",
	};
	struct skd_event_attr ev[2];
	struct skd_config cfg;
	int ret;

	ret = pmu_config(pt, &cfg, ev, two, 2, 100003, 4);
	if (!ret)
		ret = pmu_config_errno(&cfg);
	ktap_result(pass_clean(ret == -ENOSPC, "taken-alone"),
		    "taken-alone: load latency with another GP event is "
		    "refused with ENOSPC (%s)", strerror(-ret));
}

/*
 * A period of 2^33 + 5000 must not sample every 5000 events: the legacy
 * alias 0xC1 + i sign-extends bit 31, the full-width one does not (SDM
 * 18.2.6).
 */
static void case_full_width(const struct pmu_test *pt)
{
	struct skd_event_attr ev[1];
	struct skd_config cfg;
	struct seen t = { 0 };
	int ret;

	ret = config_one(pt, &cfg, ev, "br_inst_retired.all_branches",
			 (1ULL << 33) + 5000);
	if (!ret)
		ret = run_session(&cfg, spawn_spinner(RUN_SECONDS), &t);
	ktap_result(pass_clean(!ret && t.samples <= 1, "full-width"),
		    "full-width: period 2^33+5000 (about 20 s of branches) "
		    "gives %llu samples in %.0f s (%s)",
		    (unsigned long long)t.samples, RUN_SECONDS, strerror(-ret));
}

/*
 * System-wide large PEBS with two programs taking turns on CPU 1: each
 * record goes to the task that wrote it (ds.c intel_pmu_pebs_sched_task()
 * drains at every switch), at its own time (ds.c setup_pebs_time()).
 */
static void attribution_run(const struct pmu_test *pt, bool follow)
{
	const char *how = follow ? "following this process tree" :
				   "system-wide";
	struct sim_stats before, after;
	struct skd_event_attr ev[1];
	struct skd_config cfg;
	struct seen t = { 0 };
	uint64_t records = 0, pmis = 0;
	bool large;
	int ret;

	ret = config_one(pt, &cfg, ev, "branches:pp", 20011);
	if (follow) {
		/* a and b both followed: every switch between them drains. */
		cfg.flags |= SKD_CFG_PID;
		cfg.pid = getpid();
	}
	/* a is a fork of this process: the same mappings. */
	xranges_read("/proc/self/maps", &t.a_code);
	stats_sum(&before);
	if (!ret) {
		t.a = spawn_spinner_on(2 * RUN_SECONDS, 1);
		t.b = spawn_busyloop_on(2 * RUN_SECONDS, 1);
		ret = run_session(&cfg, t.a, &t);
		reap(t.b);
	}
	stats_sum(&after);
	/*
	 * Large PEBS must really be in use, or the case shows nothing: the
	 * model counts the records it wrote and the PMIs it raised, one per
	 * record without it.
	 */
	records = after.records - before.records;
	pmis = after.pmis - before.pmis;
	large = on_hw || (records > 100 && pmis * 2 < records);
	ktap_result(pass_clean(!ret && large && t.a_ok > 50 && t.b_ok > 50 &&
			       !t.a_bad && !t.b_bad, "attribution"),
		    "attribution, %s: large-PEBS records (%llu records, %llu "
		    "PMIs) of two programs sharing a CPU go to their own task "
		    "(%llu + %llu right, %llu + %llu wrong)", how,
		    (unsigned long long)records, (unsigned long long)pmis,
		    (unsigned long long)t.a_ok, (unsigned long long)t.b_ok,
		    (unsigned long long)t.a_bad, (unsigned long long)t.b_bad);
	ktap_result(t.time_pairs > 100 && t.same_time * 100 < t.time_pairs &&
		    !t.time_back,
		    "attribution, %s: each record has its own time (%llu of "
		    "%llu consecutive samples share one, %llu go back)", how,
		    (unsigned long long)t.same_time,
		    (unsigned long long)t.time_pairs,
		    (unsigned long long)t.time_back);
}

static void case_attribution(const struct pmu_test *pt)
{
	attribution_run(pt, false);
	attribution_run(pt, true);
}

/* SKD_CFG_EXCLUDE_KERNEL for PMU events and the LBR. */
static void case_exclude(const struct pmu_test *pt)
{
	struct skd_event_attr ev[1];
	struct skd_config cfg;
	struct seen t = { 0 };
	int ret;

	ret = config_one(pt, &cfg, ev, "branches:p", 20011);
	cfg.flags |= SKD_CFG_EXCLUDE_KERNEL;
	cfg.branch_sample = SKD_BRANCH_ANY;
	if (!ret)
		ret = run_session(&cfg, spawn_syscaller(RUN_SECONDS), &t);
	ktap_result(pass_clean(!ret && t.samples && !t.kernel &&
			       t.with_branches && !t.branch_kernel,
			       "exclude"),
		    "exclude: a session excluding the kernel samples a syscall "
		    "loop in user mode only (%llu of %llu in the kernel, %llu "
		    "kernel branches)", (unsigned long long)t.kernel,
		    (unsigned long long)t.samples,
		    (unsigned long long)t.branch_kernel);
}

/* The hybrid model's core types, CPUID.1AH per CPU. */
static void case_hybrid(const struct pmu_test *pt)
{
	struct skd_pmu_info p, e;
	struct skd_event_attr ev[1];
	struct skd_pmu_caps ecaps;
	struct skd_config cfg;
	struct seen t = { 0 };
	uint64_t cpu1 = 1ULL << 1;
	char why[256];
	int fd, q, mixed, ret;

	fd = skd_dev_open(false);
	q = fd < 0 ? fd : pmu_query_cpu(fd, pt->backend, pt->sim_model, 0,
					 &p);
	if (!q)
		q = pmu_query_cpu(fd, pt->backend, pt->sim_model, 1, &e);
	if (fd >= 0)
		close(fd);
	ktap_result(!q && p.core_type == 0x40 && e.core_type == 0x20 &&
		    !strcmp(p.model_name, "alderlake_goldencove") &&
		    !strcmp(e.model_name, "alderlake_gracemont") &&
		    p.nr_gp == 8 && e.nr_gp == 6,
		    "hybrid: CPU 0 is a Golden Cove P-core (%s, %u GP), CPU 1 "
		    "a Gracemont E-core (%s, %u GP)", q ? "?" : p.model_name,
		    q ? 0 : p.nr_gp, q ? "?" : e.model_name, q ? 0 : e.nr_gp);

	/* Both core types in one session: refused. */
	ret = config_one(pt, &cfg, ev, "br_inst_retired.all_branches", 100003);
	cfg.cpumask_ptr = 0;
	cfg.cpumask_bytes = 0;
	mixed = ret ? ret : pmu_config_errno(&cfg);
	/* The E-core alone, with an event of its own list. */
	skd_caps_from_info(&e, &ecaps);
	ret = q ? q : skd_event_parse("mem_uops_retired.all_loads:p", &ecaps,
				      ev, why, sizeof(why));
	if (!ret) {
		memset(&cfg, 0, sizeof(cfg));
		cfg.size = sizeof(cfg);
		cfg.backend = pt->backend;
		cfg.sim_model = pt->sim_model;
		cfg.ring_pages = 64;
		cfg.sample_period = 20011;
		ev[0].sample_period = 20011;
		cfg.events_ptr = (uintptr_t)ev;
		cfg.nr_events = 1;
		cfg.event_attr_size = sizeof(ev[0]);
		cfg.cpumask_ptr = (uintptr_t)&cpu1;
		cfg.cpumask_bytes = sizeof(cpu1);
		ret = run_session(&cfg, spawn_spinner_on(RUN_SECONDS, 1), &t);
	}
	ktap_result(pass_clean(mixed == -EOPNOTSUPP && !ret && t.samples &&
			       t.mem == t.samples, "hybrid"),
		    "hybrid: a session over both core types is refused (%s); "
		    "the E-core samples its own mem_uops_retired.all_loads "
		    "(%llu samples, %s)", strerror(-mixed),
		    (unsigned long long)t.samples, strerror(-ret));
}

/* Architectural LBR filters and INFO fields per CPUID.1CH (lbr.c). */
static void case_arch_lbr_caps(const struct pmu_test *pt)
{
	struct skd_event_attr ev[1];
	struct skd_config cfg;
	struct seen full = { 0 }, bare = { 0 };
	int stack, cpl, r1, r2;

	/*
	 * Call stacks need CPL and branch-type filtering too, at both
	 * privilege levels; user-only branches need CPL filtering.
	 */
	knob("lbr_filters", "0x4");
	stack = config_one(pt, &cfg, ev, "branches:p", 20011);
	cfg.branch_sample = SKD_BRANCH_CALL_STACK;
	if (!stack)
		stack = pmu_config_errno(&cfg);
	knob("lbr_filters", "0x6");
	cpl = config_one(pt, &cfg, ev, "branches:p", 20011);
	cfg.branch_sample = SKD_BRANCH_ANY | SKD_BRANCH_USER;
	if (!cpl)
		cpl = pmu_config_errno(&cfg);
	knob("lbr_filters", "0x7");
	/* INFO fields only where CPUID.1CH:ECX says they are filled. */
	knob("lbr_info_fields", "0x0");
	r1 = config_one(pt, &cfg, ev, "branches:p", 20011);
	cfg.branch_sample = SKD_BRANCH_ANY | SKD_BRANCH_USER;
	if (!r1)
		r1 = run_session(&cfg, spawn_spinner(RUN_SECONDS), &bare);
	knob("lbr_info_fields", "0x7");
	r2 = config_one(pt, &cfg, ev, "branches:p", 20011);
	cfg.branch_sample = SKD_BRANCH_ANY | SKD_BRANCH_USER;
	if (!r2)
		r2 = run_session(&cfg, spawn_spinner(RUN_SECONDS), &full);
	ktap_result(pass_clean(stack == -EOPNOTSUPP && cpl == -EOPNOTSUPP &&
			       !r1 && !r2 &&
			       bare.with_branches && full.with_branches &&
			       !bare.lbr_cycles && !bare.lbr_type &&
			       full.lbr_cycles && full.lbr_type,
			       "arch-lbr-caps"),
		    "arch-lbr-caps: no call stack without CPL and type filters "
		    "(%s), no user-only branches without CPL filtering (%s); "
		    "cycles/type fields only when CPUID.1CH:ECX has them "
		    "(%llu/%llu without, %llu/%llu with)", strerror(-stack),
		    strerror(-cpl),
		    (unsigned long long)bare.lbr_cycles,
		    (unsigned long long)bare.lbr_type,
		    (unsigned long long)full.lbr_cycles,
		    (unsigned long long)full.lbr_type);
}

/*
 * TSX force-abort off: counter 3 is TSX's (core.c
 * tfa_get_event_constraints()).
 */
static void case_tfa(const struct pmu_test *pt)
{
	static const char *const specs[] = {
		"br_inst_retired.all_branches", "br_misp_retired.all_branches",
		"uops_issued.any", "uops_executed.thread",
	};
	struct skd_event_attr ev[4];
	struct skd_config cfg;
	int four, three;

	knob("tfa", "1");
	four = pmu_config(pt, &cfg, ev, specs, 4, 100003, 4);
	if (!four)
		four = pmu_config_errno(&cfg);
	three = pmu_config(pt, &cfg, ev, specs, 3, 100003, 4);
	if (!three)
		three = pmu_start_errno(&cfg);
	knob("tfa", "0");
	ktap_result(pass_clean(four == -ENOSPC && !three, "tfa"),
		    "tfa: with TSX force-abort off four GP events do not fit "
		    "(%s), three run off counter 3 (%s)", strerror(-four),
		    strerror(-three));
}

/*
 * Fixed-counter sessions hold the GP counters too, as perf's first event
 * does (arch/x86/events/core.c x86_reserve_hardware()).
 */
static void case_reservation(const struct pmu_test *pt)
{
	struct skd_event_attr ev[1];
	struct skd_config cfg;
	int held, free;

	knob("held_counters", "0x1");
	held = config_one(pt, &cfg, ev, "instructions", 1000003);
	if (!held)
		held = pmu_start_errno(&cfg);
	knob("held_counters", "0");
	free = config_one(pt, &cfg, ev, "instructions", 1000003);
	if (!free)
		free = pmu_start_errno(&cfg);
	ktap_result(pass_clean(held == -EBUSY && !free, "reservation"),
		    "reservation: an instructions-only session (fixed counter "
		    "0) cannot start while perf holds counter 0 (%s), starts "
		    "when it is free (%s)", strerror(-held), strerror(-free));
}

/* Another owner's bits of shared MSRs stay as they are. */
static void case_foreign_bits(const struct pmu_test *pt)
{
	struct skd_event_attr ev[1];
	struct sim_msrs m;
	struct skd_config cfg;
	struct test_session s;
	uint64_t fixed = 0, ctrl = 0;
	bool ran = false;
	int ret;

	/* The NMI watchdog's fixed counter 1: OS, USR and PMI, enabled. */
	sim_msr_write(0, MSR_CORE_PERF_FIXED_CTR_CTRL, 0xb0);
	sim_msr_write(0, MSR_CORE_PERF_GLOBAL_CTRL, 1ULL << 33);
	knob("foreign_fixed", "0xf0");
	knob("foreign_ctrl", "0x200000000");
	ret = config_one(pt, &cfg, ev, "instructions", 1000003);
	if (!ret)
		ret = session_open(&s, &cfg);
	if (!ret) {
		ran = !skd_dev_start(s.fd);
		if (ran) {
			/*
			 * The owner takes fixed counter 2 meanwhile, in
			 * FIXED_CTR_CTRL and GLOBAL_CTRL: STOP must not put
			 * back what either held at START.
			 */
			if (!sim_msrs_read(0, &m)) {
				sim_msr_get(&m, MSR_CORE_PERF_FIXED_CTR_CTRL, &fixed);
				sim_msr_get(&m, MSR_CORE_PERF_GLOBAL_CTRL, &ctrl);
			}
			sim_msr_write(0, MSR_CORE_PERF_FIXED_CTR_CTRL, fixed | 0xb00);
			sim_msr_write(0, MSR_CORE_PERF_GLOBAL_CTRL, ctrl | 1ULL << 34);
			knob("foreign_fixed", "0xff0");
			knob("foreign_ctrl", "0x600000000");
			sleep_seconds(0.2);
			skd_dev_stop(s.fd);
		}
		session_close(&s);
	}
	fixed = ctrl = 0;
	if (!sim_msrs_read(0, &m)) {
		sim_msr_get(&m, MSR_CORE_PERF_FIXED_CTR_CTRL, &fixed);
		sim_msr_get(&m, MSR_CORE_PERF_GLOBAL_CTRL, &ctrl);
	}
	knob("foreign_fixed", "0");
	knob("foreign_ctrl", "0");
	sim_msr_write(0, MSR_CORE_PERF_FIXED_CTR_CTRL, 0);
	sim_msr_write(0, MSR_CORE_PERF_GLOBAL_CTRL, 0);
	ktap_result(pass_clean(ran && (fixed & 0xff0) == 0xbb0 &&
			       (ctrl & (3ULL << 33)) == 3ULL << 33,
			       "foreign-bits"),
		    "foreign-bits: another owner's fixed counters 1 and 2 "
		    "and their GLOBAL_CTRL bits, one taken during the "
		    "session, survive a session on fixed counter 0 "
		    "(FIXED_CTR_CTRL 0x%llx, GLOBAL_CTRL 0x%llx)",
		    (unsigned long long)fixed, (unsigned long long)ctrl);
}

/* What a START gave, for the message: "refused: EBUSY's text" or "started". */
static const char *start_said(int ret, char *buf, size_t len)
{
	if (ret == 1)
		return "not tried";
	snprintf(buf, len, "%s", ret ? strerror(-ret) : "started");
	return buf;
}

/*
 * No PEBS while a CPU can enter a guest (core.c intel_guest_get_msrs()):
 * each way of knowing it (VMX on, a hypervisor module loaded) must refuse
 * START on its own.
 */
static void case_vmx(const struct pmu_test *pt)
{
	struct skd_event_attr ev[1];
	struct skd_config cfg;
	int pebs_vmx, pebs_hv = 1, plain, mod_during, mod_after;
	bool flag_on = false;
	struct test_session s;
	char said_vmx[64], said_hv[64];

	knob("vmx", "1");
	pebs_vmx = config_one(pt, &cfg, ev, "branches:p", 100003);
	if (!pebs_vmx)
		pebs_vmx = pmu_start_errno(&cfg);
	plain = config_one(pt, &cfg, ev, "branches", 100003);
	if (!plain)
		plain = pmu_start_errno(&cfg);
	knob("vmx", "0");

	/* A hypervisor module cannot come while PEBS runs. */
	mod_during = config_one(pt, &cfg, ev, "branches:p", 100003);
	if (!mod_during)
		mod_during = session_open(&s, &cfg);
	if (!mod_during) {
		mod_during = skd_dev_start(s.fd);
		if (!mod_during) {
			mod_during = system("insmod /skd/test-modules/kvm_intel.ko 2>/dev/null");
			skd_dev_stop(s.fd);
		}
		session_close(&s);
	}
	mod_after = system("insmod /skd/test-modules/kvm_intel.ko");
	/* ... and PEBS cannot start while one is loaded. */
	if (!mod_after) {
		struct skd_pmu_info q;
		int qfd = skd_dev_open(false);

		/* GET_PMU says so, for `skidless info` to tell. */
		flag_on = qfd >= 0 &&
			  !pmu_query(qfd, pt->backend, pt->sim_model, &q) &&
			  (q.flags & SKD_PMU_VMX);
		if (qfd >= 0)
			close(qfd);
		pebs_hv = config_one(pt, &cfg, ev, "branches:p", 100003);
		if (!pebs_hv)
			pebs_hv = pmu_start_errno(&cfg);
		system("rmmod kvm_intel");
	}
	ktap_result(pass_clean(pebs_vmx == -EBUSY && pebs_hv == -EBUSY &&
			       !plain && mod_during && !mod_after && flag_on,
			       "vmx"),
		    "vmx: PEBS refuses to start with VMX on (%s) and with a "
		    "hypervisor loaded (%s), plain counting starts (%s); "
		    "loading kvm_intel fails during a PEBS session (rc %d), "
		    "works after (rc %d); GET_PMU flags it (%s)",
		    start_said(pebs_vmx, said_vmx, sizeof(said_vmx)),
		    start_said(pebs_hv, said_hv, sizeof(said_hv)),
		    strerror(-plain), mod_during, mod_after,
		    flag_on ? "yes" : "no");
}

/*
 * START/STOP under a high PMI rate: every PMI claimed. The model
 * also makes a counter overflow right as STOP turns it off (its
 * overflow_at_off knob), the PMI a real counter can raise at that point.
 */
static void case_stop_order(const struct pmu_test *pt)
{
	struct skd_event_attr ev[1];
	struct skd_config cfg;
	struct test_session s;
	unsigned int i, ok = 0;
	pid_t spin;
	int ret;
	FILE *f;
	char line[256];
	unsigned int unknown = 0;

	ret = config_one(pt, &cfg, ev, "br_inst_retired.all_branches", 2003);
	spin = spawn_spinner(3 * RUN_SECONDS);
	cfg.flags &= ~SKD_CFG_PID;
	if (pmu_is_sim(pt))
		knob("overflow_at_off", "1");
	for (i = 0; !ret && i < 100; i++) {
		if (session_open(&s, &cfg))
			break;
		if (!skd_dev_start(s.fd)) {
			sleep_seconds(0.005);
			ok += !skd_dev_stop(s.fd);
		}
		session_close(&s);
	}
	if (pmu_is_sim(pt))
		knob("overflow_at_off", "0");
	kill(spin, SIGKILL);
	reap(spin);
	f = popen("dmesg", "r");
	while (f && fgets(line, sizeof(line), f))
		unknown += !!strstr(line, "NMI received for unknown reason");
	if (f)
		pclose(f);
	ktap_result(pass_clean(ok == 100 && !unknown, "stop-order"),
		    "stop-order: 100 START/STOP cycles at about 200000 PMIs/s, "
		    "%u stopped cleanly, %u unclaimed NMIs", ok, unknown);
}

struct tcase {
	void (*run)(const struct pmu_test *pt);
	bool (*applies)(const struct pmu_test *pt);
	unsigned int results;
	bool sim_only;		/* drives the model's knobs or reads its MSRs */
};

static bool always(const struct pmu_test *pt)
{
	(void)pt;
	return true;
}

static bool has_ldlat_aux(const struct pmu_test *pt)
{
	return golden_cove(pt);
}

static bool has_arch_lbr(const struct pmu_test *pt)
{
	return pt->pmu.flags & SKD_PMU_ARCH_LBR;
}

static bool is_hybrid(const struct pmu_test *pt)
{
	return pt->pmu.flags & SKD_PMU_HYBRID;
}

static bool two_cpus(const struct pmu_test *pt)
{
	/* CPU 1 must be of the sessions' core type to share it. */
	return pt->cpu_mask & 2;
}

static const struct tcase cases[] = {
	{ case_lbr_freeze, always, 1, false },
	{ case_intel_counters, always, 1, false },
	{ case_pebs_0_3, skylake_htoff, 1, true },
	{ case_imprecise, always, 1, false },
	{ case_ldlat, has_ldlat_aux, 2, false },
	{ case_taken_alone, always, 1, false },
	{ case_full_width, always, 1, false },
	{ case_attribution, two_cpus, 4, false },
	{ case_exclude, always, 1, false },
	{ case_hybrid, is_hybrid, 2, false },
	{ case_arch_lbr_caps, has_arch_lbr, 1, true },
	{ case_tfa, skylake_ht, 1, true },
	{ case_reservation, always, 1, true },
	{ case_foreign_bits, always, 1, true },
	{ case_vmx, always, 1, true },
	{ case_stop_order, always, 1, false },
};

static bool runs(const struct tcase *c, const struct pmu_test *pt)
{
	return c->applies(pt) && (pmu_is_sim(pt) || !c->sim_only);
}

int main(int argc, char **argv)
{
	struct pmu_test pt;
	unsigned int i, planned = 0;

	pmu_test_init(&pt, argc, argv);
	on_hw = pt.hw;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (runs(&cases[i], &pt))
			planned += cases[i].results;
	ktap_plan(planned);
	violations();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (runs(&cases[i], &pt))
			cases[i].run(&pt);
	return ktap_finish();
}
