// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for userland/lib/profile.c: a capture is written with the writer
 * API, its records deliberately out of time order, describing a shell
 * (pid 100) that forks a child (pid 200) which execs twice. Maps snapshots
 * place the ELF fixtures of symbols.mk (fx_nopie, fx_pie, libfx.so) at
 * chosen addresses; what a frame must resolve to is computed here from the
 * readelf headers symbols.mk generates, not from the library.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit_tmp.h"
#include "capture.h"
#include "profile.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PAGE		0x1000ULL

#include "fixtures/fx_types.h"
#include "fx_nopie.h"
#include "fx_pie.h"
#include "fx_lib.h"

struct fx {
	const char *path;
	const char *base;		/* what a frame's dso must say */
	const struct fx_sym *syms;
	size_t nsyms;
	const struct fx_load *loads;
	size_t nloads;
};

#define FX(file, p) { SYM_FX "/" file, file, p##_syms, ARRAY_SIZE(p##_syms), \
		      p##_loads, ARRAY_SIZE(p##_loads) }

static const struct fx NOPIE = FX("fx_nopie", fx_nopie);
static const struct fx PIE = FX("fx_pie", fx_pie);
static const struct fx LIB = FX("libfx.so", fx_lib);

static char tmpdir[PATH_MAX];

static void tmp_path(char *buf, const char *name)
{
	int n = snprintf(buf, PATH_MAX, "%s/%s", tmpdir, name);

	assert_true(n > 0 && n < PATH_MAX);
}

/* ---- fixtures as readelf describes them --------------------------------- */

static const struct fx_sym *fx_sym(const struct fx *fx, const char *name)
{
	size_t i;

	for (i = 0; i < fx->nsyms; i++)
		if (!strcmp(fx->syms[i].name, name))
			return &fx->syms[i];
	fail_msg("%s has no %s", fx->path, name);
	return NULL;
}

/* Among aliases the library names global before weak before local, then
 * a name without leading underscore (symbols.c; fixtures/fx_funcs.c). */
static int rank(const struct fx_sym *s)
{
	int bind = !strcmp(s->bind, "GLOBAL") ? 0 : !strcmp(s->bind, "WEAK") ? 1 : 2;

	return bind * 2 + (s->name[0] == '_');
}

/* The fx_* function holding ELF address @v, as the library should name it. */
static const struct fx_sym *fx_at(const struct fx *fx, uint64_t v)
{
	const struct fx_sym *best = NULL;
	size_t i;

	for (i = 0; i < fx->nsyms; i++) {
		const struct fx_sym *s = &fx->syms[i];

		if (v < s->addr || v - s->addr >= s->size)
			continue;
		if (!best || (s->addr == best->addr && rank(s) < rank(best)))
			best = s;
	}
	return best;
}

/* The fx_* function that ends where @name starts. */
static const struct fx_sym *fx_before(const struct fx *fx, const char *name)
{
	const struct fx_sym *s = fx_sym(fx, name);

	return fx_at(fx, s->addr - 1);
}

/* ---- where things are mapped -------------------------------------------- */

struct mapping {
	const struct fx *fx;		/* NULL: a mapping without symbols */
	const char *path;		/* for those */
	uint64_t bias;			/* ip = bias + ELF address */
	uint64_t start, end, pgoff;
};

/* The executable PT_LOAD of @fx, page-aligned, as the loader maps it. */
static struct mapping text_at(const struct fx *fx, uint64_t bias)
{
	const struct fx_load *l = NULL;
	size_t i;

	for (i = 0; i < fx->nloads; i++)
		if (fx->loads[i].exec)
			l = &fx->loads[i];
	assert_non_null(l);
	return (struct mapping){
		.fx = fx, .path = fx->path, .bias = bias,
		.start = bias + (l->vaddr & ~(PAGE - 1)),
		.end = bias + ((l->vaddr + l->filesz + PAGE - 1) & ~(PAGE - 1)),
		.pgoff = l->off & ~(PAGE - 1),
	};
}

static struct mapping plain(const char *path, uint64_t start, uint64_t len)
{
	return (struct mapping){ .path = path, .start = start, .end = start + len };
}

static uint64_t ip_of(const struct mapping *m, const char *sym, uint64_t k)
{
	uint64_t ip = m->bias + fx_sym(m->fx, sym)->addr + k;

	assert_true(ip >= m->start && ip < m->end);
	return ip;
}

/*
 * An ip that is inside an fx_* function both under @a and under @b, with
 * different names or offsets, so a frame says which mapping was used.
 */
static uint64_t ip_in_both(const struct mapping *a, const struct mapping *b)
{
	uint64_t ip;

	for (ip = a->start; ip < a->end; ip++) {
		const struct fx_sym *x, *y;

		if (ip < b->start || ip >= b->end)
			continue;
		x = fx_at(a->fx, ip - a->bias);
		y = fx_at(b->fx, ip - b->bias);
		if (x && y && (strcmp(x->name, y->name) ||
			       ip - a->bias - x->addr != ip - b->bias - y->addr))
			return ip;
	}
	fail_msg("%s and %s never overlap in functions", a->path, b->path);
	return 0;
}

/* ---- the capture -------------------------------------------------------- */

