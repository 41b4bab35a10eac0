// SPDX-License-Identifier: GPL-2.0
/*
 * Every uapi struct at its edges, one field at a time: sizes around each
 * published version (below the first: EINVAL; larger with zero tail:
 * accepted; with a non-zero byte the kernel does not know: E2BIG; above
 * a page: E2BIG), every reserved field set (EINVAL), every unknown flag
 * bit (EOPNOTSUPP), every ranged field just inside (accepted) and just
 * outside (the errno uapi/skidless.h gives), pointers that fault
 * (EFAULT), and the mmap layout. ioctl_errors.c and mmap_errors.c have
 * the first cases of each kind; this file has the boundaries they leave.
 * PMU fields are checked on the sim backend's skylake model, which is
 * always built in.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "testlib.h"

#define KERNEL_PTR	((void *)0xffffffff81000000UL)
#define RING_PAGES	2
#define BRANCHES	0x00c4		/* br_inst_retired.all_branches */
/* Skylake's PEBS branch event (Intel's list: C4/00 has PEBS 0). */
#define BRANCHES_PEBS	0x04c4		/* br_inst_retired.all_branches_pebs */
#define PREC_DIST	0x01c0		/* inst_retired.prec_dist, :ppp */
#define LOAD_LATENCY	0x01cd		/* mem_trans_retired.load_latency */

static struct skd_info info;
static uint32_t max_rate;	/* the PMU backends' max_sample_rate */
static size_t page;

/* Two read-write pages, then a PROT_NONE page: for the config... */
static uint8_t *cbuf, *cguard;
/* ...for the events or the stats array... */
static uint8_t *ebuf, *eguard;
/* ...and a read-only page. */
static uint8_t *ro;

static int err_of(long r)
{
	return r ? errno : 0;
}

static const char *ename(int e)
{
	const char *s = e ? strerrorname_np(e) : "accepted";

	return s ? s : "E?";
}

static bool check(const char *what, int got, int expect)
{
	return ktap_result(got == expect, "%s: %s (got %s)", what,
			   ename(expect), ename(got));
}

static int fresh_fd(void)
{
	int fd = skd_dev_open(false);

	if (fd < 0) {
		printf("Bail out! open: %s\n", strerror(-fd));
		exit(KTAP_FAIL);
	}
	return fd;
}

static uint8_t *guarded_pages(uint8_t **guard)
{
	uint8_t *p = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || mprotect(p + 2 * page, page, PROT_NONE)) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		exit(KTAP_FAIL);
	}
	*guard = p + 2 * page;
	return p;
}

/* ------------------------------------------------------------------ */
/* SKD_IOC_CONFIG and struct skd_event_attr                            */

/*
 * The environment of one config case: the config at @c (in cbuf, the
 * rest of cbuf zero), its events at @ev (in ebuf, the rest zero), and
 * what is passed to the ioctl (@arg, the config unless a case moves it).
 */
struct env {
	struct skd_config *c;
	struct skd_event_attr *ev;
	void *arg;
	pid_t tid;			/* a thread that is not a process */
};

typedef void (*mutator)(struct env *e);

#define CASE(name, stmt) \
	static void name(struct env *e) \
	{ \
		struct skd_config *c = e->c; \
		struct skd_event_attr *ev = e->ev; \
		(void)c; (void)ev; \
		stmt; \
	}

/* A timer config: the base of the cases without sim in their table row. */
static void base_timer(struct env *e)
{
	*e->c = test_config(100, RING_PAGES, 0);
}

/* A sim:skylake config with one event, counted on a GP counter. */
static void base_sim(struct env *e)
{
	e->ev[0] = (struct skd_event_attr){
		.size = sizeof(struct skd_event_attr), .config = BRANCHES,
	};
	*e->c = (struct skd_config){
		.size = sizeof(struct skd_config), .backend = SKD_BACKEND_SIM,
		.sim_model = SKD_SIM_SKYLAKE, .ring_pages = RING_PAGES,
		.sample_period = 100003, .events_ptr = (uintptr_t)e->ev,
		.nr_events = 1, .event_attr_size = sizeof(struct skd_event_attr),
	};
}

static uint64_t *mask(void)
{
	/* Past the events' first page: room for 1024 bytes + 8. */
	return (uint64_t *)(ebuf + page);
}

static void set_mask_bit(struct skd_config *c, unsigned int bytes,
			 unsigned int bit)
{
	memset(mask(), 0, bytes);
	mask()[bit / 64] |= 1ULL << (bit % 64);
	c->cpumask_bytes = bytes;
	c->cpumask_ptr = (uintptr_t)mask();
}

static uint32_t next_pow2_above(uint32_t v)
{
	uint32_t p = 1;

	while (p <= v)
		p <<= 1;
	return p;
}

/* -- struct size, struct skd_config (version 0: 80, version 1: 104) -- */
CASE(csize_below_v0, c->size = SKD_CONFIG_SIZE_VER0 - 1)
CASE(csize_v0, c->size = SKD_CONFIG_SIZE_VER0)
CASE(csize_v0_odd, c->size = SKD_CONFIG_SIZE_VER0 + 4)
/* The kernel reads size bytes and no more: what follows is not its. */
CASE(csize_v0_junk_after, c->size = SKD_CONFIG_SIZE_VER0;
     c->events_ptr = 0xdeadbeef; c->nr_events = 99; c->sim_model = 99)
CASE(csize_v1, c->size = SKD_CONFIG_SIZE_VER1)
CASE(csize_v1_plus1, c->size = SKD_CONFIG_SIZE_VER1 + 1)
CASE(csize_first_unknown, c->size = SKD_CONFIG_SIZE_VER2 + 8;
     ((uint8_t *)c)[SKD_CONFIG_SIZE_VER2] = 1)
CASE(csize_page, c->size = page)
CASE(csize_page_last, c->size = page; ((uint8_t *)c)[page - 1] = 0x80)
CASE(csize_page_plus1, c->size = page + 1)
CASE(csize_max, c->size = 0xffffffff)
CASE(carg_null, e->arg = NULL)
CASE(carg_kernel, e->arg = KERNEL_PTR)
/* CONFIG only reads its argument: a read-only copy will do. */
CASE(carg_read_only, mprotect(ro, page, PROT_READ | PROT_WRITE);
     e->arg = memcpy(ro + page / 2, c, sizeof(*c));
     mprotect(ro, page, PROT_READ))
/* The struct's last byte is the first byte of the guard page. */
CASE(carg_crosses, e->arg = memcpy(cguard - sizeof(*c) + 1, c,
				  sizeof(*c) - 1))
/* Even the size cannot be read. */
CASE(carg_size_unreadable, e->arg = cguard - 2)

/* -- fields of struct skd_config -- */
CASE(cflag_first_unknown, c->flags |= 1U << 6)
CASE(cidle, c->flags |= SKD_CFG_IDLE)
CASE(cidle_pid, c->flags |= SKD_CFG_IDLE | SKD_CFG_PID; c->pid = getpid())
CASE(cres0, c->reserved[0] = 1)
CASE(cres1, c->reserved[1] = 1ULL << 63)
CASE(cres3, c->reserved[3] = 1)
CASE(cres1_v2, c->reserved1 = 1)
CASE(custack_8, c->user_stack_bytes = 8)
CASE(custack_max, c->user_stack_bytes = SKD_MAX_USER_STACK)
CASE(custack_12, c->user_stack_bytes = 12)
CASE(custack_max_minus4, c->user_stack_bytes = SKD_MAX_USER_STACK - 4)
CASE(custack_above, c->user_stack_bytes = SKD_MAX_USER_STACK + 8)
CASE(custack_huge, c->user_stack_bytes = 0xfffffff8)
CASE(csize_v2, c->size = SKD_CONFIG_SIZE_VER2)
CASE(csize_v2_unknown, c->size = SKD_CONFIG_SIZE_VER2 + 8;
     ((uint8_t *)c)[SKD_CONFIG_SIZE_VER2 + 7] = 1)
