// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for userland/lib/capture.c: files written with the writer API are
 * read back byte for byte; damaged files (bad headers, a tail cut at every
 * possible length, records with impossible sizes) are refused with the
 * right errno and never read past their end. Walks over in-memory copies
 * use buffers of the exact length, so ASan or valgrind reports any read
 * past the end that a file mapping would hide in its last page.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
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

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ALIGN8(x)	(((x) + 7) & ~(size_t)7)
#define NO_BAD		((size_t)0xbadbadbad)	/* *bad must stay this */

static char tmpdir[PATH_MAX];

/* ---- files -------------------------------------------------------------- */

static void tmp_path(char *buf, const char *name)
{
	int n = snprintf(buf, PATH_MAX, "%s/%s", tmpdir, name);

	assert_true(n > 0 && n < PATH_MAX);
}

static uint8_t *slurp(const char *path, size_t *lenp)
{
	struct stat st;
	uint8_t *buf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	assert_non_null(buf);
	assert_int_equal(read(fd, buf, (size_t)st.st_size), st.st_size);
	close(fd);
	*lenp = (size_t)st.st_size;
	return buf;
}

static void spill(const char *path, const void *buf, size_t len)
{
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	if (len)
		assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
}

/* Lines of /proc/self/maps that name a file under tmpdir. */
static int count_maps(void)
{
	char line[PATH_MAX + 128];
	FILE *f = fopen("/proc/self/maps", "re");
	int n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, tmpdir) != NULL;
	fclose(f);
	return n;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* ---- kernel records, laid out with the uapi structs --------------------- */

union recbuf {
	uint64_t align;
	uint8_t b[1200];
};

static size_t mk_sample(union recbuf *r, uint64_t time, int nr)
{
	struct skd_rec_sample s = {
		.hdr = { .type = SKD_REC_SAMPLE, .misc = SKD_MISC_USER },
		.id = { .time = time, .cpu = 1, .pid = 42, .tid = 43 },
		.ip = 0x401000 + time, .period = 250000,
		.fields = nr ? SKD_SAMPLE_CALLCHAIN : 0,
	};
	struct skd_callchain cc = { .nr = (uint16_t)nr, .nr_kernel = 1 };
	size_t n = sizeof(s);
	uint64_t ip;
	int i;

	memset(r, 0, sizeof(*r));
	if (nr) {
		memcpy(r->b + n, &cc, sizeof(cc));
		n += sizeof(cc);
		for (i = 0; i < nr; i++, n += 8) {
			ip = i ? 0x401000ULL + 16 * i : 0xffffffff81000000ULL;
			memcpy(r->b + n, &ip, 8);
		}
	}
	s.hdr.size = (uint16_t)n;
	memcpy(r->b, &s, sizeof(s));
	return n;
}

static size_t mk_comm(union recbuf *r, const char *comm)
{
	struct skd_rec_comm c = {
		.hdr = { .type = SKD_REC_COMM, .misc = SKD_MISC_COMM_EXEC,
			 .size = sizeof(c) },
		.id = { .time = 7, .pid = 42, .tid = 42 },
	};

	strncpy(c.comm, comm, sizeof(c.comm) - 1);
	memset(r, 0, sizeof(*r));
	memcpy(r->b, &c, sizeof(c));
	return sizeof(c);
}

static size_t mk_exec(union recbuf *r, const char *path)
{
	struct skd_rec_exec e = {
		.hdr = { .type = SKD_REC_EXEC },
		.id = { .time = 8, .pid = 42, .tid = 42 }, .old_tid = 44,
	};
	size_t n = ALIGN8(sizeof(e) + strlen(path) + 1);

	memset(r, 0, sizeof(*r));
	e.hdr.size = (uint16_t)n;
	memcpy(r->b, &e, sizeof(e));
	memcpy(r->b + sizeof(e), path, strlen(path) + 1);
	return n;
}

static size_t mk_task(union recbuf *r, uint32_t type)
{
	struct skd_rec_task t = {
		.hdr = { .type = type, .size = sizeof(t) },
		.id = { .time = 9, .pid = 50, .tid = 51 }, .ppid = 42, .ptid = 43,
	};

	memset(r, 0, sizeof(*r));
	memcpy(r->b, &t, sizeof(t));
	return sizeof(t);
}

static size_t mk_lost(union recbuf *r, uint64_t lost)
{
	struct skd_rec_lost l = {
		.hdr = { .type = SKD_REC_LOST, .size = sizeof(l) },
		.id = { .time = 10, .cpu = 2 }, .lost = lost,
	};

	memset(r, 0, sizeof(*r));
	memcpy(r->b, &l, sizeof(l));
	return sizeof(l);
}

