// SPDX-License-Identifier: GPL-2.0
/*
 * Loading a capture for script and report. Records in a file are in drain
 * order (per CPU, batch by batch), not time order, so everything with a
 * time is collected first and sorted before anything is looked up.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "hmap.h"
#include "maps.h"
#include "perfdata_profile.h"
#include "profile.h"
#include "symbolize.h"
#include "unwind_dwarf.h"

/* Code mappings one process has at once, as far as unwinding goes. */
#define UNWIND_MAX_MAPS		256

/*
 * Frames named lately, by what decides their name: the process and how
 * far its maps had come (snapshots before, exec generation; neither for
 * a process whose mappings never overlap), the address looked up and
 * its distance from the ip. Profiles repeat their stacks: most frames
 * are named here without a map or symbol search.
 */
#define MEMO_SIZE	(1u << 12)

struct frame_memo {
	const void *pr;		/* NULL: empty; the profile: a kernel frame */
	uint64_t lookup;
	uint32_t before, gen;
	uint8_t delta;		/* ip - lookup */
	struct skd_frame f;
};

/* One reading of a process's maps, tagged with its exec generation. */
struct snapshot {
	uint64_t time;
	uint32_t gen;
	struct skd_maps maps;
};

struct proc {
	struct snapshot *snaps;		/* by time */
	size_t nr_snaps, cap_snaps;
	uint64_t *execs;		/* EXEC times, sorted */
	size_t nr_execs, cap_execs;
	/*
	 * Every mapping of every snapshot by start, when no two overlap:
	 * then the one covering an address is the answer at any time.
	 */
	const struct skd_map **flat;
	size_t nr_flat;
	/* A forked process runs its parent's image until it execs. */
	uint32_t parent;
	uint64_t fork_time;
	bool forked;
};

/*
 * A mapped file's path, one copy for every mapping of it in any process
 * (skd_map.path points at path[]), with what naming a frame in it needs:
 * the object's name as shown and the build-id the capture recorded.
 */
struct path_entry {
	struct path_entry *next;	/* same hash */
	const char *base;		/* after the last '/' */
	const char *bid;		/* NULL: none recorded */
	bool bid_known;			/* bid looked up (after loading) */
	char path[];
};

#define PATH_ENTRY(p) \
	((struct path_entry *)((char *)(p) - offsetof(struct path_entry, path)))

struct comm_entry {
	uint64_t time;
	const char *comm;		/* into the capture or a COMM record */
	bool exec;			/* set by exec: not the name before */
};

struct thread {
	struct comm_entry *v;		/* by time */
	size_t n, cap;
};

struct timed {
	uint64_t time;
	uint32_t cpu;
	const struct skd_rec_header *hdr;
};

struct skd_profile {
	struct skd_capture cap;
	struct skd_profile_totals totals;
	const struct skd_frec_session *session;

	struct timed *samples;
	size_t nr_samples, cap_samples;
	struct timed *other;		/* COMM, EXEC, FORK, EXIT, LOST */
	size_t nr_other, cap_other;

	struct skd_hmap procs;		/* pid -> struct proc */
	struct skd_hmap threads;	/* tid -> struct thread */
	struct skd_sym *ksyms;
	size_t nr_ksyms, cap_ksyms;
	struct skd_symbolizer *syms;	/* names: objects, kernel, JIT */
	struct skd_hmap build_ids;	/* path hash -> skd_frec_build_id */
	struct skd_hmap paths;		/* path hash -> struct path_entry chain */
	const char *kernel_build_id;	/* hex, NULL when not recorded */
	struct skd_unwinder *unwinder;	/* DWARF samples, made when needed */
	const void *uw_key;		/* the sample uw_ips[] belongs to */
	uint64_t uw_ips[SKD_MAX_CALLCHAIN];
	unsigned int uw_n;
	uint64_t uw_failed;		/* samples that did not unwind */
	struct skd_unwind_map uw_maps[UNWIND_MAX_MAPS];
	const char *event_names[SKD_MAX_EVENTS];
	bool exact_returns;		/* skd_profile_set_exact_returns() */
	struct frame_memo *memo;	/* MEMO_SIZE, made when first needed */
	/* Where the maps of the sample being named stand: its frames share
	 * pid and time, so the search is done once for all of them. */
	struct {
		bool valid;
		uint32_t pid;
		uint64_t time;
		const struct proc *pr;
		uint32_t gen;
		size_t before;		/* snapshots at or before time */
	} at;
};

