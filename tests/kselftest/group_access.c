// SPDX-License-Identifier: GPL-2.0
/*
 * The module's access group (access_gid): a member without CAP_PERFMON
 * opens /dev/skidless when the parameter names the group, and then samples
 * only the user space of processes with its own uids; everyone else
 * without the capability gets EPERM from the module, or EACCES from the
 * node's mode first. The node is set up as the package's udev rule does
 * (group, mode 0660) and put back as the module made it afterwards.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "testlib.h"

#define PARAM		"/sys/module/skidless/parameters/access_gid"
#define GROUP		4242	/* the group the parameter names */
#define OTHER_GROUP	4243
#define NOBODY		65534

/* Write @val to the parameter; 0 or the errno the kernel gave. */
static int set_param(const char *val)
{
	int fd = open(PARAM, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, val, strlen(val)) < 0)
		err = errno;
	close(fd);
	return err;
}

static int get_param(void)
{
	int v = -100;
	FILE *f = fopen(PARAM, "r");

	if (!f)
		return -100;
	if (fscanf(f, "%d", &v) != 1)
		v = -100;
	fclose(f);
	return v;
}

/*
 * Run @fn in a child as uid and gid NOBODY (no capabilities left) with
 * @group as its only supplementary group (0: none). Returns what it
 * returned (an errno, 0, or a code of its own), 255 if it died, 200 if
 * the identity could not be taken.
 */
static int as_user(gid_t group, int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		if (setgroups(group ? 1 : 0, &group) || setgid(NOBODY) ||
		    setuid(NOBODY))
			_exit(200);
		status = fn();
		fflush(stdout);
		_exit(status);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 255;
	return WEXITSTATUS(status);
}

static int try_open(void)
{
	int fd = skd_dev_open(false);

	if (fd < 0)
		return -fd;
	close(fd);
	return 0;
}

/* errno of SKD_IOC_CONFIG of a timer session with @flags for @pid. */
static int config_errno(unsigned int flags, pid_t pid)
{
	struct skd_config cfg = test_config(1000, 8, 0);
	int fd = skd_dev_open(false), ret;

	if (fd < 0)
		return 100 + -fd;
	cfg.flags |= flags;
	cfg.pid = pid;
	ret = skd_dev_config(fd, &cfg);
	close(fd);
	return -ret;
}

static int config_system_wide(void)
{
	return config_errno(SKD_CFG_EXCLUDE_KERNEL, 0);
}

static int config_with_kernel(void)
{
	return config_errno(SKD_CFG_PID, getpid());
}

static int config_init(void)
{
	return config_errno(SKD_CFG_PID | SKD_CFG_EXCLUDE_KERNEL, 1);
}

struct seen {
	pid_t pid;
	unsigned long samples, kernel, others;
};

static void count_sample(const struct skd_event *ev, void *arg)
{
	struct seen *seen = arg;

	if (ev->type != SKD_REC_SAMPLE)
		return;
	seen->samples++;
	if (ev->sample.rec->ip >= 0x8000000000000000ULL)
		seen->kernel++;
	if ((pid_t)ev->id->pid != seen->pid)
		seen->others++;
}

/* A session of our own spinner: 0, or 10 + what went wrong. */
static int sample_own(void)
{
	struct skd_config cfg = test_config(1000, 8, 0);
	struct seen seen = {};
	struct drained d = { .each = count_sample, .arg = &seen };
	struct test_session s;
	pid_t spinner = spawn_spinner(1.5);
	int ret;

	seen.pid = spinner;
	cfg.flags |= SKD_CFG_PID | SKD_CFG_EXCLUDE_KERNEL;
	cfg.pid = spinner;
	if (session_open(&s, &cfg)) {
		reap(spinner);
		return 10;
	}
	ret = skd_dev_start(s.fd);
	if (!ret) {
		sleep_seconds(1.0);
		ret = skd_dev_stop(s.fd);
	}
	if (!ret && session_drain(&s, &d) < 0)
		ret = -EIO;
	session_close(&s);
	reap(spinner);
	ktap_diag("member's session: %lu samples, %lu in the kernel, %lu of "
		  "other processes", seen.samples, seen.kernel, seen.others);
	if (ret)
		return 11;
	if (!seen.samples)
		return 12;
	return seen.kernel || seen.others ? 13 : 0;
}

/* skidless record as the member: the command line, its stderr's file. */
static char *const *record_argv;
#define RECORD_ERR	"/tmp/group_access.err"
#define RECORD_HOME	"/tmp/group_access.home"