#define T_PID		100	/* the shell */
#define C_PID		200	/* its child, execs at 50 and 80 */
#define C_TID2		201	/* the child's second thread */
#define O_PID		400	/* forked from a parent never seen */
#define F_PID		500	/* forked from the shell, never execs */
#define LIBA		0x7f0000000000ULL
#define LIBB		0x7f3000000000ULL
#define LIBC		0x7f6000000000ULL
#define VDSO		0x7ffff7fc1000ULL
#define ANON		0x7f1000000000ULL
#define GONE		0x7f2000000000ULL
#define NONUL		0x7f5000000000ULL
#define LIBD		0x7f8000000000ULL

#define K_ENTRY		0xffffffff81000000ULL	/* entry_SYSCALL_64, 0x100 */
#define K_DO_SYSCALL	0xffffffff81000100ULL	/* do_syscall_64, 0x80 */
#define K_KSYS_READ	0xffffffff81000200ULL	/* ksys_read, size 0: to next */
#define K_VFS_READ	0xffffffff81000400ULL	/* vfs_read, 0x40 */
#define K_GAP		0xffffffff81000500ULL	/* no symbol */
#define K_LAST		0xffffffff82000000ULL	/* last_sym, size 0, the last */

static const struct { uint64_t addr, size; const char *name; } ksyms[] = {
	{ K_VFS_READ, 0x40, "vfs_read" },
	{ K_ENTRY, 0x100, "entry_SYSCALL_64" },
	{ K_LAST, 0, "last_sym" },
	{ K_KSYS_READ, 0, "ksys_read" },
	{ K_DO_SYSCALL, 0x80, "do_syscall_64" },
};

static const struct skd_cpu_stats cpu_stats[] = {
	{ .generated = 10, .delivered = 8, .lost = 2, .lost_unreported = 1,
	  .samples = 6, .wakeups = 3 },
	{ .generated = 20, .delivered = 15, .lost = 5, .lost_unreported = 0,
	  .samples = 12, .wakeups = 4 },
};

union recbuf {
	uint64_t align;
	uint8_t b[1200];
};

/* Kernel records are built first and written in reverse, as a drain of
 * several rings would interleave them: nothing in the file is in order. */
static union recbuf krec[128];
static size_t nkrec;
static unsigned int nsamples_put;

static union recbuf *knew(void)
{
	assert_true(nkrec < ARRAY_SIZE(krec));
	memset(&krec[nkrec], 0, sizeof(krec[0]));
	return &krec[nkrec++];
}

/* The sample's period carries @tag so a test can find it after sorting. */
static void add_sample(uint64_t tag, uint64_t time, uint32_t cpu, uint32_t pid,
		       uint32_t tid, uint64_t ip, int nr, int nr_kernel,
		       const uint64_t *ips)
{
	struct skd_rec_sample s = {
		.hdr = { .type = SKD_REC_SAMPLE,
			 .misc = skd_is_kernel_addr(nr ? ips[0] : ip) ?
				 SKD_MISC_KERNEL : SKD_MISC_USER },
		.id = { .time = time, .cpu = cpu, .pid = pid, .tid = tid },
		.ip = nr ? ips[0] : ip, .period = tag,
		.fields = nr ? SKD_SAMPLE_CALLCHAIN : 0,
	};
	struct skd_callchain cc = { .nr = (uint16_t)nr, .nr_kernel = (uint16_t)nr_kernel };
	union recbuf *r = knew();
	size_t n = sizeof(s);

	if (nr) {
		memcpy(r->b + n, &cc, sizeof(cc));
		n += sizeof(cc);
		memcpy(r->b + n, ips, 8 * (size_t)nr);
		n += 8 * (size_t)nr;
	}
	s.hdr.size = (uint16_t)n;
	memcpy(r->b, &s, sizeof(s));
	nsamples_put++;
}

static void add_comm(uint64_t time, uint32_t pid, uint32_t tid, const char *comm,
		     bool exec)
{
	struct skd_rec_comm c = {
		.hdr = { .type = SKD_REC_COMM, .misc = exec ? SKD_MISC_COMM_EXEC : 0,
			 .size = sizeof(c) },
		.id = { .time = time, .pid = pid, .tid = tid },
	};

	strncpy(c.comm, comm, sizeof(c.comm));
	memcpy(knew()->b, &c, sizeof(c));
}

static void add_exec(uint64_t time, uint32_t pid, const char *path)
{
	struct skd_rec_exec e = {
		.hdr = { .type = SKD_REC_EXEC },
		.id = { .time = time, .pid = pid, .tid = pid }, .old_tid = pid,
	};
	union recbuf *r = knew();

	e.hdr.size = (uint16_t)((sizeof(e) + strlen(path) + 1 + 7) & ~7UL);
	memcpy(r->b, &e, sizeof(e));
	memcpy(r->b + sizeof(e), path, strlen(path) + 1);
}

static void add_task(uint32_t type, uint64_t time, uint32_t pid, uint32_t tid,
		     uint32_t ppid, uint32_t ptid)
{
	struct skd_rec_task t = {
		.hdr = { .type = type, .size = sizeof(t) },
		.id = { .time = time, .pid = pid, .tid = tid },
		.ppid = ppid, .ptid = ptid,
	};

	memcpy(knew()->b, &t, sizeof(t));
}

static void add_lost(uint64_t time, uint32_t cpu, uint64_t lost)
{
	struct skd_rec_lost l = {
		.hdr = { .type = SKD_REC_LOST, .size = sizeof(l) },
		.id = { .time = time, .cpu = cpu }, .lost = lost,
	};

	memcpy(knew()->b, &l, sizeof(l));
}

