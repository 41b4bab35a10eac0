// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_device's calls on a session fd: open, close and dup, the ioctls
 * other than CONFIG, poll, epoll, read and write.
 */
#include "fuzz.h"

/* errno sets, 0-terminated */
static const int E_INFO[] = { EFAULT, EINVAL, E2BIG, 0 };
static const int E_START[] = { EBADFD, EALREADY, EBUSY, EINVAL, 0 };
static const int E_STOP[] = { EBADFD, EALREADY, EINVAL, 0 };
static const int E_STATS[] = { EFAULT, EINVAL, E2BIG, EBADFD, 0 };
/* ENODEV: no sim module; ENXIO: no such CPU; EOPNOTSUPP: unknown query. */
static const int E_PMU[] = { EFAULT, EINVAL, E2BIG, ENXIO, EOPNOTSUPP, 0 };
/* ENOMEM: the kernel's bounce buffer. */
static const int E_MAPS[] = { EFAULT, EINVAL, E2BIG, EBADFD, ENOMEM, 0 };
static const int E_NOTTY[] = { ENOTTY, 0 };
static const int E_VFS[] = { ENOTTY, EFAULT, EINVAL, 0 };
static const int E_EPOLL[] = { EEXIST, ENOENT, EPERM, EINVAL, 0 };
static const int E_RW[] = { EINVAL, ESPIPE, 0 };

/* ------------------------------------------------------------------ */
/* The other ioctls                                                    */

void op_info(void)
{
	struct skd_info in;
	uint32_t usize = fuzz_size(SKD_INFO_SIZE_VER0, sizeof(in));
	int slot, err;
	bool bad;
	int fd = pick_fd(&slot, &bad);
	struct skd_info *p;
	uint64_t ptr;
	long r;

	memset(&in, 0, sizeof(in));
	in.size = usize;
	p = place(&in, sizeof(in), usize <= page ? usize : 0, true);
	ptr = chance(50) ? fuzz_ptr(usize) : (uintptr_t)p;
	r = ioctl(fd, SKD_IOC_GET_INFO, (void *)(uintptr_t)ptr);
	err = outcome(OP_INFO, r, r ? errno : 0, E_INFO, bad);
	if (ptr != (uintptr_t)p || bad)
		return;
	if (!err && (usize < SKD_INFO_SIZE_VER0 || usize > page))
		failure(F_ACCEPTED, "GET_INFO accepted size %u", usize);
	if (!err && p->size != (usize < sizeof(in) ? usize : sizeof(in)))
		failure(F_ERRNO, "GET_INFO of size %u says it wrote %u", usize,
			p->size);
	if (!err && who == UNPRIV)
		add(&sh->u_info_ok, 1);
	if (err && usize >= SKD_INFO_SIZE_VER0 && usize <= page &&
	    in_scratch(p, usize))
		failure(F_REFUSED, "GET_INFO of size %u: %s", usize, ename(err));
}

