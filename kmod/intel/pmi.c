// SPDX-License-Identifier: GPL-2.0
/*
 * The PMI: an NMI handler registered first in the NMI_LOCAL chain while any
 * PMU session runs. It looks only at this CPU's owner session, claims the
 * NMI only when GLOBAL_STATUS has bits of ours, acknowledges only those
 * (perf's handler may own the others), drains the PEBS buffer, samples
 * counters that overflowed without PEBS, and re-arms LVTPC. It never
 * allocates, locks or sleeps; wakeups go through the rings' irq_work.
 *
 * Flow (as intel_pmu_handle_irq(), arch/x86/events/intel/core.c): our
 * counters off, read status, read the LBRs (frozen), acknowledge, drain,
 * re-arm overflowed counters, throttle if this CPU takes more samples than
 * allowed, counters back on, unmask LVTPC.
 */
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <asm/nmi.h>

#include "compat.h"
#include "record.h"
#include "run.h"
#include "session.h"

/* Read in the PMI: root may change it while sessions run, as perf's sysctl. */
static unsigned int max_sample_rate = 100000;

static int set_max_sample_rate(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, 10000000);
}

static const struct kernel_param_ops max_sample_rate_ops = {
	.set = set_max_sample_rate,
	.get = param_get_uint,
};

module_param_cb(max_sample_rate, &max_sample_rate_ops, &max_sample_rate, 0644);
MODULE_PARM_DESC(max_sample_rate, "PMU samples per second per CPU before sampling is throttled, 1..10000000 (default 100000)");

#define THROTTLE_WINDOW_NS	(10 * NSEC_PER_MSEC)
#define FREQ_ADJUST_NS		(20 * NSEC_PER_MSEC)
#define MAX_PMI_LOOPS		8

static DEFINE_MUTEX(pmi_lock);
static unsigned int pmi_users;

u32 skd_pmu_max_sample_rate(void)
{
	return READ_ONCE(max_sample_rate);
}

void skd_pmu_set_max_sample_rate(u32 rate)
{
	WRITE_ONCE(max_sample_rate, rate);
}

/* Our counters on or off in GLOBAL_CTRL; another owner's keep their state. */
static void write_ctrl(struct skd_pmu_cpu *pc, bool on)
{
	const struct skd_pmu_session *ps = pc->ps;
	u64 ctrl = 0;

	if (ps->ops->read_msr(MSR_CORE_PERF_GLOBAL_CTRL, &ctrl))
		return;
	ctrl &= ~ps->plan.global_ctrl;
	if (on)
		ctrl |= ps->plan.global_ctrl;
	ps->ops->write_msr(MSR_CORE_PERF_GLOBAL_CTRL, ctrl);
}

/*
 * GLOBAL_STATUS bits of ours: our counters, the PEBS threshold, and the
 * LBR-frozen bit when we freeze it. With perfmon v4 and later a PMI with
 * DEBUGCTL.FREEZE_LBRS_ON_PMI sets bit 58 and the LBRs stay frozen until
 * it is written to GLOBAL_STATUS_RESET (SDM 18.2.4.1 and 18.4.7; lbr.c:
 * "v4 can do that as part of the GLOBAL_STATUS ack").
 */
static u64 our_status(const struct skd_pmu_session *ps)
{
	u64 mine = ps->plan.global_ctrl | GLOBAL_STATUS_BUFFER_OVF;

	if (ps->plan.debugctl & DEBUGCTLMSR_FREEZE_LBRS_ON_PMI)
		mine |= GLOBAL_STATUS_LBRS_FROZEN;
	return mine;
}

bool skd_pmu_ack(struct skd_pmu_cpu *pc)
{
	const struct skd_pmu_session *ps = pc->ps;
	u64 status;

	if (ps->ops->read_msr(MSR_CORE_PERF_GLOBAL_STATUS, &status))
		return false;
	status &= our_status(ps);
	if (status)
		ps->ops->write_msr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, status);
	return status & ~GLOBAL_STATUS_LBRS_FROZEN;
}

/* How long our counters have counted on this CPU since it started. */
static u64 counted_ns(const struct skd_pmu_cpu *pc, u64 now)
{
	return pc->counted_ns + (pc->counting ? now - pc->counting_since : 0);
}

void skd_pmu_set_ctrl(struct skd_pmu_cpu *pc)
{
	bool on = pc->running && pc->task_in && !pc->throttled;
	u64 now = ktime_get_mono_fast_ns();

	if (on && !pc->counting)
		pc->counting_since = now;
	else if (!on && pc->counting)
		pc->counted_ns += now - pc->counting_since;
	pc->counting = on;
	write_ctrl(pc, on);
}