static void add_raw(uint32_t type, uint16_t size, uint8_t fill)
{
	union recbuf *r = knew();
	struct skd_rec_header h = { .type = type, .size = size };

	memset(r->b, fill, size);
	memcpy(r->b, &h, sizeof(h));
}

static void put_snapshot(struct skd_capture_writer *w, uint64_t time,
			 uint32_t pid, const struct mapping *m, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		assert_int_equal(skd_capture_put_map(w, time, pid, m[i].start,
				m[i].end, m[i].pgoff, m[i].path), 0);
}

/* Every mapping of the scenario, by snapshot. */
static struct mapping shell_maps[5];	/* pid 100 at 10 */
static struct mapping gen0_maps[3];	/* pid 200 at 21, before the exec at 50 */
static struct mapping gen1a_maps[4];	/* at 55 */
static struct mapping gen1b_maps[3];	/* at 70: LIBB now holds fx_pie, LIBC added */
static struct mapping gen2_maps[2];	/* at 85, after the exec at 80 */

static void set_maps(void)
{
	shell_maps[0] = text_at(&NOPIE, 0);
	shell_maps[1] = text_at(&LIB, LIBA);
	shell_maps[2] = plain("[vdso]", VDSO, 2 * PAGE);
	shell_maps[3] = plain("", ANON, PAGE);
	shell_maps[4] = plain("/nonexistent/libgone.so", GONE, 16 * PAGE);

	gen0_maps[0] = text_at(&NOPIE, 0);
	gen0_maps[1] = text_at(&LIB, LIBA);
	gen0_maps[2] = text_at(&LIB, LIBD);

	/* fx_pie loaded where fx_nopie was: same addresses, other code. */
	gen1a_maps[0] = text_at(&PIE, 0x400000);
	gen1a_maps[1] = text_at(&LIB, LIBB);
	gen1a_maps[2] = plain("[vdso]", VDSO, 2 * PAGE);
	gen1a_maps[3] = text_at(&PIE, LIBD);	/* gone again at 70 */

	gen1b_maps[0] = text_at(&PIE, 0x400000);
	gen1b_maps[1] = text_at(&PIE, LIBB);
	gen1b_maps[2] = text_at(&LIB, LIBC);

	gen2_maps[0] = text_at(&NOPIE, 0);
	gen2_maps[1] = text_at(&PIE, LIBA);
}

/* Tags of the samples the tests look at (stored in the period). */
enum {
	S_CHAIN = 1, S_KONLY, S_PLAIN_USER, S_PLAIN_KERNEL, S_USER_CHAIN,
	S_NO_PID, S_NONUL,
	S_G0_EARLY, S_G0_LATE, S_G1_AT_EXEC, S_G1, S_G2,
	S_FALLBACK_EARLIER, S_FALLBACK_LATEST, S_FALLBACK_LATER,
	S_SAME_GEN_OLD, S_SAME_GEN_NEW,
	S_SAME_GEN_LATER, S_TIE_CPU3, S_TIE_CPU1, S_FORKED, S_LAST,
};

static uint64_t ip_x;		/* nopie in gen0/gen2, pie in gen1 */
static uint64_t ip_liba;	/* libfx.so in gen0, fx_pie in gen2 */
static uint64_t ip_libb;	/* libfx.so at 55, fx_pie at 70 */
static uint64_t ip_libd;	/* libfx.so in gen 0, fx_pie in gen 1, not in gen 2 */
static uint64_t chain[13];	/* S_CHAIN's ips */
static uint64_t konly[4];
static uint64_t uchain[2];

#define HOST	"testhost"
#define RELEASE	"6.1.0-test"
#define CMDLINE	"skidless record -g -- sh -c fx_pie"

