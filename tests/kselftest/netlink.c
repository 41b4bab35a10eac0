// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "skidless", spoken by hand: every command,
 * then what no library would send (wrong types and sizes, missing and
 * unknown attributes, unknown commands, reserved bits, settings out of
 * range), each refused with the errno and the extended-ack message the
 * kernel's own validation (lib/nlattr.c, net/netlink/genetlink.c) gives;
 * a user without privileges refused; and the "events" group told of a
 * session's start, stop, losses, throttling and a refusal. argv[1] is the
 * sim model the throttling and refusal cases run on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "netlink/rawnl.h"
#include "pmulib.h"
#include "skidless_netlink.h"
#include "testlib.h"

#define PARAM(name)	"/sys/module/skidless/parameters/" name
#define NR_CPUS_MAX	64

static struct rawnl nl;

/* Attributes of the last message of a reply, copied out. */
struct msg_copy {
	char buf[65536];
	int len;
	/* LIST_SESSIONS: the message whose session is @want_id */
	uint32_t want_id;
	bool found;
};

static void keep_last(const struct nlattr *attrs, int len, void *arg)
{
	struct msg_copy *m = arg;

	if (len > 0 && len <= (int)sizeof(m->buf)) {
		memcpy(m->buf, attrs, len);
		m->len = len;
	}
}

static void keep_session(const struct nlattr *attrs, int len, void *arg)
{
	const struct nlattr *tb[SKD_A_MAX + 1];
	struct msg_copy *m = arg;

	rawnl_parse(attrs, len, tb, SKD_A_MAX);
	if (m->found || rawnl_u32(tb[SKD_A_OWNER_PID]) != (uint32_t)getpid())
		return;
	keep_last(attrs, len, arg);
	m->want_id = rawnl_u32(tb[SKD_A_SESSION_ID]);
	m->found = true;
}

static const char *str_of(const struct nlattr *a)
{
	return a ? (const char *)a + NLA_HDRLEN : "";
}

static uint64_t param(const char *path)
{
	uint64_t v = 0;

	read_u64(path, &v);
	return v;
}

/* One refused request: errno and message as the kernel words them. */
static void expect_refusal(const char *what, uint8_t cmd, uint16_t flags,
			   uint16_t reserved, const void *attrs, size_t alen,
			   int err, const char *msg)
{
	struct rawnl_reply r = { 0 };
	int ret = rawnl_request(&nl, cmd, flags, reserved, attrs, alen, &r);

	ktap_result(ret == err && (msg ? !strcmp(r.msg, msg) : true),
		    "%s: %s, extack \"%s\" (want %s%s%s)", what,
		    strerror(-ret), r.msg, strerror(-err),
		    msg ? ", " : "", msg ? msg : "");
}