/* Rearm the counter of event @ev for its current period. */
static void rearm(struct skd_pmu_cpu *pc, unsigned int ev)
{
	const struct skd_planned_event *e = &pc->ps->plan.ev[ev];
	u32 width = SKD_IDX_IS_FIXED(e->idx) ? pc->ps->caps.fixed_width :
					       pc->ps->caps.gp_width;
	u64 reset = skd_counter_reset(pc->period[ev], width);
	u32 msr;

	msr = skd_pmu_counter_msr(&pc->ps->plan, e->idx);
	pc->ps->ops->write_msr(msr, reset);
}

/*
 * Frequency mode: every so often, scale the period by how far the
 * observed rate is from the wanted one (at most 8x per step). Time is
 * counting time: a per-task session's target off the CPU, or a throttled
 * CPU, takes no samples and must not look like one sampling too slowly.
 */
static void adjust_period(struct skd_pmu_cpu *pc, unsigned int ev, u64 now)
{
	const struct skd_planned_event *e = &pc->ps->plan.ev[ev];
	u64 counted = counted_ns(pc, now), period = pc->period[ev];
	u64 elapsed = counted - pc->freq_since_ns[ev];
	u64 want, got, max_period;

	if (!e->freq || elapsed < FREQ_ADJUST_NS)
		return;
	want = mul_u64_u64_div_u64(e->freq, elapsed, NSEC_PER_SEC);
	got = pc->freq_samples[ev];
	if (want && got) {
		period = div64_u64(period * got, want);
		period = clamp(period, pc->period[ev] / 8, pc->period[ev] * 8);
	} else if (!got) {
		period = pc->period[ev] / 8;
	}
	max_period = e->max_period;
	pc->period[ev] = clamp_t(u64, period, 2, max_period);
	pc->freq_since_ns[ev] = counted;
	pc->freq_samples[ev] = 0;
}

static void throttle_record(struct skd_pmu_cpu *pc, u32 type)
{
	struct skd_rec_throttle *rec;

	rec = skd_record_begin(pc->ps->s, type, 0, sizeof(*rec), NULL, 0);
	if (rec)
		rec->limit = READ_ONCE(max_sample_rate);
	skd_record_end(pc->ps->s, rec);
}

/*
 * Too many samples for the time they took: stop until the average is back
 * at the limit. The window is at least THROTTLE_WINDOW_NS, but a drain
 * can bring hundreds of large-PEBS records at once, so the pause is as
 * long as the window's samples should have taken, not a fixed slot.
 */
static void maybe_throttle(struct skd_pmu_cpu *pc, u64 now)
{
	u64 rate = READ_ONCE(max_sample_rate);
	u64 elapsed = now - pc->window_start;
	u64 due = div64_u64((u64)pc->window_samples * NSEC_PER_SEC, rate);

	if (pc->throttled)
		return;
	if (due <= max_t(u64, elapsed, THROTTLE_WINDOW_NS)) {
		if (elapsed >= THROTTLE_WINDOW_NS) {
			pc->window_start = now;
			pc->window_samples = 0;
		}
		return;
	}
	pc->throttled = true;
	pc->throttle_ns = due - elapsed;
	skd_session_count_throttle(pc->ps->s);
	throttle_record(pc, SKD_REC_THROTTLE);
	/* hrtimers cannot be armed from NMI context: bounce through IRQ. */
	irq_work_queue(&pc->unthrottle_work);
}

static enum hrtimer_restart unthrottle(struct hrtimer *t)
{
	struct skd_pmu_cpu *pc = container_of(t, struct skd_pmu_cpu,
					      unthrottle_timer);

	if (pc->throttled && this_cpu_read(skd_pmu_owner) == pc) {
		pc->throttled = false;
		pc->window_start = ktime_get_mono_fast_ns();
		pc->window_samples = 0;
		throttle_record(pc, SKD_REC_UNTHROTTLE);
		skd_pmu_set_ctrl(pc);
	}
	return HRTIMER_NORESTART;
}