CASE(cbackend_default, c->backend = SKD_BACKEND_DEFAULT)
CASE(cbackend_first_unknown, c->backend = __SKD_BACKEND_MAX)
CASE(cbackend_max, c->backend = 0xffffffff)
CASE(cring_one, c->ring_pages = 1)
CASE(cring_max, c->ring_pages = 1U << (31 - __builtin_clz(info.max_ring_pages)))
CASE(cring_above_max, c->ring_pages = next_pow2_above(info.max_ring_pages))
CASE(cring_top_bit, c->ring_pages = 1U << 31)
CASE(cfreq_one, c->sample_freq = 1)
CASE(cfreq_max, c->sample_freq = info.max_freq)
CASE(cfreq_huge, c->sample_freq = ~0ULL)
CASE(cperiod_min, c->flags &= ~SKD_CFG_FREQ;
     c->sample_period = 1000000000ULL / info.max_freq)
CASE(cperiod_below_min, c->flags &= ~SKD_CFG_FREQ;
     c->sample_period = 1000000000ULL / info.max_freq - 1)
CASE(cwakeup_half, c->wakeup_bytes = RING_PAGES * page / 2)
CASE(cwakeup_half_plus1, c->wakeup_bytes = RING_PAGES * page / 2 + 1)
CASE(cwakeup_max, c->wakeup_bytes = 0xffffffff)
CASE(cdepth_max, c->callchain_depth = SKD_MAX_CALLCHAIN)
CASE(cdepth_huge, c->callchain_depth = 0xffffffff)
CASE(cexcl_user, c->flags |= SKD_CFG_EXCLUDE_USER)
CASE(cexcl_kernel, c->flags |= SKD_CFG_EXCLUDE_KERNEL)
CASE(cpid_self, c->flags |= SKD_CFG_PID; c->pid = getpid())
CASE(cpid_init, c->flags |= SKD_CFG_PID; c->pid = 1)
CASE(cpid_int_max, c->flags |= SKD_CFG_PID; c->pid = 0x7fffffff)
CASE(cpid_int_min, c->flags |= SKD_CFG_PID; c->pid = -0x7fffffff - 1)
CASE(cpid_thread, c->flags |= SKD_CFG_PID; c->pid = e->tid)
CASE(cmask_last_cpu, set_mask_bit(c, 8, info.nr_cpu_ids - 1))
CASE(cmask_first_missing, set_mask_bit(c, 8 * (info.nr_cpu_ids / 64 + 1),
				       info.nr_cpu_ids))
CASE(cmask_max_bytes, set_mask_bit(c, SKD_CPUMASK_MAX_BYTES, 0))
CASE(cmask_max_bytes_last_bit, set_mask_bit(c, SKD_CPUMASK_MAX_BYTES,
					    SKD_CPUMASK_MAX_BYTES * 8 - 1))
CASE(cmask_kernel, c->cpumask_bytes = 8;
     c->cpumask_ptr = (uintptr_t)KERNEL_PTR)
CASE(cmask_crosses, c->cpumask_bytes = 16;
     c->cpumask_ptr = (uintptr_t)(eguard - 8); eguard[-8] = 1)
CASE(cmask_ptr_without_bytes, c->cpumask_bytes = 0;
     c->cpumask_ptr = (uintptr_t)mask(); mask()[0] = 1)
CASE(cevents_on_timer, c->nr_events = 1; c->events_ptr = (uintptr_t)ev;
     c->event_attr_size = sizeof(*ev); ev->size = sizeof(*ev);
     ev->config = BRANCHES)
CASE(cevents_ptr_alone, c->events_ptr = (uintptr_t)ev)
CASE(cevent_size_alone, c->event_attr_size = sizeof(*ev))
CASE(csim_model_on_timer, c->sim_model = SKD_SIM_SKYLAKE)
CASE(cbranch_on_timer, c->branch_sample = SKD_BRANCH_ANY)

/* -- the PMU backends (sim:skylake): config fields -- */
CASE(snothing, )
CASE(smodel_default, c->sim_model = SKD_SIM_DEFAULT)
/* The last model is hybrid: a session takes one core type (CPU 0's). */
CASE(smodel_last, c->sim_model = __SKD_SIM_MAX - 1; set_mask_bit(c, 8, 0))
CASE(smodel_hybrid_both, c->sim_model = SKD_SIM_ALDERLAKE; set_mask_bit(c, 8, 0);
     mask()[0] |= 2)
CASE(smodel_first_unknown, c->sim_model = __SKD_SIM_MAX)
CASE(snr_zero, c->nr_events = 0; c->events_ptr = 0; c->event_attr_size = 0)
CASE(snr_16, c->nr_events = SKD_MAX_EVENTS;
     for (int i = 1; i < SKD_MAX_EVENTS; i++) ev[i] = ev[0])
CASE(snr_17, c->nr_events = SKD_MAX_EVENTS + 1)
CASE(snr_max, c->nr_events = 0xffffffff)
CASE(sbranch_all, c->branch_sample = __SKD_BRANCH_ALL)
CASE(sbranch_first_unknown, c->branch_sample = __SKD_BRANCH_ALL + 1)
CASE(sbranch_call_stack, c->branch_sample = SKD_BRANCH_CALL_STACK)
CASE(sfreq_session, c->flags |= SKD_CFG_FREQ; c->sample_freq = 1000)
CASE(sintel_model, c->backend = SKD_BACKEND_INTEL)

/* -- struct skd_event_attr: size and stride (version 0: 40, 1: 48) -- */
CASE(esize_zero, c->event_attr_size = 0)
CASE(esize_below_v0, c->event_attr_size = SKD_EVENT_ATTR_SIZE_VER0 - 1)
CASE(esize_v0, c->event_attr_size = ev->size = SKD_EVENT_ATTR_SIZE_VER0)
CASE(esize_odd, c->event_attr_size = ev->size = SKD_EVENT_ATTR_SIZE_VER0 + 4)
CASE(esize_larger, c->event_attr_size = ev->size = SKD_EVENT_ATTR_SIZE_VER1 + 8)
CASE(esize_first_unknown,
     c->event_attr_size = ev->size = SKD_EVENT_ATTR_SIZE_VER1 + 8;
     ((uint8_t *)ev)[SKD_EVENT_ATTR_SIZE_VER1] = 1)
/* Two events 56 bytes apart: the second one's unknown tail is checked. */
CASE(estride_second_tail, c->event_attr_size = ev->size = 56; c->nr_events = 2;
     memcpy((uint8_t *)ev + 56, ev, sizeof(*ev));
     ((uint8_t *)ev)[56 + 55] = 1)
CASE(estride_two, c->event_attr_size = ev->size = 56; c->nr_events = 2;
     memcpy((uint8_t *)ev + 56, ev, sizeof(*ev)))
/* config1 is for the events that program an extra MSR. */
CASE(econfig1_unused, ev->config1 = 1)
/* A version-0 caller's 40 bytes: no config1 is read past them. */
CASE(esize_v0_config1_beyond, c->event_attr_size = ev->size = SKD_EVENT_ATTR_SIZE_VER0;
     ev->config1 = 1)
CASE(esize_page, c->event_attr_size = ev->size = page)
CASE(esize_page_plus1, c->event_attr_size = ev->size = page + 1)
CASE(eptr_null, c->events_ptr = 0)
CASE(eptr_kernel, c->events_ptr = (uintptr_t)KERNEL_PTR)
CASE(eptr_crosses, c->nr_events = 2;
     c->events_ptr = (uintptr_t)memcpy(eguard - 2 * sizeof(*ev) + 8, ev,
				       sizeof(*ev)))

