// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "buildid.h"
#include "buildid_cache.h"
#include "capture.h"
#include "decode.h"
#include "hmap.h"
#include "perfdata_conv.h"
#include "perfdata_host.h"
#include "perfdata_write.h"
#include "record_output.h"
#include "record_pmu.h"
#include "subcommands.h"
#include "symbols.h"

/* A user mapping we described, for the build-ids of those hit. */
struct omap {
	uint64_t start, end;
	uint32_t maj, min;
	uint64_t ino;
	char *path;
	bool hit;
};

struct pidmaps {
	struct omap *v;
	size_t n, cap;
	size_t last;		/* index of the latest hit: samples cluster */
};

struct record_output {
	enum record_format format;
	char *path;		/* final name; NULL in pipe mode */
	char *tmp;		/* temporary name */
	int fd;
	struct skd_capture_writer *out;
	struct pd_conv *conv;
	struct pd_writer *w;
	int argc;
	char *const *argv;

	uint64_t last_time;	/* latest kernel record seen */
	uint64_t first_sample, last_sample;
	bool branches;
	bool kernel_hit;
	struct skd_hmap maps;	/* pid -> struct pidmaps */
	uint64_t lost_unreported;
	uint64_t unconverted;	/* malformed records */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ---- build-id bookkeeping ---- */

static void note_map(struct record_output *o, const struct pd_map *m)
{
	struct pidmaps *pm = skd_hmap_get_or_new(&o->maps, m->pid,
						 sizeof(*pm));
	struct omap *e;

	/* //anon and the like have no object to name them by. */
	if (!pm || (m->path[0] != '/' && strcmp(m->path, SKD_VDSO_NAME)))
		return;
	if (pm->n == pm->cap) {
		size_t cap = pm->cap ? pm->cap * 2 : 16;

		e = realloc(pm->v, cap * sizeof(*e));
		if (!e)
			return;
		pm->v = e;
		pm->cap = cap;
	}
	e = &pm->v[pm->n];
	*e = (struct omap){ m->start, m->start + m->len, m->maj, m->min,
			    m->ino, strdup(m->path), false };
	if (e->path)
		pm->n++;
	/*
	 * The latest hit may lie under this new mapping (an exec of another
	 * program mapped at the same address): look again at the next hit.
	 */
	pm->last = SIZE_MAX;
}

/*
 * A new process starts with its parent's mappings, which no MMAP record
 * repeats (fork maps nothing): copy them, as perf does at
 * PERF_RECORD_FORK, so its samples find their objects. A new thread
 * shares its process's list already (keyed by tgid).
 */
static void fork_maps(struct record_output *o, uint32_t child,
		      uint32_t parent)
{
	struct pidmaps *pp, *pc;
	size_t i;

	pp = skd_hmap_get(&o->maps, parent);
	if (child == parent || !pp || !pp->n)
		return;
	pc = skd_hmap_get_or_new(&o->maps, child, sizeof(*pc));
	if (!pc)
		return;
	for (i = 0; i < pp->n; i++) {
		struct pd_map m = { .pid = child, .start = pp->v[i].start,
				    .len = pp->v[i].end - pp->v[i].start,
				    .maj = pp->v[i].maj, .min = pp->v[i].min,
				    .ino = pp->v[i].ino,
				    .path = pp->v[i].path };

		note_map(o, &m);
	}
}

/* Mark the object @addr falls in: its build-id goes into the file. */
static void hit(struct record_output *o, struct pidmaps *pm, uint64_t addr)
{
	size_t i;

	if (skd_is_kernel_addr(addr)) {
		o->kernel_hit = true;
		return;
	}
	if (!pm)
		return;
	if (pm->last < pm->n && addr >= pm->v[pm->last].start &&
	    addr < pm->v[pm->last].end)
		return;		/* marked when it became the last */
	/* Latest first: a later mapping replaces an earlier one. */
	for (i = pm->n; i--;) {
		if (addr >= pm->v[i].start && addr < pm->v[i].end) {
			pm->v[i].hit = true;
			pm->last = i;
			return;
		}
	}
}

static void note_sample(struct record_output *o, const struct skd_event *ev)
{
	struct pidmaps *pm = skd_hmap_get(&o->maps, ev->id->pid);
	unsigned int i;

	if (pm && !pm->n)
		pm = NULL;
	if (!o->first_sample || ev->id->time < o->first_sample)
		o->first_sample = ev->id->time;
	if (ev->id->time > o->last_sample)
		o->last_sample = ev->id->time;
	hit(o, pm, ev->sample.rec->ip);
	for (i = 0; ev->sample.ips && i < ev->sample.nr; i++)
		hit(o, pm, ev->sample.ips[i]);
	for (i = 0; ev->sample.branches && i < ev->sample.nr_branches; i++) {
		hit(o, pm, ev->sample.branches[i].from);
		hit(o, pm, ev->sample.branches[i].to);
	}
}

struct bid_ctx {
	struct pd_buf *b;
	struct skd_hmap *seen;	/* path hash -> 1 */
	unsigned int mismatched;
	unsigned int cache_warned;
};

/* The file must still be the one mapped: same device and inode. */
static void build_id_of(struct bid_ctx *ctx, const struct omap *m)
{
	uint64_t key = skd_hash_str(SKD_HASH_INIT, m->path);
	char hex[SKD_BUILD_ID_HEX], err[256];
	uint8_t id[20];
	struct stat st;
	int len;

	if (skd_hmap_has(ctx->seen, key))
		return;
	skd_hmap_put(ctx->seen, key, ctx);
	/* Every process has the kernel's one vdso image: ours is theirs. */
	if (m->path[0] != '/') {
		if (skd_buildid_cache_add(NULL, SKD_VDSO_NAME, NULL, hex, err,
					  sizeof(err)) >= 0 &&
		    (len = skd_build_id_bytes(hex, id, sizeof(id))) > 0)
			pd_build_id_entry(ctx->b, PD_MISC_USER, id,
					  (uint8_t)len, m->path);
		return;
	}
	if (stat(m->path, &st) || (m->ino && (st.st_ino != m->ino ||
	    major(st.st_dev) != m->maj || minor(st.st_dev) != m->min))) {
		ctx->mismatched++;
		return;
	}
	/*
	 * Into the build-id cache, as perf record does, so the capture can
	 * be reported after the file is rebuilt; without a cache (no HOME,
	 * read-only), the id alone.
	 */
	if (skd_buildid_cache_add(NULL, m->path, NULL, hex, err,
				  sizeof(err)) < 0) {
		if (!ctx->cache_warned++)
			fprintf(stderr, "skidless: %s\n", err);
		if (skd_build_id_file(m->path, hex, sizeof(hex)) <= 0)
			return;
	}
	len = skd_build_id_bytes(hex, id, sizeof(id));
	if (len > 0)
		pd_build_id_entry(ctx->b, PD_MISC_USER, id, (uint8_t)len,
				  m->path);
}

static void build_ids_of_pid(uint64_t key, void *val, void *arg)
{
	struct pidmaps *pm = val;
	size_t i;

	(void)key;
	for (i = 0; i < pm->n; i++)
		if (pm->v[i].hit)
			build_id_of(arg, &pm->v[i]);
}

static void free_pid(uint64_t key, void *val, void *arg)
{
	struct pidmaps *pm = val;
	size_t i;

	(void)key;
	(void)arg;
	for (i = 0; i < pm->n; i++)
		free(pm->v[i].path);
	free(pm->v);
	free(pm);
}

/* ---- the sink: native records in, perf records out ---- */

static void put(struct record_output *o, const struct pd_header *h, int err)
{
	if (h)
		pd_writer_put(o->w, h);
	else if (err)
		o->unconverted++;
}

/* A kernel record, decoded, into perf.data. */
static void convert(struct record_output *o, const struct skd_event *ev)
{
	int err = 0;

	if (!ev->id) {
		o->unconverted++;
		return;
	}
	if (!(ev->hdr->misc & SKD_MISC_SYNTHESIZED) &&
	    ev->id->time > o->last_time)
		o->last_time = ev->id->time;
	if (ev->type == SKD_REC_SAMPLE)
		note_sample(o, ev);
	if (ev->type == SKD_REC_MMAP) {
		const struct skd_rec_mmap *mm = ev->mmap.rec;
		struct pd_map pm = { .pid = ev->id->pid, .start = mm->start,
				     .len = mm->len, .maj = mm->maj,
				     .min = mm->min, .ino = mm->ino,
				     .path = ev->mmap.path };

		note_map(o, &pm);
	}
	if (ev->type == SKD_REC_FORK)
		fork_maps(o, ev->id->pid, ev->task->ppid);
	put(o, pd_conv_record(o->conv, ev, &err), err);
}

static void from_kernel(struct record_output *o, const struct skd_rec_header *h)
{
	struct skd_event ev;

	if (skd_decode(h, h->size, &ev) < 0) {
		o->unconverted++;
		return;
	}
	convert(o, &ev);
}

void record_output_put(struct record_output *o,
		       const struct skd_rec_header *h,
		       const struct skd_event *ev)
{
	if (o->format == RECORD_FORMAT_NATIVE)
		skd_capture_put(o->out, h);
	else
		convert(o, ev);
}

static int sink(const struct skd_rec_header *h, void *arg)
{
	struct record_output *o = arg;
	const struct skd_frec_stats *st;

	switch (h->type) {
	case SKD_FREC_STATS:
		st = skd_frec_stats(h);
		if (st)
			o->lost_unreported += st->stats.lost_unreported;
		break;
	case SKD_FREC_SESSION:
	case SKD_FREC_EVENT:
	case SKD_FREC_KSYM:	/* perf reads kallsyms itself */
	case SKD_FREC_FINISHED:
		break;
	default:
		if (h->type < 0x8000)
			from_kernel(o, h);
		break;
	}
	return 0;
}

/* ---- open, commit, abort ---- */

static int open_target(struct record_output *o, const char *path)
{
	const char *slash;
	size_t dirlen;

	if (!strcmp(path, "-")) {
		o->fd = STDOUT_FILENO;
		return 0;
	}
	o->path = strdup(path);
	slash = strrchr(path, '/');
	dirlen = slash ? (size_t)(slash - path + 1) : 0;
	/* Same directory: rename() is atomic and never crosses devices. */
	if (!o->path || asprintf(&o->tmp, "%.*s.%s.XXXXXX", (int)dirlen, path,
				 path + dirlen) < 0) {
		o->tmp = NULL;
		return -ENOMEM;
	}
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0)
		return -errno;
	fchmod(o->fd, 0600);
	return 0;
}