static void test_get_info(void)
{
	const struct nlattr *tb[SKD_A_MAX + 1];
	struct msg_copy m = { 0 };
	struct rawnl_reply r = { .each = keep_last, .arg = &m };
	struct skd_pmu_info pmu = { .size = sizeof(pmu),
				    .backend = SKD_BACKEND_INTEL };
	struct skd_info info;
	int fd, ret;

	test_device_info(&info);
	fd = skd_dev_open(false);
	ret = fd >= 0 ? ioctl(fd, SKD_IOC_GET_PMU, &pmu) : -1;
	if (fd >= 0)
		close(fd);
	if (rawnl_request(&nl, SKD_CMD_GET_INFO, 0, 0, NULL, 0, &r) || ret) {
		ktap_fail("GET_INFO", "request or ioctl failed");
		return;
	}
	rawnl_parse((const struct nlattr *)m.buf, m.len, tb, SKD_A_MAX);
	ktap_result(!strcmp(str_of(tb[SKD_A_VERSION]), info.version) &&
		    rawnl_u32(tb[SKD_A_ABI_VERSION]) == info.abi_version &&
		    rawnl_u32(tb[SKD_A_BACKENDS]) == info.backends &&
		    rawnl_u32(tb[SKD_A_NR_CPU_IDS]) == info.nr_cpu_ids &&
		    rawnl_u32(tb[SKD_A_PAGE_SIZE]) == (uint32_t)sysconf(_SC_PAGESIZE) &&
		    rawnl_u32(tb[SKD_A_FEATURES]) == info.features &&
		    rawnl_u32(tb[SKD_A_SET_MAX_FREQ]) == info.max_freq &&
		    rawnl_u32(tb[SKD_A_SET_MAX_RING_PAGES]) == info.max_ring_pages &&
		    !strcmp(str_of(tb[SKD_A_PMU_DESC]), info.pmu),
		    "GET_INFO says what SKD_IOC_GET_INFO says (version %s, "
		    "backends 0x%x, PMU \"%s\")", str_of(tb[SKD_A_VERSION]),
		    rawnl_u32(tb[SKD_A_BACKENDS]), str_of(tb[SKD_A_PMU_DESC]));
	ktap_result(tb[SKD_A_PMU_FLAGS] && tb[SKD_A_PMU_NR_GP] &&
		    rawnl_u32(tb[SKD_A_PMU_FLAGS]) == pmu.flags &&
		    *((const uint8_t *)tb[SKD_A_PMU_NR_GP] + NLA_HDRLEN) == pmu.nr_gp &&
		    !strcmp(str_of(tb[SKD_A_PMU_WHY]), pmu.why),
		    "GET_INFO's PMU is SKD_IOC_GET_PMU's (flags 0x%x, why \"%s\")",
		    pmu.flags, pmu.why);
}

static void test_settings(void)
{
	const struct nlattr *tb[SKD_A_MAX + 1];
	struct msg_copy m = { 0 };
	struct rawnl_reply r = { .each = keep_last, .arg = &m };
	struct skd_config cfg = test_config(2000, 1, 0);
	uint64_t old_freq = param(PARAM("max_freq"));
	char a[64];
	size_t len;
	int ret, cfg_err;

	ret = rawnl_request(&nl, SKD_CMD_GET_SETTINGS, 0, 0, NULL, 0, &r);
	rawnl_parse((const struct nlattr *)m.buf, m.len, tb, SKD_A_MAX);
	ktap_result(!ret &&
		    rawnl_u32(tb[SKD_A_SET_MAX_SAMPLE_RATE]) == param(PARAM("max_sample_rate")) &&
		    rawnl_u32(tb[SKD_A_SET_MAX_FREQ]) == old_freq &&
		    rawnl_u32(tb[SKD_A_SET_MAX_RING_PAGES]) == param(PARAM("max_ring_pages")) &&
		    rawnl_u32(tb[SKD_A_SET_MLOCK_KB]) == param(PARAM("mlock_kb")),
		    "GET_SETTINGS matches the module parameters in sysfs (%s)",
		    strerror(-ret));

	/* Lower the timer's ceiling below 2000 Hz: a 2000 Hz session fails. */
	len = rawnl_put_u32(a, 0, SKD_A_SET_MAX_FREQ, 1000);
	ret = rawnl_request(&nl, SKD_CMD_SET_SETTINGS, 0, 0, a, len, &r);
	cfg_err = pmu_config_errno(&cfg);
	ktap_result(!ret && param(PARAM("max_freq")) == 1000 &&
		    cfg_err == -ERANGE,
		    "SET_SETTINGS max_freq=1000: sysfs shows %llu, a 2000 Hz "
		    "session fails with %s (want ERANGE)",
		    (unsigned long long)param(PARAM("max_freq")),
		    strerror(-cfg_err));
	len = rawnl_put_u32(a, 0, SKD_A_SET_MAX_FREQ, (uint32_t)old_freq);
	rawnl_request(&nl, SKD_CMD_SET_SETTINGS, 0, 0, a, len, &r);
}