void op_pmu(void)
{
	struct skd_pmu_info q;
	uint32_t usize = fuzz_size(SKD_PMU_INFO_SIZE_VER0, sizeof(q));
	const uint64_t backends[] = { 0, 1, 2, 3, 3, 3, 4, 0xffffffff };
	int slot, err;
	bool bad, good;
	int fd = pick_fd(&slot, &bad);
	struct skd_pmu_info *p;
	uint64_t ptr;
	long r;

	memset(&q, 0, sizeof(q));
	q.size = usize;
	q.backend = chance(900) ? PICK(backends) : (uint32_t)rnd();
	q.sim_model = chance(700) ? below(__SKD_SIM_MAX) :
		      chance(700) ? __SKD_SIM_MAX : (uint32_t)rnd();
	if (chance(30))
		q.flags = 1U << below(32);
	if (chance(30))
		q.cpu_signature = (uint32_t)rnd() | 1;
	/* Version 1: one CPU asked about, and output-only words. */
	if (chance(200))
		q.query = chance(700) ? SKD_PMU_QUERY_CPU : 1U << below(32);
	if (q.query & SKD_PMU_QUERY_CPU)
		q.cpu = chance(800) ? below(nr_cpus) :
			chance(500) ? nr_cpus : (uint32_t)rnd();
	if (chance(30))
		q.core_type = 0x20;
	if (chance(30))
		q.arch_lbr_ecx = 1U << below(32);
	/* What lies past the caller's size is not read: zero for the module. */
	if (usize >= SKD_PMU_INFO_SIZE_VER0 && usize < sizeof(q))
		memset((uint8_t *)&q + usize, 0, sizeof(q) - usize);
	p = place(&q, sizeof(q), usize <= page ? usize : 0, true);
	ptr = chance(50) ? fuzz_ptr(usize) : (uintptr_t)p;
	good = usize >= SKD_PMU_INFO_SIZE_VER0 && usize <= page &&
	       !q.flags && !q.cpu_signature && !q.core_type &&
	       !q.arch_lbr_ecx && !(q.query & ~SKD_PMU_QUERY_CPU) &&
	       (!q.query || q.cpu < nr_cpus) &&
	       ((q.backend == SKD_BACKEND_INTEL && !q.sim_model) ||
		(q.backend == SKD_BACKEND_SIM && q.sim_model < __SKD_SIM_MAX));
	r = ioctl(fd, SKD_IOC_GET_PMU, (void *)(uintptr_t)ptr);
	err = outcome(OP_PMU, r, r ? errno : 0, E_PMU, bad);
	if (ptr != (uintptr_t)p || bad)
		return;
	if (!err && !good)
		failure(F_ACCEPTED, "GET_PMU accepted size %u backend %u model "
			"%u flags 0x%x signature 0x%x", usize, q.backend,
			q.sim_model, q.flags, q.cpu_signature);
	if (!err && p->size != (usize < sizeof(q) ? usize : sizeof(q)))
		failure(F_ERRNO, "GET_PMU of size %u says it wrote %u", usize,
			p->size);
}

void op_stats(void)
{
	struct skd_stats q;
	uint32_t usize = fuzz_size(SKD_STATS_SIZE_VER0, sizeof(q));
	const uint64_t strides[] = {
		0, 8, 63, 64, 64, 64, 65, 72, 128, page, page + 1, 0xffffffff,
	};
	const uint64_t counts[] = { 0, 1, nr_cpus - 1, nr_cpus, nr_cpus + 1, 64,
		0xffffffff };
	int slot, err;
	bool bad, good;
	int fd = pick_fd(&slot, &bad);
	struct sess *s = slot_sess(slot);
	uint64_t ptr, room;
	uint8_t *arr;
	void *p;
	long r;

	memset(&q, 0, sizeof(q));
	q.size = usize;
	q.nr_cpus = chance(700) ? nr_cpus : PICK(counts);
	q.cpu_stats_size = chance(700) ? sizeof(struct skd_cpu_stats) :
			   PICK(strides);
	if (chance(30))
		q.reserved0 = 1U << below(32);
	/* The array at the start of the scratch area, the struct after it. */
	arr = scratch;
	room = scratch_len / 2;
	q.cpus_ptr = chance(900) ? (uintptr_t)arr : fuzz_ptr(64);
	p = place_from(room, &q, sizeof(q), usize <= page ? usize : 0,
		       chance(100));
	ptr = chance(30) ? fuzz_ptr(usize) : (uintptr_t)p;
	good = s && s->configured && usize >= SKD_STATS_SIZE_VER0 &&
	       usize <= page && !q.reserved0 && !placed_dirty &&
	       q.cpu_stats_size >= SKD_CPU_STATS_SIZE_VER0 &&
	       q.cpu_stats_size <= page;
	r = ioctl(fd, SKD_IOC_GET_STATS, (void *)(uintptr_t)ptr);
	err = outcome(OP_STATS, r, r ? errno : 0, E_STATS, bad);
	/* A child's idea of what is configured is as old as the fork. */
	if (ptr != (uintptr_t)p || bad || !s || in_kid)
		return;
	if (!err && !good)
		failure(F_ACCEPTED, "GET_STATS accepted size %u, stride %u, "
			"reserved0 0x%x, configured %d", usize,
			q.cpu_stats_size, q.reserved0, s->configured);
	if (err == EFAULT || !good || q.cpus_ptr != (uintptr_t)arr ||
	    !in_scratch(p, usize) ||
	    (uint64_t)(q.nr_cpus < nr_cpus ? q.nr_cpus : nr_cpus) *
	    q.cpu_stats_size > room)
		return;
	if (err)
		failure(F_REFUSED, "GET_STATS (size %u, %u CPUs, stride %u): %s",
			usize, q.nr_cpus, q.cpu_stats_size, ename(err));
	else if (((struct skd_stats *)p)->nr_cpus != nr_cpus)
		failure(F_ERRNO, "GET_STATS says %u CPUs, GET_INFO %u",
			((struct skd_stats *)p)->nr_cpus, nr_cpus);
}

