// SPDX-License-Identifier: GPL-2.0
/*
 * Maps: live SKD_REC_MMAP records and SKD_IOC_READ_MAPS, checked against
 * what the kernel shows everyone else: /proc/PID/maps, /proc/PID/task and
 * stat() of the mapped files.
 *
 *  (a) a followed child execs maps_prog, which dlopen()s libm and waits:
 *      its executable lines of /proc/PID/maps, read while it waits (the
 *      executable, ld.so, libc, libm, [vdso]), each have a live MMAP
 *      record with the same start, length, offset, device, inode, path;
 *  (c) READ_MAPS, with the smallest buffer (so the cursors resume, in
 *      the middle of our 150 threads and of our 100 extra code mappings)
 *      and with a large one: one COMM per thread of /proc/PID/task and
 *      one MMAP per executable line of /proc/PID/maps, in order;
 *  (b) under a session without a pid filter, a process that execs, runs
 *      5 ms and exits gets its MMAP records too.
 */
#include <errno.h>
#include <limits.h>
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "testlib.h"

#define MAX_MAPS	512
#define MAX_THREADS	512
#define NR_THREADS	150
#define NR_EXTRA_MAPS	100

struct map {
	uint64_t start, len, pgoff, ino;
	uint32_t maj, min, prot, flags, misc, tid;
	char path[PATH_MAX];
};

struct maps {
	struct map m[MAX_MAPS];
	int n;
};

struct comms {
	uint32_t tid[MAX_THREADS];
	char comm[MAX_THREADS][SKD_COMM_LEN];
	int n;
};

/* The executable lines of /proc/PID/maps. */
static int proc_maps(pid_t pid, struct maps *out)
{
	char file[64], line[PATH_MAX + 128], perms[8];
	unsigned long long start, end, off, ino;
	unsigned int maj, min;
	FILE *f;
	int n, pos;

	snprintf(file, sizeof(file), "/proc/%d/maps", pid);
	f = fopen(file, "r");
	if (!f)
		return -errno;
	out->n = 0;
	while (fgets(line, sizeof(line), f) && out->n < MAX_MAPS) {
		struct map *m = &out->m[out->n];

		pos = 0;
		n = sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start,
			   &end, perms, &off, &maj, &min, &ino, &pos);
		if (n < 7 || !strchr(perms, 'x'))
			continue;
		memset(m, 0, sizeof(*m));
		m->start = start;
		m->len = end - start;
		m->pgoff = off;
		m->maj = maj;
		m->min = min;
		m->ino = ino;
		m->flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		memcpy(m->path, line + pos, strnlen(line + pos, PATH_MAX - 1));
		m->path[strcspn(m->path, "\n")] = 0;
		/*
		 * The vsyscall page is the kernel's gate area, listed by
		 * /proc but no mapping of the process (perf has no MMAP for
		 * it either); a kernel with vsyscall=emulate shows it r-xp.
		 */
		if (!strcmp(m->path, "[vsyscall]"))
			continue;
		out->n++;
	}
	fclose(f);
	return 0;
}