/* -- fields of struct skd_event_attr -- */
CASE(eflag_first_unknown, ev->flags = 1U << 3)
CASE(eflag_top, ev->flags = 1U << 31)
CASE(eexcl_user, ev->flags = SKD_EV_EXCLUDE_USER)
CASE(eexcl_both, ev->flags = SKD_EV_EXCLUDE_USER | SKD_EV_EXCLUDE_KERNEL)
CASE(eres0_0, ev->reserved0[0] = 1)
CASE(eres0_1, ev->reserved0[1] = 1)
CASE(eres0_2, ev->reserved0[2] = 0x80)
CASE(eres1, ev->reserved1 = 1U << 31)
CASE(econfig_usr, ev->config |= 1ULL << 16)
CASE(econfig_os, ev->config |= 1ULL << 17)
CASE(econfig_pc, ev->config |= 1ULL << 19)
CASE(econfig_int, ev->config |= 1ULL << 20)
/* AnyThread: perfmon v3 and v4 (skylake); v5 deprecates it (SDM). */
CASE(econfig_any, ev->config |= 1ULL << 21)
CASE(econfig_any_v5, c->sim_model = SKD_SIM_ICELAKE; ev->config |= 1ULL << 21)
CASE(econfig_en, ev->config |= 1ULL << 22)
CASE(econfig_bit32, ev->config |= 1ULL << 32)
CASE(econfig_bit63, ev->config |= 1ULL << 63)
CASE(econfig_modifiers, ev->config |= 1ULL << 18 | 1ULL << 23 | 0xffULL << 24)
CASE(eprecise_1, ev->config = BRANCHES_PEBS; ev->precise = 1)
CASE(eprecise_not_pebs, ev->precise = 1)
CASE(eprecise_3, ev->config = PREC_DIST; ev->precise = 3)
CASE(eprecise_4, ev->precise = 4)
CASE(eprecise_255, ev->precise = 255)
CASE(eldlat_not_ldlat_event, ev->ldlat = 1)
CASE(eldlat_0, ev->config = LOAD_LATENCY; ev->precise = 1; ev->ldlat = 0)
CASE(eldlat_1, ev->config = LOAD_LATENCY; ev->precise = 1; ev->ldlat = 1)
CASE(eldlat_max, ev->config = LOAD_LATENCY; ev->precise = 1;
     ev->ldlat = 0xffff)
CASE(eldlat_above, ev->config = LOAD_LATENCY; ev->precise = 1;
     ev->ldlat = 0x10000)
CASE(eperiod_one, ev->sample_period = 1)
CASE(eperiod_max, ev->sample_period = ~0ULL)
CASE(eperiod_none, c->sample_period = 0; ev->sample_period = 0)
CASE(efreq_own, c->sample_period = 0; ev->flags = SKD_EV_FREQ;
     ev->sample_freq = 1000)
CASE(efreq_max, c->sample_period = 0; ev->flags = SKD_EV_FREQ;
     ev->sample_freq = max_rate)
CASE(efreq_above_max, c->sample_period = 0; ev->flags = SKD_EV_FREQ;
     ev->sample_freq = max_rate + 1ULL)
CASE(efreq_huge, c->sample_period = 0; ev->flags = SKD_EV_FREQ;
     ev->sample_freq = ~0ULL)
CASE(sfreq_above_max, c->flags |= SKD_CFG_FREQ; c->sample_freq = max_rate + 1ULL;
     ev->flags = SKD_EV_FREQ)
CASE(esize_field_zero, ev->size = 0)
CASE(esize_field_larger, ev->size = SKD_EVENT_ATTR_SIZE_VER1 + 8)
CASE(estride_second_size, c->event_attr_size = 48; c->nr_events = 2;
     ev->size = 48; memcpy((uint8_t *)ev + 48, ev, sizeof(*ev));
     ((struct skd_event_attr *)((uint8_t *)ev + 48))->size = 40)
CASE(efreq_from_session, c->flags |= SKD_CFG_FREQ; c->sample_freq = 1000;
     ev->flags = SKD_EV_FREQ)

