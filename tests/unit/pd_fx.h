/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixtures for the perf.data tests: skidless records (uapi/skidless.h)
 * built into an aligned buffer and decoded, the converter set up for one
 * or two PEBS events with every optional sample field, and a writer that
 * writes into a memfd whose bytes the tests then read back whole.
 */
#ifndef _SKD_PD_FX_H
#define _SKD_PD_FX_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decode.h"
#include "perfdata_conv.h"
#include "perfdata_write.h"

#define FX_PID		4242
#define FX_TID		4243
#define FX_CPU		3
#define FX_T0		1000000000000ULL
#define FX_STACK	21	/* user stack bytes in a sample (not a multiple of 8) */

/* A skidless record under construction, 8-byte aligned. */
struct fx_rec {
	_Alignas(8) uint8_t b[8192];
	struct skd_event ev;
};

/* What a synthetic sample holds, for the tests to compare with. */
struct fx_sample {
	uint64_t ip, period, time;
	uint16_t event;
	uint16_t misc;			/* SKD_MISC_* */
	unsigned int nr, nr_kernel;	/* call chain; nr 0: none */
	uint64_t ips[8];
	bool mem;
	uint64_t addr, source, latency;
	uint32_t mem_flags;
	unsigned int nr_br;		/* branches; 0: none */
	struct skd_branch_entry br[4];
	bool ustack;
	uint64_t regs[SKD_USER_REGS_NR];
	uint8_t stack[FX_STACK];
};

static inline void fx_sample_default(struct fx_sample *s, unsigned int i)
{
	unsigned int k;

	memset(s, 0, sizeof(*s));
	s->ip = 0xffffffff81000100ULL + i;
	s->period = 10007 + i;
	s->time = FX_T0 + 1000 * (i + 1);
	s->misc = SKD_MISC_KERNEL | SKD_MISC_EXACT_IP;
	s->nr = 5;
	s->nr_kernel = 2;
	s->ips[0] = s->ip;
	s->ips[1] = 0xffffffff81000200ULL;
	s->ips[2] = 0x401000 + i;
	s->ips[3] = 0x402000;
	s->ips[4] = 0x403000;
	s->mem = true;
	s->addr = 0x7ffd00001000ULL + 64 * i;
	s->source = 0x3;		/* L2 hit */
	s->latency = 37 + i;
	s->nr_br = 2;
	/* Mispredicted, in a transaction, 0x1234 cycles, a near call (4). */
	s->br[0] = (struct skd_branch_entry){ 0x401010, 0x402000,
		SKD_BR_INFO_MISPRED | SKD_BR_INFO_IN_TX |
		SKD_BR_INFO_CYC_VALID | 0x1234 | SKD_BR_INFO_TYPE_VALID |
		(4ULL << SKD_BR_INFO_TYPE_SHIFT) };
	/* Predicted, aborted, no cycles, a near return (5). */
	s->br[1] = (struct skd_branch_entry){ 0x402040, 0x401014,
		SKD_BR_INFO_ABORT | SKD_BR_INFO_TYPE_VALID |
		(5ULL << SKD_BR_INFO_TYPE_SHIFT) };
	s->ustack = true;
	for (k = 0; k < SKD_USER_REGS_NR; k++)
		s->regs[k] = 0x1000 + k;
	for (k = 0; k < FX_STACK; k++)
		s->stack[k] = (uint8_t)(0xa0 + k);
}

/* Build @s into @r and decode it; 0 or -EINVAL. */
static inline int fx_build_sample(struct fx_rec *r, const struct fx_sample *s)
{
	struct skd_rec_sample *rs = (void *)r->b;
	uint8_t *q = (uint8_t *)(rs + 1);

	memset(r->b, 0, sizeof(r->b));
	rs->hdr = (struct skd_rec_header){ SKD_REC_SAMPLE, s->misc, 0 };
	rs->id = (struct skd_rec_id){ s->time, FX_CPU, FX_PID, FX_TID, 0 };
	rs->ip = s->ip;
	rs->period = s->period;
	rs->event = s->event;
	if (s->nr) {
		struct skd_callchain *cc = (void *)q;

		rs->fields |= SKD_SAMPLE_CALLCHAIN;
		cc->nr = (uint16_t)s->nr;
		cc->nr_kernel = (uint16_t)s->nr_kernel;
		memcpy(cc->ips, s->ips, 8 * s->nr);
		q += sizeof(*cc) + 8 * s->nr;
	}
	if (s->mem) {
		struct skd_sample_mem *m = (void *)q;

		rs->fields |= SKD_SAMPLE_MEM;
		*m = (struct skd_sample_mem){ s->addr, s->source, s->latency,
					      s->mem_flags, 0 };
		q += sizeof(*m);
	}
	if (s->nr_br) {
		struct skd_branches *b = (void *)q;

		rs->fields |= SKD_SAMPLE_BRANCHES;
		b->nr = (uint16_t)s->nr_br;
		memcpy(b->entries, s->br, s->nr_br * sizeof(s->br[0]));
		q += sizeof(*b) + s->nr_br * sizeof(s->br[0]);
	}
	if (s->ustack) {
		struct skd_user_stack *u = (void *)q;

		rs->fields |= SKD_SAMPLE_USER_STACK;
		u->abi = SKD_USER_ABI_64;
		u->size = FX_STACK;
		memcpy(u->regs, s->regs, sizeof(u->regs));
		memcpy(u->data, s->stack, FX_STACK);
		q += sizeof(*u) + ((FX_STACK + 7) & ~7);
	}
	rs->hdr.size = (uint16_t)(q - r->b);
	return skd_decode(r->b, sizeof(r->b), &r->ev) < 0 ? -1 : 0;
}

