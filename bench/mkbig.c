// SPDX-License-Identifier: GPL-2.0
/*
 * A big perf.data for bench/analysis.sh, written through skidless's own
 * converter and writer: timer samples with user call chains in several
 * processes, each with several real shared libraries of this machine
 * mapped (their build-ids recorded), so that perf and skidless both name
 * every frame from the same files. Frames are function symbols of the
 * libraries' .dynsym, picked with a skew (a few hot functions, a long
 * tail) by a fixed pseudo-random sequence: the same file every run.
 *
 * As in a real program, the stacks repeat: each function is called from
 * one to three call sites of other functions, and the samples are drawn
 * (skewed) from a few thousand stacks walked up that call graph, their
 * leaf anywhere in its function. With "random", every frame of every
 * sample is a random function instead (a call graph as wide as there
 * are samples: the worst case for call-graph building).
 *
 *   mkbig FILE NSAMPLES [random]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "buildid.h"
#include "perfdata_conv.h"
#include "perfdata_host.h"
#include "perfdata_write.h"

#define NPROCS		8
#define NSTACKS		4096
#define MAX_DEPTH	10
#define MAX_FUNCS	400
#define MAX_LIBS	8

struct func {
	uint64_t addr, size;
};

struct lib {
	const char *path;
	uint64_t seg_vaddr, seg_off, seg_len;	/* the r-x PT_LOAD, page aligned */
	struct func f[MAX_FUNCS];
	unsigned int nf;
	struct stat st;
};

static const char *const candidates[] = {
	"/usr/lib/x86_64-linux-gnu/libc.so.6",
	"/usr/lib/x86_64-linux-gnu/libm.so.6",
	"/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
	"/usr/lib/x86_64-linux-gnu/libz.so.1",
	"/usr/lib/x86_64-linux-gnu/libxml2.so.2",
	"/usr/lib/x86_64-linux-gnu/libsqlite3.so.0",
	"/usr/lib/x86_64-linux-gnu/libcrypto.so.3",
};

static struct lib libs[MAX_LIBS];

/* A function of any library, and who calls it from where. */
struct fref {
	unsigned int lib, f;
};

struct callsite {
	struct fref caller;
	uint64_t ret;		/* return address, in the caller (vaddr) */
};

struct stack {
	unsigned int depth;
	struct fref leaf;
	struct callsite up[MAX_DEPTH - 1];	/* nearest caller first */
};

static struct stack stacks[NSTACKS];
static unsigned int nlibs;
static uint8_t rec[8192] __attribute__((aligned(8)));
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
	/* xorshift64*: fixed seed, same file every run */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

/* 0..n-1, small values far more often (a hot few, a long tail). */
static unsigned int skewed(unsigned int n)
{
	double u = (double)(rng() >> 11) / (double)(1ULL << 53);

	return (unsigned int)(u * u * u * n) % n;
}

static int by_addr(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* Addresses of every symbol of @e's symbol tables, appended to *@v. */
static void symbol_addrs(Elf *e, uint64_t **v, size_t *n)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t k, cnt;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_DYNSYM && sh.sh_type != SHT_SYMTAB))
			continue;
		d = elf_getdata(scn, NULL);
		cnt = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (k = 0; d && k < cnt; k++) {
			GElf_Sym s;
			uint64_t *nv;

			if (!gelf_getsym(d, (int)k, &s) || !s.st_value ||
			    GELF_ST_TYPE(s.st_info) == STT_SECTION ||
			    GELF_ST_TYPE(s.st_info) == STT_FILE)
				continue;
			nv = realloc(*v, (*n + 1) * sizeof(*nv));
			if (!nv)
				return;
			*v = nv;
			nv[(*n)++] = s.st_value;
		}
	}
}

/* The symbols of the separate debug file of @e, when installed. */
static void debug_addrs(Elf *e, uint64_t **v, size_t *n)
{
	char hex[129], path[512];
	Elf *d;
	int fd;

	if (skd_build_id_elf(e, hex, sizeof(hex)) <= 0)
		return;
	snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%.2s/%s.debug",
		 hex, hex + 2);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	d = elf_begin(fd, ELF_C_READ, NULL);
	if (d)
		symbol_addrs(d, v, n);
	elf_end(d);
	close(fd);
}

static size_t count_of(const uint64_t *v, size_t n, uint64_t addr)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += v[i] == addr;
	return c;
}

/*
 * The code segment and up to MAX_FUNCS sized C functions (not C++: perf
 * prints demangled names without parameters) whose address no other
 * symbol names, in any symbol table or debug file: readers choose among
 * aliases each by its own rule, which this benchmark is not about.
 */