/* Malformed requests: each refused by the kernel, with its words. */
static void test_malformed(void)
{
	uint64_t big = 1;
	char a[128];
	size_t len;

	len = rawnl_put_u32(a, 0, SKD_A_SESSION_ID, 1);
	expect_refusal("GET_INFO with an attribute it does not take",
		       SKD_CMD_GET_INFO, 0, 0, a, len, -EINVAL,
		       "Unsupported attribute");
	len = rawnl_put_u32(a, 0, SKD_A_MAX + 5, 1);
	expect_refusal("an attribute type beyond the family's",
		       SKD_CMD_GET_SETTINGS, 0, 0, a, len, -EINVAL,
		       "Unknown attribute type");
	len = rawnl_put(a, 0, SKD_A_SESSION_ID, &big, sizeof(big));
	expect_refusal("GET_STATS with a u64 session id (wrong type)",
		       SKD_CMD_GET_STATS, 0, 0, a, len, -EINVAL,
		       "invalid attribute length");
	len = rawnl_put_u32(a, 0, SKD_A_SESSION_ID, 0);
	expect_refusal("GET_STATS of session 0", SKD_CMD_GET_STATS, 0, 0, a,
		       len, -ERANGE, "integer out of range");
	expect_refusal("GET_STATS without a session id", SKD_CMD_GET_STATS, 0,
		       0, NULL, 0, -EINVAL,
		       "GET_STATS needs the session id (SKD_A_SESSION_ID)");
	len = rawnl_put_u32(a, 0, SKD_A_SESSION_ID, 0x7ffffff0);
	expect_refusal("GET_STATS of a session that does not exist",
		       SKD_CMD_GET_STATS, 0, 0, a, len, -ENOENT,
		       "no open session has this id (see LIST_SESSIONS)");
	len = rawnl_put_u32(a, 0, SKD_A_SET_MAX_FREQ, 100001);
	expect_refusal("SET max_freq=100001 (above 100 kHz)",
		       SKD_CMD_SET_SETTINGS, 0, 0, a, len, -ERANGE,
		       "integer out of range");
	len = rawnl_put_u32(a, 0, SKD_A_SET_MAX_SAMPLE_RATE, 0);
	expect_refusal("SET max_sample_rate=0", SKD_CMD_SET_SETTINGS, 0, 0, a,
		       len, -ERANGE, "integer out of range");
	len = rawnl_put_u32(a, 0, SKD_A_SET_MAX_RING_PAGES, 3);
	expect_refusal("SET max_ring_pages=3 (not a power of two)",
		       SKD_CMD_SET_SETTINGS, 0, 0, a, len, -EINVAL,
		       "max_ring_pages must be a power of two");
	expect_refusal("SET with no setting", SKD_CMD_SET_SETTINGS, 0, 0, NULL,
		       0, -EINVAL,
		       "no setting given: send one or more SKD_A_SET_* attributes");
	len = rawnl_put_u32(a, 0, SKD_A_SET_MAX_FREQ | NLA_F_NESTED, 500);
	expect_refusal("SET max_freq flagged as a nest", SKD_CMD_SET_SETTINGS,
		       0, 0, a, len, -EINVAL, "NLA_F_NESTED not expected");
	/* Truncated: the attribute claims more bytes than the message has. */
	len = rawnl_put_u32(a, 0, SKD_A_SESSION_ID, 1);
	((struct nlattr *)a)->nla_len = 64;
	expect_refusal("an attribute longer than the message",
		       SKD_CMD_GET_STATS, 0, 0, a, len, -EINVAL,
		       "bytes leftover after parsing attributes");
	expect_refusal("genlmsghdr.reserved not 0", SKD_CMD_GET_INFO, 0, 1,
		       NULL, 0, -EINVAL, "genlmsghdr.reserved field is not 0");
	expect_refusal("NLM_F_REPLACE on GET_INFO", SKD_CMD_GET_INFO,
		       NLM_F_REPLACE, 0, NULL, 0, -EINVAL,
		       "ambiguous or reserved bits set in nlmsg_flags");
	/* The core refuses these before any policy: no message to give. */
	expect_refusal("unknown command 99", 99, 0, 0, NULL, 0, -EOPNOTSUPP,
		       NULL);
	expect_refusal("SKD_CMD_EVENT sent to the kernel", SKD_CMD_EVENT, 0, 0,
		       NULL, 0, -EOPNOTSUPP, NULL);
	expect_refusal("GET_INFO as a dump", SKD_CMD_GET_INFO, NLM_F_DUMP, 0,
		       NULL, 0, -EOPNOTSUPP, NULL);
}

