// SPDX-License-Identifier: GPL-2.0
/*
 * The Intel backend on one sim model (argv[1]), around the samples: it
 * refuses what it must (no PMU under plain TCG, counters held by someone
 * else, a second session on the same PMU, PEBS under page-table isolation,
 * events that cannot be placed), gives back every register it changed,
 * throttles at max_sample_rate with THROTTLE/UNTHROTTLE records, and keeps
 * sampling across CPU hotplug.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "msrs.h"
#include "pmu_query.h"
#include "pmulib.h"

#define MAX_RATE_PARAM	"/sys/module/skidless/parameters/max_sample_rate"
#define ONLINE		"/sys/devices/system/cpu/cpu1/online"
#define HOTPLUG_CPU	1

static const char *const cycles_pp[] = { "cycles:pp" };
/* On a GP counter on every model (cycles may go to a fixed one). */
static const char *const branches[] = { "branches" };

static uint64_t ns_now(void)
{
	return (uint64_t)(now_seconds() * 1e9);
}

/* Under TCG there is no PMU: the intel backend says why and refuses. */
static void test_no_pmu(void)
{
	struct skd_pmu_info q;
	struct skd_event_attr ev = {
		.size = sizeof(ev), .config = 0x003c,
	};
	struct skd_config cfg = {
		.size = sizeof(cfg), .backend = SKD_BACKEND_INTEL,
		.ring_pages = 4, .sample_period = 1000003,
		.events_ptr = (uintptr_t)&ev, .nr_events = 1,
		.event_attr_size = sizeof(ev),
	};
	int fd = skd_dev_open(false), ret = -1, err;

	if (fd >= 0) {
		ret = pmu_query(fd, SKD_BACKEND_INTEL, 0, &q);
		close(fd);
	}
	err = pmu_config_errno(&cfg);
	ktap_diag("intel backend: %s", ret ? "no answer" : q.why);
	ktap_result(!ret && !(q.flags & SKD_PMU_USABLE) && q.why[0] &&
		    err == -ENODEV,
		    "no PMU under TCG: GET_PMU says why, CONFIG fails with "
		    "ENODEV (%s)", strerror(-err));
}

/* START's errno for a cycles:pp session (0: it ran and was stopped). */
static int start_errno(const struct pmu_test *pt, const char *const *specs,
		       unsigned int nr)
{
	struct skd_event_attr ev[SKD_MAX_EVENTS];
	struct skd_config cfg;
	int ret;

	ret = pmu_config(pt, &cfg, ev, specs, nr, 1000003, 4);
	return ret ? ret : pmu_start_errno(&cfg);
}

static void test_held_counters(const struct pmu_test *pt)
{
	char mask[32];
	int held, after;

	snprintf(mask, sizeof(mask), "0x%x", (1U << pt->pmu.nr_gp) - 1);
	if (write_text(SIM_DEBUGFS "/held_counters", mask)) {
		ktap_fail("counters held elsewhere: EBUSY", "no debugfs knob");
		return;
	}
	held = start_errno(pt, branches, 1);
	write_text(SIM_DEBUGFS "/held_counters", "0");
	after = start_errno(pt, branches, 1);
	ktap_result(held == -EBUSY && after == 0,
		    "counters held as by perf or the NMI watchdog: START fails "
		    "with EBUSY (%s), and works once they are free (%s)",
		    strerror(-held), strerror(-after));
}

static void test_second_session(const struct pmu_test *pt)
{
	struct skd_event_attr ev[1];
	struct skd_config cfg;
	struct test_session s;
	int second = 1, after;

	if (pmu_config(pt, &cfg, ev, cycles_pp, 1, 1000003, 4) ||
	    session_open(&s, &cfg) || skd_dev_start(s.fd)) {
		ktap_fail("a second session on the same PMU", "no session");
		return;
	}
	second = start_errno(pt, cycles_pp, 1);
	skd_dev_stop(s.fd);
	session_close(&s);
	after = start_errno(pt, cycles_pp, 1);
	ktap_result(second == -EBUSY && after == 0,
		    "a second PMU session on the same CPUs: EBUSY (%s), and "
		    "it runs once the first closed (%s)", strerror(-second),
		    strerror(-after));
}