static const char *event_model(const struct record_pmu *rp)
{
	return rp->backend == SKD_BACKEND_TIMER ? NULL : rp->pmu.model_name;
}

static int open_perf(struct record_output *o, const struct record_output_params *p)
{
	const struct record_pmu *rp = p->pmu;
	const char *names[SKD_MAX_EVENTS];
	struct pd_conv_config cc = {
		.backend = p->cfg->backend,
		.cfg_flags = p->cfg->flags,
		.sample = p->cfg->sample_freq,
		.callchain_depth = p->cfg->callchain_depth,
		.branch_sample = p->cfg->branch_sample,
		.user_stack_bytes = p->cfg->size >= SKD_CONFIG_SIZE_VER2 ?
				    p->cfg->user_stack_bytes : 0,
		.model = event_model(rp),
		.inherit = !!(p->cfg->flags & SKD_CFG_PID),
		.nr_events = p->cfg->nr_events,
		.events = rp->events,
		.names = names,
		.no_mem_events = rp->no_mem_events,
	};
	const struct pd_event_spec *specs;
	struct pd_buf desc = { 0 };
	char cpudesc[128];
	unsigned int i, nr;

	for (i = 0; i < rp->nr_events && i < SKD_MAX_EVENTS; i++)
		names[i] = rp->names[i];
	if (!cc.nr_events)
		names[0] = "cpu-clock";
	o->branches = cc.branch_sample != 0;
	o->conv = pd_conv_new(&cc);
	if (!o->conv)
		return -errno;
	specs = pd_conv_events(o->conv, &nr);
	o->w = pd_writer_open(o->fd, o->fd == STDOUT_FILENO, specs, nr);
	if (!o->w)
		return -errno;
	pd_conv_event_desc(o->conv, &desc);
	if (!desc.err)
		pd_writer_feature(o->w, PD_FEAT_EVENT_DESC, desc.p, desc.len);
	pd_buf_free(&desc);
	if (o->branches)
		pd_writer_feature(o->w, PD_FEAT_BRANCH_STACK, NULL, 0);
	/* A model's samples say so: the CPU described is the model. */
	if (p->pmu->backend == SKD_BACKEND_SIM)
		snprintf(cpudesc, sizeof(cpudesc), "%s: %s", PD_SIM_CPUDESC,
			 p->pmu->pmu_name);
	pd_host_features(o->w, p->argc, p->argv,
			 p->pmu->backend == SKD_BACKEND_SIM ? cpudesc : NULL);
	pd_host_kernel_maps(o->w, o->conv);
	/* The drain loop must not wait on the file system while rings fill. */
	if (pd_writer_async(o->w))
		fprintf(stderr, "%s: warning: no writer thread; writing from the "
			"drain loop\n", PROG_NAME);
	o->out = skd_capture_create_sink(sink, o);
	return o->out ? 0 : -ENOMEM;
}

