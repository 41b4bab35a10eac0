// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_device's calls on the ring mappings: mmap, munmap, mprotect,
 * mremap and madvise on any layout, then reading, draining and
 * scribbling on what was mapped.
 */
#include "fuzz.h"

/* errno sets, 0-terminated */
static const int E_MMAP[] = { EBADFD, EINVAL, EPERM, EACCES, ENOMEM,
	EOVERFLOW, EOPNOTSUPP, EAGAIN, 0 };
static const int E_MPROTECT[] = { EACCES, 0 };
static const int E_MREMAP[] = { EFAULT, EINVAL, ENOMEM, EAGAIN, 0 };
static const int E_MADVISE[] = { EINVAL, EFAULT, ENOMEM, EPERM, EACCES, EAGAIN,
	EIO, EOPNOTSUPP, ENODEV, EBADF, 0 };

/* ------------------------------------------------------------------ */
/* mmap and friends                                                    */

/* 0: configured from bytes the fuzzer did not choose, size unknown. */
static size_t data_bytes(const struct sess *s)
{
	return (size_t)s->ring_pages * page;
}

void op_mmap(void)
{
	const int prots[] = { PROT_READ, PROT_READ | PROT_WRITE, PROT_NONE,
		PROT_WRITE, PROT_READ | PROT_EXEC,
		PROT_READ | PROT_WRITE | PROT_EXEC };
	int slot, err, prot, flags, region, fixed = -1;
	bool bad, valid, judge;
	int fd = pick_fd(&slot, &bad);
	struct sess *s = slot_sess(slot);
	uint64_t cpu, off, len, data = s && s->configured ?
		data_bytes(s) : page * (1 << below(4));
	uint8_t *addr = NULL, *p;

	cpu = chance(900) ? below(nr_cpus) :
	      (uint64_t[]){ nr_cpus, 255, 1 << 20, rnd() & 0xffffffff }[below(4)];
	region = chance(470) ? SKD_MMAP_CONTROL : chance(890) ?
		 SKD_MMAP_DATA : (int[]){ 2, 3, 255, (int)below(256) }[below(4)];
	off = SKD_MMAP_OFFSET(cpu, region);
	if (chance(60))
		off += page * (1 + below(16));
	else if (chance(20))
		off = rnd() & ~(uint64_t)(page - 1);
	else if (chance(10))
		off |= 1 + below(page - 1);

	if (region == SKD_MMAP_CONTROL && chance(850)) {
		len = page;
	} else if (region == SKD_MMAP_DATA && chance(850)) {
		len = chance(500) ? data : 2 * data;
	} else {
		const uint64_t odd[] = { 0, page, data - page, data + page,
			2 * data - page, 2 * data + page, 3 * data, 1ULL << 40 };

		len = chance(800) ? PICK(odd) : page * (1 + below(64));
	}
	if (region == SKD_MMAP_CONTROL)
		prot = chance(800) ? PROT_READ | PROT_WRITE : prots[below(6)];
	else
		prot = chance(850) ? PROT_READ : prots[below(6)];

	flags = MAP_SHARED;
	switch (below(50)) {
	case 0:
		flags = MAP_PRIVATE;
		break;
	case 1:
	case 2:
		flags = MAP_SHARED_VALIDATE;
		break;
	case 3:
		flags |= MAP_POPULATE;
		break;
	case 4:
		flags |= MAP_LOCKED;
		break;
	case 5:
		flags |= MAP_NORESERVE;
		break;
	case 6:
		flags |= MAP_HUGETLB;
		break;
	case 7:
	case 8:
		if (nr_maps && !in_kid) {
			fixed = below(nr_maps);
			addr = maps[fixed].addr;
			len = maps[fixed].len;
			flags |= MAP_FIXED;
		}
		break;
	}

	/* A ring of unknown size: a data mapping is judged by its errno only. */
	judge = !in_kid && !(s && s->configured && !s->ring_pages &&
			     region == SKD_MMAP_DATA);
	valid = s && s->configured && slots[slot].acc != O_WRONLY &&
		(!(prot & PROT_WRITE) || slots[slot].acc == O_RDWR) &&
		(flags & MAP_TYPE) != MAP_PRIVATE && !(flags & MAP_HUGETLB) &&
		cpu < nr_cpus && cpu < MAX_CPUS &&
		(possible_mask >> cpu & 1) && len &&
		off == SKD_MMAP_OFFSET(cpu, region) &&
		((region == SKD_MMAP_CONTROL && len == page) ||
		 (region == SKD_MMAP_DATA && !(prot & PROT_WRITE) &&
		  (len == data || len == 2 * data)));

	p = mmap(addr, len, prot, flags, fd, off);
	err = outcome(OP_MMAP, p == MAP_FAILED ? -1 : 0, errno, E_MMAP, bad);
	if (fixed >= 0) {
		if (err)	/* the old mapping may or may not be gone */
			munmap(maps[fixed].addr, maps[fixed].len);
		map_del(fixed);
	}
	if (err) {
		if (valid && judge && !(prot & PROT_EXEC) &&
		    !(flags & MAP_LOCKED))
			failure(F_REFUSED, "mmap of a valid %s mapping (cpu "
				"%" PRIu64 ", %" PRIu64 " bytes, prot %d, flags "
				"0x%x, fd mode %d): %s", region ? "data" :
				"control", cpu, len, prot, flags,
				slots[slot].acc, ename(err));
		return;
	}
	if (!valid && !judge) {
		munmap(p, len);
		return;
	}
	if (!valid) {
		failure(F_ACCEPTED, "mmap accepted offset 0x%" PRIx64 ", %"
			PRIu64 " bytes, prot %d, flags 0x%x (configured %d, "
			"ring %zu bytes, fd mode %d)", off, len, prot, flags,
			s ? s->configured : -1, data, slot >= 0 ?
			slots[slot].acc : -1);
		munmap(p, len);
		return;
	}
	add(&sh->maps_ok, 1);
	if (in_kid || nr_maps >= MAX_MAPS) {
		int r = munmap(p, len);

		outcome(OP_MUNMAP, r, errno, E_NONE, false);
		return;
	}
	maps[nr_maps++] = (struct map){
		.addr = p, .len = len, .sess = slots[slot].sess, .cpu = cpu,
		.region = region, .prot = prot,
		.maywrite = region == SKD_MMAP_CONTROL &&
			    slots[slot].acc == O_RDWR,
		.whole = region == SKD_MMAP_CONTROL || len == 2 * data,
	};
	s->maps++;
}

