// SPDX-License-Identifier: GPL-2.0
/*
 * The log of rules the driver broke, read by the tests through debugfs
 * (violations: one line per entry; violations_count: how many ever since
 * the last clear). Entries are written from any context the model runs in,
 * NMI included: each CPU has its own ring, a slot is claimed with a local
 * atomic increment, and an entry counts as written once its sequence
 * number is stored. Readers take what they see; a test reads after the
 * fact, when nothing is being written.
 */
#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

#include "sim.h"

#define SIM_LOG_SLOTS	32	/* per CPU; the count goes on beyond it */

struct sim_entry {
	u64 seq;		/* 0: never written */
	u32 rule;
	u32 msr;
	u64 val;
	u64 extra;
	char model[16];
};

struct sim_log {
	atomic64_t next;
	struct sim_entry e[SIM_LOG_SLOTS];
};

static struct sim_log __percpu *sim_logs;
static atomic64_t sim_total = ATOMIC64_INIT(0);

static const char *const rule_names[__SIM_V_NR] = {
	[SIM_V_RESERVED]	= "write sets reserved bits (#GP)",
	[SIM_V_NO_MSR]		= "MSR the core does not have (#GP)",
	[SIM_V_COUNTER]		= "event on a counter Intel's list does not name: counts nothing",
	[SIM_V_PEBS]		= "PEBS where Intel's list gives the event none: no record",
	[SIM_V_FOREIGN]		= "changed bits another PMU owner holds",
	[SIM_V_TFA]		= "PMC3 used while TSX force-abort is off",
	[SIM_V_LDLAT_AUX]	= "load latency without event 0x03/0x82 beside it: no record",
	[SIM_V_TAKEN_ALONE]	= "TakenAlone event beside another GP event",
	[SIM_V_VMX]		= "PEBS armed while VMX is on",
	[SIM_V_DS]		= "DS area or PEBS buffer the CPU cannot write",
	[SIM_V_LBR_FILTER]	= "LBR filter changed while the LBR records",
	[SIM_V_EXTRA_MSR]	= "event's extra MSR (ldlat/frontend/offcore) left at 0",
};

void sim_violation(struct sim_cpu *sc, enum sim_rule rule, u32 msr,
		   u64 val, u64 extra)
{
	struct sim_log *log = this_cpu_ptr(sim_logs);
	u64 seq = atomic64_inc_return(&log->next);
	struct sim_entry *e = &log->e[(seq - 1) % SIM_LOG_SLOTS];

	/* A reused slot: no reader may pair the old number with new fields. */
	WRITE_ONCE(e->seq, 0);
	smp_wmb();		/* the cleared number before the new fields */
	e->rule = rule;
	e->msr = msr;
	e->val = val;
	e->extra = extra;
	strscpy(e->model, sc && sc->model ? sc->model->name : "?",
		sizeof(e->model));
	smp_wmb();		/* the entry before its sequence number */
	WRITE_ONCE(e->seq, atomic64_inc_return(&sim_total));
}

u64 sim_violations_count(void)
{
	return atomic64_read(&sim_total);
}

void sim_violations_show(struct seq_file *sf)
{
	unsigned int cpu, i;

	for_each_possible_cpu(cpu) {
		const struct sim_log *log = per_cpu_ptr(sim_logs, cpu);

		for (i = 0; i < SIM_LOG_SLOTS; i++) {
			const struct sim_entry *e = &log->e[i];
			u64 seq = READ_ONCE(e->seq);

			if (!seq)
				continue;
			smp_rmb();	/* the sequence number, then the entry */
			seq_printf(sf, "%llu cpu%u %s: %s: msr 0x%x value 0x%llx (0x%llx)\n",
				   seq, cpu, e->model,
				   e->rule < __SIM_V_NR ? rule_names[e->rule] : "?",
				   e->msr, e->val, e->extra);
		}
	}
}

void sim_violations_clear(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct sim_log *log = per_cpu_ptr(sim_logs, cpu);

		memset(log->e, 0, sizeof(log->e));
		atomic64_set(&log->next, 0);
	}
	atomic64_set(&sim_total, 0);
}

int sim_violations_init(void)
{
	sim_logs = alloc_percpu(struct sim_log);
	return sim_logs ? 0 : -ENOMEM;
}

void sim_violations_uninit(void)
{
	free_percpu(sim_logs);
}
