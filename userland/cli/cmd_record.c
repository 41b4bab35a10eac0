// SPDX-License-Identifier: GPL-2.0
/*
 * skidless record: configure a session, drain its rings into a capture file
 * until the command ends, the process exits, the duration is up or the
 * user interrupts, then account for every record.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "cpulist.h"
#include "decode.h"
#include "events.h"
#include "device.h"
#include "explain.h"
#include "memlock_explain.h"
#include "params.h"
#include "reader.h"
#include "record_idle.h"
#include "record_ksyms.h"
#include "record_pmu.h"
#include "record_output.h"
#include "record_sink.h"
#include "subcommands.h"
#include "workload.h"

#define DEFAULT_FREQ		997U	/* prime: no lockstep with the tick */
#define DEFAULT_RING_PAGES	256U
#define DEFAULT_USER_STACK	8192U	/* as perf's --call-graph dwarf */
#define DRAIN_INTERVAL_MS	100
#define PROGRESS_INTERVAL_NS	500000000ULL
#define CPU_WORDS		(SKD_CPUMASK_MAX_BYTES / 8)

struct options {
	uint64_t freq;
	bool all_cpus;
	bool idle;		/* --idle: sample the idle task too */
	const char *cpu_list;
	pid_t pid;
	const char *output;
	enum record_format format;
	int argc;			/* the command line, for the output */
	char **argv;
	double duration;
	uint64_t ring_pages;
	uint64_t depth;
	uint64_t user_stack;	/* --call-graph dwarf: bytes per sample */
	bool quiet;
	bool lbr_callchain;
	char **cmd;
	struct record_pmu pmu;
};

struct recorder {
	struct options o;
	int fd;
	struct skd_info info;
	struct skd_config cfg;
	uint64_t cpus[CPU_WORDS];
	struct skd_reader *reader;
	struct skd_capture_writer *out;	/* record_output_writer(rout) */
	struct record_output *rout;
	struct ksym_hits *khits;
	struct record_sink sink;	/* counts, kernel hits, to rout */
	struct workload child;
	bool have_child;
	int exec_errno;		/* why the command could not be run */
	bool child_stopped;	/* record ended the command itself */
	int stop_signal;	/* SIGINT or SIGTERM that stopped record */
	int sigfd;
	int pidfd;
	bool stop;
	const char *stop_reason;

	uint64_t start_ns;
	uint64_t start_realtime_ns;
	uint64_t last_progress_ns;
	uint64_t last_progress_samples;
	bool progress_shown;
};

static const char usage_text[] =
	"Usage: %s %s [options] [-- COMMAND [ARGS...]]\n"
	"\n"
	"Sample a command (and its children), a process (-p) or CPUs (-a, -C)\n"
	"and write the samples to a capture file.\n"
	"\n"
	"  -F, --freq HZ            samples per second per CPU (default %u)\n"
	"  -e, --event EVENT[,...]  PMU events, as perf spells them (repeatable):\n"
	"                           cycles:ppp, mem_load_retired.l3_miss:pp,\n"
	"                           r01c0:p, cpu/event=0xd0,umask=0x81/pp\n"
	"  -c, --count N            sample every N events (instead of -F)\n"
	"  -b, --branch-any         LBR branch stacks of any taken branch\n"
	"  -j, --branch-filter LIST LBR branch stacks: any, any_call, any_ret,\n"
	"                           ind_call, ind_jmp, cond, call, u, k\n"
	"      --backend NAME       timer, intel, sim or sim:MODEL (skylake,\n"
	"                           icelake, sapphirerapids); default: the\n"
	"                           module's, or intel when -e is given\n"
	"  -a, --all-cpus           every CPU, every process\n"
	"  -C, --cpu LIST           only these CPUs, e.g. 0,2-3\n"
	"      --idle               with -a or -C on the timer backend: sample\n"
	"                           idle CPUs too (the idle task, pid 0), waking\n"
	"                           them; without it a CPU's timer runs only\n"
	"                           while a task runs there\n"
	"  -p, --pid PID            this process and its descendants\n"
	"  -o, --output FILE        output file (default perf.data; FILE.old keeps\n"
	"                           the previous one); - streams perf.data in\n"
	"                           pipe mode to stdout\n"
	"      --format FORMAT      perf (perf.data, the default) or native\n"
	"                           (skidless's own format, default skidless.data)\n"
	"  -m, --mmap-pages N       ring pages per CPU, a power of two (default %u)\n"
	"  -g                       frame-pointer call chains (the default)\n"
	"      --call-graph fp[,N] | dwarf[,SIZE] | lbr | none\n"
	"                           call chains by frame pointers, up to N frames\n"
	"                           (default 127); by DWARF unwinding of SIZE bytes\n"
	"                           of user stack copied per sample (default 8192,\n"
	"                           at most 32768); or from LBR call stacks\n"
	"      --duration SECONDS   stop after this long\n"
	"  -q, --quiet              no progress line\n";