static void build_kernel_records(void)
{
	nkrec = 0;
	nsamples_put = 0;

	/* Shell and child bookkeeping. */
	add_comm(5, T_PID, T_PID, "sh", false);
	add_task(SKD_REC_FORK, 20, C_PID, C_PID, T_PID, T_PID);
	add_exec(50, C_PID, PIE.path);
	add_comm(50, C_PID, C_PID, "fx_pie", true);
	add_task(SKD_REC_FORK, 61, C_PID, C_TID2, C_PID, C_PID);
	add_comm(65, C_PID, C_TID2, "worker", false);
	add_exec(80, C_PID, NOPIE.path);
	add_comm(80, C_PID, C_PID, "fx_nopie", true);
	add_task(SKD_REC_FORK, 90, O_PID, O_PID, 399, 399);
	add_task(SKD_REC_FORK, 110, F_PID, F_PID, T_PID, T_PID);
	add_task(SKD_REC_EXIT, 100, C_PID, C_TID2, C_PID, C_PID);
	add_task(SKD_REC_EXIT, 101, C_PID, C_PID, T_PID, T_PID);
	add_task(SKD_REC_EXIT, 200, T_PID, T_PID, 1, 1);
	add_lost(150, 0, 5);
	add_lost(40, 1, 7);

	/* Kernel and user frames of the shell, every resolution rule. */
	chain[0] = K_VFS_READ + 0x10;
	chain[1] = K_VFS_READ;			/* returns into ksys_read's end */
	chain[2] = K_DO_SYSCALL + 0x20;
	chain[3] = K_ENTRY + 0x50;
	chain[4] = ip_of(&shell_maps[0], "fx_beta", 0);	/* first user: exact */
	chain[5] = ip_of(&shell_maps[0], "fx_beta", 0);	/* return: the one before */
	chain[6] = ip_of(&shell_maps[1], "fx_call_all", 0x20);
	chain[7] = ip_of(&shell_maps[0], "fx_main_helper", 5);
	chain[8] = 0x1234;
	chain[9] = VDSO + 0x100;
	chain[10] = ANON + 0x10;
	chain[11] = GONE + 0x20;
	chain[12] = ip_of(&shell_maps[1], "fx_gamma", 1);	/* a local symbol */
	add_sample(S_CHAIN, 12, 0, T_PID, T_PID, 0, ARRAY_SIZE(chain), 4, chain);

	konly[0] = K_LAST;
	konly[1] = K_LAST + 1;		/* return: looks up K_LAST itself */
	konly[2] = K_GAP;
	konly[3] = K_ENTRY;		/* return: nothing below the first */
	add_sample(S_KONLY, 13, 0, T_PID, T_PID, 0, 4, 4, konly);
	add_sample(S_PLAIN_USER, 14, 1, T_PID, T_PID,
		   ip_of(&shell_maps[0], "fx_gamma", 2), 0, 0, NULL);
	add_sample(S_PLAIN_KERNEL, 15, 1, T_PID, T_PID, K_VFS_READ + 4, 0, 0, NULL);
	uchain[0] = ip_of(&shell_maps[0], "fx_beta", 0);
	uchain[1] = uchain[0];
	add_sample(S_USER_CHAIN, 16, 2, T_PID, T_PID, 0, 2, 0, uchain);
	add_sample(S_NO_PID, 17, 2, 999, 999, ip_of(&shell_maps[0], "fx_alpha", 1),
		   0, 0, NULL);
	add_sample(S_NONUL, 18, 2, T_PID, T_PID, NONUL + 8, 0, 0, NULL);

	/* The child's exec generations. */
	ip_x = ip_in_both(&gen0_maps[0], &gen1a_maps[0]);
	ip_liba = ip_in_both(&gen0_maps[1], &gen2_maps[1]);
	ip_libb = ip_in_both(&gen1a_maps[1], &gen1b_maps[1]);
	ip_libd = ip_in_both(&gen0_maps[2], &gen1a_maps[3]);
	add_sample(S_G0_EARLY, 20, 3, C_PID, C_PID, ip_x, 0, 0, NULL);
	add_sample(S_G0_LATE, 49, 3, C_PID, C_PID, ip_x, 0, 0, NULL);
	add_sample(S_G1_AT_EXEC, 50, 3, C_PID, C_PID, ip_x, 0, 0, NULL);
	add_sample(S_G1, 60, 3, C_PID, C_PID, ip_x, 0, 0, NULL);
	add_sample(S_G2, 90, 3, C_PID, C_PID, ip_x, 0, 0, NULL);
	add_sample(S_FALLBACK_EARLIER, 60, 2, C_PID, C_PID, ip_liba, 0, 0, NULL);
	add_sample(S_FALLBACK_LATEST, 90, 2, C_PID, C_PID, ip_libd, 0, 0, NULL);
	add_sample(S_FALLBACK_LATER, 30, 2, C_PID, C_PID,
		   ip_of(&gen1a_maps[1], "fx_beta", 9), 0, 0, NULL);
	add_sample(S_SAME_GEN_OLD, 60, 1, C_PID, C_TID2, ip_libb, 0, 0, NULL);
	add_sample(S_SAME_GEN_NEW, 75, 1, C_PID, C_TID2, ip_libb, 0, 0, NULL);
	add_sample(S_SAME_GEN_LATER, 60, 0, C_PID, C_PID,
		   ip_of(&gen1b_maps[2], "fx_call_all", 4), 0, 0, NULL);

	/* A forked child with no maps of its own runs its parent's code. */
	add_sample(S_FORKED, 120, 2, F_PID, F_PID,
		   ip_of(&shell_maps[0], "fx_alpha", 1), 0, 0, NULL);

	/* Same time on two CPUs: CPU order (written in reverse: 3, then 1). */
	add_sample(S_TIE_CPU1, 300, 1, T_PID, T_PID, 0x1234, 0, 0, NULL);
	add_sample(S_TIE_CPU3, 300, 3, T_PID, T_PID, 0x1234, 0, 0, NULL);

	/* Records nobody can use: counted as unknown, never fatal. */
	add_raw(0x77, 16, 0);			/* a kernel type from the future */
	add_raw(0x8077, 24, 0);			/* a reader type from the future */
	add_raw(SKD_REC_COMM, sizeof(struct skd_rec_comm), 'c');	/* no NUL */

	add_sample(S_LAST, 400, 0, T_PID, T_PID, 0x1234, 0, 0, NULL);
}

#define N_UNKNOWN	3

/*
 * Write the whole capture to @path. Returns the offset of the last sample,
 * which is the last record before the end marker.
 */
