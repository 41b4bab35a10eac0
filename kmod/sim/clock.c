// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated CPU's clock: a pinned hard-IRQ hrtimer that, every tick,
 * adds to each enabled counter the events the model says the interrupted
 * context produced meanwhile, and handles overflows as the hardware does.
 *
 * The model: a 2 GHz core retiring one instruction per cycle whenever it
 * is not idle (the idle task counts nothing: cycles are unhalted cycles),
 * with fixed per-event rates below. Counts follow the privilege level of
 * the interrupted context, the counter's USR/OS bits and GLOBAL_CTRL.
 *
 * A PMI is raised as a real NMI on this CPU, and the tick waits for it to
 * be taken, so the handler samples the context the tick interrupted while
 * that context's stack is still there. Raising it freezes what DEBUGCTL
 * asks to freeze, as perfmon v4 does (SDM 18.2.4.1): the LBR with
 * FREEZE_LBRS_ON_PMI (GLOBAL_STATUS bit 58), the counters with
 * FREEZE_PERFMON_ON_PMI (bit 59), until the handler writes those bits to
 * GLOBAL_STATUS_RESET.
 *
 * An event counts only where Intel's list says it can (rules.c); a counter
 * that cannot count it stays where it is.
 */
#include <linux/hardirq.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <asm/apic.h>
#include <asm/irq_regs.h>
#include <asm/nmi.h>

#include "compat.h"
#include "sim.h"

static unsigned int sim_tick_us = 250;
module_param(sim_tick_us, uint, 0444);
MODULE_PARM_DESC(sim_tick_us, "Simulated PMU clock tick, microseconds (default 250)");

#define MAX_OVERFLOWS_PER_TICK	64
/*
 * A tick takes at most this many PMIs; the rest of its events are left
 * uncounted (events_skipped), as if the CPU had spent that time in the
 * handler. Under TCG an NMI round trip costs tens of microseconds, and a
 * tick that outlasts its period would keep the CPU in hard IRQ.
 */
#define MAX_PMIS_PER_TICK	8
#define PMI_WAIT_NS		(2 * NSEC_PER_MSEC)

/* Events per microsecond of busy time, by event code and umask. */
static u64 rate_per_us(u32 config)
{
	u32 event = config & 0xff, umask = (config >> 8) & 0xff;

	/* inv + cmask turns a retirement event into "every cycle". */
	if ((config & ARCH_PERFMON_EVENTSEL_INV) && (config & ARCH_PERFMON_EVENTSEL_CMASK))
		return 2000;
	switch (event) {
	case 0x00:			/* fixed-counter pseudo encodings */
	case 0x3c:			/* core cycles */
	case 0xc0:			/* instructions retired */
		return 2000;
	case 0xc2:			/* uops retired */
		return 2400;
	case 0xc4:			/* branches */
		return 400;
	case 0xc5:			/* mispredicted branches */
		return 20;
	case 0xd0:			/* loads (0x81) and stores (0x82) */
		return umask == 0x82 ? 300 : 600;
	case 0xd1:			/* L1/L2/L3 misses */
		return umask == 0x08 ? 60 : umask == 0x10 ? 20 : 5;
	case 0xcd:			/* loads above the latency threshold */
		return 50;
	default:
		return 1000;
	}
}

/* The event a fixed counter counts, in EVENTSEL encoding. */
static const u32 fixed_event[SKD_MAX_FIXED] = { 0x00c0, 0x003c, 0x0300, 0x0400 };