static const struct {
	const char *desc;
	mutator fn;
	bool sim;
	int expect;
} config_cases[] = {
	{ "config size 79, one below version 0", csize_below_v0, 0, EINVAL },
	{ "config size 80, version 0", csize_v0, 0, 0 },
	{ "config size 84, not a multiple of 8", csize_v0_odd, 0, 0 },
	{ "config size 80, nonsense after it", csize_v0_junk_after, 0, 0 },
	{ "config size 104, version 1", csize_v1, 0, 0 },
	{ "config size 105, zero tail", csize_v1_plus1, 0, 0 },
	{ "config size 120, first unknown byte set", csize_first_unknown, 0,
	  E2BIG },
	{ "config size of a page, zero tail", csize_page, 0, 0 },
	{ "config size of a page, its last byte set", csize_page_last, 0,
	  E2BIG },
	{ "config size of a page + 1", csize_page_plus1, 0, E2BIG },
	{ "config size 0xffffffff", csize_max, 0, E2BIG },
	{ "config at NULL", carg_null, 0, EFAULT },
	{ "config at a kernel address", carg_kernel, 0, EFAULT },
	{ "config in a read-only page", carg_read_only, 0, 0 },
	{ "config whose last byte is unmapped", carg_crosses, 0, EFAULT },
	{ "config whose size is unmapped", carg_size_unreadable, 0, EFAULT },
	{ "flag bit 6, the first unknown", cflag_first_unknown, 0, EOPNOTSUPP },
	{ "SKD_CFG_IDLE, system-wide", cidle, 0, 0 },
	{ "SKD_CFG_IDLE with SKD_CFG_PID", cidle_pid, 0, EINVAL },
	{ "reserved[0] set", cres0, 0, EINVAL },
	{ "reserved[1] set", cres1, 0, EINVAL },
	{ "reserved[3] set", cres3, 0, EINVAL },
	{ "reserved1 set (version 2)", cres1_v2, 0, EINVAL },
	{ "user_stack_bytes 8", custack_8, 0, 0 },
	{ "user_stack_bytes SKD_MAX_USER_STACK", custack_max, 0, 0 },
	{ "user_stack_bytes 12, not a multiple of 8", custack_12, 0, ERANGE },
	{ "user_stack_bytes SKD_MAX_USER_STACK - 4", custack_max_minus4, 0,
	  ERANGE },
	{ "user_stack_bytes SKD_MAX_USER_STACK + 8", custack_above, 0, ERANGE },
	{ "user_stack_bytes 0xfffffff8", custack_huge, 0, ERANGE },
	{ "config size of version 2", csize_v2, 0, 0 },
	{ "config version 2 + 8, last byte set", csize_v2_unknown, 0, E2BIG },
	{ "backend 0, the default", cbackend_default, 0, 0 },
	{ "backend 4, the first unknown", cbackend_first_unknown, 0, EINVAL },
	{ "backend 0xffffffff", cbackend_max, 0, EINVAL },
	{ "ring_pages 1", cring_one, 0, 0 },
	{ "ring_pages at max_ring_pages", cring_max, 0, 0 },
	{ "ring_pages, the power of two above max_ring_pages", cring_above_max,
	  0, ERANGE },
	{ "ring_pages 1 << 31", cring_top_bit, 0, ERANGE },
	{ "sample_freq 1", cfreq_one, 0, 0 },
	{ "sample_freq at max_freq", cfreq_max, 0, 0 },
	{ "sample_freq 2^64 - 1", cfreq_huge, 0, ERANGE },
	{ "sample_period 1 s / max_freq", cperiod_min, 0, 0 },
	{ "sample_period 1 ns shorter", cperiod_below_min, 0, ERANGE },
	{ "wakeup_bytes half the ring", cwakeup_half, 0, 0 },
	{ "wakeup_bytes half the ring + 1", cwakeup_half_plus1, 0, ERANGE },
	{ "wakeup_bytes 0xffffffff", cwakeup_max, 0, ERANGE },
	{ "callchain_depth 127", cdepth_max, 0, 0 },
	{ "callchain_depth 0xffffffff", cdepth_huge, 0, ERANGE },
	{ "user mode excluded", cexcl_user, 0, 0 },
	{ "kernel mode excluded", cexcl_kernel, 0, 0 },
	{ "pid of this process", cpid_self, 0, 0 },
	{ "pid 1", cpid_init, 0, 0 },
	{ "pid INT_MAX", cpid_int_max, 0, ESRCH },
	{ "pid INT_MIN", cpid_int_min, 0, EINVAL },
	{ "pid of a thread that is not a process", cpid_thread, 0, ESRCH },
	{ "cpumask of the last CPU id", cmask_last_cpu, 0, 0 },
	{ "cpumask of CPU nr_cpu_ids", cmask_first_missing, 0, ENXIO },
	{ "cpumask of 1024 bytes", cmask_max_bytes, 0, 0 },
	{ "cpumask of 1024 bytes, last bit", cmask_max_bytes_last_bit, 0,
	  ENXIO },
	{ "cpumask at a kernel address", cmask_kernel, 0, EFAULT },
	{ "cpumask running into an unmapped page", cmask_crosses, 0, EFAULT },
	{ "cpumask_ptr without cpumask_bytes", cmask_ptr_without_bytes, 0,
	  EINVAL },
	{ "events for the timer backend", cevents_on_timer, 0, EINVAL },
	{ "events_ptr without nr_events", cevents_ptr_alone, 0, EINVAL },
	{ "event_attr_size without nr_events", cevent_size_alone, 0, EINVAL },
	{ "sim_model for the timer backend", csim_model_on_timer, 0, EINVAL },
	{ "branch_sample for the timer backend", cbranch_on_timer, 0,
	  EOPNOTSUPP },
	{ "sim:skylake, one event", snothing, 1, 0 },
	{ "sim_model 0, the default", smodel_default, 1, 0 },
	{ "SKD_CFG_IDLE for a PMU backend", cidle, 1, EINVAL },
	{ "sim_model __SKD_SIM_MAX - 1, the last (hybrid: CPU 0's core type)",
	  smodel_last, 1, 0 },
	{ "sim_model __SKD_SIM_MAX, the first unknown", smodel_first_unknown, 1,
	  EINVAL },
	{ "sim:alderlake over a P-core and an E-core", smodel_hybrid_both, 1,
	  EOPNOTSUPP },
	{ "no events for a PMU backend", snr_zero, 1, EINVAL },
	{ "16 events: in range, more than skylake's counters", snr_16, 1,
	  ENOSPC },
	{ "17 events", snr_17, 1, ERANGE },
	{ "0xffffffff events", snr_max, 1, ERANGE },
	{ "every branch_sample bit", sbranch_all, 1, 0 },
	{ "branch_sample bit 10, the first unknown", sbranch_first_unknown, 1,
	  EOPNOTSUPP },
	{ "branch_sample call stack alone", sbranch_call_stack, 1, 0 },
	{ "a session frequency", sfreq_session, 1, 0 },
	{ "event_attr_size 0", esize_zero, 1, EINVAL },
	{ "event_attr_size 39, one below version 0", esize_below_v0, 1, EINVAL },
	{ "event_attr_size 40, version 0", esize_v0, 1, 0 },
	{ "event_attr_size 40, config1 set beyond it", esize_v0_config1_beyond,
	  1, 0 },
	{ "event_attr_size 44, not a multiple of 8", esize_odd, 1, 0 },
	{ "event_attr_size 56, zero tail", esize_larger, 1, 0 },
	{ "event_attr_size 56, first unknown byte set", esize_first_unknown, 1,
	  E2BIG },
	{ "two events 56 bytes apart", estride_two, 1, 0 },
	{ "two events 56 bytes apart, the second's tail set",
	  estride_second_tail, 1, E2BIG },
	{ "config1 on an event without an extra MSR", econfig1_unused, 1,
	  EINVAL },
	{ "event_attr_size of a page", esize_page, 1, 0 },
	{ "event_attr_size of a page + 1", esize_page_plus1, 1, E2BIG },
	{ "events at NULL", eptr_null, 1, EFAULT },
	{ "events at a kernel address", eptr_kernel, 1, EFAULT },
	{ "second event in an unmapped page", eptr_crosses, 1, EFAULT },
	{ "event flag bit 3, the first unknown", eflag_first_unknown, 1,
	  EOPNOTSUPP },
	{ "event flag bit 31", eflag_top, 1, EOPNOTSUPP },
	{ "event excluding user mode", eexcl_user, 1, 0 },
	{ "event excluding user and kernel mode", eexcl_both, 1, EINVAL },
	{ "event reserved0[0] set", eres0_0, 1, EINVAL },
	{ "event reserved0[1] set", eres0_1, 1, EINVAL },
	{ "event reserved0[2] set", eres0_2, 1, EINVAL },
	{ "event reserved1 set", eres1, 1, EINVAL },
	{ "event config with USR (bit 16)", econfig_usr, 1, EINVAL },
	{ "event config with OS (bit 17)", econfig_os, 1, EINVAL },
	{ "event config with PC (bit 19)", econfig_pc, 1, EINVAL },
	{ "event config with INT (bit 20)", econfig_int, 1, EINVAL },
	{ "event config with ANY (bit 21), perfmon v4", econfig_any, 1, 0 },
	{ "event config with ANY (bit 21), perfmon v5", econfig_any_v5, 1,
	  EINVAL },
	{ "event config with EN (bit 22)", econfig_en, 1, EINVAL },
	{ "event config with bit 32", econfig_bit32, 1, EINVAL },
	{ "event config with bit 63", econfig_bit63, 1, EINVAL },
	{ "event config with edge, inv and cmask 255", econfig_modifiers, 1, 0 },
	{ "event precise 1", eprecise_1, 1, 0 },
	{ "event precise 1 on an event Intel lists without PEBS",
	  eprecise_not_pebs, 1, EOPNOTSUPP },
	{ "event precise 3 on inst_retired.prec_dist", eprecise_3, 1, 0 },
	{ "event precise 4", eprecise_4, 1, EINVAL },
	{ "event precise 255", eprecise_255, 1, EINVAL },
	{ "ldlat on an event without a threshold", eldlat_not_ldlat_event, 1,
	  EINVAL },
	{ "load-latency event, ldlat 0", eldlat_0, 1, EINVAL },
	{ "load-latency event, ldlat 1", eldlat_1, 1, 0 },
	{ "load-latency event, ldlat 65535", eldlat_max, 1, 0 },
	{ "load-latency event, ldlat 65536", eldlat_above, 1, EINVAL },
	{ "event sample_period 1", eperiod_one, 1, 0 },
	{ "event sample_period 2^64 - 1", eperiod_max, 1, 0 },
	{ "event and session without a period", eperiod_none, 1, EINVAL },
	{ "event with its own frequency", efreq_own, 1, 0 },
	{ "event frequency from the session", efreq_from_session, 1, 0 },
	{ "event frequency at max_sample_rate", efreq_max, 1, 0 },
	{ "event frequency max_sample_rate + 1", efreq_above_max, 1, ERANGE },
	{ "event frequency 2^64 - 1", efreq_huge, 1, ERANGE },
	{ "session frequency max_sample_rate + 1, taken by an event",
	  sfreq_above_max, 1, ERANGE },
	{ "event size 0", esize_field_zero, 1, EINVAL },
	{ "event size 56, event_attr_size 48", esize_field_larger, 1, EINVAL },
	{ "two events 48 bytes apart, the second's size 40",
	  estride_second_size, 1, EINVAL },
	{ "intel backend (no PMU here), sim fields", sintel_model, 1, ENODEV },
};