/* A type nobody knows: stored and returned like any other. */
static size_t mk_unknown(union recbuf *r)
{
	struct skd_rec_header h = { .type = 0x77, .misc = 3, .size = 24 };

	memset(r, 0xab, sizeof(*r));
	memcpy(r->b, &h, sizeof(h));
	return 24;
}

/* ---- one file with every kind of record --------------------------------- */

enum kind { K_SESSION, K_MAP, K_KSYM, K_STATS, K_KERNEL, K_FINISHED };

struct expect {
	enum kind kind;
	uint32_t type;
	size_t size;
	union recbuf raw;	/* K_KERNEL: the bytes put */
	const char *str;	/* K_MAP path, K_KSYM name */
	uint64_t a, b, c;	/* map start/end/pgoff, ksym addr/size, stats cpu */
};

static const struct skd_frec_session session_in = {
	.hdr = { .type = 0x1234, .misc = 0x55, .size = 3 },	/* writer's job */
	.start_time = 1000000001, .start_realtime = 1700000000123456789ULL,
	.backend = SKD_BACKEND_TIMER, .flags = SKD_CFG_FREQ | SKD_CFG_PID,
	.sample = 4000, .callchain_depth = 64, .nr_cpus = 8,
};

static const struct skd_cpu_stats stats_in = {
	.generated = 100, .delivered = 90, .lost = 10, .lost_unreported = 3,
	.samples = 80, .wakeups = 5,
};

#define HOST	"buildhost"
#define RELEASE	"6.1.0-18-amd64"
#define CMDLINE	"skidless record -F 4000 -g -- /bin/ls -l"
#define PMU	"sim:icelake"

static size_t with_strings(size_t fixed, const char *const *s, size_t n)
{
	size_t i, len = fixed;

	for (i = 0; i < n; i++)
		len += strlen(s[i]) + 1;
	return ALIGN8(len);
}

/*
 * Write @path with one record of each kind (and several of some), checking
 * each put's result and the byte count as it goes; fill @exp with what the
 * file must hold. Returns the number of records.
 */
static size_t write_full(const char *path, struct expect *exp)
{
	static const char *const map_paths[] = {
		"/usr/bin/true", "", "[vdso]", "/lib/x86_64-linux-gnu/libc.so.6",
	};
	static const char *const sess[] = { HOST, RELEASE, CMDLINE, PMU };
	struct skd_capture_writer *w;
	uint64_t bytes = sizeof(struct skd_file_header);
	size_t n = 0, i;

	w = skd_capture_create(path);
	assert_non_null(w);
	assert_int_equal(skd_capture_bytes(w), bytes);

	assert_int_equal(skd_capture_put_session(w, &session_in, HOST, RELEASE,
						 CMDLINE, PMU), 0);
	exp[n++] = (struct expect){ .kind = K_SESSION, .type = SKD_FREC_SESSION,
		.size = with_strings(sizeof(struct skd_frec_session), sess, 4) };

	for (i = 0; i < ARRAY_SIZE(map_paths); i++) {
		assert_int_equal(skd_capture_put_map(w, 5000 + i, 42,
				0x400000 + 0x10000 * i, 0x401000 + 0x10000 * i,
				0x1000 * i, map_paths[i]), 0);
		exp[n++] = (struct expect){ .kind = K_MAP, .type = SKD_FREC_MAP,
			.size = with_strings(sizeof(struct skd_frec_map), &map_paths[i], 1),
			.str = map_paths[i], .a = 0x400000 + 0x10000 * i,
			.b = 0x401000 + 0x10000 * i, .c = 0x1000 * i };
	}

	assert_int_equal(skd_capture_put_ksym(w, 0xffffffff81000000ULL, 0x120,
					      "do_syscall_64"), 0);
	exp[n] = (struct expect){ .kind = K_KSYM, .type = SKD_FREC_KSYM,
		.str = "do_syscall_64",
		.a = 0xffffffff81000000ULL, .b = 0x120 };
	exp[n].size = with_strings(sizeof(struct skd_frec_ksym), &exp[n].str, 1);
	n++;

	for (i = 0; i < 2; i++) {
		assert_int_equal(skd_capture_put_stats(w, 3 * (uint32_t)i, &stats_in), 0);
		exp[n++] = (struct expect){ .kind = K_STATS, .type = SKD_FREC_STATS,
			.size = sizeof(struct skd_frec_stats), .a = 3 * i };
	}

	for (i = 0; i < 8; i++) {
		struct expect *e = &exp[n++];

		*e = (struct expect){ .kind = K_KERNEL };
		switch (i) {
		case 0: e->size = mk_sample(&e->raw, 11, 0); break;
		case 1: e->size = mk_sample(&e->raw, 12, 6); break;
		case 2: e->size = mk_comm(&e->raw, "ls"); break;
		case 3: e->size = mk_exec(&e->raw, "/bin/ls"); break;
		case 4: e->size = mk_task(&e->raw, SKD_REC_FORK); break;
		case 5: e->size = mk_task(&e->raw, SKD_REC_EXIT); break;
		case 6: e->size = mk_lost(&e->raw, 12345); break;
		default: e->size = mk_unknown(&e->raw); break;
		}
		e->type = ((struct skd_rec_header *)e->raw.b)->type;
		assert_int_equal(skd_capture_put(w, e->raw.b), 0);
	}

	for (i = 0; i < n; i++)
		bytes += exp[i].size;
	assert_int_equal(skd_capture_bytes(w), bytes);
	assert_int_equal(skd_capture_finish(w, 999999), 0);
	exp[n++] = (struct expect){ .kind = K_FINISHED, .type = SKD_FREC_FINISHED,
		.size = sizeof(struct skd_frec_finished) };
	return n;
}