static void usage(FILE *f, const char *cmd)
{
	fprintf(f, usage_text, PROG_NAME, cmd, DEFAULT_FREQ, DEFAULT_RING_PAGES);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static bool parse_call_graph(const char *s, struct options *o)
{
	if (!strcmp(s, "none")) {
		o->depth = 0;
		return true;
	}
	if (!strcmp(s, "fp")) {
		o->depth = SKD_MAX_CALLCHAIN;
		return true;
	}
	if (!strcmp(s, "lbr")) {
		o->depth = 0;
		o->lbr_callchain = true;
		o->pmu.branch_sample |= SKD_BRANCH_CALL_STACK;
		return true;
	}
	if (!strncmp(s, "fp,", 3))
		return parse_uint("--call-graph", s + 3, 1, SKD_MAX_CALLCHAIN,
				  &o->depth);
	/* Kernel frames still come from the kernel's own unwinder. */
	if (!strcmp(s, "dwarf")) {
		o->depth = SKD_MAX_CALLCHAIN;
		o->user_stack = DEFAULT_USER_STACK;
		return true;
	}
	if (!strncmp(s, "dwarf,", 6)) {
		o->depth = SKD_MAX_CALLCHAIN;
		if (!parse_uint("--call-graph dwarf", s + 6, 8,
				SKD_MAX_USER_STACK, &o->user_stack))
			return false;
		if (o->user_stack % 8) {
			fprintf(stderr, "--call-graph dwarf,%s: the size must be a multiple of 8\n",
				s + 6);
			return false;
		}
		return true;
	}
	fprintf(stderr, "--call-graph: `%s' is not fp, fp,DEPTH, dwarf, dwarf,SIZE, lbr or none\n",
		s);
	return false;
}

static bool parse_format(const char *s, struct options *o)
{
	if (!strcmp(s, "perf"))
		o->format = RECORD_FORMAT_PERF;
	else if (!strcmp(s, "native"))
		o->format = RECORD_FORMAT_NATIVE;
	else {
		fprintf(stderr, "--format: `%s' is not perf or native\n", s);
		return false;
	}
	return true;
}

static int parse_options(int argc, char *argv[], struct options *o)
{
	enum { OPT_CALL_GRAPH = 256, OPT_DURATION, OPT_BACKEND,
	       OPT_FORMAT, OPT_IDLE };
	static const struct option longopts[] = {
		{ "freq", required_argument, NULL, 'F' },
		{ "event", required_argument, NULL, 'e' },
		{ "count", required_argument, NULL, 'c' },
		{ "branch-any", no_argument, NULL, 'b' },
		{ "branch-filter", required_argument, NULL, 'j' },
		{ "backend", required_argument, NULL, OPT_BACKEND },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "idle", no_argument, NULL, OPT_IDLE },
		{ "pid", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "mmap-pages", required_argument, NULL, 'm' },
		{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint32_t branches;
	char why[256];
	uint64_t v;
	int c;

	*o = (struct options){
		.freq = DEFAULT_FREQ,
		.ring_pages = DEFAULT_RING_PAGES, .depth = SKD_MAX_CALLCHAIN,
	};
	while ((c = getopt_long(argc, argv, "+F:e:c:bj:aC:p:o:m:gqh",
				longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (!record_pmu_add_events(&o->pmu, optarg))
				return -1;
			break;
		case 'c':
			if (!parse_uint("-c", optarg, 1, INT64_MAX,
					&o->pmu.period))
				return -1;
			break;
		case 'b':
			o->pmu.branch_sample |= SKD_BRANCH_ANY;
			break;
		case 'j':
			if (skd_branch_parse(optarg, &branches, why,
					     sizeof(why))) {
				fprintf(stderr, "-j %s: %s\n", optarg, why);
				return -1;
			}
			o->pmu.branch_sample |= branches;
			break;
		case OPT_BACKEND:
			if (!record_pmu_backend_arg(&o->pmu, optarg))
				return -1;
			break;
		case 'F':
			if (!parse_uint("-F", optarg, 1, UINT32_MAX, &o->freq))
				return -1;
			break;
		case 'a':
			o->all_cpus = true;
			break;
		case 'C':
			o->cpu_list = optarg;
			break;
		case OPT_IDLE:
			o->idle = true;
			break;
		case 'p':
			if (!parse_uint("-p", optarg, 1, INT32_MAX, &v))
				return -1;
			o->pid = (pid_t)v;
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_FORMAT:
			if (!parse_format(optarg, o))
				return -1;
			break;
		case 'm':
			if (!parse_uint("-m", optarg, 1, UINT32_MAX,
					&o->ring_pages))
				return -1;
			if (o->ring_pages & (o->ring_pages - 1)) {
				fprintf(stderr, "-m: `%s' is not a power of two\n",
					optarg);
				return -1;
			}
			break;
		case 'g':
			o->depth = SKD_MAX_CALLCHAIN;
			break;
		case OPT_CALL_GRAPH:
			if (!parse_call_graph(optarg, o))
				return -1;
			break;
		case OPT_DURATION:
			if (!parse_seconds("--duration", optarg, &o->duration))
				return -1;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			usage(stdout, argv[0]);
			exit(0);
		default:
			usage(stderr, argv[0]);
			return -1;
		}
	}
	if (optind < argc)
		o->cmd = argv + optind;
	if (!o->output)
		o->output = o->format == RECORD_FORMAT_NATIVE ? "skidless.data" :
			    "perf.data";
	o->argc = argc;
	o->argv = argv;

	if (o->pid && o->cmd) {
		fprintf(stderr, "-p and a COMMAND exclude each other: pick one\n");
		return -1;
	}
	if (o->pid && o->all_cpus) {
		fprintf(stderr, "-p follows one process; -a samples everything: pick one\n");
		return -1;
	}
	if (!o->pid && !o->cmd && !o->all_cpus && !o->cpu_list) {
		fprintf(stderr, "Nothing to sample: give a COMMAND after --, -p PID, -a or -C CPUS\n");
		usage(stderr, argv[0]);
		return -1;
	}
	return 0;
}

static int setup_signals(struct recorder *rc)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGCHLD);
	/* Blocked here, read from the signalfd; the child unblocks them. */
	if (sigprocmask(SIG_BLOCK, &mask, NULL))
		return -errno;
	rc->sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	return rc->sigfd < 0 ? -errno : 0;
}

static void fill_config(struct recorder *rc)
{
	struct skd_config *cfg = &rc->cfg;
	struct record_pmu *rp = &rc->o.pmu;

	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
	cfg->flags = SKD_CFG_FREQ |
		     record_idle_flags(rc->o.idle, rc->info.features);
	cfg->backend = rp->backend;
	cfg->ring_pages = rc->o.ring_pages;
	cfg->sample_freq = rc->o.freq;
	cfg->callchain_depth = rc->o.depth;
	cfg->user_stack_bytes = (uint32_t)rc->o.user_stack;
	if (rp->backend != SKD_BACKEND_TIMER) {
		cfg->events_ptr = (uintptr_t)rp->events;
		cfg->nr_events = rp->nr_events;
		cfg->event_attr_size = sizeof(rp->events[0]);
		cfg->branch_sample = rp->branch_sample;
		cfg->sim_model = rp->backend == SKD_BACKEND_SIM ?
				 rp->sim_model : 0;
	}
	if (rc->o.pid || (rc->o.cmd && !rc->o.all_cpus && !rc->o.cpu_list)) {
		cfg->flags |= SKD_CFG_PID;
		cfg->pid = rc->o.pid ? rc->o.pid : rc->child.pid;
	}
	/* A member of the access group: user space only, as perf falls back. */
	if (!skd_perfmon_capable())
		cfg->flags |= SKD_CFG_EXCLUDE_KERNEL;
	if (rc->o.pmu.picked)
		memcpy(rc->cpus, rc->o.pmu.picked_cpus, sizeof(rc->cpus));
	if (rc->o.cpu_list || rc->o.pmu.picked) {
		cfg->cpumask_bytes = sizeof(rc->cpus);
		cfg->cpumask_ptr = (uintptr_t)rc->cpus;
	}
}

/* Checks the kernel would make, done first for a message naming the option. */
static bool check_limits(const struct recorder *rc)
{
	const struct skd_info *info = &rc->info;
	unsigned int cpu;

	if (rc->o.pmu.backend == SKD_BACKEND_TIMER &&
	    rc->o.freq > info->max_freq) {
		fprintf(stderr, "-F %" PRIu64 ": the module allows at most %u Hz "
			"(module parameter max_freq)\n", rc->o.freq,
			info->max_freq);
		return false;
	}
	if (rc->o.ring_pages > info->max_ring_pages) {
		fprintf(stderr, "-m %" PRIu64 ": the module allows at most %u "
			"pages per CPU (module parameter max_ring_pages)\n",
			rc->o.ring_pages, info->max_ring_pages);
		return false;
	}
	if (!rc->o.cpu_list)
		return true;
	for (cpu = info->nr_cpu_ids; cpu < CPU_WORDS * 64; cpu++) {
		if (skd_cpu_isset(rc->cpus, cpu)) {
			fprintf(stderr, "-C %s: CPU %u does not exist here "
				"(CPU ids are below %u)\n", rc->o.cpu_list, cpu,
				info->nr_cpu_ids);
			return false;
		}
	}
	return true;
}

static void progress(struct recorder *rc, bool final)
{
	uint64_t now = now_ns();
	double rate;

	if (rc->o.quiet || !isatty(STDERR_FILENO))
		return;
	if (!final && now - rc->last_progress_ns < PROGRESS_INTERVAL_NS)
		return;
	rate = (double)(rc->sink.samples - rc->last_progress_samples) * 1e9 /
	       (double)(now - rc->last_progress_ns + 1);
	rc->last_progress_ns = now;
	rc->last_progress_samples = rc->sink.samples;
	if (final) {
		if (rc->progress_shown)
			fprintf(stderr, "\r\033[K");
		return;
	}
	fprintf(stderr, "\r\033[K%s: %" PRIu64 " samples, %" PRIu64
		" lost, %.0f samples/s", PROG_NAME, rc->sink.samples,
		rc->sink.lost_reported, rate);
	rc->progress_shown = true;
}

static int on_record(const struct skd_rec_header *h, void *arg)
{
	struct recorder *rc = arg;

	record_sink_put(&rc->sink, h);
	return 0;
}

static int on_synthesized(const struct skd_event *ev, void *arg)
{
	return on_record(ev->hdr, arg);
}

static void drain(struct recorder *rc)
{
	if (skd_reader_drain(rc->reader, on_record, rc) == -EIO)
		fprintf(stderr, "%s: a ring held a corrupt record; its contents "
			"were skipped (counted in the summary)\n", PROG_NAME);
	record_output_round(rc->rout);
}

static void handle_signals(struct recorder *rc)
{
	struct signalfd_siginfo si;

	while (read(rc->sigfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGCHLD)
			continue;
		rc->stop = true;
		rc->stop_signal = (int)si.ssi_signo;
		rc->stop_reason = si.ssi_signo == SIGINT ? "interrupted" :
				  "terminated";
	}
	if (rc->have_child) {
		workload_reap(&rc->child);
		if (rc->child.exited && !rc->stop) {
			rc->stop = true;
			rc->stop_reason = "command exited";
		}
	}
}

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	errno = ENOSYS;
	return -1;
#endif
}