static int run_record(void)
{
	int fd = open(RECORD_ERR, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		return 201;
	setenv("HOME", RECORD_HOME, 1);
	execvp(record_argv[0], record_argv);
	return 202;
}

/* The record's output has @text; its sample count into *@samples. */
static bool record_said(const char *text, long *samples)
{
	char line[512];
	const char *at;
	bool found = false;
	FILE *f = fopen(RECORD_ERR, "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		ktap_diag("record: %s", line);
		found |= !!strstr(line, text);
		at = strstr(line, " samples written");
		if (at && samples) {
			while (at > line && at[-1] >= '0' && at[-1] <= '9')
				at--;
			*samples = atol(at);
		}
	}
	fclose(f);
	return found;
}

int main(void)
{
	static char *const record_cmd[] = {
		"skidless", "record", "-q", "-F", "500", "-o",
		"/tmp/group_access.data", "--", "busyloop", "1", NULL,
	};
	static char *const record_all[] = {
		"skidless", "record", "-q", "-a", "-o",
		"/tmp/group_access-a.data", "--duration", "1", NULL,
	};
	long samples = 0;
	bool said;
	struct stat st;
	int err;

	ktap_plan(14);
	if (stat(SKD_DEVICE_PATH, &st))
		ktap_fail_all("no /dev/skidless: module not loaded");

	err = get_param();
	ktap_result(err == -1, "access_gid is -1 (no group) by default (%d)",
		    err);
	err = set_param("-2");
	ktap_result(err == EINVAL && get_param() == -1,
		    "access_gid=-2 is refused: EINVAL (got %d)", err);

	/* As the package's udev rule leaves the node. */
	if (chown(SKD_DEVICE_PATH, 0, GROUP) || chmod(SKD_DEVICE_PATH, 0660))
		ktap_fail_all("cannot give the node to the group");

	err = as_user(GROUP, try_open);
	ktap_result(err == EPERM, "without access_gid the module refuses a "
		    "member of the node's group: EPERM (got %d)", err);

	err = set_param("4242");
	ktap_result(!err && get_param() == GROUP, "access_gid=4242 is taken "
		    "at run time (errno %d)", err);
	err = as_user(GROUP, try_open);
	ktap_result(err == 0, "a member of group 4242 opens it without "
		    "CAP_PERFMON (errno %d)", err);
	err = as_user(OTHER_GROUP, try_open);
	ktap_result(err == EACCES, "a user of another group is kept out by "
		    "the mode: EACCES (got %d)", err);

	/* The node open to all: only the module's check is left. */
	chmod(SKD_DEVICE_PATH, 0666);
	err = as_user(OTHER_GROUP, try_open);
	ktap_result(err == EPERM, "with the node open to all, a non-member "
		    "is refused by the module: EPERM (got %d)", err);
	chmod(SKD_DEVICE_PATH, 0660);

	err = as_user(GROUP, config_system_wide);
	ktap_result(err == EACCES, "a member's session may not sample "
		    "CPU-wide: EACCES (got %d)", err);
	err = as_user(GROUP, config_with_kernel);
	ktap_result(err == EACCES, "nor the kernel, even in its own process: "
		    "EACCES (got %d)", err);
	err = as_user(GROUP, config_init);
	ktap_result(err == EACCES, "nor another user's process (init): "
		    "EACCES (got %d)", err);
	err = as_user(GROUP, sample_own);
	ktap_result(err == 0, "it samples the user space of its own process, "
		    "nothing else (code %d)", err);

	/* The command, as a member: user space only, said; -a explained. */
	mkdir(RECORD_HOME, 0777);
	chmod(RECORD_HOME, 0777);
	record_argv = record_cmd;
	err = as_user(GROUP, run_record);
	said = record_said("sampling user space only", &samples);
	ktap_result(err == 0 && said && samples > 0,
		    "skidless record of a command works for a member, user "
		    "space only, and says so (exit %d, %ld samples)", err,
		    samples);
	record_argv = record_all;
	err = as_user(GROUP, run_record);
	ktap_result(err && err < 128 && record_said("your own processes", NULL),
		    "skidless record -a is refused for a member, explained "
		    "(exit %d)", err);

	/* Root's sessions are not restricted by the group setting. */
	err = config_errno(0, 0);
	ktap_result(err == 0, "root still samples system-wide and the kernel "
		    "(errno %d)", err);

	unlink(RECORD_ERR);
	unlink("/tmp/group_access.data");
	unlink("/tmp/group_access-a.data");
	set_param("-1");
	if (chown(SKD_DEVICE_PATH, 0, 0) || chmod(SKD_DEVICE_PATH, 0600))
		ktap_diag("could not put the node back to root 0600");
	return ktap_finish();
}
