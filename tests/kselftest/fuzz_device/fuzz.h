/* SPDX-License-Identifier: GPL-2.0 */
/* fuzz_device: what its parts share (see fuzz_device.c for the test). */
#ifndef SKD_FUZZ_DEVICE_H
#define SKD_FUZZ_DEVICE_H

#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "pmu_query.h"
#include "testlib.h"

#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE	0x03
#endif
#ifndef MADV_COLD
#define MADV_COLD		20
#endif
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT		21
#endif
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ	22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE	23
#endif

#define DEFAULT_CALLS	1000000ULL
#define UNPRIV_SHARE	20		/* percent of the calls */
#define MAX_SLOTS	8		/* fds of one worker */
#define MAX_OPEN	4		/* sessions a worker opens */
#define MAX_SESS	32
#define MAX_MAPS	24
#define MAX_KIDS	4
#define MAX_CPUS	64
#define MAX_ERRNO	134		/* histogram bins; the last is "other" */
#define MAX_MSGS	24
#define BOGUS_FD	977		/* never open: RLIMIT_NOFILE is 1024 */
#define NODE_PATH	"/tmp/skd-fuzz-node"
#define NOBODY		65534

#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif

/* What is counted, in memory shared by every process of the test. */

#define OPS(X) \
	X(OPEN) X(CLOSE) X(DUP) X(INFO) X(CONFIG_GOOD) X(CONFIG_BAD) \
	X(CONFIG_JUNK) X(CONFIG_PMU) X(START) X(STOP) X(STATS) X(PMU) X(MAPS) X(IOCTL_SKD) \
	X(IOCTL_ANY) X(IOCTL_VFS) X(MMAP) X(MUNMAP) X(MPROTECT) X(MREMAP) \
	X(MADVISE) X(POLL) X(EPOLL) X(RW) X(FORK) X(REAP) X(TOUCH) X(DRAIN) \
	X(SCRIBBLE) X(PROCMEM) X(U_OPEN_DEV) X(U_OPEN_NODE) X(U_OPEN_PROC) X(U_OPATH) \
	X(NETLINK)

#define OP_ENUM(n) OP_##n,
#define OP_NAME(n) #n,
enum op { OPS(OP_ENUM) NR_OPS };

enum fail_kind {
	F_ERRNO,	/* an errno or return value the call does not document */
	F_ACCEPTED,	/* something documented invalid was accepted */
	F_REFUSED,	/* something documented valid was refused */
	F_RING,		/* a malformed record or control page */
	F_SIGNAL,	/* a signal nobody asked for */
	F_UNPRIV,	/* the unprivileged process got a session */
	F_KID,		/* a forked child died */
	F_SETUP,	/* the test itself could not do what it needed */
	NR_FAIL
};

struct op_stats {
	uint64_t calls, ok;
	uint64_t err[MAX_ERRNO + 1];
};

enum who { PRIV, UNPRIV };

struct shared {
	struct op_stats op[NR_OPS];
	uint64_t calls[2];
	uint64_t fails[NR_FAIL];
	uint64_t nmsg;
	char msg[MAX_MSGS][200];
	/* unprivileged worker */
	uint64_t u_opens, u_refused, u_opath, u_opath_ebadf, u_info_ok;
	uint64_t u_caps_left;
	/* privileged worker */
	uint64_t kids, kids_ok;
	uint64_t sigbus_expected, touches, records, lost_records;
	uint64_t configs_ok, starts_ok, maps_ok;
	/* what each worker does right now, for a hang report */
	uint64_t last_call[2];
	uint32_t last_op[2];
};

struct sess {
	bool used;
	int fds, maps;			/* references we hold */
	bool configured;
	uint32_t ring_pages;
	bool dirty[MAX_CPUS];		/* we scribbled on its control page */
	bool desync[MAX_CPUS];		/* data_tail is garbage */
};

struct slot {
	int fd;
	int sess;			/* -1: O_PATH, no session */
	int acc;			/* O_RDONLY, O_WRONLY, O_RDWR */
	bool orig;			/* the unprivileged worker's inherited fds */
};