static void run_loop(struct recorder *rc)
{
	uint64_t deadline = rc->o.duration ?
		rc->start_ns + (uint64_t)(rc->o.duration * 1e9) : 0;
	struct pollfd fds[3] = {
		{ .fd = rc->fd, .events = POLLIN },
		{ .fd = rc->sigfd, .events = POLLIN },
		{ .fd = rc->pidfd, .events = POLLIN },
	};

	while (!rc->stop) {
		poll(fds, rc->pidfd >= 0 ? 3 : 2, DRAIN_INTERVAL_MS);
		if (fds[1].revents)
			handle_signals(rc);
		if (rc->pidfd >= 0 && fds[2].revents && !rc->stop) {
			rc->stop = true;
			rc->stop_reason = "process exited";
		}
		drain(rc);
		if (deadline && now_ns() >= deadline && !rc->stop) {
			rc->stop = true;
			rc->stop_reason = "duration reached";
		}
		progress(rc, false);
	}
}

static void write_session(struct recorder *rc, int argc, char *argv[])
{
	struct skd_frec_session s = {
		.start_time = rc->start_ns,
		.start_realtime = rc->start_realtime_ns,
		.backend = rc->cfg.backend,
		.flags = rc->cfg.flags,
		.sample = rc->cfg.sample_freq,
		.callchain_depth = rc->cfg.callchain_depth,
		.nr_cpus = rc->info.nr_cpu_ids,
	};
	char cmdline[1024] = PROG_NAME;
	struct utsname u;
	int i;

	for (i = 0; i < argc; i++) {
		size_t len = strlen(cmdline);

		snprintf(cmdline + len, sizeof(cmdline) - len, " %s", argv[i]);
	}
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	skd_capture_put_session(rc->out, &s, u.nodename, u.release, cmdline,
				rc->o.pmu.pmu_name);
	for (i = 0; i < (int)rc->o.pmu.nr_events; i++)
		skd_capture_put_event(rc->out, i, rc->o.pmu.branch_sample,
				      &rc->o.pmu.events[i],
				      rc->o.pmu.names[i]);
}

