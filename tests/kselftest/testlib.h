/* SPDX-License-Identifier: GPL-2.0 */
/* What several in-VM tests need: sessions, draining, busy children. */
#ifndef _SKD_TESTLIB_H
#define _SKD_TESTLIB_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "decode.h"
#include "reader.h"
#include "skidless.h"

/* A timer session: freq Hz, ring_pages per CPU, call chains of depth. */
struct skd_config test_config(uint64_t freq, uint32_t ring_pages,
			      uint32_t depth);

struct test_session {
	int fd;
	struct skd_info info;
	struct skd_config cfg;
	struct skd_reader *reader;
};

/*
 * GET_INFO on a fresh fd, which is closed again. Ends the test: a skip
 * when the device cannot be opened, a bail-out when GET_INFO fails.
 */
void test_device_info(struct skd_info *info);

/* Open, configure, map. Prints a diagnostic and returns -errno on failure. */
int session_open(struct test_session *s, const struct skd_config *cfg);
void session_close(struct test_session *s);

/* Counts of what one drain saw. */
struct drained {
	uint64_t records[__SKD_REC_MAX];	/* by type, LOST included */
	uint64_t lost_in_stream;		/* sum of LOST counts */
	uint64_t malformed;
	uint64_t per_cpu_records[64];		/* non-LOST, by CPU */
	bool (*want)(const struct skd_event *ev, void *arg);
	void (*each)(const struct skd_event *ev, void *arg);
	void *arg;
};

/* Drain every ring once into @d (adds up). Returns records or -errno. */
long session_drain(struct test_session *s, struct drained *d);

/* Per-CPU counters summed; 0 or -errno. */
int session_stats(struct test_session *s, struct skd_cpu_stats *per_cpu,
		  unsigned int nr, struct skd_cpu_stats *sum);

/* A child that spins in spin_loop() for @seconds, then exits 0. */
pid_t spawn_spinner(double seconds);
/* The same, on CPU @cpu only. */
pid_t spawn_spinner_on(double seconds, int cpu);
/* Wait for @pid; true when it exited 0. */
bool reap(pid_t pid);
/* Poll @pid (sleeping 50 ms when it still runs); false on error. */
bool reap_nohang(pid_t pid, bool *exited);

/* The spin loop lives in its own section so tests know its exact bounds. */
extern const char __start_skd_spin[], __stop_skd_spin[];
extern const char __start_skd_spin_caller[], __stop_skd_spin_caller[];
bool in_spin_loop(uint64_t ip);
/* In spawn_spinner(), which calls spin_for(): its return address. */
bool in_spin_caller(uint64_t ip);
void spin_for(double seconds);

double now_seconds(void);
void sleep_seconds(double s);

#endif /* _SKD_TESTLIB_H */