static void test_pti(const struct pmu_test *pt)
{
	static const char *const plain[] = { "branches" };
	struct skd_event_attr ev[1];
	struct skd_config cfg;
	int precise = 1, counting = 1;

	if (write_text(SIM_DEBUGFS "/pti", "1")) {
		ktap_fail("page-table isolation refuses PEBS", "no debugfs knob");
		return;
	}
	if (!pmu_config(pt, &cfg, ev, cycles_pp, 1, 1000003, 4))
		precise = pmu_config_errno(&cfg);
	if (!pmu_config(pt, &cfg, ev, plain, 1, 1000003, 4))
		counting = pmu_config_errno(&cfg);
	write_text(SIM_DEBUGFS "/pti", "0");
	ktap_result(precise == -EPERM && counting == 0,
		    "page-table isolation: PEBS refused with EPERM (%s), a "
		    "counter without PEBS still allowed (%s)", strerror(-precise),
		    strerror(-counting));
}

static void test_placement_errors(const struct pmu_test *pt)
{
	const char *specs[SKD_MAX_EVENTS];
	struct skd_event_attr ev[SKD_MAX_EVENTS];
	struct skd_config cfg;
	unsigned int i, nr = pt->pmu.nr_gp + 1;
	int too_many = 1, not_pebs;

	for (i = 0; i < nr && i < SKD_MAX_EVENTS; i++)
		specs[i] = "branches";
	if (!pmu_config(pt, &cfg, ev, specs, nr, 1000003, 4))
		too_many = pmu_config_errno(&cfg);
	ktap_result(too_many == -ENOSPC,
		    "%u events for %u GP counters: ENOSPC (%s)", nr,
		    pt->pmu.nr_gp, strerror(-too_many));

	/* Raw, so the command line's own checks are not what answers. */
	pmu_config(pt, &cfg, ev, cycles_pp, 1, 1000003, 4);
	ev[0].config = 0x01cd;		/* load latency: no PDIST anywhere */
	ev[0].ldlat = 30;
	ev[0].precise = 3;
	not_pebs = pmu_config_errno(&cfg);
	ktap_result(not_pebs == -EOPNOTSUPP,
		    "precise distribution (:ppp) asked of an event without it: "
		    "EOPNOTSUPP (%s)", strerror(-not_pebs));
	ev[0].ldlat = 0;

	ev[0].config = 0x412e;		/* LLC misses: not in the PEBS lists */
	ev[0].precise = 1;
	not_pebs = pmu_config_errno(&cfg);
	if (pt->pmu.flags & SKD_PMU_PEBS_BASELINE)
		ktap_result(not_pebs == 0,
			    "adaptive PEBS takes any event on a GP counter: "
			    "LLC misses :p accepted (%s)", strerror(-not_pebs));
	else
		ktap_result(not_pebs == -EOPNOTSUPP,
			    "PEBS asked of an event without it: EOPNOTSUPP (%s)",
			    strerror(-not_pebs));
}

/*
 * Registers a session touches, preset as firmware or another tool might
 * leave them (nothing enabled, or the PMU would be busy).
 */
struct preset {
	uint32_t msr;
	uint64_t val;
};

static unsigned int presets(const struct pmu_test *pt, struct preset *p)
{
	bool arch = pt->pmu.flags & SKD_PMU_ARCH_LBR;
	unsigned int n = 0, i;

	for (i = 0; i < pt->pmu.nr_gp; i++) {
		p[n++] = (struct preset){ SKD_MSR_EVENTSEL(i), 0x1300c4 + i };
		p[n++] = (struct preset){ SKD_MSR_PMC(i), 0x1234 + i };
	}
	p[n++] = (struct preset){ SKD_MSR_FIXED_CTR(0), 0x777 };
	p[n++] = (struct preset){ MSR_PEBS_LD_LAT_THRESHOLD, 0x3 };
	p[n++] = (struct preset){ MSR_IA32_DEBUGCTLMSR, 0x2 };	/* BTF */
	if (arch)
		p[n++] = (struct preset){ MSR_ARCH_LBR_DEPTH, 16 };
	else
		p[n++] = (struct preset){ MSR_LBR_SELECT, 0x1 };
	if (pt->pmu.flags & SKD_PMU_PEBS_BASELINE)
		p[n++] = (struct preset){ MSR_PEBS_DATA_CFG, 0x1 };
	return n;
}