static int load_lib(struct lib *l, const char *path)
{
	int fd = open(path, O_RDONLY);
	uint64_t *addrs = NULL;
	size_t naddrs = 0, phnum, i;
	Elf_Scn *scn = NULL;
	Elf *e = NULL;
	int ret = -1;

	if (fd < 0 || fstat(fd, &l->st))
		goto out;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_getphdrnum(e, &phnum))
		goto out_elf;
	for (i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    (ph.p_flags & PF_X)) {
			l->seg_vaddr = ph.p_vaddr & ~4095ULL;
			l->seg_off = ph.p_offset & ~4095ULL;
			l->seg_len = ((ph.p_vaddr + ph.p_memsz + 4095) & ~4095ULL) -
				     l->seg_vaddr;
			break;
		}
	}
	symbol_addrs(e, &addrs, &naddrs);
	debug_addrs(e, &addrs, &naddrs);
	while (l->seg_len && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t n, k;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM)
			continue;
		d = elf_getdata(scn, NULL);
		n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (k = 0; d && k < n && l->nf < MAX_FUNCS; k++) {
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(d, (int)k, &s) ||
			    GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    s.st_size < 32 || s.st_value < l->seg_vaddr ||
			    s.st_value + s.st_size > l->seg_vaddr + l->seg_len)
				continue;
			name = elf_strptr(e, sh.sh_link, s.st_name);
			if (!name || !strncmp(name, "_Z", 2) ||
			    count_of(addrs, naddrs, s.st_value) != 1)
				continue;
			l->f[l->nf++] = (struct func){ s.st_value, s.st_size };
		}
	}
	qsort(l->f, l->nf, sizeof(l->f[0]), by_addr);
	l->path = path;
	ret = l->nf >= 16 ? 0 : -1;
out_elf:
	elf_end(e);
	free(addrs);
out:
	if (fd >= 0)
		close(fd);
	return ret;
}

static void put(struct pd_writer *w, struct pd_conv *c)
{
	const struct pd_header *h;
	struct skd_event ev;
	int err = 0;

	if (skd_decode(rec, sizeof(rec), &ev) < 0) {
		fprintf(stderr, "mkbig: bad synthetic record\n");
		exit(1);
	}
	h = pd_conv_record(c, &ev, &err);
	if (!h || pd_writer_put(w, h)) {
		fprintf(stderr, "mkbig: conversion or write failed (%d): %s\n",
			err, strerror(errno));
		exit(1);
	}
}

static uint64_t base_of(unsigned int proc, unsigned int lib)
{
	return 0x7f0000000000ULL + (uint64_t)proc * 0x1000000000ULL +
	       (uint64_t)lib * 0x10000000ULL;
}

/* An address inside @f, never its first byte: a return address there
 * names the same function whether a reader looks it up or the byte
 * before (perf does the one, skidless the other). */
static uint64_t ip_in(const struct func *f)
{
	return f->addr + 1 + rng() % (f->size - 2);
}

/* Any function, skewed: the hot ones of the hot libraries. */
static struct fref pick_func(void)
{
	struct fref r;

	r.lib = skewed(nlibs);
	r.f = skewed(libs[r.lib].nf);
	return r;
}

/*
 * The call graph (1 to 3 call sites per function, each in another
 * function at a fixed offset) and the stacks walked up it.
 */
static void make_stacks(void)
{
	struct callsite *sites[MAX_LIBS];
	unsigned int nsites[MAX_LIBS][MAX_FUNCS];
	unsigned int l, f, k, i, d;

	for (l = 0; l < nlibs; l++) {
		sites[l] = calloc((size_t)libs[l].nf * 3, sizeof(**sites));
		if (!sites[l])
			exit(1);
		for (f = 0; f < libs[l].nf; f++) {
			nsites[l][f] = 1 + (unsigned int)(rng() % 3);
			for (k = 0; k < nsites[l][f]; k++) {
				struct callsite *cs = &sites[l][f * 3 + k];

				cs->caller = pick_func();
				cs->ret = ip_in(&libs[cs->caller.lib].f[cs->caller.f]);
			}
		}
	}
	for (i = 0; i < NSTACKS; i++) {
		struct stack *st = &stacks[i];
		struct fref at = pick_func();

		st->leaf = at;
		st->depth = 3 + (unsigned int)(rng() % (MAX_DEPTH - 2));
		for (d = 0; d + 1 < st->depth; d++) {
			k = (unsigned int)(rng() % nsites[at.lib][at.f]);
			st->up[d] = sites[at.lib][at.f * 3 + k];
			at = st->up[d].caller;
		}
	}
	for (l = 0; l < nlibs; l++)
		free(sites[l]);
}