/* Counters, and the promise that nothing went missing unnoticed. */
static int finish(struct recorder *rc)
{
	uint64_t generated = 0, delivered = 0, lost = 0;
	struct skd_cpu_stats *st;
	unsigned int cpu, nr = rc->info.nr_cpu_ids;
	long ksyms;
	int ret;

	st = calloc(nr, sizeof(*st));
	if (!st)
		return -ENOMEM;
	ret = skd_dev_stats(rc->fd, st, nr, NULL);
	if (ret) {
		fprintf(stderr, "%s: reading the session counters: %s\n",
			PROG_NAME, skd_explain(SKD_OP_STATS, -ret));
		free(st);
		return ret;
	}
	for (cpu = 0; cpu < nr; cpu++) {
		skd_capture_put_stats(rc->out, cpu, &st[cpu]);
		generated += st[cpu].generated;
		delivered += st[cpu].delivered;
		lost += st[cpu].lost;
	}
	free(st);

	ksyms = ksym_hits_write(rc->khits, rc->out);
	if (ksyms < 0)
		fprintf(stderr, "%s: warning: kernel symbols not recorded (/proc/"
			"kallsyms: %s); kernel frames will show as addresses\n",
			PROG_NAME, strerror((int)-ksyms));

	ret = record_output_commit(rc->rout);
	rc->rout = NULL;
	rc->out = NULL;
	if (ret)
		return ret;	/* said why, and what the file holds */

	fprintf(stderr, "%s: %s; %" PRIu64 " samples written to %s\n"
		"%s: records generated %" PRIu64 ", delivered %" PRIu64
		", lost %" PRIu64 "\n", PROG_NAME, rc->stop_reason, rc->sink.samples,
		rc->o.output, PROG_NAME, generated, delivered, lost);
	if (lost)
		fprintf(stderr, "%s: warning: %" PRIu64 " records were lost because "
			"the reader fell behind: use a bigger -m (now %" PRIu64
			") or a lower -F\n", PROG_NAME, lost, rc->o.ring_pages);
	if (rc->sink.throttled)
		fprintf(stderr, "%s: warning: sampling was throttled %" PRIu64
			" times (more samples per second than the module's "
			"max_sample_rate allows): use a larger -c or a lower "
			"-F, or raise /sys/module/skidless/parameters/"
			"max_sample_rate\n", PROG_NAME, rc->sink.throttled);
	if (rc->sink.malformed || skd_reader_corrupt(rc->reader))
		fprintf(stderr, "%s: warning: %" PRIu64 " malformed records and %"
			PRIu64 " corrupt ring bytes were skipped: please report "
			"this bug\n", PROG_NAME, rc->sink.malformed,
			skd_reader_corrupt(rc->reader));
	return 0;
}

