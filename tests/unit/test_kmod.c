// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for userland/lib/kmod_explain.c, kmod_params.c and dev_users.c:
 * what skidless load and unload say, what they hand the kernel, and who
 * holds the device (checked against a /proc tree of our own and against
 * the kernel's own /proc).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev_users.h"
#include "kmod_explain.h"
#include "kmod_params.h"
#include "unit_tmp.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- messages ----------------------------------------------------------- */

/* The fix each case must name (issue 12's list), and nothing generic. */
static const struct {
	enum skd_kmod_op op;
	int err;
	bool locked_down;
	const char *words;
} named[] = {
	{ SKD_KMOD_LOAD, ENOENT, false, "install skidless-dkms" },
	{ SKD_KMOD_LOAD, ENOENT, false, "make install" },
	{ SKD_KMOD_LOAD, EKEYREJECTED, false, "mokutil --import /var/lib/dkms/mok.pub" },
	{ SKD_KMOD_LOAD, ENOKEY, false, "mokutil --import /var/lib/dkms/mok.pub" },
	{ SKD_KMOD_LOAD, EBADMSG, false, "Secure Boot" },
	/* Lockdown (Secure Boot on Debian) refuses with EPERM, even root. */
	{ SKD_KMOD_LOAD, EPERM, true, "mokutil --import /var/lib/dkms/mok.pub" },
	{ SKD_KMOD_LOAD, EPERM, false, "sudo" },
	{ SKD_KMOD_LOAD, EEXIST, false, "already loaded" },
	{ SKD_KMOD_LOAD, EINVAL, false, "dmesg" },
	{ SKD_KMOD_LOAD, ENOEXEC, false, "another kernel" },
	{ SKD_KMOD_LOAD, ECANCELED, false, "blacklist skidless" },
	{ SKD_KMOD_UNLOAD, EBUSY, false, "in use" },
	{ SKD_KMOD_UNLOAD, EAGAIN, false, "in use" },
	{ SKD_KMOD_UNLOAD, ENOENT, false, "not loaded" },
	{ SKD_KMOD_UNLOAD, EPERM, false, "sudo" },
};

static void test_explain_names_the_fix(void **state)
{
	const char *got;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(named); i++) {
		got = skd_kmod_explain(named[i].op, named[i].err,
				       named[i].locked_down);
		assert_non_null(got);
		if (!strstr(got, named[i].words))
			fail_msg("op %d errno %d: \"%s\" lacks \"%s\"",
				 named[i].op, named[i].err, got, named[i].words);
		assert_string_not_equal(got, strerror(named[i].err));
	}
	/* Not root is not Secure Boot, and lockdown does not change unload. */
	assert_null(strstr(skd_kmod_explain(SKD_KMOD_LOAD, EPERM, false),
			   "mokutil"));
	assert_null(strstr(skd_kmod_explain(SKD_KMOD_UNLOAD, EPERM, true),
			   "mokutil"));
	/* Loading and unloading say different things for the same errno. */
	assert_string_not_equal(skd_kmod_explain(SKD_KMOD_LOAD, ENOENT, false),
				skd_kmod_explain(SKD_KMOD_UNLOAD, ENOENT, false));
}

