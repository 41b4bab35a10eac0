// SPDX-License-Identifier: GPL-2.0
/*
 * Record layouts follow include/uapi/linux/perf_event.h: a SAMPLE's
 * fields come in sample_type bit order (IDENTIFIER first), and with
 * sample_id_all every other record ends in the TID, TIME, CPU and
 * IDENTIFIER fields that sample_type selects.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata_conv.h"

#define REC_MAX		0xfff8

struct pd_conv {
	struct pd_conv_config cfg;
	struct pd_event_spec specs[SKD_MAX_EVENTS];
	enum skd_dsrc_kind kinds[SKD_MAX_EVENTS];
	struct skd_dsrc_model model;
	unsigned int nr;
	uint64_t sample_type;
	bool split_weight;		/* WEIGHT_STRUCT: Golden Cove family */
	struct pd_buf rec;
};

static uint64_t branch_type(uint32_t b)
{
	static const struct { uint32_t skd; uint64_t pd; } map[] = {
		{ SKD_BRANCH_USER, PD_BRANCH_USER },
		{ SKD_BRANCH_KERNEL, PD_BRANCH_KERNEL },
		{ SKD_BRANCH_ANY, PD_BRANCH_ANY },
		{ SKD_BRANCH_ANY_CALL, PD_BRANCH_ANY_CALL },
		{ SKD_BRANCH_ANY_RETURN, PD_BRANCH_ANY_RETURN },
		{ SKD_BRANCH_IND_CALL, PD_BRANCH_IND_CALL },
		{ SKD_BRANCH_IND_JUMP, PD_BRANCH_IND_JUMP },
		{ SKD_BRANCH_COND, PD_BRANCH_COND },
		{ SKD_BRANCH_CALL, PD_BRANCH_CALL },
		{ SKD_BRANCH_CALL_STACK, PD_BRANCH_CALL_STACK },
	};
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (b & map[i].skd)
			v |= map[i].pd;
	return v;
}

static void fill_attr(struct pd_conv *c, unsigned int i, struct pd_attr *a)
{
	const struct pd_conv_config *cfg = &c->cfg;
	uint64_t flags = PD_ATTR_DISABLED | PD_ATTR_MMAP | PD_ATTR_COMM |
			 PD_ATTR_TASK | PD_ATTR_SAMPLE_ID_ALL | PD_ATTR_MMAP2 |
			 PD_ATTR_COMM_EXEC | PD_ATTR_USE_CLOCKID;
	uint32_t excl = cfg->cfg_flags;

	memset(a, 0, sizeof(*a));
	a->size = PD_ATTR_SIZE;
	a->sample_type = c->sample_type;
	a->clockid = 1;			/* CLOCK_MONOTONIC: our records' clock */
	if (cfg->inherit)
		flags |= PD_ATTR_INHERIT;
	if (!cfg->nr_events) {
		a->type = PD_TYPE_SOFTWARE;
		a->config = PD_COUNT_SW_CPU_CLOCK;
		a->sample_period = cfg->sample;
		if (cfg->cfg_flags & SKD_CFG_FREQ)
			flags |= PD_ATTR_FREQ;
	} else {
		const struct skd_event_attr *e = &cfg->events[i];

		a->type = PD_TYPE_RAW;
		a->config = e->config;
		/* perf's cpu PMU keeps ldlat (and frontend, offcore) in config1. */
		a->config1 = e->ldlat ? e->ldlat : e->config1;
		flags |= (uint64_t)(e->precise & 3) << PD_ATTR_PRECISE_SHIFT;
		if (e->sample_period) {
			a->sample_period = e->sample_period;
			if (e->flags & SKD_EV_FREQ)
				flags |= PD_ATTR_FREQ;
		} else {
			a->sample_period = cfg->sample;
			if (cfg->cfg_flags & SKD_CFG_FREQ)
				flags |= PD_ATTR_FREQ;
		}
		if (e->flags & SKD_EV_EXCLUDE_USER)
			excl |= SKD_CFG_EXCLUDE_USER;
		if (e->flags & SKD_EV_EXCLUDE_KERNEL)
			excl |= SKD_CFG_EXCLUDE_KERNEL;
	}
	if (excl & SKD_CFG_EXCLUDE_USER)
		flags |= PD_ATTR_EXCLUDE_USER;
	if (excl & SKD_CFG_EXCLUDE_KERNEL)
		flags |= PD_ATTR_EXCLUDE_KERNEL;
	flags |= PD_ATTR_EXCLUDE_HV;
	a->flags = flags;
	if (c->sample_type & PD_SAMPLE_BRANCH_STACK)
		a->branch_sample_type = branch_type(cfg->branch_sample);
	if (c->sample_type & PD_SAMPLE_REGS_USER) {
		a->sample_regs_user = SKD_USER_REGS_PERF_MASK;
		a->sample_stack_user = cfg->user_stack_bytes;
	}
	if (c->sample_type & PD_SAMPLE_CALLCHAIN)
		a->sample_max_stack = (uint16_t)cfg->callchain_depth;
}