/* What the child (nobody, no capabilities) got: two errnos and a message. */
struct unpriv {
	int set_err, stats_err, info_err;
	char stats_msg[256];
};

static void test_unprivileged(uint32_t root_session)
{
	struct unpriv *u = mmap(NULL, sizeof(*u), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct rawnl_reply r = { 0 };
	char a[64];
	size_t len;
	pid_t pid;

	if (u == MAP_FAILED) {
		ktap_fail("unprivileged SET", "mmap");
		ktap_fail("unprivileged GET_STATS", "mmap");
		return;
	}
	memset(u, 0, sizeof(*u));
	pid = fork();
	if (!pid) {
		struct rawnl mine;

		if (setgid(65534) || setuid(65534) || rawnl_open(&mine))
			_exit(1);
		u->info_err = rawnl_request(&mine, SKD_CMD_GET_INFO, 0, 0, NULL,
					    0, &r);
		len = rawnl_put_u32(a, 0, SKD_A_SET_MAX_FREQ, 500);
		u->set_err = rawnl_request(&mine, SKD_CMD_SET_SETTINGS, 0, 0, a,
					   len, &r);
		len = rawnl_put_u32(a, 0, SKD_A_SESSION_ID, root_session);
		u->stats_err = rawnl_request(&mine, SKD_CMD_GET_STATS, 0, 0, a,
					     len, &r);
		snprintf(u->stats_msg, sizeof(u->stats_msg), "%s", r.msg);
		_exit(0);
	}
	if (!reap(pid)) {
		ktap_fail("unprivileged SET", "child could not become nobody");
		ktap_fail("unprivileged GET_STATS", "child failed");
		return;
	}
	ktap_result(u->set_err == -EPERM && u->info_err == 0 &&
		    param(PARAM("max_freq")) != 500,
		    "as nobody: GET_INFO works (%s), SET_SETTINGS refused with "
		    "%s (want EPERM), nothing changed", strerror(-u->info_err),
		    strerror(-u->set_err));
	ktap_result(u->stats_err == -EPERM && u->stats_msg[0],
		    "as nobody: GET_STATS of root's session refused with %s "
		    "(want EPERM), \"%s\"", strerror(-u->stats_err),
		    u->stats_msg);
	munmap(u, sizeof(*u));
}

/* Events seen on the group, by kind, for sessions of ours. */
struct seen {
	uint32_t id;
	uint64_t started, stopped, throttled, lost, refused;
	uint64_t lost_count, throttle_count;
	int refused_errno;
	char refused_msg[256];
};

static void on_event(const struct nlattr *attrs, int len, void *arg)
{
	const struct nlattr *tb[SKD_A_MAX + 1];
	struct seen *s = arg;

	rawnl_parse(attrs, len, tb, SKD_A_MAX);
	if (s->id && rawnl_u32(tb[SKD_A_SESSION_ID]) != s->id)
		return;
	switch (rawnl_u32(tb[SKD_A_NOTIFY])) {
	case SKD_NOTIFY_STARTED:
		s->started++;
		break;
	case SKD_NOTIFY_STOPPED:
		s->stopped++;
		break;
	case SKD_NOTIFY_THROTTLED:
		s->throttled++;
		s->throttle_count += rawnl_u64(tb[SKD_A_NOTIFY_COUNT]);
		break;
	case SKD_NOTIFY_LOST:
		s->lost++;
		s->lost_count += rawnl_u64(tb[SKD_A_NOTIFY_COUNT]);
		break;
	case SKD_NOTIFY_REFUSED:
		s->refused++;
		s->refused_errno = rawnl_u32(tb[SKD_A_NOTIFY_ERRNO]);
		snprintf(s->refused_msg, sizeof(s->refused_msg), "%s",
			 str_of(tb[SKD_A_NOTIFY_MESSAGE]));
		break;
	}
}

static void drain_events(struct rawnl *ev, struct seen *s, int timeout_ms)
{
	while (rawnl_next_event(ev, timeout_ms, on_event, s) > 0)
		;
}

/* Our session's id, from LIST_SESSIONS: the one this process owns. */
static uint32_t my_session(struct msg_copy *m)
{
	struct rawnl_reply r = { .each = keep_session, .arg = m };

	m->found = false;
	if (rawnl_request(&nl, SKD_CMD_LIST_SESSIONS, NLM_F_DUMP, 0, NULL, 0,
			  &r) || !m->found)
		return 0;
	return m->want_id;
}

static unsigned int possible_cpus(char *list, size_t size)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	unsigned int a, b, n = 0;
	char *p, *tok;

	list[0] = 0;
	if (!f)
		return 0;
	if (!fgets(list, size, f))
		list[0] = 0;
	fclose(f);
	list[strcspn(list, "\n")] = 0;
	p = strdup(list);
	for (tok = strtok(p, ","); tok; tok = strtok(NULL, ","))
		n += sscanf(tok, "%u-%u", &a, &b) == 2 ? b - a + 1 : 1;
	free(p);
	return n;
}