/* The record's tail after its string holds zeros only. */
static void check_padding(const struct skd_rec_header *h, size_t fixed)
{
	const uint8_t *p = (const uint8_t *)h;
	size_t end = fixed + strlen((const char *)p + fixed) + 1;

	assert_true(end <= h->size);
	assert_true(h->size - end < 8);
	for (; end < h->size; end++)
		assert_int_equal(p[end], 0);
}

static void check_record(const struct skd_rec_header *h, const struct expect *e)
{
	const struct skd_frec_session *s;
	const struct skd_frec_stats *st;
	const struct skd_frec_ksym *k;
	const struct skd_frec_map *m;

	assert_int_equal(h->type, e->type);
	assert_int_equal(h->size, e->size);
	switch (e->kind) {
	case K_SESSION:
		s = skd_frec_session(h);
		assert_ptr_equal(s, h);
		assert_int_equal(h->misc, 0);
		assert_int_equal(s->start_time, session_in.start_time);
		assert_int_equal(s->start_realtime, session_in.start_realtime);
		assert_int_equal(s->backend, session_in.backend);
		assert_int_equal(s->flags, session_in.flags);
		assert_int_equal(s->sample, session_in.sample);
		assert_int_equal(s->callchain_depth, session_in.callchain_depth);
		assert_int_equal(s->nr_cpus, session_in.nr_cpus);
		assert_string_equal(skd_frec_session_string(s, 0), HOST);
		assert_string_equal(skd_frec_session_string(s, 1), RELEASE);
		assert_string_equal(skd_frec_session_string(s, 2), CMDLINE);
		assert_string_equal(skd_frec_session_string(s, 3), PMU);
		assert_string_equal(skd_frec_session_string(s, 4), "");
		break;
	case K_MAP:
		m = skd_frec_map(h);
		assert_ptr_equal(m, h);
		assert_int_equal(m->start, e->a);
		assert_int_equal(m->end, e->b);
		assert_int_equal(m->pgoff, e->c);
		assert_int_equal(m->pid, 42);
		assert_int_equal(m->time, 5000 + (e->a - 0x400000) / 0x10000);
		assert_string_equal(m->path, e->str);
		check_padding(h, sizeof(*m));
		break;
	case K_KSYM:
		k = skd_frec_ksym(h);
		assert_ptr_equal(k, h);
		assert_int_equal(k->addr, e->a);
		assert_int_equal(k->size, e->b);
		assert_string_equal(k->name, e->str);
		check_padding(h, sizeof(*k));
		break;
	case K_STATS:
		st = skd_frec_stats(h);
		assert_ptr_equal(st, h);
		assert_int_equal(st->cpu, e->a);
		assert_memory_equal(&st->stats, &stats_in, sizeof(stats_in));
		break;
	case K_KERNEL:
		/* Stored verbatim, misc and reserved bytes included. */
		assert_memory_equal(h, e->raw.b, e->size);
		assert_null(skd_frec_map(h));
		assert_null(skd_frec_stats(h));
		break;
	case K_FINISHED:
		assert_int_equal(((const struct skd_frec_finished *)h)->time, 999999);
		break;
	}
}