struct pd_conv *pd_conv_new(const struct pd_conv_config *cfg)
{
	struct pd_conv *c;
	bool mem = false;
	unsigned int i;

	if (cfg->nr_events > SKD_MAX_EVENTS) {
		errno = EINVAL;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->cfg = *cfg;
	c->nr = cfg->nr_events ? cfg->nr_events : 1;
	c->model = skd_dsrc_model(cfg->model);
	for (i = 0; i < cfg->nr_events; i++) {
		c->kinds[i] = skd_dsrc_kind(cfg->events[i].config,
					    cfg->events[i].ldlat, &c->model);
		/* A PEBS record may carry memory info: keep room for it. */
		if (cfg->events[i].precise &&
		    !(i < 32 && (cfg->no_mem_events & (1U << i))))
			mem = true;
	}
	c->split_weight = c->model.block;
	c->sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME |
			 PD_SAMPLE_CPU | PD_SAMPLE_PERIOD;
	if (c->nr > 1)
		c->sample_type |= PD_SAMPLE_IDENTIFIER;
	if (cfg->callchain_depth)
		c->sample_type |= PD_SAMPLE_CALLCHAIN;
	if (mem)
		c->sample_type |= PD_SAMPLE_ADDR | PD_SAMPLE_DATA_SRC |
			(c->split_weight ? PD_SAMPLE_WEIGHT_STRUCT :
					   PD_SAMPLE_WEIGHT);
	if (cfg->branch_sample)
		c->sample_type |= PD_SAMPLE_BRANCH_STACK;
	if (cfg->user_stack_bytes)
		c->sample_type |= PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER;
	for (i = 0; i < c->nr; i++) {
		fill_attr(c, i, &c->specs[i].attr);
		c->specs[i].id = i + 1;
		c->specs[i].name = cfg->names && cfg->names[i] ? cfg->names[i] :
				   (cfg->nr_events ? "raw" : "cpu-clock");
	}
	return c;
}

void pd_conv_free(struct pd_conv *c)
{
	if (!c)
		return;
	pd_buf_free(&c->rec);
	free(c);
}

const struct pd_event_spec *pd_conv_events(const struct pd_conv *c,
					   unsigned int *nr)
{
	*nr = c->nr;
	return c->specs;
}

uint64_t pd_conv_sample_type(const struct pd_conv *c)
{
	return c->sample_type;
}

/* ---- record assembly ---- */

static void begin(struct pd_conv *c, uint32_t type, uint16_t misc)
{
	struct pd_header h = { type, misc, 0 };

	c->rec.len = 0;
	c->rec.err = 0;
	pd_buf_put(&c->rec, &h, sizeof(h));
}

static void put_string(struct pd_conv *c, const char *s)
{
	static const uint8_t zeros[8];
	size_t n = strlen(s) + 1;

	pd_buf_put(&c->rec, s, n);
	pd_buf_put(&c->rec, zeros, -n & 7);
}

static void put_trailer(struct pd_conv *c, uint32_t pid, uint32_t tid,
			uint64_t time, uint32_t cpu, uint64_t id)
{
	uint64_t t = c->sample_type;

	if (t & PD_SAMPLE_TID) {
		pd_buf_u32(&c->rec, pid);
		pd_buf_u32(&c->rec, tid);
	}
	if (t & PD_SAMPLE_TIME)
		pd_buf_u64(&c->rec, time);
	if (t & PD_SAMPLE_CPU) {
		pd_buf_u32(&c->rec, cpu);
		pd_buf_u32(&c->rec, 0);
	}
	if (t & PD_SAMPLE_IDENTIFIER)
		pd_buf_u64(&c->rec, id);
}

static const struct pd_header *finish(struct pd_conv *c, int *err)
{
	struct pd_header *h = (void *)c->rec.p;

	if (c->rec.err) {
		*err = c->rec.err;
		return NULL;
	}
	if (c->rec.len > REC_MAX || c->rec.len % 8) {
		*err = -E2BIG;
		return NULL;
	}
	h->size = (uint16_t)c->rec.len;
	return h;
}

/* ---- samples ---- */

/* A kernel record's cpu field: the synthesized ones say UINT32_MAX. */
static uint32_t rec_cpu(const struct skd_rec_id *id)
{
	return id->cpu == UINT32_MAX ? 0 : id->cpu;
}

/* Architectural LBR branch types (IA32_LBR_x_INFO[59:56]) as PERF_BR_*. */
static uint64_t br_type(uint64_t info)
{
	static const uint8_t map[8] = {
		PD_BR_COND, PD_BR_IND, PD_BR_UNCOND, PD_BR_IND_CALL,
		PD_BR_CALL, PD_BR_RET, PD_BR_UNKNOWN, PD_BR_UNKNOWN,
	};
	unsigned int t = (info >> SKD_BR_INFO_TYPE_SHIFT) & 0xf;

	if (!(info & SKD_BR_INFO_TYPE_VALID) || t >= 8)
		return PD_BR_UNKNOWN;
	return map[t];
}

static void put_callchain(struct pd_conv *c, const struct skd_event *ev)
{
	const struct skd_rec_sample *s = ev->sample.rec;
	unsigned int nk = ev->sample.nr_kernel, n = ev->sample.nr;
	uint64_t nr;

	if (!ev->sample.ips) {
		/* No chain in this sample: the ip alone, in its context. */
		pd_buf_u64(&c->rec, 2);
		pd_buf_u64(&c->rec, (s->hdr.misc & SKD_MISC_CPUMODE_MASK) ==
			   SKD_MISC_KERNEL ? PD_CONTEXT_KERNEL :
			   PD_CONTEXT_USER);
		pd_buf_u64(&c->rec, s->ip);
		return;
	}
	nr = n + (nk ? 1 : 0) + (n > nk ? 1 : 0);
	pd_buf_u64(&c->rec, nr);
	if (nk)
		pd_buf_u64(&c->rec, PD_CONTEXT_KERNEL);
	pd_buf_put(&c->rec, ev->sample.ips, sizeof(uint64_t) * nk);
	if (n > nk) {
		pd_buf_u64(&c->rec, PD_CONTEXT_USER);
		pd_buf_put(&c->rec, ev->sample.ips + nk,
			   sizeof(uint64_t) * (n - nk));
	}
}

static void put_branches(struct pd_conv *c, const struct skd_event *ev)
{
	unsigned int i;

	pd_buf_u64(&c->rec, ev->sample.branches ? ev->sample.nr_branches : 0);
	for (i = 0; ev->sample.branches && i < ev->sample.nr_branches; i++) {
		const struct skd_branch_entry *b = &ev->sample.branches[i];
		struct pd_branch_entry e = { b->from, b->to, 0 };

		/* Linux: predicted is !mispred when the LBR has INFO. */
		e.flags |= b->info & SKD_BR_INFO_MISPRED ? PD_BR_MISPRED :
			   PD_BR_PREDICTED;
		if (b->info & SKD_BR_INFO_IN_TX)
			e.flags |= PD_BR_IN_TX;
		if (b->info & SKD_BR_INFO_ABORT)
			e.flags |= PD_BR_ABORT;
		if (b->info & SKD_BR_INFO_CYC_VALID)
			e.flags |= (b->info & SKD_BR_INFO_CYCLES) <<
				   PD_BR_CYCLES_SHIFT;
		e.flags |= br_type(b->info) << PD_BR_TYPE_SHIFT;
		pd_buf_put(&c->rec, &e, sizeof(e));
	}
}

static void put_user_regs_stack(struct pd_conv *c, const struct skd_event *ev)
{
	const struct skd_user_stack *us = ev->sample.ustack;
	static const uint8_t zeros[8];
	uint64_t size;

	if (!us || us->abi == SKD_USER_ABI_NONE) {
		pd_buf_u64(&c->rec, PD_REGS_ABI_NONE);
		pd_buf_u64(&c->rec, 0);		/* stack size 0: no dyn_size */
		return;
	}
	pd_buf_u64(&c->rec, us->abi);
	pd_buf_put(&c->rec, us->regs, sizeof(us->regs));
	size = (us->size + 7) & ~7ULL;
	pd_buf_u64(&c->rec, size);
	pd_buf_put(&c->rec, us->data, us->size);
	pd_buf_put(&c->rec, zeros, size - us->size);
	pd_buf_u64(&c->rec, us->size);		/* dyn_size: bytes valid */
}

static void put_weight(struct pd_conv *c, const struct skd_sample_mem *m)
{
	uint64_t lat = m ? m->latency : 0;
	bool split = m && (m->flags & SKD_MEM_LAT_SPLIT);

	if (c->sample_type & PD_SAMPLE_WEIGHT_STRUCT) {
		/* ds.c on Golden Cove: var1 the cache latency, var2 the
		 * instruction latency. */
		struct pd_weight w = { 0 };

		w.var1_dw = split ? (uint32_t)((lat >> 32) & 0xffff) :
			    (uint32_t)lat;
		w.var2_w = split ? (uint16_t)(lat & 0xffff) : 0;
		pd_buf_put(&c->rec, &w, sizeof(w));
	} else {
		pd_buf_u64(&c->rec, split ? (lat >> 32) & 0xffff : lat);
	}
}

static const struct pd_header *conv_sample(struct pd_conv *c,
					   const struct skd_event *ev,
					   int *err)
{
	const struct skd_rec_sample *s = ev->sample.rec;
	const struct skd_sample_mem *m = ev->sample.mem;
	uint64_t t = c->sample_type;
	unsigned int ev_idx = s->event < c->nr ? s->event : 0;
	uint64_t id = c->specs[ev_idx].id;
	uint16_t misc = s->hdr.misc & (SKD_MISC_CPUMODE_MASK |
				       SKD_MISC_EXACT_IP);

	begin(c, PD_REC_SAMPLE, misc);
	if (t & PD_SAMPLE_IDENTIFIER)
		pd_buf_u64(&c->rec, id);
	pd_buf_u64(&c->rec, s->ip);
	pd_buf_u32(&c->rec, ev->id->pid);
	pd_buf_u32(&c->rec, ev->id->tid);
	pd_buf_u64(&c->rec, ev->id->time);
	if (t & PD_SAMPLE_ADDR)
		pd_buf_u64(&c->rec, m ? m->addr : 0);
	pd_buf_u32(&c->rec, rec_cpu(ev->id));
	pd_buf_u32(&c->rec, 0);
	pd_buf_u64(&c->rec, s->period);
	if (t & PD_SAMPLE_CALLCHAIN)
		put_callchain(c, ev);
	if (t & PD_SAMPLE_BRANCH_STACK)
		put_branches(c, ev);
	if (t & PD_SAMPLE_REGS_USER)
		put_user_regs_stack(c, ev);
	if (t & (PD_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT))
		put_weight(c, m);
	if (t & PD_SAMPLE_DATA_SRC)
		pd_buf_u64(&c->rec, m ? skd_dsrc_encode(&c->model,
					c->kinds[ev_idx], m->source) :
			   PD_MEM_NA);
	return finish(c, err);
}

/* ---- sideband ---- */

const struct pd_header *pd_conv_mmap2(struct pd_conv *c,
				      const struct pd_map *m, int *err)
{
	begin(c, PD_REC_MMAP2, PD_MISC_USER);
	pd_buf_u32(&c->rec, m->pid);
	pd_buf_u32(&c->rec, m->tid);
	pd_buf_u64(&c->rec, m->start);
	pd_buf_u64(&c->rec, m->len);
	pd_buf_u64(&c->rec, m->pgoff);
	pd_buf_u32(&c->rec, m->maj);
	pd_buf_u32(&c->rec, m->min);
	pd_buf_u64(&c->rec, m->ino);
	pd_buf_u64(&c->rec, m->ino_generation);
	pd_buf_u32(&c->rec, m->prot);
	pd_buf_u32(&c->rec, m->flags);
	put_string(c, m->path[0] ? m->path : "//anon");
	put_trailer(c, m->pid, m->tid, m->time, m->cpu, c->specs[0].id);
	return finish(c, err);
}

const struct pd_header *pd_conv_kernel_mmap(struct pd_conv *c,
					    const char *name, uint64_t start,
					    uint64_t len, uint64_t pgoff,
					    int *err)
{
	begin(c, PD_REC_MMAP, PD_MISC_KERNEL);
	pd_buf_u32(&c->rec, UINT32_MAX);	/* pid -1: the host's kernel */
	pd_buf_u32(&c->rec, 0);
	pd_buf_u64(&c->rec, start);
	pd_buf_u64(&c->rec, len);
	pd_buf_u64(&c->rec, pgoff);
	put_string(c, name);
	put_trailer(c, UINT32_MAX, 0, 0, 0, c->specs[0].id);
	return finish(c, err);
}

const struct pd_header *pd_conv_record(struct pd_conv *c,
				       const struct skd_event *ev, int *err)
{
	const struct skd_rec_id *id = ev->id;
	uint64_t eid = c->specs[0].id;
	uint64_t time;

	*err = 0;
	if (!id) {
		*err = -EINVAL;
		return NULL;
	}
	/*
	 * A state read at the start (SKD_IOC_READ_MAPS) held before any
	 * sample: time 0, which perf delivers ahead of its time-ordered
	 * queue, as it does its own synthesized records.
	 */
	time = ev->misc & SKD_MISC_SYNTHESIZED ? 0 : id->time;
	switch (ev->type) {
	case SKD_REC_SAMPLE:
		return conv_sample(c, ev, err);
	case SKD_REC_COMM:
		begin(c, PD_REC_COMM, ev->misc & SKD_MISC_COMM_EXEC ?
		      PD_MISC_COMM_EXEC : 0);
		pd_buf_u32(&c->rec, id->pid);
		pd_buf_u32(&c->rec, id->tid);
		put_string(c, ev->comm->comm);
		break;
	case SKD_REC_FORK:
	case SKD_REC_EXIT:
		begin(c, ev->type == SKD_REC_FORK ? PD_REC_FORK : PD_REC_EXIT,
		      0);
		pd_buf_u32(&c->rec, id->pid);
		pd_buf_u32(&c->rec, ev->task->ppid);
		pd_buf_u32(&c->rec, id->tid);
		pd_buf_u32(&c->rec, ev->task->ptid);
		pd_buf_u64(&c->rec, id->time);
		break;
	case SKD_REC_LOST:
		begin(c, PD_REC_LOST, 0);
		pd_buf_u64(&c->rec, eid);
		pd_buf_u64(&c->rec, ev->lost->lost);
		break;
	case SKD_REC_THROTTLE:
	case SKD_REC_UNTHROTTLE:
		begin(c, ev->type == SKD_REC_THROTTLE ? PD_REC_THROTTLE :
		      PD_REC_UNTHROTTLE, 0);
		pd_buf_u64(&c->rec, id->time);
		pd_buf_u64(&c->rec, eid);
		pd_buf_u64(&c->rec, eid);	/* stream_id */
		break;
	case SKD_REC_MMAP: {
		const struct skd_rec_mmap *mm = ev->mmap.rec;
		struct pd_map m = {
			.pid = id->pid, .tid = id->tid, .time = time,
			.cpu = rec_cpu(id), .start = mm->start, .len = mm->len,
			.pgoff = mm->pgoff, .maj = mm->maj, .min = mm->min,
			.ino = mm->ino, .ino_generation = mm->ino_generation,
			.prot = mm->prot, .flags = mm->flags,
			.path = ev->mmap.path,
		};
		return pd_conv_mmap2(c, &m, err);
	}
	default:
		return NULL;	/* EXEC and types we do not know */
	}
	put_trailer(c, id->pid, id->tid, time, rec_cpu(id), eid);
	return finish(c, err);
}

int pd_conv_event_desc(const struct pd_conv *c, struct pd_buf *out)
{
	unsigned int i;

	pd_buf_u32(out, c->nr);
	pd_buf_u32(out, PD_ATTR_SIZE);
	for (i = 0; i < c->nr; i++) {
		pd_buf_put(out, &c->specs[i].attr, PD_ATTR_SIZE);
		pd_buf_u32(out, 1);
		pd_buf_string(out, c->specs[i].name);
		pd_buf_u64(out, c->specs[i].id);
	}
	return out->err;
}