static int open_output(struct recorder *rc)
{
	struct record_output_params p = {
		.path = rc->o.output, .format = rc->o.format,
		.cfg = &rc->cfg, .pmu = &rc->o.pmu,
		.argc = rc->o.argc, .argv = rc->o.argv,
	};

	rc->rout = record_output_open(&p);
	if (!rc->rout)
		return -EIO;	/* said why */
	rc->out = record_output_writer(rc->rout);
	return 0;
}

static int start_session(struct recorder *rc)
{
	int ret;

	if (rc->o.cmd) {
		ret = workload_spawn(&rc->child, rc->o.cmd);
		if (ret) {
			fprintf(stderr, "%s: cannot start %s: %s\n", PROG_NAME,
				rc->o.cmd[0], strerror(-ret));
			return ret;
		}
		rc->have_child = true;
	}
	fill_config(rc);
	if (rc->cfg.flags & SKD_CFG_EXCLUDE_KERNEL)
		fprintf(stderr, "%s: without CAP_PERFMON: sampling user space "
			"only\n", PROG_NAME);
	ret = skd_dev_config(rc->fd, &rc->cfg);
	if (ret) {
		char why[512];

		if (ret == -EPERM &&
		    skd_memlock_explain(rc->cfg.ring_pages,
					rc->info.nr_cpu_ids, why, sizeof(why)))
			fprintf(stderr, "%s: %s\n", PROG_NAME, why);
		else if (!record_pmu_explain(&rc->o.pmu, &rc->cfg))
			fprintf(stderr, "%s: %s\n", PROG_NAME,
				skd_explain(SKD_OP_CONFIG, -ret));
		return ret;
	}
	rc->reader = skd_reader_open(rc->fd, &rc->info, rc->cfg.ring_pages);
	if (!rc->reader) {
		ret = -errno;
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_MMAP, -ret));
		return ret;
	}
	ret = open_output(rc);
	if (ret)
		return ret;
	rc->khits = ksym_hits_new();
	if (!rc->khits)
		return -ENOMEM;
	rc->sink.out = rc->rout;
	/* perf.data names kernel frames from the kallsyms cached at the end */
	rc->sink.khits = rc->o.format == RECORD_FORMAT_NATIVE ? rc->khits : NULL;
	if (!(rc->info.features & SKD_FEAT_MMAP_EVENTS))
		fprintf(stderr, "%s: warning: the module cannot report new mappings on this kernel (no kprobes): code loaded after the start stays unnamed\n",
			PROG_NAME);

	rc->pidfd = rc->o.pid ? open_pidfd(rc->o.pid) : -1;
	rc->start_ns = now_ns();
	rc->start_realtime_ns = realtime_ns();
	rc->last_progress_ns = rc->start_ns;
	ret = skd_dev_start(rc->fd);
	if (ret) {
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_START, -ret));
		return ret;
	}
	/*
	 * What runs already, from the module; what starts from now on comes
	 * as EXEC, COMM and MMAP records. The command has not exec'd yet.
	 */
	if (!rc->o.cmd || rc->o.all_cpus || rc->o.cpu_list) {
		ret = skd_dev_read_maps(rc->fd, on_synthesized, rc);
		if (ret) {
			fprintf(stderr, "%s: cannot read the followed processes' maps: %s\n",
				PROG_NAME, strerror(-ret));
			return ret;
		}
	}

	if (rc->have_child) {
		ret = workload_go(&rc->child);
		if (ret) {
			fprintf(stderr, "%s: cannot run %s: %s\n", PROG_NAME,
				rc->o.cmd[0], strerror(-ret));
			rc->exec_errno = -ret;
			return ret;
		}
	}
	return 0;
}