void op_munmap(void)
{
	struct map *m;
	int i, r;

	if (!nr_maps)
		return;
	i = below(nr_maps);
	m = &maps[i];
	if (m->len > page && chance(300)) {
		/* A page at the start, the end, or in the middle (a split). */
		size_t at = below(3) == 0 ? 0 : chance(500) ? m->len - page :
			    page * below(m->len / page);

		r = munmap(m->addr + at, page);
		if (outcome(OP_MUNMAP, r, errno, E_NONE, false))
			return;
		m->whole = false;
		if (at == 0) {
			m->addr += page;
			m->len -= page;
		} else if (at == m->len - page) {
			m->len -= page;
		} else if (nr_maps < MAX_MAPS) {
			struct map tail = *m;

			tail.addr = m->addr + at + page;
			tail.len = m->len - at - page;
			m->len = at;
			maps[nr_maps++] = tail;
			sessions[tail.sess].maps++;
		} else {
			munmap(m->addr + at, m->len - at);	/* drop the rest */
			m->len = at;
		}
		return;
	}
	r = munmap(m->addr, m->len);
	outcome(OP_MUNMAP, r, errno, E_NONE, false);
	map_del(i);
}

void op_mprotect(void)
{
	const int prots[] = { PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE,
		PROT_WRITE, PROT_READ | PROT_EXEC,
		PROT_READ | PROT_WRITE | PROT_EXEC };
	struct map *m;
	int prot, err, r;
	bool may;

	if (!nr_maps)
		return;
	m = &maps[below(nr_maps)];
	prot = prots[below(6)];
	may = !(prot & PROT_WRITE) || m->maywrite;
	r = mprotect(m->addr, m->len, prot);
	err = outcome(OP_MPROTECT, r, errno, E_MPROTECT, false);
	if (!err && !may)
		failure(F_ACCEPTED, "mprotect made a %s mapping writable",
			m->region ? "data" : "read-only control");
	if (err && may && !(prot & PROT_EXEC))
		failure(F_REFUSED, "mprotect to %d: %s", prot, ename(err));
	if (!err)
		m->prot = prot;
}