/* MSRs whose value is the PMU's state rather than a setting. */
static bool is_state(uint32_t msr)
{
	return msr == MSR_CORE_PERF_GLOBAL_STATUS || msr == MSR_LBR_TOS;
}

static unsigned int msr_diffs(const struct sim_msrs *a,
			      const struct sim_msrs *b)
{
	unsigned int i, n = 0;
	uint64_t v = 0;

	for (i = 0; i < a->nr; i++) {
		if (is_state(a->msr[i]))
			continue;
		if (!sim_msr_get(b, a->msr[i], &v) || v != a->val[i]) {
			ktap_diag("msr 0x%x: 0x%llx before, 0x%llx after",
				  a->msr[i], (unsigned long long)a->val[i],
				  (unsigned long long)v);
			n++;
		}
	}
	return n;
}

/*
 * Sessions that program everything they can, then give it all back: every
 * GP counter with PEBS and the LBR, then load latency (Intel's lists have
 * it count alone on the GP counters), each beside a fixed counter.
 */
static void test_msrs_restored(const struct pmu_test *pt)
{
	const char *specs[2][SKD_MAX_EVENTS] = {
		{ "instructions", "branches:p" },
		{ "instructions",
		  "mem_trans_retired.load_latency_gt_32/ldlat=30/p" },
	};
	const unsigned int nr[2] = { 1 + pt->pmu.nr_gp, 2 };
	struct skd_event_attr ev[SKD_MAX_EVENTS];
	struct preset p[2 * 8 + 8];
	struct sim_msrs before[2], after[2];
	struct skd_config cfg;
	struct test_session s;
	unsigned int i, k, cpu, n, stopped = 0, closed = 0, set = 0;
	/* CPUs 0 and 1, of the session's core type (a hybrid part: CPU 0). */
	unsigned int cpus = pt->cpu_mask & 2 ? 2 : 1;
	bool ok = true, ran = true;
	pid_t spin;

	for (i = 2; i < nr[0]; i++)
		specs[0][i] = "branches";
	n = presets(pt, p);
	for (cpu = 0; cpu < cpus; cpu++) {
		for (i = 0; i < n; i++)
			set += !sim_msr_write(cpu, p[i].msr, p[i].val);
		ok = ok && !sim_msrs_read(cpu, &before[cpu]);
	}
	ok = ok && set == cpus * n;
	for (k = 0; ok && k < 2; k++) {
		ok = !pmu_config(pt, &cfg, ev, specs[k], nr[k], 100003, 16);
		cfg.branch_sample = k ? 0 : SKD_BRANCH_ANY | SKD_BRANCH_USER;
		cfg.callchain_depth = 16;
		ok = ok && !session_open(&s, &cfg);
		if (!ok)
			break;
		spin = spawn_spinner(0.5);
		ran &= !skd_dev_start(s.fd);
		reap(spin);
		skd_dev_stop(s.fd);
		for (cpu = 0; cpu < cpus; cpu++)
			stopped += sim_msrs_read(cpu, &after[cpu]) ? 100 :
				   msr_diffs(&before[cpu], &after[cpu]);
		/* A second run on the same fd restores again, as does close. */
		skd_dev_start(s.fd);
		session_close(&s);
		for (cpu = 0; cpu < cpus; cpu++)
			closed += sim_msrs_read(cpu, &after[cpu]) ? 100 :
				  msr_diffs(&before[cpu], &after[cpu]);
	}
	if (!ok) {
		ktap_fail("registers restored after a session",
			  "cannot preset the model's MSRs or open a session");
		ktap_fail("registers restored after close", "no session");
		return;
	}
	ktap_result(ran && stopped == 0,
		    "every register two sessions programmed (all GP counters "
		    "with PEBS and LBR; load latency) is back at its preset "
		    "value after STOP (%u differ, %u compared per CPU)",
		    stopped, before[0].nr);
	ktap_result(closed == 0,
		    "and again after a restart ended by close (%u differ)",
		    closed);
}

struct throttle_tally {
	uint64_t samples, throttle, unthrottle, limit_ok;
	uint32_t limit;
};