static uint64_t write_capture(const char *path)
{
	const struct skd_frec_session sess = {
		.start_time = 1, .backend = SKD_BACKEND_TIMER,
		.flags = SKD_CFG_FREQ, .sample = 1000, .callchain_depth = 127,
		.nr_cpus = 4,
	};
	struct skd_frec_map nonul = {
		.hdr = { .type = SKD_FREC_MAP, .size = sizeof(nonul) + 8 },
		.time = 10, .pid = T_PID, .start = NONUL, .end = NONUL + PAGE,
	};
	union recbuf raw = { 0 };
	struct skd_capture_writer *w;
	uint64_t last = 0;
	size_t i;

	set_maps();
	build_kernel_records();
	w = skd_capture_create(path);
	assert_non_null(w);
	assert_int_equal(skd_capture_put_session(w, &sess, HOST, RELEASE, CMDLINE, "sim:skylake"), 0);
	for (i = 0; i < ARRAY_SIZE(ksyms); i++)
		assert_int_equal(skd_capture_put_ksym(w, ksyms[i].addr, ksyms[i].size,
						      ksyms[i].name), 0);

	/* Snapshots out of order, kernel records between them. */
	put_snapshot(w, 85, C_PID, gen2_maps, ARRAY_SIZE(gen2_maps));
	put_snapshot(w, 70, C_PID, gen1b_maps, ARRAY_SIZE(gen1b_maps));
	for (i = nkrec; i-- > nkrec / 2;) {
		if (i == nkrec - 1)
			continue;		/* S_LAST goes last */
		assert_int_equal(skd_capture_put(w, krec[i].b), 0);
	}
	put_snapshot(w, 55, C_PID, gen1a_maps, ARRAY_SIZE(gen1a_maps));
	put_snapshot(w, 10, T_PID, shell_maps, ARRAY_SIZE(shell_maps));
	/* A MAP record without a NUL: ignored, its range stays unknown. */
	memcpy(raw.b, &nonul, sizeof(nonul));
	memset(raw.b + sizeof(nonul), 'n', 8);
	assert_int_equal(skd_capture_put(w, raw.b), 0);
	put_snapshot(w, 21, C_PID, gen0_maps, ARRAY_SIZE(gen0_maps));
	for (i = nkrec / 2; i-- > 0;)
		assert_int_equal(skd_capture_put(w, krec[i].b), 0);
	for (i = 0; i < ARRAY_SIZE(cpu_stats); i++)
		assert_int_equal(skd_capture_put_stats(w, (uint32_t)i, &cpu_stats[i]), 0);
	last = skd_capture_bytes(w);
	assert_int_equal(skd_capture_put(w, krec[nkrec - 1].b), 0);
	assert_int_equal(skd_capture_finish(w, 500), 0);
	return last;
}

/* ---- reading it back ---------------------------------------------------- */

static char capture_path[PATH_MAX];
static uint64_t last_sample_off;

static struct skd_profile *load(const char *path)
{
	struct skd_profile *p = NULL;
	char err[256] = "";
	int ret;

	ret = skd_profile_load(path, &p, err, sizeof(err));
	if (ret)
		fail_msg("loading %s: %d %s", path, ret, err);
	assert_non_null(p);
	return p;
}

static void find_sample(struct skd_profile *p, uint64_t tag, struct skd_event *ev)
{
	size_t i;

	for (i = 0; i < skd_profile_nr_samples(p); i++) {
		skd_profile_sample(p, i, ev);
		if (ev->sample.rec->period == tag)
			return;
	}
	fail_msg("no sample %ju", (uintmax_t)tag);
}

static const char *context = "";	/* said when a frame is wrong */

struct want {
	const char *sym;	/* NULL: no symbol */
	uint64_t off;
	const char *dso;
	bool kernel;
};

/* What a user frame at @ip under @m must say (@ret: a return address). */
static struct want user_want(const struct mapping *m, uint64_t ip, bool ret)
{
	uint64_t v = ip - ret - m->bias;
	const struct fx_sym *s = fx_at(m->fx, v);

	assert_non_null(s);
	return (struct want){ s->name, v + ret - s->addr, m->fx->base, false };
}

static void check_frame(struct skd_profile *p, const struct skd_event *ev,
			unsigned int i, struct want w)
{
	struct skd_frame f;

	memset(&f, 0x5a, sizeof(f));
	skd_profile_frame(p, ev, i, &f);
	assert_int_equal(f.ip, ev->sample.ips ? ev->sample.ips[i] : ev->sample.rec->ip);
	if (strcmp(f.dso, w.dso) || f.kernel != w.kernel ||
	    (w.sym ? !f.sym || strcmp(f.sym, w.sym) || f.off != w.off : f.sym != NULL))
		fail_msg("%ssample %ju frame %u (ip %#jx): got %s+%#jx in %s%s, want %s+%#jx in %s%s",
			 context, (uintmax_t)ev->sample.rec->period, i, (uintmax_t)f.ip,
			 f.sym ? f.sym : "(none)", (uintmax_t)f.off, f.dso,
			 f.kernel ? " (kernel)" : "", w.sym ? w.sym : "(none)",
			 (uintmax_t)w.off, w.dso, w.kernel ? " (kernel)" : "");
}

#define KERN(name, o)	((struct want){ name, o, "[kernel.kallsyms]", true })
#define NOSYM(d)	((struct want){ NULL, 0, d, false })

/* ---- tests -------------------------------------------------------------- */