static void test_explain_fallback(void **state)
{
	char want[256];

	(void)state;
	/* Anything else: the operation and strerror's text. */
	snprintf(want, sizeof(want), "loading the module failed: %s",
		 strerror(ENOMEM));
	assert_string_equal(skd_kmod_explain(SKD_KMOD_LOAD, ENOMEM, false),
			    want);
	snprintf(want, sizeof(want), "unloading the module failed: %s",
		 strerror(EIO));
	assert_string_equal(skd_kmod_explain(SKD_KMOD_UNLOAD, EIO, true), want);
	assert_non_null(skd_kmod_explain(SKD_KMOD_LOAD, 0, false));
	assert_non_null(skd_kmod_explain(SKD_KMOD_LOAD, -1, false));
	assert_non_null(skd_kmod_explain(SKD_KMOD_LOAD, 100000, false));
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The lockdown file as security/lockdown.c prints it. */
static void test_lockdown(void **state)
{
	char dir[256], path[300];

	(void)state;
	assert_int_equal(unit_tmpdir_make(dir, sizeof(dir), unit_tmp_parent(),
					  "kmod-lockdown"), 0);
	snprintf(path, sizeof(path), "%s/lockdown", dir);
	write_file(path, "[none] integrity confidentiality\n");
	assert_false(skd_lockdown_active(path));
	write_file(path, "none [integrity] confidentiality\n");
	assert_true(skd_lockdown_active(path));
	write_file(path, "none integrity [confidentiality]\n");
	assert_true(skd_lockdown_active(path));
	write_file(path, "");
	assert_false(skd_lockdown_active(path));
	unlink(path);
	/* No securityfs: no lockdown we can tell of. */
	assert_false(skd_lockdown_active(path));
	assert_int_equal(unit_tmpdir_remove(dir), 0);
}

/* ---- parameters --------------------------------------------------------- */

static const char *const known[] = {
	"backend", "max_freq", "max_ring_pages", "access_gid",
};

static int join(char *out, size_t len, char *bad, int n, ...)
{
	char *params[8];
	va_list ap;
	int i;

	va_start(ap, n);
	for (i = 0; i < n; i++)
		params[i] = va_arg(ap, char *);
	va_end(ap);
	bad[0] = '\0';
	return skd_kmod_join_params(out, len, params, n, known,
				    ARRAY_SIZE(known), bad, 64);
}

static void test_params(void **state)
{
	char out[128], bad[64];

	(void)state;
	assert_int_equal(join(out, sizeof(out), bad, 0), 0);
	assert_string_equal(out, "");
	assert_int_equal(join(out, sizeof(out), bad, 2, "backend=timer",
			      "max_freq=5000"), 0);
	assert_string_equal(out, "backend=timer max_freq=5000");
	/* A value with blanks is quoted, as the kernel's parse_args reads. */
	assert_int_equal(join(out, sizeof(out), bad, 1, "backend=a b"), 0);
	assert_string_equal(out, "backend=\"a b\"");
	/* A bare name is a bool parameter set to true. */
	assert_int_equal(join(out, sizeof(out), bad, 1, "access_gid"), 0);
	assert_string_equal(out, "access_gid");

	/* Names the module lacks: refused, named. */
	assert_int_equal(join(out, sizeof(out), bad, 2, "max_freq=1",
			      "max_freqq=1"), -EINVAL);
	assert_string_equal(bad, "max_freqq");
	assert_int_equal(join(out, sizeof(out), bad, 1, "max=1"), -EINVAL);
	assert_string_equal(bad, "max");
	/* Not names at all. */
	assert_int_equal(join(out, sizeof(out), bad, 1, "=5"), -EINVAL);
	assert_int_equal(join(out, sizeof(out), bad, 1, "max-freq=5"), -EINVAL);
	assert_string_equal(bad, "max-freq");
	assert_int_equal(join(out, sizeof(out), bad, 1, "1x=5"), -EINVAL);

	/* Too long for the buffer: never cut silently. */
	assert_int_equal(join(out, 10, bad, 1, "backend=timer"), -E2BIG);
	assert_int_equal(join(out, 0, bad, 1, "backend=timer"), -E2BIG);
}

/* ---- who holds the device ----------------------------------------------- */

static void mkdirf(const char *fmt, const char *a, const char *b)
{
	char path[512];

	snprintf(path, sizeof(path), fmt, a, b);
	assert_int_equal(mkdir(path, 0755), 0);
}

static void linkf(const char *target, const char *fmt, const char *a,
		  const char *b)
{
	char path[512];

	snprintf(path, sizeof(path), fmt, a, b);
	assert_int_equal(symlink(target, path), 0);
}

/*
 * A /proc of our own: fds are links to the open files, as in the real
 * one. /dev/null stands for the device (any character device does: the
 * scan compares rdevs), /dev/zero for another device.
 */
static void test_users_fake_proc(void **state)
{
	char dir[256], path[512], other[300];
	pid_t pids[4];
	int n;

	(void)state;
	assert_int_equal(unit_tmpdir_make(dir, sizeof(dir), unit_tmp_parent(),
					  "kmod-proc"), 0);
	snprintf(other, sizeof(other), "%s/regular", dir);
	write_file(other, "x");
	/* 41: the device on fd 5 among others. */
	mkdirf("%s/%s", dir, "41");
	mkdirf("%s/41/%s", dir, "fd");
	linkf("/dev/zero", "%s/41/fd/%s", dir, "0");
	linkf(other, "%s/41/fd/%s", dir, "1");
	linkf("/dev/null", "%s/41/fd/%s", dir, "5");
	/* 7: another device, a file, a dangling link: not a holder. */
	mkdirf("%s/%s", dir, "7");
	mkdirf("%s/7/%s", dir, "fd");
	linkf("/dev/zero", "%s/7/fd/%s", dir, "0");
	linkf(other, "%s/7/fd/%s", dir, "1");
	linkf("/nonexistent", "%s/7/fd/%s", dir, "2");
	/* 300: the fd closed, the ring still mapped. */
	mkdirf("%s/%s", dir, "300");
	mkdirf("%s/300/%s", dir, "fd");
	snprintf(path, sizeof(path), "%s/300/maps", dir);
	write_file(path,
		   "55d0c0000000-55d0c0001000 r--p 00000000 fe:01 123 /usr/bin/x\n"
		   "7f0000000000-7f0000100000 r--s 00000000 00:05 9   /dev/null\n");
	/* 12: maps that name another file under /dev. */
	mkdirf("%s/%s", dir, "12");
	snprintf(path, sizeof(path), "%s/12/maps", dir);
	write_file(path,
		   "7f0000000000-7f0000001000 rw-s 00000000 00:05 4   /dev/null2\n");
	/* Not processes: ignored. */
	mkdirf("%s/%s", dir, "self1");
	mkdirf("%s/%s", dir, "sys");
	/* 99: a process we may not look into (no fd, no maps). */
	mkdirf("%s/%s", dir, "99");

	n = skd_dev_users(dir, "/dev/null", pids, 4);
	assert_int_equal(n, 2);
	assert_int_equal(pids[0], 41);
	assert_int_equal(pids[1], 300);

	/* More holders than room: the count, the first ones. */
	n = skd_dev_users(dir, "/dev/null", pids, 1);
	assert_int_equal(n, 2);

	/* The device itself must be one. */
	assert_int_equal(skd_dev_users(dir, other, pids, 4), -ENOTTY);
	assert_int_equal(skd_dev_users(dir, "/nonexistent", pids, 4), -ENOENT);
	snprintf(path, sizeof(path), "%s/noproc", dir);
	assert_int_equal(skd_dev_users(path, "/dev/null", pids, 4), -ENOENT);
	assert_int_equal(unit_tmpdir_remove(dir), 0);
}

/* The kernel's own /proc: this process, once it holds the device. */
static bool listed(pid_t *pids, int n, pid_t pid)
{
	int i;

	for (i = 0; i < n; i++)
		if (pids[i] == pid)
			return true;
	return false;
}

static void test_users_real_proc(void **state)
{
	pid_t pids[4096];
	void *map;
	int fd, n;

	(void)state;
	n = skd_dev_users("/proc", "/dev/zero", pids, 4096);
	assert_true(n >= 0);
	if (listed(pids, n < 4096 ? n : 4096, getpid()))
		fail_msg("this process holds no /dev/zero yet, but is listed");

	fd = open("/dev/zero", O_RDONLY);
	assert_true(fd >= 0);
	n = skd_dev_users("/proc", "/dev/zero", pids, 4096);
	assert_true(listed(pids, n < 4096 ? n : 4096, getpid()));

	/* A shared mapping outlives the fd and still names the device. */
	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	assert_true(map != MAP_FAILED);
	close(fd);
	n = skd_dev_users("/proc", "/dev/zero", pids, 4096);
	assert_true(listed(pids, n < 4096 ? n : 4096, getpid()));
	munmap(map, 4096);
	n = skd_dev_users("/proc", "/dev/zero", pids, 4096);
	assert_false(listed(pids, n < 4096 ? n : 4096, getpid()));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_explain_names_the_fix),
		cmocka_unit_test(test_explain_fallback),
		cmocka_unit_test(test_lockdown),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_users_fake_proc),
		cmocka_unit_test(test_users_real_proc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