/*
 * SKD_IOC_READ_MAPS: sizes, flags, buffer lengths and cursors at random;
 * a well-formed call on a configured session returns whole records that
 * fit the buffer.
 */
void op_read_maps(void)
{
	const uint64_t lens[] = { 0, 8, SKD_READ_MAPS_MIN_BUF - 8,
		SKD_READ_MAPS_MIN_BUF, SKD_READ_MAPS_MIN_BUF + 8, 65536,
		0xffffffff };
	struct skd_read_maps q;
	uint32_t usize = fuzz_size(SKD_READ_MAPS_SIZE_VER0, sizeof(q));
	int slot, err;
	bool bad, good, invalid;
	int fd = pick_fd(&slot, &bad);
	struct sess *s = slot_sess(slot);
	uint8_t *buf = scratch;
	uint64_t room = scratch_len / 2, ptr;
	void *p;
	long r;

	memset(&q, 0, sizeof(q));
	q.size = usize;
	q.buf_len = chance(700) ? SKD_READ_MAPS_MIN_BUF : (uint32_t)PICK(lens);
	if (q.buf_len > room && chance(900))
		q.buf_len = (uint32_t)room;
	q.buf_ptr = chance(900) ? (uintptr_t)buf : fuzz_ptr(64);
	if (chance(30))
		q.flags = 1U << below(32);
	if (chance(100)) {
		q.cursor_pid = rnd();
		q.cursor_addr = rnd();
	}
	p = place_from(room, &q, sizeof(q), usize <= page ? usize : 0,
		       chance(100));
	ptr = chance(30) ? fuzz_ptr(usize) : (uintptr_t)p;
	/* What the ABI calls invalid; a buffer it need not touch is not. */
	invalid = !s || !s->configured || usize < SKD_READ_MAPS_SIZE_VER0 ||
		  usize > page || q.flags || placed_dirty ||
		  q.buf_len < SKD_READ_MAPS_MIN_BUF;
	good = !invalid && q.buf_len <= room && q.buf_ptr == (uintptr_t)buf;
	r = ioctl(fd, SKD_IOC_READ_MAPS, (void *)(uintptr_t)ptr);
	err = outcome(OP_MAPS, r, r ? errno : 0, E_MAPS, bad);
	if (ptr != (uintptr_t)p || bad || !s || in_kid || !in_scratch(p, usize))
		return;
	if (!err && invalid)
		failure(F_ACCEPTED, "READ_MAPS accepted size %u, flags 0x%x, "
			"buffer %u, configured %d", usize, q.flags, q.buf_len,
			s->configured);
	if (!err && ((struct skd_read_maps *)p)->bytes > q.buf_len)
		failure(F_ERRNO, "READ_MAPS wrote %u bytes into %u",
			((struct skd_read_maps *)p)->bytes, q.buf_len);
	if (err && good && err != ENOMEM && err != EFAULT)
		failure(F_REFUSED, "READ_MAPS (size %u, buffer %u): %s", usize,
			q.buf_len, ename(err));
}