static void test_order(void **state)
{
	struct skd_profile *p = *state;
	struct skd_event ev;
	uint64_t prev_time = 0;
	uint32_t prev_cpu = 0;
	size_t i, tie1 = SIZE_MAX, tie3 = SIZE_MAX;

	assert_int_equal(skd_profile_nr_samples(p), nsamples_put);
	for (i = 0; i < skd_profile_nr_samples(p); i++) {
		skd_profile_sample(p, i, &ev);
		assert_int_equal(ev.type, SKD_REC_SAMPLE);
		assert_true(ev.id->time > prev_time ||
			    (ev.id->time == prev_time && ev.id->cpu >= prev_cpu));
		prev_time = ev.id->time;
		prev_cpu = ev.id->cpu;
		if (ev.sample.rec->period == S_TIE_CPU1)
			tie1 = i;
		if (ev.sample.rec->period == S_TIE_CPU3)
			tie3 = i;
	}
	/* Written CPU 3 first; read back CPU 1 first. */
	assert_int_equal(tie3, tie1 + 1);
	skd_profile_sample(p, 0, &ev);
	assert_int_equal(ev.sample.rec->period, S_CHAIN);
	skd_profile_sample(p, skd_profile_nr_samples(p) - 1, &ev);
	assert_int_equal(ev.sample.rec->period, S_LAST);

	/* Everything else with a time, in time order too. */
	/* 4 COMM, 2 EXEC, 4 FORK, 3 EXIT, 2 LOST; not the broken COMM. */
	assert_int_equal(skd_profile_nr_other(p), 15);
	prev_time = 0;
	for (i = 0; i < skd_profile_nr_other(p); i++) {
		skd_profile_other(p, i, &ev);
		assert_non_null(ev.id);
		assert_true(ev.type != SKD_REC_SAMPLE);
		assert_true(ev.id->time >= prev_time);
		prev_time = ev.id->time;
	}
	skd_profile_other(p, 0, &ev);
	assert_int_equal(ev.type, SKD_REC_COMM);
	assert_string_equal(ev.comm->comm, "sh");
}

static void test_chain_frames(void **state)
{
	struct skd_profile *p = *state;
	const struct fx_sym *before = fx_before(&NOPIE, "fx_beta");
	struct skd_event ev;

	find_sample(p, S_CHAIN, &ev);
	assert_int_equal(skd_profile_nr_frames(p, &ev), ARRAY_SIZE(chain));
	assert_int_equal(ev.sample.nr_kernel, 4);
	assert_non_null(before);

	check_frame(p, &ev, 0, KERN("vfs_read", 0x10));
	/* ip - 1 is the last byte of ksys_read (size 0: up to vfs_read). */
	check_frame(p, &ev, 1, KERN("ksys_read", K_VFS_READ - K_KSYS_READ));
	check_frame(p, &ev, 2, KERN("do_syscall_64", 0x20));
	check_frame(p, &ev, 3, KERN("entry_SYSCALL_64", 0x50));
	/* The first user frame is where the task entered the kernel: exact. */
	check_frame(p, &ev, 4, (struct want){ "fx_beta", 0, "fx_nopie", false });
	/* A caller's return address at fx_beta's first byte: the call was
	 * the last instruction of the function before, offset its size. */
	check_frame(p, &ev, 5, (struct want){ before->name, before->size,
					       "fx_nopie", false });
	check_frame(p, &ev, 6, (struct want){ "fx_call_all", 0x20, "libfx.so", false });
	check_frame(p, &ev, 7, (struct want){ "fx_main_helper", 5, "fx_nopie", false });
	check_frame(p, &ev, 8, NOSYM("[unknown]"));
	check_frame(p, &ev, 9, NOSYM("[vdso]"));
	check_frame(p, &ev, 10, NOSYM("[anon]"));
	check_frame(p, &ev, 11, NOSYM("libgone.so"));
	check_frame(p, &ev, 12, (struct want){ "fx_gamma", 1, "libfx.so", false });
}

static void test_kernel_frames(void **state)
{
	struct skd_profile *p = *state;
	struct skd_event ev;

	find_sample(p, S_KONLY, &ev);
	assert_int_equal(skd_profile_nr_frames(p, &ev), 4);
	/* A size-0 last symbol covers its own address only. */
	check_frame(p, &ev, 0, KERN("last_sym", 0));
	check_frame(p, &ev, 1, KERN("last_sym", 1));
	check_frame(p, &ev, 2, KERN(NULL, 0));
	check_frame(p, &ev, 3, KERN(NULL, 0));

	find_sample(p, S_PLAIN_KERNEL, &ev);
	assert_null(ev.sample.ips);
	assert_int_equal(skd_profile_nr_frames(p, &ev), 1);
	check_frame(p, &ev, 0, KERN("vfs_read", 4));
}

static void test_user_frames(void **state)
{
	struct skd_profile *p = *state;
	const struct fx_sym *before = fx_before(&NOPIE, "fx_beta");
	struct skd_event ev;

	/* No call chain: the sample's ip, looked up as is. */
	find_sample(p, S_PLAIN_USER, &ev);
	assert_null(ev.sample.ips);
	assert_int_equal(skd_profile_nr_frames(p, &ev), 1);
	check_frame(p, &ev, 0, (struct want){ "fx_gamma", 2, "fx_nopie", false });

	/* A user-only chain: the leaf is exact, its caller is not. */
	find_sample(p, S_USER_CHAIN, &ev);
	assert_int_equal(skd_profile_nr_frames(p, &ev), 2);
	check_frame(p, &ev, 0, (struct want){ "fx_beta", 0, "fx_nopie", false });
	check_frame(p, &ev, 1, (struct want){ before->name, before->size,
					       "fx_nopie", false });

	/* A child forked from the shell: the shell's maps at the fork. */
	find_sample(p, S_FORKED, &ev);
	check_frame(p, &ev, 0, (struct want){ "fx_alpha", 1, "fx_nopie", false });

	/* A process never seen, and a MAP record that failed its check. */
	find_sample(p, S_NO_PID, &ev);
	check_frame(p, &ev, 0, NOSYM("[unknown]"));
	find_sample(p, S_NONUL, &ev);
	check_frame(p, &ev, 0, NOSYM("[unknown]"));
}