struct record_output *record_output_open(const struct record_output_params *p)
{
	struct record_output *o = calloc(1, sizeof(*o));
	int ret;

	if (!o) {
		fprintf(stderr, "%s: out of memory\n", PROG_NAME);
		return NULL;
	}
	o->fd = -1;
	o->format = p->format;
	ret = open_target(o, p->path);
	if (ret) {
		fprintf(stderr, "%s: cannot create a file next to %s: %s\n",
			PROG_NAME, p->path, strerror(-ret));
		record_output_abort(o);
		return NULL;
	}
	/* A file-size limit must end in EFBIG, handled, not in a signal. */
	signal(SIGXFSZ, SIG_IGN);
	if (p->format == RECORD_FORMAT_NATIVE) {
		if (o->fd == STDOUT_FILENO) {
			fprintf(stderr, "%s: -o - streams perf.data; the native "
				"format needs a file (--format native -o FILE)\n",
				PROG_NAME);
			record_output_abort(o);
			return NULL;
		}
		close(o->fd);
		o->fd = -1;
		o->out = skd_capture_create(o->tmp);
		ret = o->out ? 0 : -errno;
	} else {
		ret = open_perf(o, p);
	}
	if (ret) {
		fprintf(stderr, "%s: cannot write %s: %s\n", PROG_NAME,
			p->path, strerror(-ret));
		record_output_abort(o);
		return NULL;
	}
	return o;
}