/*
 * What record exits with once the capture is written: the command's own
 * status, as a shell gives it (128 + N for a signal), said aloud when it
 * is not success. Without a command, 0.
 */
static int command_status(const struct recorder *rc)
{
	int st = rc->child.status, sig;

	if (!rc->have_child || !rc->child.exited)
		return 0;
	/*
	 * We ended it (Ctrl-C, kill, --duration): the status is ours, as a
	 * shell's for a job it interrupted; a duration is a normal end.
	 */
	if (rc->child_stopped)
		return rc->stop_signal ? 128 + rc->stop_signal : 0;
	if (WIFEXITED(st)) {
		if (WEXITSTATUS(st))
			fprintf(stderr, "%s: %s exited with status %d\n",
				PROG_NAME, rc->o.cmd[0], WEXITSTATUS(st));
		return WEXITSTATUS(st);
	}
	if (!WIFSIGNALED(st))
		return 0;
	sig = WTERMSIG(st);
	fprintf(stderr, "%s: %s was killed by signal %d (%s)%s; exit status %d\n",
		PROG_NAME, rc->o.cmd[0], sig, strsignal(sig),
		WCOREDUMP(st) ? ", core dumped" : "", 128 + sig);
	return 128 + sig;
}

int record_main(int argc, char *argv[])
{
	struct recorder rc = { .fd = -1, .sigfd = -1, .pidfd = -1 };
	const char *why;
	int ret, status = 1;

	if (parse_options(argc, argv, &rc.o)) {
		record_pmu_free(&rc.o.pmu);
		return 1;
	}
	if (rc.o.cpu_list) {
		ret = skd_cpulist_parse(rc.o.cpu_list, rc.cpus, CPU_WORDS);
		if (ret < 0) {
			fprintf(stderr, "-C: `%s' is not a CPU list like 0,2-3\n",
				rc.o.cpu_list);
			goto out_args;
		}
		/* On a hybrid part the PMU depends on the CPUs. */
		rc.o.pmu.cpus = rc.cpus;
	}

	rc.fd = skd_dev_open(true);
	if (rc.fd < 0) {
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_OPEN, -rc.fd));
		goto out_args;
	}
	if (skd_dev_info(rc.fd, &rc.info)) {
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_INFO, errno));
		goto out;
	}
	rc.o.pmu.follows = rc.o.pid ||
			   (rc.o.cmd && !rc.o.all_cpus && !rc.o.cpu_list);
	if (!record_pmu_resolve(&rc.o.pmu, rc.fd, &rc.info) ||
	    !check_limits(&rc))
		goto out;
	why = record_idle_conflict(rc.o.idle, rc.o.pmu.follows,
				   rc.o.pmu.backend);
	if (why) {
		fprintf(stderr, "%s\n", why);
		goto out;
	}
	if (rc.o.lbr_callchain && rc.o.pmu.backend == SKD_BACKEND_TIMER) {
		fprintf(stderr, "--call-graph lbr needs a PMU backend (--backend intel or sim:MODEL)\n");
		goto out;
	}
	if (setup_signals(&rc)) {
		perror("signalfd");
		goto out;
	}

	if (start_session(&rc)) {
		/* As a shell says it: 127 not found, 126 not runnable. */
		if (rc.exec_errno)
			status = rc.exec_errno == ENOENT ? 127 : 126;
		goto out;
	}
	write_session(&rc, argc - 1, argv + 1);
	run_loop(&rc);

	/* A command still running when we stop gets asked to end. */
	if (rc.have_child && !rc.child.exited) {
		workload_terminate(&rc.child, 2000);
		rc.child_stopped = true;
	}
	ret = skd_dev_stop(rc.fd);
	if (ret)
		fprintf(stderr, "%s: %s\n", PROG_NAME,
			skd_explain(SKD_OP_STOP, -ret));
	drain(&rc);
	progress(&rc, true);
	if (!finish(&rc))
		status = command_status(&rc);
out:
	if (rc.have_child && !rc.child.exited)
		workload_kill(&rc.child);
	record_output_abort(rc.rout);	/* a failed record keeps the old file */
	ksym_hits_free(rc.khits);
	skd_reader_close(rc.reader);
	if (rc.pidfd >= 0)
		close(rc.pidfd);
	if (rc.sigfd >= 0)
		close(rc.sigfd);
	close(rc.fd);
out_args:
	record_pmu_free(&rc.o.pmu);
	return status;
}
