// SPDX-License-Identifier: GPL-2.0
/*
 * What the simulated CPU writes: PEBS records in the layout of the model's
 * format (SDM Vol. 3B "PEBS Record Format" and "Adaptive PEBS" tables),
 * written here field by field and independently of the backend's decoder,
 * and the LBR filled from the interrupted context's call chain.
 *
 * The model's choices, all of them visible in the data: the eventing
 * instruction is the one the tick interrupted; memory events get a data
 * address on the interrupted stack, a data source and a latency made up
 * from the event (SKD_MEM_MODELED downstream); LBR entries are the open
 * calls of the interrupted context, each taken as a 5-byte near relative
 * call whose target is read from the instruction, so a filter that drops
 * calls leaves the LBR empty.
 */
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/mm.h>
#include <linux/uaccess.h>
#include <asm/msr.h>

#include "../callchain.h"
#include "pebs.h"
#include "sim.h"

#define CALL_LEN	5		/* e8 rel32 */
#define KERNEL_HALF	0xffff800000000000ULL
#define ARCH_TYPE_CALL	4ULL		/* near relative call */

/* Records are built in the CPU's scratch, then copied into the buffer. */
static void put(struct sim_cpu *sc, u64 v)
{
	memcpy(sc->rec + sc->rec_len, &v, sizeof(v));
	sc->rec_len += sizeof(v);
}

/* Data address, source and latency of a memory event, as modeled. */
static void modeled_mem(u32 config, const struct sim_cpu *sc,
			struct pt_regs *regs, u64 *addr, u64 *src, u64 *lat)
{
	u32 event = config & 0xff, umask = (config >> 8) & 0xff;

	*addr = (regs->sp & ~0x3fULL) - 64;	/* a slot of the live stack */
	*src = 0x1;				/* L1 hit */
	*lat = 4;
	if (event == 0xd1 && umask == 0x08) {
		*src = 0x3;			/* L2 hit */
		*lat = 14;
	} else if (event == 0xd1 && umask == 0x10) {
		*src = 0x4;			/* L3 hit */
		*lat = 45;
	} else if (event == 0xd1 && umask == 0x20) {
		*src = 0x8;			/* local memory */
		*lat = 220;
	} else if (event == 0xcd || (event == 0xd0 && umask == 0x05)) {
		*src = 0x4;
		*lat = (sc->r.ld_lat & 0xffff) + 17;
	} else if (event != 0xd0 && event != 0xd1) {
		*addr = 0;
		*src = 0;
		*lat = 0;
	}
	/*
	 * Golden Cove and Gracemont report two latencies (struct pebs_meminfo
	 * in Linux's asm/perf_event.h, "Alder Lake and later"): the
	 * instruction's in bits 15:0, the cache access's in 47:32. The model
	 * makes the instruction take 3 cycles more than its cache access.
	 */
	if (*lat && (sc->core->quirks & SIM_LAT_SPLIT))
		*lat = ((*lat + 3) & 0xffff) | (*lat & 0xffff) << 32;
}

/* fmt 1-3 order: flags ip ax bx cx dx si di bp sp r8..r15 */
static void put_legacy_gprs(struct sim_cpu *sc, struct pt_regs *regs)
{
	put(sc, regs->flags);
	put(sc, regs->ip);
	put(sc, regs->ax);
	put(sc, regs->bx);
	put(sc, regs->cx);
	put(sc, regs->dx);
	put(sc, regs->si);
	put(sc, regs->di);
	put(sc, regs->bp);
	put(sc, regs->sp);
	put(sc, regs->r8);
	put(sc, regs->r9);
	put(sc, regs->r10);
	put(sc, regs->r11);
	put(sc, regs->r12);
	put(sc, regs->r13);
	put(sc, regs->r14);
	put(sc, regs->r15);
}

/* Adaptive GPR group order: flags ip ax cx dx bx sp bp si di r8..r15 */
static void put_adaptive_gprs(struct sim_cpu *sc, struct pt_regs *regs)
{
	put(sc, regs->flags);
	put(sc, regs->ip);
	put(sc, regs->ax);
	put(sc, regs->cx);
	put(sc, regs->dx);
	put(sc, regs->bx);
	put(sc, regs->sp);
	put(sc, regs->bp);
	put(sc, regs->si);
	put(sc, regs->di);
	put(sc, regs->r8);
	put(sc, regs->r9);
	put(sc, regs->r10);
	put(sc, regs->r11);
	put(sc, regs->r12);
	put(sc, regs->r13);
	put(sc, regs->r14);
	put(sc, regs->r15);
}