/* Deliver a PMI now and wait for the handler to acknowledge it. */
static void raise_pmi(struct sim_cpu *sc, struct pt_regs *regs)
{
	u64 deadline;

	if (!sc->lvt_armed) {
		sc->stats.pmis_masked++;
		return;
	}
	/* Freezing on PMI (SDM 18.2.4.1): reported in GLOBAL_STATUS. */
	if (sc->r.debugctl & DEBUGCTLMSR_FREEZE_LBRS_ON_PMI)
		sc->r.global_status |= GLOBAL_STATUS_LBRS_FROZEN;
	if (sc->r.debugctl & DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI)
		sc->r.global_status |= GLOBAL_STATUS_COUNTERS_FROZEN;
	sc->pmi_regs = *regs;
	WRITE_ONCE(sc->pmi_window, true);
	WRITE_ONCE(sc->pmi_pending, true);
	/* Delivery masks LVTPC; the handler unmasks it again. */
	sc->lvt_armed = false;
	sc->stats.pmis++;
	sc->tick_pmis++;
	apic->send_IPI(smp_processor_id(), NMI_VECTOR);
	/* Bounded by time, not spins: TCG's pause costs a lot. */
	deadline = ktime_get_mono_fast_ns() + PMI_WAIT_NS;
	while (READ_ONCE(sc->pmi_pending) &&
	       ktime_get_mono_fast_ns() < deadline)
		cpu_relax();
	WRITE_ONCE(sc->pmi_window, false);
	if (READ_ONCE(sc->pmi_pending))
		sc->stats.pmis_late++;
}

/*
 * The first general-purpose counter that counts, interrupts, and is about
 * to be turned off by GLOBAL_CTRL = @val overflows now: its status bit is
 * set and its PMI delivered before the write lands (sim_overflow_at_off).
 */
void sim_overflow_before_off(struct sim_cpu *sc, u64 val)
{
	struct sim_regs *r = &sc->r;
	struct pt_regs regs = {};
	unsigned int i;
	u64 sel;

	for (i = 0; i < sc->core->nr_gp; i++) {
		sel = r->evtsel[i];
		if (!(r->global_ctrl & ~val & BIT_ULL(i)) ||
		    !(sel & ARCH_PERFMON_EVENTSEL_ENABLE) ||
		    !(sel & ARCH_PERFMON_EVENTSEL_INT) ||
		    (r->pebs_enable & BIT_ULL(i)))
			continue;
		r->pmc[i] = 0;
		r->global_status |= BIT_ULL(i);
		sc->stats.overflows++;
		regs.ip = _RET_IP_;
		raise_pmi(sc, &regs);
		return;
	}
}

static bool counts_in_mode(const struct sim_cpu *sc, unsigned int idx,
			   bool user)
{
	const struct sim_regs *r = &sc->r;
	u32 j;

	if (!(r->global_ctrl & BIT_ULL(idx)) ||
	    (r->global_status & GLOBAL_STATUS_COUNTERS_FROZEN))
		return false;
	if (idx < 32)
		return (r->evtsel[idx] & ARCH_PERFMON_EVENTSEL_ENABLE) &&
		       (r->evtsel[idx] & (user ? ARCH_PERFMON_EVENTSEL_USR :
					       ARCH_PERFMON_EVENTSEL_OS));
	j = idx - 32;
	return r->fixed_ctrl & (user ? SKD_FIXED_USR(j) : SKD_FIXED_OS(j));
}

/*
 * Add @n events to counter @idx (GLOBAL_CTRL numbering). A PEBS counter
 * writes a record per overflow and reloads from its DS reset slot; any
 * other counter sets its status bit. A PMI is taken at the overflow that
 * asks for it, as on hardware, and the rest of @n counts afterwards with
 * what the handler left: counts batched into a tick must not overrun the
 * PEBS buffer's slack or merge several overflows into one sample. Once a
 * PMI is late or the tick has had its PMIs, the rest goes uncounted.
 */
static void count(struct sim_cpu *sc, unsigned int idx, u32 config, u64 n,
		  struct pt_regs *regs, bool user)
{
	struct sim_regs *r = &sc->r;
	bool fixed = idx >= 32;
	u64 *ctr = fixed ? &r->fixed[idx - 32] : &r->pmc[idx];
	u64 mask = (1ULL << sc->core->width) - 1, room, reset = 0;
	bool pebs = r->pebs_enable & BIT_ULL(idx);
	bool intr = fixed ? r->fixed_ctrl & SKD_FIXED_PMI(idx - 32) :
			    r->evtsel[idx] & ARCH_PERFMON_EVENTSEL_INT;
	unsigned int k;
	u64 signal;
	u32 slot;

