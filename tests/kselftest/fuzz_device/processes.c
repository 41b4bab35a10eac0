// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_device's other processes: forked children using inherited fds,
 * the unprivileged worker's ways in, and dropping privileges.
 */
#include "fuzz.h"

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

void reap_kids(bool block)
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

void op_fork(void)
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

void u_refused(enum op op, int fd, int err, const char *what)
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

void op_u_open(enum op op)
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
void op_u_opath(void)
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
/* Privileges                                                          */

/* 0 when this process has no capability left in any set. */
int drop_privileges(void)
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