static void build_fixed_format(struct sim_cpu *sc, unsigned int idx,
			       u32 config, struct pt_regs *regs)
{
	u32 fmt = sc->core->pebs_fmt;
	u64 addr, src, lat;

	modeled_mem(config, sc, regs, &addr, &src, &lat);
	put_legacy_gprs(sc, regs);
	put(sc, 1ULL << idx);		/* status: applicable counter */
	put(sc, addr);			/* dla */
	put(sc, src);			/* dse */
	put(sc, lat);			/* lat */
	if (fmt >= 2) {
		put(sc, regs->ip);	/* EventingIP */
		put(sc, 0);		/* tsx_tuning */
	}
	if (fmt >= 3)
		put(sc, rdtsc());
}

/* The LBR as it stands, newest first, as { from, to, info } triples. */
static void put_lbr_group(struct sim_cpu *sc, u32 nr)
{
	const struct sim_regs *r = &sc->r;
	u32 i, slot, depth = sc->core->lbr_nr;

	for (i = 0; i < nr; i++) {
		if (sc->core->arch_lbr)
			slot = i;
		else
			slot = (r->lbr_tos - i) & (depth - 1);
		put(sc, i < depth ? r->lbr_from[slot] : 0);
		put(sc, i < depth ? r->lbr_to[slot] : 0);
		put(sc, i < depth ? r->lbr_info[slot] : 0);
	}
}

static bool counter_adaptive(const struct sim_cpu *sc, unsigned int idx)
{
	if (idx >= 32)
		return sc->r.fixed_ctrl & SKD_FIXED_ADAPTIVE(idx - 32);
	return sc->r.evtsel[idx] & ICL_EVENTSEL_ADAPTIVE;
}

static void build_adaptive(struct sim_cpu *sc, unsigned int idx, u32 config,
			   struct pt_regs *regs)
{
	u64 cfg = counter_adaptive(sc, idx) ? sc->r.pebs_data_cfg : 0;
	u32 nr_lbr = ((cfg >> PEBS_DATACFG_LBR_SHIFT) & 0xff) + 1;
	u64 addr, src, lat, groups = cfg & (PEBS_DATACFG_MEMINFO |
		PEBS_DATACFG_GP | PEBS_DATACFG_XMMS | PEBS_DATACFG_LBRS);
	u32 size = SKD_PEBS_BASIC_SIZE, i;

	if (groups & PEBS_DATACFG_MEMINFO)
		size += SKD_PEBS_MEMINFO_SIZE;
	if (groups & PEBS_DATACFG_GP)
		size += SKD_PEBS_GPRS_SIZE;
	if (groups & PEBS_DATACFG_XMMS)
		size += SKD_PEBS_XMMS_SIZE;
	if (groups & PEBS_DATACFG_LBRS) {
		nr_lbr = min_t(u32, nr_lbr, SKD_MAX_LBR);
		size += SKD_PEBS_LBR_SIZE * nr_lbr;
		groups |= (u64)(nr_lbr - 1) << PEBS_DATACFG_LBR_SHIFT;
	}

	/* Basic group: record size in bits 63:48, then the groups present. */
	put(sc, (u64)size << 48 | groups);
	put(sc, regs->ip);		/* EventingIP */
	put(sc, 1ULL << idx);		/* applicable counters */
	put(sc, rdtsc());
	if (groups & PEBS_DATACFG_MEMINFO) {
		modeled_mem(config, sc, regs, &addr, &src, &lat);
		put(sc, addr);
		put(sc, src);
		put(sc, lat);
		put(sc, 0);		/* tsx_tuning */
	}
	if (groups & PEBS_DATACFG_GP)
		put_adaptive_gprs(sc, regs);
	if (groups & PEBS_DATACFG_XMMS)
		for (i = 0; i < SKD_PEBS_XMMS_SIZE / 8; i++)
			put(sc, 0);
	if (groups & PEBS_DATACFG_LBRS)
		put_lbr_group(sc, nr_lbr);
}

static int ds_read(u64 ds, u32 off, u64 *val)
{
	return copy_from_kernel_nofault(val, (void *)(ds + off), sizeof(*val));
}

/*
 * The model writes only into the kernel's direct map, where the DS area
 * and buffer come from (the page allocator). Anything else would make a
 * CPU fault; the model drops the record instead and counts it.
 */
static bool writable(u64 addr, u32 len)
{
	return virt_addr_valid((void *)addr) &&
	       virt_addr_valid((void *)(addr + len - 1));
}

static int ds_write(u64 ds, u32 off, u64 val)
{
	if (!writable(ds + off, sizeof(val)))
		return -EFAULT;
	memcpy((void *)(ds + off), &val, sizeof(val));
	return 0;
}

/*
 * Append one record for counter @idx to the DS buffer. Returns true when
 * the buffer reached its interrupt threshold. Like the CPU, drops the
 * record without a word when the buffer is full; like no CPU, survives a
 * DS pointer that is not mapped (counted as a dropped record).
 */
bool sim_write_pebs(struct sim_cpu *sc, unsigned int idx, u32 config,
		    struct pt_regs *regs)
{
	u64 ds = sc->r.ds_area, index, max, threshold;

