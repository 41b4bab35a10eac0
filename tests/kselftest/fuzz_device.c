// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile input at volume: a privileged and an unprivileged process throw
 * random and structured-but-corrupted calls at /dev/skidless (ioctls,
 * configs, mmaps of any length, offset, protection and flags, munmap,
 * mprotect, mremap, madvise, poll, epoll, read/write, close while mapped,
 * forked children that use inherited fds) until they have made CALLS
 * system calls, then the module must be clean: no module reference, no
 * session and no ring left, and a fresh session works.
 *
 *   fuzz_device [CALLS] [sim | sim:MODEL | MODEL] [--seed N]
 *
 * CALLS defaults to 1000000. With sim, the configs meant to be valid are
 * for the sim backend (MODEL, else a random model per config) instead of
 * the timer. The seed is printed first; the same seed replays the same
 * choices in each process (timing between the processes aside).
 *
 * What is asserted, call by call: the return value is 0 or -1 (an fd, an
 * address, a count for open, mmap and poll), the errno is one the call
 * documents, nothing the ABI documents as invalid is accepted (a
 * corrupted config, a mapping outside the ring layout, data made
 * writable), what it documents as valid works (a good config on a fresh
 * session, a mapping of the layout, a record read from a ring is well
 * formed), and no signal arrives but the SIGBUS of touching a mapping
 * after madvise(MADV_DONTNEED) (the module maps pages once and has no
 * fault handler).
 *
 * Capability model: privilege is checked at open, as for perf event fds
 * and /dev/cpu/N/msr. An unprivileged process can never create a session:
 * /dev/skidless is 0600 (EACCES), a 0666 node of the same device is
 * refused by the module (EPERM), and so is reopening an inherited fd or
 * an O_PATH fd through /proc/self/fd. But a session fd a privileged
 * process hands over (by fork after dropping privileges, or SCM_RIGHTS)
 * is a capability: its holder may configure, map, start and stop that
 * session. The unprivileged worker here holds three such fds (configured,
 * unconfigured, read-only) and fuzzes them as the privileged one does.
 */
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

/* ------------------------------------------------------------------ */
/* What is counted, in memory shared by every process of the test.     */

#define OPS(X) \
	X(OPEN) X(CLOSE) X(DUP) X(INFO) X(CONFIG_GOOD) X(CONFIG_BAD) \
	X(CONFIG_JUNK) X(CONFIG_PMU) X(START) X(STOP) X(STATS) X(PMU) X(IOCTL_SKD) \
	X(IOCTL_ANY) X(IOCTL_VFS) X(MMAP) X(MUNMAP) X(MPROTECT) X(MREMAP) \
	X(MADVISE) X(POLL) X(EPOLL) X(RW) X(FORK) X(REAP) X(TOUCH) X(DRAIN) \
	X(SCRIBBLE) X(PROCMEM) X(U_OPEN_DEV) X(U_OPEN_NODE) X(U_OPEN_PROC) X(U_OPATH)

#define OP_ENUM(n) OP_##n,
#define OP_NAME(n) #n,
enum op { OPS(OP_ENUM) NR_OPS };
static const char *const op_names[] = { OPS(OP_NAME) };

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