static void test_round_trip(void **state)
{
	struct expect exp[32];
	const struct skd_file_header *fh;
	const struct skd_rec_header *h;
	char path[PATH_MAX], err[256];
	struct skd_capture c;
	size_t n, i, off, bad = NO_BAD, flen;
	uint8_t *raw;

	(void)state;
	tmp_path(path, "full.skd");
	n = write_full(path, exp);

	/* The header, byte for byte. */
	raw = slurp(path, &flen);
	fh = (const void *)raw;
	assert_memory_equal(raw, "SKIDLESS", 8);
	assert_int_equal(fh->version, SKD_FILE_VERSION);
	assert_int_equal(fh->header_size, 64);
	for (i = 0; i < ARRAY_SIZE(fh->reserved); i++)
		assert_int_equal(fh->reserved[i], 0);
	free(raw);

	assert_int_equal(skd_capture_open(path, &c, err, sizeof(err)), 0);
	assert_int_equal(c.len, flen);
	assert_int_equal(c.first, 64);
	assert_false(c.finished);
	off = c.first;
	for (i = 0; i < n; i++) {
		size_t at = off;

		h = skd_capture_next(&c, &off, &bad);
		assert_non_null(h);
		assert_ptr_equal(h, c.base + at);
		assert_int_equal(at % 8, 0);
		assert_int_equal(off, at + exp[i].size);
		check_record(h, &exp[i]);
		/* finished turns on with the end marker, not before. */
		assert_int_equal(c.finished, exp[i].kind == K_FINISHED);
	}
	assert_int_equal(off, flen);
	assert_null(skd_capture_next(&c, &off, &bad));
	assert_null(skd_capture_next(&c, &off, &bad));
	assert_int_equal(bad, NO_BAD);
	assert_int_equal(off, flen);
	assert_true(c.finished);
	skd_capture_close(&c);
	assert_null(c.base);
	assert_int_equal(c.len, 0);
	assert_false(c.finished);
}

/* Every padding length 0..7 for every string-carrying record. */
static void test_padding(void **state)
{
	char path[PATH_MAX], err[256], s[40];
	const struct skd_rec_header *h;
	struct skd_capture_writer *w;
	struct skd_capture c;
	size_t len, off, bad = NO_BAD;

	(void)state;
	tmp_path(path, "pad.skd");
	w = skd_capture_create(path);
	assert_non_null(w);
	for (len = 0; len < 17; len++) {
		memset(s, 'a' + (int)len, len);
		s[len] = '\0';
		assert_int_equal(skd_capture_put_map(w, len, 1, len, len + 1, 0, s), 0);
		assert_int_equal(skd_capture_put_ksym(w, len, 1, s), 0);
		assert_int_equal(skd_capture_put_session(w, &session_in, s, "", s, s), 0);
	}
	assert_int_equal(skd_capture_finish(w, 1), 0);

	assert_int_equal(skd_capture_open(path, &c, err, sizeof(err)), 0);
	off = c.first;
	for (len = 0; len < 17; len++) {
		memset(s, 'a' + (int)len, len);
		s[len] = '\0';

		h = skd_capture_next(&c, &off, &bad);
		assert_non_null(h);
		assert_int_equal(h->size, ALIGN8(sizeof(struct skd_frec_map) + len + 1));
		assert_string_equal(skd_frec_map(h)->path, s);
		check_padding(h, sizeof(struct skd_frec_map));

		h = skd_capture_next(&c, &off, &bad);
		assert_non_null(h);
		assert_int_equal(h->size, ALIGN8(sizeof(struct skd_frec_ksym) + len + 1));
		assert_string_equal(skd_frec_ksym(h)->name, s);
		check_padding(h, sizeof(struct skd_frec_ksym));

		h = skd_capture_next(&c, &off, &bad);
		assert_non_null(h);
		assert_int_equal(h->size,
				 ALIGN8(sizeof(struct skd_frec_session) + 3 * len + 4));
		assert_string_equal(skd_frec_session_string(skd_frec_session(h), 0), s);
		assert_string_equal(skd_frec_session_string(skd_frec_session(h), 1), "");
		assert_string_equal(skd_frec_session_string(skd_frec_session(h), 2), s);
		assert_string_equal(skd_frec_session_string(skd_frec_session(h), 3), s);
	}
	assert_non_null(skd_capture_next(&c, &off, &bad));
	assert_true(c.finished);
	assert_null(skd_capture_next(&c, &off, &bad));
	assert_int_equal(bad, NO_BAD);
	skd_capture_close(&c);
}

