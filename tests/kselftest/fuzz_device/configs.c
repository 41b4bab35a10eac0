// SPDX-License-Identifier: GPL-2.0
/*
 * SKD_IOC_CONFIG for fuzz_device: configs meant to work, configs with
 * one change the ABI says makes them invalid, and junk, each result
 * judged against which of them it was.
 */
#include "fuzz.h"

/* errno sets, 0-terminated */
static const int E_CONFIG[] = { EFAULT, EINVAL, E2BIG, EOPNOTSUPP, ERANGE,
	ENODEV, ESRCH, EBUSY, ENXIO, ENOSPC, EPERM, ENOMEM, 0 };

/* ------------------------------------------------------------------ */
/* Configs                                                             */

static uint32_t ring_pages_pick(void)
{
	unsigned int lg = 0;

	if (chance(2)) {
		while ((2ULL << lg) <= max_ring_pages)
			lg++;
		return 1U << below(lg + 1);
	}
	return 1U << below(4);
}

static void cpumask_pick(struct skd_config *c)
{
	unsigned int words = 1 + below(3);
	uint64_t m;

	do {
		m = rnd() & possible_mask;
	} while (!m);
	memset(mask_buf, 0, words * 8);
	mask_buf[0] = m;
	c->cpumask_bytes = words * 8;
	c->cpumask_ptr = (uintptr_t)mask_buf;
}

static void good_timer(struct skd_config *c)
{
	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	c->backend = info.default_backend == SKD_BACKEND_TIMER && chance(300) ?
		     SKD_BACKEND_DEFAULT : SKD_BACKEND_TIMER;
	c->ring_pages = ring_pages_pick();
	if (chance(600)) {
		c->flags |= SKD_CFG_FREQ;
		c->sample_freq = chance(20) ? info.max_freq : 1 + below(1000);
	} else {
		c->sample_period = chance(20) ? min_period_ns :
				   1000000 + below(1000000000);
	}
	if (chance(300))
		c->wakeup_bytes = below((uint64_t)c->ring_pages * page / 2 + 1);
	if (chance(500))
		c->callchain_depth = below(SKD_MAX_CALLCHAIN + 1);
	if (chance(100))
		c->flags |= SKD_CFG_NO_SIDEBAND;
	if (chance(100))
		c->flags |= chance(500) ? SKD_CFG_EXCLUDE_USER :
					  SKD_CFG_EXCLUDE_KERNEL;
	if (chance(100)) {
		c->flags |= SKD_CFG_PID;
		c->pid = getpid();
		/* A child that may be gone by now: then ESRCH is right. */
		if (nr_kids && chance(500)) {
			c->pid = kids[below(nr_kids)];
			pid_may_vanish = true;
		}
	}
	/* Idle samples, system-wide only (EINVAL with a pid). */
	if (chance(100) && !(c->flags & SKD_CFG_PID))
		c->flags |= SKD_CFG_IDLE;
	if (chance(200))
		cpumask_pick(c);
	/* Version 2: user registers and stack, any valid size. */
	if (chance(150))
		c->user_stack_bytes = chance(300) ? SKD_MAX_USER_STACK :
				      8 * below(SKD_MAX_USER_STACK / 8 + 1);
}

/* Events every sim model places on its counters without PEBS. */
static const uint64_t safe_events[] = { 0x003c, 0x00c0, 0x00c4, 0x00c5 };

/* A timer config moved to the sim backend: the model asked for, or any. */
static void sim_base(struct skd_config *c)
{
	good_timer(c);
	c->backend = SKD_BACKEND_SIM;
	/* Idle samples are the timer's (EINVAL here). */
	c->flags &= ~SKD_CFG_IDLE;
	c->sim_model = sim_model_arg ? sim_model_arg : below(__SKD_SIM_MAX);
	/* A hybrid model's session takes one core type: CPU 0's. */
	if (c->sim_model == SKD_SIM_ALDERLAKE) {
		memset(mask_buf, 0, 8);
		mask_buf[0] = 1;
		c->cpumask_bytes = 8;
		c->cpumask_ptr = (uintptr_t)mask_buf;
	}
}