static void each_throttle(const struct skd_event *ev, void *arg)
{
	struct throttle_tally *t = arg;

	if (ev->type == SKD_REC_SAMPLE)
		t->samples++;
	if (ev->type == SKD_REC_THROTTLE || ev->type == SKD_REC_UNTHROTTLE)
		t->limit_ok += ev->throttle->limit == t->limit;
	t->throttle += ev->type == SKD_REC_THROTTLE;
	t->unthrottle += ev->type == SKD_REC_UNTHROTTLE;
}

static void test_throttling(const struct pmu_test *pt)
{
	struct throttle_tally t = { .limit = 2000 };
	struct drained d = { .each = each_throttle, .arg = &t };
	struct skd_event_attr ev[1];
	struct skd_pmu_info q;
	struct skd_config cfg;
	struct test_session s;
	uint64_t old_rate = 100000;
	double t0, secs = 0;
	bool exited = false, ok, reported;
	char text[32];
	pid_t spin;

	read_u64(MAX_RATE_PARAM, &old_rate);
	/* 100000 samples/s asked of one spinner, 2000 allowed. */
	spin = spawn_spinner(1.0);
	ok = !write_text(MAX_RATE_PARAM, "2000") &&
	     !pmu_config(pt, &cfg, ev, cycles_pp, 1, 20011, 64);
	/*
	 * Call chains mean a PMI per sample, so pauses are one window long
	 * and several fit in the run; a large-PEBS batch pauses for as long
	 * as its records should have taken.
	 */
	cfg.callchain_depth = 8;
	cfg.flags |= SKD_CFG_PID;
	cfg.pid = spin;
	ok = ok && !session_open(&s, &cfg);
	reported = ok && !pmu_query(s.fd, SKD_BACKEND_SIM, pt->sim_model, &q) &&
		   q.max_sample_rate == t.limit;
	if (!ok) {
		kill(spin, SIGKILL);
		reap(spin);
	} else {
		t0 = now_seconds();
		ok = !skd_dev_start(s.fd);
		while (!exited && reap_nohang(spin, &exited))
			session_drain(&s, &d);
		skd_dev_stop(s.fd);
		secs = now_seconds() - t0;
		session_drain(&s, &d);
		session_close(&s);
	}
	snprintf(text, sizeof(text), "%llu", (unsigned long long)old_rate);
	write_text(MAX_RATE_PARAM, text);
	ktap_diag("max_sample_rate 2000: %llu samples in %.2f s, %llu THROTTLE, "
		  "%llu UNTHROTTLE", (unsigned long long)t.samples, secs,
		  (unsigned long long)t.throttle,
		  (unsigned long long)t.unthrottle);
	ktap_result(ok && reported && t.throttle > 0 && t.unthrottle > 0 &&
		    t.limit_ok == t.throttle + t.unthrottle,
		    "max_sample_rate=2000 (GET_PMU reports it): THROTTLE and "
		    "UNTHROTTLE records carry the limit (%llu, %llu)",
		    (unsigned long long)t.throttle,
		    (unsigned long long)t.unthrottle);
	/* Two CPUs at most; one window's worth of overshoot each. */
	ktap_result(ok && t.samples > 0 && t.samples <= 2 * 2 * t.limit * secs,
		    "and hold the rate near the limit (%.0f samples/s, %u "
		    "allowed per CPU)", ok ? t.samples / secs : 0, t.limit);
}

struct hotplug_tally {
	/* offline asked, done; online asked, done */
	uint64_t t_going, t_off, t_coming, t_on;
	uint64_t before, during, after;
};

static void each_hotplug(const struct skd_event *ev, void *arg)
{
	struct hotplug_tally *h = arg;

	if (ev->type != SKD_REC_SAMPLE || ev->id->cpu != HOTPLUG_CPU)
		return;
	/*
	 * Records stamped while the CPU went down or came up are neither:
	 * it samples again from its online callback on, before the write
	 * to "online" returns.
	 */
	if (ev->id->time < h->t_going)
		h->before++;
	else if (ev->id->time >= h->t_off && ev->id->time < h->t_coming)
		h->during++;
	else if (ev->id->time >= h->t_on)
		h->after++;
}

/* Keep the rings drained for @secs. */
static void drain_for(struct test_session *s, struct drained *d, double secs)
{
	double end = now_seconds() + secs;

	do {
		session_drain(s, d);
		sleep_seconds(0.02);
	} while (now_seconds() < end);
}

