// SPDX-License-Identifier: GPL-2.0
/*
 * The Intel backend on one sim model (argv[1]): precise samples of a known
 * program land in its hot function, LBR call stacks rebuild its call chain
 * root -> a -> b -> c, -b branch stacks and call chains come together,
 * several events sample at once, and large-PEBS mode with a stalled
 * reader accounts for every record (generated == delivered + lost, and
 * every PEBS record the model wrote became a sample).
 *
 * Every session follows one child; a second child spinning in a function
 * of its own runs beside it, and none of its samples or branches may show.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "pmulib.h"

#define PERIOD		200003
#define RUN_SECONDS	1.5

/* Each function in its own section, so samples can be placed exactly. */
#define SECTION_BOUNDS(name)						\
	extern const char __start_##name[], __stop_##name[];		\
	static bool in_##name(uint64_t ip)				\
	{								\
		return ip >= (uintptr_t)__start_##name &&		\
		       ip < (uintptr_t)__stop_##name;			\
	}

SECTION_BOUNDS(skd_chain_root)
SECTION_BOUNDS(skd_chain_a)
SECTION_BOUNDS(skd_chain_b)
SECTION_BOUNDS(skd_chain_c)
SECTION_BOUNDS(skd_other)

static volatile unsigned long sink;

/* The leaf: all of the chain's time is spent here. */
__attribute__((noinline, section("skd_chain_c")))
void chain_c(double seconds)
{
	double end = now_seconds() + seconds;
	unsigned long i;

	do {
		for (i = 0; i < 2000000; i++)
			sink += i;
	} while (now_seconds() < end);
}

/* The increments after each call keep the calls from becoming jumps. */
__attribute__((noinline, section("skd_chain_b")))
void chain_b(double seconds)
{
	chain_c(seconds);
	sink++;
}

__attribute__((noinline, section("skd_chain_a")))
void chain_a(double seconds)
{
	chain_b(seconds);
	sink++;
}

__attribute__((noinline, section("skd_chain_root")))
pid_t spawn_chain(double seconds)
{
	pid_t pid = fork();

	if (!pid) {
		chain_a(seconds);
		sink++;
		_exit(0);
	}
	return pid;
}

__attribute__((noinline, section("skd_other")))
pid_t spawn_other(double seconds)
{
	pid_t pid = fork();
	double end;

	if (!pid) {
		end = now_seconds() + seconds;
		while (now_seconds() < end)
			sink++;
		_exit(0);
	}
	return pid;
}

struct tally {
	pid_t target, other;
	uint64_t samples, foreign, in_c, exact, modeled, period_ok;
	uint64_t with_branches, chain_ok, chain_seen, branch_other;
	uint64_t callchain_ok, per_event[SKD_MAX_EVENTS], mem, mem_modeled;
	uint64_t kernel;
	uint64_t period[SKD_MAX_EVENTS];
	bool want_stack;	/* branches must be a call stack */
};

/* Entries 0..2 of a sample in c: b -> c, a -> b, root -> a. */
static bool rebuilds_chain(const struct skd_event *ev)
{
	const struct skd_branch_entry *e = ev->sample.branches;

	return ev->sample.nr_branches >= 3 &&
	       in_skd_chain_b(e[0].from) && branch_to(&e[0], chain_c) &&
	       in_skd_chain_a(e[1].from) && branch_to(&e[1], chain_b) &&
	       in_skd_chain_root(e[2].from) && branch_to(&e[2], chain_a);
}

static void each_sample(const struct skd_event *ev, void *arg)
{
	struct tally *t = arg;
	const struct skd_rec_sample *s = ev->sample.rec;
	unsigned int i, evi;

	if (ev->type != SKD_REC_SAMPLE)
		return;
	t->samples++;
	if (ev->id->pid != (uint32_t)t->target || in_skd_other(s->ip)) {
		t->foreign++;
		return;
	}
	evi = s->event < SKD_MAX_EVENTS ? s->event : 0;
	t->per_event[evi]++;
	t->period_ok += s->period == t->period[evi];
	t->exact += !!(ev->misc & SKD_MISC_EXACT_IP);
	t->modeled += !!(ev->misc & SKD_MISC_MODELED);
	t->kernel += (ev->misc & SKD_MISC_CPUMODE_MASK) == SKD_MISC_KERNEL;
	if (ev->sample.mem) {
		t->mem++;
		t->mem_modeled += !!(ev->sample.mem->flags & SKD_MEM_MODELED);
	}
	for (i = 0; ev->sample.branches && i < ev->sample.nr_branches; i++)
		if (in_skd_other(ev->sample.branches[i].from) ||
		    in_skd_other(ev->sample.branches[i].to))
			t->branch_other++;
	if (!in_skd_chain_c(s->ip))
		return;
	t->in_c++;
	if (ev->sample.branches) {
		t->with_branches++;
		t->chain_seen += !t->want_stack ||
				 ev->sample.branch_flags & SKD_BR_CALL_STACK;
		t->chain_ok += rebuilds_chain(ev);
	}
	/* A frame-pointer chain from c: c, then its return into b, a. */
	t->callchain_ok += ev->sample.nr >= 3 && ev->sample.ips[0] == s->ip &&
			   in_skd_chain_b(ev->sample.ips[1]) &&
			   in_skd_chain_a(ev->sample.ips[2]);
}

