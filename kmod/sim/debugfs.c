// SPDX-License-Identifier: GPL-2.0
/*
 * Test hooks of the simulated PMU under /sys/kernel/debug/skidless-sim/:
 *
 *   held_counters  bitmask of GP counters someone else has reserved (the
 *                  way perf or the NMI watchdog would): sessions needing
 *                  them get EBUSY
 *   pti            1: behave as if kernel page-table isolation were on
 *   tfa            1: TSX force-abort present on the models that may have
 *                  it (CPUID.7.EDX[13], MSR 0x10F), as after the 2019
 *                  microcode: PMC3 belongs to TSX unless 0x10F[0] is set
 *   vmx            1: VMX is on: a guest could be entered
 *   lbr_filters, lbr_info_fields
 *                  masks on the architectural LBR's CPUID.1CH:EBX (CPL,
 *                  branch-type, call-stack filtering) and ECX (mispredict,
 *                  cycles, type fields); 0x7 each by default
 *   overflow_at_off
 *                  1: a GLOBAL_CTRL write turning off a counter that
 *                  interrupts makes it overflow first, its PMI taken
 *                  before the write lands (sim.h)
 *   foreign_ctrl, foreign_fixed, foreign_debugctl
 *                  bits of GLOBAL_CTRL, FIXED_CTR_CTRL and DEBUGCTL
 *                  another PMU owner holds: a write changing them is a
 *                  violation (set the bits themselves with cpuN/msrs)
 *   violations     the rules the driver broke, one per line; write
 *                  anything to clear (violations.c)
 *   violations_count  how many since the last clear
 *   cpuN/msrs      the CPU's registers, "0xMSR 0xVALUE" per line; writing
 *                  such a line sets one (as firmware or another owner
 *                  would, without the write rules), so tests can check a
 *                  session restores it
 *   cpuN/stats     the model's counters: ticks, records, PMIs, ...
 *
 * Debugfs only: none of this is ABI, and it needs root.
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <linux/uaccess.h>

#include "sim.h"

static struct dentry *sim_dir;

/* MSRs listed by cpuN/msrs, as far as the model has them. */
static const u32 listed_msrs[] = {
	SKD_MSR_EVENTSEL(0), SKD_MSR_EVENTSEL(1), SKD_MSR_EVENTSEL(2),
	SKD_MSR_EVENTSEL(3), SKD_MSR_EVENTSEL(4), SKD_MSR_EVENTSEL(5),
	SKD_MSR_EVENTSEL(6), SKD_MSR_EVENTSEL(7),
	SKD_MSR_PMC(0), SKD_MSR_PMC(1), SKD_MSR_PMC(2), SKD_MSR_PMC(3),
	SKD_MSR_PMC(4), SKD_MSR_PMC(5), SKD_MSR_PMC(6), SKD_MSR_PMC(7),
	SKD_MSR_FIXED_CTR(0), SKD_MSR_FIXED_CTR(1), SKD_MSR_FIXED_CTR(2),
	SKD_MSR_FIXED_CTR(3), MSR_CORE_PERF_FIXED_CTR_CTRL, MSR_CORE_PERF_GLOBAL_CTRL,
	MSR_CORE_PERF_GLOBAL_STATUS, MSR_IA32_PEBS_ENABLE, MSR_PEBS_DATA_CFG,
	MSR_PEBS_LD_LAT_THRESHOLD, MSR_PEBS_FRONTEND, SKD_MSR_OFFCORE_RSP(0),
	SKD_MSR_OFFCORE_RSP(1), MSR_IA32_DS_AREA, MSR_IA32_DEBUGCTLMSR,
	MSR_LBR_SELECT, MSR_LBR_TOS, MSR_ARCH_LBR_CTL,
	MSR_ARCH_LBR_DEPTH, MSR_TSX_FORCE_ABORT,
};

struct msr_op {
	const struct sim_model *m;
	u32 msr;
	u64 val;
	int ret;
	bool write;
};

static void msr_on_cpu(void *arg)
{
	struct msr_op *op = arg;

	op->ret = op->write ? sim_poke(op->msr, op->val) :
			      sim_peek(op->msr, &op->val);
}

static int msrs_show(struct seq_file *sf, void *unused)
{
	unsigned int cpu = (uintptr_t)sf->private;
	struct msr_op op = { .m = per_cpu_ptr(sim_cpus, cpu)->model };
	unsigned int i;

	if (!op.m) {
		seq_puts(sf, "# no model yet: run a sim session on this CPU\n");
		return 0;
	}
	seq_printf(sf, "# model %s\n", op.m->name);
	for (i = 0; i < ARRAY_SIZE(listed_msrs); i++) {
		op.msr = listed_msrs[i];
		if (smp_call_function_single(cpu, msr_on_cpu, &op, true) ||
		    op.ret)
			continue;
		seq_printf(sf, "0x%x 0x%llx\n", op.msr, op.val);
	}
	return 0;
}