#define NR_CONFIG_CASES (int)(sizeof(config_cases) / sizeof(config_cases[0]))

static void *thread_main(void *arg)
{
	pid_t *tid = arg;

	__atomic_store_n(tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	pause();
	return NULL;
}

static void run_config_cases(pid_t tid)
{
	int i, fd, err;

	for (i = 0; i < NR_CONFIG_CASES; i++) {
		struct env e = {
			.c = (struct skd_config *)cbuf,
			.ev = (struct skd_event_attr *)ebuf,
			.tid = tid,
		};

		if (config_cases[i].fn == sintel_model &&
		    (info.backends & (1U << SKD_BACKEND_INTEL))) {
			ktap_skip(config_cases[i].desc, "this machine has a PMU");
			continue;
		}
		memset(cbuf, 0, 2 * page);
		memset(ebuf, 0, 2 * page);
		if (config_cases[i].sim)
			base_sim(&e);
		else
			base_timer(&e);
		e.arg = e.c;
		config_cases[i].fn(&e);
		fd = fresh_fd();
		err = err_of(ioctl(fd, SKD_IOC_CONFIG, e.arg));
		close(fd);
		check(config_cases[i].desc, err, config_cases[i].expect);
	}
}

/* ------------------------------------------------------------------ */
/* SKD_IOC_GET_INFO (written by the kernel)                            */

static int info_at(void *p, uint32_t usize)
{
	int fd = fresh_fd(), err;

	memcpy(p, &usize, sizeof(usize));
	err = err_of(ioctl(fd, SKD_IOC_GET_INFO, p));
	close(fd);
	return err;
}

static bool tail_is(const uint8_t *p, size_t from, size_t to, uint8_t v)
{
	for (; from < to; from++)
		if (p[from] != v)
			return false;
	return true;
}

#define NR_INFO_CASES 8

static void info_cases(void)
{
	struct skd_info *in = (struct skd_info *)cbuf;
	int err;

	check("GET_INFO size 0", info_at(cbuf, 0), EINVAL);
	check("GET_INFO size 207, one below version 0",
	      info_at(cbuf, SKD_INFO_SIZE_VER0 - 1), EINVAL);

	memset(cbuf, 0xa5, 2 * page);
	err = info_at(cbuf, SKD_INFO_SIZE_VER0);
	ktap_result(!err && in->size == SKD_INFO_SIZE_VER0 &&
		    tail_is(cbuf, SKD_INFO_SIZE_VER0, page, 0xa5),
		    "GET_INFO size 208 (version 0) writes 208 bytes (%u, %s)",
		    in->size, ename(err));

	memset(cbuf, 0xa5, 2 * page);
	err = info_at(cbuf, page);
	ktap_result(!err && in->size == sizeof(*in) &&
		    tail_is(cbuf, sizeof(*in), page, 0xa5) &&
		    !(in->features & ~(SKD_FEAT_MMAP_EVENTS | SKD_FEAT_READ_MAPS |
				       SKD_FEAT_USER_STACK |
				       SKD_FEAT_TIMER_FOLLOWS)) &&
		    memchr(in->version, 0, sizeof(in->version)) &&
		    memchr(in->pmu, 0, sizeof(in->pmu)),
		    "GET_INFO size of a page: %zu bytes written, features known, "
		    "strings NUL-terminated (%s)", sizeof(*in), ename(err));

	check("GET_INFO size of a page + 1", info_at(cbuf, page + 1), E2BIG);
	check("GET_INFO size 0xffffffff", info_at(cbuf, 0xffffffff), E2BIG);
	/* Room for the size, not for what the kernel writes. */
	check("GET_INFO whose last byte is unmapped",
	      info_at(cguard - sizeof(*in) + 1, sizeof(*in)), EFAULT);
	{
		int fd = fresh_fd();

		/* ro holds 208 at its start (set up in main). */
		err = err_of(ioctl(fd, SKD_IOC_GET_INFO, ro));
		close(fd);
		check("GET_INFO into a read-only page", err, EFAULT);
	}
}

/* ------------------------------------------------------------------ */
/* SKD_IOC_GET_PMU (read, then written by the kernel)                  */

/* Copy @n bytes of @src to @p, but not into cbuf's guard page. */
static void put(void *p, const void *src, size_t n)
{
	uint8_t *d = p;

	if (d < cguard && d + n > cguard)
		n = cguard - d;
	memcpy(d, src, n);
}

static int pmu_at(void *p, const struct skd_pmu_info *q)
{
	int fd = fresh_fd(), err;

	put(p, q, sizeof(*q));
	err = err_of(ioctl(fd, SKD_IOC_GET_PMU, p));
	close(fd);
	return err;
}

static struct skd_pmu_info pmu_q(uint32_t backend, uint32_t model)
{
	struct skd_pmu_info q = {
		.size = sizeof(q), .backend = backend, .sim_model = model,
	};

	return q;
}

/* The rate above which the PMU backends refuse a frequency. */
static uint32_t sim_max_sample_rate(void)
{
	struct skd_pmu_info q = pmu_q(SKD_BACKEND_SIM, SKD_SIM_SKYLAKE);
	int fd = fresh_fd();

	if (ioctl(fd, SKD_IOC_GET_PMU, &q) || !q.max_sample_rate) {
		printf("Bail out! GET_PMU: %s\n", strerror(errno));
		exit(KTAP_FAIL);
	}
	close(fd);
	return q.max_sample_rate;
}

#define NR_PMU_CASES 26

static void pmu_cases(void)
{
	struct skd_pmu_info *out = (struct skd_pmu_info *)cbuf, q;
	const uint32_t all_models = ((1U << __SKD_SIM_MAX) - 1) & ~1U;
	int err;

	memset(cbuf, 0, 2 * page);
	q = pmu_q(SKD_BACKEND_SIM, SKD_SIM_SKYLAKE);
	q.size = 0;
	check("GET_PMU size 0", pmu_at(cbuf, &q), EINVAL);
	q.size = SKD_PMU_INFO_SIZE_VER0 - 1;
	check("GET_PMU size 207, one below version 0", pmu_at(cbuf, &q), EINVAL);
	q.size = page;
	memset(cbuf, 0, 2 * page);
	err = pmu_at(cbuf, &q);
	ktap_result(!err && out->size == sizeof(q) &&
		    tail_is(cbuf, sizeof(q), page, 0),
		    "GET_PMU size of a page, zero tail: writes %zu bytes (%s)",
		    sizeof(q), ename(err));
	memset(cbuf, 0, 2 * page);
	q.size = sizeof(q) + 8;
	cbuf[sizeof(q)] = 1;
	check("GET_PMU size of version 1 + 8, first unknown byte set",
	      pmu_at(cbuf, &q), E2BIG);
	cbuf[sizeof(q)] = 0;
	q.size = page + 1;
	check("GET_PMU size of a page + 1", pmu_at(cbuf, &q), E2BIG);
	q.size = sizeof(q);
	check("GET_PMU whose last byte is unmapped",
	      pmu_at(cguard - sizeof(q) + 1, &q), EFAULT);

	{
		int fd = fresh_fd();

		memset(cbuf, 0, page);
		q = pmu_q(SKD_BACKEND_SIM, SKD_SIM_SKYLAKE);
		/* Copy into a page the kernel can read but not write. */
		mprotect(ro, page, PROT_READ | PROT_WRITE);
		memcpy(ro + page / 2, &q, sizeof(q));
		mprotect(ro, page, PROT_READ);
		err = err_of(ioctl(fd, SKD_IOC_GET_PMU, ro + page / 2));
		close(fd);
		check("GET_PMU into a read-only page", err, EFAULT);
	}

	check("GET_PMU backend 0 (default)",
	      pmu_at(cbuf, &(struct skd_pmu_info){ .size = sizeof(q) }), EINVAL);
	q = pmu_q(SKD_BACKEND_TIMER, 0);
	check("GET_PMU backend 1 (timer: no PMU)", pmu_at(cbuf, &q), EINVAL);
	q = pmu_q(__SKD_BACKEND_MAX, 0);
	check("GET_PMU backend 4, the first unknown", pmu_at(cbuf, &q), EINVAL);
	q = pmu_q(0xffffffff, 0);
	check("GET_PMU backend 0xffffffff", pmu_at(cbuf, &q), EINVAL);
	q = pmu_q(SKD_BACKEND_INTEL, 0);
	err = pmu_at(cbuf, &q);
	ktap_result(!err && !(out->flags & SKD_PMU_SIMULATED) &&
		    (out->flags & SKD_PMU_USABLE || out->why[0]) &&
		    memchr(out->why, 0, sizeof(out->why)),
		    "GET_PMU intel: answers, says why when unusable (%s)",
		    ename(err));
	q = pmu_q(SKD_BACKEND_INTEL, SKD_SIM_SKYLAKE);
	check("GET_PMU intel with a sim model", pmu_at(cbuf, &q), EINVAL);
	q = pmu_q(SKD_BACKEND_SIM, 0);
	err = pmu_at(cbuf, &q);
	ktap_result(!err && out->sim_model >= 1 &&
		    out->sim_model < __SKD_SIM_MAX,
		    "GET_PMU sim model 0 answers with the default model (%u, %s)",
		    out->sim_model, ename(err));
	q = pmu_q(SKD_BACKEND_SIM, __SKD_SIM_MAX - 1);
	err = pmu_at(cbuf, &q);
	ktap_result(!err && (out->flags & SKD_PMU_SIMULATED) &&
		    (out->flags & SKD_PMU_USABLE) && !out->why[0] &&
		    out->model_name[0] &&
		    memchr(out->model_name, 0, sizeof(out->model_name)) &&
		    out->sim_models == all_models,
		    "GET_PMU sim model __SKD_SIM_MAX - 1, the last: usable, "
		    "simulated, named, sim_models 0x%x (%s)", out->sim_models,
		    ename(err));
	q = pmu_q(SKD_BACKEND_SIM, __SKD_SIM_MAX);
	check("GET_PMU sim model __SKD_SIM_MAX, the first unknown",
	      pmu_at(cbuf, &q), EINVAL);
	q = pmu_q(SKD_BACKEND_SIM, 0xffffffff);
	check("GET_PMU sim model 0xffffffff", pmu_at(cbuf, &q), EINVAL);
	q = pmu_q(SKD_BACKEND_SIM, SKD_SIM_SKYLAKE);
	q.flags = SKD_PMU_USABLE;
	check("GET_PMU with flags set on input", pmu_at(cbuf, &q), EINVAL);
	q = pmu_q(SKD_BACKEND_SIM, SKD_SIM_SKYLAKE);
	q.cpu_signature = 0x50654;
	check("GET_PMU with cpu_signature set on input", pmu_at(cbuf, &q),
	      EINVAL);

	/* Version 1: one CPU of a hybrid part, and its arch LBR words. */
	q = pmu_q(SKD_BACKEND_SIM, SKD_SIM_SKYLAKE);
	q.core_type = 0x40;
	check("GET_PMU with core_type set on input", pmu_at(cbuf, &q), EINVAL);
	q = pmu_q(SKD_BACKEND_SIM, SKD_SIM_SKYLAKE);
	q.query = 2;
	check("GET_PMU query bit 1, the first unknown", pmu_at(cbuf, &q),
	      EOPNOTSUPP);
	q = pmu_q(SKD_BACKEND_SIM, SKD_SIM_SKYLAKE);
	q.query = SKD_PMU_QUERY_CPU;
	q.cpu = info.nr_cpu_ids;
	check("GET_PMU of CPU nr_cpu_ids", pmu_at(cbuf, &q), ENXIO);
	q = pmu_q(SKD_BACKEND_SIM, SKD_SIM_ALDERLAKE);
	q.query = SKD_PMU_QUERY_CPU;
	q.cpu = info.nr_cpu_ids - 1;
	err = pmu_at(cbuf, &q);
	ktap_result(!err && out->cpu == info.nr_cpu_ids - 1 &&
		    out->core_type == (info.nr_cpu_ids > 1 ? 0x20 : 0x40),
		    "GET_PMU sim:alderlake of the last CPU: answers for it, "
		    "core type 0x%x (%s)", out->core_type, ename(err));
	q = pmu_q(SKD_BACKEND_SIM, SKD_SIM_ALDERLAKE);
	err = pmu_at(cbuf, &q);
	ktap_result(!err && out->cpu == 0 && out->core_type == 0x40 &&
		    (out->flags & SKD_PMU_HYBRID),
		    "GET_PMU sim:alderlake without a CPU: CPU 0, a P-core, "
		    "hybrid (%s)", ename(err));
	/* core_type would be 0x40 here: a version-0 caller gets none of it. */
	memset(cbuf, 0xa5, 2 * page);
	q = pmu_q(SKD_BACKEND_SIM, SKD_SIM_ALDERLAKE);
	q.size = SKD_PMU_INFO_SIZE_VER0;
	err = pmu_at(cbuf, &q);
	ktap_result(!err && out->size == SKD_PMU_INFO_SIZE_VER0 &&
		    tail_is(cbuf, SKD_PMU_INFO_SIZE_VER0, sizeof(q), 0) &&
		    tail_is(cbuf, sizeof(q), page, 0xa5),
		    "GET_PMU of a version-0 caller: writes its %d bytes only (%s)",
		    SKD_PMU_INFO_SIZE_VER0, ename(err));
	{
		int fd = fresh_fd();

		err = err_of(ioctl(fd, SKD_IOC_GET_PMU, KERNEL_PTR));
		close(fd);
		check("GET_PMU at a kernel address", err, EFAULT);
	}
}

/* ------------------------------------------------------------------ */
/* SKD_IOC_READ_MAPS and struct skd_read_maps (version 2)              */

static int maps_at(int fd, void *p, const struct skd_read_maps *q)
{
	put(p, q, sizeof(*q));
	return err_of(ioctl(fd, SKD_IOC_READ_MAPS, p));
}

#define NR_MAPS_CASES 13

static void read_maps_cases(void)
{
	static uint64_t buf[SKD_READ_MAPS_MIN_BUF / 8];
	struct skd_config cfg = test_config(100, RING_PAGES, 0);
	struct skd_read_maps q = {
		.size = sizeof(q), .buf_ptr = (uintptr_t)buf,
		.buf_len = SKD_READ_MAPS_MIN_BUF,
	};
	struct skd_read_maps r;
	int fd = fresh_fd();

	check("READ_MAPS before CONFIG", maps_at(fd, cbuf, &q), EBADFD);
	cfg.flags |= SKD_CFG_PID;
	cfg.pid = getpid();
	if (skd_dev_config(fd, &cfg)) {
		printf("Bail out! CONFIG: %s\n", strerror(errno));
		exit(KTAP_FAIL);
	}
	memset(cbuf, 0, 2 * page);
	check("READ_MAPS version 0", maps_at(fd, cbuf, &q), 0);
	r = q;
	r.size = SKD_READ_MAPS_SIZE_VER0 - 1;
	check("READ_MAPS size 39, one below version 0", maps_at(fd, cbuf, &r),
	      EINVAL);
	r.size = SKD_READ_MAPS_SIZE_VER0 + 8;
	check("READ_MAPS size 48, zero tail", maps_at(fd, cbuf, &r), 0);
	cbuf[SKD_READ_MAPS_SIZE_VER0] = 1;
	check("READ_MAPS size 48, first unknown byte set", maps_at(fd, cbuf, &r),
	      E2BIG);
	cbuf[SKD_READ_MAPS_SIZE_VER0] = 0;
	r.size = page + 1;
	check("READ_MAPS size of a page + 1", maps_at(fd, cbuf, &r), E2BIG);
	r = q;
	r.flags = 1;
	check("READ_MAPS flags 1", maps_at(fd, cbuf, &r), EINVAL);
	r.flags = 0x80000000;
	check("READ_MAPS flags bit 31", maps_at(fd, cbuf, &r), EINVAL);
	r = q;
	r.buf_len = SKD_READ_MAPS_MIN_BUF - 1;
	check("READ_MAPS buffer one byte short", maps_at(fd, cbuf, &r), EINVAL);
	r.buf_len = 0;
	check("READ_MAPS buffer 0", maps_at(fd, cbuf, &r), EINVAL);
	r = q;
	r.buf_ptr = 0;
	check("READ_MAPS buffer at NULL", maps_at(fd, cbuf, &r), EFAULT);
	r = q;
	r.cursor_pid = ~0ULL;
	r.cursor_addr = ~0ULL;
	check("READ_MAPS cursors all ones: nothing, no error",
	      maps_at(fd, cbuf, &r), 0);
	check("READ_MAPS struct at NULL", err_of(ioctl(fd, SKD_IOC_READ_MAPS,
						       NULL)), EFAULT);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* SKD_IOC_GET_STATS and struct skd_cpu_stats                          */

static int stats_fd;

static int stats_at(void *p, const struct skd_stats *q)
{
	put(p, q, sizeof(*q));
	return err_of(ioctl(stats_fd, SKD_IOC_GET_STATS, p));
}

static struct skd_stats stats_q(uint32_t nr, uint32_t stride, void *arr)
{
	struct skd_stats q = {
		.size = sizeof(q), .nr_cpus = nr, .cpu_stats_size = stride,
		.cpus_ptr = (uintptr_t)arr,
	};

	return q;
}

#define NR_STATS_CASES 16

static void stats_cases(void)
{
	const size_t cs = sizeof(struct skd_cpu_stats);
	struct skd_config cfg = test_config(100, RING_PAGES, 0);
	unsigned int n = info.nr_cpu_ids, i;
	struct skd_stats q, *out = (struct skd_stats *)cbuf;
	struct skd_cpu_stats *st = (struct skd_cpu_stats *)ebuf;
	bool zero = true;
	int err;

	stats_fd = fresh_fd();
	if (skd_dev_config(stats_fd, &cfg)) {
		printf("Bail out! CONFIG: %s\n", strerror(errno));
		exit(KTAP_FAIL);
	}
	if (n * page > 2 * page)
		n = 2;		/* the array of page-sized entries must fit */
	memset(cbuf, 0, 2 * page);
	q = stats_q(n, cs, ebuf);
	q.size = 0;
	check("GET_STATS size 0", stats_at(cbuf, &q), EINVAL);
	q.size = SKD_STATS_SIZE_VER0 - 1;
	check("GET_STATS size 23, one below version 0", stats_at(cbuf, &q),
	      EINVAL);
	q.size = SKD_STATS_SIZE_VER0 + 4;
	check("GET_STATS size 28, not a multiple of 8, zero tail",
	      stats_at(cbuf, &q), 0);
	q.size = SKD_STATS_SIZE_VER0 + 8;
	cbuf[SKD_STATS_SIZE_VER0] = 1;
	check("GET_STATS size 32, first unknown byte set", stats_at(cbuf, &q),
	      E2BIG);
	cbuf[SKD_STATS_SIZE_VER0] = 0;
	q.size = page;
	check("GET_STATS size of a page, zero tail", stats_at(cbuf, &q), 0);
	q.size = page + 1;
	check("GET_STATS size of a page + 1", stats_at(cbuf, &q), E2BIG);

	q = stats_q(n, SKD_CPU_STATS_SIZE_VER0 - 1, ebuf);
	check("GET_STATS cpu_stats_size 63, one below version 0",
	      stats_at(cbuf, &q), EINVAL);
	memset(ebuf, 0xa5, 2 * page);
	q = stats_q(n, page, ebuf);
	err = stats_at(cbuf, &q);
	for (i = 0; i < n; i++)
		zero &= tail_is(ebuf + i * page, cs, page, 0);
	ktap_result(!err && zero, "GET_STATS cpu_stats_size of a page: the "
		    "unknown bytes of every entry zeroed (%s)", ename(err));
	q = stats_q(n, page + 1, ebuf);
	check("GET_STATS cpu_stats_size of a page + 1", stats_at(cbuf, &q),
	      E2BIG);

	memset(ebuf, 0xa5, 2 * page);
	q = stats_q(info.nr_cpu_ids - 1, cs, ebuf);
	err = stats_at(cbuf, &q);
	ktap_result(!err && out->nr_cpus == info.nr_cpu_ids &&
		    tail_is(ebuf, (info.nr_cpu_ids - 1) * cs,
			    info.nr_cpu_ids * cs, 0xa5),
		    "GET_STATS with room for nr_cpu_ids - 1 writes that many "
		    "and says %u (%u, %s)", info.nr_cpu_ids, out->nr_cpus,
		    ename(err));

	memset(ebuf, 0xa5, 2 * page);
	q = stats_q(0xffffffff, cs, ebuf);
	err = stats_at(cbuf, &q);
	zero = true;
	for (i = 0; i < info.nr_cpu_ids && (i + 1) * cs <= 2 * page; i++)
		zero &= !st[i].reserved[0] && !st[i].reserved[1] &&
			st[i].generated == st[i].delivered + st[i].lost;
	ktap_result(!err && out->nr_cpus == info.nr_cpu_ids && zero &&
		    (info.nr_cpu_ids * cs >= 2 * page ||
		     tail_is(ebuf, info.nr_cpu_ids * cs,
			     info.nr_cpu_ids * cs + cs, 0xa5)),
		    "GET_STATS with nr_cpus 0xffffffff writes nr_cpu_ids "
		    "entries, reserved fields 0 (%s)", ename(err));

	q = stats_q(n, cs, eguard - cs * n + 8);
	check("GET_STATS array whose last byte is unmapped", stats_at(cbuf, &q),
	      EFAULT);
	q = stats_q(n, cs, ro);
	check("GET_STATS array in a read-only page", stats_at(cbuf, &q), EFAULT);
	q = stats_q(n, cs, KERNEL_PTR);
	check("GET_STATS array at a kernel address", stats_at(cbuf, &q), EFAULT);
	q = stats_q(n, cs, ebuf);
	check("GET_STATS whose last byte is unmapped",
	      stats_at(cguard - sizeof(q) + 1, &q), EFAULT);
	q.reserved0 = 1U << 31;
	check("GET_STATS reserved0 bit 31", stats_at(cbuf, &q), EINVAL);
	close(stats_fd);
}

/* ------------------------------------------------------------------ */
/* The mmap layout and struct skd_ring_ctrl                            */

static int map_errno(int fd, size_t len, int prot, int flags, uint64_t off)
{
	void *p = mmap(NULL, len, prot, flags, fd, off);

	if (p == MAP_FAILED)
		return errno;
	munmap(p, len);
	return 0;
}

static bool all_zero(const volatile __u64 *w, size_t n)
{
	while (n--)
		if (w[n])
			return false;
	return true;
}

/* Each CPU's control page says what it should, and nothing else. */
static bool ctrl_pages_right(int fd)
{
	const size_t data = RING_PAGES * page;
	bool right = true;
	unsigned int cpu;

	for (cpu = 0; cpu < info.nr_cpu_ids; cpu++) {
		volatile struct skd_ring_ctrl *c;

		c = mmap(NULL, page, PROT_READ, MAP_SHARED, fd,
			 SKD_MMAP_OFFSET(cpu, SKD_MMAP_CONTROL));
		if (c == MAP_FAILED) {
			ktap_diag("cpu %u: control page: %s", cpu,
				  strerror(errno));
			return false;
		}
		if (c->version != SKD_RING_VERSION ||
		    c->compat_version != SKD_RING_VERSION ||
		    c->size != sizeof(struct skd_ring_ctrl) || c->cpu != cpu ||
		    c->data_size != data ||
		    c->data_offset != SKD_MMAP_OFFSET(cpu, SKD_MMAP_DATA) ||
		    c->data_head || c->data_tail ||
		    !all_zero(c->reserved, 60) || !all_zero(c->reserved_head, 7) ||
		    !all_zero(c->reserved_tail, 7) ||
		    !all_zero((volatile __u64 *)((uint8_t *)c + sizeof(*c)),
			      (page - sizeof(*c)) / 8)) {
			ktap_diag("cpu %u: control page version %u/%u size %u cpu "
				  "%u data_size %llu offset %llx", cpu, c->version,
				  c->compat_version, c->size, c->cpu,
				  (unsigned long long)c->data_size,
				  (unsigned long long)c->data_offset);
			right = false;
		}
		munmap((void *)c, page);
		if (map_errno(fd, 2 * data, PROT_READ, MAP_SHARED,
			      SKD_MMAP_OFFSET(cpu, SKD_MMAP_DATA)))
			right = false;
	}
	return right;
}

/* Does reading @p in a child kill it with SIGSEGV? */
static bool child_segfaults(const volatile uint8_t *p)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		signal(SIGSEGV, SIG_DFL);
		(void)*p;
		_exit(0);
	}
	return waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) &&
	       WTERMSIG(status) == SIGSEGV;
}