/* The largest string that fits a u16 size, and one byte more. */
static void test_too_long(void **state)
{
	const size_t fit = 0xfff8 - sizeof(struct skd_frec_map) - 1;
	char path[PATH_MAX], err[256], *s;
	const struct skd_rec_header *h;
	struct skd_capture_writer *w;
	struct skd_capture c;
	size_t off, bad = NO_BAD;
	uint64_t bytes;

	(void)state;
	s = malloc(fit + 2);
	assert_non_null(s);
	memset(s, 'L', fit + 1);
	s[fit] = '\0';

	tmp_path(path, "long.skd");
	w = skd_capture_create(path);
	assert_non_null(w);
	assert_int_equal(skd_capture_put_map(w, 1, 1, 0, 1, 0, s), 0);
	assert_int_equal(skd_capture_finish(w, 1), 0);
	assert_int_equal(skd_capture_open(path, &c, err, sizeof(err)), 0);
	off = c.first;
	h = skd_capture_next(&c, &off, &bad);
	assert_non_null(h);
	assert_int_equal(h->size, 0xfff8);
	assert_int_equal(strlen(skd_frec_map(h)->path), fit);
	skd_capture_close(&c);

	/* One more byte: refused, and the error sticks to the writer. */
	s[fit] = 'L';
	s[fit + 1] = '\0';
	w = skd_capture_create(path);
	assert_non_null(w);
	bytes = skd_capture_bytes(w);
	assert_int_equal(skd_capture_put_map(w, 1, 1, 0, 1, 0, s), -ENAMETOOLONG);
	assert_int_equal(skd_capture_bytes(w), bytes);
	assert_int_equal(skd_capture_put_ksym(w, 1, 1, "x"), -ENAMETOOLONG);
	assert_int_equal(skd_capture_put_stats(w, 0, &stats_in), -ENAMETOOLONG);
	assert_int_equal(skd_capture_put_session(w, &session_in, "", "", "", ""),
			 -ENAMETOOLONG);
	assert_int_equal(skd_capture_bytes(w), bytes);
	assert_int_equal(skd_capture_finish(w, 1), -ENAMETOOLONG);
	free(s);
}

static const char *too_long(void)
{
	static char s[0x10000];

	memset(s, 'L', sizeof(s) - 1);
	return s;
}

static void test_write_errors(void **state)
{
	struct skd_capture_writer *w;
	char path[PATH_MAX];

	(void)state;
	tmp_path(path, "no/such/dir.skd");
	errno = 0;
	assert_null(skd_capture_create(path));
	assert_int_equal(errno, ENOENT);

	/* Buffered writes fail late: finish must report it. */
	w = skd_capture_create("/dev/full");
	if (!w)
		skip();
	assert_int_equal(skd_capture_put_session(w, &session_in, "h", "r", "c", "p"), 0);
	assert_int_equal(skd_capture_finish(w, 1), -ENOSPC);

	/* The first error is the one reported, not the flush's. */
	w = skd_capture_create("/dev/full");
	assert_non_null(w);
	assert_int_equal(skd_capture_put_ksym(w, 1, 1, too_long()), -ENAMETOOLONG);
	assert_int_equal(skd_capture_finish(w, 1), -ENAMETOOLONG);
}

/* ---- opening damaged files ---------------------------------------------- */

struct open_case {
	const char *name;
	long len;			/* bytes of the good file kept; -1: none */
	size_t at;			/* patch offset */
	const char *bytes;		/* patch, or NULL */
	size_t nbytes;
	int err;
	const char *words;		/* expected in the sentence */
};

#define PATCH_U32(off, v) (off), (const char *)&(const uint32_t){ v }, 4

