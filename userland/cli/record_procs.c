// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel tells us when processes fork, exec and exit, but not where
 * their code is mapped; /proc/PID/maps does, for as long as the process
 * lives. So a process's maps are read when it first shows up, again after
 * an exec once it runs, and again whenever one of its user ips falls
 * outside every mapping we have (a library loaded later).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture.h"
#include "hmap.h"
#include "maps.h"
#include "record_procs.h"

struct proc_state {
	struct skd_maps maps;		/* latest reading */
	uint64_t batch;			/* batch of the latest reading */
	int gone;			/* /proc/PID vanished */
	int stale;			/* exec since the latest reading */
};

struct procs {
	struct skd_capture_writer *out;
	struct skd_hmap by_pid;		/* pid -> struct proc_state */
	struct skd_hmap tids;		/* tids named (kernel or us) */
	uint64_t batch;
	uint64_t snapshots;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

struct procs *procs_new(struct skd_capture_writer *out)
{
	struct procs *ps = calloc(1, sizeof(*ps));

	if (ps)
		ps->out = out;
	return ps;
}

static void free_state(uint64_t key, void *val, void *arg)
{
	struct proc_state *st = val;

	(void)key;
	(void)arg;
	skd_maps_free(&st->maps);
	free(st);
}

void procs_free(struct procs *ps)
{
	if (!ps)
		return;
	skd_hmap_each(&ps->by_pid, free_state, NULL);
	skd_hmap_free(&ps->by_pid);
	skd_hmap_free(&ps->tids);
	free(ps);
}

static struct proc_state *state_of(struct procs *ps, uint32_t pid)
{
	return skd_hmap_get_or_new(&ps->by_pid, pid, sizeof(struct proc_state));
}

static void read_maps(struct procs *ps, uint32_t pid, struct proc_state *st)
{
	struct skd_maps maps = { 0 };
	uint64_t t = now_ns();
	size_t i;

	if (skd_maps_read_pid(pid, &maps)) {
		/* Gone or unreadable: samples of it stay unresolved. */
		st->gone = 1;
		return;
	}
	for (i = 0; i < maps.n; i++)
		skd_capture_put_map(ps->out, t, pid, maps.v[i].start,
				    maps.v[i].end, maps.v[i].pgoff,
				    maps.v[i].path);
	skd_maps_free(&st->maps);
	st->maps = maps;
	st->batch = ps->batch;
	st->stale = 0;
	ps->snapshots++;
}

/* A COMM record like the kernel's, for a thread named before we started. */
static void synthesize_comm(struct procs *ps, uint32_t pid, uint32_t tid)
{
	struct skd_rec_comm rec = {
		.hdr = { .type = SKD_REC_COMM, .size = sizeof(rec) },
		.id = { .time = now_ns(), .cpu = UINT32_MAX,
			.pid = pid, .tid = tid },
	};
	char path[64];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", pid, tid);
	f = fopen(path, "re");
	if (!f)
		return;
	n = fread(rec.comm, 1, sizeof(rec.comm) - 1, f);
	fclose(f);
	while (n && rec.comm[n - 1] == '\n')
		rec.comm[--n] = '\0';
	skd_capture_put(ps->out, &rec);
}

void procs_comm_known(struct procs *ps, uint32_t tid)
{
	skd_hmap_put(&ps->tids, tid, ps);
}

void procs_note(struct procs *ps, uint32_t pid, uint32_t tid)
{
	struct proc_state *st;

	if (!pid)
		return;		/* the idle task: nothing to read */
	if (!skd_hmap_has(&ps->tids, tid)) {
		skd_hmap_put(&ps->tids, tid, ps);
		synthesize_comm(ps, pid, tid);
	}
	if (skd_hmap_has(&ps->by_pid, pid))
		return;
	st = state_of(ps, pid);
	if (st)
		read_maps(ps, pid, st);
}

void procs_exec(struct procs *ps, uint32_t pid)
{
	struct proc_state *st = state_of(ps, pid);

	if (st) {
		st->stale = 1;
		st->gone = 0;
	}
}

void procs_user_ip(struct procs *ps, uint32_t pid, uint64_t ip)
{
	struct proc_state *st = skd_hmap_get(&ps->by_pid, pid);

	if (!st || st->gone)
		return;
	if (!st->stale && skd_maps_find(&st->maps, ip))
		return;
	if (st->batch == ps->batch && !st->stale)
		return;		/* read this batch already; not mapped then */
	read_maps(ps, pid, st);
}

void procs_snapshot(struct procs *ps, uint32_t pid)
{
	struct proc_state *st = state_of(ps, pid);

	if (st)
		read_maps(ps, pid, st);
}

void procs_snapshot_all(struct procs *ps)
{
	struct dirent *de;
	unsigned long pid;
	char *end;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return;
	while ((de = readdir(d))) {
		pid = strtoul(de->d_name, &end, 10);
		if (*end || !pid)
			continue;
		procs_note(ps, pid, pid);
	}
	closedir(d);
}

void procs_new_batch(struct procs *ps)
{
	ps->batch++;
}

uint64_t procs_snapshots(const struct procs *ps)
{
	return ps->snapshots;
}