static void good_sim(struct skd_config *c)
{
	unsigned int i, n = 1 + below(2);

	sim_base(c);
	if (c->flags & SKD_CFG_FREQ)
		c->sample_freq = 1 + below(1000);
	else
		c->sample_period = 200000 + below(10000000);
	memset(ev_buf, 0, sizeof(ev_buf));
	for (i = 0; i < n; i++) {
		ev_buf[i].size = sizeof(ev_buf[i]);
		ev_buf[i].config = PICK(safe_events);
		if (chance(300))
			ev_buf[i].sample_period = 100000 + below(10000000);
		/*
		 * An event's exclusion joins the session's, so a valid one
		 * is the session's own, or either mode when the session
		 * excludes none (both would leave nothing to count).
		 */
		if (!chance(100))
			continue;
		if (c->flags & SKD_CFG_EXCLUDE_USER)
			ev_buf[i].flags = SKD_EV_EXCLUDE_USER;
		else if (c->flags & SKD_CFG_EXCLUDE_KERNEL || chance(500))
			ev_buf[i].flags = SKD_EV_EXCLUDE_KERNEL;
		else
			ev_buf[i].flags = SKD_EV_EXCLUDE_USER;
	}
	c->events_ptr = (uintptr_t)ev_buf;
	c->nr_events = n;
	c->event_attr_size = sizeof(ev_buf[0]);
}

/* Encodings from the models' tables, pseudo encodings and unknown ones. */
static const uint64_t pmu_events[] = {
	0x003c, 0x00c0, 0x01c0, 0x00c2, 0x01c2, 0x02c2, 0x00c4, 0x00c5, 0x81d0,
	0x82d0, 0x08d1, 0x10d1, 0x20d1, 0x01cd, 0x0300, 0x0400, 0x0100, 0x0001,
	0x1234,
};

/* A number between 1 and 2^@bits, each power of two as likely. */
static uint64_t log_uniform(unsigned int bits)
{
	unsigned int b = below(bits);

	return (1ULL << b) + below(1ULL << b);
}

/*
 * A config for the sim backend that may or may not be placeable: PEBS,
 * load latency, LBR filters, many events, tiny periods, frequencies.
 * Only its errno is judged; when it is accepted it samples hard.
 */
static void plausible_pmu(struct skd_config *c)
{
	unsigned int i, n = 1 + below(chance(200) ? SKD_MAX_EVENTS : 4);

	sim_base(c);
	if (c->flags & SKD_CFG_FREQ)
		c->sample_freq = 1 + below(5000);
	else
		c->sample_period = 1000 + log_uniform(24);
	if (chance(300))
		c->branch_sample = rnd() & __SKD_BRANCH_ALL;
	memset(ev_buf, 0, sizeof(ev_buf));
	for (i = 0; i < n; i++) {
		struct skd_event_attr *e = &ev_buf[i];

		e->size = sizeof(*e);
		e->config = PICK(pmu_events);
		if (chance(50))
			e->config |= (rnd() & 1) << 18 | (rnd() & 1) << 23 |
				     below(4) << 24;
		if (chance(400))
			e->precise = 1 + below(3);
		if (e->config == 0x01cd && chance(900))
			e->ldlat = 1 + below(500);
		if (chance(200)) {
			e->flags |= SKD_EV_FREQ;
			e->sample_freq = 1 + below(20000);
		} else if (chance(500)) {
			e->sample_period = chance(50) ? 1 + below(100) :
					   log_uniform(24);
		}
		if (chance(100))
			e->flags |= chance(500) ? SKD_EV_EXCLUDE_USER :
						  SKD_EV_EXCLUDE_KERNEL;
	}
	c->events_ptr = (uintptr_t)ev_buf;
	c->nr_events = n;
	c->event_attr_size = sizeof(ev_buf[0]);
}

static void good_config(struct skd_config *c)
{
	if (sim_mode ? chance(800) : chance(150))
		good_sim(c);
	else
		good_timer(c);
}