struct map {
	uint8_t *addr;
	size_t len;
	int sess, cpu, region, prot;
	bool maywrite;			/* control page of an O_RDWR fd */
	bool zapped;			/* MADV_DONTNEED: the next touch SIGBUSes */
	bool whole;			/* the data region twice, as mapped */
};

#define PICK(arr) pick64(arr, sizeof(arr) / sizeof(arr[0]))

/* state.c */
extern const char *const op_names[];
extern const char *const fail_names[];
extern struct shared *sh;
extern struct skd_info info;
extern size_t page;
extern unsigned int nr_cpus;
extern uint64_t possible_mask;
extern uint64_t max_ring_pages;
extern uint64_t min_period_ns;
extern bool sim_mode;
extern uint32_t sim_model_arg;
extern bool intel_usable;
extern enum who who;
extern bool in_kid;
extern uint64_t budget;
extern struct sess sessions[MAX_SESS];
extern struct slot slots[MAX_SLOTS];
extern int nr_slots;
extern struct map maps[MAX_MAPS];
extern int nr_maps;
extern pid_t kids[MAX_KIDS];
extern int nr_kids;
extern int epfd;
extern uint8_t *scratch;
extern size_t scratch_len;
extern uint8_t *guard;
extern uint8_t *ro_page;
extern uint64_t hole;
extern struct skd_event_attr ev_buf[SKD_MAX_EVENTS + 4];
extern bool pid_may_vanish;
extern uint64_t mask_buf[SKD_CPUMASK_MAX_BYTES / 8 + 4];
extern const int E_NONE[];

void add(uint64_t *p, uint64_t n);
uint64_t get(const uint64_t *p);
void seed_rng(uint64_t seed);
uint64_t rnd(void);
uint64_t below(uint64_t n);
bool chance(unsigned int n);
uint64_t pick64(const uint64_t *v, size_t n);
__attribute__((format(printf, 2, 3)))
void failure(enum fail_kind kind, const char *fmt, ...);
const char *ename(int e);
int outcome(enum op op, long ret, int err, const int *allowed, bool ebadf);
void note_op(enum op op);
void on_fault(int sig, siginfo_t *si, void *uc);
int touch(const volatile uint8_t *p, size_t len, uint64_t *sum);
void guarded(void (*fn)(void), enum op op);
int sess_new(void);
void slot_add(int fd, int sess, int acc, bool orig);
void slot_del(int i);
void map_del(int i);
int pick_fd(int *slot, bool *bad);
struct sess *slot_sess(int slot);
uint64_t fuzz_ptr(size_t need);
extern bool placed_dirty;
void *place_from(size_t lo, const void *src, size_t len, size_t usize,
		 bool dirty);
void *place(const void *src, size_t len, size_t usize, bool dirty);
bool in_scratch(const void *p, size_t n);
uint32_t fuzz_size(uint32_t ver0, uint32_t cur);
uint64_t interesting64(void);

/* configs.c */
void op_config(enum op op);

/* fd_calls.c */
void op_info(void);
void op_pmu(void);
void op_stats(void);
void op_read_maps(void);
void op_start_stop(enum op op);
void op_ioctl(enum op op);
void op_open(void);
void op_close(void);
void op_dup(void);
void op_poll(void);
void op_epoll(void);
void op_rw(void);

/* mmap_calls.c */
extern int mem_fd;
void op_mmap(void);
void op_munmap(void);
void op_mprotect(void);
void op_mremap(void);
void op_madvise(void);
void op_touch(void);
void op_drain(void);
void op_scribble(void);
void op_procmem(void);

/* processes.c */
void reap_kids(bool block);
void op_fork(void);
void u_refused(enum op op, int fd, int err, const char *what);
void op_u_open(enum op op);
void op_netlink(void);
void op_u_opath(void);
int drop_privileges(void);

#endif /* SKD_FUZZ_DEVICE_H */
