// SPDX-License-Identifier: GPL-2.0
/*
 * `skidless record`'s output stage, userland/cli/record_output.c, driven
 * as cmd_record.c drives it for the timer backend: kernel records laid out
 * as uapi/skidless.h says, written to record_output_writer(), then the
 * file read back with perfdata_read.c and checked against what we did not
 * write: the record layouts of include/uapi/linux/perf_event.h (the
 * system's), perf's user record types and feature numbers (tools/perf),
 * stat(2) of the mapped objects and their build-ids as `readelf -n`
 * prints them.
 *
 * The objects are two PIEs built by record_output.mk (RO_FX/ro_a, ro_b:
 * two build-ids), copied into a scratch directory so a test may replace
 * one under its recorded inode. HOME is the scratch directory's home/:
 * the build-id cache is $HOME/.debug (buildid_cache.c,
 * skd_buildid_cache_dir()), which record_output.c always uses.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "capture.h"
#include "perfdata_read.h"
#include "record_output.h"
#include "record_pmu.h"
#include "skidless.h"
#include "unit_tmp.h"

/*
 * perf's own numbers, not in the uapi header: user record types
 * (tools/lib/perf/include/perf/event.h, enum perf_user_event_type),
 * header features (tools/perf/util/header.h, HEADER_BUILD_ID), the
 * BUILD_ID feature's entries (struct perf_record_header_build_id) and
 * the pipe-mode file header (struct perf_pipe_file_header).
 */
#define PERF_RECORD_HEADER_BUILD_ID	67
#define PERF_RECORD_FINISHED_ROUND	68
#define HEADER_BUILD_ID			2
#define PERF_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)

struct perf_bid_entry {
	struct perf_event_header header;
	int32_t pid;
	uint8_t data[20];
	uint8_t size;
	uint8_t reserved1[3];
	char filename[];
};

/* PERF_RECORD_MMAP2 as perf_event.h documents it, up to filename. */
struct perf_mmap2 {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	char filename[];
};

/* PERF_RECORD_FORK and _EXIT */
struct perf_task {
	struct perf_event_header header;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

#define PID	7001
#define TID	7002
#define CPU	5
#define T0	5000000000ULL

static char g_dir[4096];	/* scratch: home/, objects, outputs */
static char g_a[4200], g_b[4200];	/* copies of ro_a and ro_b */
static char g_bid_a[41], g_bid_b[41];	/* readelf -n */

/* ---- oracles ---- */

/* The GNU build-id note as `readelf -n` prints it, lower-case hex. */
static int readelf_build_id(const char *path, char *hex, size_t len)
{
	char cmd[4400], line[512], *p;
	FILE *f;
	int ret = -1;

	snprintf(cmd, sizeof(cmd), "LC_ALL=C readelf -n '%s'", path);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, "Build ID: ");
		if (!p)
			continue;
		p += strlen("Build ID: ");
		p[strcspn(p, " \n")] = '\0';
		if (strlen(p) < len) {
			strcpy(hex, p);
			ret = 0;
		}
	}
	pclose(f);
	return ret;
}

static void hex_of(const uint8_t *b, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = '\0';
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	ssize_t n;
	int in, out, ret = 0;

	in = open(from, O_RDONLY);
	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			ret = -1;
	if (n < 0)
		ret = -1;
	close(in);
	close(out);
	return ret;
}

static int read_small(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return (int)n;
}