/* One change that the ABI says makes @c invalid. */
static void corrupt(struct skd_config *c, bool sim)
{
	uint64_t ring_bytes = (uint64_t)c->ring_pages * page;
	unsigned int ne = c->nr_events && c->nr_events <= SKD_MAX_EVENTS ?
			  c->nr_events : 1;
	struct skd_event_attr *e = &ev_buf[below(ne)];
	unsigned int k = below(sim ? 30 : 24), bit;

	switch (k) {
	case 0:
		if (!chance(200)) {
			c->flags |= 1U << (6 + below(26));
			break;
		}
		/* Idle samples of a PMU, or of a followed process. */
		c->flags |= SKD_CFG_IDLE;
		if (!sim) {
			c->flags |= SKD_CFG_PID;
			c->pid = getpid();
		}
		break;
	case 1:
		switch (below(4)) {
		case 0:
			c->reserved1 = (uint32_t)interesting64() | 1;
			break;
		case 1:
			/* Not a multiple of 8, or above the limit. */
			c->user_stack_bytes = chance(500) ?
				8 * below(SKD_MAX_USER_STACK / 8) + 1 + below(7) :
				SKD_MAX_USER_STACK + 1 + below(~0U - SKD_MAX_USER_STACK - 1);
			break;
		default:
			c->reserved[below(4)] = interesting64() | 1;
			break;
		}
		break;
	case 2:
		c->backend = __SKD_BACKEND_MAX + below(chance(500) ? 4 : 1U << 31);
		break;
	case 3:
		c->ring_pages = chance(300) ? 0 : (1U << below(20)) | 3;
		if (c->ring_pages == 3 && chance(500))
			c->ring_pages = 0x80000001;
		break;
	case 4: {
		uint64_t over = max_ring_pages + 1, p2 = 1;

		while (p2 < over)
			p2 <<= 1;
		c->ring_pages = p2 <= (1U << 31) ? p2 : 0;
		break;
	}
	case 5:
		c->wakeup_bytes = ring_bytes / 2 + 1 + below(ring_bytes);
		break;
	case 6:
		c->callchain_depth = SKD_MAX_CALLCHAIN + 1 +
				     below(chance(500) ? 8 : 1U << 31);
		break;
	case 7:
		c->flags |= SKD_CFG_EXCLUDE_USER | SKD_CFG_EXCLUDE_KERNEL;
		break;
	case 8:
		c->flags |= SKD_CFG_PID;
		c->pid = chance(300) ? 0 : chance(500) ? -1 - (int)below(5) :
			 0x7fffffff - (int)below(3);
		break;
	case 9:
		c->flags &= ~SKD_CFG_PID;
		c->pid = chance(500) ? getpid() : (int)rnd() | 1;
		break;
	case 10:
		c->cpumask_ptr = (uintptr_t)mask_buf;
		mask_buf[0] = 1;
		c->cpumask_bytes = chance(300) ? 0 : chance(500) ?
				   1 + below(7) :
				   8 * (1 + below(128)) + 1 + below(7);
		break;
	case 11:
		c->cpumask_ptr = (uintptr_t)mask_buf;
		c->cpumask_bytes = SKD_CPUMASK_MAX_BYTES + 8 * (1 + below(4));
		break;
	case 12:
		c->cpumask_bytes = 8 * (1 + below(4));
		do {
			c->cpumask_ptr = fuzz_ptr(c->cpumask_bytes);
		} while ((uint8_t *)(uintptr_t)c->cpumask_ptr >= scratch &&
			 (uint8_t *)(uintptr_t)c->cpumask_ptr +
			 c->cpumask_bytes <= guard);
		if (c->cpumask_ptr >= (uintptr_t)ro_page &&
		    c->cpumask_ptr < (uintptr_t)ro_page + page)
			c->cpumask_ptr = 0;
		break;
	case 13:
		c->cpumask_bytes = 8 * (1 + below(4));
		memset(mask_buf, 0, c->cpumask_bytes);
		c->cpumask_ptr = (uintptr_t)mask_buf;
		break;
	case 14:
		c->cpumask_bytes = 8 * (1 + below(SKD_CPUMASK_MAX_BYTES / 8));
		if (c->cpumask_bytes * 8 <= nr_cpus)
			c->cpumask_bytes = (nr_cpus / 64 + 1) * 8;
		memset(mask_buf, 0, c->cpumask_bytes);
		bit = nr_cpus + below(c->cpumask_bytes * 8 - nr_cpus);
		mask_buf[bit / 64] |= 1ULL << (bit % 64);
		if (chance(500))
			mask_buf[0] |= 1;
		c->cpumask_ptr = (uintptr_t)mask_buf;
		break;
	case 15:
		c->nr_events = SKD_MAX_EVENTS + 1 + below(chance(500) ? 4 :
							  1U << 31);
		c->events_ptr = (uintptr_t)ev_buf;
		c->event_attr_size = sizeof(ev_buf[0]);
		break;
	case 16:
		c->nr_events = 0;
		c->events_ptr = (uintptr_t)ev_buf;
		if (chance(500))
			c->event_attr_size = 0;
		break;
	case 17:
		c->nr_events = 0;
		c->events_ptr = 0;
		c->event_attr_size = 1 + below(100);
		break;
	case 18:
		c->sim_model = __SKD_SIM_MAX + below(chance(500) ? 4 : 1U << 31);
		break;
	case 19:
		c->branch_sample |= 1U << (10 + below(22));
		break;
	case 20:
		/* A backend without a PMU here, or the timer asked for PMU things. */
		if (!intel_usable && chance(300)) {
			c->backend = SKD_BACKEND_INTEL;
			break;
		}
		if (sim) {
			c->nr_events = 0;
			c->events_ptr = 0;
			c->event_attr_size = 0;
		} else if (chance(500)) {
			c->sim_model = 1 + below(__SKD_SIM_MAX - 1);
		} else {
			c->branch_sample = 1U << below(10);
		}
		break;
	case 21:
		if (sim) {
			c->flags &= ~SKD_CFG_FREQ;
			c->sample_period = 0;
			e->sample_period = 0;
			e->flags &= ~SKD_EV_FREQ;
			for (e = ev_buf; e < ev_buf + ne; e++)
				e->sample_period = 0;
		} else if (c->flags & SKD_CFG_FREQ) {
			c->sample_freq = chance(300) ? 0 :
				info.max_freq + 1 + below(chance(500) ? 100 : ~0U);
		} else {
			c->sample_period = chance(300) ? 0 :
				min_period_ns - 1 - below(min_period_ns);
		}
		break;
	case 22:
		c->size = below(SKD_CONFIG_SIZE_VER0);
		break;
	case 23:
		c->size = page + 1 + below(chance(500) ? 64 : ~0U - page - 1);
		break;
	/* the PMU backends' event attributes */
	case 24:
		c->event_attr_size = chance(500) ? below(SKD_EVENT_ATTR_SIZE_VER0) :
				     page + 1 + below(page);
		break;
	case 25:
		e->flags |= 1U << (3 + below(29));
		break;
	case 26:
		if (chance(300))
			e->reserved1 = (uint32_t)rnd() | 1;
		else
			e->reserved0[below(3)] = 1 + below(255);
		break;
	case 27:
		/*
		 * USR, OS, PC, INT, EN, or above bit 31. Not EDGE, which is
		 * the user's, nor ANY, which perfmon v3 and v4 take.
		 */
		bit = chance(500) ? 16 + below(7) : 32 + below(32);
		if (bit == 18)
			bit = 19;
		if (bit == 21)
			bit = 20;
		e->config |= 1ULL << bit;
		break;
	case 28:
		switch (below(4)) {
		case 0:
			e->precise = 4 + below(252);
			break;
		case 1:
			e->flags |= SKD_EV_EXCLUDE_USER | SKD_EV_EXCLUDE_KERNEL;
			break;
		case 2:
			/* An event whose size is not the array's stride. */
			e->size = chance(300) ? 0 : c->event_attr_size + 1 +
						   below(chance(500) ? 8 : ~0U - 64);
			break;
		default:
			e->ldlat = 1 + below(0xffff);
			break;
		}
		break;
	default:
		do {
			c->events_ptr = fuzz_ptr(c->nr_events *
						 c->event_attr_size);
		} while ((uint8_t *)(uintptr_t)c->events_ptr >= scratch &&
			 (uint8_t *)(uintptr_t)c->events_ptr <= guard);
		if (c->events_ptr >= (uintptr_t)ro_page &&
		    c->events_ptr < (uintptr_t)ro_page + page)
			c->events_ptr = 0;
		break;
	}
}

