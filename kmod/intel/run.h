/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A PMU session at run time: what each CPU of it holds (DS area and PEBS
 * buffer, the registers it found there, throttling and task state), and
 * the pieces that run in the PMI, in context switches and in hotplug.
 *
 * Who touches a CPU's struct skd_pmu_cpu, and how it stays consistent:
 *
 *   start/stop (program.c)	on the CPU, IRQs off: IPI, hotplug thread,
 *				syscore. Only they change ->running and the
 *				per-CPU owner pointer, and they program or
 *				restore the registers.
 *   the PMI (pmi.c)		NMI on the CPU; may interrupt any of the
 *				others. Samples only while ->running; while
 *				the CPU is the owner it always acknowledges
 *				our status bits, so no PMI of ours goes
 *				unclaimed, even during stop.
 *   sched_switch (task.c)	on the CPU, IRQs off, runqueue lock held:
 *				->task_in, drains, LBR on/off.
 *   unthrottle timer, irq_work	on the CPU, hard IRQ: ->throttled.
 *
 * Everything runs on the CPU the state belongs to, so the only concurrency
 * is the NMI landing in the middle of the others. Three rules make that
 * safe: (1) stop clears ->running before it turns our counters off, so a
 * PMI in between never turns them back on; (2) a drain outside the PMI
 * sets ->in_drain, and the PMI leaves the buffer to it (the PMU is off
 * then, nothing is lost); (3) GLOBAL_CTRL is recomputed from the flags
 * by skd_pmu_set_ctrl(), whose read-modify-write a PMI may interrupt; the
 * PMI's own writes (pmi.c) and stop's restore (program.c) only ever turn
 * our counters on while they were off, so the last writer is still
 * right. Teardown order: stop on every CPU (registers
 * restored, owner NULL), then the PMI handler goes (skd_pmi_put()), then
 * the memory (skd_ds_free()).
 */
#ifndef _SKD_INTEL_RUN_H
#define _SKD_INTEL_RUN_H

#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/percpu.h>
#include <asm/tsc.h>

#include "memlock.h"
#include "plan.h"
#include "pmu.h"

struct skd_session;
struct pt_regs;

#define SKD_SAVED_MSRS_MAX	48

struct skd_saved_msr {
	u32 msr;
	u64 val;
	u64 mask;		/* the bits that are ours; ~0: all */
};

struct skd_pmu_session;

/* One CPU of a PMU session. */
struct skd_pmu_cpu {
	struct skd_pmu_session *ps;
	unsigned int cpu;
	u64 *ds;			/* DS management area */
	void *pebs_buf;
	bool running;			/* our registers are programmed here */
	bool task_in;			/* per-task: the target runs here */
	bool throttled;
	bool counting;			/* GLOBAL_CTRL has ours on */
	u64 counting_since;		/* when they went on */
	u64 counted_ns;			/* on-time before that */

	struct skd_saved_msr saved[SKD_SAVED_MSRS_MAX];
	unsigned int nr_saved;

	/* Throttling: samples in the current window. */
	u64 window_start;
	u32 window_samples;
	u64 throttle_ns;			/* how long the pause lasts */
	struct irq_work unthrottle_work;	/* NMI -> IRQ: arm the timer */
	struct hrtimer unthrottle_timer;

	/* Frequency mode: current period per event and recent samples. */
	u64 period[SKD_MAX_EVENTS + 1];
	u64 freq_since_ns[SKD_MAX_EVENTS + 1];	/* counted_ns at last step */
	u32 freq_samples[SKD_MAX_EVENTS + 1];

	/* LBR read from the MSRs at the PMI (not adaptive records). */
	struct skd_branch_entry lbr[SKD_MAX_LBR];
	u32 nr_lbr;
	/* LBRs decoded from a record; too big for the NMI stack. */
	struct skd_branch_entry rec_lbr[SKD_MAX_LBR];
	/* A drain outside the PMI runs: the PMI must not drain under it. */
	bool in_drain;
	/* This CPU's PMU, read at start (too big for the stack there). */
	struct skd_pmu_caps here;
};