static int write_small(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static bool same_bytes(const char *p1, const char *p2)
{
	static char b1[1 << 20], b2[1 << 20];
	int fd1 = open(p1, O_RDONLY), fd2 = open(p2, O_RDONLY);
	ssize_t n1 = -1, n2 = -2;

	if (fd1 >= 0 && fd2 >= 0) {
		n1 = read(fd1, b1, sizeof(b1));
		n2 = read(fd2, b2, sizeof(b2));
	}
	if (fd1 >= 0)
		close(fd1);
	if (fd2 >= 0)
		close(fd2);
	return n1 > 0 && n1 == n2 && n1 < (ssize_t)sizeof(b1) &&
	       !memcmp(b1, b2, (size_t)n1);
}

/* Names in @dir, sorted, comma-separated, into @out. */
static void list_dir(const char *dir, char *out, size_t len)
{
	struct dirent **ents;
	int n, i;
	size_t used = 0;

	out[0] = '\0';
	n = scandir(dir, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (strcmp(ents[i]->d_name, ".") && strcmp(ents[i]->d_name, ".."))
			used += (size_t)snprintf(out + used, len - used, "%s%s",
						 used ? "," : "", ents[i]->d_name);
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

/* ---- kernel records, as uapi/skidless.h lays them out ---- */

struct krec {
	_Alignas(8) uint8_t b[4096];
};

static void put(struct record_output *o, const struct krec *r)
{
	assert_int_equal(skd_capture_put(record_output_writer(o), r->b), 0);
}

static void id_fill(struct skd_rec_id *id, uint64_t time, uint32_t pid,
		    uint32_t tid)
{
	id->time = time;
	id->cpu = CPU;
	id->pid = pid;
	id->tid = tid;
}

static void mk_mmap(struct krec *r, uint16_t misc, uint64_t time,
		    uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		    const struct stat *st, const char *path)
{
	struct skd_rec_mmap *m = (void *)r->b;
	size_t n = strlen(path) + 1;

	memset(r, 0, sizeof(*r));
	m->hdr.type = SKD_REC_MMAP;
	m->hdr.misc = misc;
	m->hdr.size = (uint16_t)(sizeof(*m) + ((n + 7) & ~(size_t)7));
	id_fill(&m->id, time, pid, pid);
	m->start = start;
	m->len = len;
	m->pgoff = pgoff;
	if (st) {
		m->maj = major(st->st_dev);
		m->min = minor(st->st_dev);
		m->ino = st->st_ino;
	}
	m->ino_generation = 0;
	m->prot = PROT_READ | PROT_EXEC;
	m->flags = MAP_PRIVATE;
	memcpy(m->path, path, n);
}

static void mk_sample(struct krec *r, uint64_t time, uint32_t pid,
		      uint32_t tid, uint64_t ip)
{
	struct skd_rec_sample *s = (void *)r->b;

	memset(r, 0, sizeof(*r));
	s->hdr.type = SKD_REC_SAMPLE;
	s->hdr.misc = SKD_MISC_USER;
	s->hdr.size = sizeof(*s);
	id_fill(&s->id, time, pid, tid);
	s->ip = ip;
	s->period = 1000000;
}

static void mk_comm(struct krec *r, uint16_t misc, uint64_t time,
		    uint32_t pid, uint32_t tid, const char *comm)
{
	struct skd_rec_comm *c = (void *)r->b;

	memset(r, 0, sizeof(*r));
	c->hdr.type = SKD_REC_COMM;
	c->hdr.misc = misc;
	c->hdr.size = sizeof(*c);
	id_fill(&c->id, time, pid, tid);
	snprintf(c->comm, sizeof(c->comm), "%s", comm);
}

static void mk_task(struct krec *r, uint32_t type, uint64_t time,
		    uint32_t pid, uint32_t tid, uint32_t ppid, uint32_t ptid)
{
	struct skd_rec_task *t = (void *)r->b;

	memset(r, 0, sizeof(*r));
	t->hdr.type = type;
	t->hdr.size = sizeof(*t);
	id_fill(&t->id, time, pid, tid);
	t->ppid = ppid;
	t->ptid = ptid;
}

static void mk_lost(struct krec *r, uint64_t time, uint64_t lost)
{
	struct skd_rec_lost *l = (void *)r->b;

	memset(r, 0, sizeof(*r));
	l->hdr.type = SKD_REC_LOST;
	l->hdr.size = sizeof(*l);
	id_fill(&l->id, time, 0, 0);
	l->lost = lost;
}

static void mk_throttle(struct krec *r, uint32_t type, uint64_t time,
			uint64_t limit)
{
	struct skd_rec_throttle *t = (void *)r->b;

	memset(r, 0, sizeof(*r));
	t->hdr.type = type;
	t->hdr.size = sizeof(*t);
	id_fill(&t->id, time, 0, 0);
	t->limit = limit;
}

/*
 * write(2) with an injected failure: the binary links with
 * -Wl,--wrap=write (record_output.mk), so every write the writer makes
 * comes here. g_write_fail = E fails them all with E.
 */
static int g_write_fail;
/* g_write_stall: writes wait until it is cleared, as on a stuck disk. */
static bool g_write_stall;
static unsigned int g_write_stalled;	/* writes that waited */
static pthread_mutex_t g_stall_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_stall_cond = PTHREAD_COND_INITIALIZER;
ssize_t __real_write(int fd, const void *buf, size_t n);
ssize_t __wrap_write(int fd, const void *buf, size_t n);

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
	if (g_write_fail && fd > STDERR_FILENO) {
		errno = g_write_fail;
		return -1;
	}
	if (fd > STDERR_FILENO) {
		pthread_mutex_lock(&g_stall_lock);
		if (g_write_stall)
			g_write_stalled++;
		while (g_write_stall)
			pthread_cond_wait(&g_stall_cond, &g_stall_lock);
		pthread_mutex_unlock(&g_stall_lock);
	}
	return __real_write(fd, buf, n);
}

static void stall_writes(bool on)
{
	pthread_mutex_lock(&g_stall_lock);
	g_write_stall = on;
	pthread_cond_broadcast(&g_stall_cond);
	pthread_mutex_unlock(&g_stall_lock);
}

/* ---- record_output as cmd_record.c sets it up for the timer ---- */

static struct skd_config g_cfg;
static struct record_pmu g_pmu;
static char *g_argv[] = { "skidless", "record", "-F", "997", NULL };

static struct record_output *ro_open(const char *path)
{
	struct record_output_params p = {
		.path = path, .format = RECORD_FORMAT_PERF,
		.cfg = &g_cfg, .pmu = &g_pmu, .argc = 4, .argv = g_argv,
	};

	/* fill_config() and record_pmu_resolve() for --backend timer */
	memset(&g_cfg, 0, sizeof(g_cfg));
	g_cfg.size = sizeof(g_cfg);
	g_cfg.flags = SKD_CFG_FREQ;
	g_cfg.backend = SKD_BACKEND_TIMER;
	g_cfg.ring_pages = 64;
	g_cfg.sample_freq = 997;
	memset(&g_pmu, 0, sizeof(g_pmu));
	g_pmu.backend = SKD_BACKEND_TIMER;
	snprintf(g_pmu.pmu_name, sizeof(g_pmu.pmu_name), "timer");
	return record_output_open(&p);
}

static void out_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", g_dir, name);
}

static void open_file(const char *path, struct pd_file *f)
{
	char err[512];
	int ret = pd_file_open(path, f, err, sizeof(err));

	if (ret)
		fail_msg("%s: %s", path, err);
}

/* The @nth record of @type of @pid (any pid for UINT32_MAX), or NULL. */
static const struct pd_header *find_rec(const struct pd_file *f,
					uint32_t type, uint32_t pid,
					unsigned int nth)
{
	const struct pd_header *h;
	size_t off = f->data_off, bad = 0;

	while ((h = pd_file_next(f, &off, &bad))) {
		if (h->type != type)
			continue;
		if (pid != UINT32_MAX && type == PERF_RECORD_SAMPLE) {
			struct pd_sample s;

			assert_int_equal(pd_parse_sample(f, h, &s), 0);
			if (s.pid != pid)
				continue;
		} else if (pid != UINT32_MAX &&
			   *(const uint32_t *)(const void *)(h + 1) != pid) {
			continue;	/* sideband: pid comes first */
		}
		if (!nth--)
			return h;
	}
	assert_int_equal(bad, 0);
	return NULL;
}

static unsigned int count_rec(const struct pd_file *f, uint32_t type)
{
	unsigned int n = 0;

	while (find_rec(f, type, UINT32_MAX, n))
		n++;
	return n;
}

/* Entries of the BUILD_ID feature; fills paths/ids up to @max. */
static unsigned int build_ids(const struct pd_file *f, char paths[][4200],
			      char ids[][41], unsigned int max)
{
	const uint8_t *p = f->feat[HEADER_BUILD_ID];
	size_t len = f->feat_len[HEADER_BUILD_ID], off = 0;
	unsigned int n = 0;

	while (p && off + sizeof(struct perf_bid_entry) <= len) {
		const struct perf_bid_entry *e = (const void *)(p + off);

		assert_int_equal(e->header.type, PERF_RECORD_HEADER_BUILD_ID);
		assert_true(e->header.size > sizeof(*e));
		assert_true(off + e->header.size <= len);
		assert_true(e->header.misc & PERF_RECORD_MISC_BUILD_ID_SIZE);
		assert_true(e->size <= 20);
		if (n < max) {
			snprintf(paths[n], 4200, "%.*s",
				 (int)(e->header.size - sizeof(*e)),
				 e->filename);
			hex_of(e->data, e->size, ids[n]);
		}
		n++;
		off += e->header.size;
	}
	/* A pipe's HEADER_FEATURE record pads its payload to 8 bytes. */
	if (f->pipe && len - off < 8 && len % 8 == 0) {
		while (off < len)
			assert_int_equal(p[off++], 0);
	}
	assert_int_equal(off, len);
	return n;
}

static void check_mmap2(const struct pd_file *f, const struct pd_header *h,
			uint32_t pid, uint64_t start, uint64_t len,
			uint64_t pgoff, const struct stat *st,
			const char *path, uint64_t time)
{
	const struct perf_mmap2 *m = (const void *)h;
	size_t body = sizeof(*m) - sizeof(m->header) +
		      ((strlen(path) + 1 + 7) & ~(size_t)7);
	struct pd_sample_id id;

	assert_non_null(h);
	assert_int_equal(m->header.type, PERF_RECORD_MMAP2);
	assert_int_equal(m->header.misc & PERF_RECORD_MISC_CPUMODE_MASK,
			 PERF_RECORD_MISC_USER);
	assert_int_equal(m->pid, pid);
	assert_int_equal(m->tid, pid);
	assert_int_equal(m->addr, start);
	assert_int_equal(m->len, len);
	assert_int_equal(m->pgoff, pgoff);
	assert_int_equal(m->maj, major(st->st_dev));
	assert_int_equal(m->min, minor(st->st_dev));
	assert_int_equal(m->ino, st->st_ino);
	assert_int_equal(m->prot, PROT_READ | PROT_EXEC);
	assert_int_equal(m->flags, MAP_PRIVATE);
	assert_string_equal(m->filename, path);
	assert_int_equal(pd_parse_id(f, h, body, &id), 0);
	assert_true(id.has_time);
	assert_int_equal(id.time, time);
	assert_int_equal(id.pid, pid);
	assert_int_equal(id.tid, pid);
	assert_int_equal(id.cpu, CPU);
}

/* ---- 1. MMAP -> MMAP2 ---- */

static void test_mmap2(void **state)
{
	char path[4200];
	struct record_output *o;
	struct stat sa, sb;
	struct pd_file f;
	struct krec r;

	(void)state;
	assert_int_equal(stat(g_a, &sa), 0);
	assert_int_equal(stat(g_b, &sb), 0);
	out_path(path, sizeof(path), "mmap.data");
	o = ro_open(path);
	assert_non_null(o);
	/* From SKD_IOC_READ_MAPS: a state, time 0 for perf. */
	mk_mmap(&r, SKD_MISC_SYNTHESIZED, T0 + 100, PID, 0x555500001000ULL,
		0x2000, 0x1000, &sa, g_a);
	put(o, &r);
	/* Live: its own time. */
	mk_mmap(&r, 0, T0 + 200, PID + 10, 0x7f0000003000ULL, 0x5000, 0x3000,
		&sb, g_b);
	put(o, &r);
	assert_int_equal(record_output_commit(o), 0);

	open_file(path, &f);
	assert_false(f.pipe);
	assert_true(f.sample_id_all);
	check_mmap2(&f, find_rec(&f, PERF_RECORD_MMAP2, PID, 0), PID,
		    0x555500001000ULL, 0x2000, 0x1000, &sa, g_a, 0);
	check_mmap2(&f, find_rec(&f, PERF_RECORD_MMAP2, PID + 10, 0), PID + 10,
		    0x7f0000003000ULL, 0x5000, 0x3000, &sb, g_b, T0 + 200);
	assert_null(find_rec(&f, PERF_RECORD_MMAP2, PID, 1));
	assert_int_equal(count_rec(&f, PERF_RECORD_MMAP2), 2);
	pd_file_close(&f);
}

/* ---- 2. build-ids of the objects hit, and the cache ---- */

static void cache_entry(const char *obj, const char *bid, char *out,
			size_t len)
{
	snprintf(out, len, "%s/home/.debug%s/%s/elf", g_dir, obj, bid);
}

static void test_build_ids(void **state)
{
	char path[4200], moved[4200], paths[8][4200], ids[8][41], ce[8400];
	char link[8400], target[8400];
	struct record_output *o;
	struct stat sa, sb, sm;
	struct pd_file f;
	struct krec r;
	unsigned int n, i;
	bool saw_a = false;

	(void)state;
	assert_int_equal(stat(g_a, &sa), 0);
	assert_int_equal(stat(g_b, &sb), 0);
	/* A copy of ro_b, mapped, then replaced by another file. */
	snprintf(moved, sizeof(moved), "%s/replaced", g_dir);
	assert_int_equal(copy_file(g_b, moved), 0);
	assert_int_equal(stat(moved, &sm), 0);

	out_path(path, sizeof(path), "bid.data");
	o = ro_open(path);
	assert_non_null(o);
	mk_mmap(&r, SKD_MISC_SYNTHESIZED, T0, PID, 0x555500000000ULL, 0x2000,
		0, &sa, g_a);
	put(o, &r);
	mk_mmap(&r, SKD_MISC_SYNTHESIZED, T0, PID, 0x7f0000000000ULL, 0x2000,
		0, &sb, g_b);		/* mapped, never hit */
	put(o, &r);
	mk_mmap(&r, 0, T0 + 10, PID, 0x7f1000000000ULL, 0x2000, 0, &sm, moved);
	put(o, &r);
	mk_sample(&r, T0 + 20, PID, TID, 0x555500000123ULL);
	put(o, &r);
	mk_sample(&r, T0 + 30, PID, TID, 0x7f1000000456ULL);
	put(o, &r);
	/* A different pid at ro_b's address: not ro_b, which PID mapped. */
	mk_sample(&r, T0 + 40, PID + 1, PID + 1, 0x7f0000000100ULL);
	put(o, &r);
	/* The file at `moved' is now another one: a new inode. */
	{
		char tmp[4300];

		snprintf(tmp, sizeof(tmp), "%s.new", moved);
		assert_int_equal(copy_file(g_b, tmp), 0);
		assert_int_equal(rename(tmp, moved), 0);
	}
	assert_int_equal(record_output_commit(o), 0);

	open_file(path, &f);
	n = build_ids(&f, paths, ids, 8);
	for (i = 0; i < n && i < 8; i++) {
		assert_string_not_equal(paths[i], g_b);
		assert_string_not_equal(paths[i], moved);
		if (!strcmp(paths[i], g_a)) {
			assert_false(saw_a);
			saw_a = true;
			assert_string_equal(ids[i], g_bid_a);
		}
	}
	assert_true(saw_a);
	assert_int_equal(n, 1);	/* no kernel address was hit either */
	/* SAMPLE_TIME: first and last sample. */
	assert_int_equal(f.feat_len[21], 16);
	{
		const uint64_t st[2] = { T0 + 20, T0 + 40 };

		assert_memory_equal(f.feat[21], st, sizeof(st));
	}
	pd_file_close(&f);

	/* perf's cache layout: <dir>/<path>/<id>/elf and .build-id/xx/rest. */
	cache_entry(g_a, g_bid_a, ce, sizeof(ce));
	assert_true(same_bytes(ce, g_a));
	snprintf(link, sizeof(link), "%s/home/.debug/.build-id/%.2s/%s", g_dir,
		 g_bid_a, g_bid_a + 2);
	assert_non_null(realpath(link, target));
	{
		char dir[8400];

		snprintf(dir, sizeof(dir), "%s/home/.debug%s/%s", g_dir, g_a,
			 g_bid_a);
		assert_string_equal(target, dir);
	}
	cache_entry(g_b, g_bid_b, ce, sizeof(ce));
	assert_int_not_equal(access(ce, F_OK), 0);
	cache_entry(moved, g_bid_b, ce, sizeof(ce));
	assert_int_not_equal(access(ce, F_OK), 0);
	unlink(moved);
}

/*
 * The same pid maps ro_a, is sampled there, then execs a program mapped
 * at the very same addresses (two non-PIE programs do): samples after the
 * exec hit the new mapping, ro_b, whose build-id the file must carry.
 */
static void test_build_id_remapped(void **state)
{
	char path[4200], paths[8][4200], ids[8][41];
	struct record_output *o;
	struct stat sa, sb;
	struct pd_file f;
	struct krec r;
	unsigned int n, i, seen = 0;

	(void)state;
	assert_int_equal(stat(g_a, &sa), 0);
	assert_int_equal(stat(g_b, &sb), 0);
	out_path(path, sizeof(path), "remap.data");
	o = ro_open(path);
	assert_non_null(o);
	mk_mmap(&r, 0, T0, PID, 0x400000, 0x2000, 0, &sa, g_a);
	put(o, &r);
	mk_sample(&r, T0 + 1, PID, PID, 0x400010);
	put(o, &r);
	mk_comm(&r, SKD_MISC_COMM_EXEC, T0 + 2, PID, PID, "ro_b");
	put(o, &r);
	mk_mmap(&r, 0, T0 + 3, PID, 0x400000, 0x2000, 0, &sb, g_b);
	put(o, &r);
	mk_sample(&r, T0 + 4, PID, PID, 0x400010);
	put(o, &r);
	assert_int_equal(record_output_commit(o), 0);

	open_file(path, &f);
	n = build_ids(&f, paths, ids, 8);
	for (i = 0; i < n && i < 8; i++) {
		if (!strcmp(paths[i], g_a)) {
			assert_string_equal(ids[i], g_bid_a);
			seen |= 1;
		} else if (!strcmp(paths[i], g_b)) {
			assert_string_equal(ids[i], g_bid_b);
			seen |= 2;
		}
	}
	pd_file_close(&f);
	assert_int_equal(n, 2);
	assert_int_equal(seen, 3);
}

/*
 * A process forked during the record has no MMAP records of its own: it
 * runs its parent's mappings (fork maps nothing; perf clones the parent's
 * maps at PERF_RECORD_FORK). Its samples there hit the parent's objects.
 */
static void test_build_id_forked(void **state)
{
	char path[4200], paths[8][4200], ids[8][41];
	struct record_output *o;
	struct stat sa;
	struct pd_file f;
	struct krec r;
	unsigned int n;

	(void)state;
	assert_int_equal(stat(g_a, &sa), 0);
	out_path(path, sizeof(path), "fork.data");
	o = ro_open(path);
	assert_non_null(o);
	mk_mmap(&r, SKD_MISC_SYNTHESIZED, T0, PID, 0x555500000000ULL, 0x2000,
		0, &sa, g_a);
	put(o, &r);
	/* A new process, PID + 20, then a thread of it, PID + 21. */
	mk_task(&r, SKD_REC_FORK, T0 + 1, PID + 20, PID + 20, PID, PID);
	put(o, &r);
	mk_task(&r, SKD_REC_FORK, T0 + 2, PID + 20, PID + 21, PID + 20,
		PID + 20);
	put(o, &r);
	mk_sample(&r, T0 + 3, PID + 20, PID + 21, 0x555500000040ULL);
	put(o, &r);
	assert_int_equal(record_output_commit(o), 0);

	open_file(path, &f);
	n = build_ids(&f, paths, ids, 8);
	pd_file_close(&f);
	assert_int_equal(n, 1);
	assert_string_equal(paths[0], g_a);
	assert_string_equal(ids[0], g_bid_a);
}

/* ---- 3. COMM, FORK, EXIT, LOST, THROTTLE ---- */

static void check_trailer(const struct pd_file *f, const struct pd_header *h,
			  size_t body, uint32_t pid, uint32_t tid,
			  uint64_t time)
{
	struct pd_sample_id id;

	assert_int_equal(pd_parse_id(f, h, body, &id), 0);
	assert_int_equal(id.pid, pid);
	assert_int_equal(id.tid, tid);
	assert_int_equal(id.time, time);
	assert_int_equal(id.cpu, CPU);
}

static void test_sideband(void **state)
{
	char path[4200];
	struct record_output *o;
	const struct pd_header *h;
	const struct perf_task *t;
	const uint64_t *u;
	struct pd_file f;
	struct krec r;

	(void)state;
	out_path(path, sizeof(path), "side.data");
	o = ro_open(path);
	assert_non_null(o);
	mk_comm(&r, 0, T0 + 1, PID, TID, "before");
	put(o, &r);
	mk_comm(&r, SKD_MISC_COMM_EXEC, T0 + 2, PID, TID, "after-exec");
	put(o, &r);
	mk_task(&r, SKD_REC_FORK, T0 + 3, PID + 5, PID + 5, PID, TID);
	put(o, &r);
	mk_task(&r, SKD_REC_EXIT, T0 + 4, PID + 5, PID + 6, PID + 5, PID + 5);
	put(o, &r);
	mk_lost(&r, T0 + 5, 12345);
	put(o, &r);
	mk_throttle(&r, SKD_REC_THROTTLE, T0 + 6, 100000);
	put(o, &r);
	mk_throttle(&r, SKD_REC_UNTHROTTLE, T0 + 7, 100000);
	put(o, &r);
	assert_int_equal(record_output_commit(o), 0);

	open_file(path, &f);
	/* COMM: { pid, tid, comm[] } */
	h = find_rec(&f, PERF_RECORD_COMM, PID, 0);
	assert_non_null(h);
	assert_int_equal(h->misc & PERF_RECORD_MISC_COMM_EXEC, 0);
	assert_int_equal(((const uint32_t *)(h + 1))[1], TID);
	assert_string_equal((const char *)(h + 1) + 8, "before");
	check_trailer(&f, h, 8 + 8, PID, TID, T0 + 1);
	h = find_rec(&f, PERF_RECORD_COMM, PID, 1);
	assert_non_null(h);
	assert_int_equal(h->misc & PERF_RECORD_MISC_COMM_EXEC,
			 PERF_RECORD_MISC_COMM_EXEC);
	assert_string_equal((const char *)(h + 1) + 8, "after-exec");
	check_trailer(&f, h, 8 + 16, PID, TID, T0 + 2);
	/* FORK, EXIT: { pid, ppid, tid, ptid, time } */
	h = find_rec(&f, PERF_RECORD_FORK, UINT32_MAX, 0);
	assert_non_null(h);
	t = (const void *)h;
	assert_int_equal(t->pid, PID + 5);
	assert_int_equal(t->ppid, PID);
	assert_int_equal(t->tid, PID + 5);
	assert_int_equal(t->ptid, TID);
	assert_int_equal(t->time, T0 + 3);
	check_trailer(&f, h, 24, PID + 5, PID + 5, T0 + 3);
	h = find_rec(&f, PERF_RECORD_EXIT, UINT32_MAX, 0);
	assert_non_null(h);
	t = (const void *)h;
	assert_int_equal(t->pid, PID + 5);
	assert_int_equal(t->ppid, PID + 5);
	assert_int_equal(t->tid, PID + 6);
	assert_int_equal(t->ptid, PID + 5);
	assert_int_equal(t->time, T0 + 4);
	check_trailer(&f, h, 24, PID + 5, PID + 6, T0 + 4);
	/* LOST: { id, lost }; the id is the (only) event's. */
	h = find_rec(&f, PERF_RECORD_LOST, UINT32_MAX, 0);
	assert_non_null(h);
	u = (const uint64_t *)(h + 1);
	assert_int_equal(u[0], f.first_id[0]);
	assert_int_equal(u[1], 12345);
	check_trailer(&f, h, 16, 0, 0, T0 + 5);
	assert_null(find_rec(&f, PERF_RECORD_LOST, UINT32_MAX, 1));
	/* THROTTLE, UNTHROTTLE: { time, id, stream_id } */
	h = find_rec(&f, PERF_RECORD_THROTTLE, UINT32_MAX, 0);
	assert_non_null(h);
	u = (const uint64_t *)(h + 1);
	assert_int_equal(u[0], T0 + 6);
	assert_int_equal(u[1], f.first_id[0]);
	assert_int_equal(u[2], f.first_id[0]);
	check_trailer(&f, h, 24, 0, 0, T0 + 6);
	h = find_rec(&f, PERF_RECORD_UNTHROTTLE, UINT32_MAX, 0);
	assert_non_null(h);
	assert_int_equal(((const uint64_t *)(h + 1))[0], T0 + 7);
	pd_file_close(&f);
}

/* ---- 4. FINISHED_ROUND ---- */

static void test_rounds(void **state)
{
	char path[4200];
	struct record_output *o;
	const struct pd_header *h;
	struct pd_file f;
	struct krec r;
	size_t off, bad = 0;
	unsigned int seq = 0;
	char order[64] = "";

	(void)state;
	out_path(path, sizeof(path), "round.data");
	o = ro_open(path);
	assert_non_null(o);
	mk_comm(&r, 0, T0 + 1, PID, PID, "one");
	put(o, &r);
	record_output_round(o);
	mk_comm(&r, 0, T0 + 2, PID, PID, "two");
	put(o, &r);
	mk_comm(&r, 0, T0 + 3, PID, PID, "three");
	put(o, &r);
	record_output_round(o);
	assert_int_equal(record_output_commit(o), 0);

	open_file(path, &f);
	assert_int_equal(count_rec(&f, PERF_RECORD_FINISHED_ROUND), 2);
	off = f.data_off;
	while ((h = pd_file_next(&f, &off, &bad)) && seq < 60) {
		if (h->type == PERF_RECORD_COMM)
			order[seq++] = 'C';
		else if (h->type == PERF_RECORD_FINISHED_ROUND) {
			order[seq++] = 'R';
			assert_int_equal(h->size, sizeof(*h));
		}
	}
	assert_int_equal(bad, 0);
	assert_string_equal(order, "CRCCR");
	pd_file_close(&f);
}

/* ---- 5. files: commit, abort, pipe ---- */

static void make_empty_dir(char *dir, size_t len, const char *name)
{
	snprintf(dir, len, "%s/%s", g_dir, name);
	assert_int_equal(mkdir(dir, 0700), 0);
}

static void record_some(struct record_output *o)
{
	struct stat sa;
	struct krec r;

	assert_int_equal(stat(g_a, &sa), 0);
	mk_comm(&r, 0, T0, PID, PID, "ro");
	put(o, &r);
	mk_mmap(&r, 0, T0 + 1, PID, 0x555500000000ULL, 0x2000, 0, &sa, g_a);
	put(o, &r);
	mk_sample(&r, T0 + 2, PID, PID, 0x555500000010ULL);
	put(o, &r);
	record_output_round(o);
}

static void test_commit_renames(void **state)
{
	char dir[4200], path[4300], old[4400], buf[64], names[512];
	struct record_output *o;
	struct pd_file f;
	struct stat st;

	(void)state;
	make_empty_dir(dir, sizeof(dir), "commit");
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	snprintf(old, sizeof(old), "%s.old", path);
	assert_int_equal(write_small(path, "previous capture\n"), 0);

	o = ro_open(path);
	assert_non_null(o);
	/* Meanwhile, the old file is untouched; the new one is elsewhere. */
	assert_int_equal(read_small(path, buf, sizeof(buf)), 17);
	assert_string_equal(buf, "previous capture\n");
	record_some(o);
	assert_int_equal(record_output_commit(o), 0);

	list_dir(dir, names, sizeof(names));
	assert_string_equal(names, "perf.data,perf.data.old");
	assert_int_equal(read_small(old, buf, sizeof(buf)), 17);
	assert_string_equal(buf, "previous capture\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	open_file(path, &f);
	assert_non_null(find_rec(&f, PERF_RECORD_SAMPLE, PID, 0));
	pd_file_close(&f);

	/* Again: this perf.data becomes perf.data.old. */
	assert_int_equal(stat(path, &st), 0);
	o = ro_open(path);
	assert_non_null(o);
	assert_int_equal(record_output_commit(o), 0);
	{
		struct stat so;

		assert_int_equal(stat(old, &so), 0);
		assert_int_equal(so.st_ino, st.st_ino);
	}
	list_dir(dir, names, sizeof(names));
	assert_string_equal(names, "perf.data,perf.data.old");
	open_file(path, &f);
	assert_null(find_rec(&f, PERF_RECORD_SAMPLE, UINT32_MAX, 0));
	pd_file_close(&f);

	/* No previous file: no .old either. A relative path names cwd. */
	make_empty_dir(dir, sizeof(dir), "commit2");
	{
		char cwd[4200];

		assert_non_null(getcwd(cwd, sizeof(cwd)));
		assert_int_equal(chdir(dir), 0);
		o = ro_open("rel.data");
		assert_non_null(o);
		record_some(o);
		assert_int_equal(record_output_commit(o), 0);
		assert_int_equal(chdir(cwd), 0);
	}
	list_dir(dir, names, sizeof(names));
	assert_string_equal(names, "rel.data");
}

static void test_abort(void **state)
{
	char dir[4200], path[4300], buf[64], names[512];
	struct record_output *o;

	(void)state;
	make_empty_dir(dir, sizeof(dir), "abort");
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	assert_int_equal(write_small(path, "previous capture\n"), 0);
	o = ro_open(path);
	assert_non_null(o);
	list_dir(dir, names, sizeof(names));
	assert_int_equal(strncmp(names, ".perf.data.", 11), 0);
	record_some(o);
	record_output_abort(o);
	list_dir(dir, names, sizeof(names));
	assert_string_equal(names, "perf.data");
	assert_int_equal(read_small(path, buf, sizeof(buf)), 17);
	assert_string_equal(buf, "previous capture\n");

	/* Nothing there before: nothing after. */
	make_empty_dir(dir, sizeof(dir), "abort2");
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	o = ro_open(path);
	assert_non_null(o);
	record_output_abort(o);
	list_dir(dir, names, sizeof(names));
	assert_string_equal(names, "");

	/* A directory that does not exist: refused, nothing made. */
	snprintf(path, sizeof(path), "%s/nodir/perf.data", g_dir);
	assert_null(ro_open(path));
	assert_int_not_equal(access(path, F_OK), 0);
}

/*
 * A write that fails for another reason than a full disk (EIO: a bad
 * sector, a gone NFS server) leaves a file nobody can trust: the old
 * capture stays where it was and no temporary is left behind.
 */
static void test_commit_write_error(void **state)
{
	char dir[4200], path[4300], buf[64], names[512];
	struct record_output *o;

	(void)state;
	make_empty_dir(dir, sizeof(dir), "eio");
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	assert_int_equal(write_small(path, "previous capture\n"), 0);
	o = ro_open(path);
	assert_non_null(o);
	record_some(o);
	g_write_fail = EIO;
	assert_int_equal(record_output_commit(o), -EIO);
	g_write_fail = 0;
	list_dir(dir, names, sizeof(names));
	assert_string_equal(names, "perf.data");
	assert_int_equal(read_small(path, buf, sizeof(buf)), 17);
	assert_string_equal(buf, "previous capture\n");
}

/*
 * The drain loop never waits on the file system: with every write(2)
 * stuck, 6000 samples (more than one 64 KiB buffer, less than the
 * writer's queue) go in without the caller waiting; once the disk
 * answers, all of them are in the file. alarm() turns a wait into a
 * failure.
 */
static void test_stuck_disk(void **state)
{
	char dir[4200], path[4300];
	struct record_output *o;
	struct pd_file f;
	struct krec r;
	unsigned int i, stalled;

	(void)state;
	make_empty_dir(dir, sizeof(dir), "stuck");
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	o = ro_open(path);
	assert_non_null(o);
	record_some(o);
	stall_writes(true);
	alarm(20);
	for (i = 0; i < 6000; i++) {
		mk_sample(&r, T0 + 10 + i, PID, PID, 0x555500000010ULL);
		put(o, &r);
		if (i % 64 == 63)
			record_output_round(o);
	}
	alarm(0);
	/* The writer thread got to its first write and is stuck in it. */
	for (i = 0; i < 5000; i++) {
		pthread_mutex_lock(&g_stall_lock);
		stalled = g_write_stalled;
		pthread_mutex_unlock(&g_stall_lock);
		if (stalled)
			break;
		usleep(1000);
	}
	stall_writes(false);
	assert_true(stalled >= 1);	/* the writer did wait, not us */
	assert_int_equal(record_output_commit(o), 0);
	open_file(path, &f);
	assert_int_equal(count_rec(&f, PERF_RECORD_SAMPLE), 6001);
	pd_file_close(&f);
}

static void test_pipe(void **state)
{
	char dir[4200], path[4300], names[512], paths[8][4200], ids[8][41];
	struct record_output *o;
	struct pd_file f;
	struct stat sa;
	uint64_t hdr[2];
	int fd, saved, ret;
	unsigned int n;

	(void)state;
	make_empty_dir(dir, sizeof(dir), "pipe");
	snprintf(path, sizeof(path), "%s/stdout", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	assert_true(saved >= 0);
	assert_int_equal(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
	close(fd);
	/* No assertion while stdout is the file: cmocka writes there. */
	o = ro_open("-");
	if (o) {
		record_some(o);
		ret = record_output_commit(o);
	} else {
		ret = -1;
	}
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	assert_int_equal(ret, 0);

	/* Only what stdout got: no file, no temporary, next to anything. */
	list_dir(dir, names, sizeof(names));
	assert_string_equal(names, "stdout");
	/* struct perf_pipe_file_header: "PERFILE2", then its own size 16. */
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, hdr, sizeof(hdr)), sizeof(hdr));
	close(fd);
	assert_memory_equal(&hdr[0], "PERFILE2", 8);
	assert_int_equal(hdr[1], 16);

	open_file(path, &f);
	assert_true(f.pipe);
	assert_int_equal(stat(g_a, &sa), 0);
	check_mmap2(&f, find_rec(&f, PERF_RECORD_MMAP2, PID, 0), PID,
		    0x555500000000ULL, 0x2000, 0, &sa, g_a, T0 + 1);
	assert_non_null(find_rec(&f, PERF_RECORD_SAMPLE, PID, 0));
	assert_int_equal(count_rec(&f, PERF_RECORD_FINISHED_ROUND), 1);
	n = build_ids(&f, paths, ids, 8);
	assert_int_equal(n, 1);
	assert_string_equal(paths[0], g_a);
	assert_string_equal(ids[0], g_bid_a);
	pd_file_close(&f);
}

/* ---- setup ---- */

static int group_setup(void **state)
{
	char home[4300];

	(void)state;
	if (unit_tmpdir_make(g_dir, sizeof(g_dir), unit_tmp_parent(),
			     "test_record_output"))
		return -1;
	snprintf(home, sizeof(home), "%s/home", g_dir);
	snprintf(g_a, sizeof(g_a), "%s/ro_a", g_dir);
	snprintf(g_b, sizeof(g_b), "%s/ro_b", g_dir);
	if (mkdir(home, 0700) || setenv("HOME", home, 1) ||
	    copy_file(RO_FX "/ro_a", g_a) || copy_file(RO_FX "/ro_b", g_b) ||
	    readelf_build_id(g_a, g_bid_a, sizeof(g_bid_a)) ||
	    readelf_build_id(g_b, g_bid_b, sizeof(g_bid_b)) ||
	    strlen(g_bid_a) != 40 || !strcmp(g_bid_a, g_bid_b)) {
		fprintf(stderr, "setup failed in %s\n", g_dir);
		return -1;
	}
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	unit_tmpdir_remove(g_dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mmap2),
		cmocka_unit_test(test_build_ids),
		cmocka_unit_test(test_build_id_remapped),
		cmocka_unit_test(test_build_id_forked),
		cmocka_unit_test(test_sideband),
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_commit_renames),
		cmocka_unit_test(test_abort),
		cmocka_unit_test(test_commit_write_error),
		cmocka_unit_test(test_stuck_disk),
		cmocka_unit_test(test_pipe),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
