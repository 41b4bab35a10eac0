// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "perfdata_profile.h"
#include "perfdata_read.h"

#define REC_MAX		0xfff8

/* The native capture being built, in an anonymous mapping (munmap frees). */
struct out {
	uint8_t *p;
	size_t len, cap;
	int err;
	bool modeled;		/* the capture's CPU is skidless's sim model */
};

static void *reserve(struct out *o, size_t n)
{
	void *q;
	size_t cap;

	if (o->err)
		return NULL;
	if (o->len + n > o->cap) {
		cap = o->cap ? o->cap : 1 << 20;
		while (cap < o->len + n)
			cap *= 2;
		q = o->p ? mremap(o->p, o->cap, cap, MREMAP_MAYMOVE) :
		    mmap(NULL, cap, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (q == MAP_FAILED) {
			o->err = -ENOMEM;
			return NULL;
		}
		o->p = q;
		o->cap = cap;
	}
	/* Never written before: fresh anonymous pages, mremap()'s too, are
	 * zero, and the buffer only grows. */
	q = o->p + o->len;
	o->len += n;
	return q;
}

/* A record of @fixed bytes (header included) then NUL-terminated @str. */
static void *rec_with_string(struct out *o, uint32_t type, size_t fixed,
			     const char *str, size_t max)
{
	size_t n = strnlen(str, max), size = (fixed + n + 1 + 7) & ~(size_t)7;
	struct skd_rec_header *h;

	if (size > REC_MAX)
		return NULL;
	h = reserve(o, size);
	if (!h)
		return NULL;
	h->type = type;
	h->size = (uint16_t)size;
	memcpy((uint8_t *)h + fixed, str, n);
	return h;
}

static void put_id(struct skd_rec_id *id, uint64_t time, uint32_t cpu,
		   uint32_t pid, uint32_t tid)
{
	id->time = time;
	id->cpu = cpu;
	id->pid = pid;
	id->tid = tid;
}

/* Branch flags back to the LBR INFO layout skidless keeps. */
static uint64_t br_info(uint64_t flags)
{
	static const int8_t arch[16] = { -1, 0, 2, 1, 4, 3, 5, -1, -1, -1,
					 -1, -1, -1, -1, -1, -1 };
	uint64_t cyc = (flags >> PD_BR_CYCLES_SHIFT) & PD_BR_CYCLES_MASK;
	int type = arch[(flags >> PD_BR_TYPE_SHIFT) & PD_BR_TYPE_MASK];
	uint64_t info = 0;

	if (flags & PD_BR_MISPRED)
		info |= SKD_BR_INFO_MISPRED;
	if (flags & PD_BR_IN_TX)
		info |= SKD_BR_INFO_IN_TX;
	if (flags & PD_BR_ABORT)
		info |= SKD_BR_INFO_ABORT;
	if (cyc)
		info |= SKD_BR_INFO_CYC_VALID | cyc;
	if (type >= 0)
		info |= SKD_BR_INFO_TYPE_VALID |
			(uint64_t)type << SKD_BR_INFO_TYPE_SHIFT;
	return info;
}

static int put_sample(struct out *o, const struct pd_file *f,
		      const struct pd_header *h)
{
	uint64_t ips[SKD_MAX_CALLCHAIN];
	uint16_t nr = 0, nr_kernel = 0;
	struct skd_rec_sample *r;
	struct pd_sample s;
	bool kernel_ctx = false, mem;
	size_t size, nbr, stack = 0, i;
	uint8_t *q;

	if (pd_parse_sample(f, h, &s))
		return -EINVAL;
	for (i = 0; s.ips && i < s.nr_ips && nr < SKD_MAX_CALLCHAIN; i++) {
		uint64_t ip;

		memcpy(&ip, &s.ips[i], 8);
		if (ip >= PD_CONTEXT_MAX) {
			kernel_ctx = ip == PD_CONTEXT_KERNEL;
			continue;
		}
		/* Kernel frames come first in skidless chains. */
		if (kernel_ctx && nr_kernel == nr)
			nr_kernel++;
		ips[nr++] = ip;
	}
	mem = (f->sample_type & (PD_SAMPLE_ADDR | PD_SAMPLE_DATA_SRC)) &&
	      (s.addr || s.weight || s.weight_var2);
	nbr = s.branches ? (s.nr_branches > 0xffff ? 0xffff : s.nr_branches)
			 : 0;
	if (s.regs && s.nr_regs == SKD_USER_REGS_NR && s.stack)
		stack = s.stack_dyn;
	size = sizeof(*r) + (nr ? sizeof(struct skd_callchain) + nr * 8 : 0) +
	       (mem ? sizeof(struct skd_sample_mem) : 0) +
	       (s.branches ? sizeof(struct skd_branches) + nbr * 24 : 0);
	if (size > REC_MAX)
		return -E2BIG;
	if (s.regs && s.nr_regs == SKD_USER_REGS_NR) {
		/* Keep what fits of the stack in one record. */
		if (stack > REC_MAX - size - sizeof(struct skd_user_stack))
			stack = (REC_MAX - size - sizeof(struct skd_user_stack)) & ~7UL;
		size += sizeof(struct skd_user_stack) + ((stack + 7) & ~7UL);
	}
	r = reserve(o, size);
	if (!r)
		return o->err;
	r->hdr.type = SKD_REC_SAMPLE;
	r->hdr.size = (uint16_t)size;
	r->hdr.misc = (h->misc & (SKD_MISC_CPUMODE_MASK | SKD_MISC_EXACT_IP)) |
		      (o->modeled ? SKD_MISC_MODELED : 0);
	put_id(&r->id, s.time, s.cpu, s.pid, s.tid);
	r->ip = s.ip;
	r->period = s.period;
	r->event = (uint16_t)s.attr;
	q = (uint8_t *)(r + 1);
	if (nr) {
		struct skd_callchain *cc = (void *)q;

		r->fields |= SKD_SAMPLE_CALLCHAIN;
		cc->nr = nr;
		cc->nr_kernel = nr_kernel;
		memcpy(cc->ips, ips, nr * 8);
		q += sizeof(*cc) + nr * 8;
	}
	if (mem) {
		struct skd_sample_mem *m = (void *)q;

		r->fields |= SKD_SAMPLE_MEM;
		m->addr = s.addr;
		m->source = s.data_src;
		m->latency = s.weight;
		if (o->modeled)
			m->flags |= SKD_MEM_MODELED;
		if (s.weight_struct && s.weight_var2) {
			m->latency = (s.weight & 0xffff) << 32 | s.weight_var2;
			m->flags |= SKD_MEM_LAT_SPLIT;
		}
		q += sizeof(*m);
	}
	if (s.branches) {
		struct skd_branches *b = (void *)q;

		r->fields |= SKD_SAMPLE_BRANCHES;
		b->nr = (uint16_t)nbr;
		for (i = 0; i < nbr; i++) {
			struct pd_branch_entry e;

			memcpy(&e, &s.branches[i], sizeof(e));
			b->entries[i].from = e.from;
			b->entries[i].to = e.to;
			b->entries[i].info = br_info(e.flags);
		}
		if (f->attrs[s.attr].branch_sample_type & PD_BRANCH_CALL_STACK)
			b->flags = SKD_BR_CALL_STACK;
		q += sizeof(*b) + nbr * 24;
	}
	if (s.regs && s.nr_regs == SKD_USER_REGS_NR) {
		struct skd_user_stack *us = (void *)q;

		r->fields |= SKD_SAMPLE_USER_STACK;
		us->abi = (uint32_t)s.regs_abi;
		us->size = (uint32_t)stack;
		memcpy(us->regs, s.regs, sizeof(us->regs));
		if (stack)
			memcpy(us->data, s.stack, stack);
	}
	return 0;
}

/* Fixed-size body of the records we convert, before the id trailer. */
static size_t body_size(uint32_t type)
{
	switch (type) {
	case PD_REC_FORK:
	case PD_REC_EXIT:		return 24;
	case PD_REC_LOST:		return 16;
	case PD_REC_THROTTLE:
	case PD_REC_UNTHROTTLE:		return 24;
	case PD_REC_COMM:		return 8;
	case PD_REC_MMAP:		return 32;
	case PD_REC_MMAP2:		return 64;
	}
	return 0;
}

/* The NUL-terminated string at @at of @h, before its id trailer. */
static const char *rec_string(const struct pd_file *f,
			      const struct pd_header *h, size_t at)
{
	const char *s = (const char *)h + at;

	(void)f;
	if (at >= h->size || !memchr(s, '\0', h->size - at))
		return NULL;
	return s;
}

static int put_other(struct out *o, const struct pd_file *f,
		     const struct pd_header *h)
{
	const uint8_t *b = (const uint8_t *)(h + 1);
	struct pd_sample_id id;
	uint32_t u[4];
	uint64_t v[3];
	const char *str;

	if (!body_size(h->type))
		return 0;		/* FINISHED_ROUND, HEADER_*, ... */
	if (pd_parse_id(f, h, body_size(h->type), &id))
		return -EINVAL;
	switch (h->type) {
	case PD_REC_COMM: {
		struct skd_rec_comm *c;

		memcpy(u, b, 8);
		str = rec_string(f, h, 16);
		if (!str)
			return -EINVAL;
		if (h->misc & PD_MISC_COMM_EXEC) {
			struct skd_rec_exec *e = rec_with_string(o,
				SKD_REC_EXEC, sizeof(*e), "", 1);

			if (!e)
				return o->err ? o->err : -E2BIG;
			put_id(&e->id, id.time, id.cpu, u[0], u[1]);
			e->old_tid = u[1];
		}
		c = reserve(o, sizeof(*c));
		if (!c)
			return o->err;
		c->hdr = (struct skd_rec_header){ SKD_REC_COMM,
			h->misc & PD_MISC_COMM_EXEC ? SKD_MISC_COMM_EXEC : 0,
			sizeof(*c) };
		put_id(&c->id, id.time, id.cpu, u[0], u[1]);
		strncpy(c->comm, str, sizeof(c->comm) - 1);
		return 0;
	}
	case PD_REC_FORK:
	case PD_REC_EXIT: {
		struct skd_rec_task *t = reserve(o, sizeof(*t));

		if (!t)
			return o->err;
		memcpy(u, b, 16);
		memcpy(v, b + 16, 8);
		t->hdr = (struct skd_rec_header){ h->type == PD_REC_FORK ?
			SKD_REC_FORK : SKD_REC_EXIT, 0, sizeof(*t) };
		put_id(&t->id, v[0], id.cpu, u[0], u[2]);
		t->ppid = u[1];
		t->ptid = u[3];
		return 0;
	}
	case PD_REC_LOST: {
		struct skd_rec_lost *l = reserve(o, sizeof(*l));

		if (!l)
			return o->err;
		memcpy(v, b, 16);
		l->hdr = (struct skd_rec_header){ SKD_REC_LOST, 0, sizeof(*l) };
		put_id(&l->id, id.time, id.cpu, 0, 0);
		l->lost = v[1];
		return 0;
	}
	case PD_REC_THROTTLE:
	case PD_REC_UNTHROTTLE: {
		struct skd_rec_throttle *t = reserve(o, sizeof(*t));

		if (!t)
			return o->err;
		memcpy(v, b, 8);
		t->hdr = (struct skd_rec_header){ h->type == PD_REC_THROTTLE ?
			SKD_REC_THROTTLE : SKD_REC_UNTHROTTLE, 0, sizeof(*t) };
		put_id(&t->id, v[0], id.cpu, 0, 0);
		return 0;
	}
	case PD_REC_MMAP:
	case PD_REC_MMAP2: {
		struct skd_frec_map *m;

		memcpy(u, b, 8);
		memcpy(v, b + 8, 24);
		str = rec_string(f, h, 8 + body_size(h->type));
		if (!str)
			return -EINVAL;
		/* The kernel's maps: report names kernel addresses itself. */
		if ((h->misc & PD_MISC_CPUMODE_MASK) == PD_MISC_KERNEL ||
		    u[0] == UINT32_MAX)
			return 0;
		if (!strcmp(str, "//anon"))
			str = "";
		m = rec_with_string(o, SKD_FREC_MAP, sizeof(*m), str, 4096);
		if (!m)
			return o->err ? o->err : -E2BIG;
		m->time = id.time;
		m->pid = u[0];
		m->start = v[0];
		m->end = v[0] + v[1];
		m->pgoff = v[2];
		return 0;
	}
	}
	return 0;
}

static void put_session(struct out *o, const struct pd_file *f)
{
	const char *strs[4] = { pd_feature_string(f, PD_FEAT_HOSTNAME),
				pd_feature_string(f, PD_FEAT_OSRELEASE),
				pd_feature_string(f, PD_FEAT_CMDLINE + 0),
				"perf.data" };
	struct skd_frec_session *s;
	size_t fixed = sizeof(*s), len = 0, i;
	uint8_t *q;

	/* CMDLINE is a list: its first string follows a u32 count. */
	strs[2] = NULL;
	if (f->feat[PD_FEAT_CMDLINE] && f->feat_len[PD_FEAT_CMDLINE] > 4) {
		struct pd_file tmp = *f;

		tmp.feat[PD_FEAT_CMDLINE] += 4;
		tmp.feat_len[PD_FEAT_CMDLINE] -= 4;
		strs[2] = pd_feature_string(&tmp, PD_FEAT_CMDLINE);
	}
	for (i = 0; i < 4; i++) {
		if (!strs[i])
			strs[i] = "";
		len += strnlen(strs[i], 1024) + 1;
	}
	s = reserve(o, (fixed + len + 7) & ~(size_t)7);
	if (!s)
		return;
	s->hdr = (struct skd_rec_header){ SKD_FREC_SESSION, 0,
					  (uint16_t)((fixed + len + 7) & ~7UL) };
	s->nr_cpus = 0;
	q = (uint8_t *)s + fixed;
	for (i = 0; i < 4; i++) {
		size_t n = strnlen(strs[i], 1024);

		memcpy(q, strs[i], n);
		q += n + 1;
	}
}

static void put_events(struct out *o, const struct pd_file *f)
{
	unsigned int i;
	char raw[64];

	for (i = 0; i < f->nr_attrs && i < SKD_MAX_EVENTS; i++) {
		const struct pd_attr *a = &f->attrs[i];
		const char *name = pd_event_name(f, i);
		struct skd_frec_event *e;

		if (!name) {
			snprintf(raw, sizeof(raw), "%s", a->type ==
				 PD_TYPE_SOFTWARE && !a->config ? "cpu-clock" :
				 a->type == PD_TYPE_HARDWARE && !a->config ?
				 "cycles" : "");
			if (!raw[0])
				snprintf(raw, sizeof(raw), "r%llx",
					 (unsigned long long)a->config);
			name = raw;
		}
		e = rec_with_string(o, SKD_FREC_EVENT, sizeof(*e), name, 159);
		if (!e)
			return;
		e->index = i;
		e->attr.size = sizeof(e->attr);
		e->attr.config = a->config;
		e->attr.sample_period = a->sample_period;
		e->attr.precise = (uint8_t)((a->flags >> PD_ATTR_PRECISE_SHIFT) & 3);
	}
}

/*
 * The BUILD_ID feature: records of { header; s32 pid; u8 id[20]; u8 size
 * (with misc bit 15, else 20); 3 bytes; filename, NUL-padded }, as
 * tools/perf/util/build-id.c writes them.
 */
static void put_build_ids(struct out *o, const struct pd_file *f)
{
	const uint8_t *p = f->feat[PD_FEAT_BUILD_ID];
	size_t len = f->feat_len[PD_FEAT_BUILD_ID], at = 0;

	while (p && at + 8 + 28 <= len) {
		const uint8_t *id = p + at + 12;
		struct skd_frec_build_id *b;
		struct pd_header hdr, *h = &hdr;
		unsigned int n, i;
		const char *name;

		/* The file says where the feature is: any alignment. */
		memcpy(&hdr, p + at, sizeof(hdr));
		if (h->size < 8 + 28 || h->size > len - at)
			break;
		n = h->misc & PD_MISC_BUILD_ID_SIZE ? id[20] : 20;
		name = (const char *)p + at + 8 + 28;
		if (n && n <= 20 &&
		    memchr(name, '\0', h->size - 8 - 28)) {
			b = rec_with_string(o, SKD_FREC_BUILD_ID, sizeof(*b),
					    name, 4096);
			if (!b)
				return;
			if ((h->misc & PD_MISC_CPUMODE_MASK) == PD_MISC_KERNEL)
				b->hdr.misc = SKD_MISC_KERNEL;
			for (i = 0; i < n; i++)
				snprintf(b->hex + 2 * i, 3, "%02x", id[i]);
		}
		at += h->size;
	}
}

#define DROP_STEP	((size_t)32 << 20)

static int convert(const struct pd_file *f, struct skd_capture *c, char *err,
		   size_t errlen)
{
	struct out o = { 0 };
	struct skd_file_header *fh;
	const struct pd_header *h;
	size_t off = f->data_off, bad = 0, dropped = f->data_off;
	struct skd_frec_finished *fin;
	const char *cpudesc;

	fh = reserve(&o, sizeof(*fh));
	if (fh) {
		memcpy(fh->magic, SKD_FILE_MAGIC, sizeof(fh->magic));
		fh->version = SKD_FILE_VERSION;
		fh->header_size = sizeof(*fh);
	}
	cpudesc = pd_feature_string(f, PD_FEAT_CPUDESC);
	o.modeled = cpudesc && !strncmp(cpudesc, PD_SIM_CPUDESC,
					strlen(PD_SIM_CPUDESC));
	put_session(&o, f);
	put_events(&o, f);
	put_build_ids(&o, f);
	while (!o.err && (h = pd_file_next(f, &off, &bad))) {
		int ret = h->type == PD_REC_SAMPLE ? put_sample(&o, f, h) :
			  put_other(&o, f, h);

		/*
		 * The records converted so far are not read again: a mapped
		 * file gives their pages back, or a big capture would be in
		 * memory twice (the file and what it became).
		 */
		if (f->mapped && off - dropped >= DROP_STEP) {
			size_t from = dropped & ~(size_t)4095;
			size_t to = (off - h->size) & ~(size_t)4095;

			if (to > from)
				madvise(f->base + from, to - from, MADV_DONTNEED);
			dropped = to;
		}

		if (ret == -ENOMEM)
			break;
		if (ret) {
			bad = off - h->size;
			break;
		}
	}
	/* A file cut short is not finished, even at a record boundary. */
	if (!bad && !o.err && !f->truncated) {
		fin = reserve(&o, sizeof(*fin));
		if (fin)
			*fin = (struct skd_frec_finished){
				{ SKD_FREC_FINISHED, 0, sizeof(*fin) }, 0 };
	}
	if (o.err) {
		if (o.p)
			munmap(o.p, o.cap);
		snprintf(err, errlen, "out of memory converting perf.data");
		return o.err;
	}
	memset(c, 0, sizeof(*c));
	c->base = o.p;
	c->len = o.cap;		/* munmap needs the mapping's length */
	c->first = sizeof(*fh);
	c->bad_at = bad;
	/* Records end at o.len: a zeroed tail would read as a bad header. */
	c->len = o.len;
	if (o.cap > o.len) {
		size_t page = 4096, keep = (o.len + page - 1) & ~(page - 1);

		if (keep < o.cap)
			munmap(o.p + keep, o.cap - keep);
	}
	return 0;
}

int skd_perf_capture_open_mem(const void *buf, size_t len,
			      struct skd_capture *c, char *err,
			      size_t errlen)
{
	struct pd_file f;
	int ret = pd_file_open_mem(buf, len, &f, err, errlen);

	if (ret)
		return ret;
	ret = convert(&f, c, err, errlen);
	pd_file_close(&f);
	return ret;
}

int skd_perf_capture_open(const char *path, struct skd_capture *c,
			  char *err, size_t errlen)
{
	char msg[384];
	struct pd_file f;
	int ret = pd_file_open(path, &f, msg, sizeof(msg));

	if (ret == -ENOMSG)
		return ret;
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, msg);
		return ret;
	}
	ret = convert(&f, c, err, errlen);
	pd_file_close(&f);
	return ret;
}