struct skd_pmu_session {
	struct skd_session *s;
	const struct skd_pmu_ops *ops;
	struct skd_pmu_caps caps;
	struct skd_pmu_plan plan;
	u16 misc;			/* SKD_MISC_MODELED for the sim */
	bool per_task;			/* SKD_CFG_PID: count only the target */
	bool claimed;			/* counters and CPUs are ours */
	bool switch_probe;		/* holds the sched_switch probe */
	bool tsc_time;			/* records' TSC gives their time */
	bool sim;			/* holds the sim provider's module */
	struct skd_memlock mem;		/* what the DS areas pin */
	/* What every sample of an event carries: skd_pmu_drain_setup(). */
	u16 ev_misc[SKD_MAX_EVENTS + 1];
	u32 mem_flags;			/* skd_sample_mem.flags */
	struct skd_pmu_cpu __percpu *cpus;
};

/* The PMU session that owns a CPU's PMU, or NULL. NMI-safe to read. */
DECLARE_PER_CPU(struct skd_pmu_cpu *, skd_pmu_owner);

/*
 * backend.c: the capabilities of @cpu as @ops sees them (hw: detected at
 * load or online; sim: asked on that CPU). Process context. -ENXIO: @cpu
 * is offline and a model cannot be asked.
 */
int skd_pmu_caps_of(const struct skd_pmu_ops *ops, unsigned int cpu,
		    struct skd_pmu_caps *caps);
/* program.c: a CPU starts or stops sampling for its session. */
void skd_pmu_cpu_start(struct skd_pmu_cpu *pc);
void skd_pmu_cpu_stop(struct skd_pmu_cpu *pc);
/* The MSR of counter @idx (SKD_IDX_*), written full width if possible. */
u32 skd_pmu_counter_msr(const struct skd_pmu_plan *p, u32 idx);

/* pmi.c: the NMI handler, registered while any PMU session runs. */
int skd_pmi_get(void);
void skd_pmi_put(void);
/* IA32_PERF_GLOBAL_CTRL as this CPU's state wants it. IRQs off or NMI. */
void skd_pmu_set_ctrl(struct skd_pmu_cpu *pc);
/* Acknowledge our bits of GLOBAL_STATUS; true if there were any. */
bool skd_pmu_ack(struct skd_pmu_cpu *pc);
void skd_pmu_throttle_init(struct skd_pmu_cpu *pc);
void skd_pmu_throttle_stop(struct skd_pmu_cpu *pc);
void skd_pmu_throttle_fini(struct skd_pmu_cpu *pc);
u32 skd_pmu_max_sample_rate(void);
/* Root's SKD_CMD_SET_SETTINGS, range already checked. */
void skd_pmu_set_max_sample_rate(u32 rate);

/* The u64 of the DS management area at byte offset @off (SKD_DS_*). */
#define SKD_DS_U64(off)		((off) / sizeof(u64))

/* ds.c: the DS save area and PEBS buffer of one CPU. */
int skd_ds_alloc(struct skd_pmu_cpu *pc, unsigned int cpu);
void skd_ds_free(struct skd_pmu_cpu *pc);
void skd_ds_program(struct skd_pmu_cpu *pc);

/*
 * PEBS records' TSC as a clock (hw.c): format 3 or later, and a TSC that
 * ticks at tsc_khz whatever the C-state or frequency.
 */
bool skd_tsc_time_usable(const struct skd_pmu_caps *caps);

static inline u64 skd_rdtsc(void)
{
	return rdtsc();
}

static inline u32 skd_tsc_khz(void)
{
	return tsc_khz;
}

/*
 * drain.c: turn the records in the buffer into samples; empty it. @regs:
 * the PMI's interrupted context (call chains, and the LBR just read
 * belongs to the records); NULL outside the PMI.
 */
void skd_ds_drain(struct skd_pmu_cpu *pc, struct pt_regs *regs);
/* The per-event sample bits the drain copies out; after the plan. */
void skd_pmu_drain_setup(struct skd_pmu_session *ps);
/* Emit one sample for counter-overflow data. */
void skd_pmu_emit(struct skd_pmu_cpu *pc, unsigned int ev, u64 ip,
		  bool exact, struct pt_regs *regs,
		  const struct skd_sample_mem *mem,
		  const struct skd_branch_entry *br, u32 nr_br);

/* lbr_regs.c: the LBR MSRs of this CPU. */
void skd_lbr_read(struct skd_pmu_cpu *pc);
void skd_lbr_reset(struct skd_pmu_session *ps);
void skd_lbr_enable(struct skd_pmu_session *ps, bool on);

#endif /* _SKD_INTEL_RUN_H */