struct skd_capture_writer *record_output_writer(struct record_output *o)
{
	return o->out;
}

void record_output_round(struct record_output *o)
{
	struct pd_header h = { PD_REC_FINISHED_ROUND, 0, sizeof(h) };

	if (o->w)
		pd_writer_put(o->w, &h);
}

static void put_features_at_end(struct record_output *o)
{
	struct bid_ctx ctx = { 0 };
	struct skd_hmap seen = { 0 };
	struct pd_buf b = { 0 };
	uint64_t t[2] = { o->first_sample, o->last_sample };

	pd_writer_feature(o->w, PD_FEAT_SAMPLE_TIME, t, sizeof(t));
	if (o->kernel_hit)
		pd_host_kernel_build_id(&b);
	ctx.b = &b;
	ctx.seen = &seen;
	skd_hmap_each(&o->maps, build_ids_of_pid, &ctx);
	skd_hmap_free(&seen);
	if (!b.err && b.len)
		pd_writer_feature(o->w, PD_FEAT_BUILD_ID, b.p, b.len);
	pd_buf_free(&b);
	if (ctx.mismatched)
		fprintf(stderr, "%s: %u mapped files changed on disk since they "
			"were mapped: their build-ids are not recorded\n",
			PROG_NAME, ctx.mismatched);
}