/*
 * find_map() in profile.c: the latest reading before the sample from the
 * same exec generation, else a later one from it; failing both, the latest
 * earlier reading of any generation, else the earliest later one.
 */
static void test_generations(void **state)
{
	static const struct {
		uint64_t tag;
		const struct mapping *m;
		const char *why;
	} cases[] = {
		{ S_G0_EARLY, &gen0_maps[0], "gen 0 before any reading: the later gen-0 one: " },
		{ S_G0_LATE, &gen0_maps[0], "gen 0 nearer the gen-1 reading: still gen 0: " },
		{ S_G1_AT_EXEC, &gen1a_maps[0], "at the exec, before its reading: gen 1: " },
		{ S_G1, &gen1a_maps[0], "gen 1: " },
		{ S_G2, &gen2_maps[0], "after the second exec: " },
		{ S_FALLBACK_EARLIER, &gen0_maps[1], "in gen 0 and gen 2 only: the earlier: " },
		{ S_FALLBACK_LATEST, &gen1a_maps[3], "in gen 0 and gen 1 only: the later: " },
		{ S_FALLBACK_LATER, &gen1a_maps[1], "only in later readings: the first: " },
		{ S_SAME_GEN_OLD, &gen1a_maps[1], "same gen: the latest before: " },
		{ S_SAME_GEN_NEW, &gen1b_maps[1], "same gen: the latest before: " },
		{ S_SAME_GEN_LATER, &gen1b_maps[2], "same gen, only later: " },
	};
	struct skd_profile *p = *state;
	struct skd_event ev;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		find_sample(p, cases[i].tag, &ev);
		context = cases[i].why;
		check_frame(p, &ev, 0, user_want(cases[i].m, ev.sample.rec->ip, false));
	}
	context = "";
}

/* The object a user address was in: the mapping find_map() picks. */
static void test_object(void **state)
{
	static const struct {
		uint64_t tag;
		const struct mapping *m;
	} cases[] = {
		{ S_G0_EARLY, &gen0_maps[0] },
		{ S_G1, &gen1a_maps[0] },
		{ S_FALLBACK_LATER, &gen1a_maps[1] },
		{ S_SAME_GEN_NEW, &gen1b_maps[1] },
	};
	struct skd_profile *p = *state;
	struct skd_object o;
	struct skd_event ev;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct mapping *m = cases[i].m;
		uint64_t ip;

		find_sample(p, cases[i].tag, &ev);
		ip = ev.sample.rec->ip;
		assert_int_equal(skd_profile_object(p, &ev, ip, &o), 0);
		assert_string_equal(o.path, m->fx ? m->fx->path : m->path);
		assert_int_equal(o.file_offset, ip - m->start + m->pgoff);
	}
	find_sample(p, S_NO_PID, &ev);
	assert_int_equal(skd_profile_object(p, &ev, ev.sample.rec->ip, &o),
			 -ENOENT);
	find_sample(p, S_G1, &ev);
	assert_int_equal(skd_profile_object(p, &ev, 0xffffffff81000000ULL, &o),
			 -ENOENT);
}

static void test_comm(void **state)
{
	static const struct {
		uint32_t pid, tid;
		uint64_t time;
		const char *want;
	} cases[] = {
		{ T_PID, T_PID, 5, "sh" },
		{ T_PID, T_PID, 1, "sh" },		/* before any: the first */
		{ T_PID, T_PID, 1000, "sh" },
		{ C_PID, C_PID, 20, "sh" },		/* inherited at the fork */
		{ C_PID, C_PID, 49, "sh" },
		{ C_PID, C_PID, 50, "fx_pie" },
		{ C_PID, C_PID, 79, "fx_pie" },
		{ C_PID, C_PID, 80, "fx_nopie" },
		{ C_PID, C_PID, 1, "sh" },
		{ C_PID, C_TID2, 61, "fx_pie" },	/* a thread inherits too */
		{ C_PID, C_TID2, 64, "fx_pie" },
		{ C_PID, C_TID2, 65, "worker" },
		{ C_PID, C_TID2, 85, "worker" },	/* its own, not the exec's */
		{ C_PID, 202, 55, "fx_pie" },		/* unknown thread: the process */
		{ C_PID, 202, 85, "fx_nopie" },
		{ O_PID, O_PID, 95, NULL },		/* parent never named */
		{ 999, 999, 10, NULL },
	};
	struct skd_profile *p = *state;
	const char *got;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		got = skd_profile_comm(p, cases[i].pid, cases[i].tid, cases[i].time);
		if (cases[i].want ? !got || strcmp(got, cases[i].want) : got != NULL)
			fail_msg("comm %u/%u at %ju: %s, want %s", cases[i].pid,
				 cases[i].tid, (uintmax_t)cases[i].time,
				 got ? got : "NULL", cases[i].want ? cases[i].want : "NULL");
	}
}