static const struct open_case open_cases[] = {
	{ "missing", -1, 0, NULL, 0, -ENOENT, "cannot open" },
	{ "empty", 0, 0, NULL, 0, -EINVAL, "is 0 bytes, too short" },
	{ "magic only", 8, 0, NULL, 0, -EINVAL, "is 8 bytes, too short" },
	{ "short header", 63, 0, NULL, 0, -EINVAL, "is 63 bytes, too short" },
	{ "bad magic", 400, 7, "Z", 1, -EINVAL, "no SKIDLESS magic" },
	{ "lower-case magic", 400, 0, "skidless", 8, -EINVAL, "not a skidless capture" },
	{ "version 0", 400, PATCH_U32(8, 0), -EPROTO, "capture format 0; this skidless reads 2" },
	{ "version 1, before config1", 400, PATCH_U32(8, 1), -EPROTO, "capture format 1; this skidless reads 2 (format 1 came before config1" },
	{ "version 3", 400, PATCH_U32(8, 3), -EPROTO, "capture format 3" },
	{ "version ~0", 400, PATCH_U32(8, 0xffffffffU), -EPROTO, "capture format 4294967295" },
	{ "header_size 0", 400, PATCH_U32(12, 0), -EINVAL, "corrupt header" },
	{ "header_size 56", 400, PATCH_U32(12, 56), -EINVAL, "corrupt header" },
	{ "header_size 68", 400, PATCH_U32(12, 68), -EINVAL, "corrupt header" },
	{ "header_size 408", 400, PATCH_U32(12, 408), -EINVAL, "corrupt header" },
	{ "header_size ~0", 400, PATCH_U32(12, 0xfffffff8U), -EINVAL, "corrupt header" },
	/* Controls: a bigger header and a header-only file are fine. */
	{ "header_size 400", 400, PATCH_U32(12, 400), 0, NULL },
	{ "header only", 64, 0, NULL, 0, 0, NULL },
};

static void test_open_errors(void **state)
{
	struct expect exp[32];
	char good[PATH_MAX], path[PATH_MAX], name[32], err[256];
	struct skd_capture c;
	size_t i, glen, off, bad = NO_BAD;
	uint8_t *raw;
	int fds, ret;

	(void)state;
	tmp_path(good, "good.skd");
	write_full(good, exp);
	raw = slurp(good, &glen);
	assert_true(glen >= 400);
	fds = count_fds();

	for (i = 0; i < ARRAY_SIZE(open_cases); i++) {
		const struct open_case *oc = &open_cases[i];
		uint8_t *buf;

		snprintf(name, sizeof(name), "open-%zu.skd", i);
		tmp_path(path, name);
		if (oc->len >= 0) {
			buf = malloc((size_t)oc->len + 1);
			assert_non_null(buf);
			memcpy(buf, raw, (size_t)oc->len);
			if (oc->bytes)
				memcpy(buf + oc->at, oc->bytes, oc->nbytes);
			spill(path, buf, (size_t)oc->len);
			free(buf);
		}
		memset(&c, 0x5a, sizeof(c));
		err[0] = '\0';
		ret = skd_capture_open(path, &c, err, sizeof(err));
		if (ret != oc->err)
			fail_msg("%s: open returned %d (%s)", oc->name, ret, err);
		if (ret) {
			/* A sentence naming the file and the problem. */
			if (!strstr(err, path) || !strstr(err, oc->words))
				fail_msg("%s: \"%s\" lacks \"%s\"", oc->name, err,
					 oc->words);
			assert_null(c.base);
			assert_int_equal(c.len, 0);
			continue;
		}
		assert_int_equal(c.len, (size_t)oc->len);
		/* Records start after the header, whatever its size. */
		assert_int_equal(c.first, (size_t)oc->len);
		off = c.first;
		assert_null(skd_capture_next(&c, &off, &bad));
		assert_int_equal(bad, NO_BAD);
		assert_false(c.finished);
		skd_capture_close(&c);
	}
	/* Not one descriptor or mapping left behind. */
	assert_int_equal(count_fds(), fds);
	assert_int_equal(count_maps(), 0);

	/* A short buffer truncates the sentence, still terminated. */
	memset(err, 'x', sizeof(err));
	tmp_path(path, "missing.skd");
	assert_int_equal(skd_capture_open(path, &c, err, 12), -ENOENT);
	assert_int_equal(strlen(err), 11);

	/* Not a regular file: refused with some errno and a sentence. */
	err[0] = '\0';
	assert_true(skd_capture_open(tmpdir, &c, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, tmpdir));
	assert_null(c.base);
	free(raw);
}

/* ---- walking damaged files ---------------------------------------------- */

/* Record offsets of a well-formed file by its own size fields. */
static size_t boundaries(const uint8_t *raw, size_t len, size_t *v, size_t max)
{
	size_t off = 64, n = 0;

	while (off < len) {
		uint16_t size;

		assert_true(n < max);
		memcpy(&size, raw + off + 6, 2);
		v[n++] = off;
		off += size;
	}
	assert_int_equal(off, len);
	v[n] = len;
	return n;
}

/*
 * Walk @c and check it against a file whose records start at bnd[0..n) and
 * whose first @whole records are intact: those come back, then the walk
 * stops, naming bnd[whole] as bad unless the data ends right there.
 */