/* LOST for what the kernel dropped but never got to say in the stream. */
static void put_unreported_lost(struct record_output *o)
{
	struct skd_rec_lost rec = {
		.hdr = { SKD_REC_LOST, 0, sizeof(rec) },
		.id = { .time = o->last_time },
		.lost = o->lost_unreported,
	};
	struct skd_event ev;
	int err = 0;

	if (!o->lost_unreported)
		return;
	skd_decode(&rec, sizeof(rec), &ev);
	put(o, pd_conv_record(o->conv, &ev, &err), err);
}

/* Finish the perf.data; *cut: the disk filled, the file ends early. */
static int commit_perf(struct record_output *o, bool *cut)
{
	struct pd_writer_result res = { 0 };
	int ret;

	put_unreported_lost(o);
	put_features_at_end(o);
	ret = pd_writer_close(o->w, &res);
	o->w = NULL;
	if (o->unconverted)
		fprintf(stderr, "%s: warning: %lu records could not be "
			"converted to perf records and were left out: please "
			"report this bug\n", PROG_NAME,
			(unsigned long)o->unconverted);
	*cut = ret && res.truncated;
	if (!ret)
		return 0;
	if (res.truncated) {
		fprintf(stderr, "%s: writing %s: %s: the file is cut short: it "
			"holds %lu records; the %lu after them are counted in a "
			"final PERF_RECORD_LOST (perf reports them as lost). "
			"Free space and record again for a whole profile.\n",
			PROG_NAME, o->path ? o->path : "stdout",
			strerror(-res.err), (unsigned long)res.records,
			(unsigned long)res.lost);
		return ret;
	}
	fprintf(stderr, "%s: writing %s failed: %s%s\n", PROG_NAME,
		o->path ? o->path : "stdout", strerror(-ret),
		o->path ? "; the previous capture, if any, is untouched" : "");
	return ret;
}

/* FILE becomes FILE.old, as perf does, then the new one takes its name. */
static int put_in_place(struct record_output *o)
{
	char *old;
	int ret = 0;

	if (fsync(o->fd) && errno != EINVAL)
		ret = -errno;
	if (asprintf(&old, "%s.old", o->path) < 0)
		return -ENOMEM;
	if (!access(o->path, F_OK) && rename(o->path, old))
		ret = ret ? ret : -errno;
	free(old);
	if (!ret && rename(o->tmp, o->path))
		ret = -errno;
	if (ret)
		fprintf(stderr, "%s: the capture is in %s: moving it to %s "
			"failed: %s\n", PROG_NAME, o->tmp, o->path,
			strerror(-ret));
	return ret;
}

static void free_output(struct record_output *o)
{
	if (o->fd >= 0 && o->fd != STDOUT_FILENO)
		close(o->fd);
	pd_conv_free(o->conv);
	skd_hmap_each(&o->maps, free_pid, NULL);
	skd_hmap_free(&o->maps);
	free(o->path);
	free(o->tmp);
	free(o);
}

int record_output_commit(struct record_output *o)
{
	int ret, placed = 0;
	bool cut = false;

	if (o->format == RECORD_FORMAT_NATIVE) {
		ret = skd_capture_finish(o->out, mono_ns());
		o->out = NULL;
		o->fd = open(o->tmp, O_RDONLY | O_CLOEXEC);
		if (ret)
			fprintf(stderr, "%s: writing %s failed: %s\n",
				PROG_NAME, o->path, strerror(-ret));
	} else {
		skd_capture_finish(o->out, 0);
		o->out = NULL;
		ret = commit_perf(o, &cut);
	}
	/*
	 * A perf.data cut short by a full disk is still a readable file:
	 * keep it. Any other failure leaves bytes nobody can trust.
	 */
	if (o->path && (!ret || cut))
		placed = put_in_place(o);
	else if (o->tmp)
		unlink(o->tmp);
	free_output(o);
	return ret ? ret : placed;
}

void record_output_abort(struct record_output *o)
{
	if (!o)
		return;
	if (o->out)
		skd_capture_finish(o->out, 0);
	if (o->w)
		pd_writer_close(o->w, NULL);
	if (o->tmp)
		unlink(o->tmp);
	free_output(o);
}