int main(int argc, char *argv[])
{
	const char *names[1] = { "cpu-clock" };
	struct pd_conv_config cc = {
		.backend = SKD_BACKEND_TIMER, .callchain_depth = 127,
		.sample = 4000, .nr_events = 0, .names = names,
	};
	uint64_t t0 = 1000000000000ULL, t = t0, nsamples, i;
	const struct pd_event_spec *specs;
	struct pd_writer_result res;
	struct pd_buf b = { 0 };
	struct pd_writer *w;
	struct pd_conv *c;
	unsigned int nr, p, l;
	int fd;

	bool random_chains = argc == 4 && !strcmp(argv[3], "random");

	if (argc != 3 && !random_chains) {
		fprintf(stderr, "usage: mkbig FILE NSAMPLES [random]\n");
		return 2;
	}
	nsamples = strtoull(argv[2], NULL, 0);
	for (i = 0; i < sizeof(candidates) / sizeof(*candidates) &&
		    nlibs < MAX_LIBS; i++)
		if (!load_lib(&libs[nlibs], candidates[i]))
			nlibs++;
	if (nlibs < 3) {
		fprintf(stderr, "mkbig: fewer than 3 of the shared libraries "
			"it maps are on this machine (libc6, libstdc++6, zlib1g)\n");
		return 1;
	}
	make_stacks();
	c = pd_conv_new(&cc);
	specs = c ? pd_conv_events(c, &nr) : NULL;
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	w = specs && fd >= 0 ? pd_writer_open(fd, false, specs, nr) : NULL;
	if (!w) {
		fprintf(stderr, "mkbig: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	pd_host_features(w, argc, argv, NULL);

	for (p = 0; p < NPROCS; p++) {
		struct skd_rec_comm *cm = (void *)rec;
		uint32_t pid = 10000 + p;

		memset(rec, 0, sizeof(rec));
		*cm = (struct skd_rec_comm){ { SKD_REC_COMM, SKD_MISC_COMM_EXEC,
					       sizeof(*cm) },
					     { t0, 0, pid, pid, 0 }, "" };
		snprintf(cm->comm, sizeof(cm->comm), "worker-%u", p % 4);
		put(w, c);
		for (l = 0; l < nlibs; l++) {
			struct skd_rec_mmap *mm = (void *)rec;
			size_t len = strlen(libs[l].path) + 1;
			size_t size = (sizeof(*mm) + len + 7) & ~7UL;

			memset(rec, 0, sizeof(rec));
			*mm = (struct skd_rec_mmap){
				{ SKD_REC_MMAP, 0, (uint16_t)size },
				{ t0 + 1, 0, pid, pid, 0 },
				base_of(p, l) + libs[l].seg_vaddr,
				libs[l].seg_len, libs[l].seg_off,
				major(libs[l].st.st_dev),
				minor(libs[l].st.st_dev), libs[l].st.st_ino, 0,
				PROT_READ | PROT_EXEC, MAP_PRIVATE };
			memcpy(mm->path, libs[l].path, len);
			put(w, c);
		}
	}
	for (i = 0; i < nsamples; i++) {
		struct skd_rec_sample *s = (void *)rec;
		struct skd_callchain *ch;
		const struct stack *st = &stacks[skewed(NSTACKS)];
		unsigned int depth = random_chains ? 3 + (unsigned int)(rng() % 8) :
				     st->depth, d;
		uint32_t pid;

		p = skewed(NPROCS);
		pid = 10000 + p;
		t += 1000;
		memset(rec, 0, sizeof(*s) + sizeof(*ch));
		s->hdr = (struct skd_rec_header){ SKD_REC_SAMPLE, SKD_MISC_USER, 0 };
		s->id = (struct skd_rec_id){ t, (uint32_t)(rng() % 4), pid,
					     pid + 50000 * (uint32_t)(rng() % 2), 0 };
		s->period = 250000;
		s->fields = SKD_SAMPLE_CALLCHAIN;
		ch = (void *)(s + 1);
		ch->nr = (uint16_t)depth;
		for (d = 0; d < depth && random_chains; d++) {
			l = d ? (unsigned int)(rng() % nlibs) : skewed(nlibs);
			ch->ips[d] = base_of(p, l) +
				     ip_in(&libs[l].f[skewed(libs[l].nf)]);
		}
		for (d = 0; d < depth && !random_chains; d++) {
			/* The leaf anywhere in its function; callers at their
			 * call sites. */
			l = d ? st->up[d - 1].caller.lib : st->leaf.lib;
			ch->ips[d] = base_of(p, l) + (d ? st->up[d - 1].ret :
				     ip_in(&libs[l].f[st->leaf.f]));
		}
		s->ip = ch->ips[0];
		s->hdr.size = (uint16_t)(sizeof(*s) + sizeof(*ch) + 8 * depth);
		put(w, c);
		if (i % 10000 == 9999) {
			struct pd_header fr = { PD_REC_FINISHED_ROUND, 0, 8 };

			pd_writer_put(w, &fr);
		}
	}
	{
		uint64_t st[2] = { t0 + 1000, t };
		uint8_t id[20];
		char hex[129];
		int k;

		pd_writer_feature(w, PD_FEAT_SAMPLE_TIME, st, sizeof(st));
		for (l = 0; l < nlibs; l++) {
			if (skd_build_id_file(libs[l].path, hex, sizeof(hex)) <= 0)
				continue;
			k = skd_build_id_bytes(hex, id, sizeof(id));
			if (k > 0)
				pd_build_id_entry(&b, PD_MISC_USER, id,
						  (uint8_t)k, libs[l].path);
		}
		pd_writer_feature(w, PD_FEAT_BUILD_ID, b.p, b.len);
	}
	pd_buf_free(&b);
	if (pd_writer_close(w, &res)) {
		fprintf(stderr, "mkbig: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	pd_conv_free(c);
	return close(fd) ? 1 : 0;
}