struct stats_sum {
	unsigned int nests;
	uint64_t samples, lost, generated;
};

static void add_stats(const struct nlattr *attrs, int len, void *arg)
{
	const struct nlattr *tb[SKD_A_MAX + 1], *c[SKD_A_CPU_MAX + 1];
	struct stats_sum *sum = arg;
	const struct nlattr *a = attrs;
	int rem = len;

	rawnl_parse(attrs, len, tb, SKD_A_MAX);
	while (rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= rem) {
		if ((a->nla_type & NLA_TYPE_MASK) == SKD_A_CPU_STATS) {
			rawnl_parse((const struct nlattr *)((const char *)a + NLA_HDRLEN),
				    a->nla_len - NLA_HDRLEN, c, SKD_A_CPU_MAX);
			sum->nests++;
			sum->samples += rawnl_u64(c[SKD_A_CPU_SAMPLES]);
			sum->lost += rawnl_u64(c[SKD_A_CPU_LOST]);
			sum->generated += rawnl_u64(c[SKD_A_CPU_GENERATED]);
		}
		rem -= NLA_ALIGN(a->nla_len);
		a = (const struct nlattr *)((const char *)a + NLA_ALIGN(a->nla_len));
	}
}

/*
 * A timer session with a stalled reader: LIST_SESSIONS shows it, GET_STATS
 * agrees with SKD_IOC_GET_STATS, the group hears STARTED, LOST (adding up
 * to every loss) and STOPPED; then nobody is refused its statistics.
 */
