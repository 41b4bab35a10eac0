// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for the full-disk path of userland/lib/perfdata_write.c: a child
 * process writes with RLIMIT_FSIZE set and SIGXFSZ ignored, so write(2)
 * fails with EFBIG past the limit as it would with ENOSPC on a full disk
 * (no LD_PRELOAD, no wrapper). The file must then end at a whole record,
 * be readable with its header and features, and end in a
 * PERF_RECORD_LOST (include/uapi/linux/perf_event.h: {u64 id; u64 lost;
 * sample_id}) that counts every record put and not kept.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "pd_fx.h"
#include "perfdata_read.h"
#include "unit_tmp.h"

struct child_out {
	int close_ret;
	uint64_t put;		/* records given to the writer */
	struct pd_writer_result res;
};

/* The writer's own thread writes (pd_writer_async()), as record does. */
static bool g_async;

/* In the child: write @n samples into @path under a @limit byte file size. */
static void child(const char *path, rlim_t limit, unsigned int n, int pfd)
{
	struct rlimit rl = { limit, limit };
	struct child_out out = { 0 };
	struct pd_conv *c = fx_conv(1, "skylake");
	const struct pd_event_spec *specs;
	struct pd_buf desc = { 0 };
	struct pd_writer *w;
	struct fx_sample s;
	struct fx_rec r;
	unsigned int nr, i;
	int fd, err = 0;

	signal(SIGXFSZ, SIG_IGN);
	if (!c || setrlimit(RLIMIT_FSIZE, &rl))
		_exit(2);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	specs = pd_conv_events(c, &nr);
	w = fd < 0 ? NULL : pd_writer_open(fd, false, specs, nr);
	if (!w)
		_exit(3);
	pd_conv_event_desc(c, &desc);
	pd_writer_feature(w, PD_FEAT_EVENT_DESC, desc.p, desc.len);
	if (g_async && pd_writer_async(w))
		_exit(7);
	for (i = 0; i < n; i++) {
		const struct pd_header *h;

		fx_sample_default(&s, i);
		if (fx_build_sample(&r, &s))
			_exit(4);
		h = pd_conv_record(c, &r.ev, &err);
		if (!h)
			_exit(5);
		pd_writer_put(w, h);
		out.put++;
	}
	out.close_ret = pd_writer_close(w, &out.res);
	if (write(pfd, &out, sizeof(out)) != sizeof(out))
		_exit(6);
	pd_buf_free(&desc);
	pd_conv_free(c);
	_exit(0);
}

static void run(rlim_t limit, unsigned int n, bool expect_full)
{
	char dir[256], path[300];
	struct child_out out;
	struct pd_file f;
	const struct pd_header *h, *last = NULL;
	size_t off, bad = SIZE_MAX;
	uint64_t nsamples = 0, lost = 0, nlost = 0;
	struct stat st;
	char err[256];
	int p[2], status;
	pid_t pid;

	assert_int_equal(unit_tmpdir_make(dir, sizeof(dir), unit_tmp_parent(),
					  "pd_full"), 0);
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(p[0]);
		child(path, limit, n, p[1]);
	}
	close(p[1]);
	assert_int_equal(read(p[0], &out, sizeof(out)), sizeof(out));
	close(p[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(out.put, n);
	assert_int_equal(stat(path, &st), 0);
	assert_true((rlim_t)st.st_size <= limit);

	assert_int_equal(pd_file_open(path, &f, err, sizeof(err)), 0);
	off = f.data_off;
	while ((h = pd_file_next(&f, &off, &bad))) {
		if (h->type == PERF_RECORD_SAMPLE) {
			struct pd_sample s;

			assert_null(last);	/* nothing after the LOST */
			assert_int_equal(pd_parse_sample(&f, h, &s), 0);
			assert_int_equal(s.ip, 0xffffffff81000100ULL + nsamples);
			nsamples++;
		} else if (h->type == PERF_RECORD_LOST) {
			uint64_t v[2];

			memcpy(v, h + 1, 16);
			assert_int_equal(v[0], f.first_id[0]);
			lost += v[1];
			nlost++;
			last = h;
		}
	}
	/* Whole records up to the end of the data section. */
	assert_int_equal(bad, SIZE_MAX);
	assert_int_equal(off, f.data_end);
	if (expect_full) {
		assert_int_equal(out.close_ret, -EFBIG);
		assert_int_equal(out.res.err, -EFBIG);
		assert_true(out.res.truncated);
		assert_int_equal(nlost, 1);
		/* The writer keeps whole flushes of its buffer: the
		 * records of the one that failed are counted as lost. */
		assert_true(nsamples < n);
		assert_int_equal(nsamples + lost, n);
		assert_int_equal(out.res.lost, lost);
		assert_int_equal(out.res.records, nsamples + 1);
		assert_int_equal(out.res.data_bytes, f.data_end - f.data_off);
		/* There was room for the features too. */
		assert_string_equal(pd_event_name(&f, 0),
				    "mem_trans_retired.load_latency_gt_3:pp");
	} else {
		assert_int_equal(out.close_ret, 0);
		assert_int_equal(nlost, 0);
		assert_int_equal(nsamples, n);
	}
	pd_file_close(&f);
	assert_int_equal(unit_tmpdir_remove(dir), 0);
}

/* Below the limit: complete, nothing lost. */
static void test_fits(void **state)
{
	(void)state;
	run(1 << 20, 100, false);
}

/* Several buffer flushes, then the limit in the middle of one. */
static void test_full_after_flushes(void **state)
{
	(void)state;
	run(300000, 3000, true);
	run(300001, 3000, true);	/* not even at an 8-byte boundary */
}

/*
 * The limit inside the first flush: the only boundary is the start of the
 * data, so no sample is kept, but the LOST record and features are.
 */
static void test_full_at_first_flush(void **state)
{
	(void)state;
	run(40000, 3000, true);
}

/* The same with the writer thread: the same file, the same counts. */
static void test_async(void **state)
{
	(void)state;
	g_async = true;
	run(1 << 20, 100, false);
	run(300000, 3000, true);
	run(300001, 3000, true);
	run(40000, 3000, true);
	g_async = false;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits),
		cmocka_unit_test(test_full_after_flushes),
		cmocka_unit_test(test_full_at_first_flush),
		cmocka_unit_test(test_async),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