/* A system-wide PEBS session while CPU 1 goes away and comes back. */
static void test_hotplug(const struct pmu_test *pt)
{
	struct hotplug_tally h = {
		.t_going = UINT64_MAX, .t_off = UINT64_MAX,
		.t_coming = UINT64_MAX, .t_on = UINT64_MAX,
	};
	struct drained d = { .each = each_hotplug, .arg = &h };
	struct skd_cpu_stats per_cpu[64], sum;
	struct skd_event_attr ev[1];
	struct sim_msrs pre, post;
	struct skd_config cfg;
	struct test_session s;
	pid_t spin[2];
	int off = -1, on = -1, diffs = -1;

	if (access(ONLINE, W_OK)) {
		ktap_skip("PEBS sampling across CPU hotplug", "cpu1 cannot go offline");
		ktap_skip("registers restored on a CPU that went away", "no hotplug");
		return;
	}
	if (pmu_config(pt, &cfg, ev, cycles_pp, 1, 200003, 64) ||
	    session_open(&s, &cfg) || sim_msrs_read(HOTPLUG_CPU, &pre)) {
		ktap_fail("PEBS sampling across CPU hotplug", "no session");
		ktap_fail("registers restored on a CPU that went away", "no session");
		return;
	}
	spin[0] = spawn_spinner(2.5);
	spin[1] = spawn_spinner(2.5);
	skd_dev_start(s.fd);
	drain_for(&s, &d, 0.5);
	h.t_going = ns_now();
	off = write_text(ONLINE, "0");
	h.t_off = ns_now();
	drain_for(&s, &d, 0.5);
	h.t_coming = ns_now();
	on = write_text(ONLINE, "1");
	h.t_on = ns_now();
	drain_for(&s, &d, 0.8);
	skd_dev_stop(s.fd);
	session_drain(&s, &d);
	session_stats(&s, per_cpu, 64, &sum);
	session_close(&s);
	if (!sim_msrs_read(HOTPLUG_CPU, &post))
		diffs = msr_diffs(&pre, &post);
	reap(spin[0]);
	reap(spin[1]);
	ktap_diag("cpu%d offline: %s, online: %s", HOTPLUG_CPU,
		  off ? strerror(-off) : "ok", on ? strerror(-on) : "ok");
	ktap_diag("cpu%d samples: %llu before offline, %llu while offline, "
		  "%llu after online; generated %llu delivered %llu lost %llu",
		  HOTPLUG_CPU, (unsigned long long)h.before,
		  (unsigned long long)h.during, (unsigned long long)h.after,
		  (unsigned long long)sum.generated,
		  (unsigned long long)sum.delivered,
		  (unsigned long long)sum.lost);
	if (pt->cpu_mask & (1ULL << HOTPLUG_CPU))
		ktap_result(!off && !on && h.before && !h.during && h.after &&
			    sum.generated == sum.delivered + sum.lost &&
			    !sum.lost,
			    "PEBS sampling stops on a CPU taken offline and "
			    "resumes when it is back (%llu, %llu, %llu), "
			    "nothing lost", (unsigned long long)h.before,
			    (unsigned long long)h.during,
			    (unsigned long long)h.after);
	else	/* a hybrid part: the CPU is of the other core type */
		ktap_result(!off && !on && !h.before && !h.during &&
			    !h.after && sum.generated == sum.delivered &&
			    !sum.lost,
			    "a CPU of the other core type, taken offline and "
			    "back, is never sampled by the session (%llu, "
			    "%llu, %llu), nothing lost",
			    (unsigned long long)h.before,
			    (unsigned long long)h.during,
			    (unsigned long long)h.after);
	ktap_result(diffs == 0,
		    "its registers are restored after the session (%d differ)",
		    diffs);
}

int main(int argc, char **argv)
{
	struct pmu_test pt;

	ktap_plan(13);
	pmu_test_init(&pt, argc, argv);
	test_no_pmu();
	test_held_counters(&pt);
	test_second_session(&pt);
	test_pti(&pt);
	test_placement_errors(&pt);
	test_msrs_restored(&pt);
	test_throttling(&pt);
	test_hotplug(&pt);
	return ktap_finish();
}