static void test_timer_session(struct rawnl *ev)
{
	const struct nlattr *tb[SKD_A_MAX + 1];
	struct skd_cpu_stats st[NR_CPUS_MAX], sum;
	struct skd_config cfg = test_config(4000, 1, 32);
	struct stats_sum ns = { 0 };
	struct rawnl_reply r = { .each = add_stats, .arg = &ns };
	struct msg_copy m = { 0 };
	struct test_session s;
	struct seen seen = { 0 };
	char cpus[256], a[64];
	unsigned int nr_possible = possible_cpus(cpus, sizeof(cpus));
	uint64_t bytes;
	size_t len;
	pid_t spinner;
	int ret;

	if (session_open(&s, &cfg))
		ktap_fail_all("cannot set up a timer session");
	seen.id = my_session(&m);
	spinner = spawn_spinner(2.5);
	skd_dev_start(s.fd);
	my_session(&m);
	rawnl_parse((const struct nlattr *)m.buf, m.len, tb, SKD_A_MAX);
	bytes = (uint64_t)nr_possible * (cfg.ring_pages + 1) * sysconf(_SC_PAGESIZE);
	ktap_result(seen.id && rawnl_u32(tb[SKD_A_OWNER_UID]) == getuid() &&
		    rawnl_u32(tb[SKD_A_STATE]) == SKD_GENL_STATE_RUNNING &&
		    rawnl_u32(tb[SKD_A_BACKEND]) == SKD_BACKEND_TIMER &&
		    !strcmp(str_of(tb[SKD_A_CPUS]), cpus) &&
		    rawnl_u64(tb[SKD_A_BYTES_MAPPED]) == bytes &&
		    rawnl_u64(tb[SKD_A_SAMPLE_FREQ]) == 4000,
		    "LIST_SESSIONS: session %u, ours, running, timer, CPUs "
		    "\"%s\" (sysfs \"%s\"), %llu bytes (want %llu), 4000 Hz",
		    seen.id, str_of(tb[SKD_A_CPUS]), cpus,
		    (unsigned long long)rawnl_u64(tb[SKD_A_BYTES_MAPPED]),
		    (unsigned long long)bytes);

	sleep_seconds(1.5);			/* reader stalled: losses */
	skd_dev_stop(s.fd);
	reap(spinner);
	drain_events(ev, &seen, 500);
	session_stats(&s, st, NR_CPUS_MAX, &sum);
	len = rawnl_put_u32(a, 0, SKD_A_SESSION_ID, seen.id);
	ret = rawnl_request(&nl, SKD_CMD_GET_STATS, 0, 0, a, len, &r);
	ktap_result(!ret && ns.nests == nr_possible && ns.samples == sum.samples &&
		    ns.lost == sum.lost && ns.generated == sum.generated,
		    "GET_STATS: %u CPUs (want %u), samples %llu lost %llu, as "
		    "SKD_IOC_GET_STATS (%llu, %llu)", ns.nests, nr_possible,
		    (unsigned long long)ns.samples, (unsigned long long)ns.lost,
		    (unsigned long long)sum.samples,
		    (unsigned long long)sum.lost);
	ktap_result(seen.started == 1 && seen.stopped == 1,
		    "events: STARTED %llu, STOPPED %llu (want 1 and 1)",
		    (unsigned long long)seen.started,
		    (unsigned long long)seen.stopped);
	ktap_result(sum.lost > 0 && seen.lost >= 1 &&
		    seen.lost_count == sum.lost,
		    "events: LOST %llu times, %llu records in all (every loss: "
		    "%llu)", (unsigned long long)seen.lost,
		    (unsigned long long)seen.lost_count,
		    (unsigned long long)sum.lost);
	test_unprivileged(seen.id);
	session_close(&s);
}

struct throttles {
	uint64_t records;
};

static void count_throttle(const struct skd_event *e, void *arg)
{
	struct throttles *t = arg;

	t->records += e->type == SKD_REC_THROTTLE;
}

/*
 * A sim session far above max_sample_rate (set through SET_SETTINGS):
 * THROTTLED events add up to the THROTTLE records in the rings. Then held
 * counters, then VMX on, make START fail: the group hears REFUSED with
 * EBUSY and the reason.
 */