void op_start_stop(enum op op)
{
	int slot, err;
	bool bad;
	int fd = pick_fd(&slot, &bad);
	unsigned long arg = chance(900) ? 0 : interesting64() | 1;
	long r;

	r = ioctl(fd, op == OP_START ? SKD_IOC_START : SKD_IOC_STOP, arg);
	err = outcome(op, r, r ? errno : 0, op == OP_START ? E_START : E_STOP,
		      bad);
	if (bad || !slot_sess(slot))
		return;
	if (arg && err != EINVAL)
		failure(err ? F_ERRNO : F_ACCEPTED, "%s with argument %#lx: %s",
			op_names[op], arg, ename(err));
	if (!arg && !in_kid && !slot_sess(slot)->configured && err != EBADFD)
		failure(F_ERRNO, "%s before CONFIG: %s, not EBADFD",
			op_names[op], ename(err));
	if (!err && op == OP_START)
		add(&sh->starts_ok, 1);
}

static bool known_cmd(unsigned long cmd)
{
	return cmd == SKD_IOC_GET_INFO || cmd == SKD_IOC_CONFIG ||
	       cmd == SKD_IOC_START || cmd == SKD_IOC_STOP ||
	       cmd == SKD_IOC_GET_STATS || cmd == SKD_IOC_GET_PMU ||
	       cmd == SKD_IOC_READ_MAPS;
}

/* ioctl types the VFS itself answers on any file: never sent at random. */
static bool vfs_type(unsigned int type)
{
	return type == 0x00 || type == 0x12 || type == 0x15 || type == 0x54 ||
	       type == 0x58 || type == 0x66 || type == 0x94 ||
	       type == SKD_IOC_MAGIC;
}

void op_ioctl(enum op op)
{
	int slot;
	bool bad;
	int fd = pick_fd(&slot, &bad);
	unsigned long cmd;
	const int *allowed = E_NOTTY;
	int arg_int = (int)below(2);
	void *arg;
	long r;

	if (op == OP_IOCTL_SKD) {
		do {
			cmd = _IOC(below(4), SKD_IOC_MAGIC, chance(500) ?
				   below(16) : below(256), chance(500) ? 0 :
				   below(1 << 14));
		} while (known_cmd(cmd));
	} else if (op == OP_IOCTL_ANY) {
		unsigned int type;

		do {
			type = below(256);
		} while (vfs_type(type));
		cmd = _IOC(below(4), type, below(256), below(1 << 14));
		if (chance(100))
			cmd = (uint32_t)rnd();
		if (vfs_type(_IOC_TYPE(cmd)))
			cmd = _IOC(0, 0xee, 0, 0);
	} else {
		const unsigned long vfs[] = {
			FIONBIO, FIOCLEX, FIONCLEX, FIOASYNC, FIONREAD, FIOQSIZE,
		};

		cmd = vfs[below(6)];
		allowed = E_VFS;
	}
	arg = chance(500) ? &arg_int : (void *)(uintptr_t)fuzz_ptr(64);
	r = ioctl(fd, cmd, arg);
	outcome(op, r, r ? errno : 0, allowed, bad);
}

/* ------------------------------------------------------------------ */
/* Opening and closing                                                 */

void op_open(void)
{
	const int accs[] = { O_RDWR, O_RDWR, O_RDWR, O_RDWR, O_RDWR, O_RDONLY,
			     O_WRONLY, O_PATH };
	int acc = accs[below(8)], s, fd, err;

	if (nr_slots >= MAX_OPEN || nr_slots >= MAX_SLOTS)
		return;
	fd = open(SKD_DEVICE_PATH, acc | (chance(200) ? O_NONBLOCK : 0) |
		  (chance(500) ? O_CLOEXEC : 0));
	err = outcome(OP_OPEN, fd < 0 ? -1 : 0, errno, E_NONE, false);
	if (err) {
		failure(F_REFUSED, "root could not open %s: %s",
			SKD_DEVICE_PATH, ename(err));
		return;
	}
	s = acc == O_PATH ? -1 : sess_new();
	if (acc != O_PATH && s < 0) {
		close(fd);
		return;
	}
	slot_add(fd, s, acc == O_PATH ? O_RDONLY : acc, false);
}