/* /proc/PID/task: every thread and its name, by tid. */
static int proc_tasks(pid_t pid, struct comms *out)
{
	char dir[64], file[sizeof(dir) + 300], buf[64];
	struct dirent *de;
	DIR *d;
	FILE *f;

	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	d = opendir(dir);
	if (!d)
		return -errno;
	out->n = 0;
	while ((de = readdir(d)) && out->n < MAX_THREADS) {
		if (de->d_name[0] == '.')
			continue;
		out->tid[out->n] = (uint32_t)atoi(de->d_name);
		snprintf(file, sizeof(file), "%s/%s/comm", dir, de->d_name);
		f = fopen(file, "r");
		if (!f || !fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		if (f)
			fclose(f);
		buf[strcspn(buf, "\n")] = 0;
		buf[SKD_COMM_LEN - 1] = 0;
		memcpy(out->comm[out->n], buf, SKD_COMM_LEN);
		out->n++;
	}
	closedir(d);
	return 0;
}

static void add_map(struct maps *ms, const struct skd_event *ev)
{
	const struct skd_rec_mmap *r = ev->mmap.rec;
	struct map *m;

	if (ms->n >= MAX_MAPS)
		return;
	m = &ms->m[ms->n++];
	m->start = r->start;
	m->len = r->len;
	m->pgoff = r->pgoff;
	m->maj = r->maj;
	m->min = r->min;
	m->ino = r->ino;
	m->prot = r->prot;
	m->flags = r->flags;
	m->misc = ev->misc;
	m->tid = ev->id->tid;
	snprintf(m->path, sizeof(m->path), "%s", ev->mmap.path);
}

static bool same_map(const struct map *a, const struct map *b)
{
	return a->start == b->start && a->len == b->len &&
	       a->pgoff == b->pgoff && a->maj == b->maj && a->min == b->min &&
	       a->ino == b->ino && !strcmp(a->path, b->path);
}

/* Every line of @oracle has a record in @got (any order). */
static int missing_from(const struct maps *oracle, const struct maps *got)
{
	int i, j, missing = 0;

	for (i = 0; i < oracle->n; i++) {
		for (j = 0; j < got->n; j++)
			if (same_map(&oracle->m[i], &got->m[j]))
				break;
		if (j == got->n) {
			ktap_diag("no record for %" PRIx64 "+%" PRIx64 " %s",
				  oracle->m[i].start, oracle->m[i].len,
				  oracle->m[i].path);
			missing++;
		}
	}
	return missing;
}

/* @got equals @oracle, in order. */
static bool maps_equal(const struct maps *oracle, const struct maps *got)
{
	int i;

	if (oracle->n != got->n) {
		ktap_diag("%d maps lines, %d records", oracle->n, got->n);
		return false;
	}
	for (i = 0; i < oracle->n; i++)
		if (!same_map(&oracle->m[i], &got->m[i])) {
			ktap_diag("line %d: %s, record: %s", i,
				  oracle->m[i].path, got->m[i].path);
			return false;
		}
	return true;
}

/* stat() of every file-backed record agrees on device and inode. */
static int stat_disagrees(const struct maps *ms)
{
	struct stat st;
	int i, bad = 0;

	for (i = 0; i < ms->n; i++) {
		const struct map *m = &ms->m[i];

		if (m->path[0] != '/')
			continue;
		if (stat(m->path, &st) || major(st.st_dev) != m->maj ||
		    minor(st.st_dev) != m->min || st.st_ino != m->ino) {
			ktap_diag("stat(%s) disagrees", m->path);
			bad++;
		}
	}
	return bad;
}

static bool has_path(const struct maps *ms, const char *needle, bool exact)
{
	int i;

	for (i = 0; i < ms->n; i++)
		if (exact ? !strcmp(ms->m[i].path, needle) :
			    !!strstr(ms->m[i].path, needle))
			return true;
	return false;
}

/* ---- live records ------------------------------------------------------ */

struct live {
	pid_t pid;
	struct maps maps;
	uint64_t bad;		/* not PROT_EXEC, synthesized, other tid */
};

static void collect_live(const struct skd_event *ev, void *arg)
{
	struct live *l = arg;

	if (ev->type != SKD_REC_MMAP || ev->id->pid != (uint32_t)l->pid)
		return;
	add_map(&l->maps, ev);
	if (!(ev->mmap.rec->prot & PROT_EXEC) || ev->misc ||
	    ev->id->tid != (uint32_t)l->pid)
		l->bad++;
}

/* ---- READ_MAPS ---------------------------------------------------------- */

struct snapshot {
	pid_t pid[2];
	struct maps maps[2];
	struct comms comms[2];
	uint64_t records, unsynth, calls;
};

static int take(struct snapshot *s, const struct skd_event *ev)
{
	int k = ev->id->pid == (uint32_t)s->pid[0] ? 0 :
		ev->id->pid == (uint32_t)s->pid[1] ? 1 : -1;
	struct comms *c;

	s->records++;
	if (ev->misc != SKD_MISC_SYNTHESIZED)
		s->unsynth++;
	if (k < 0)
		return 0;
	if (ev->type == SKD_REC_MMAP) {
		add_map(&s->maps[k], ev);
	} else if (ev->type == SKD_REC_COMM) {
		c = &s->comms[k];
		if (c->n < MAX_THREADS) {
			c->tid[c->n] = ev->id->tid;
			memcpy(c->comm[c->n], ev->comm->comm, SKD_COMM_LEN);
			c->n++;
		}
	}
	return 0;
}

/* Read the whole state with @buf_len bytes a call. */
static int snapshot(int fd, uint32_t buf_len, struct snapshot *s)
{
	static uint64_t buf[(1 << 20) / 8];
	struct skd_read_maps rm = {
		.size = sizeof(rm), .buf_ptr = (uintptr_t)buf, .buf_len = buf_len,
	};
	struct skd_event ev;
	uint32_t at;
	int n;

	for (;;) {
		if (ioctl(fd, SKD_IOC_READ_MAPS, &rm))
			return -errno;
		s->calls++;
		if (!rm.bytes)
			return 0;
		if (rm.bytes > buf_len)
			return -EOVERFLOW;
		for (at = 0; at < rm.bytes; at += (uint32_t)n) {
			n = skd_decode((uint8_t *)buf + at, rm.bytes - at, &ev);
			if (n < 0)
				return -EBADMSG;
			take(s, &ev);
		}
		if (s->calls > 100000)
			return -ELOOP;
	}
}

/* COMM records: exactly /proc/PID/task, tids ascending. */
static bool comms_equal(const struct comms *oracle, const struct comms *got)
{
	int i, j;

	if (oracle->n != got->n) {
		ktap_diag("%d threads, %d COMM records", oracle->n, got->n);
		return false;
	}
	for (i = 0; i < got->n; i++) {
		if (i && got->tid[i] <= got->tid[i - 1])
			return false;
		for (j = 0; j < oracle->n; j++)
			if (oracle->tid[j] == got->tid[i])
				break;
		if (j == oracle->n || strcmp(oracle->comm[j], got->comm[i])) {
			ktap_diag("thread %u: no such thread or name", got->tid[i]);
			return false;
		}
	}
	return true;
}

static int block_fd = -1;

static void *blocked_thread(void *arg)
{
	char c;

	(void)arg;
	if (read(block_fd, &c, 1) < 0)
		return NULL;
	return NULL;
}

static char prog[PATH_MAX], libm[PATH_MAX];

static void find_files(void)
{
	char self[PATH_MAX];
	struct maps ms;
	int i;

	if (!realpath("/proc/self/exe", self))
		ktap_fail_all("no /proc/self/exe");
	snprintf(prog, sizeof(prog), "%s/maps_prog", dirname(self));
	/* libm is ours too (the library links it): dlopen it by path. */
	snprintf(libm, sizeof(libm), "libm.so.6");
	if (!proc_maps(getpid(), &ms))
		for (i = 0; i < ms.n; i++)
			if (strstr(ms.m[i].path, "/libm.so"))
				snprintf(libm, sizeof(libm), "%s", ms.m[i].path);
}

static struct snapshot snap_small, snap_big;
static struct live live_a, live_b;
static struct maps oracle_self, oracle_child;
static struct comms tasks_self, tasks_child;

int main(void)
{
	struct drained d = { .each = collect_live, .arg = &live_a };
	pthread_t threads[NR_THREADS];
	int to_child[2], from_child[2], blk[2], i, fd_prog, nr_threads = 0;
	char fds[2][16], ready[5];
	struct test_session ts;
	struct skd_config cfg;
	struct skd_info info;
	bool ran, ok;
	pid_t child;

	ktap_plan(11);
	test_device_info(&info);
	find_files();
	if (access(prog, X_OK))
		ktap_fail_all("maps_prog is missing");
	ktap_result((info.features & (SKD_FEAT_MMAP_EVENTS | SKD_FEAT_READ_MAPS)) ==
		    (SKD_FEAT_MMAP_EVENTS | SKD_FEAT_READ_MAPS),
		    "GET_INFO: features %#x has MMAP_EVENTS and READ_MAPS",
		    info.features);

	/* Threads and code mappings enough to need several READ_MAPS calls. */
	if (pipe(blk))
		ktap_fail_all("pipe");
	block_fd = blk[0];
	for (i = 0; i < NR_THREADS; i++)
		if (!pthread_create(&threads[i], NULL, blocked_thread, NULL))
			nr_threads++;
	fd_prog = open(prog, O_RDONLY);
	for (i = 0; i < NR_EXTRA_MAPS; i++)
		if (mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd_prog,
			 0) == MAP_FAILED)
			ktap_fail_all("mmap of maps_prog");

	/* (a) and (c): a followed child that dlopen()s and waits. */
	cfg = test_config(100, 256, 0);
	cfg.flags |= SKD_CFG_PID;
	cfg.pid = getpid();
	if (session_open(&ts, &cfg) || pipe(to_child) || pipe(from_child))
		ktap_fail_all("cannot set up a session");
	skd_dev_start(ts.fd);
	child = fork();
	if (!child) {
		snprintf(fds[0], sizeof(fds[0]), "%d", to_child[0]);
		snprintf(fds[1], sizeof(fds[1]), "%d", from_child[1]);
		execl(prog, "maps_prog", "dlopen", libm, fds[0], fds[1],
		      (char *)NULL);
		_exit(127);
	}
	live_a.pid = child;
	ran = read(from_child[0], ready, sizeof(ready)) == sizeof(ready);
	/* The oracles, while the child waits and our threads block. */
	ran = ran && !proc_maps(child, &oracle_child) &&
	      !proc_tasks(child, &tasks_child) &&
	      !proc_maps(getpid(), &oracle_self) &&
	      !proc_tasks(getpid(), &tasks_self);
	snap_small.pid[0] = snap_big.pid[0] = getpid();
	snap_small.pid[1] = snap_big.pid[1] = child;
	ran = ran && !snapshot(ts.fd, SKD_READ_MAPS_MIN_BUF, &snap_small) &&
	      !snapshot(ts.fd, 1 << 20, &snap_big);
	ran = write(to_child[1], "g", 1) == 1 && ran;
	ran = reap(child) && ran;
	skd_dev_stop(ts.fd);
	session_drain(&ts, &d);

	ktap_result(ran && has_path(&oracle_child, prog, true) &&
		    has_path(&oracle_child, "/ld-linux", false) &&
		    has_path(&oracle_child, "/libc.so", false) &&
		    has_path(&oracle_child, "/libm.so", false) &&
		    has_path(&oracle_child, "[vdso]", true),
		    "(a) the child ran; its maps show %s, ld.so, libc, libm, [vdso]",
		    prog);
	ok = ran && !missing_from(&oracle_child, &live_a.maps);
	ktap_result(ok, "(a) each of its %d executable maps lines has a live "
		    "MMAP record (start, length, offset, dev, inode, path; %d "
		    "records)", oracle_child.n, live_a.maps.n);
	ktap_result(ran && live_a.maps.n && !stat_disagrees(&live_a.maps) &&
		    !live_a.bad, "(a) stat() agrees with every file-backed "
		    "record; all PROT_EXEC, live, the child's own");

	ktap_result(snap_small.calls > 2 && maps_equal(&oracle_self, &snap_small.maps[0]),
		    "(c) READ_MAPS, %u-byte buffer, %llu calls: our %d executable "
		    "lines of /proc/self/maps, in order", SKD_READ_MAPS_MIN_BUF,
		    (unsigned long long)snap_small.calls, oracle_self.n);
	ktap_result(nr_threads == NR_THREADS &&
		    comms_equal(&tasks_self, &snap_small.comms[0]),
		    "(c) one COMM per thread of /proc/self/task (%d), tids "
		    "ascending, names agree", tasks_self.n);
	ktap_result(maps_equal(&oracle_child, &snap_small.maps[1]) &&
		    comms_equal(&tasks_child, &snap_small.comms[1]),
		    "(c) the waiting child: its maps and its thread, likewise");
	ktap_result(snap_big.calls == 2 &&
		    maps_equal(&oracle_self, &snap_big.maps[0]) &&
		    comms_equal(&tasks_self, &snap_big.comms[0]) &&
		    maps_equal(&oracle_child, &snap_big.maps[1]) &&
		    comms_equal(&tasks_child, &snap_big.comms[1]),
		    "(c) a 1 MiB buffer: the same in one call");
	ktap_result(snap_small.records && !snap_small.unsynth &&
		    snap_small.records == snap_big.records,
		    "(c) %llu records, all SKD_MISC_SYNTHESIZED, none of "
		    "another process", (unsigned long long)snap_small.records);
	session_close(&ts);

	/* (b) no pid filter: a process that lives 5 ms. */
	cfg = test_config(100, 256, 0);
	d.arg = &live_b;
	ran = !session_open(&ts, &cfg) && !skd_dev_start(ts.fd);
	child = ran ? fork() : -1;
	if (!child) {
		execl(prog, "maps_prog", "brief", (char *)NULL);
		_exit(127);
	}
	live_b.pid = child;
	ran = ran && reap(child);
	sleep_seconds(0.1);
	skd_dev_stop(ts.fd);
	for (i = 0; i < 10 && session_drain(&ts, &d) > 0; i++)
		;
	ktap_result(ran && has_path(&live_b.maps, prog, true) &&
		    has_path(&live_b.maps, "/ld-linux", false) &&
		    has_path(&live_b.maps, "/libc.so", false) &&
		    has_path(&live_b.maps, "[vdso]", true) &&
		    !stat_disagrees(&live_b.maps) && !live_b.bad,
		    "(b) no pid filter: a 5 ms process's MMAP records name its "
		    "executable, ld.so, libc, [vdso] (%d records)",
		    live_b.maps.n);
	{
		struct skd_read_maps rm = { .size = sizeof(rm), .buf_len = 1 };
		int fd = skd_dev_open(false);

		ktap_result(fd >= 0 && ioctl(fd, SKD_IOC_READ_MAPS, &rm) &&
			    errno == EINVAL, "READ_MAPS with a 1-byte buffer: EINVAL");
		if (fd >= 0)
			close(fd);
	}
	session_close(&ts);
	if (write(blk[1], "x", 1) < 0)
		return 1;
	return ktap_finish();
}