static void test_pmu_session(struct rawnl *ev, struct pmu_test *pt)
{
	static const char *const cycles_pp[] = { "cycles:pp" };
	uint64_t old_rate = param(PARAM("max_sample_rate"));
	struct throttles t = { 0 };
	struct drained d = { .each = count_throttle, .arg = &t };
	struct skd_event_attr evs[1];
	struct msg_copy m = { 0 };
	struct seen seen = { 0 };
	struct test_session s;
	struct skd_config cfg;
	struct rawnl_reply r = { 0 };
	double t0;
	char a[64];
	size_t len;
	pid_t spin;
	int err;

	len = rawnl_put_u32(a, 0, SKD_A_SET_MAX_SAMPLE_RATE, 2000);
	if (rawnl_request(&nl, SKD_CMD_SET_SETTINGS, 0, 0, a, len, &r) ||
	    pmu_config(pt, &cfg, evs, cycles_pp, 1, 20011, 64)) {
		ktap_fail("events: THROTTLED", "cannot configure a sim session");
		ktap_fail("events: REFUSED", "cannot configure a sim session");
		ktap_fail("events: REFUSED for VMX", "cannot configure a sim session");
		return;
	}
	cfg.callchain_depth = 8;	/* a PMI per sample */
	if (session_open(&s, &cfg)) {
		ktap_fail("events: THROTTLED", "cannot set up a sim session");
		ktap_fail("events: REFUSED", "cannot set up a sim session");
		ktap_fail("events: REFUSED for VMX", "cannot set up a sim session");
		return;
	}
	seen.id = my_session(&m);
	spin = spawn_spinner_on(1.5, 0);
	skd_dev_start(s.fd);
	for (t0 = now_seconds(); now_seconds() - t0 < 1.5;) {
		session_drain(&s, &d);
		sleep_seconds(0.05);
	}
	skd_dev_stop(s.fd);
	session_drain(&s, &d);
	reap(spin);
	drain_events(ev, &seen, 500);
	session_close(&s);
	len = rawnl_put_u32(a, 0, SKD_A_SET_MAX_SAMPLE_RATE, (uint32_t)old_rate);
	rawnl_request(&nl, SKD_CMD_SET_SETTINGS, 0, 0, a, len, &r);
	ktap_result(t.records > 0 && seen.throttled >= 1 &&
		    seen.throttle_count == t.records,
		    "events: THROTTLED %llu times, %llu throttles in all (THROTTLE "
		    "records in the rings: %llu)",
		    (unsigned long long)seen.throttled,
		    (unsigned long long)seen.throttle_count,
		    (unsigned long long)t.records);

	memset(&seen, 0, sizeof(seen));
	if (write_text(SIM_DEBUGFS "/held_counters", "0x1")) {
		ktap_fail("events: REFUSED", "no held_counters knob");
		ktap_fail("events: REFUSED for VMX", "no held_counters knob");
		return;
	}
	err = pmu_start_errno(&cfg);
	write_text(SIM_DEBUGFS "/held_counters", "0");
	seen.id = 0;		/* the session is gone: match any */
	drain_events(ev, &seen, 300);
	ktap_result(err == -EBUSY && seen.refused >= 1 &&
		    seen.refused_errno == EBUSY && seen.refused_msg[0],
		    "counters held elsewhere: START %s, events: REFUSED (%s) "
		    "\"%s\"", strerror(-err), strerror(seen.refused_errno),
		    seen.refused_msg);

	/* The model's CPUs with VMX on: PEBS must not start. */
	memset(&seen, 0, sizeof(seen));
	if (write_text(SIM_DEBUGFS "/vmx", "1")) {
		ktap_fail("events: REFUSED for VMX", "no vmx knob");
		return;
	}
	err = pmu_start_errno(&cfg);
	write_text(SIM_DEBUGFS "/vmx", "0");
	drain_events(ev, &seen, 300);
	ktap_result(err == -EBUSY && seen.refused >= 1 &&
		    seen.refused_errno == EBUSY && strstr(seen.refused_msg, "VMX"),
		    "VMX on: START %s, events: REFUSED (%s) \"%s\"",
		    strerror(-err), strerror(seen.refused_errno),
		    seen.refused_msg);
}

int main(int argc, char **argv)
{
	struct pmu_test pt;
	struct rawnl ev;
	int ret;

	pmu_test_init(&pt, argc, argv);
	ktap_plan(31);
	ret = rawnl_open(&nl);
	if (!ret)
		ret = rawnl_open(&ev);
	if (!ret)
		ret = rawnl_join_events(&ev);
	ktap_result(!ret, "family \"%s\" and group \"%s\" resolved, joined "
		    "(%s)", SKD_GENL_NAME, SKD_GENL_MCGRP_EVENTS, strerror(-ret));
	if (ret)
		ktap_fail_all("no netlink family");
	test_get_info();
	test_settings();
	test_malformed();
	test_timer_session(&ev);
	test_pmu_session(&ev, &pt);
	rawnl_close(&ev);
	rawnl_close(&nl);
	return ktap_finish();
}