static const char *const fail_names[] = {
	"undocumented errno or return value", "invalid input accepted",
	"valid input refused", "malformed ring content", "unexpected signal",
	"unprivileged session", "child died", "test setup",
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

static struct shared *sh;

static void add(uint64_t *p, uint64_t n)
{
	__atomic_fetch_add(p, n, __ATOMIC_RELAXED);
}

static uint64_t get(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------ */
/* The worker's state                                                  */

static struct skd_info info;
static size_t page;
static unsigned int nr_cpus;		/* nr_cpu_ids */
static uint64_t possible_mask;		/* possible CPUs below 64 */
static uint64_t max_ring_pages;
static uint64_t min_period_ns;
static bool sim_mode;
static uint32_t sim_model_arg;		/* 0: random per config */
static bool intel_usable;

static enum who who;
static bool in_kid;			/* a forked child of the privileged one */
static uint64_t budget;			/* calls this worker makes */
static uint64_t seq;			/* calls this process made */

static uint64_t rng[4];

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void seed_rng(uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		rng[i] = splitmix(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** */
static uint64_t rnd(void)
{
	uint64_t r = rotl(rng[1] * 5, 7) * 9, t = rng[1] << 17;

	rng[2] ^= rng[0];
	rng[3] ^= rng[1];
	rng[1] ^= rng[2];
	rng[0] ^= rng[3];
	rng[2] ^= t;
	rng[3] = rotl(rng[3], 45);
	return r;
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* True @n times in 1000. */
static bool chance(unsigned int n)
{
	return below(1000) < n;
}

static uint64_t pick64(const uint64_t *v, size_t n)
{
	return v[below(n)];
}

#define PICK(arr) pick64(arr, sizeof(arr) / sizeof(arr[0]))

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

static struct sess sessions[MAX_SESS];
static struct slot slots[MAX_SLOTS];
static int nr_slots;
static struct map maps[MAX_MAPS];
static int nr_maps;
static pid_t kids[MAX_KIDS];
static int nr_kids;
static int epfd = -1;

/* Memory the fuzzer points the kernel at. */
static uint8_t *scratch;		/* 3 pages, then a PROT_NONE guard */
static size_t scratch_len;
static uint8_t *guard;
static uint8_t *ro_page;		/* read-only, random bytes */
static uint64_t hole;			/* PROT_NONE */

static struct skd_event_attr ev_buf[SKD_MAX_EVENTS + 4];
static bool pid_may_vanish;		/* the config follows a child */
static uint64_t mask_buf[SKD_CPUMASK_MAX_BYTES / 8 + 4];

/* ------------------------------------------------------------------ */
/* Failures and outcomes                                               */

static __attribute__((format(printf, 2, 3)))
void failure(enum fail_kind kind, const char *fmt, ...)
{
	uint64_t n;
	va_list ap;
	int len;

	add(&sh->fails[kind], 1);
	n = __atomic_fetch_add(&sh->nmsg, 1, __ATOMIC_RELAXED);
	if (n >= MAX_MSGS)
		return;
	len = snprintf(sh->msg[n], sizeof(sh->msg[n]), "%s call %" PRIu64 ": ",
		       in_kid ? "child" : who == PRIV ? "privileged" :
		       "unprivileged", seq);
	va_start(ap, fmt);
	vsnprintf(sh->msg[n] + len, sizeof(sh->msg[n]) - len, fmt, ap);
	va_end(ap);
}

static const char *ename(int e)
{
	const char *s = e ? strerrorname_np(e) : "ok";

	return s ? s : "E?";
}

/* errno sets, 0-terminated */
static const int E_INFO[] = { EFAULT, EINVAL, E2BIG, 0 };
static const int E_CONFIG[] = { EFAULT, EINVAL, E2BIG, EOPNOTSUPP, ERANGE,
	ENODEV, ESRCH, EBUSY, ENXIO, ENOSPC, EPERM, ENOMEM, 0 };
static const int E_START[] = { EBADFD, EALREADY, EBUSY, EINVAL, 0 };
static const int E_STOP[] = { EBADFD, EALREADY, EINVAL, 0 };
static const int E_STATS[] = { EFAULT, EINVAL, E2BIG, EBADFD, 0 };
static const int E_PMU[] = { EFAULT, EINVAL, E2BIG, 0 };
static const int E_NOTTY[] = { ENOTTY, 0 };
static const int E_VFS[] = { ENOTTY, EFAULT, EINVAL, 0 };
static const int E_MMAP[] = { EBADFD, EINVAL, EPERM, EACCES, ENOMEM,
	EOVERFLOW, EOPNOTSUPP, EAGAIN, 0 };
static const int E_MPROTECT[] = { EACCES, 0 };
static const int E_MREMAP[] = { EFAULT, EINVAL, ENOMEM, EAGAIN, 0 };
static const int E_MADVISE[] = { EINVAL, EFAULT, ENOMEM, EPERM, EACCES, EAGAIN,
	EIO, EOPNOTSUPP, ENODEV, EBADF, 0 };
static const int E_EPOLL[] = { EEXIST, ENOENT, EPERM, EINVAL, 0 };
static const int E_RW[] = { EINVAL, ESPIPE, 0 };
static const int E_NONE[] = { 0 };

static bool in_set(int e, const int *set)
{
	for (; *set; set++)
		if (*set == e)
			return true;
	return false;
}

/*
 * Count one system call. @ret is its result as the kernel gave it (-1
 * with @err, else what it returned); @ebadf: the fd was no session fd.
 * Returns @err, 0 on success.
 */
static int outcome(enum op op, long ret, int err, const int *allowed,
		   bool ebadf)
{
	struct op_stats *st = &sh->op[op];

	add(&st->calls, 1);
	add(&sh->calls[who], 1);
	seq++;
	if (ret == -1) {
		add(&st->err[err > 0 && err < MAX_ERRNO ? err : MAX_ERRNO], 1);
		if (!(ebadf && err == EBADF) && !in_set(err, allowed))
			failure(F_ERRNO, "%s: errno %s (%d) is not one it documents",
				op_names[op], ename(err), err);
		return err;
	}
	add(&st->ok, 1);
	if (ret != 0)
		failure(F_ERRNO, "%s returned %ld", op_names[op], ret);
	return 0;
}

static void note_op(enum op op)
{
	sh->last_op[who] = op;
	sh->last_call[who] = seq;
}

/* ------------------------------------------------------------------ */
/* Touching mappings: a SIGBUS or SIGSEGV is caught and judged.         */

static sigjmp_buf touch_jmp;
static volatile sig_atomic_t touch_armed, touch_sig;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	void *frames[32];
	char buf[160];
	int n;

	(void)uc;
	if (touch_armed) {
		touch_armed = 0;
		touch_sig = sig;
		siglongjmp(touch_jmp, 1);
	}
	/* Not the fuzzer's own reading of a mapping: say where, then die. */
	n = snprintf(buf, sizeof(buf), "%s at %p (code %d), %s call %" PRIu64
		     " (%s); backtrace:\n", strsignal(sig), si->si_addr,
		     si->si_code, who == PRIV ? "privileged" : "unprivileged",
		     seq, op_names[sh->last_op[who]]);
	if (write(2, buf, n) < 0)
		_exit(3);
	n = backtrace(frames, 32);
	backtrace_symbols_fd(frames, n, 2);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Read a byte of each page; the signal it raised, or 0. */
static int touch(const volatile uint8_t *p, size_t len, uint64_t *sum)
{
	volatile uint64_t s = 0;
	volatile size_t i;

	touch_sig = 0;
	if (!sigsetjmp(touch_jmp, 1)) {
		touch_armed = 1;
		for (i = 0; i < len; i += page)
			s += p[i];
		touch_armed = 0;
	}
	if (sum)
		*sum = s;
	return touch_sig;
}

/* Run @fn, which reads or writes mappings; a fault there is a failure. */
static void guarded(void (*fn)(void), enum op op)
{
	touch_sig = 0;
	if (!sigsetjmp(touch_jmp, 1)) {
		touch_armed = 1;
		fn();
		touch_armed = 0;
	} else {
		failure(F_SIGNAL, "%s in %s", strsignal(touch_sig),
			op_names[op]);
	}
}

/* ------------------------------------------------------------------ */
/* Slots, sessions, mappings                                           */

static int sess_new(void)
{
	int i;

	for (i = 0; i < MAX_SESS; i++) {
		if (!sessions[i].used) {
			memset(&sessions[i], 0, sizeof(sessions[i]));
			sessions[i].used = true;
			return i;
		}
	}
	return -1;
}

static void sess_put(int i)
{
	if (i >= 0 && !sessions[i].fds && !sessions[i].maps)
		sessions[i].used = false;
}

static void slot_add(int fd, int sess, int acc, bool orig)
{
	slots[nr_slots++] = (struct slot){ fd, sess, acc, orig };
	if (sess >= 0)
		sessions[sess].fds++;
}

static void slot_del(int i)
{
	int s = slots[i].sess;

	slots[i] = slots[--nr_slots];
	if (s >= 0) {
		sessions[s].fds--;
		sess_put(s);
	}
}

static void map_del(int i)
{
	int s = maps[i].sess;

	maps[i] = maps[--nr_maps];
	sessions[s].maps--;
	sess_put(s);
}

/* An fd to use: mostly a slot's, sometimes one that is not open at all. */
static int pick_fd(int *slot, bool *bad)
{
	*slot = -1;
	*bad = true;
	if (!nr_slots || chance(15))
		return chance(500) ? BOGUS_FD : -1 - (int)below(3);
	*slot = below(nr_slots);
	*bad = slots[*slot].sess < 0;
	return slots[*slot].fd;
}

static struct sess *slot_sess(int slot)
{
	return slot >= 0 && slots[slot].sess >= 0 ?
		&sessions[slots[slot].sess] : NULL;
}

/* ------------------------------------------------------------------ */
/* Arguments                                                           */

/* A bad pointer, or (mostly, with @valid) somewhere in the scratch area. */
static uint64_t fuzz_ptr(size_t need)
{
	switch (below(10)) {
	case 0:
		return 0;
	case 1:
		return 1 + below(page - 1);
	case 2:
		return hole + (below(page) & ~7ULL);
	case 3:
		return 0xffffffff81000000ULL + (below(1 << 20) << 4);
	case 4:
		return 0xffff888000000000ULL + (below(1 << 24) << 12);
	case 5:
		return 0x0000800000000000ULL - (below(2) ? 8 : 0);
	case 6:
		return (uintptr_t)guard - (need ? 1 + below(need) : 8);
	case 7:
		return (uintptr_t)ro_page + (below(page / 2) & ~7ULL);
	case 8:
		return rnd();
	default:
		return (uintptr_t)scratch;
	}
}

static bool placed_dirty;		/* place() left a non-zero byte past @len */

/*
 * Copy @len bytes of @src into the scratch area, at or after offset @lo,
 * where the kernel will read @usize bytes (bytes past @len: zero, or with
 * @dirty sometimes random), mostly with room, sometimes so that they run
 * into the guard page. Returns where.
 */
static void *place_from(size_t lo, const void *src, size_t len, size_t usize,
			bool dirty)
{
	size_t span = usize > len ? usize : len, off, i;
	uint8_t *p;

	placed_dirty = false;
	if (span > scratch_len - lo) {
		p = scratch + lo;
	} else if (chance(30)) {
		/* straddles the guard page by up to 64 bytes */
		off = below(64) + 1;
		p = guard - span + (off < span ? off : 0);
		p = (uint8_t *)((uintptr_t)p & ~7ULL);
		if (p < scratch + lo)
			p = scratch + lo;
	} else {
		off = (below(scratch_len - lo - span + 1)) & ~7ULL;
		p = scratch + lo + off;
	}
	for (i = 0; i < span && p + i < guard; i++) {
		p[i] = i < len ? ((const uint8_t *)src)[i] : 0;
		if (i >= len && dirty && chance(200)) {
			p[i] = (uint8_t)(1 + below(255));
			placed_dirty = true;
		}
	}
	return p;
}

static void *place(const void *src, size_t len, size_t usize, bool dirty)
{
	return place_from(0, src, len, usize, dirty);
}

/* Does [p, p + n) lie in readable, writable scratch memory? */
static bool in_scratch(const void *p, size_t n)
{
	return (const uint8_t *)p >= scratch &&
	       (const uint8_t *)p + n <= guard;
}

/* A struct size: mostly right, else around every boundary. */
static uint32_t fuzz_size(uint32_t ver0, uint32_t cur)
{
	const uint64_t odd[] = {
		0, 1, 4, 7, 8, ver0 - 8, ver0 - 1, ver0 + 4, cur + 1, cur + 8,
		cur + 64, page - 8, page, page + 1, page + 8, 2 * page,
		0x7fffffff, 0xffffffff,
	};

	if (chance(750))
		return cur;
	if (chance(200))
		return ver0;
	return chance(900) ? PICK(odd) : (uint32_t)rnd();
}

static uint64_t interesting64(void)
{
	const uint64_t v[] = {
		0, 1, 2, 3, 7, 8, 63, 64, 127, 128, 255, 256, 4095, 4096, 65535,
		65536, 0x7fffffff, 0x80000000, 0xffffffff, 1ULL << 32,
		(1ULL << 63) - 1, 1ULL << 63, ~0ULL, ~0ULL - 1,
	};

	return chance(800) ? PICK(v) : rnd();
}

/* ------------------------------------------------------------------ */
/* Configs                                                             */

static uint32_t ring_pages_pick(void)
{
	unsigned int lg = 0;

	if (chance(2)) {
		while ((2ULL << lg) <= max_ring_pages)
			lg++;
		return 1U << below(lg + 1);
	}
	return 1U << below(4);
}

static void cpumask_pick(struct skd_config *c)
{
	unsigned int words = 1 + below(3);
	uint64_t m;

	do {
		m = rnd() & possible_mask;
	} while (!m);
	memset(mask_buf, 0, words * 8);
	mask_buf[0] = m;
	c->cpumask_bytes = words * 8;
	c->cpumask_ptr = (uintptr_t)mask_buf;
}

static void good_timer(struct skd_config *c)
{
	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	c->backend = info.default_backend == SKD_BACKEND_TIMER && chance(300) ?
		     SKD_BACKEND_DEFAULT : SKD_BACKEND_TIMER;
	c->ring_pages = ring_pages_pick();
	if (chance(600)) {
		c->flags |= SKD_CFG_FREQ;
		c->sample_freq = chance(20) ? info.max_freq : 1 + below(1000);
	} else {
		c->sample_period = chance(20) ? min_period_ns :
				   1000000 + below(1000000000);
	}
	if (chance(300))
		c->wakeup_bytes = below((uint64_t)c->ring_pages * page / 2 + 1);
	if (chance(500))
		c->callchain_depth = below(SKD_MAX_CALLCHAIN + 1);
	if (chance(100))
		c->flags |= SKD_CFG_NO_SIDEBAND;
	if (chance(100))
		c->flags |= chance(500) ? SKD_CFG_EXCLUDE_USER :
					  SKD_CFG_EXCLUDE_KERNEL;
	if (chance(100)) {
		c->flags |= SKD_CFG_PID;
		c->pid = getpid();
		/* A child that may be gone by now: then ESRCH is right. */
		if (nr_kids && chance(500)) {
			c->pid = kids[below(nr_kids)];
			pid_may_vanish = true;
		}
	}
	if (chance(200))
		cpumask_pick(c);
}

/* Events every sim model places on its counters without PEBS. */
static const uint64_t safe_events[] = { 0x003c, 0x00c0, 0x00c4, 0x00c5 };

static void good_sim(struct skd_config *c)
{
	unsigned int i, n = 1 + below(2);

	good_timer(c);
	c->backend = SKD_BACKEND_SIM;
	c->sim_model = sim_model_arg ? sim_model_arg : below(__SKD_SIM_MAX);
	if (c->flags & SKD_CFG_FREQ)
		c->sample_freq = 1 + below(1000);
	else
		c->sample_period = 200000 + below(10000000);
	memset(ev_buf, 0, sizeof(ev_buf));
	for (i = 0; i < n; i++) {
		ev_buf[i].size = sizeof(ev_buf[i]);
		ev_buf[i].config = PICK(safe_events);
		if (chance(300))
			ev_buf[i].sample_period = 100000 + below(10000000);
		if (chance(100))
			ev_buf[i].flags = chance(500) ? SKD_EV_EXCLUDE_USER :
							SKD_EV_EXCLUDE_KERNEL;
	}
	c->events_ptr = (uintptr_t)ev_buf;
	c->nr_events = n;
	c->event_attr_size = sizeof(ev_buf[0]);
}

/* Encodings from the models' tables, pseudo encodings and unknown ones. */
static const uint64_t pmu_events[] = {
	0x003c, 0x00c0, 0x01c0, 0x00c2, 0x01c2, 0x02c2, 0x00c4, 0x00c5, 0x81d0,
	0x82d0, 0x08d1, 0x10d1, 0x20d1, 0x01cd, 0x0300, 0x0400, 0x0100, 0x0001,
	0x1234,
};

/* A number between 1 and 2^@bits, each power of two as likely. */
static uint64_t log_uniform(unsigned int bits)
{
	unsigned int b = below(bits);

	return (1ULL << b) + below(1ULL << b);
}

/*
 * A config for the sim backend that may or may not be placeable: PEBS,
 * load latency, LBR filters, many events, tiny periods, frequencies.
 * Only its errno is judged; when it is accepted it samples hard.
 */
static void plausible_pmu(struct skd_config *c)
{
	unsigned int i, n = 1 + below(chance(200) ? SKD_MAX_EVENTS : 4);

	good_timer(c);
	c->backend = SKD_BACKEND_SIM;
	c->sim_model = sim_model_arg ? sim_model_arg : below(__SKD_SIM_MAX);
	if (c->flags & SKD_CFG_FREQ)
		c->sample_freq = 1 + below(5000);
	else
		c->sample_period = 1000 + log_uniform(24);
	if (chance(300))
		c->branch_sample = rnd() & __SKD_BRANCH_ALL;
	memset(ev_buf, 0, sizeof(ev_buf));
	for (i = 0; i < n; i++) {
		struct skd_event_attr *e = &ev_buf[i];

		e->size = sizeof(*e);
		e->config = PICK(pmu_events);
		if (chance(50))
			e->config |= (rnd() & 1) << 18 | (rnd() & 1) << 23 |
				     below(4) << 24;
		if (chance(400))
			e->precise = 1 + below(3);
		if (e->config == 0x01cd && chance(900))
			e->ldlat = 1 + below(500);
		if (chance(200)) {
			e->flags |= SKD_EV_FREQ;
			e->sample_freq = 1 + below(20000);
		} else if (chance(500)) {
			e->sample_period = chance(50) ? 1 + below(100) :
					   log_uniform(24);
		}
		if (chance(100))
			e->flags |= chance(500) ? SKD_EV_EXCLUDE_USER :
						  SKD_EV_EXCLUDE_KERNEL;
	}
	c->events_ptr = (uintptr_t)ev_buf;
	c->nr_events = n;
	c->event_attr_size = sizeof(ev_buf[0]);
}

static void good_config(struct skd_config *c)
{
	if (sim_mode ? chance(800) : chance(150))
		good_sim(c);
	else
		good_timer(c);
}

/* One change that the ABI says makes @c invalid. */
static void corrupt(struct skd_config *c, bool sim)
{
	uint64_t ring_bytes = (uint64_t)c->ring_pages * page;
	unsigned int ne = c->nr_events && c->nr_events <= SKD_MAX_EVENTS ?
			  c->nr_events : 1;
	struct skd_event_attr *e = &ev_buf[below(ne)];
	unsigned int k = below(sim ? 30 : 24), bit;

	switch (k) {
	case 0:
		c->flags |= 1U << (5 + below(27));
		break;
	case 1:
		c->reserved[below(4)] = interesting64() | 1;
		break;
	case 2:
		c->backend = __SKD_BACKEND_MAX + below(chance(500) ? 4 : 1U << 31);
		break;
	case 3:
		c->ring_pages = chance(300) ? 0 : (1U << below(20)) | 3;
		if (c->ring_pages == 3 && chance(500))
			c->ring_pages = 0x80000001;
		break;
	case 4: {
		uint64_t over = max_ring_pages + 1, p2 = 1;

		while (p2 < over)
			p2 <<= 1;
		c->ring_pages = p2 <= (1U << 31) ? p2 : 0;
		break;
	}
	case 5:
		c->wakeup_bytes = ring_bytes / 2 + 1 + below(ring_bytes);
		break;
	case 6:
		c->callchain_depth = SKD_MAX_CALLCHAIN + 1 +
				     below(chance(500) ? 8 : 1U << 31);
		break;
	case 7:
		c->flags |= SKD_CFG_EXCLUDE_USER | SKD_CFG_EXCLUDE_KERNEL;
		break;
	case 8:
		c->flags |= SKD_CFG_PID;
		c->pid = chance(300) ? 0 : chance(500) ? -1 - (int)below(5) :
			 0x7fffffff - (int)below(3);
		break;
	case 9:
		c->flags &= ~SKD_CFG_PID;
		c->pid = chance(500) ? getpid() : (int)rnd() | 1;
		break;
	case 10:
		c->cpumask_ptr = (uintptr_t)mask_buf;
		mask_buf[0] = 1;
		c->cpumask_bytes = chance(300) ? 0 : chance(500) ?
				   1 + below(7) :
				   8 * (1 + below(128)) + 1 + below(7);
		break;
	case 11:
		c->cpumask_ptr = (uintptr_t)mask_buf;
		c->cpumask_bytes = SKD_CPUMASK_MAX_BYTES + 8 * (1 + below(4));
		break;
	case 12:
		c->cpumask_bytes = 8 * (1 + below(4));
		do {
			c->cpumask_ptr = fuzz_ptr(c->cpumask_bytes);
		} while ((uint8_t *)(uintptr_t)c->cpumask_ptr >= scratch &&
			 (uint8_t *)(uintptr_t)c->cpumask_ptr +
			 c->cpumask_bytes <= guard);
		if (c->cpumask_ptr >= (uintptr_t)ro_page &&
		    c->cpumask_ptr < (uintptr_t)ro_page + page)
			c->cpumask_ptr = 0;
		break;
	case 13:
		c->cpumask_bytes = 8 * (1 + below(4));
		memset(mask_buf, 0, c->cpumask_bytes);
		c->cpumask_ptr = (uintptr_t)mask_buf;
		break;
	case 14:
		c->cpumask_bytes = 8 * (1 + below(SKD_CPUMASK_MAX_BYTES / 8));
		if (c->cpumask_bytes * 8 <= nr_cpus)
			c->cpumask_bytes = (nr_cpus / 64 + 1) * 8;
		memset(mask_buf, 0, c->cpumask_bytes);
		bit = nr_cpus + below(c->cpumask_bytes * 8 - nr_cpus);
		mask_buf[bit / 64] |= 1ULL << (bit % 64);
		if (chance(500))
			mask_buf[0] |= 1;
		c->cpumask_ptr = (uintptr_t)mask_buf;
		break;
	case 15:
		c->nr_events = SKD_MAX_EVENTS + 1 + below(chance(500) ? 4 :
							  1U << 31);
		c->events_ptr = (uintptr_t)ev_buf;
		c->event_attr_size = sizeof(ev_buf[0]);
		break;
	case 16:
		c->nr_events = 0;
		c->events_ptr = (uintptr_t)ev_buf;
		if (chance(500))
			c->event_attr_size = 0;
		break;
	case 17:
		c->nr_events = 0;
		c->events_ptr = 0;
		c->event_attr_size = 1 + below(100);
		break;
	case 18:
		c->sim_model = __SKD_SIM_MAX + below(chance(500) ? 4 : 1U << 31);
		break;
	case 19:
		c->branch_sample |= 1U << (10 + below(22));
		break;
	case 20:
		/* A backend without a PMU here, or the timer asked for PMU things. */
		if (!intel_usable && chance(300)) {
			c->backend = SKD_BACKEND_INTEL;
			break;
		}
		if (sim) {
			c->nr_events = 0;
			c->events_ptr = 0;
			c->event_attr_size = 0;
		} else if (chance(500)) {
			c->sim_model = 1 + below(__SKD_SIM_MAX - 1);
		} else {
			c->branch_sample = 1U << below(10);
		}
		break;
	case 21:
		if (sim) {
			c->flags &= ~SKD_CFG_FREQ;
			c->sample_period = 0;
			e->sample_period = 0;
			e->flags &= ~SKD_EV_FREQ;
			for (e = ev_buf; e < ev_buf + ne; e++)
				e->sample_period = 0;
		} else if (c->flags & SKD_CFG_FREQ) {
			c->sample_freq = chance(300) ? 0 :
				info.max_freq + 1 + below(chance(500) ? 100 : ~0U);
		} else {
			c->sample_period = chance(300) ? 0 :
				min_period_ns - 1 - below(min_period_ns);
		}
		break;
	case 22:
		c->size = below(SKD_CONFIG_SIZE_VER0);
		break;
	case 23:
		c->size = page + 1 + below(chance(500) ? 64 : ~0U - page - 1);
		break;
	/* the PMU backends' event attributes */
	case 24:
		c->event_attr_size = chance(500) ? below(SKD_EVENT_ATTR_SIZE_VER0) :
				     page + 1 + below(page);
		break;
	case 25:
		e->flags |= 1U << (3 + below(29));
		break;
	case 26:
		if (chance(300))
			e->reserved1 = (uint32_t)rnd() | 1;
		else
			e->reserved0[below(3)] = 1 + below(255);
		break;
	case 27:
		/* USR, OS, PC, INT, ANY, EN, or above bit 31 */
		bit = chance(500) ? 16 + below(7) : 32 + below(32);
		if (bit == 18)
			bit = 19;
		e->config |= 1ULL << bit;
		break;
	case 28:
		switch (below(4)) {
		case 0:
			e->precise = 4 + below(252);
			break;
		case 1:
			e->flags |= SKD_EV_EXCLUDE_USER | SKD_EV_EXCLUDE_KERNEL;
			break;
		case 2:
			/* An event whose size is not the array's stride. */
			e->size = chance(300) ? 0 : c->event_attr_size + 1 +
						   below(chance(500) ? 8 : ~0U - 64);
			break;
		default:
			e->ldlat = 1 + below(0xffff);
			break;
		}
		break;
	default:
		do {
			c->events_ptr = fuzz_ptr(c->nr_events *
						 c->event_attr_size);
		} while ((uint8_t *)(uintptr_t)c->events_ptr >= scratch &&
			 (uint8_t *)(uintptr_t)c->events_ptr <= guard);
		if (c->events_ptr >= (uintptr_t)ro_page &&
		    c->events_ptr < (uintptr_t)ro_page + page)
			c->events_ptr = 0;
		break;
	}
}

/* @c at its address @p with size @usize was refused: was it meant to? */
static void config_result(int slot, const struct skd_config *c, uint32_t usize,
			  int err, bool meant_ok, bool meant_bad)
{
	struct sess *s = slot_sess(slot);

	if (!s)
		return;
	if (!err) {
		if (meant_bad)
			failure(F_ACCEPTED, "CONFIG accepted a corrupted config "
				"(backend %u, size %u, ring_pages %u)",
				c->backend, usize, c->ring_pages);
		else if (s->configured)
			failure(F_ACCEPTED, "CONFIG accepted twice on one session");
		s->configured = true;
		s->ring_pages = c->ring_pages;
		add(&sh->configs_ok, 1);
		return;
	}
	/* Large rings, and PEBS buffers (64 KiB per CPU), may not be had. */
	if (err == ENOMEM && c->ring_pages < 512 &&
	    c->backend != SKD_BACKEND_SIM)
		failure(F_ERRNO, "CONFIG: ENOMEM with %u ring pages",
			c->ring_pages);
	if (meant_ok && s->configured && err != EBUSY)
		failure(F_REFUSED, "CONFIG of a configured session: %s, not "
			"EBUSY", ename(err));
	if (meant_ok && !s->configured && err != ENOMEM &&
	    !(err == ESRCH && pid_may_vanish))
		failure(F_REFUSED, "CONFIG refused a valid config: %s (backend "
			"%u, model %u, ring_pages %u, flags 0x%x, %u events)",
			ename(err), c->backend, c->sim_model, c->ring_pages,
			c->flags, c->nr_events);
}

static void op_config(enum op op)
{
	struct skd_config c;
	uint8_t junk[sizeof(c) + 64];
	bool bad, meant_ok = false, meant_bad = false, sim = false;
	int slot, err, fd = pick_fd(&slot, &bad);
	uint32_t usize;
	uint64_t ptr;
	void *p;
	long r;

	pid_may_vanish = false;
	if (op == OP_CONFIG_PMU) {
		plausible_pmu(&c);
		usize = sizeof(c);
	} else if (op == OP_CONFIG_JUNK) {
		for (size_t i = 0; i < sizeof(junk); i += 8) {
			uint64_t v = chance(300) ? interesting64() : rnd();

			memcpy(junk + i, &v, 8);
		}
		memcpy(&c, junk, sizeof(c));
		usize = fuzz_size(SKD_CONFIG_SIZE_VER0, sizeof(c));
		c.size = usize;
		if (chance(500))
			c.events_ptr = fuzz_ptr(64);
		if (chance(500))
			c.cpumask_ptr = fuzz_ptr(64);
		if (chance(300)) {
			c.events_ptr = (uintptr_t)ev_buf;
			c.nr_events = below(SKD_MAX_EVENTS + 2);
			c.event_attr_size = sizeof(ev_buf[0]);
		}
	} else {
		good_config(&c);
		sim = c.backend == SKD_BACKEND_SIM;
		usize = c.size;
		/*
		 * Version 0 sizes leave out the events the sim needs, and
		 * the fields a corruption may land in.
		 */
		if (op == OP_CONFIG_BAD)
			usize = sizeof(c);
		else if (chance(50) && !sim)
			usize = SKD_CONFIG_SIZE_VER0 + below(4) * 4;
		else if (chance(50))
			usize = sizeof(c) + 4 * below(page / 4 - 25);
		c.size = usize;
		if (op == OP_CONFIG_BAD) {
			unsigned int n = 1 + (chance(200) ? below(3) : 0);

			while (n--)
				corrupt(&c, sim);
			usize = c.size;
			meant_bad = true;
		} else {
			meant_ok = !bad;
		}
	}
	/* Only a size the kernel may read is followed by zeros. */
	p = place(&c, sizeof(c), usize <= page ? usize : 0,
		  op == OP_CONFIG_JUNK);
	if (meant_ok && !in_scratch(p, usize > sizeof(c) ? usize : sizeof(c)))
		meant_ok = false;
	if (meant_bad && !in_scratch(p, usize > sizeof(c) ? usize : sizeof(c)) &&
	    usize >= SKD_CONFIG_SIZE_VER0 && usize <= page)
		meant_bad = false;	/* EFAULT instead, which is a refusal */
	ptr = chance(20) ? fuzz_ptr(usize) : (uintptr_t)p;
	if (ptr != (uintptr_t)p)
		meant_ok = false;
	r = ioctl(fd, SKD_IOC_CONFIG, (void *)(uintptr_t)ptr);
	err = outcome(op, r, r ? errno : 0, E_CONFIG, bad);
	if (!bad && ptr == (uintptr_t)p && op != OP_CONFIG_JUNK) {
		config_result(slot, &c, usize, err, meant_ok, meant_bad);
	} else if (!bad && !err && slot_sess(slot)) {
		/* Configured from bytes we did not choose: size unknown. */
		slot_sess(slot)->configured = true;
		slot_sess(slot)->ring_pages = 0;
		add(&sh->configs_ok, 1);
	}
}

/* ------------------------------------------------------------------ */
/* The other ioctls                                                    */

static void op_info(void)
{
	struct skd_info in;
	uint32_t usize = fuzz_size(SKD_INFO_SIZE_VER0, sizeof(in));
	int slot, err;
	bool bad;
	int fd = pick_fd(&slot, &bad);
	struct skd_info *p;
	uint64_t ptr;
	long r;

	memset(&in, 0, sizeof(in));
	in.size = usize;
	p = place(&in, sizeof(in), usize <= page ? usize : 0, true);
	ptr = chance(50) ? fuzz_ptr(usize) : (uintptr_t)p;
	r = ioctl(fd, SKD_IOC_GET_INFO, (void *)(uintptr_t)ptr);
	err = outcome(OP_INFO, r, r ? errno : 0, E_INFO, bad);
	if (ptr != (uintptr_t)p || bad)
		return;
	if (!err && (usize < SKD_INFO_SIZE_VER0 || usize > page))
		failure(F_ACCEPTED, "GET_INFO accepted size %u", usize);
	if (!err && p->size != (usize < sizeof(in) ? usize : sizeof(in)))
		failure(F_ERRNO, "GET_INFO of size %u says it wrote %u", usize,
			p->size);
	if (!err && who == UNPRIV)
		add(&sh->u_info_ok, 1);
	if (err && usize >= SKD_INFO_SIZE_VER0 && usize <= page &&
	    in_scratch(p, usize))
		failure(F_REFUSED, "GET_INFO of size %u: %s", usize, ename(err));
}

static void op_pmu(void)
{
	struct skd_pmu_info q;
	uint32_t usize = fuzz_size(SKD_PMU_INFO_SIZE_VER0, sizeof(q));
	const uint64_t backends[] = { 0, 1, 2, 3, 3, 3, 4, 0xffffffff };
	int slot, err;
	bool bad, good;
	int fd = pick_fd(&slot, &bad);
	struct skd_pmu_info *p;
	uint64_t ptr;
	long r;

	memset(&q, 0, sizeof(q));
	q.size = usize;
	q.backend = chance(900) ? PICK(backends) : (uint32_t)rnd();
	q.sim_model = chance(700) ? below(__SKD_SIM_MAX) :
		      chance(700) ? __SKD_SIM_MAX : (uint32_t)rnd();
	if (chance(30))
		q.flags = 1U << below(32);
	if (chance(30))
		q.cpu_signature = (uint32_t)rnd() | 1;
	p = place(&q, sizeof(q), usize <= page ? usize : 0, true);
	ptr = chance(50) ? fuzz_ptr(usize) : (uintptr_t)p;
	good = usize >= SKD_PMU_INFO_SIZE_VER0 && usize <= page &&
	       !q.flags && !q.cpu_signature &&
	       ((q.backend == SKD_BACKEND_INTEL && !q.sim_model) ||
		(q.backend == SKD_BACKEND_SIM && q.sim_model < __SKD_SIM_MAX));
	r = ioctl(fd, SKD_IOC_GET_PMU, (void *)(uintptr_t)ptr);
	err = outcome(OP_PMU, r, r ? errno : 0, E_PMU, bad);
	if (ptr != (uintptr_t)p || bad)
		return;
	if (!err && !good)
		failure(F_ACCEPTED, "GET_PMU accepted size %u backend %u model "
			"%u flags 0x%x signature 0x%x", usize, q.backend,
			q.sim_model, q.flags, q.cpu_signature);
	if (!err && p->size != (usize < sizeof(q) ? usize : sizeof(q)))
		failure(F_ERRNO, "GET_PMU of size %u says it wrote %u", usize,
			p->size);
}

static void op_stats(void)
{
	struct skd_stats q;
	uint32_t usize = fuzz_size(SKD_STATS_SIZE_VER0, sizeof(q));
	const uint64_t strides[] = {
		0, 8, 63, 64, 64, 64, 65, 72, 128, page, page + 1, 0xffffffff,
	};
	const uint64_t counts[] = { 0, 1, nr_cpus - 1, nr_cpus, nr_cpus + 1, 64,
		0xffffffff };
	int slot, err;
	bool bad, good;
	int fd = pick_fd(&slot, &bad);
	struct sess *s = slot_sess(slot);
	uint64_t ptr, room;
	uint8_t *arr;
	void *p;
	long r;

	memset(&q, 0, sizeof(q));
	q.size = usize;
	q.nr_cpus = chance(700) ? nr_cpus : PICK(counts);
	q.cpu_stats_size = chance(700) ? sizeof(struct skd_cpu_stats) :
			   PICK(strides);
	if (chance(30))
		q.reserved0 = 1U << below(32);
	/* The array at the start of the scratch area, the struct after it. */
	arr = scratch;
	room = scratch_len / 2;
	q.cpus_ptr = chance(900) ? (uintptr_t)arr : fuzz_ptr(64);
	p = place_from(room, &q, sizeof(q), usize <= page ? usize : 0,
		       chance(100));
	ptr = chance(30) ? fuzz_ptr(usize) : (uintptr_t)p;
	good = s && s->configured && usize >= SKD_STATS_SIZE_VER0 &&
	       usize <= page && !q.reserved0 && !placed_dirty &&
	       q.cpu_stats_size >= SKD_CPU_STATS_SIZE_VER0 &&
	       q.cpu_stats_size <= page;
	r = ioctl(fd, SKD_IOC_GET_STATS, (void *)(uintptr_t)ptr);
	err = outcome(OP_STATS, r, r ? errno : 0, E_STATS, bad);
	/* A child's idea of what is configured is as old as the fork. */
	if (ptr != (uintptr_t)p || bad || !s || in_kid)
		return;
	if (!err && !good)
		failure(F_ACCEPTED, "GET_STATS accepted size %u, stride %u, "
			"reserved0 0x%x, configured %d", usize,
			q.cpu_stats_size, q.reserved0, s->configured);
	if (err == EFAULT || !good || q.cpus_ptr != (uintptr_t)arr ||
	    !in_scratch(p, usize) ||
	    (uint64_t)(q.nr_cpus < nr_cpus ? q.nr_cpus : nr_cpus) *
	    q.cpu_stats_size > room)
		return;
	if (err)
		failure(F_REFUSED, "GET_STATS (size %u, %u CPUs, stride %u): %s",
			usize, q.nr_cpus, q.cpu_stats_size, ename(err));
	else if (((struct skd_stats *)p)->nr_cpus != nr_cpus)
		failure(F_ERRNO, "GET_STATS says %u CPUs, GET_INFO %u",
			((struct skd_stats *)p)->nr_cpus, nr_cpus);
}

static void op_start_stop(enum op op)
{
	int slot, err;
	bool bad;
	int fd = pick_fd(&slot, &bad);
	unsigned long arg = chance(900) ? 0 : interesting64() | 1;
	long r;

	r = ioctl(fd, op == OP_START ? SKD_IOC_START : SKD_IOC_STOP, arg);
	err = outcome(op, r, r ? errno : 0, op == OP_START ? E_START : E_STOP,
		      bad);
	if (bad || !slot_sess(slot))
		return;
	if (arg && err != EINVAL)
		failure(err ? F_ERRNO : F_ACCEPTED, "%s with argument %#lx: %s",
			op_names[op], arg, ename(err));
	if (!arg && !in_kid && !slot_sess(slot)->configured && err != EBADFD)
		failure(F_ERRNO, "%s before CONFIG: %s, not EBADFD",
			op_names[op], ename(err));
	if (!err && op == OP_START)
		add(&sh->starts_ok, 1);
}

static bool known_cmd(unsigned long cmd)
{
	return cmd == SKD_IOC_GET_INFO || cmd == SKD_IOC_CONFIG ||
	       cmd == SKD_IOC_START || cmd == SKD_IOC_STOP ||
	       cmd == SKD_IOC_GET_STATS || cmd == SKD_IOC_GET_PMU;
}

/* ioctl types the VFS itself answers on any file: never sent at random. */
static bool vfs_type(unsigned int type)
{
	return type == 0x00 || type == 0x12 || type == 0x15 || type == 0x54 ||
	       type == 0x58 || type == 0x66 || type == 0x94 ||
	       type == SKD_IOC_MAGIC;
}

static void op_ioctl(enum op op)
{
	int slot;
	bool bad;
	int fd = pick_fd(&slot, &bad);
	unsigned long cmd;
	const int *allowed = E_NOTTY;
	int arg_int = (int)below(2);
	void *arg;
	long r;

	if (op == OP_IOCTL_SKD) {
		do {
			cmd = _IOC(below(4), SKD_IOC_MAGIC, chance(500) ?
				   below(16) : below(256), chance(500) ? 0 :
				   below(1 << 14));
		} while (known_cmd(cmd));
	} else if (op == OP_IOCTL_ANY) {
		unsigned int type;

		do {
			type = below(256);
		} while (vfs_type(type));
		cmd = _IOC(below(4), type, below(256), below(1 << 14));
		if (chance(100))
			cmd = (uint32_t)rnd();
		if (vfs_type(_IOC_TYPE(cmd)))
			cmd = _IOC(0, 0xee, 0, 0);
	} else {
		const unsigned long vfs[] = {
			FIONBIO, FIOCLEX, FIONCLEX, FIOASYNC, FIONREAD, FIOQSIZE,
		};

		cmd = vfs[below(6)];
		allowed = E_VFS;
	}
	arg = chance(500) ? &arg_int : (void *)(uintptr_t)fuzz_ptr(64);
	r = ioctl(fd, cmd, arg);
	outcome(op, r, r ? errno : 0, allowed, bad);
}

/* ------------------------------------------------------------------ */
/* Opening and closing                                                 */

static void op_open(void)
{
	const int accs[] = { O_RDWR, O_RDWR, O_RDWR, O_RDWR, O_RDWR, O_RDONLY,
			     O_WRONLY, O_PATH };
	int acc = accs[below(8)], s, fd, err;

	if (nr_slots >= MAX_OPEN || nr_slots >= MAX_SLOTS)
		return;
	fd = open(SKD_DEVICE_PATH, acc | (chance(200) ? O_NONBLOCK : 0) |
		  (chance(500) ? O_CLOEXEC : 0));
	err = outcome(OP_OPEN, fd < 0 ? -1 : 0, errno, E_NONE, false);
	if (err) {
		failure(F_REFUSED, "root could not open %s: %s",
			SKD_DEVICE_PATH, ename(err));
		return;
	}
	s = acc == O_PATH ? -1 : sess_new();
	if (acc != O_PATH && s < 0) {
		close(fd);
		return;
	}
	slot_add(fd, s, acc == O_PATH ? O_RDONLY : acc, false);
}

static void op_close(void)
{
	int i, r;

	if (!nr_slots)
		return;
	i = below(nr_slots);
	if (slots[i].orig)
		return;
	r = close(slots[i].fd);
	outcome(OP_CLOSE, r, errno, E_NONE, false);
	slot_del(i);
}

static void op_dup(void)
{
	int i, fd;

	if (!nr_slots || nr_slots >= MAX_SLOTS)
		return;
	i = below(nr_slots);
	fd = dup(slots[i].fd);
	if (outcome(OP_DUP, fd < 0 ? -1 : 0, errno, E_NONE, false))
		return;
	slot_add(fd, slots[i].sess, slots[i].acc, false);
}

/* ------------------------------------------------------------------ */
/* mmap and friends                                                    */

/* 0: configured from bytes the fuzzer did not choose, size unknown. */
static size_t data_bytes(const struct sess *s)
{
	return (size_t)s->ring_pages * page;
}

static void op_mmap(void)
{
	const int prots[] = { PROT_READ, PROT_READ | PROT_WRITE, PROT_NONE,
		PROT_WRITE, PROT_READ | PROT_EXEC,
		PROT_READ | PROT_WRITE | PROT_EXEC };
	int slot, err, prot, flags, region, fixed = -1;
	bool bad, valid, judge;
	int fd = pick_fd(&slot, &bad);
	struct sess *s = slot_sess(slot);
	uint64_t cpu, off, len, data = s && s->configured ?
		data_bytes(s) : page * (1 << below(4));
	uint8_t *addr = NULL, *p;

	cpu = chance(900) ? below(nr_cpus) :
	      (uint64_t[]){ nr_cpus, 255, 1 << 20, rnd() & 0xffffffff }[below(4)];
	region = chance(470) ? SKD_MMAP_CONTROL : chance(890) ?
		 SKD_MMAP_DATA : (int[]){ 2, 3, 255, (int)below(256) }[below(4)];
	off = SKD_MMAP_OFFSET(cpu, region);
	if (chance(60))
		off += page * (1 + below(16));
	else if (chance(20))
		off = rnd() & ~(uint64_t)(page - 1);
	else if (chance(10))
		off |= 1 + below(page - 1);

	if (region == SKD_MMAP_CONTROL && chance(850)) {
		len = page;
	} else if (region == SKD_MMAP_DATA && chance(850)) {
		len = chance(500) ? data : 2 * data;
	} else {
		const uint64_t odd[] = { 0, page, data - page, data + page,
			2 * data - page, 2 * data + page, 3 * data, 1ULL << 40 };

		len = chance(800) ? PICK(odd) : page * (1 + below(64));
	}
	if (region == SKD_MMAP_CONTROL)
		prot = chance(800) ? PROT_READ | PROT_WRITE : prots[below(6)];
	else
		prot = chance(850) ? PROT_READ : prots[below(6)];

	flags = MAP_SHARED;
	switch (below(50)) {
	case 0:
		flags = MAP_PRIVATE;
		break;
	case 1:
	case 2:
		flags = MAP_SHARED_VALIDATE;
		break;
	case 3:
		flags |= MAP_POPULATE;
		break;
	case 4:
		flags |= MAP_LOCKED;
		break;
	case 5:
		flags |= MAP_NORESERVE;
		break;
	case 6:
		flags |= MAP_HUGETLB;
		break;
	case 7:
	case 8:
		if (nr_maps && !in_kid) {
			fixed = below(nr_maps);
			addr = maps[fixed].addr;
			len = maps[fixed].len;
			flags |= MAP_FIXED;
		}
		break;
	}

	/* A ring of unknown size: a data mapping is judged by its errno only. */
	judge = !in_kid && !(s && s->configured && !s->ring_pages &&
			     region == SKD_MMAP_DATA);
	valid = s && s->configured && slots[slot].acc != O_WRONLY &&
		(!(prot & PROT_WRITE) || slots[slot].acc == O_RDWR) &&
		(flags & MAP_TYPE) != MAP_PRIVATE && !(flags & MAP_HUGETLB) &&
		cpu < nr_cpus && cpu < MAX_CPUS &&
		(possible_mask >> cpu & 1) && len &&
		off == SKD_MMAP_OFFSET(cpu, region) &&
		((region == SKD_MMAP_CONTROL && len == page) ||
		 (region == SKD_MMAP_DATA && !(prot & PROT_WRITE) &&
		  (len == data || len == 2 * data)));

	p = mmap(addr, len, prot, flags, fd, off);
	err = outcome(OP_MMAP, p == MAP_FAILED ? -1 : 0, errno, E_MMAP, bad);
	if (fixed >= 0) {
		if (err)	/* the old mapping may or may not be gone */
			munmap(maps[fixed].addr, maps[fixed].len);
		map_del(fixed);
	}
	if (err) {
		if (valid && judge && !(prot & PROT_EXEC) &&
		    !(flags & MAP_LOCKED))
			failure(F_REFUSED, "mmap of a valid %s mapping (cpu "
				"%" PRIu64 ", %" PRIu64 " bytes, prot %d, flags "
				"0x%x, fd mode %d): %s", region ? "data" :
				"control", cpu, len, prot, flags,
				slots[slot].acc, ename(err));
		return;
	}
	if (!valid && !judge) {
		munmap(p, len);
		return;
	}
	if (!valid) {
		failure(F_ACCEPTED, "mmap accepted offset 0x%" PRIx64 ", %"
			PRIu64 " bytes, prot %d, flags 0x%x (configured %d, "
			"ring %zu bytes, fd mode %d)", off, len, prot, flags,
			s ? s->configured : -1, data, slot >= 0 ?
			slots[slot].acc : -1);
		munmap(p, len);
		return;
	}
	add(&sh->maps_ok, 1);
	if (in_kid || nr_maps >= MAX_MAPS) {
		int r = munmap(p, len);

		outcome(OP_MUNMAP, r, errno, E_NONE, false);
		return;
	}
	maps[nr_maps++] = (struct map){
		.addr = p, .len = len, .sess = slots[slot].sess, .cpu = cpu,
		.region = region, .prot = prot,
		.maywrite = region == SKD_MMAP_CONTROL &&
			    slots[slot].acc == O_RDWR,
		.whole = region == SKD_MMAP_CONTROL || len == 2 * data,
	};
	s->maps++;
}

static void op_munmap(void)
{
	struct map *m;
	int i, r;

	if (!nr_maps)
		return;
	i = below(nr_maps);
	m = &maps[i];
	if (m->len > page && chance(300)) {
		/* A page at the start, the end, or in the middle (a split). */
		size_t at = below(3) == 0 ? 0 : chance(500) ? m->len - page :
			    page * below(m->len / page);

		r = munmap(m->addr + at, page);
		if (outcome(OP_MUNMAP, r, errno, E_NONE, false))
			return;
		m->whole = false;
		if (at == 0) {
			m->addr += page;
			m->len -= page;
		} else if (at == m->len - page) {
			m->len -= page;
		} else if (nr_maps < MAX_MAPS) {
			struct map tail = *m;

			tail.addr = m->addr + at + page;
			tail.len = m->len - at - page;
			m->len = at;
			maps[nr_maps++] = tail;
			sessions[tail.sess].maps++;
		} else {
			munmap(m->addr + at, m->len - at);	/* drop the rest */
			m->len = at;
		}
		return;
	}
	r = munmap(m->addr, m->len);
	outcome(OP_MUNMAP, r, errno, E_NONE, false);
	map_del(i);
}

static void op_mprotect(void)
{
	const int prots[] = { PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE,
		PROT_WRITE, PROT_READ | PROT_EXEC,
		PROT_READ | PROT_WRITE | PROT_EXEC };
	struct map *m;
	int prot, err, r;
	bool may;

	if (!nr_maps)
		return;
	m = &maps[below(nr_maps)];
	prot = prots[below(6)];
	may = !(prot & PROT_WRITE) || m->maywrite;
	r = mprotect(m->addr, m->len, prot);
	err = outcome(OP_MPROTECT, r, errno, E_MPROTECT, false);
	if (!err && !may)
		failure(F_ACCEPTED, "mprotect made a %s mapping writable",
			m->region ? "data" : "read-only control");
	if (err && may && !(prot & PROT_EXEC))
		failure(F_REFUSED, "mprotect to %d: %s", prot, ename(err));
	if (!err)
		m->prot = prot;
}

static void op_mremap(void)
{
	struct map *m;
	void *p, *to;
	int err, how = below(4);

	if (!nr_maps)
		return;
	m = &maps[below(nr_maps)];
	if (how == 0) {
		/* Grow: the rings are VM_DONTEXPAND. */
		p = mremap(m->addr, m->len, m->len + page, MREMAP_MAYMOVE);
		err = outcome(OP_MREMAP, p == MAP_FAILED ? -1 : 0, errno,
			      E_MREMAP, false);
		if (!err) {
			failure(F_ACCEPTED, "mremap grew a ring mapping");
			munmap(p, m->len + page);
			map_del(m - maps);
		}
	} else if (how == 1 && m->len > page) {
		p = mremap(m->addr, m->len, m->len - page, 0);
		err = outcome(OP_MREMAP, p == MAP_FAILED ? -1 : 0, errno,
			      E_MREMAP, false);
		if (!err) {
			m->len -= page;
			m->whole = false;
		}
	} else if (how == 2) {
		to = mmap(NULL, m->len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
		if (to == MAP_FAILED)
			return;
		p = mremap(m->addr, m->len, m->len, MREMAP_MAYMOVE |
			   MREMAP_FIXED, to);
		err = outcome(OP_MREMAP, p == MAP_FAILED ? -1 : 0, errno,
			      E_MREMAP, false);
		if (err) {
			munmap(to, m->len);
			failure(F_REFUSED, "mremap moving a ring mapping: %s",
				ename(err));
		} else {
			m->addr = p;
		}
	} else {
		p = mremap(m->addr, m->len, m->len, MREMAP_MAYMOVE |
			   MREMAP_DONTUNMAP);
		err = outcome(OP_MREMAP, p == MAP_FAILED ? -1 : 0, errno,
			      E_MREMAP, false);
		if (!err) {
			failure(F_ACCEPTED, "MREMAP_DONTUNMAP of a ring mapping");
			munmap(p, m->len);
		}
	}
}

static void op_madvise(void)
{
	const int advice[] = { MADV_DONTNEED, MADV_WILLNEED, MADV_RANDOM,
		MADV_SEQUENTIAL, MADV_DONTFORK, MADV_DOFORK, MADV_DONTDUMP,
		MADV_DODUMP, MADV_COLD, MADV_PAGEOUT, MADV_POPULATE_READ,
		MADV_POPULATE_WRITE, MADV_REMOVE, MADV_FREE, MADV_NORMAL,
		MADV_HUGEPAGE, MADV_NOHUGEPAGE, MADV_MERGEABLE };
	struct map *m;
	int a, err, r;

	if (!nr_maps)
		return;
	m = &maps[below(nr_maps)];
	a = advice[below(sizeof(advice) / sizeof(advice[0]))];
	/* Rare: a reader that zaps its ring has to map it again. */
	if (a == MADV_DONTNEED && chance(700))
		a = MADV_WILLNEED;
	r = madvise(m->addr, m->len, a);
	err = outcome(OP_MADVISE, r, errno, E_MADVISE, false);
	if (!err && a == MADV_DONTNEED)
		m->zapped = true;
}

/* A mapping of @sess, @cpu, @region usable for reading (and writing). */
static struct map *find_map(int sess, int cpu, int region, bool write)
{
	int i;

	for (i = 0; i < nr_maps; i++) {
		struct map *m = &maps[i];

		if (m->sess == sess && m->cpu == cpu && m->region == region &&
		    m->whole && !m->zapped &&
		    (m->prot & (write ? PROT_WRITE : PROT_READ | PROT_WRITE)))
			return m;
	}
	return NULL;
}

static void check_ctrl(const struct map *m)
{
	const struct sess *s = &sessions[m->sess];
	const volatile struct skd_ring_ctrl *c = (void *)m->addr;
	uint64_t head;

	if (s->dirty[m->cpu])
		return;
	head = __atomic_load_n(&c->data_head, __ATOMIC_ACQUIRE);
	if (c->version != SKD_RING_VERSION ||
	    c->compat_version != SKD_RING_VERSION ||
	    c->size != sizeof(struct skd_ring_ctrl) || c->cpu != (uint32_t)m->cpu ||
	    (s->ring_pages && c->data_size != data_bytes(s)) ||
	    c->data_offset != SKD_MMAP_OFFSET(m->cpu, SKD_MMAP_DATA) ||
	    head % 8)
		failure(F_RING, "control page of cpu %d: version %u/%u size %u "
			"cpu %u data_size %llu offset 0x%llx head %llu",
			m->cpu, c->version, c->compat_version, c->size, c->cpu,
			(unsigned long long)c->data_size,
			(unsigned long long)c->data_offset,
			(unsigned long long)head);
}

static void op_touch(void)
{
	struct map *m;
	int sig;

	if (!nr_maps)
		return;
	m = &maps[below(nr_maps)];
	if (!(m->prot & (PROT_READ | PROT_WRITE)))
		return;
	add(&sh->touches, 1);
	sig = touch(m->addr, m->len, NULL);
	if (sig && m->zapped && sig == SIGBUS) {
		add(&sh->sigbus_expected, 1);
		return;
	}
	if (sig) {
		failure(F_SIGNAL, "%s reading a %s mapping of cpu %d (%zu bytes, "
			"prot %d)", strsignal(sig), m->region ? "data" :
			"control", m->cpu, m->len, m->prot);
		m->zapped = true;
		return;
	}
	if (m->region == SKD_MMAP_CONTROL && m->whole)
		check_ctrl(m);
}

/* Read a ring as the header's reader loop does and check each record. */
static void op_drain(void)
{
	const struct map *c, *d;
	struct skd_ring_ctrl *ctrl;
	struct sess *s;
	uint64_t head, tail, size;
	int i;

	if (!nr_maps)
		return;
	i = below(nr_maps);
	s = &sessions[maps[i].sess];
	c = find_map(maps[i].sess, maps[i].cpu, SKD_MMAP_CONTROL, true);
	if (!c)
		return;
	d = find_map(maps[i].sess, maps[i].cpu, SKD_MMAP_DATA, false);
	ctrl = (void *)c->addr;
	size = data_bytes(s);
	head = __atomic_load_n(&ctrl->data_head, __ATOMIC_ACQUIRE);
	tail = ctrl->data_tail;
	if (!d || s->desync[c->cpu] || s->dirty[c->cpu] || head - tail > size) {
		__atomic_store_n(&ctrl->data_tail, head, __ATOMIC_RELEASE);
		s->desync[c->cpu] = false;
		return;
	}
	while (tail != head) {
		const struct skd_rec_header *h =
			(void *)(d->addr + (tail & (size - 1)));
		const struct skd_rec_id *id = (const void *)(h + 1);

		if (h->size < sizeof(*h) + sizeof(*id) || h->size % 8 ||
		    h->size > head - tail || !h->type ||
		    h->type >= __SKD_REC_MAX || id->cpu != (uint32_t)c->cpu) {
			failure(F_RING, "record at %llu of cpu %d: type %u size "
				"%u cpu %u (head %llu)",
				(unsigned long long)tail, c->cpu, h->type,
				h->size, id->cpu, (unsigned long long)head);
			tail = head;
			break;
		}
		add(&sh->records, 1);
		if (h->type == SKD_REC_LOST)
			add(&sh->lost_records, 1);
		tail += h->size;
	}
	__atomic_store_n(&ctrl->data_tail, tail, __ATOMIC_RELEASE);
}

/* A reader that writes nonsense into its control page. */
static void op_scribble(void)
{
	struct map *m;
	uint64_t *w;
	unsigned int i;

	if (!nr_maps)
		return;
	m = &maps[below(nr_maps)];
	if (m->region != SKD_MMAP_CONTROL || !(m->prot & PROT_WRITE) ||
	    m->zapped)
		return;
	w = (uint64_t *)m->addr;
	i = chance(700) ? offsetof(struct skd_ring_ctrl, data_tail) / 8 :
	    below(sizeof(struct skd_ring_ctrl) / 8);
	w[i] = chance(500) ? interesting64() : rnd();
	sessions[m->sess].desync[m->cpu] = true;
	if (i != offsetof(struct skd_ring_ctrl, data_tail) / 8)
		sessions[m->sess].dirty[m->cpu] = true;
}

/*
 * Writes through /proc/self/mem use FOLL_FORCE, which overrides the
 * protection of a mapping that could have been made writable: the data
 * pages never could, so they must stay the kernel's.
 */
static int mem_fd = -2;

static void op_procmem(void)
{
	struct map *m;
	uint64_t v = rnd();
	size_t at;
	long r;
	int err;

	if (mem_fd == -2)
		mem_fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	if (mem_fd < 0 || !nr_maps)
		return;
	m = &maps[below(nr_maps)];
	at = below(m->len / 8) * 8;
	if (chance(500)) {
		r = pread(mem_fd, &v, 8, (uintptr_t)(m->addr + at));
		outcome(OP_PROCMEM, r < 0 ? -1 : 0, errno,
			(const int[]){ EIO, EFAULT, 0 }, false);
		return;
	}
	if (m->region == SKD_MMAP_CONTROL)
		return;		/* writable by design, and then garbage */
	r = pwrite(mem_fd, &v, 8, (uintptr_t)(m->addr + at));
	err = outcome(OP_PROCMEM, r < 0 ? -1 : 0, errno,
		      (const int[]){ EIO, EFAULT, EPERM, EACCES, 0 }, false);
	if (!err)
		failure(F_ACCEPTED, "/proc/self/mem wrote %ld bytes into the "
			"data pages of cpu %d", r, m->cpu);
}

/* ------------------------------------------------------------------ */
/* poll, epoll, read/write                                             */

static void op_poll(void)
{
	struct pollfd pf[MAX_SLOTS + 1];
	int n = 0, i, r, err;
	short want = chance(800) ? POLLIN : (short)rnd();

	for (i = 0; i < nr_slots; i++)
		pf[n++] = (struct pollfd){ .fd = slots[i].fd, .events = want };
	if (chance(100) || !n)
		pf[n++] = (struct pollfd){ .fd = BOGUS_FD, .events = POLLIN };
	r = poll(pf, n, chance(950) ? 0 : 1);
	err = outcome(OP_POLL, r < 0 ? -1 : 0, errno, E_NONE, false);
	if (err)
		return;
	for (i = 0; i < n; i++) {
		struct sess *s = i < nr_slots ? slot_sess(i) : NULL;
		short ok = s ? POLLIN | POLLRDNORM : POLLNVAL;

		if (pf[i].revents & ~ok)
			failure(F_ERRNO, "poll: revents 0x%x on %s", pf[i].revents,
				s ? "a session" : "no session");
		if (s && !in_kid && !s->configured && pf[i].revents)
			failure(F_ERRNO, "poll: revents 0x%x before CONFIG",
				pf[i].revents);
	}
}

static void op_epoll(void)
{
	struct epoll_event ev = { .events = EPOLLIN }, out[4];
	int slot, r, ctl;
	bool bad;

	if (epfd < 0 || chance(50)) {
		if (epfd >= 0) {
			r = close(epfd);
			outcome(OP_EPOLL, r, errno, E_NONE, false);
		}
		epfd = epoll_create1(EPOLL_CLOEXEC);
		outcome(OP_EPOLL, epfd < 0 ? -1 : 0, errno, E_NONE, false);
		return;
	}
	if (chance(500)) {
		int fd = pick_fd(&slot, &bad);

		ctl = (int[]){ EPOLL_CTL_ADD, EPOLL_CTL_MOD, EPOLL_CTL_DEL }
			[below(3)];
		ev.events = chance(700) ? EPOLLIN : (uint32_t)rnd() &
			    ~(EPOLLEXCLUSIVE | EPOLLWAKEUP);
		r = epoll_ctl(epfd, ctl, fd, &ev);
		outcome(OP_EPOLL, r, errno, E_EPOLL, bad);
		return;
	}
	r = epoll_wait(epfd, out, 4, 0);
	outcome(OP_EPOLL, r < 0 ? -1 : 0, errno, E_NONE, false);
}

static void op_rw(void)
{
	char buf[64];
	int slot, which = below(4);
	bool bad;
	int fd = pick_fd(&slot, &bad);
	long r;

	/* Which of them the open mode allows does not matter: EBADF is fine. */
	if (slot >= 0 && slots[slot].acc != O_RDWR)
		bad = true;
	if (which == 0)
		r = read(fd, buf, below(sizeof(buf)));
	else if (which == 1)
		r = write(fd, buf, below(sizeof(buf)));
	else if (which == 2)
		r = pread(fd, buf, sizeof(buf), 0);
	else
		r = lseek(fd, below(4096), SEEK_SET);
	outcome(OP_RW, r < 0 ? -1 : 0, errno, E_RW, bad);
	if (r >= 0 && !bad)
		failure(F_ACCEPTED, "%s on the device returned %ld",
			(const char *[]){ "read", "write", "pread", "lseek" }[which],
			r);
}

/* ------------------------------------------------------------------ */
/* Children                                                            */

static void kid_main(uint64_t seed)
{
	int n = 1 + below(16), i;

	in_kid = true;
	seed_rng(seed);
	/* Ring mappings are VM_DONTCOPY: none of them is here. */
	nr_maps = 0;
	epfd = -1;
	for (i = 0; i < n; i++) {
		switch (below(10)) {
		case 0:
			op_info();
			break;
		case 1:
			op_stats();
			break;
		case 2:
		case 3:
			op_start_stop(OP_START);
			break;
		case 4:
		case 5:
			op_start_stop(OP_STOP);
			break;
		case 6:
			op_poll();
			break;
		case 7:
			op_mmap();
			break;
		case 8:
			op_config(OP_CONFIG_BAD);
			break;
		default:
			op_close();
			break;
		}
	}
	_exit(0);
}

static void reap_kids(bool block)
{
	int i = 0, status;
	pid_t r;

	while (i < nr_kids) {
		r = waitpid(kids[i], &status, block ? 0 : WNOHANG);
		if (!r) {
			i++;
			continue;
		}
		outcome(OP_REAP, r < 0 ? -1 : 0, errno, E_NONE, false);
		if (r > 0 && WIFEXITED(status) && !WEXITSTATUS(status))
			add(&sh->kids_ok, 1);
		else if (r > 0)
			failure(F_KID, "child %d: status 0x%x", kids[i], status);
		kids[i] = kids[--nr_kids];
	}
}

static void op_fork(void)
{
	uint64_t seed = rnd();
	pid_t pid;

	if (nr_kids >= MAX_KIDS) {
		reap_kids(false);
		return;
	}
	pid = fork();
	if (!pid)
		kid_main(seed);
	if (outcome(OP_FORK, pid < 0 ? -1 : 0, errno, E_NONE, false))
		return;
	add(&sh->kids, 1);
	kids[nr_kids++] = pid;
}

/* ------------------------------------------------------------------ */
/* The unprivileged process's ways in                                  */

static const int open_modes[] = { O_RDWR, O_RDONLY, O_WRONLY,
	O_RDWR | O_NONBLOCK, O_RDWR | O_CLOEXEC };

static void u_refused(enum op op, int fd, int err, const char *what)
{
	add(&sh->u_opens, 1);
	if (fd >= 0) {
		failure(F_UNPRIV, "%s opened a session (fd %d)", what, fd);
		close(fd);
		return;
	}
	if (err == EACCES || err == EPERM)
		add(&sh->u_refused, 1);
	(void)op;
}

static void op_u_open(enum op op)
{
	char path[64];
	int fd, err, mode = open_modes[below(5)];

	if (op == OP_U_OPEN_DEV) {
		fd = open(SKD_DEVICE_PATH, mode);
		err = outcome(op, fd < 0 ? -1 : 0, errno,
			      (const int[]){ EACCES, 0 }, false);
		u_refused(op, fd, err, SKD_DEVICE_PATH);
	} else if (op == OP_U_OPEN_NODE) {
		fd = open(NODE_PATH, mode);
		err = outcome(op, fd < 0 ? -1 : 0, errno,
			      (const int[]){ EPERM, ENOENT, 0 }, false);
		if (err != ENOENT)
			u_refused(op, fd, err, "a 0666 node");
	} else {
		snprintf(path, sizeof(path), "/proc/self/fd/%d",
			 slots[below(nr_slots)].fd);
		fd = open(path, mode);
		err = outcome(op, fd < 0 ? -1 : 0, errno,
			      (const int[]){ EACCES, EPERM, 0 }, false);
		u_refused(op, fd, err, "reopening an inherited fd");
	}
}

/* O_PATH needs no permission on the file: it must not make a session. */
static void op_u_opath(void)
{
	const char *path = chance(500) ? SKD_DEVICE_PATH : NODE_PATH;
	struct skd_info in = { .size = sizeof(in) };
	char proc[64];
	int fd, fd2, err;
	void *p;

	fd = open(path, O_PATH);
	if (outcome(OP_U_OPATH, fd < 0 ? -1 : 0, errno,
		    (const int[]){ ENOENT, 0 }, false))
		return;
	add(&sh->u_opath, 1);
	err = ioctl(fd, SKD_IOC_GET_INFO, &in) ? errno : 0;
	outcome(OP_U_OPATH, err ? -1 : 0, err, E_NONE, true);
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	outcome(OP_U_OPATH, p == MAP_FAILED ? -1 : 0, errno, E_NONE, true);
	if (err == EBADF && p == MAP_FAILED)
		add(&sh->u_opath_ebadf, 1);
	else
		failure(F_UNPRIV, "an O_PATH fd took GET_INFO (%s) or mmap",
			ename(err));
	if (p != MAP_FAILED)
		munmap(p, page);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	fd2 = open(proc, open_modes[below(5)]);
	err = outcome(OP_U_OPATH, fd2 < 0 ? -1 : 0, errno,
		      (const int[]){ EACCES, EPERM, 0 }, false);
	u_refused(OP_U_OPATH, fd2, err, "reopening an O_PATH fd");
	close(fd);
}

/* ------------------------------------------------------------------ */
/* The workers                                                         */

struct mix {
	enum op op;
	unsigned int weight;
};

static const struct mix priv_mix[] = {
	{ OP_OPEN, 25 }, { OP_CLOSE, 20 }, { OP_DUP, 4 }, { OP_INFO, 50 },
	{ OP_CONFIG_GOOD, 20 }, { OP_CONFIG_BAD, 140 }, { OP_CONFIG_JUNK, 30 },
	{ OP_CONFIG_PMU, 6 }, { OP_START, 15 }, { OP_STOP, 20 },
	{ OP_STATS, 50 }, { OP_PMU, 40 }, { OP_IOCTL_SKD, 50 },
	{ OP_IOCTL_ANY, 30 }, { OP_IOCTL_VFS, 8 }, { OP_MMAP, 110 },
	{ OP_MUNMAP, 40 }, { OP_MPROTECT, 25 }, { OP_MREMAP, 12 },
	{ OP_MADVISE, 12 }, { OP_TOUCH, 40 }, { OP_DRAIN, 30 },
	{ OP_SCRIBBLE, 6 }, { OP_PROCMEM, 6 }, { OP_POLL, 45 },
	{ OP_EPOLL, 12 }, { OP_RW, 15 }, { OP_FORK, 1 }, { OP_REAP, 4 },
};

static const struct mix unpriv_mix[] = {
	{ OP_U_OPEN_DEV, 100 }, { OP_U_OPEN_NODE, 60 }, { OP_U_OPEN_PROC, 40 },
	{ OP_U_OPATH, 15 }, { OP_INFO, 40 }, { OP_CONFIG_GOOD, 3 },
	{ OP_CONFIG_BAD, 40 }, { OP_START, 8 }, { OP_STOP, 10 },
	{ OP_STATS, 20 }, { OP_PMU, 20 }, { OP_IOCTL_SKD, 20 },
	{ OP_MMAP, 40 }, { OP_MUNMAP, 15 }, { OP_MPROTECT, 10 },
	{ OP_TOUCH, 15 }, { OP_DRAIN, 10 }, { OP_PROCMEM, 3 },
	{ OP_POLL, 20 }, { OP_RW, 5 }, { OP_DUP, 3 }, { OP_CLOSE, 3 },
};

/* With sim, more of the configs that make the simulated PMU work hard. */
static unsigned int weight(const struct mix *m)
{
	return m->op == OP_CONFIG_PMU && sim_mode ? 4 * m->weight : m->weight;
}

static enum op pick_op(const struct mix *mix, size_t n)
{
	unsigned int total = 0, x;
	size_t i;

	for (i = 0; i < n; i++)
		total += weight(&mix[i]);
	x = below(total);
	for (i = 0; i < n; i++) {
		if (x < weight(&mix[i]))
			return mix[i].op;
		x -= weight(&mix[i]);
	}
	return mix[0].op;
}

static void do_op(enum op op)
{
	note_op(op);
	switch (op) {
	case OP_OPEN:
		op_open();
		break;
	case OP_CLOSE:
		op_close();
		break;
	case OP_DUP:
		op_dup();
		break;
	case OP_INFO:
		op_info();
		break;
	case OP_CONFIG_GOOD:
	case OP_CONFIG_BAD:
	case OP_CONFIG_JUNK:
	case OP_CONFIG_PMU:
		op_config(op);
		break;
	case OP_START:
	case OP_STOP:
		op_start_stop(op);
		break;
	case OP_STATS:
		op_stats();
		break;
	case OP_PMU:
		op_pmu();
		break;
	case OP_IOCTL_SKD:
	case OP_IOCTL_ANY:
	case OP_IOCTL_VFS:
		op_ioctl(op);
		break;
	case OP_MMAP:
		op_mmap();
		break;
	case OP_MUNMAP:
		op_munmap();
		break;
	case OP_MPROTECT:
		op_mprotect();
		break;
	case OP_MREMAP:
		op_mremap();
		break;
	case OP_MADVISE:
		op_madvise();
		break;
	case OP_TOUCH:
		op_touch();
		break;
	case OP_DRAIN:
		guarded(op_drain, op);
		break;
	case OP_SCRIBBLE:
		guarded(op_scribble, op);
		break;
	case OP_PROCMEM:
		op_procmem();
		break;
	case OP_POLL:
		op_poll();
		break;
	case OP_EPOLL:
		op_epoll();
		break;
	case OP_RW:
		op_rw();
		break;
	case OP_FORK:
		op_fork();
		break;
	case OP_REAP:
		reap_kids(false);
		break;
	case OP_U_OPEN_DEV:
	case OP_U_OPEN_NODE:
	case OP_U_OPEN_PROC:
		op_u_open(op);
		break;
	case OP_U_OPATH:
		op_u_opath();
		break;
	default:
		break;
	}
}

static int setup_memory(void)
{
	uint8_t *p;
	size_t i;

	scratch_len = 3 * page;
	p = mmap(NULL, scratch_len + 3 * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	scratch = p;
	guard = p + scratch_len;
	ro_page = guard + page;
	hole = (uintptr_t)(ro_page + page);
	for (i = 0; i < page; i++)
		ro_page[i] = (uint8_t)rnd();
	if (mprotect(guard, page, PROT_NONE) ||
	    mprotect(ro_page, page, PROT_READ) ||
	    mprotect((void *)(uintptr_t)hole, page, PROT_NONE))
		return -errno;
	return 0;
}

static void cleanup_worker(void)
{
	while (nr_maps)
		map_del(nr_maps - 1);	/* unmapped below, with everything */
	while (nr_slots) {
		close(slots[nr_slots - 1].fd);
		slot_del(nr_slots - 1);
	}
	if (epfd >= 0)
		close(epfd);
	if (mem_fd >= 0)
		close(mem_fd);
	reap_kids(true);
}

static void worker(enum who w, uint64_t seed, uint64_t calls)
{
	struct sigaction sa = { .sa_sigaction = on_fault,
				.sa_flags = SA_SIGINFO };
	const struct mix *mix = w == PRIV ? priv_mix : unpriv_mix;
	size_t n = w == PRIV ? sizeof(priv_mix) / sizeof(priv_mix[0]) :
		   sizeof(unpriv_mix) / sizeof(unpriv_mix[0]);
	int i;

	who = w;
	budget = calls;
	seed_rng(seed);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	if (setup_memory()) {
		failure(F_SETUP, "scratch memory: %s", strerror(errno));
		_exit(1);
	}
	while (get(&sh->calls[w]) < budget)
		do_op(pick_op(mix, n));
	/* Unmap everything the fuzzer still holds, then close. */
	for (i = 0; i < nr_maps; i++)
		munmap(maps[i].addr, maps[i].len);
	cleanup_worker();
	_exit(0);
}

/* ------------------------------------------------------------------ */
/* Privileges                                                          */

/* 0 when this process has no capability left in any set. */
static int drop_privileges(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	int cap;

	for (cap = 0; cap <= 63; cap++)
		prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return -errno;
	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	return data[0].effective | data[1].effective | data[0].permitted |
	       data[1].permitted | data[0].inheritable | data[1].inheritable ?
	       -EPERM : 0;
}

/* ------------------------------------------------------------------ */
/* Before and after                                                    */

static long count_lines(const char *path, const char *needle)
{
	char line[512];
	long n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, needle))
			n++;
	fclose(f);
	return n;
}

static long read_long(const char *path)
{
	long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static long meminfo_kb(const char *key)
{
	char line[256];
	long v = -1;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			v = strtol(line + n + 1, NULL, 10);
	fclose(f);
	return v;
}

static uint64_t parse_possible(void)
{
	char buf[256], *p = buf;
	uint64_t m = 0;
	unsigned long a, b;
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");

	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return nr_cpus >= 64 ? ~0ULL : (1ULL << nr_cpus) - 1;
	}
	fclose(f);
	while (*p && *p != '\n') {
		a = strtoul(p, &p, 10);
		b = a;
		if (*p == '-')
			b = strtoul(p + 1, &p, 10);
		for (; a <= b && a < 64; a++)
			m |= 1ULL << a;
		if (*p == ',')
			p++;
		else
			break;
	}
	return m;
}

/* A session from scratch, to the end: it still works after all that. */
static void fresh_session(void)
{
	struct skd_cpu_stats st[MAX_CPUS], sum;
	struct skd_event_attr ev = {
		.size = sizeof(ev), .config = 0x003c,
	};
	struct skd_config cfg = test_config(997, 8, 8);
	struct drained d = { 0 };
	struct test_session s;
	unsigned int cpu, n = nr_cpus < MAX_CPUS ? nr_cpus : MAX_CPUS;
	bool exact = true;
	int ret;

	if (sim_mode) {
		cfg.backend = SKD_BACKEND_SIM;
		cfg.sim_model = sim_model_arg;
		cfg.flags = 0;
		cfg.sample_period = 1000003;
		cfg.events_ptr = (uintptr_t)&ev;
		cfg.nr_events = 1;
		cfg.event_attr_size = sizeof(ev);
	}
	ret = session_open(&s, &cfg);
	if (!ret) {
		ret = skd_dev_start(s.fd);
		if (!ret) {
			spin_for(0.3);
			ret = skd_dev_stop(s.fd);
		}
		if (!ret)
			ret = session_stats(&s, st, n, &sum);
		if (!ret)
			session_drain(&s, &d);
		for (cpu = 0; !ret && cpu < n; cpu++)
			exact &= st[cpu].generated ==
				 st[cpu].delivered + st[cpu].lost;
		session_close(&s);
	}
	ktap_result(!ret && exact && sum.generated > 0,
		    "a fresh %s session configures, maps, samples (%llu records, "
		    "%llu lost) and counts generated == delivered + lost per "
		    "CPU (%s)", sim_mode ? "sim" : "timer",
		    ret ? 0ULL : (unsigned long long)sum.generated,
		    ret ? 0ULL : (unsigned long long)sum.lost,
		    ret ? strerror(-ret) : "ok");
}

static void print_histograms(void)
{
	uint64_t total[MAX_ERRNO + 1] = { 0 }, ok = 0, calls = 0;
	char line[1024];
	size_t pos;
	int op, e;

	ktap_diag("calls by operation: ok, then errno counts");
	for (op = 0; op < NR_OPS; op++) {
		const struct op_stats *st = &sh->op[op];

		if (!st->calls)
			continue;
		calls += st->calls;
		ok += st->ok;
		pos = snprintf(line, sizeof(line), "%-12s %9" PRIu64 " calls, ok %"
			       PRIu64, op_names[op], st->calls, st->ok);
		for (e = 1; e <= MAX_ERRNO; e++) {
			if (!st->err[e])
				continue;
			total[e] += st->err[e];
			if (pos < sizeof(line))
				pos += snprintf(line + pos, sizeof(line) - pos,
						", %s %" PRIu64, e == MAX_ERRNO ?
						"other" : ename(e), st->err[e]);
		}
		ktap_diag("  %s", line);
	}
	pos = snprintf(line, sizeof(line), "errno histogram: ok %" PRIu64, ok);
	for (e = 1; e <= MAX_ERRNO; e++)
		if (total[e] && pos < sizeof(line))
			pos += snprintf(line + pos, sizeof(line) - pos,
					", %s %" PRIu64, e == MAX_ERRNO ?
					"other" : ename(e), total[e]);
	ktap_diag("%s", line);
	(void)calls;
}

static bool worker_result(pid_t pid, int status, const char *name)
{
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return true;
	if (WIFSIGNALED(status))
		ktap_diag("%s worker %d killed by %s", name, pid,
			  strsignal(WTERMSIG(status)));
	else
		ktap_diag("%s worker %d exited %d", name, pid,
			  WEXITSTATUS(status));
	return false;
}

static uint64_t parse_u64(const char *s, const char *what)
{
	char *end;
	uint64_t v = strtoull(s, &end, 0);

	if (!*s || *end) {
		fprintf(stderr, "fuzz_device: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	uint64_t calls = DEFAULT_CALLS, seed, pcalls, ucalls, last = 0;
	long vm_before, vm_after, vm_probe, refcnt, refcnt_before;
	long percpu_before, percpu_after, sessions_before;
	int fd_cfg, fd_open, fd_ro, status[2] = { 0, 0 }, i, fd;
	pid_t pid[2];
	double t0, t1, last_t, stall_t;
	bool seeded = false, done[2] = { false, false }, ok[2];
	struct skd_config cfg;
	struct skd_info now;
	char mode_arg[64] = "";
	struct stat st;
	int nfail = 0;

	seed = (uint64_t)time(NULL) * 2654435761ULL ^ (uint64_t)getpid();
	for (i = 1; i < argc; i++) {
		uint32_t backend;

		if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			seed = parse_u64(argv[++i], "seed");
			seeded = true;
		} else if (!strncmp(argv[i], "--seed=", 7)) {
			seed = parse_u64(argv[i] + 7, "seed");
			seeded = true;
		} else if (argv[i][0] >= '0' && argv[i][0] <= '9') {
			calls = parse_u64(argv[i], "call count");
		} else if (!strcmp(argv[i], "sim") ||
			   !strncmp(argv[i], "sim:", 4)) {
			sim_mode = true;
			if (!pmu_parse_name("fuzz_device", argv[i], &backend,
					    &sim_model_arg))
				return 2;
		} else {
			char name[64];

			snprintf(name, sizeof(name), "sim:%s", argv[i]);
			if (!pmu_parse_name("fuzz_device", name, &backend,
					    &sim_model_arg))
				return 2;
			sim_mode = true;
		}
	}

	test_device_info(&info);
	page = info.page_size;
	nr_cpus = info.nr_cpu_ids;
	possible_mask = parse_possible();
	max_ring_pages = info.max_ring_pages;
	min_period_ns = 1000000000ULL / info.max_freq;
	intel_usable = info.backends & (1U << SKD_BACKEND_INTEL);

	ktap_plan(10);
	if (sim_mode && sim_model_arg)
		snprintf(mode_arg, sizeof(mode_arg), "sim:%s",
			 pmu_sim_model_name(sim_model_arg));
	else if (sim_mode)
		snprintf(mode_arg, sizeof(mode_arg), "sim");
	ktap_diag("seed %" PRIu64 "%s: replay with fuzz_device %" PRIu64
		  " %s --seed %" PRIu64, seed, seeded ? " (given)" : "", calls,
		  mode_arg, seed);
	if (sim_mode && !sim_model_arg)
		ktap_diag("sim: a random model per config (argument sim)");

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		printf("Bail out! shared memory: %s\n", strerror(errno));
		return KTAP_FAIL;
	}
	memset(sh, 0, sizeof(*sh));

	/* A 0666 node of the same device: past the mode, the module decides. */
	unlink(NODE_PATH);
	if (stat(SKD_DEVICE_PATH, &st) ||
	    mknod(NODE_PATH, S_IFCHR | 0666, st.st_rdev) ||
	    chmod(NODE_PATH, 0666))
		ktap_diag("no 0666 node at %s (%s): the unprivileged worker "
			  "tries /dev/skidless only", NODE_PATH, strerror(errno));

	/* What earlier tests left is not this test's to judge. */
	refcnt_before = read_long("/sys/module/skidless/refcnt");
	sessions_before = info.sessions - 1;
	vm_before = count_lines("/proc/vmallocinfo", "[skidless]");
	percpu_before = meminfo_kb("Percpu");

	/* The fds the unprivileged worker inherits: the capabilities it holds. */
	fd_cfg = skd_dev_open(false);
	fd_open = skd_dev_open(false);
	fd_ro = open(SKD_DEVICE_PATH, O_RDONLY | O_CLOEXEC);
	cfg = test_config(100, 4, 4);
	if (fd_cfg < 0 || fd_open < 0 || fd_ro < 0 ||
	    skd_dev_config(fd_cfg, &cfg)) {
		printf("Bail out! sessions for the unprivileged worker: %s\n",
		       strerror(errno));
		return KTAP_FAIL;
	}

	/* The leak check below must be able to see a session's rings. */
	vm_probe = count_lines("/proc/vmallocinfo", "[skidless]");

	ucalls = calls * UNPRIV_SHARE / 100;
	pcalls = calls - ucalls;
	fflush(stdout);
	t0 = now_seconds();
	pid[PRIV] = fork();
	if (!pid[PRIV]) {
		close(fd_cfg);
		close(fd_open);
		close(fd_ro);
		worker(PRIV, seed, pcalls);
	}
	pid[UNPRIV] = fork();
	if (!pid[UNPRIV]) {
		int err = drop_privileges();

		who = UNPRIV;
		if (err) {
			failure(F_UNPRIV, "dropping privileges: %s",
				strerror(-err));
			add(&sh->u_caps_left, 1);
		}
		memset(sessions, 0, sizeof(sessions));
		sessions[0] = (struct sess){ .used = true, .configured = true,
					     .ring_pages = 4 };
		sessions[1] = (struct sess){ .used = true };
		sessions[2] = (struct sess){ .used = true };
		slot_add(fd_cfg, 0, O_RDWR, true);
		slot_add(fd_open, 1, O_RDWR, true);
		slot_add(fd_ro, 2, O_RDONLY, true);
		worker(UNPRIV, seed ^ 0x5555555555555555ULL, ucalls);
	}
	close(fd_cfg);
	close(fd_open);
	close(fd_ro);

	/* Progress, and a report if the workers stop making calls. */
	last_t = stall_t = t0;
	while (!done[PRIV] || !done[UNPRIV]) {
		uint64_t c;

		sleep_seconds(0.5);
		for (i = 0; i < 2; i++) {
			if (!done[i] && pid[i] > 0 &&
			    waitpid(pid[i], &status[i], WNOHANG) == pid[i])
				done[i] = true;
			if (pid[i] < 0)
				done[i] = true;
		}
		t1 = now_seconds();
		c = get(&sh->calls[PRIV]) + get(&sh->calls[UNPRIV]);
		if (c != last) {
			last = c;
			stall_t = t1;
		} else if (t1 - stall_t > 120) {
			ktap_diag("no call returned for 120 s: privileged at "
				  "call %" PRIu64 " (%s), unprivileged at call %"
				  PRIu64 " (%s)", sh->last_call[PRIV],
				  op_names[sh->last_op[PRIV]],
				  sh->last_call[UNPRIV],
				  op_names[sh->last_op[UNPRIV]]);
			stall_t = t1;
		}
		if (t1 - last_t >= 30) {
			ktap_diag("progress: %" PRIu64 " calls in %.0f s (%.0f/s)",
				  c, t1 - t0, c / (t1 - t0));
			last_t = t1;
		}
	}
	t1 = now_seconds();
	pcalls = get(&sh->calls[PRIV]);
	ucalls = get(&sh->calls[UNPRIV]);
	unlink(NODE_PATH);

	print_histograms();
	ktap_diag("%.1f s, %.0f calls/s; %" PRIu64 " configs, %" PRIu64
		  " starts, %" PRIu64 " mappings, %" PRIu64 " touches, %" PRIu64
		  " records read (%" PRIu64 " LOST), %" PRIu64 " children",
		  t1 - t0, (pcalls + ucalls) / (t1 - t0), sh->configs_ok,
		  sh->starts_ok, sh->maps_ok, sh->touches, sh->records,
		  sh->lost_records, sh->kids);
	for (i = 0; i < NR_FAIL; i++)
		if (sh->fails[i])
			ktap_diag("%" PRIu64 " x %s", sh->fails[i], fail_names[i]);
	for (i = 0; i < (int)sh->nmsg && i < MAX_MSGS; i++)
		ktap_diag("  %s", sh->msg[i]);
	if (sh->nmsg > MAX_MSGS)
		ktap_diag("  (%" PRIu64 " more)", sh->nmsg - MAX_MSGS);

	ok[PRIV] = worker_result(pid[PRIV], status[PRIV], "privileged");
	ok[UNPRIV] = worker_result(pid[UNPRIV], status[UNPRIV], "unprivileged");
	ktap_result(ok[PRIV] && ok[UNPRIV] && !sh->fails[F_SIGNAL] &&
		    !sh->fails[F_SETUP],
		    "both workers exited normally; no signal but %" PRIu64
		    " expected SIGBUS (touching a mapping after MADV_DONTNEED)",
		    sh->sigbus_expected);
	ktap_result(sh->kids_ok == sh->kids && !sh->fails[F_KID],
		    "forked children using inherited fds all exited 0 (%" PRIu64
		    "/%" PRIu64 ")", sh->kids_ok, sh->kids);
	ktap_result(!sh->u_caps_left && sh->u_opens > 0 &&
		    sh->u_refused == sh->u_opens && !sh->fails[F_UNPRIV] &&
		    sh->u_opath == sh->u_opath_ebadf,
		    "unprivileged, without capabilities: every open refused "
		    "(%" PRIu64 "/%" PRIu64 ": EACCES by the mode, EPERM by the "
		    "module), O_PATH fds get no session (%" PRIu64 ")",
		    sh->u_refused, sh->u_opens, sh->u_opath);
	ktap_result(sh->u_info_ok > 0,
		    "a session fd handed to an unprivileged process stays "
		    "usable: the fd is the capability (%" PRIu64 " GET_INFO)",
		    sh->u_info_ok);
	ktap_result(!sh->fails[F_ERRNO],
		    "every call returned what it documents: 0, -1 with a "
		    "documented errno, an fd, an address (%" PRIu64 " not)",
		    sh->fails[F_ERRNO]);
	ktap_result(!sh->fails[F_ACCEPTED],
		    "nothing documented invalid was accepted: corrupted configs, "
		    "sizes, mappings off the layout, writable data (%" PRIu64
		    " accepted)", sh->fails[F_ACCEPTED]);
	ktap_result(!sh->fails[F_REFUSED] && sh->configs_ok && sh->maps_ok,
		    "what is documented valid works: %" PRIu64 " configs, %"
		    PRIu64 " mappings (%" PRIu64 " refused)", sh->configs_ok,
		    sh->maps_ok, sh->fails[F_REFUSED]);
	ktap_result(!sh->fails[F_RING],
		    "control pages and the %" PRIu64 " records read are well "
		    "formed (%" PRIu64 " not)", sh->records, sh->fails[F_RING]);

	/* Every fd and mapping is gone with the workers: nothing may remain. */
	refcnt = read_long("/sys/module/skidless/refcnt");
	vm_after = count_lines("/proc/vmallocinfo", "[skidless]");
	percpu_after = meminfo_kb("Percpu");
	fd = skd_dev_open(false);
	memset(&now, 0, sizeof(now));
	if (fd >= 0)
		skd_dev_info(fd, &now);
	if (fd >= 0)
		close(fd);
	ktap_diag("after: module refcnt %ld (before %ld), ring vmaps %ld "
		  "(before %ld, with one session %ld), Percpu %ld kB (before "
		  "%ld kB), sessions %u with a fresh fd (before %ld)", refcnt,
		  refcnt_before, vm_after, vm_before, vm_probe, percpu_after,
		  percpu_before, now.sessions, sessions_before);
	ktap_result(refcnt == refcnt_before && vm_after == vm_before &&
		    vm_probe >= vm_before + nr_cpus &&
		    now.sessions == sessions_before + 1,
		    "once every fd is closed: no module reference, session or "
		    "ring vmap more than before");
	fresh_session();

	for (i = 0; i < NR_FAIL; i++)
		nfail += sh->fails[i] ? 1 : 0;
	ktap_diag("fuzz_device: %" PRIu64 " calls (privileged %" PRIu64
		  ", unprivileged %" PRIu64 ")", pcalls + ucalls, pcalls, ucalls);
	if (nfail)
		ktap_diag("replay: fuzz_device %" PRIu64 " %s --seed %" PRIu64,
			  calls, mode_arg, seed);
	return ktap_finish();
}