static int msrs_open(struct inode *inode, struct file *file)
{
	return single_open(file, msrs_show, inode->i_private);
}

static ssize_t msrs_write(struct file *file, const char __user *ubuf,
			  size_t len, loff_t *ppos)
{
	unsigned int cpu = (uintptr_t)file_inode(file)->i_private;
	struct msr_op op = { .write = true };
	char buf[64];

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%x %llx", &op.msr, &op.val) != 2)
		return -EINVAL;
	op.m = per_cpu_ptr(sim_cpus, cpu)->model;
	if (!op.m)
		return -ENODEV;
	if (smp_call_function_single(cpu, msr_on_cpu, &op, true))
		return -ENXIO;
	return op.ret ? op.ret : len;
}

static const struct file_operations msrs_fops = {
	.owner		= THIS_MODULE,
	.open		= msrs_open,
	.read		= seq_read,
	.write		= msrs_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int stats_show(struct seq_file *sf, void *unused)
{
	unsigned int cpu = (uintptr_t)sf->private;
	const struct sim_stats *st = &per_cpu_ptr(sim_cpus, cpu)->stats;

	seq_printf(sf, "ticks %llu\noverflows %llu\nrecords %llu\n"
		   "records_dropped %llu\npmis %llu\npmis_late %llu\n"
		   "pmis_masked %llu\nevents_skipped %llu\nresets %llu\n"
		   "lbr_ticks %llu\nlbr_frozen_ticks %llu\nuncounted %llu\n",
		   st->ticks, st->overflows, st->records, st->records_dropped,
		   st->pmis, st->pmis_late, st->pmis_masked, st->events_skipped,
		   st->resets, st->lbr_ticks, st->lbr_frozen_ticks,
		   st->uncounted);
	return 0;
}

static int stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, stats_show, inode->i_private);
}

static const struct file_operations stats_fops = {
	.owner		= THIS_MODULE,
	.open		= stats_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int violations_show(struct seq_file *sf, void *unused)
{
	sim_violations_show(sf);
	return 0;
}

static int violations_open(struct inode *inode, struct file *file)
{
	return single_open(file, violations_show, NULL);
}

static ssize_t violations_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	sim_violations_clear();
	return len;
}

static const struct file_operations violations_fops = {
	.owner		= THIS_MODULE,
	.open		= violations_open,
	.read		= seq_read,
	.write		= violations_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int violations_count_get(void *data, u64 *val)
{
	*val = sim_violations_count();
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(violations_count_fops, violations_count_get, NULL,
			 "%llu\n");

int sim_debugfs_init(void)
{
	struct dentry *cpu_dir;
	unsigned int cpu;
	char name[16];

	sim_dir = debugfs_create_dir("skidless-sim", NULL);
	debugfs_create_x32("held_counters", 0600, sim_dir,
			   &sim_held_counters);
	debugfs_create_bool("pti", 0600, sim_dir, &sim_pti);
	debugfs_create_bool("tfa", 0600, sim_dir, &sim_tfa);
	debugfs_create_bool("vmx", 0600, sim_dir, &sim_vmx);
	debugfs_create_x32("lbr_filters", 0600, sim_dir, &sim_lbr_filters);
	debugfs_create_x32("lbr_info_fields", 0600, sim_dir,
			   &sim_lbr_info_fields);
	debugfs_create_bool("overflow_at_off", 0600, sim_dir,
			    &sim_overflow_at_off);
	debugfs_create_x64("foreign_ctrl", 0600, sim_dir, &sim_foreign_ctrl);
	debugfs_create_x64("foreign_fixed", 0600, sim_dir, &sim_foreign_fixed);
	debugfs_create_x64("foreign_debugctl", 0600, sim_dir,
			   &sim_foreign_debugctl);
	debugfs_create_file("violations", 0600, sim_dir, NULL,
			    &violations_fops);
	debugfs_create_file_unsafe("violations_count", 0400, sim_dir, NULL,
				   &violations_count_fops);
	for_each_possible_cpu(cpu) {
		snprintf(name, sizeof(name), "cpu%u", cpu);
		cpu_dir = debugfs_create_dir(name, sim_dir);
		debugfs_create_file("msrs", 0600, cpu_dir,
				    (void *)(uintptr_t)cpu, &msrs_fops);
		debugfs_create_file("stats", 0400, cpu_dir,
				    (void *)(uintptr_t)cpu, &stats_fops);
	}
	return 0;
}

void sim_debugfs_uninit(void)
{
	debugfs_remove_recursive(sim_dir);
}