/* @c at its address @p with size @usize was refused: was it meant to? */
static void config_result(int slot, const struct skd_config *c, uint32_t usize,
			  int err, bool meant_ok, bool meant_bad)
{
	struct sess *s = slot_sess(slot);

	if (!s)
		return;
	if (!err) {
		if (meant_bad)
			failure(F_ACCEPTED, "CONFIG accepted a corrupted config "
				"(backend %u, size %u, ring_pages %u)",
				c->backend, usize, c->ring_pages);
		else if (s->configured)
			failure(F_ACCEPTED, "CONFIG accepted twice on one session");
		s->configured = true;
		s->ring_pages = c->ring_pages;
		add(&sh->configs_ok, 1);
		return;
	}
	/* Large rings, and PEBS buffers (64 KiB per CPU), may not be had. */
	if (err == ENOMEM && c->ring_pages < 512 &&
	    c->backend != SKD_BACKEND_SIM)
		failure(F_ERRNO, "CONFIG: ENOMEM with %u ring pages",
			c->ring_pages);
	if (meant_ok && s->configured && err != EBUSY)
		failure(F_REFUSED, "CONFIG of a configured session: %s, not "
			"EBUSY", ename(err));
	if (meant_ok && !s->configured && err != ENOMEM &&
	    !(err == ESRCH && pid_may_vanish))
		failure(F_REFUSED, "CONFIG refused a valid config: %s (backend "
			"%u, model %u, ring_pages %u, flags 0x%x, %u events)",
			ename(err), c->backend, c->sim_model, c->ring_pages,
			c->flags, c->nr_events);
}