static void test_totals(void **state)
{
	struct skd_profile *p = *state;
	const struct skd_profile_totals *t = skd_profile_totals(p);
	size_t i;

	assert_int_equal(t->records[0], 0);
	assert_int_equal(t->records[SKD_REC_SAMPLE], nsamples_put);
	assert_int_equal(t->records[SKD_REC_LOST], 2);
	assert_int_equal(t->records[SKD_REC_COMM], 4);
	assert_int_equal(t->records[SKD_REC_EXEC], 2);
	assert_int_equal(t->records[SKD_REC_FORK], 4);
	assert_int_equal(t->records[SKD_REC_EXIT], 3);
	assert_int_equal(t->unknown, N_UNKNOWN);
	assert_int_equal(t->lost_in_stream, 12);
	assert_int_equal(t->stats_cpus, 2);
	assert_int_equal(t->stats.generated, 30);
	assert_int_equal(t->stats.delivered, 23);
	assert_int_equal(t->stats.lost, 7);
	assert_int_equal(t->stats.lost_unreported, 1);
	assert_int_equal(t->stats.samples, 18);
	assert_int_equal(t->stats.wakeups, 7);
	assert_true(t->finished);
	assert_false(t->corrupt);
	assert_int_equal(t->bad_offset, 0);

	assert_string_equal(skd_profile_session_string(p, 0), HOST);
	assert_string_equal(skd_profile_session_string(p, 1), RELEASE);
	assert_string_equal(skd_profile_session_string(p, 2), CMDLINE);
	assert_string_equal(skd_profile_session_string(p, 3), "sim:skylake");
	for (i = 4; i < 6; i++)
		assert_string_equal(skd_profile_session_string(p, (unsigned int)i), "");
}

static void copy_prefix(const char *from, const char *to, size_t len)
{
	static char buf[1 << 16];
	int in, out;

	in = open(from, O_RDONLY | O_CLOEXEC);
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(in >= 0 && out >= 0);
	assert_true(len < sizeof(buf));
	assert_true(read(in, buf, sizeof(buf)) > (ssize_t)len);
	assert_int_equal(write(out, buf, len), (ssize_t)len);
	close(in);
	close(out);
}

/* A copy of the capture cut inside (or right before) the last sample. */
static void test_truncated(void **state)
{
	static const size_t cuts[] = { 20, 0, 8 };
	const struct skd_profile_totals *t;
	char path[PATH_MAX], name[32];
	struct skd_profile *p;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cuts); i++) {
		snprintf(name, sizeof(name), "cut%zu.skd", i);
		tmp_path(path, name);
		copy_prefix(capture_path, path, (size_t)last_sample_off + cuts[i]);
		p = load(path);
		t = skd_profile_totals(p);
		assert_false(t->finished);
		assert_int_equal(t->corrupt, cuts[i] != 0);
		assert_int_equal(t->bad_offset, cuts[i] ? last_sample_off : 0);
		/* Everything before the cut is there. */
		assert_int_equal(skd_profile_nr_samples(p), nsamples_put - 1);
		assert_int_equal(t->records[SKD_REC_SAMPLE], nsamples_put - 1);
		assert_int_equal(t->stats_cpus, 2);
		skd_profile_free(p);
	}
}

static void test_load_errors(void **state)
{
	char path[PATH_MAX], err[256];
	struct skd_capture_writer *w;
	struct skd_profile *p = NULL;
	FILE *f;

	(void)state;
	tmp_path(path, "notes.txt");
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("This is a text file, long enough to hold a capture header.\n"
	      "It is not one, and loading it must say so.\n", f);
	fclose(f);
	assert_int_equal(skd_profile_load(path, &p, err, sizeof(err)), -EINVAL);
	assert_null(p);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "neither a perf.data nor a skidless capture"));

	tmp_path(path, "missing.skd");
	assert_int_equal(skd_profile_load(path, &p, err, sizeof(err)), -ENOENT);
	assert_null(p);
	assert_non_null(strstr(err, "cannot open"));

	/* A capture with no records at all loads, empty. */
	tmp_path(path, "empty.skd");
	w = skd_capture_create(path);
	assert_non_null(w);
	assert_int_equal(skd_capture_finish(w, 1), 0);
	p = NULL;
	assert_int_equal(skd_profile_load(path, &p, err, sizeof(err)), 0);
	assert_non_null(p);
	assert_int_equal(skd_profile_nr_samples(p), 0);
	assert_int_equal(skd_profile_nr_other(p), 0);
	assert_true(skd_profile_totals(p)->finished);
	assert_string_equal(skd_profile_session_string(p, 0), "");
	assert_null(skd_profile_comm(p, 1, 1, 1));
	skd_profile_free(p);
	skd_profile_free(NULL);
}

/* ---- main --------------------------------------------------------------- */

static int group_setup(void **state)
{
	(void)state;
	if (unit_tmpdir_make(tmpdir, sizeof(tmpdir), unit_tmp_parent(),
			     "skd_profile"))
		return -1;
	tmp_path(capture_path, "scenario.skd");
	last_sample_off = write_capture(capture_path);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	return unit_tmpdir_remove(tmpdir);
}

/* Each test gets the capture freshly loaded, so none depends on another. */
static int setup(void **state)
{
	*state = load(capture_path);
	return 0;
}

static int teardown(void **state)
{
	skd_profile_free(*state);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_chain_frames, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kernel_frames, setup, teardown),
		cmocka_unit_test_setup_teardown(test_user_frames, setup, teardown),
		cmocka_unit_test_setup_teardown(test_object, setup, teardown),
		cmocka_unit_test_setup_teardown(test_generations, setup, teardown),
		cmocka_unit_test_setup_teardown(test_comm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_totals, setup, teardown),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_load_errors),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