static void walk_expect(struct skd_capture *c, const size_t *bnd, size_t whole,
			bool clean_end, bool finished, const char *what, size_t L)
{
	size_t off = c->first, bad = NO_BAD, i;

	for (i = 0; i < whole; i++) {
		if (skd_capture_next(c, &off, &bad) != (const void *)(c->base + bnd[i]))
			fail_msg("%s %zu: record %zu missing", what, L, i);
	}
	if (skd_capture_next(c, &off, &bad))
		fail_msg("%s %zu: a record after the last whole one", what, L);
	if (bad != (clean_end ? NO_BAD : bnd[whole]))
		fail_msg("%s %zu: bad %#zx, want %#zx", what, L, bad,
			 clean_end ? NO_BAD : bnd[whole]);
	if (c->finished != finished)
		fail_msg("%s %zu: finished %d", what, L, c->finished);
}

static void test_truncated(void **state)
{
	struct expect exp[32];
	char path[PATH_MAX], err[256];
	size_t bnd[34], n, L, flen, whole;
	struct skd_capture c;
	uint8_t *raw, *copy;
	int fd;

	(void)state;
	tmp_path(path, "cut.skd");
	write_full(path, exp);
	raw = slurp(path, &flen);
	n = boundaries(raw, flen, bnd, ARRAY_SIZE(bnd) - 1);

	fd = open(path, O_WRONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	for (L = flen + 1; L-- > 0;) {
		assert_int_equal(ftruncate(fd, (off_t)L), 0);
		if (L < 64) {
			assert_int_equal(skd_capture_open(path, &c, err, sizeof(err)),
					 -EINVAL);
			continue;
		}
		for (whole = 0; whole < n && bnd[whole + 1] <= L; whole++)
			;
		assert_int_equal(skd_capture_open(path, &c, err, sizeof(err)), 0);
		walk_expect(&c, bnd, whole, bnd[whole] == L, L == flen, "file", L);
		skd_capture_close(&c);

		/* The same bytes in a buffer of exactly L. */
		copy = malloc(L);
		assert_non_null(copy);
		memcpy(copy, raw, L);
		c = (struct skd_capture){ .base = copy, .len = L, .first = 64 };
		walk_expect(&c, bnd, whole, bnd[whole] == L, L == flen, "buffer", L);
		free(copy);
	}
	close(fd);
	free(raw);
}

/* A record in the middle whose size cannot be right stops the walk there. */
static void test_bad_size(void **state)
{
	static const uint16_t sizes[] = { 0, 1, 4, 7, 12, 0xfff8, 0xffff };
	struct expect exp[32];
	char path[PATH_MAX];
	size_t bnd[34], n, flen, i, k;
	struct skd_capture c;
	uint8_t *raw, *copy;

	(void)state;
	tmp_path(path, "size.skd");
	write_full(path, exp);
	raw = slurp(path, &flen);
	n = boundaries(raw, flen, bnd, ARRAY_SIZE(bnd) - 1);

	for (k = 0; k < n; k++) {
		for (i = 0; i < ARRAY_SIZE(sizes); i++) {
			copy = malloc(flen);
			assert_non_null(copy);
			memcpy(copy, raw, flen);
			memcpy(copy + bnd[k] + 6, &sizes[i], 2);
			c = (struct skd_capture){ .base = copy, .len = flen, .first = 64 };
			walk_expect(&c, bnd, k, false, false, "size", sizes[i]);
			free(copy);
		}
	}
	free(raw);
}

/* ---- checked accessors -------------------------------------------------- */

/*
 * A reader record of @size bytes: fixed part @fixed of @type, then @tail
 * (@ntail bytes, no NUL added) and zeros. Exactly @size bytes are
 * allocated, so an accessor reading past hdr.size trips the sanitizer.
 */
static struct skd_rec_header *mk_frec(uint32_t type, size_t fixed, size_t size,
				      const char *tail, size_t ntail)
{
	struct skd_rec_header *h = calloc(1, size);

	assert_non_null(h);
	h->type = type;
	h->size = (uint16_t)size;
	assert_true(!ntail || fixed + ntail <= size);
	memcpy((uint8_t *)h + fixed, tail, ntail);
	return h;
}

typedef const void *(*accessor)(const struct skd_rec_header *);

static const void *get_map(const struct skd_rec_header *h) { return skd_frec_map(h); }
static const void *get_ksym(const struct skd_rec_header *h) { return skd_frec_ksym(h); }
static const void *get_session(const struct skd_rec_header *h) { return skd_frec_session(h); }

static void test_accessors(void **state)
{
	static const struct {
		const char *name;
		uint32_t type;
		size_t fixed;
		accessor get;
	} acc[] = {
		{ "map", SKD_FREC_MAP, sizeof(struct skd_frec_map),
		  get_map },
		{ "ksym", SKD_FREC_KSYM, sizeof(struct skd_frec_ksym),
		  get_ksym },
		{ "session", SKD_FREC_SESSION, sizeof(struct skd_frec_session),
		  get_session },
	};
	static const struct {
		const char *what;
		size_t extra;		/* bytes after the fixed part */
		const char *tail;
		size_t ntail;
		bool ok;
	} shapes[] = {
		{ "no string at all", 0, "", 0, false },
		{ "shorter than the fixed part", (size_t)-8, "", 0, false },
		{ "8 bytes, no NUL", 8, "abcdefgh", 8, false },
		{ "16 bytes, no NUL", 16, "abcdefghijklmnop", 16, false },
		{ "NUL in the last byte", 8, "abcdefg", 8, true },
		{ "empty string", 8, "", 0, true },
		{ "NUL after padding", 16, "abcdefghijklmno", 16, true },
	};
	struct skd_rec_header *h;
	size_t a, s;

	(void)state;
	for (a = 0; a < ARRAY_SIZE(acc); a++) {
		for (s = 0; s < ARRAY_SIZE(shapes); s++) {
			h = mk_frec(acc[a].type, acc[a].fixed,
				    acc[a].fixed + shapes[s].extra, shapes[s].tail,
				    shapes[s].ntail);
			if ((acc[a].get(h) == h) != shapes[s].ok)
				fail_msg("%s, %s: wrong verdict", acc[a].name,
					 shapes[s].what);
			/* Right shape, wrong type: refused by every accessor. */
			h->type = acc[(a + 1) % ARRAY_SIZE(acc)].type;
			assert_null(acc[a].get(h));
			free(h);
		}
	}

	h = mk_frec(SKD_FREC_STATS, 8, sizeof(struct skd_frec_stats), "", 0);
	assert_ptr_equal(skd_frec_stats(h), h);
	h->type = SKD_FREC_MAP;
	assert_null(skd_frec_stats(h));
	free(h);
	h = mk_frec(SKD_FREC_STATS, 8, sizeof(struct skd_frec_stats) - 8, "", 0);
	assert_null(skd_frec_stats(h));
	free(h);
}

static void test_session_strings(void **state)
{
	static const struct {
		const char *what;
		const char *bytes;	/* the strings area, exactly */
		size_t len;
		const char *want[5];	/* indexes 0..4 */
	} cases[] = {
		{ "padded", "host\0rel\0cmd line\0\0\0\0\0\0\0", 24,
		  { "host", "rel", "cmd line", "", "" } },
		{ "exact fit", "ab\0cd\0e\0", 8, { "ab", "cd", "e", "", "" } },
		{ "all empty", "\0\0\0\0\0\0\0\0", 8, { "", "", "", "", "" } },
		{ "last unterminated", "host\0rel\0cmdxxxxxxxxxxxx", 24,
		  { "host", "rel", "", "", "" } },
		{ "two strings only", "only\0two\0", 9, { "only", "two", "", "", "" } },
	};
	const size_t fixed = sizeof(struct skd_frec_session);
	const struct skd_frec_session *s;
	struct skd_rec_header *h;
	const char *got;
	size_t c, i;

	(void)state;
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		h = mk_frec(SKD_FREC_SESSION, fixed, fixed + ALIGN8(cases[c].len),
			    cases[c].bytes, cases[c].len);
		s = (const void *)h;
		for (i = 0; i < 5; i++) {
			got = skd_frec_session_string(s, (unsigned int)i);
			if (strcmp(got, cases[c].want[i]))
				fail_msg("%s: string %zu is \"%s\", want \"%s\"",
					 cases[c].what, i, got, cases[c].want[i]);
		}
		/* In-range strings point into the record. */
		assert_ptr_equal(skd_frec_session_string(s, 0), s->strings);
		assert_string_equal(skd_frec_session_string(s, 1000), "");
		assert_string_equal(skd_frec_session_string(s, UINT32_MAX), "");
		free(h);
	}
}

/* ---- main --------------------------------------------------------------- */

static int group_setup(void **state)
{
	(void)state;
	return unit_tmpdir_make(tmpdir, sizeof(tmpdir), unit_tmp_parent(),
				"skd_capture");
}

static int group_teardown(void **state)
{
	(void)state;
	return unit_tmpdir_remove(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_padding),
		cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad_size),
		cmocka_unit_test(test_accessors),
		cmocka_unit_test(test_session_strings),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
