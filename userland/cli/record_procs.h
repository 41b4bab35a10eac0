/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the recorder learns about processes besides the kernel's records:
 * their executable mappings (from /proc/PID/maps) and the names of threads
 * that existed before the session started. Written into the capture as
 * MAP records and synthesized COMM records.
 */
#ifndef _SKD_RECORD_PROCS_H
#define _SKD_RECORD_PROCS_H

#include <stdint.h>

struct skd_capture_writer;
struct procs;

struct procs *procs_new(struct skd_capture_writer *out);
void procs_free(struct procs *ps);

/* A record names pid/tid: read its maps and names if still unknown. */
void procs_note(struct procs *ps, uint32_t pid, uint32_t tid);
/* The kernel named this thread (COMM record): never synthesize one. */
void procs_comm_known(struct procs *ps, uint32_t tid);
/* pid ran execve: the next sample of it re-reads its maps. */
void procs_exec(struct procs *ps, uint32_t pid);
/* A user-mode ip of pid: re-read its maps if no mapping covers it. */
void procs_user_ip(struct procs *ps, uint32_t pid, uint64_t ip);
/* Read pid's maps now (a traced process about to exit). */
void procs_snapshot(struct procs *ps, uint32_t pid);
/* Every process of the system (sessions that sample all of it). */
void procs_snapshot_all(struct procs *ps);
/* One lazy re-read per process per drain batch, at most. */
void procs_new_batch(struct procs *ps);
/* Mapping readings written, for the summary. */
uint64_t procs_snapshots(const struct procs *ps);

#endif /* _SKD_RECORD_PROCS_H */