	if (!ds || ds_read(ds, SKD_DS_PEBS_INDEX, &index) ||
	    ds_read(ds, SKD_DS_PEBS_MAX, &max) ||
	    ds_read(ds, SKD_DS_PEBS_THRESHOLD, &threshold)) {
		/* A CPU would fault here, where it cannot. */
		sim_violation(sc, SIM_V_DS, MSR_IA32_DS_AREA, ds, 0);
		sc->stats.records_dropped++;
		return false;
	}
	sc->rec_len = 0;
	if (sc->core->pebs_fmt >= 4)
		build_adaptive(sc, idx, config, regs);
	else
		build_fixed_format(sc, idx, config, regs);

	/* A full buffer drops the record without signaling (SDM 18.6.3.4). */
	if (index + sc->rec_len > max) {
		sc->stats.records_dropped++;
		return false;
	}
	if (!writable(index, sc->rec_len) ||
	    !writable(ds + SKD_DS_PEBS_INDEX, sizeof(u64))) {
		sim_violation(sc, SIM_V_DS, MSR_IA32_DS_AREA, ds, index);
		sc->stats.records_dropped++;
		return false;
	}
	/* The record first, then the index that publishes it. */
	memcpy((void *)index, sc->rec, sc->rec_len);
	ds_write(ds, SKD_DS_PEBS_INDEX, index + sc->rec_len);
	sc->stats.records++;
	return index + sc->rec_len >= threshold;
}

/* Does the LBR configuration keep a near call from @from? */
static bool lbr_keeps_call(const struct sim_cpu *sc, u64 from)
{
	bool kernel = from >= KERNEL_HALF;
	u64 sel = sc->r.lbr_select, ctl = sc->r.arch_lbr_ctl;

	if (sc->core->arch_lbr)
		return (ctl & SKD_ARCH_LBR_REL_CALL) &&
		       (ctl & (kernel ? SKD_ARCH_LBR_OS : SKD_ARCH_LBR_USR));
	/* Legacy LBR_SELECT bits suppress. */
	return !(sel & SKD_LBRSEL_NEAR_REL_CALL) &&
	       !(sel & (kernel ? SKD_LBRSEL_CPL_EQ_0 : SKD_LBRSEL_CPL_NEQ_0));
}

/*
 * Where the call at @from went, read from the instruction itself: the
 * target of an e8 rel32 call, as the hardware would record it. 0 for
 * anything else (an indirect call's target is gone by now).
 */
static u64 call_target(u64 from)
{
	u8 insn[CALL_LEN];
	s32 rel;
	long ret;

	if (from >= KERNEL_HALF)
		ret = copy_from_kernel_nofault(insn, (void *)from, CALL_LEN);
	else
		ret = copy_from_user_nofault(insn, (void __user *)from,
					     CALL_LEN);
	if (ret || insn[0] != 0xe8)
		return 0;
	memcpy(&rel, insn + 1, sizeof(rel));
	return from + CALL_LEN + (s64)rel;
}

void sim_fill_lbr(struct sim_cpu *sc, struct pt_regs *regs)
{
	struct sim_regs *r = &sc->r;
	u32 depth = sc->core->arch_lbr ? r->arch_lbr_depth : sc->core->lbr_nr;
	unsigned int n, nr_kernel, k, e = 0;
	u64 from, to, info;
	u32 slot;

	if (!depth || depth > SKD_MAX_LBR)
		return;
	/* Legacy LBRs rotate TOS on every update, as the hardware does. */
	if (!sc->core->arch_lbr)
		r->lbr_tos = (r->lbr_tos + 3) & (depth - 1);

	n = skd_callchain(regs, sc->chain, depth + 1, &nr_kernel);
	for (k = 0; k + 1 < n && e < depth; k++) {
		from = sc->chain[k + 1] - CALL_LEN;
		if (!lbr_keeps_call(sc, from))
			continue;
		/* Unknown target: the callee's own frame is the best guess. */
		to = call_target(from) ?: sc->chain[k];
		if (sc->core->arch_lbr) {
			/* Only the fields CPUID.1CH:ECX says are filled. */
			u32 ecx = sim_arch_lbr_ecx(sc->core);

			slot = e;
			info = 0;
			if (ecx & BIT(1))
				info |= SKD_BR_INFO_CYC_VALID | (10 + k);
			if (ecx & BIT(2))
				info |= ARCH_TYPE_CALL << SKD_BR_INFO_TYPE_SHIFT;
		} else {
			slot = (r->lbr_tos - e) & (depth - 1);
			info = 10 + k;		/* LBR_INFO cycles */
		}
		r->lbr_from[slot] = from;
		r->lbr_to[slot] = to;
		r->lbr_info[slot] = info;
		e++;
	}
	/* Older entries than the chain are gone. */
	for (; e < depth; e++) {
		slot = sc->core->arch_lbr ? e : (r->lbr_tos - e) & (depth - 1);
		r->lbr_from[slot] = 0;
		r->lbr_to[slot] = 0;
		r->lbr_info[slot] = 0;
	}
}