/* Run the chain under @cfg (following it) with the other child beside. */
static int run_followed(struct skd_config *cfg, struct tally *t,
			struct skd_cpu_stats *sum)
{
	struct drained d = { .each = each_sample, .arg = t };
	struct skd_cpu_stats per_cpu[64];
	struct test_session s;
	bool exited = false;
	unsigned int i;

	for (i = 0; i < cfg->nr_events; i++)
		t->period[i] = ((struct skd_event_attr *)(uintptr_t)
				cfg->events_ptr)[i].sample_period;
	t->target = spawn_chain(RUN_SECONDS);
	t->other = spawn_other(RUN_SECONDS);
	cfg->flags |= SKD_CFG_PID;
	cfg->pid = t->target;
	if (session_open(&s, cfg) || skd_dev_start(s.fd)) {
		kill(t->target, SIGKILL);
		kill(t->other, SIGKILL);
		reap(t->target);
		reap(t->other);
		return -1;
	}
	while (!exited && reap_nohang(t->target, &exited))
		if (session_drain(&s, &d) < 0)
			break;
	skd_dev_stop(s.fd);
	session_drain(&s, &d);
	reap(t->other);
	session_stats(&s, per_cpu, 64, sum);
	session_close(&s);
	ktap_diag("%llu samples of the chain, %llu in c, %llu in the kernel, "
		  "%llu foreign; "
		  "generated %llu delivered %llu lost %llu",
		  (unsigned long long)(t->samples - t->foreign),
		  (unsigned long long)t->in_c, (unsigned long long)t->kernel,
		  (unsigned long long)t->foreign,
		  (unsigned long long)sum->generated,
		  (unsigned long long)sum->delivered,
		  (unsigned long long)sum->lost);
	return d.malformed ? -1 : 0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

/*
 * Enough samples for the shares below to mean something. The model counts
 * the vCPU's busy time, which a loaded host shrinks: a floor, not a rate.
 */
#define ENOUGH	500

/* instructions:ppp with LBR call stacks: placement, exact IPs, the chain. */
static void test_precise_call_stack(const struct pmu_test *pt)
{
	/* User mode: the chain's own instructions, not the kernel's IRQs. */
	static const char *const ev_spec[] = { "instructions:pppu" };
	struct skd_event_attr ev[1];
	struct skd_cpu_stats sum = { 0 };
	struct skd_config cfg;
	struct tally t = { .want_stack = true };
	uint64_t own;
	bool ran;

	ran = !pmu_config(pt, &cfg, ev, ev_spec, 1, PERIOD, 64);
	cfg.branch_sample = SKD_BRANCH_CALL_STACK | SKD_BRANCH_USER;
	ran = ran && !run_followed(&cfg, &t, &sum);
	own = t.samples - t.foreign;
	ktap_result(ran && own >= ENOUGH,
		    "instructions:pppu --call-graph lbr: the chain got %llu samples",
		    (unsigned long long)own);
	ktap_result(own && t.in_c * 100 >= own * 95,
		    "at least 95%% of them are in c() (%.1f%%)",
		    pct(t.in_c, own));
	/* The model marks what it made up; the real PMU makes nothing up. */
	ktap_result(own && t.exact == own &&
		    t.modeled == (pmu_is_sim(pt) ? own : 0),
		    "every sample has an exact IP, %s (%llu, %llu of %llu)",
		    pmu_is_sim(pt) ? "marked modeled" : "none marked modeled",
		    (unsigned long long)t.exact, (unsigned long long)t.modeled,
		    (unsigned long long)own);
	ktap_result(t.in_c && t.chain_ok * 100 >= t.in_c * 95 &&
		    t.chain_seen == t.with_branches,
		    "LBR call stacks rebuild root -> a -> b -> c "
		    "(%llu of %llu samples in c, %.1f%%)",
		    (unsigned long long)t.chain_ok,
		    (unsigned long long)t.in_c, pct(t.chain_ok, t.in_c));
	ktap_result(ran && t.foreign == 0 && t.branch_other == 0,
		    "none of the other process's samples (%llu) or branches "
		    "(%llu)", (unsigned long long)t.foreign,
		    (unsigned long long)t.branch_other);
	ktap_result(own && t.period_ok == own,
		    "every period is %d (%llu of %llu)", PERIOD,
		    (unsigned long long)t.period_ok, (unsigned long long)own);
	ktap_result(ran && sum.generated == sum.delivered + sum.lost &&
		    sum.lost == 0 && sum.samples == t.samples,
		    "accounting: generated %llu = delivered %llu + lost %llu, "
		    "%llu samples read",
		    (unsigned long long)sum.generated,
		    (unsigned long long)sum.delivered,
		    (unsigned long long)sum.lost,
		    (unsigned long long)t.samples);
}

/* -b (any branch) with frame-pointer call chains: single-record mode. */
static void test_branches_and_callchains(const struct pmu_test *pt)
{
	static const char *const ev_spec[] = { "cycles:pp" };
	struct skd_event_attr ev[1];
	struct skd_cpu_stats sum = { 0 };
	struct skd_config cfg;
	struct tally t = { 0 };
	bool ran;

	/* About 1 KiB a sample: room for the reader's 50 ms naps. */
	ran = !pmu_config(pt, &cfg, ev, ev_spec, 1, PERIOD, 512);
	cfg.branch_sample = SKD_BRANCH_ANY | SKD_BRANCH_USER;
	cfg.callchain_depth = 32;
	ran = ran && !run_followed(&cfg, &t, &sum);
	ktap_result(ran && t.in_c && t.with_branches == t.in_c &&
		    t.chain_ok * 100 >= t.in_c * 95,
		    "-b: samples in c carry the branches into it "
		    "(%llu of %llu)", (unsigned long long)t.chain_ok,
		    (unsigned long long)t.in_c);
	ktap_result(t.in_c && t.callchain_ok * 100 >= t.in_c * 95,
		    "with call chains c <- b <- a beside them (%llu of %llu)",
		    (unsigned long long)t.callchain_ok,
		    (unsigned long long)t.in_c);
	ktap_result(ran && sum.lost == 0 && t.foreign == 0 &&
		    t.branch_other == 0,
		    "nothing lost, nothing of the other process");
}

/* Several events on GP and fixed counters in one session. */
static void test_several_events(const struct pmu_test *pt)
{
	static const char *const ev_spec[] = {
		"cycles:pp", "instructions:p", "branches:p",
		"mem_inst_retired.all_loads:p",
	};
	const unsigned int nr = sizeof(ev_spec) / sizeof(ev_spec[0]);
	struct skd_event_attr ev[sizeof(ev_spec) / sizeof(ev_spec[0])];
	struct skd_cpu_stats sum = { 0 };
	struct skd_config cfg;
	struct tally t = { 0 };
	unsigned int i, with = 0;
	bool ran;

	ran = !pmu_config(pt, &cfg, ev, ev_spec, nr, 0, 64);
	/* Periods that keep each event near 5000 samples/s on the model. */
	ev[0].sample_period = 400009;
	ev[1].sample_period = 400031;
	ev[2].sample_period = 80021;
	ev[3].sample_period = 120011;
	ran = ran && !run_followed(&cfg, &t, &sum);
	for (i = 0; i < nr; i++) {
		ktap_diag("event %u (%s): %llu samples", i, ev_spec[i],
			  (unsigned long long)t.per_event[i]);
		with += t.per_event[i] >= ENOUGH / 2;
	}
	ktap_result(ran && with == nr,
		    "%u events at once: each one sampled (%u of %u)", nr, with,
		    nr);
	ktap_result(t.samples && t.period_ok == t.samples - t.foreign,
		    "each sample carries its own event's period (%llu of %llu)",
		    (unsigned long long)t.period_ok,
		    (unsigned long long)(t.samples - t.foreign));
	ktap_result(t.per_event[3] && t.mem == t.per_event[3] &&
		    t.mem_modeled == (pmu_is_sim(pt) ? t.mem : 0),
		    "load samples carry a data address (%llu marked modeled, "
		    "of %llu)",
		    (unsigned long long)t.mem_modeled,
		    (unsigned long long)t.per_event[3]);
	ktap_result(ran && sum.lost == 0 && t.foreign == 0,
		    "nothing lost (%llu), nothing foreign (%llu)",
		    (unsigned long long)sum.lost,
		    (unsigned long long)t.foreign);
}

/*
 * Large PEBS on every CPU with a reader that does not read: the rings
 * overflow, and still every record the model wrote is a sample generated,
 * delivered or lost, exactly.
 */
static void test_large_pebs_accounting(const struct pmu_test *pt)
{
	static const char *const ev_spec[] = { "cycles:pp" };
	struct skd_event_attr ev[1];
	struct skd_cpu_stats per_cpu[64], sum;
	struct sim_stats before[64], after[64];
	struct drained d = { 0 };
	struct test_session s;
	struct skd_config cfg;
	uint64_t records = 0, dropped = 0, pmis = 0, samples = 0, late = 0;
	unsigned int cpu, nr_cpus, exact_cpus = 0, cpus_with_loss = 0;
	pid_t spin[2];
	bool ok;

	ok = !pmu_config(pt, &cfg, ev, ev_spec, 1, 50021, 1) &&
	     !session_open(&s, &cfg);
	if (!ok) {
		ktap_fail("large PEBS accounting", "no session");
		if (!pmu_is_sim(pt))
			return;
		ktap_fail("large PEBS batches records", "no session");
		ktap_fail("large PEBS: every record became a sample",
			  "no session");
		return;
	}
	nr_cpus = s.info.nr_cpu_ids < 64 ? s.info.nr_cpu_ids : 64;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		if (sim_stats_read(cpu, &before[cpu]))
			memset(&before[cpu], 0, sizeof(before[cpu]));
	/*
	 * One spinner per CPU of the session: on a hybrid part (one CPU of
	 * its type here) a second would share it, and the switches between
	 * them would drain the buffer before it reaches its threshold.
	 */
	spin[0] = spawn_spinner(RUN_SECONDS);
	spin[1] = pt->cpu_mask & 2 ? spawn_spinner(RUN_SECONDS) : -1;
	skd_dev_start(s.fd);
	reap(spin[0]);
	if (spin[1] > 0)
		reap(spin[1]);
	skd_dev_stop(s.fd);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (sim_stats_read(cpu, &after[cpu]))
			continue;
		records += after[cpu].records - before[cpu].records;
		dropped += after[cpu].records_dropped -
			   before[cpu].records_dropped;
		pmis += after[cpu].pmis - before[cpu].pmis;
		late += after[cpu].pmis_late - before[cpu].pmis_late +
			after[cpu].pmis_masked - before[cpu].pmis_masked +
			after[cpu].events_skipped - before[cpu].events_skipped;
	}
	session_stats(&s, per_cpu, 64, &sum);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		exact_cpus += per_cpu[cpu].generated ==
			      per_cpu[cpu].delivered + per_cpu[cpu].lost;
		cpus_with_loss += per_cpu[cpu].lost > 0;
	}
	session_drain(&s, &d);
	samples = sum.samples;
	ktap_diag("model: %llu records in %llu PMIs, %llu dropped, %llu late "
		  "or masked PMIs or skipped events; module: %llu samples "
		  "generated, %llu lost", (unsigned long long)records,
		  (unsigned long long)pmis, (unsigned long long)dropped,
		  (unsigned long long)late,
		  (unsigned long long)samples, (unsigned long long)sum.lost);
	ktap_result(exact_cpus == nr_cpus && cpus_with_loss > 0 &&
		    d.lost_in_stream + sum.lost_unreported == sum.lost,
		    "large PEBS with a stalled reader: generated == delivered + "
		    "lost on %u of %u CPUs (lost %llu = %llu in LOST records + "
		    "%llu unreported)", exact_cpus, nr_cpus,
		    (unsigned long long)sum.lost,
		    (unsigned long long)d.lost_in_stream,
		    (unsigned long long)sum.lost_unreported);
	/* What the model wrote, from its statistics: sim only. */
	if (!pmu_is_sim(pt)) {
		session_close(&s);
		return;
	}
	ktap_result(pmis && records >= 4 * pmis,
		    "large PEBS batches records: %.1f per PMI",
		    pmis ? (double)records / pmis : 0);
	ktap_result(records && dropped == 0 && late == 0 && samples == records,
		    "every PEBS record the model wrote became a sample "
		    "(%llu records, %llu samples)", (unsigned long long)records,
		    (unsigned long long)samples);
	session_close(&s);
}

int main(int argc, char **argv)
{
	struct pmu_test pt;

	pmu_test_init(&pt, argc, argv);
	/* Two results read the model's statistics. */
	ktap_plan(pmu_is_sim(&pt) ? 17 : 15);
	test_precise_call_stack(&pt);
	test_branches_and_callchains(&pt);
	test_several_events(&pt);
	test_large_pebs_accounting(&pt);
	return ktap_finish();
}