void op_config(enum op op)
{
	struct skd_config c;
	uint8_t junk[sizeof(c) + 64];
	bool bad, meant_ok = false, meant_bad = false, sim = false;
	int slot, err, fd = pick_fd(&slot, &bad);
	uint32_t usize;
	uint64_t ptr;
	void *p;
	long r;

	pid_may_vanish = false;
	if (op == OP_CONFIG_PMU) {
		plausible_pmu(&c);
		usize = sizeof(c);
	} else if (op == OP_CONFIG_JUNK) {
		for (size_t i = 0; i < sizeof(junk); i += 8) {
			uint64_t v = chance(300) ? interesting64() : rnd();

			memcpy(junk + i, &v, 8);
		}
		memcpy(&c, junk, sizeof(c));
		usize = fuzz_size(SKD_CONFIG_SIZE_VER0, sizeof(c));
		c.size = usize;
		if (chance(500))
			c.events_ptr = fuzz_ptr(64);
		if (chance(500))
			c.cpumask_ptr = fuzz_ptr(64);
		if (chance(300)) {
			c.events_ptr = (uintptr_t)ev_buf;
			c.nr_events = below(SKD_MAX_EVENTS + 2);
			c.event_attr_size = sizeof(ev_buf[0]);
		}
	} else {
		good_config(&c);
		sim = c.backend == SKD_BACKEND_SIM;
		usize = c.size;
		/*
		 * Version 0 sizes leave out the events the sim needs, and
		 * the fields a corruption may land in.
		 */
		if (op == OP_CONFIG_BAD)
			usize = sizeof(c);
		else if (chance(50) && !sim)
			usize = SKD_CONFIG_SIZE_VER0 + below(4) * 4;
		else if (chance(50))
			usize = sizeof(c) + 4 * below((page - sizeof(c)) / 4 + 1);
		c.size = usize;
		if (op == OP_CONFIG_BAD) {
			unsigned int n = 1 + (chance(200) ? below(3) : 0);

			while (n--)
				corrupt(&c, sim);
			usize = c.size;
			meant_bad = true;
		} else {
			meant_ok = !bad;
		}
	}
	/* Only a size the kernel may read is followed by zeros. */
	p = place(&c, sizeof(c), usize <= page ? usize : 0,
		  op == OP_CONFIG_JUNK);
	if (meant_ok && !in_scratch(p, usize > sizeof(c) ? usize : sizeof(c)))
		meant_ok = false;
	if (meant_bad && !in_scratch(p, usize > sizeof(c) ? usize : sizeof(c)) &&
	    usize >= SKD_CONFIG_SIZE_VER0 && usize <= page)
		meant_bad = false;	/* EFAULT instead, which is a refusal */
	ptr = chance(20) ? fuzz_ptr(usize) : (uintptr_t)p;
	if (ptr != (uintptr_t)p)
		meant_ok = false;
	r = ioctl(fd, SKD_IOC_CONFIG, (void *)(uintptr_t)ptr);
	err = outcome(op, r, r ? errno : 0, E_CONFIG, bad);
	if (!bad && ptr == (uintptr_t)p && op != OP_CONFIG_JUNK) {
		config_result(slot, &c, usize, err, meant_ok, meant_bad);
	} else if (!bad && !err && slot_sess(slot)) {
		/* Configured from bytes we did not choose: size unknown. */
		slot_sess(slot)->configured = true;
		slot_sess(slot)->ring_pages = 0;
		add(&sh->configs_ok, 1);
	}
}