#define NR_MMAP_CASES 16

static void mmap_cases(void)
{
	const int rw = PROT_READ | PROT_WRITE;
	struct skd_config cfg = test_config(100, RING_PAGES, 0);
	const size_t data = RING_PAGES * page;
	uint64_t ctl0 = SKD_MMAP_OFFSET(0, SKD_MMAP_CONTROL);
	uint64_t dat0 = SKD_MMAP_OFFSET(0, SKD_MMAP_DATA);
	int fd = fresh_fd(), ro_fd, err;
	struct skd_info now;
	uint8_t *p, *q;

	if (skd_dev_config(fd, &cfg)) {
		printf("Bail out! CONFIG: %s\n", strerror(errno));
		exit(KTAP_FAIL);
	}
	ktap_result(ctrl_pages_right(fd), "every CPU's control page: version, "
		    "size, cpu, data_size, data_offset, head and tail 0, every "
		    "reserved word 0; every data region maps twice over");

	check("mmap of CPU 0xffffffff", map_errno(fd, page, rw, MAP_SHARED,
		SKD_MMAP_OFFSET(0xffffffffULL, SKD_MMAP_CONTROL)), EINVAL);
	check("mmap of region 2, the first unknown", map_errno(fd, page,
		PROT_READ, MAP_SHARED, SKD_MMAP_OFFSET(0, 2)), EINVAL);
	check("mmap at an offset with bit 23 set", map_errno(fd, page, rw,
		MAP_SHARED, ctl0 | 1ULL << 23), EINVAL);
	check("mmap of data, twice over less a page", map_errno(fd,
		2 * data - page, PROT_READ, MAP_SHARED, dat0), EINVAL);
	check("mmap of data, twice over plus a page", map_errno(fd,
		2 * data + page, PROT_READ, MAP_SHARED, dat0), EINVAL);
	check("mmap of data, MAP_PRIVATE", map_errno(fd, data, PROT_READ,
		MAP_PRIVATE, dat0), EINVAL);
	check("mmap of data, MAP_SHARED_VALIDATE", map_errno(fd, data,
		PROT_READ, MAP_SHARED_VALIDATE, dat0), 0);
	check("mmap of data, PROT_WRITE alone", map_errno(fd, data, PROT_WRITE,
		MAP_SHARED, dat0), EPERM);

	/* An fd opened read-only may read the rings, and only read them. */
	ro_fd = open(SKD_DEVICE_PATH, O_RDONLY | O_CLOEXEC);
	ro_fd = ro_fd < 0 ? fd : ro_fd;
	if (ro_fd != fd) {
		/* A second fd of another session, configured the same way. */
		skd_dev_config(ro_fd, &cfg);
	}
	check("read-only fd: data, MAP_SHARED, PROT_READ",
	      map_errno(ro_fd, 2 * data, PROT_READ, MAP_SHARED, dat0), 0);
	check("read-only fd: control page, PROT_READ",
	      map_errno(ro_fd, page, PROT_READ, MAP_SHARED, ctl0), 0);
	check("read-only fd: control page, PROT_READ | PROT_WRITE",
	      map_errno(ro_fd, page, rw, MAP_SHARED, ctl0), EACCES);
	if (ro_fd != fd)
		close(ro_fd);

	/* Mappings cannot grow, and keep the session after close. */
	p = mmap(NULL, data, PROT_READ, MAP_SHARED, fd, dat0);
	q = mremap(p, data, 2 * data, MREMAP_MAYMOVE);
	err = q == MAP_FAILED ? errno : 0;
	if (q != MAP_FAILED)
		munmap(q, 2 * data);
	else
		munmap(p, data);
	check("mremap growing a data mapping", err, EFAULT);

	p = mmap(NULL, page, rw, MAP_SHARED, fd, ctl0);
	err = p == MAP_FAILED ? errno :
	      mprotect(p, page, PROT_READ) || mprotect(p, page, rw) ? errno : 0;
	check("control page: mprotect to read-only and back", err, 0);
	ktap_result(p != MAP_FAILED && child_segfaults(p),
		    "ring mappings are not inherited by fork (VM_DONTCOPY)");

	close(fd);
	fd = fresh_fd();
	memset(&now, 0, sizeof(now));
	skd_dev_info(fd, &now);
	err = p == MAP_FAILED ? -1 :
	      ((struct skd_ring_ctrl *)p)->version == SKD_RING_VERSION ? 0 : -1;
	ktap_result(!err && now.sessions == 2,
		    "a mapping outlives close(): the page still reads, the "
		    "session still counts (%u sessions)", now.sessions);
	if (p != MAP_FAILED)
		munmap(p, page);
	close(fd);
}

int main(void)
{
	pthread_t thread;
	pid_t tid = 0;

	test_device_info(&info);
	page = info.page_size;
	max_rate = sim_max_sample_rate();
	cbuf = guarded_pages(&cguard);
	ebuf = guarded_pages(&eguard);
	ro = mmap(NULL, page, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		return KTAP_FAIL;
	}
	*(uint32_t *)ro = SKD_INFO_SIZE_VER0;
	mprotect(ro, page, PROT_READ);
	if (pthread_create(&thread, NULL, thread_main, &tid)) {
		printf("Bail out! pthread_create failed\n");
		return KTAP_FAIL;
	}
	while (!__atomic_load_n(&tid, __ATOMIC_ACQUIRE))
		sleep_seconds(0.001);

	ktap_plan(NR_CONFIG_CASES + NR_INFO_CASES + NR_PMU_CASES +
		  NR_STATS_CASES + NR_MMAP_CASES + NR_MAPS_CASES);
	run_config_cases(tid);
	info_cases();
	pmu_cases();
	stats_cases();
	read_maps_cases();
	mmap_cases();
	return ktap_finish();
}
