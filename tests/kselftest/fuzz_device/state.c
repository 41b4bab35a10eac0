// SPDX-License-Identifier: GPL-2.0
/*
 * What every part of fuzz_device shares: the counters, random numbers,
 * failure reports, guarded reads of mappings, the table of fds,
 * sessions and mappings, and the argument generators.
 */
#include "fuzz.h"

/* ------------------------------------------------------------------ */
/* What is counted, in memory shared by every process of the test.     */

const char *const op_names[] = { OPS(OP_NAME) };

const char *const fail_names[] = {
	"undocumented errno or return value", "invalid input accepted",
	"valid input refused", "malformed ring content", "unexpected signal",
	"unprivileged session", "child died", "test setup",
};

struct shared *sh;

void add(uint64_t *p, uint64_t n)
{
	__atomic_fetch_add(p, n, __ATOMIC_RELAXED);
}

uint64_t get(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------ */
/* The worker's state                                                  */

struct skd_info info;
size_t page;
unsigned int nr_cpus;		/* nr_cpu_ids */
uint64_t possible_mask;		/* possible CPUs below 64 */
uint64_t max_ring_pages;
uint64_t min_period_ns;
bool sim_mode;
uint32_t sim_model_arg;		/* 0: random per config */
bool intel_usable;

enum who who;
bool in_kid;			/* a forked child of the privileged one */
uint64_t budget;			/* calls this worker makes */
static uint64_t seq;			/* calls this process made */

static uint64_t rng[4];

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void seed_rng(uint64_t seed)
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
uint64_t rnd(void)
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

uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* True @n times in 1000. */
bool chance(unsigned int n)
{
	return below(1000) < n;
}

uint64_t pick64(const uint64_t *v, size_t n)
{
	return v[below(n)];
}

struct sess sessions[MAX_SESS];
struct slot slots[MAX_SLOTS];
int nr_slots;
struct map maps[MAX_MAPS];
int nr_maps;
pid_t kids[MAX_KIDS];
int nr_kids;
int epfd = -1;

/* Memory the fuzzer points the kernel at. */
uint8_t *scratch;		/* 3 pages, then a PROT_NONE guard */
size_t scratch_len;
uint8_t *guard;
uint8_t *ro_page;		/* read-only, random bytes */
uint64_t hole;			/* PROT_NONE */

struct skd_event_attr ev_buf[SKD_MAX_EVENTS + 4];
bool pid_may_vanish;		/* the config follows a child */
uint64_t mask_buf[SKD_CPUMASK_MAX_BYTES / 8 + 4];

/* ------------------------------------------------------------------ */
/* Failures and outcomes                                               */

__attribute__((format(printf, 2, 3)))
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

const char *ename(int e)
{
	const char *s = e ? strerrorname_np(e) : "ok";

	return s ? s : "E?";
}

/* For calls that document no errno (EBADF aside, for a bad fd). */
const int E_NONE[] = { 0 };

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
int outcome(enum op op, long ret, int err, const int *allowed,
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

void note_op(enum op op)
{
	sh->last_op[who] = op;
	sh->last_call[who] = seq;
}

/* ------------------------------------------------------------------ */
/* Touching mappings: a SIGBUS or SIGSEGV is caught and judged.         */

static sigjmp_buf touch_jmp;
static volatile sig_atomic_t touch_armed, touch_sig;

void on_fault(int sig, siginfo_t *si, void *uc)
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
int touch(const volatile uint8_t *p, size_t len, uint64_t *sum)
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
void guarded(void (*fn)(void), enum op op)
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

int sess_new(void)
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

void slot_add(int fd, int sess, int acc, bool orig)
{
	slots[nr_slots++] = (struct slot){ fd, sess, acc, orig };
	if (sess >= 0)
		sessions[sess].fds++;
}

void slot_del(int i)
{
	int s = slots[i].sess;

	slots[i] = slots[--nr_slots];
	if (s >= 0) {
		sessions[s].fds--;
		sess_put(s);
	}
}

void map_del(int i)
{
	int s = maps[i].sess;

	maps[i] = maps[--nr_maps];
	sessions[s].maps--;
	sess_put(s);
}

/* An fd to use: mostly a slot's, sometimes one that is not open at all. */
int pick_fd(int *slot, bool *bad)
{
	*slot = -1;
	*bad = true;
	if (!nr_slots || chance(15))
		return chance(500) ? BOGUS_FD : -1 - (int)below(3);
	*slot = below(nr_slots);
	*bad = slots[*slot].sess < 0;
	return slots[*slot].fd;
}

struct sess *slot_sess(int slot)
{
	return slot >= 0 && slots[slot].sess >= 0 ?
		&sessions[slots[slot].sess] : NULL;
}

/* ------------------------------------------------------------------ */
/* Arguments                                                           */

/* A bad pointer, or (mostly, with @valid) somewhere in the scratch area. */
uint64_t fuzz_ptr(size_t need)
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

bool placed_dirty;		/* place() left a non-zero byte past @len */

/*
 * Copy @len bytes of @src into the scratch area, at or after offset @lo,
 * where the kernel will read @usize bytes (bytes past @len: zero, or with
 * @dirty sometimes random), mostly with room, sometimes so that they run
 * into the guard page. Returns where.
 */
void *place_from(size_t lo, const void *src, size_t len, size_t usize,
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

void *place(const void *src, size_t len, size_t usize, bool dirty)
{
	return place_from(0, src, len, usize, dirty);
}

/* Does [p, p + n) lie in readable, writable scratch memory? */
bool in_scratch(const void *p, size_t n)
{
	return (const uint8_t *)p >= scratch &&
	       (const uint8_t *)p + n <= guard;
}

/* A struct size: mostly right, else around every boundary. */
uint32_t fuzz_size(uint32_t ver0, uint32_t cur)
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

uint64_t interesting64(void)
{
	const uint64_t v[] = {
		0, 1, 2, 3, 7, 8, 63, 64, 127, 128, 255, 256, 4095, 4096, 65535,
		65536, 0x7fffffff, 0x80000000, 0xffffffff, 1ULL << 32,
		(1ULL << 63) - 1, 1ULL << 63, ~0ULL, ~0ULL - 1,
	};

	return chance(800) ? PICK(v) : rnd();
}