static inline struct skd_rec_id fx_id(uint64_t time)
{
	return (struct skd_rec_id){ time, FX_CPU, FX_PID, FX_TID, 0 };
}

static inline int fx_build_comm(struct fx_rec *r, const char *comm, bool exec,
				uint64_t time)
{
	struct skd_rec_comm *c = (void *)r->b;

	memset(r->b, 0, sizeof(r->b));
	c->hdr = (struct skd_rec_header){ SKD_REC_COMM,
		exec ? SKD_MISC_COMM_EXEC : 0, sizeof(*c) };
	c->id = fx_id(time);
	strncpy(c->comm, comm, SKD_COMM_LEN - 1);
	return skd_decode(r->b, sizeof(r->b), &r->ev) < 0 ? -1 : 0;
}

static inline int fx_build_task(struct fx_rec *r, uint32_t type, uint32_t ppid,
				uint32_t ptid, uint64_t time)
{
	struct skd_rec_task *t = (void *)r->b;

	memset(r->b, 0, sizeof(r->b));
	t->hdr = (struct skd_rec_header){ type, 0, sizeof(*t) };
	t->id = fx_id(time);
	t->ppid = ppid;
	t->ptid = ptid;
	return skd_decode(r->b, sizeof(r->b), &r->ev) < 0 ? -1 : 0;
}

static inline int fx_build_lost(struct fx_rec *r, uint64_t lost, uint64_t time)
{
	struct skd_rec_lost *l = (void *)r->b;

	memset(r->b, 0, sizeof(r->b));
	l->hdr = (struct skd_rec_header){ SKD_REC_LOST, 0, sizeof(*l) };
	l->id = (struct skd_rec_id){ time, FX_CPU, 0, 0, 0 };
	l->lost = lost;
	return skd_decode(r->b, sizeof(r->b), &r->ev) < 0 ? -1 : 0;
}

static inline int fx_build_throttle(struct fx_rec *r, bool on, uint64_t time)
{
	struct skd_rec_throttle *t = (void *)r->b;

	memset(r->b, 0, sizeof(r->b));
	t->hdr = (struct skd_rec_header){ on ? SKD_REC_THROTTLE :
					  SKD_REC_UNTHROTTLE, 0, sizeof(*t) };
	t->id = (struct skd_rec_id){ time, FX_CPU, 0, 0, 0 };
	t->limit = 100000;
	return skd_decode(r->b, sizeof(r->b), &r->ev) < 0 ? -1 : 0;
}

static inline int fx_build_mmap(struct fx_rec *r, const char *path,
				uint64_t start, uint64_t time)
{
	struct skd_rec_mmap *m = (void *)r->b;
	size_t n = strlen(path) + 1;

	memset(r->b, 0, sizeof(r->b));
	m->hdr = (struct skd_rec_header){ SKD_REC_MMAP, 0,
		(uint16_t)((sizeof(*m) + n + 7) & ~7UL) };
	m->id = fx_id(time);
	m->start = start;
	m->len = 0x5000;
	m->pgoff = 0x1000;
	m->maj = 8;
	m->min = 1;
	m->ino = 123456;
	m->ino_generation = 7;
	m->prot = PROT_READ | PROT_EXEC;
	m->flags = MAP_PRIVATE;
	memcpy(m->path, path, n);
	return skd_decode(r->b, sizeof(r->b), &r->ev) < 0 ? -1 : 0;
}

/* Two PEBS events (IDENTIFIER in every record) or one, all fields on. */
static inline struct pd_conv *fx_conv(unsigned int nr_events, const char *model)
{
	static const struct skd_event_attr evs[2] = {
		{ .size = sizeof(evs[0]), .config = 0x01cd, .ldlat = 3,
		  .sample_period = 1000, .precise = 2 },
		{ .size = sizeof(evs[0]), .config = 0x00c0,
		  .sample_period = 100003, .precise = 3 },
	};
	static const char *const names[2] = {
		"mem_trans_retired.load_latency_gt_3:pp", "inst_retired.any:ppp",
	};
	struct pd_conv_config cc = {
		.backend = SKD_BACKEND_INTEL, .callchain_depth = 127,
		.branch_sample = SKD_BRANCH_ANY | SKD_BRANCH_USER,
		.user_stack_bytes = 8192, .model = model,
		.nr_events = nr_events, .events = evs, .names = names,
	};

	return pd_conv_new(&cc);
}

/* The whole content of @fd, in a buffer of exactly that size. */
static inline uint8_t *fx_slurp(int fd, size_t *len)
{
	struct stat st;
	uint8_t *p;

	if (fstat(fd, &st))
		return NULL;
	p = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (p && pread(fd, p, (size_t)st.st_size, 0) != st.st_size) {
		free(p);
		return NULL;
	}
	*len = (size_t)st.st_size;
	return p;
}

#endif /* _SKD_PD_FX_H */