/* Grow *@v (elements of @size) to hold one more; 0 or -ENOMEM. */
static int reserve(void **v, size_t *cap, size_t n, size_t size)
{
	size_t new_cap;
	void *p;

	if (n < *cap)
		return 0;
	new_cap = *cap ? *cap * 2 : 64;
	p = realloc(*v, new_cap * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = new_cap;
	return 0;
}

#define PUSH(arr, n, cap) \
	(reserve((void **)&(arr), &(cap), (n), sizeof(*(arr))) ? NULL : &(arr)[(n)++])

/* The build-id the capture recorded for the object at @path, or NULL. */
static const char *build_id_of(const struct skd_profile *p, const char *path)
{
	const struct skd_frec_build_id *b;

	b = skd_hmap_get(&p->build_ids, skd_hash_str(SKD_HASH_INIT, path));
	return b && !strcmp(b->path, path) ? b->hex : NULL;
}

static struct proc *get_proc(struct skd_profile *p, uint32_t pid)
{
	return skd_hmap_get_or_new(&p->procs, pid, sizeof(struct proc));
}

static struct thread *get_thread(struct skd_profile *p, uint32_t tid)
{
	return skd_hmap_get_or_new(&p->threads, tid, sizeof(struct thread));
}

/*
 * A mapping known from @time on: MAP records of one /proc reading share
 * pid and time and come back to back into one snapshot; the kernel's MMAP
 * records come one by one, each a snapshot of its own, which find_map()
 * reads as "the latest mapping of this address before the sample".
 */
struct map_desc {
	uint32_t pid;
	uint64_t time, start, end, pgoff;
	const char *path;
};

/* The one copy of @path; NULL when out of memory. */
static const char *intern_path(struct skd_profile *p, const char *path)
{
	uint64_t h = skd_hash_str(SKD_HASH_INIT, path);
	struct path_entry *head = skd_hmap_get(&p->paths, h), *e;
	size_t len = strlen(path);
	const char *slash;

	for (e = head; e; e = e->next)
		if (!strcmp(e->path, path))
			return e->path;
	e = calloc(1, sizeof(*e) + len + 1);
	if (!e)
		return NULL;
	memcpy(e->path, path, len + 1);
	slash = strrchr(e->path, '/');
	e->base = slash ? slash + 1 : e->path;
	e->next = head;
	if (skd_hmap_put(&p->paths, h, e)) {
		free(e);
		return NULL;
	}
	return e->path;
}

static void free_paths(uint64_t key, void *val, void *arg)
{
	struct path_entry *e = val, *next;

	(void)key;
	(void)arg;
	for (; e; e = next) {
		next = e->next;
		free(e);
	}
}

static int add_map(struct skd_profile *p, const struct map_desc *m)
{
	struct proc *pr = get_proc(p, m->pid);
	struct snapshot *s;
	struct skd_map *e;

	if (!pr)
		return -ENOMEM;
	s = pr->nr_snaps ? &pr->snaps[pr->nr_snaps - 1] : NULL;
	if (!s || s->time != m->time) {
		s = PUSH(pr->snaps, pr->nr_snaps, pr->cap_snaps);
		if (!s)
			return -ENOMEM;
		memset(s, 0, sizeof(*s));
		s->time = m->time;
	}
	/* A reading has tens of mappings: growing one by one is fine. */
	e = realloc(s->maps.v, (s->maps.n + 1) * sizeof(*e));
	if (!e)
		return -ENOMEM;
	s->maps.v = e;
	e = &s->maps.v[s->maps.n];
	/* Owned by p->paths, not by the maps (freed with free(), not
	 * skd_maps_free()). */
	e->path = (char *)intern_path(p, m->path);
	if (!e->path)
		return -ENOMEM;
	e->start = m->start;
	e->end = m->end;
	e->pgoff = m->pgoff;
	s->maps.n++;
	return 0;
}

static int add_timed(struct timed **v, size_t *n, size_t *cap,
		     const struct skd_event *ev)
{
	struct timed *t = PUSH(*v, *n, *cap);

	if (!t)
		return -ENOMEM;
	t->time = ev->id->time;
	t->cpu = ev->id->cpu;
	t->hdr = ev->hdr;
	return 0;
}

static int add_kernel_record(struct skd_profile *p,
			     const struct skd_rec_header *h)
{
	struct skd_event ev;
	struct proc *pr;
	uint64_t *t;

	if (skd_decode(h, h->size, &ev) < 0 || !ev.id) {
		p->totals.unknown++;
		return 0;
	}
	p->totals.records[ev.type]++;
	switch (ev.type) {
	case SKD_REC_SAMPLE:
		return add_timed(&p->samples, &p->nr_samples, &p->cap_samples,
				 &ev);
	case SKD_REC_LOST:
		p->totals.lost_in_stream += ev.lost->lost;
		break;
	case SKD_REC_MMAP:
		/* The kernel's view of code mapped: where frames are. */
		return add_map(p, &(struct map_desc){
			.pid = ev.id->pid, .time = ev.id->time,
			.start = ev.mmap.rec->start,
			.end = ev.mmap.rec->start + ev.mmap.rec->len,
			.pgoff = ev.mmap.rec->pgoff,
			.path = strcmp(ev.mmap.path, "//anon") ?
				ev.mmap.path : "" });
	case SKD_REC_COMM:
		/* A new image starts here, before the MMAPs that load it. */
		if (!(ev.misc & SKD_MISC_COMM_EXEC))
			break;
		pr = get_proc(p, ev.id->pid);
		if (!pr)
			return -ENOMEM;
		t = PUSH(pr->execs, pr->nr_execs, pr->cap_execs);
		if (!t)
			return -ENOMEM;
		*t = ev.id->time;
		break;
	case SKD_REC_FORK:
		/* A new process, not a thread: it starts with the parent's maps. */
		if (ev.task->ppid == ev.id->pid)
			break;
		pr = get_proc(p, ev.id->pid);
		if (!pr)
			return -ENOMEM;
		if (!pr->forked) {
			pr->forked = true;
			pr->parent = ev.task->ppid;
			pr->fork_time = ev.id->time;
		}
		break;
	}
	return add_timed(&p->other, &p->nr_other, &p->cap_other, &ev);
}

static int add_record(struct skd_profile *p, const struct skd_rec_header *h)
{
	const struct skd_frec_stats *st;
	const struct skd_frec_ksym *ks;
	const struct skd_frec_map *m;
	struct skd_sym *sym;

	switch (h->type) {
	case SKD_FREC_SESSION:
		p->session = skd_frec_session(h);
		return 0;
	case SKD_FREC_MAP:
		m = skd_frec_map(h);
		return m ? add_map(p, &(struct map_desc){
			.pid = m->pid, .time = m->time, .start = m->start,
			.end = m->end, .pgoff = m->pgoff, .path = m->path }) : 0;
	case SKD_FREC_KSYM:
		ks = skd_frec_ksym(h);
		if (!ks)
			return 0;
		sym = PUSH(p->ksyms, p->nr_ksyms, p->cap_ksyms);
		if (!sym)
			return -ENOMEM;
		sym->addr = ks->addr;
		sym->size = ks->size;
		sym->name = ks->name;
		return 0;
	case SKD_FREC_STATS:
		st = skd_frec_stats(h);
		if (!st)
			return 0;
		p->totals.stats.generated += st->stats.generated;
		p->totals.stats.delivered += st->stats.delivered;
		p->totals.stats.lost += st->stats.lost;
		p->totals.stats.lost_unreported += st->stats.lost_unreported;
		p->totals.stats.samples += st->stats.samples;
		p->totals.stats.wakeups += st->stats.wakeups;
		p->totals.stats_cpus++;
		return 0;
	case SKD_FREC_FINISHED:
		p->totals.finished = true;
		return 0;
	case SKD_FREC_BUILD_ID: {
		const struct skd_frec_build_id *b = skd_frec_build_id(h);

		if (!b)
			return 0;
		if ((b->hdr.misc & SKD_MISC_CPUMODE_MASK) == SKD_MISC_KERNEL &&
		    !strcmp(b->path, "[kernel.kallsyms]"))
			p->kernel_build_id = b->hex;
		return skd_hmap_put(&p->build_ids, skd_hash_str(SKD_HASH_INIT, b->path),
				    (void *)b);
	}
	case SKD_FREC_EVENT: {
		const struct skd_frec_event *e = skd_frec_event(h);

		if (e && e->index < SKD_MAX_EVENTS)
			p->event_names[e->index] = e->name;
		return 0;
	}
	default:
		return add_kernel_record(p, h);
	}
}

static int by_time(const void *a, const void *b)
{
	const struct timed *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static int by_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

static int by_snap_time(const void *a, const void *b)
{
	const struct snapshot *x = a, *y = b;

	return (x->time > y->time) - (x->time < y->time);
}

static int by_map_start(const void *a, const void *b)
{
	const struct skd_map *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/*
 * qsort() needs a valid base even for no elements (C11 7.22.5): skip
 * those; and what is in order already (one process, one CPU, a file
 * written in time order), which one pass tells.
 */
static void sort(void *v, size_t n, size_t size,
		 int (*cmp)(const void *, const void *))
{
	const char *c = v;
	size_t i;

	for (i = 1; i < n && cmp(c + (i - 1) * size, c + i * size) <= 0; i++)
		;
	if (i < n)
		qsort(v, n, size, cmp);
}

/* Exec generation of a process at @time: how many execs came before. */
static uint32_t generation(const struct proc *pr, uint64_t time)
{
	uint32_t gen = 0;

	while (gen < pr->nr_execs && pr->execs[gen] <= time)
		gen++;
	return gen;
}

static int by_map_ptr_start(const void *a, const void *b)
{
	return by_map_start(*(const struct skd_map *const *)a,
			    *(const struct skd_map *const *)b);
}

/*
 * The flat index of @pr (see struct proc) when its mappings never
 * overlap, as in most processes: each MMAP record of a perf capture is a
 * snapshot of its own, and find_map_in() would try them one by one.
 */
static void flatten(struct proc *pr)
{
	size_t i, j, n = 0;

	for (i = 0; i < pr->nr_snaps; i++)
		n += pr->snaps[i].maps.n;
	if (n < 2 || pr->nr_snaps < 2)
		return;
	pr->flat = malloc(n * sizeof(*pr->flat));
	if (!pr->flat)
		return;
	for (i = 0; i < pr->nr_snaps; i++)
		for (j = 0; j < pr->snaps[i].maps.n; j++)
			pr->flat[pr->nr_flat++] = &pr->snaps[i].maps.v[j];
	qsort(pr->flat, n, sizeof(*pr->flat), by_map_ptr_start);
	for (i = 1; i < n; i++) {
		if (pr->flat[i - 1]->end > pr->flat[i]->start) {
			free(pr->flat);
			pr->flat = NULL;
			pr->nr_flat = 0;
			return;
		}
	}
}

static void sort_proc(uint64_t key, void *val, void *arg)
{
	struct proc *pr = val;
	size_t i;

	(void)key;
	(void)arg;
	sort(pr->execs, pr->nr_execs, sizeof(*pr->execs), by_u64);
	sort(pr->snaps, pr->nr_snaps, sizeof(*pr->snaps), by_snap_time);
	for (i = 0; i < pr->nr_snaps; i++) {
		struct snapshot *s = &pr->snaps[i];

		sort(s->maps.v, s->maps.n, sizeof(*s->maps.v), by_map_start);
		s->gen = generation(pr, s->time);
	}
	flatten(pr);
}

static int comm_push(struct skd_profile *p, uint32_t tid, uint64_t time,
		     const char *comm, bool exec)
{
	struct thread *th = get_thread(p, tid);
	struct comm_entry *e;

	if (!th)
		return -ENOMEM;
	e = PUSH(th->v, th->n, th->cap);
	if (!e)
		return -ENOMEM;
	e->time = time;
	e->comm = comm;
	e->exec = exec;
	return 0;
}

/* Replays COMM and FORK in time order: a child starts with its parent's name. */
static int build_comms(struct skd_profile *p)
{
	struct skd_event ev;
	const char *comm;
	size_t i;
	int ret;

	for (i = 0; i < p->nr_other; i++) {
		skd_decode(p->other[i].hdr, p->other[i].hdr->size, &ev);
		if (ev.type == SKD_REC_COMM) {
			ret = comm_push(p, ev.id->tid, ev.id->time,
					ev.comm->comm,
					ev.misc & SKD_MISC_COMM_EXEC);
		} else if (ev.type == SKD_REC_FORK) {
			comm = skd_profile_comm(p, ev.task->ppid,
						ev.task->ptid, ev.id->time);
			ret = comm ? comm_push(p, ev.id->tid, ev.id->time,
					       comm, false) : 0;
		} else {
			ret = 0;
		}
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The capture's kernel symbols. Without them (and without the kernel's
 * build-id, which native captures do not carry) kernel frames stay
 * addresses: this machine's /proc/kallsyms may be another kernel's.
 */
static int load_kernel_symbols(struct skd_profile *p)
{
	p->syms = skd_symbolizer_new(NULL);
	if (!p->syms)
		return -ENOMEM;
	return skd_symbolizer_set_kernel(p->syms, p->ksyms, p->nr_ksyms,
					 p->kernel_build_id);
}

int skd_profile_load(const char *path, struct skd_profile **out, char *err,
		     size_t errlen)
{
	const struct skd_rec_header *h;
	struct skd_profile *p;
	size_t off, bad = 0;
	int ret;

	p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* perf.data first; anything else is tried as a native capture. */
	ret = skd_perf_capture_open(path, &p->cap, err, errlen);
	if (ret == -ENOMSG) {
		p->totals.native = true;
		ret = skd_capture_open(path, &p->cap, err, errlen);
		if (ret == -EINVAL && strstr(err, "no SKIDLESS magic"))
			snprintf(err, errlen, "%s is neither a perf.data nor a "
				 "skidless capture (no PERFILE2 or SKIDLESS "
				 "magic): give the file record wrote (-i)",
				 path);
	}
	if (ret)
		goto err_free;

	off = p->cap.first;
	while ((h = skd_capture_next(&p->cap, &off, &bad))) {
		ret = add_record(p, h);
		if (ret) {
			snprintf(err, errlen, "out of memory loading %s", path);
			goto err_free;
		}
	}
	if (!bad)
		bad = p->cap.bad_at;	/* where a perf.data's records went bad */
	if (bad) {
		p->totals.corrupt = true;
		p->totals.bad_offset = bad;
	}

	sort(p->samples, p->nr_samples, sizeof(*p->samples), by_time);
	sort(p->other, p->nr_other, sizeof(*p->other), by_time);
	skd_hmap_each(&p->procs, sort_proc, NULL);
	ret = build_comms(p);
	if (!ret)
		ret = load_kernel_symbols(p);
	if (ret) {
		snprintf(err, errlen, "out of memory loading %s", path);
		ret = -ENOMEM;
		goto err_free;
	}
	*out = p;
	return 0;

err_free:
	skd_profile_free(p);
	return ret;
}

static void free_proc(uint64_t key, void *val, void *arg)
{
	struct proc *pr = val;
	size_t i;

	(void)key;
	(void)arg;
	for (i = 0; i < pr->nr_snaps; i++)
		free(pr->snaps[i].maps.v);	/* paths are p->paths' */
	free(pr->snaps);
	free(pr->execs);
	free(pr->flat);
	free(pr);
}

static void free_thread(uint64_t key, void *val, void *arg)
{
	struct thread *th = val;

	(void)key;
	(void)arg;
	free(th->v);
	free(th);
}

void skd_profile_free(struct skd_profile *p)
{
	if (!p)
		return;
	skd_hmap_each(&p->procs, free_proc, NULL);
	skd_hmap_free(&p->procs);
	skd_hmap_each(&p->threads, free_thread, NULL);
	skd_hmap_free(&p->threads);
	skd_hmap_free(&p->build_ids);
	skd_hmap_each(&p->paths, free_paths, NULL);
	skd_hmap_free(&p->paths);
	skd_symbolizer_free(p->syms);
	if (p->unwinder)
		skd_unwinder_free(p->unwinder);
	free(p->memo);
	free(p->ksyms);
	free(p->samples);
	free(p->other);
	skd_capture_close(&p->cap);
	free(p);
}

const struct skd_profile_totals *skd_profile_totals(const struct skd_profile *p)
{
	return &p->totals;
}

const char *skd_profile_session_string(const struct skd_profile *p,
				       unsigned int i)
{
	return p->session ? skd_frec_session_string(p->session, i) : "";
}

size_t skd_profile_nr_samples(const struct skd_profile *p)
{
	return p->nr_samples;
}

void skd_profile_sample(const struct skd_profile *p, size_t i,
			struct skd_event *ev)
{
	const struct skd_rec_header *h = p->samples[i].hdr;

	skd_decode(h, h->size, ev);
}

size_t skd_profile_nr_other(const struct skd_profile *p)
{
	return p->nr_other;
}

void skd_profile_other(const struct skd_profile *p, size_t i,
		       struct skd_event *ev)
{
	const struct skd_rec_header *h = p->other[i].hdr;

	skd_decode(h, h->size, ev);
}

void skd_profile_walk(struct skd_profile *p, bool others, skd_profile_fn fn,
		      void *arg)
{
	size_t i = 0, j = 0, ns = skd_profile_nr_samples(p);
	size_t no = others ? skd_profile_nr_other(p) : 0;
	struct skd_event ev, other;

	while (i < ns || j < no) {
		if (i < ns)
			skd_profile_sample(p, i, &ev);
		if (j < no)
			skd_profile_other(p, j, &other);
		if (j < no && (i >= ns || other.id->time < ev.id->time)) {
			fn(p, &other, arg);
			j++;
		} else {
			fn(p, &ev, arg);
			i++;
		}
	}
}

const char *skd_profile_event_name(const struct skd_profile *p,
				   unsigned int index)
{
	if (index >= SKD_MAX_EVENTS || !p->event_names[index])
		return "";
	return p->event_names[index];
}

/* An LBR call stack stands in for the call chain when there is none. */
static bool lbr_chain(const struct skd_event *ev)
{
	return !ev->sample.nr && ev->sample.branches &&
	       (ev->sample.branch_flags & SKD_BR_CALL_STACK);
}

/* A sample whose user part is unwound from its stack copy (DWARF). */
static bool dwarf_chain(const struct skd_event *ev)
{
	return ev->sample.ustack && ev->sample.ustack->abi != SKD_USER_ABI_NONE;
}

/*
 * The process's code mappings at @time, for the unwinder: the latest at
 * each address from those known before @time, then later ones (maps read
 * at the start describe code mapped before it), same exec image only.
 */
static size_t maps_at(const struct skd_profile *p, uint32_t pid,
		      uint64_t time, struct skd_unwind_map *out, size_t max)
{
	const struct proc *pr = skd_hmap_get(&p->procs, pid);
	size_t i, j, k, n = 0;
	unsigned int pass;
	uint32_t gen;

	if (!pr)
		return 0;
	gen = generation(pr, time);
	for (pass = 0; pass < 2; pass++) {
		for (i = pr->nr_snaps; i--;) {
			const struct snapshot *s = &pr->snaps[i];

			if (s->gen != gen || (s->time > time) != pass)
				continue;
			for (j = 0; j < s->maps.n && n < max; j++) {
				const struct skd_map *m = &s->maps.v[j];

				for (k = 0; k < n; k++)
					if (m->start < out[k].start + out[k].len &&
					    out[k].start < m->end)
						break;
				if (k < n || !m->path[0])
					continue;
				out[n++] = (struct skd_unwind_map){
					.path = m->path, .start = m->start,
					.len = m->end - m->start,
					.pgoff = m->pgoff,
					.build_id = build_id_of(p, m->path) };
			}
		}
	}
	return n;
}

/*
 * The user frames of a DWARF sample, unwound once and kept for the calls
 * that name its frames one by one.
 */
static void unwind_user(struct skd_profile *p, const struct skd_event *ev)
{
	struct skd_unwind_map *maps = p->uw_maps;
	uint64_t regs[SKD_UREG_NR];
	const struct proc *pr;
	char err[256];
	size_t n;
	int ret;

	if (p->uw_key == ev->hdr)
		return;
	p->uw_key = ev->hdr;
	p->uw_n = 0;
	if (!p->unwinder) {
		p->unwinder = skd_unwinder_new(NULL);
		if (!p->unwinder)
			return;
	}
	n = maps_at(p, ev->id->pid, ev->id->time, maps, UNWIND_MAX_MAPS);
	_Static_assert(sizeof(regs) == sizeof(ev->sample.ustack->regs),
		       "perf's register set");
	memcpy(regs, ev->sample.ustack->regs, sizeof(regs));
	pr = skd_hmap_get(&p->procs, ev->id->pid);
	ret = skd_unwind_dwarf(p->unwinder,
			       (uint64_t)ev->id->pid << 32 |
			       (pr ? generation(pr, ev->id->time) : 0),
			       regs, ev->sample.stack,
			       ev->sample.ustack->size, maps, n, p->uw_ips,
			       SKD_MAX_CALLCHAIN, err, sizeof(err));
	if (ret > 0)
		p->uw_n = (unsigned int)ret;
	else
		p->uw_failed++;
}

/* Kernel frames of the chain, if any, then the user part. */
static unsigned int kernel_frames(const struct skd_event *ev)
{
	return ev->sample.ips ? ev->sample.nr_kernel : 0;
}

unsigned int skd_profile_nr_frames(struct skd_profile *p,
				   const struct skd_event *ev)
{
	if (dwarf_chain(ev)) {
		unwind_user(p, ev);
		if (p->uw_n)
			return kernel_frames(ev) + p->uw_n;
	}
	if (ev->sample.nr)
		return ev->sample.nr;
	if (lbr_chain(ev))
		return 1 + ev->sample.nr_branches;
	return 1;
}

const char *skd_profile_comm(const struct skd_profile *p, uint32_t pid,
			     uint32_t tid, uint64_t time)
{
	const struct thread *th = skd_hmap_get(&p->threads, tid);
	size_t lo, hi;

	if (!th || !th->n) {
		th = tid != pid ? skd_hmap_get(&p->threads, pid) : NULL;
		if (!th || !th->n)
			return NULL;
	}
	/*
	 * Last name given at or before @time; else the first one known,
	 * unless exec gave it: the thread ran something else before.
	 */
	lo = 0;
	hi = th->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (th->v[mid].time <= time)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo && th->v[0].exec)
		return NULL;
	return th->v[lo ? lo - 1 : 0].comm;
}

/* Snapshots of @pr taken at or before @time (they are sorted by time). */
static size_t snaps_before(const struct proc *pr, uint64_t time)
{
	size_t lo = 0, hi = pr->nr_snaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pr->snaps[mid].time <= time)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The reading of @pr's maps that best describes @ip at a time after
 * @before of its snapshots, in exec generation @gen.
 */
static const struct skd_map *find_map_in(const struct proc *pr, size_t before,
					 uint32_t gen, uint64_t ip)
{
	const struct skd_map *m, *fallback = NULL;
	size_t i, lo, hi;

	if (pr->flat) {
		/* No overlaps: the one mapping there is every rule's answer. */
		lo = 0;
		hi = pr->nr_flat;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (pr->flat[mid]->start <= ip)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo && ip < pr->flat[lo - 1]->end ? pr->flat[lo - 1] : NULL;
	}
	/* Same image, latest reading before the sample, then later ones. */
	for (i = before; i--;) {
		const struct snapshot *s = &pr->snaps[i];

		m = skd_maps_find(&s->maps, ip);
		if (m && s->gen == gen)
			return m;
		if (m && !fallback)
			fallback = m;
	}
	for (i = before; i < pr->nr_snaps; i++) {
		const struct snapshot *s = &pr->snaps[i];

		m = skd_maps_find(&s->maps, ip);
		if (m && s->gen == gen)
			return m;
		if (m && !fallback)
			fallback = m;
	}
	return fallback;
}

/* p->at for @pid at @time: computed once for all frames of a sample. */
static void maps_context(struct skd_profile *p, uint32_t pid, uint64_t time)
{
	const struct proc *pr;

	if (p->at.valid && p->at.pid == pid && p->at.time == time)
		return;
	pr = skd_hmap_get(&p->procs, pid);
	p->at.valid = true;
	p->at.pid = pid;
	p->at.time = time;
	p->at.pr = pr;
	p->at.gen = pr ? generation(pr, time) : 0;
	p->at.before = pr ? snaps_before(pr, time) : 0;
}

/*
 * The reading of @pid's maps that best describes @ip at @time; through
 * the forks: a child that has not exec'd yet runs code its parent mapped
 * before the fork, which no record of the child names.
 */
static const struct skd_map *find_map(struct skd_profile *p, uint32_t pid,
				      uint64_t ip, uint64_t time)
{
	const struct skd_map *m = NULL;
	const struct proc *pr;
	unsigned int depth;
	uint32_t gen;

	maps_context(p, pid, time);
	pr = p->at.pr;
	if (!pr)
		return NULL;
	m = find_map_in(pr, p->at.before, p->at.gen, ip);
	gen = p->at.gen;
	for (depth = 0; !m && depth < 32; depth++) {
		if (!pr->forked || gen || pr->parent == pid)
			break;
		time = pr->fork_time;
		pid = pr->parent;
		pr = skd_hmap_get(&p->procs, pid);
		if (!pr)
			break;
		gen = generation(pr, time);
		m = find_map_in(pr, snaps_before(pr, time), gen, ip);
	}
	return m;
}

/* Name @ip in the process and time of @ev; @lookup is the address to look up. */
static void resolve_uncached(struct skd_profile *p,
			     const struct skd_event *ev, uint64_t ip,
			     uint64_t lookup, struct skd_frame *f)
{
	const struct skd_map *map;
	struct path_entry *pe;
	struct skd_symbol sym;

	memset(f, 0, sizeof(*f));
	f->ip = ip;
	f->dso = "[unknown]";
	f->path = "";
	if (skd_is_kernel_addr(ip)) {
		f->kernel = true;
		f->dso = "[kernel.kallsyms]";
		f->path = f->dso;
		f->build_id = p->kernel_build_id;
		f->map_start = 0xffff800000000000ULL;
		f->map_end = UINT64_MAX;
		skd_symbolize_kernel(p->syms, ip, lookup, &sym);
	} else {
		/* A return address may sit just past the end of its mapping. */
		map = find_map(p, ev->id->pid, lookup, ev->id->time);
		if (!map)
			return;
		pe = PATH_ENTRY(map->path);
		if (!pe->bid_known) {
			pe->bid = build_id_of(p, pe->path);
			pe->bid_known = true;
		}
		f->dso = map->path[0] ? pe->base : "[anon]";
		f->path = map->path;
		f->build_id = pe->bid;
		f->map_start = map->start;
		f->map_end = map->end;
		f->map_pgoff = map->pgoff;
		skd_symbolize_user(p->syms, ev->id->pid, map->path, map->start,
				   map->pgoff, pe->bid, ip, lookup, &sym);
	}
	f->sym = sym.name;
	f->off = sym.name ? sym.off : 0;
	f->file = sym.file;
	f->line = sym.line;
	f->nr_inline = sym.nr_inline;
	f->inl = sym.inl;
}

static void resolve(struct skd_profile *p, const struct skd_event *ev,
		    uint64_t ip, uint64_t lookup, struct skd_frame *f)
{
	struct frame_memo key = { .lookup = lookup,
				  .delta = (uint8_t)(ip - lookup) }, *m;
	uint64_t h;

	if (skd_is_kernel_addr(ip)) {
		key.pr = p;
	} else {
		maps_context(p, ev->id->pid, ev->id->time);
		key.pr = p->at.pr;
		if (key.pr && !p->at.pr->flat) {
			key.before = (uint32_t)p->at.before;
			key.gen = p->at.gen;
		}
	}
	if (!key.pr || ip - lookup > 1 ||
	    (!p->memo && !(p->memo = calloc(MEMO_SIZE, sizeof(*p->memo))))) {
		resolve_uncached(p, ev, ip, lookup, f);
		return;
	}
	h = (lookup ^ (uintptr_t)key.pr * 0x9e3779b97f4a7c15ULL ^
	     (uint64_t)key.before << 40 ^ (uint64_t)key.gen << 20 ^ key.delta) *
	    0xff51afd7ed558ccdULL;
	m = &p->memo[h >> 48 & (MEMO_SIZE - 1)];
	if (m->pr == key.pr && m->lookup == lookup && m->delta == key.delta &&
	    m->before == key.before && m->gen == key.gen) {
		*f = m->f;
		f->ip = ip;
		return;
	}
	resolve_uncached(p, ev, ip, lookup, f);
	key.f = *f;
	*m = key;
}

void skd_profile_frame(struct skd_profile *p, const struct skd_event *ev,
		       unsigned int i, struct skd_frame *f)
{
	bool return_address;
	uint64_t ip;

	if (dwarf_chain(ev) && i >= kernel_frames(ev)) {
		unwind_user(p, ev);
		if (p->uw_n) {
			unsigned int u = i - kernel_frames(ev);

			/* uw_ips[0] is the user ip, the rest return addresses. */
			ip = p->uw_ips[u < p->uw_n ? u : 0];
			resolve(p, ev, ip, ip - (u && !p->exact_returns ? 1 : 0),
				f);
			return;
		}
	}
	if (lbr_chain(ev) && i) {
		/* A call site is the call instruction itself: no adjustment. */
		ip = ev->sample.branches[i - 1].from;
		return_address = false;
	} else {
		ip = ev->sample.ips ? ev->sample.ips[i] : ev->sample.rec->ip;
		/*
		 * Callers' entries are return addresses: look up the byte
		 * before, so a call that ends its function is charged to it.
		 */
		return_address = i != 0 && i != ev->sample.nr_kernel &&
				 !p->exact_returns;
	}
	resolve(p, ev, ip, ip - (return_address ? 1 : 0), f);
}

int skd_profile_object(struct skd_profile *p, const struct skd_event *ev,
		       uint64_t addr, struct skd_object *o)
{
	const struct skd_map *map;

	if (skd_is_kernel_addr(addr))
		return -ENOENT;
	map = find_map(p, ev->id->pid, addr, ev->id->time);
	if (!map || addr < map->start || addr >= map->end)
		return -ENOENT;
	o->path = map->path;
	o->build_id = build_id_of(p, map->path);
	o->file_offset = skd_map_file_offset(map, addr);
	return 0;
}

uint64_t skd_profile_callers_key(struct skd_profile *p,
				 const struct skd_event *ev)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	unsigned int i;

	if (dwarf_chain(ev) || !ev->sample.ips || ev->sample.nr < 2)
		return 0;
	maps_context(p, ev->id->pid, ev->id->time);
	if (!p->at.pr)
		return 0;
	/* The names depend on the maps' state unless the process is flat. */
	h = (h ^ (uintptr_t)p->at.pr) * 0x100000001b3ULL;
	if (!p->at.pr->flat)
		h = (h ^ ((uint64_t)p->at.before << 32 | p->at.gen)) *
		    0x100000001b3ULL;
	h = (h ^ ((uint64_t)ev->sample.nr << 16 | ev->sample.nr_kernel |
		  (uint64_t)p->exact_returns << 40)) * 0x100000001b3ULL;
	for (i = 1; i < ev->sample.nr; i++)
		h = (h ^ ev->sample.ips[i]) * 0x100000001b3ULL;
	return h | 1;	/* never 0 */
}

void skd_profile_set_exact_returns(struct skd_profile *p, bool exact)
{
	p->exact_returns = exact;
}

void skd_profile_set_lines(struct skd_profile *p, bool lines)
{
	skd_symbolizer_set_lines(p->syms, lines);
	/* Frames named before had lines, or had not. */
	if (p->memo)
		memset(p->memo, 0, MEMO_SIZE * sizeof(*p->memo));
}

void skd_profile_addr(struct skd_profile *p, const struct skd_event *ev,
		      uint64_t addr, struct skd_frame *f)
{
	resolve(p, ev, addr, addr, f);
}
