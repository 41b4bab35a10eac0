// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile input at volume: a privileged and an unprivileged process throw
 * random and structured-but-corrupted calls at /dev/skidless (ioctls,
 * configs, mmaps of any length, offset, protection and flags, munmap,
 * mprotect, mremap, madvise, poll, epoll, read/write, close while mapped,
 * forked children that use inherited fds, and random requests to the
 * generic netlink family) until they have made CALLS
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
 *
 * This file runs the workers and judges the module before and after;
 * fuzz_device/ holds the calls (configs.c, fd_calls.c, mmap_calls.c,
 * processes.c) and what they share (state.c, fuzz.h).
 */
#include "fuzz_device/fuzz.h"

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
	{ OP_STATS, 50 }, { OP_PMU, 40 }, { OP_MAPS, 20 }, { OP_IOCTL_SKD, 50 },
	{ OP_IOCTL_ANY, 30 }, { OP_IOCTL_VFS, 8 }, { OP_MMAP, 110 },
	{ OP_MUNMAP, 40 }, { OP_MPROTECT, 25 }, { OP_MREMAP, 12 },
	{ OP_MADVISE, 12 }, { OP_TOUCH, 40 }, { OP_DRAIN, 30 },
	{ OP_SCRIBBLE, 6 }, { OP_PROCMEM, 6 }, { OP_POLL, 45 },
	{ OP_EPOLL, 12 }, { OP_RW, 15 }, { OP_FORK, 1 }, { OP_REAP, 4 },
	{ OP_NETLINK, 30 },
};

static const struct mix unpriv_mix[] = {
	{ OP_U_OPEN_DEV, 100 }, { OP_U_OPEN_NODE, 60 }, { OP_U_OPEN_PROC, 40 },
	{ OP_U_OPATH, 15 }, { OP_INFO, 40 }, { OP_CONFIG_GOOD, 3 },
	{ OP_CONFIG_BAD, 40 }, { OP_START, 8 }, { OP_STOP, 10 },
	{ OP_STATS, 20 }, { OP_PMU, 20 }, { OP_MAPS, 10 }, { OP_IOCTL_SKD, 20 },
	{ OP_MMAP, 40 }, { OP_MUNMAP, 15 }, { OP_MPROTECT, 10 },
	{ OP_TOUCH, 15 }, { OP_DRAIN, 10 }, { OP_PROCMEM, 3 },
	{ OP_POLL, 20 }, { OP_RW, 5 }, { OP_DUP, 3 }, { OP_CLOSE, 3 },
	{ OP_NETLINK, 15 },
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
	case OP_MAPS:
		op_read_maps();
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
	case OP_NETLINK:
		op_netlink();
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