void op_close(void)
{
	int i, r;

	if (!nr_slots)
		return;
	i = below(nr_slots);
	if (slots[i].orig)
		return;
	r = close(slots[i].fd);
	outcome(OP_CLOSE, r, errno, E_NONE, false);
	slot_del(i);
}

void op_dup(void)
{
	int i, fd;

	if (!nr_slots || nr_slots >= MAX_SLOTS)
		return;
	i = below(nr_slots);
	fd = dup(slots[i].fd);
	if (outcome(OP_DUP, fd < 0 ? -1 : 0, errno, E_NONE, false))
		return;
	slot_add(fd, slots[i].sess, slots[i].acc, false);
}

/* ------------------------------------------------------------------ */
/* poll, epoll, read/write                                             */

void op_poll(void)
{
	struct pollfd pf[MAX_SLOTS + 1];
	int n = 0, i, r, err;
	short want = chance(800) ? POLLIN : (short)rnd();

	for (i = 0; i < nr_slots; i++)
		pf[n++] = (struct pollfd){ .fd = slots[i].fd, .events = want };
	if (chance(100) || !n)
		pf[n++] = (struct pollfd){ .fd = BOGUS_FD, .events = POLLIN };
	r = poll(pf, n, chance(950) ? 0 : 1);
	err = outcome(OP_POLL, r < 0 ? -1 : 0, errno, E_NONE, false);
	if (err)
		return;
	for (i = 0; i < n; i++) {
		struct sess *s = i < nr_slots ? slot_sess(i) : NULL;
		short ok = s ? POLLIN | POLLRDNORM : POLLNVAL;

		if (pf[i].revents & ~ok)
			failure(F_ERRNO, "poll: revents 0x%x on %s", pf[i].revents,
				s ? "a session" : "no session");
		if (s && !in_kid && !s->configured && pf[i].revents)
			failure(F_ERRNO, "poll: revents 0x%x before CONFIG",
				pf[i].revents);
	}
}

void op_epoll(void)
{
	struct epoll_event ev = { .events = EPOLLIN }, out[4];
	int slot, r, ctl;
	bool bad;

	if (epfd < 0 || chance(50)) {
		if (epfd >= 0) {
			r = close(epfd);
			outcome(OP_EPOLL, r, errno, E_NONE, false);
		}
		epfd = epoll_create1(EPOLL_CLOEXEC);
		outcome(OP_EPOLL, epfd < 0 ? -1 : 0, errno, E_NONE, false);
		return;
	}
	if (chance(500)) {
		int fd = pick_fd(&slot, &bad);

		ctl = (int[]){ EPOLL_CTL_ADD, EPOLL_CTL_MOD, EPOLL_CTL_DEL }
			[below(3)];
		ev.events = chance(700) ? EPOLLIN : (uint32_t)rnd() &
			    ~(EPOLLEXCLUSIVE | EPOLLWAKEUP);
		r = epoll_ctl(epfd, ctl, fd, &ev);
		outcome(OP_EPOLL, r, errno, E_EPOLL, bad);
		return;
	}
	r = epoll_wait(epfd, out, 4, 0);
	outcome(OP_EPOLL, r < 0 ? -1 : 0, errno, E_NONE, false);
}

void op_rw(void)
{
	char buf[64];
	int slot, which = below(4);
	bool bad;
	int fd = pick_fd(&slot, &bad);
	long r;

	/* Which of them the open mode allows does not matter: EBADF is fine. */
	if (slot >= 0 && slots[slot].acc != O_RDWR)
		bad = true;
	if (which == 0)
		r = read(fd, buf, below(sizeof(buf)));
	else if (which == 1)
		r = write(fd, buf, below(sizeof(buf)));
	else if (which == 2)
		r = pread(fd, buf, sizeof(buf), 0);
	else
		r = lseek(fd, below(4096), SEEK_SET);
	outcome(OP_RW, r < 0 ? -1 : 0, errno, E_RW, bad);
	if (r >= 0 && !bad)
		failure(F_ACCEPTED, "%s on the device returned %ld",
			(const char *[]){ "read", "write", "pread", "lseek" }[which],
			r);
}