void op_mremap(void)
{
	struct map *m;
	void *p, *to;
	int err, how = below(4);

	if (!nr_maps)
		return;
	m = &maps[below(nr_maps)];
	if (how == 0) {
		/* Grow: the rings are VM_DONTEXPAND. */
		p = mremap(m->addr, m->len, m->len + page, MREMAP_MAYMOVE);
		err = outcome(OP_MREMAP, p == MAP_FAILED ? -1 : 0, errno,
			      E_MREMAP, false);
		if (!err) {
			failure(F_ACCEPTED, "mremap grew a ring mapping");
			munmap(p, m->len + page);
			map_del(m - maps);
		}
	} else if (how == 1 && m->len > page) {
		p = mremap(m->addr, m->len, m->len - page, 0);
		err = outcome(OP_MREMAP, p == MAP_FAILED ? -1 : 0, errno,
			      E_MREMAP, false);
		if (!err) {
			m->len -= page;
			m->whole = false;
		}
	} else if (how == 2) {
		to = mmap(NULL, m->len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
		if (to == MAP_FAILED)
			return;
		p = mremap(m->addr, m->len, m->len, MREMAP_MAYMOVE |
			   MREMAP_FIXED, to);
		err = outcome(OP_MREMAP, p == MAP_FAILED ? -1 : 0, errno,
			      E_MREMAP, false);
		if (err) {
			munmap(to, m->len);
			failure(F_REFUSED, "mremap moving a ring mapping: %s",
				ename(err));
		} else {
			m->addr = p;
		}
	} else {
		p = mremap(m->addr, m->len, m->len, MREMAP_MAYMOVE |
			   MREMAP_DONTUNMAP);
		err = outcome(OP_MREMAP, p == MAP_FAILED ? -1 : 0, errno,
			      E_MREMAP, false);
		if (!err) {
			failure(F_ACCEPTED, "MREMAP_DONTUNMAP of a ring mapping");
			munmap(p, m->len);
		}
	}
}

void op_madvise(void)
{
	const int advice[] = { MADV_DONTNEED, MADV_WILLNEED, MADV_RANDOM,
		MADV_SEQUENTIAL, MADV_DONTFORK, MADV_DOFORK, MADV_DONTDUMP,
		MADV_DODUMP, MADV_COLD, MADV_PAGEOUT, MADV_POPULATE_READ,
		MADV_POPULATE_WRITE, MADV_REMOVE, MADV_FREE, MADV_NORMAL,
		MADV_HUGEPAGE, MADV_NOHUGEPAGE, MADV_MERGEABLE };
	struct map *m;
	int a, err, r;

	if (!nr_maps)
		return;
	m = &maps[below(nr_maps)];
	a = advice[below(sizeof(advice) / sizeof(advice[0]))];
	/* Rare: a reader that zaps its ring has to map it again. */
	if (a == MADV_DONTNEED && chance(700))
		a = MADV_WILLNEED;
	r = madvise(m->addr, m->len, a);
	err = outcome(OP_MADVISE, r, errno, E_MADVISE, false);
	if (!err && a == MADV_DONTNEED)
		m->zapped = true;
}

/* A mapping of @sess, @cpu, @region usable for reading (and writing). */
static struct map *find_map(int sess, int cpu, int region, bool write)
{
	int i;

	for (i = 0; i < nr_maps; i++) {
		struct map *m = &maps[i];

		if (m->sess == sess && m->cpu == cpu && m->region == region &&
		    m->whole && !m->zapped &&
		    (m->prot & (write ? PROT_WRITE : PROT_READ | PROT_WRITE)))
			return m;
	}
	return NULL;
}

static void check_ctrl(const struct map *m)
{
	const struct sess *s = &sessions[m->sess];
	const volatile struct skd_ring_ctrl *c = (void *)m->addr;
	uint64_t head;

	if (s->dirty[m->cpu])
		return;
	head = __atomic_load_n(&c->data_head, __ATOMIC_ACQUIRE);
	if (c->version != SKD_RING_VERSION ||
	    c->compat_version != SKD_RING_VERSION ||
	    c->size != sizeof(struct skd_ring_ctrl) || c->cpu != (uint32_t)m->cpu ||
	    (s->ring_pages && c->data_size != data_bytes(s)) ||
	    c->data_offset != SKD_MMAP_OFFSET(m->cpu, SKD_MMAP_DATA) ||
	    head % 8)
		failure(F_RING, "control page of cpu %d: version %u/%u size %u "
			"cpu %u data_size %llu offset 0x%llx head %llu",
			m->cpu, c->version, c->compat_version, c->size, c->cpu,
			(unsigned long long)c->data_size,
			(unsigned long long)c->data_offset,
			(unsigned long long)head);
}

void op_touch(void)
{
	struct map *m;
	int sig;

	if (!nr_maps)
		return;
	m = &maps[below(nr_maps)];
	if (!(m->prot & (PROT_READ | PROT_WRITE)))
		return;
	add(&sh->touches, 1);
	sig = touch(m->addr, m->len, NULL);
	if (sig && m->zapped && sig == SIGBUS) {
		add(&sh->sigbus_expected, 1);
		return;
	}
	if (sig) {
		failure(F_SIGNAL, "%s reading a %s mapping of cpu %d (%zu bytes, "
			"prot %d)", strsignal(sig), m->region ? "data" :
			"control", m->cpu, m->len, m->prot);
		m->zapped = true;
		return;
	}
	if (m->region == SKD_MMAP_CONTROL && m->whole)
		check_ctrl(m);
}

/* Read a ring as the header's reader loop does and check each record. */
void op_drain(void)
{
	const struct map *c, *d;
	struct skd_ring_ctrl *ctrl;
	struct sess *s;
	uint64_t head, tail, size;
	int i;

	if (!nr_maps)
		return;
	i = below(nr_maps);
	s = &sessions[maps[i].sess];
	c = find_map(maps[i].sess, maps[i].cpu, SKD_MMAP_CONTROL, true);
	if (!c)
		return;
	d = find_map(maps[i].sess, maps[i].cpu, SKD_MMAP_DATA, false);
	ctrl = (void *)c->addr;
	size = data_bytes(s);
	head = __atomic_load_n(&ctrl->data_head, __ATOMIC_ACQUIRE);
	tail = ctrl->data_tail;
	if (!d || s->desync[c->cpu] || s->dirty[c->cpu] || head - tail > size) {
		__atomic_store_n(&ctrl->data_tail, head, __ATOMIC_RELEASE);
		s->desync[c->cpu] = false;
		return;
	}
	while (tail != head) {
		const struct skd_rec_header *h =
			(void *)(d->addr + (tail & (size - 1)));
		const struct skd_rec_id *id = (const void *)(h + 1);

		if (h->size < sizeof(*h) + sizeof(*id) || h->size % 8 ||
		    h->size > head - tail || !h->type ||
		    h->type >= __SKD_REC_MAX || id->cpu != (uint32_t)c->cpu) {
			failure(F_RING, "record at %llu of cpu %d: type %u size "
				"%u cpu %u (head %llu)",
				(unsigned long long)tail, c->cpu, h->type,
				h->size, id->cpu, (unsigned long long)head);
			tail = head;
			break;
		}
		add(&sh->records, 1);
		if (h->type == SKD_REC_LOST)
			add(&sh->lost_records, 1);
		tail += h->size;
	}
	__atomic_store_n(&ctrl->data_tail, tail, __ATOMIC_RELEASE);
}

/* A reader that writes nonsense into its control page. */
void op_scribble(void)
{
	struct map *m;
	uint64_t *w;
	unsigned int i;

	if (!nr_maps)
		return;
	m = &maps[below(nr_maps)];
	if (m->region != SKD_MMAP_CONTROL || !(m->prot & PROT_WRITE) ||
	    m->zapped)
		return;
	w = (uint64_t *)m->addr;
	i = chance(700) ? offsetof(struct skd_ring_ctrl, data_tail) / 8 :
	    below(sizeof(struct skd_ring_ctrl) / 8);
	w[i] = chance(500) ? interesting64() : rnd();
	sessions[m->sess].desync[m->cpu] = true;
	if (i != offsetof(struct skd_ring_ctrl, data_tail) / 8)
		sessions[m->sess].dirty[m->cpu] = true;
}

/*
 * Writes through /proc/self/mem use FOLL_FORCE, which overrides the
 * protection of a mapping that could have been made writable: the data
 * pages never could, so they must stay the kernel's.
 */
int mem_fd = -2;

void op_procmem(void)
{
	struct map *m;
	uint64_t v = rnd();
	size_t at;
	long r;
	int err;

	if (mem_fd == -2)
		mem_fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	if (mem_fd < 0 || !nr_maps)
		return;
	m = &maps[below(nr_maps)];
	at = below(m->len / 8) * 8;
	if (chance(500)) {
		r = pread(mem_fd, &v, 8, (uintptr_t)(m->addr + at));
		outcome(OP_PROCMEM, r < 0 ? -1 : 0, errno,
			(const int[]){ EIO, EFAULT, 0 }, false);
		return;
	}
	if (m->region == SKD_MMAP_CONTROL)
		return;		/* writable by design, and then garbage */
	r = pwrite(mem_fd, &v, 8, (uintptr_t)(m->addr + at));
	err = outcome(OP_PROCMEM, r < 0 ? -1 : 0, errno,
		      (const int[]){ EIO, EFAULT, EPERM, EACCES, 0 }, false);
	if (!err)
		failure(F_ACCEPTED, "/proc/self/mem wrote %ld bytes into the "
			"data pages of cpu %d", r, m->cpu);
}