static void arm_unthrottle(struct irq_work *w)
{
	struct skd_pmu_cpu *pc = container_of(w, struct skd_pmu_cpu,
					      unthrottle_work);

	/* The CPU may have stopped between the PMI and this IRQ. */
	if (this_cpu_read(skd_pmu_owner) != pc)
		return;
	hrtimer_start(&pc->unthrottle_timer, ns_to_ktime(pc->throttle_ns),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

void skd_pmu_throttle_init(struct skd_pmu_cpu *pc)
{
	init_irq_work(&pc->unthrottle_work, arm_unthrottle);
	skd_hrtimer_setup(&pc->unthrottle_timer, unthrottle, CLOCK_MONOTONIC,
			  HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * On the CPU with IRQs off, no longer the owner: the pinned timer cannot
 * be running, and a queued irq_work finds it is not the owner any more.
 */
void skd_pmu_throttle_stop(struct skd_pmu_cpu *pc)
{
	hrtimer_cancel(&pc->unthrottle_timer);
	pc->throttled = false;
}

/* Before @pc is freed; process context, any CPU. */
void skd_pmu_throttle_fini(struct skd_pmu_cpu *pc)
{
	irq_work_sync(&pc->unthrottle_work);
	hrtimer_cancel(&pc->unthrottle_timer);
}

/* PEBS counters without auto-reload (frequency mode) start over by hand. */
static void rearm_unreloaded(struct skd_pmu_cpu *pc)
{
	const struct skd_pmu_plan *p = &pc->ps->plan;
	unsigned int i;

	for (i = 0; i < p->nr; i++)
		if ((p->ev[i].flags & SKD_PLAN_PEBS) && p->ev[i].freq)
			rearm(pc, i);
}

/* Counters that overflowed without PEBS: sample where the PMI landed. */
static void sample_overflows(struct skd_pmu_cpu *pc, u64 status,
			     struct pt_regs *regs)
{
	const struct skd_pmu_plan *p = &pc->ps->plan;
	unsigned int i;
	u32 bit;

	for (i = 0; i < p->nr; i++) {
		const struct skd_planned_event *e = &p->ev[i];

		bit = SKD_IDX_IS_FIXED(e->idx) ?
			32 + e->idx - SKD_IDX_FIXED(0) : e->idx;
		if (!(status & BIT_ULL(bit)) || (e->flags & SKD_PLAN_PEBS))
			continue;
		/* The load-latency helper only counts: it starts over. */
		if (!(e->flags & SKD_PLAN_AUX))
			skd_pmu_emit(pc, i, instruction_pointer(regs), false,
				     regs, NULL, p->lbr_nr ? pc->lbr : NULL,
				     pc->nr_lbr);
		rearm(pc, i);
	}
}

static int skd_pmi(unsigned int type, struct pt_regs *nmi_regs)
{
	struct skd_pmu_cpu *pc = this_cpu_read(skd_pmu_owner);
	const struct skd_pmu_session *ps;
	const struct skd_pmu_ops *ops;
	struct pt_regs *regs;
	u64 status, mine, now;
	unsigned int loops, i;

	if (!pc)
		return NMI_DONE;
	ps = pc->ps;
	ops = ps->ops;
	mine = our_status(ps);
	if (ops->read_msr(MSR_CORE_PERF_GLOBAL_STATUS, &status) ||
	    !(status & mine & ~GLOBAL_STATUS_LBRS_FROZEN))
		return NMI_DONE;
	/* Starting or stopping: ours, but nothing to sample (run.h). */
	if (!pc->running) {
		skd_pmu_ack(pc);
		ops->pmi_rearm();
		return NMI_HANDLED;
	}

	regs = ops->pmi_regs(nmi_regs);
	now = ktime_get_mono_fast_ns();
	write_ctrl(pc, false);		/* ours stand still while we work */
	for (loops = 0; loops < MAX_PMI_LOOPS && (status & mine); loops++) {
		/* The LBRs first: the acknowledgment unfreezes them. */
		if (ps->plan.lbr_nr && !ps->plan.lbr_from_record)
			skd_lbr_read(pc);
		ops->write_msr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, status & mine);
		if (status & (GLOBAL_STATUS_BUFFER_OVF | ps->plan.pebs_counters)) {
			skd_ds_drain(pc, regs);
			rearm_unreloaded(pc);
		}
		sample_overflows(pc, status, regs);
		if (ops->read_msr(MSR_CORE_PERF_GLOBAL_STATUS, &status))
			break;
	}
	for (i = 0; i < ps->plan.nr; i++)
		adjust_period(pc, i, now);
	maybe_throttle(pc, now);
	skd_pmu_set_ctrl(pc);
	ops->pmi_rearm();
	return NMI_HANDLED;
}

int skd_pmi_get(void)
{
	int ret = 0;

	mutex_lock(&pmi_lock);
	if (!pmi_users)
		ret = register_nmi_handler(NMI_LOCAL, skd_pmi, NMI_FLAG_FIRST,
					   "skidless");
	if (!ret)
		pmi_users++;
	mutex_unlock(&pmi_lock);
	return ret;
}

void skd_pmi_put(void)
{
	mutex_lock(&pmi_lock);
	/* Every CPU stopped first: no PMI of ours can be on its way. */
	if (!--pmi_users)
		unregister_nmi_handler(NMI_LOCAL, "skidless");
	mutex_unlock(&pmi_lock);
}