	/* PEBS on fixed counters is an adaptive-PEBS (PEBS_ALL) feature. */
	if (fixed && !sc->core->baseline)
		pebs = false;
	if (!sim_counts_here(sc, idx, config)) {
		sc->stats.uncounted += n;
		return;
	}
	if (pebs && !sim_pebs_here(sc, idx, config))
		pebs = false;
	for (k = 0; n && k < MAX_OVERFLOWS_PER_TICK; k++) {
		room = mask - *ctr + 1;
		if (n < room) {
			*ctr += n;
			return;
		}
		if (READ_ONCE(sc->pmi_pending) ||
		    sc->tick_pmis >= MAX_PMIS_PER_TICK)
			break;
		n -= room;
		*ctr = 0;
		sc->stats.overflows++;
		if (pebs) {
			signal = sim_write_pebs(sc, idx, config, regs) ?
				 GLOBAL_STATUS_BUFFER_OVF : 0;
			slot = fixed ? (sc->core->pebs_fmt >= 5 ?
					SKD_DS_RESET_FIXED_FMT5 :
					SKD_DS_RESET_FIXED_FMT4) + idx - 32 :
				       idx;
			/* Auto-reload from pebs_event_reset[]; 0 means none. */
			if (!copy_from_kernel_nofault(&reset, (void *)(r->ds_area +
					SKD_DS_PEBS_RESET + 8 * slot),
					sizeof(reset)))
				*ctr = reset & mask;
		} else {
			signal = BIT_ULL(idx);
		}
		r->global_status |= signal;
		if (!signal || !(pebs || intr))
			continue;
		raise_pmi(sc, regs);
		/* The handler may have stopped it (throttling, say). */
		if (!counts_in_mode(sc, idx, user))
			return;
	}
	sc->stats.events_skipped += n;
}

static enum hrtimer_restart sim_tick(struct hrtimer *t)
{
	struct sim_cpu *sc = container_of(t, struct sim_cpu, tick);
	struct pt_regs *regs = get_irq_regs();
	u64 now = ktime_get_mono_fast_ns(), dt = now - sc->last_ns, n;
	unsigned int i;
	bool user;

	sc->last_ns = now;
	hrtimer_forward_now(t, ns_to_ktime((u64)sim_tick_us * NSEC_PER_USEC));
	/*
	 * A late tick means this vCPU was not running (the host took it
	 * away): it executed nothing then, so nothing counts for that time.
	 */
	dt = min_t(u64, dt, 2ULL * sim_tick_us * NSEC_PER_USEC);
	sc->stats.ticks++;
	if (!regs || READ_ONCE(sc->pmi_pending) || !sc->r.global_ctrl ||
	    is_idle_task(current))
		return HRTIMER_RESTART;

	user = user_mode(regs);
	sc->tick_pmis = 0;
	sim_check_setup(sc);
	if (sim_lbr_enabled(sc)) {
		sc->stats.lbr_ticks++;
		if (sim_lbr_frozen(sc))
			sc->stats.lbr_frozen_ticks++;
		else
			sim_fill_lbr(sc, regs);
	}
	for (i = 0; i < sc->core->nr_gp; i++) {
		if (!counts_in_mode(sc, i, user))
			continue;
		n = rate_per_us(sc->r.evtsel[i]) * dt / NSEC_PER_USEC;
		count(sc, i, sc->r.evtsel[i], n, regs, user);
	}
	for (i = 0; i < sc->core->nr_fixed; i++) {
		if (!counts_in_mode(sc, 32 + i, user))
			continue;
		n = rate_per_us(fixed_event[i]) * dt / NSEC_PER_USEC;
		count(sc, 32 + i, fixed_event[i], n, regs, user);
	}
	return HRTIMER_RESTART;
}

void sim_clock_attach(struct sim_cpu *sc)
{
	if (sc->attached)
		return;
	sc->attached = true;
	sc->last_ns = ktime_get_mono_fast_ns();
	skd_hrtimer_setup(&sc->tick, sim_tick, CLOCK_MONOTONIC,
			  HRTIMER_MODE_REL_PINNED_HARD);
	hrtimer_start(&sc->tick, ns_to_ktime((u64)sim_tick_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

void sim_clock_detach(struct sim_cpu *sc)
{
	if (!sc->attached)
		return;
	/* On this CPU with IRQs off: the tick cannot be running. */
	hrtimer_cancel(&sc->tick);
	sc->attached = false;
}
