// SPDX-License-Identifier: GPL-2.0
/*
 * Writes a perf.data from synthetic skidless records through the real
 * converter and writer, for perf_check.sh to feed to Debian's perf. The
 * samples hit this program's own functions, mapped where it runs, so both
 * perf and skidless can name them.
 *
 *   mkperf FILE [pipe]
 *   mkperf FILE dsrc MODEL
 *   mkperf FILE side
 *   mkperf FILE dwarf DUMP
 *
 * dsrc: the memory samples carry every raw PEBS data-source value in
 * turn (0..15) for MODEL's decoding, split latencies where MODEL has them.
 * side: also a FORK before the samples and, after the twentieth, a LOST
 * of 17 records, a THROTTLE and an UNTHROTTLE.
 * dwarf: one sample as `record --call-graph dwarf' writes it, from DUMP,
 * the registers, stack and maps tests/unit/fixtures/unw_prog.c saved of
 * itself: COMM and an MMAP per code mapping of its maps, then a user
 * sample at its ip with its one-frame chain and a copy of its stack.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

#include "data_src.h"
#include "perfdata_conv.h"
#include "perfdata_host.h"
#include "perfdata_write.h"
#include "buildid.h"

#define NSAMPLES 40

__attribute__((noinline)) int mk_leaf(int x) { return x * 3 + 1; }
__attribute__((noinline)) int mk_caller(int x) { return mk_leaf(x) + 2; }

static uint8_t rec[65536];

static void put(struct pd_writer *w, const struct pd_header *h, int err)
{
	if (!h || pd_writer_put(w, h)) {
		fprintf(stderr, "mkperf: conversion failed: %d\n", err);
		exit(1);
	}
}

static void put_skd(struct pd_writer *w, struct pd_conv *c)
{
	struct skd_event ev;
	int err = 0;

	if (skd_decode(rec, sizeof(rec), &ev) < 0) {
		fprintf(stderr, "mkperf: bad synthetic record\n");
		exit(1);
	}
	put(w, pd_conv_record(c, &ev, &err), err);
}

/* LOST (17 records), THROTTLE, UNTHROTTLE on CPU 0 from @t. */
static void put_side(struct pd_writer *w, struct pd_conv *c, uint64_t t)
{
	struct skd_rec_lost *l = (void *)rec;
	struct skd_rec_throttle *th = (void *)rec;

	memset(rec, 0, sizeof(rec));
	*l = (struct skd_rec_lost){ { SKD_REC_LOST, 0, sizeof(*l) },
				    { t, 0, 0, 0, 0 }, 17 };
	put_skd(w, c);
	memset(rec, 0, sizeof(rec));
	*th = (struct skd_rec_throttle){ { SKD_REC_THROTTLE, 0, sizeof(*th) },
					 { t + 1, 0, 0, 0, 0 }, 1000 };
	put_skd(w, c);
	th->hdr.type = SKD_REC_UNTHROTTLE;
	th->id.time = t + 2;
	put_skd(w, c);
}

#define DW_PID		4300
#define DW_STACK	16384

static char dump[1 << 21];

/* The dwarf mode: see the head of the file. */
static int dwarf_main(const char *path, const char *dump_path)
{
	static const char *const names[1] = { "cpu-clock" };
	struct pd_conv_config cc = {
		.backend = SKD_BACKEND_TIMER, .sample = 1000,
		.callchain_depth = 127, .user_stack_bytes = DW_STACK,
		.names = names,
	};
	uint64_t regs[SKD_USER_REGS_NR], len, t0 = 2000000000000ULL;
	const struct pd_event_spec *specs;
	struct pd_writer_result res;
	struct pd_writer *w;
	struct pd_conv *c;
	char *line, *save;
	unsigned int nr, i;
	size_t n;
	FILE *f = fopen(dump_path, "rb");
	int fd;

	if (!f)
		return 1;
	n = fread(dump, 1, sizeof(dump) - 1, f);
	fclose(f);
	if (n < sizeof(regs) + 8)
		return 1;
	memcpy(regs, dump, sizeof(regs));
	memcpy(&len, dump + sizeof(regs), 8);
	if (n < sizeof(regs) + 8 + len)
		return 1;
	dump[n] = '\0';
	c = pd_conv_new(&cc);
	specs = c ? pd_conv_events(c, &nr) : NULL;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	w = specs && fd >= 0 ? pd_writer_open(fd, false, specs, nr) : NULL;
	if (!w)
		return 1;
	{
		struct pd_buf b = { 0 };

		pd_conv_event_desc(c, &b);
		pd_writer_feature(w, PD_FEAT_EVENT_DESC, b.p, b.len);
		pd_buf_free(&b);
	}
	pd_host_features(w, 0, NULL, NULL);
	pd_host_kernel_maps(w, c);

	memset(rec, 0, sizeof(rec));
	*(struct skd_rec_comm *)rec = (struct skd_rec_comm){
		{ SKD_REC_COMM, SKD_MISC_COMM_EXEC, sizeof(struct skd_rec_comm) },
		{ t0, 0, DW_PID, DW_PID, 0 }, "unw_prog" };
	put_skd(w, c);
	/* start-end perms offset maj:min inode path, code mappings only. */
	for (line = strtok_r(dump + sizeof(regs) + 8 + len, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long a, e, o, ino;
		unsigned int maj, mi;
		char perm[8], file[4096];
		struct skd_rec_mmap *mm = (void *)rec;
		size_t plen, size;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %4095s", &a, &e,
			   perm, &o, &maj, &mi, &ino, file) != 8 ||
		    perm[2] != 'x' || file[0] != '/')
			continue;
		plen = strlen(file) + 1;
		size = (sizeof(*mm) + plen + 7) & ~7UL;
		memset(rec, 0, sizeof(rec));
		*mm = (struct skd_rec_mmap){
			{ SKD_REC_MMAP, 0, (uint16_t)size },
			{ t0 + 1, 0, DW_PID, DW_PID, 0 }, a, e - a, o, maj, mi,
			ino, 0, PROT_READ | PROT_EXEC, MAP_PRIVATE };
		memcpy(mm->path, file, plen);
		put_skd(w, c);
	}
	/* Three samples of the same moment, a millisecond apart. */
	for (i = 0; i < 3; i++) {
		struct skd_rec_sample *sm = (void *)rec;
		struct skd_callchain *ch;
		struct skd_user_stack *us;
		uint8_t *q;
		uint32_t copy = len < DW_STACK ? (uint32_t)len : DW_STACK;

		memset(rec, 0, sizeof(rec));
		sm->hdr = (struct skd_rec_header){ SKD_REC_SAMPLE,
						   SKD_MISC_USER, 0 };
		sm->id = (struct skd_rec_id){ t0 + 1000000 * (i + 1), 0,
					      DW_PID, DW_PID, 0 };
		sm->ip = regs[8];
		sm->period = 1000000;
		sm->fields = SKD_SAMPLE_CALLCHAIN | SKD_SAMPLE_USER_STACK;
		q = (uint8_t *)(sm + 1);
		/* Frame pointers end at the leaf without them: ip alone. */
		ch = (void *)q;
		ch->nr = 1;
		ch->ips[0] = regs[8];
		q += sizeof(*ch) + 8;
		us = (void *)q;
		us->abi = SKD_USER_ABI_64;
		us->size = copy;
		memcpy(us->regs, regs, sizeof(regs));
		memcpy(us->data, dump + sizeof(regs) + 8, copy);
		q += sizeof(*us) + ((copy + 7) & ~7U);
		sm->hdr.size = (uint16_t)(q - rec);
		put_skd(w, c);
	}
	if (pd_writer_close(w, &res))
		return 1;
	pd_conv_free(c);
	close(fd);
	return 0;
}

int main(int argc, char *argv[])
{
	static const struct skd_event_attr evs[2] = {
		{ .size = sizeof(evs[0]), .config = 0x01cd, .ldlat = 3,
		  .sample_period = 1000, .precise = 2 },
		{ .size = sizeof(evs[0]), .config = 0x003c,
		  .sample_period = 100000, .precise = 0 },
	};
	const char *names[2] = { "mem_trans_retired.load_latency_gt_3:pp",
				 "cpu_clk_unhalted.thread_p" };
	struct pd_conv_config cc = {
		.backend = SKD_BACKEND_INTEL, .callchain_depth = 127,
		.branch_sample = SKD_BRANCH_ANY | SKD_BRANCH_USER,
		.model = "skylake", .nr_events = 2, .events = evs,
		.names = names,
	};
	uint64_t lo = 0, hi = 0, off = 0, t0 = 1000000000000ULL, t;
	const struct pd_event_spec *specs;
	char exe[4096], line[4096 + 128], hex[129];
	struct pd_buf b = { 0 };
	struct pd_writer_result res;
	struct pd_conv *c;
	struct pd_writer *w;
	unsigned int nr, i;
	struct stat st;
	bool pipe = argc > 2 && !strcmp(argv[2], "pipe");
	bool dsrc = argc > 3 && !strcmp(argv[2], "dsrc");
	bool side = argc > 2 && !strcmp(argv[2], "side");
	struct skd_dsrc_model dm = { 0 };
	ssize_t n;
	FILE *f;
	int fd;

	if (argc < 2)
		return 2;
	if (argc > 3 && !strcmp(argv[2], "dwarf"))
		return dwarf_main(argv[1], argv[3]);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return 1;
	exe[n] = '\0';
	if (stat(exe, &st))
		return 1;
	f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long a, e, o;
		char perm[8];

		if (sscanf(line, "%llx-%llx %7s %llx", &a, &e, perm, &o) == 4 &&
		    perm[2] == 'x' && strstr(line, exe)) {
			lo = a;
			hi = e;
			off = o;
		}
	}
	if (f)
		fclose(f);
	if (!lo)
		return 1;
	if (dsrc) {
		cc.model = argv[3];
		dm = skd_dsrc_model(argv[3]);
	}
	c = pd_conv_new(&cc);
	specs = pd_conv_events(c, &nr);
	fd = pipe ? STDOUT_FILENO : open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	w = pd_writer_open(fd, pipe, specs, nr);
	if (!c || fd < 0 || !w)
		return 1;
	pd_conv_event_desc(c, &b);
	pd_writer_feature(w, PD_FEAT_EVENT_DESC, b.p, b.len);
	b.len = 0;
	pd_writer_feature(w, PD_FEAT_BRANCH_STACK, NULL, 0);
	pd_host_features(w, argc, argv, NULL);
	pd_host_kernel_maps(w, c);

	/* COMM, then the MMAP of this program, as the kernel reports them. */
	memset(rec, 0, sizeof(rec));
	{
		struct skd_rec_comm *cm = (void *)rec;

		*cm = (struct skd_rec_comm){ { SKD_REC_COMM, SKD_MISC_COMM_EXEC,
					       sizeof(*cm) },
					     { t0, 0, 4242, 4242, 0 }, "mkperf" };
		put_skd(w, c);
	}
	{
		struct skd_rec_mmap *mm = (void *)rec;
		size_t len = strlen(exe) + 1, size = (sizeof(*mm) + len + 7) & ~7UL;

		memset(rec, 0, sizeof(rec));
		*mm = (struct skd_rec_mmap){
			{ SKD_REC_MMAP, 0, (uint16_t)size },
			{ t0 + 1, 0, 4242, 4242, 0 }, lo, hi - lo, off,
			major(st.st_dev), minor(st.st_dev), st.st_ino, 0,
			PROT_READ | PROT_EXEC, MAP_PRIVATE };
		memcpy(mm->path, exe, len);
		put_skd(w, c);
	}
	if (side) {
		struct skd_rec_task *tk = (void *)rec;

		memset(rec, 0, sizeof(rec));
		*tk = (struct skd_rec_task){ { SKD_REC_FORK, 0, sizeof(*tk) },
			{ t0 + 2, 0, 4243, 4243, 0 }, 4242, 4242 };
		put_skd(w, c);
	}
	for (i = 0; i < NSAMPLES; i++) {
		struct skd_rec_sample *s = (void *)rec;
		struct skd_callchain *cc2;
		struct skd_sample_mem *m;
		struct skd_branches *br;
		uint8_t *q;
		bool mem = i % 2 == 0;

		memset(rec, 0, sizeof(rec));
		t = t0 + 1000 + i * 1000;
		s->hdr = (struct skd_rec_header){ SKD_REC_SAMPLE,
			SKD_MISC_USER | SKD_MISC_EXACT_IP, 0 };
		s->id = (struct skd_rec_id){ t, i % 2, 4242, 4242, 0 };
		s->ip = (uintptr_t)(i % 3 ? mk_leaf : mk_caller) + 4;
		s->period = mem ? 1000 : 100000;
		s->event = mem ? 0 : 1;
		s->fields = SKD_SAMPLE_CALLCHAIN | SKD_SAMPLE_BRANCHES |
			    (mem ? SKD_SAMPLE_MEM : 0);
		q = (uint8_t *)(s + 1);
		cc2 = (void *)q;
		cc2->nr = 2;
		cc2->ips[0] = s->ip;
		cc2->ips[1] = (uintptr_t)main + 16;
		q += sizeof(*cc2) + 16;
		if (mem) {
			m = (void *)q;
			m->addr = 0x7ffd00001000ULL + i * 64;
			m->source = i % 4 ? 0x1 : 0x3;	/* L1, L2 hit */
			m->latency = 7 + i;
			if (dsrc) {
				m->source = (i / 2) % 16;
				m->latency = 30 + 17 * i;
			}
			/* Golden Cove's two: cache access (47:32), instruction. */
			if (dsrc && dm.block) {
				m->latency = (uint64_t)(30 + 17 * i) << 32 | (5 + i);
				m->flags = SKD_MEM_LAT_SPLIT;
			}
			q += sizeof(*m);
		}
		br = (void *)q;
		br->nr = 2;
		br->entries[0] = (struct skd_branch_entry){
			(uintptr_t)mk_caller + 8, (uintptr_t)mk_leaf,
			SKD_BR_INFO_CYC_VALID | 12 };
		br->entries[1] = (struct skd_branch_entry){
			(uintptr_t)main + 20, (uintptr_t)mk_caller,
			SKD_BR_INFO_MISPRED | SKD_BR_INFO_CYC_VALID | 3 };
		q += sizeof(*br) + 2 * sizeof(br->entries[0]);
		s->hdr.size = (uint16_t)(q - rec);
		put_skd(w, c);
		if (side && i == 19)
			put_side(w, c, t + 1);
		if (i % 10 == 9) {
			struct pd_header fr = { PD_REC_FINISHED_ROUND, 0, 8 };

			pd_writer_put(w, &fr);
		}
	}
	{
		struct skd_rec_task *tk = (void *)rec;

		memset(rec, 0, sizeof(rec));
		*tk = (struct skd_rec_task){ { SKD_REC_EXIT, 0, sizeof(*tk) },
			{ t + 10, 0, 4242, 4242, 0 }, 1, 1 };
		put_skd(w, c);
	}
	{
		uint64_t st2[2] = { t0 + 1000, t };
		uint8_t id[20], len = 0;
		int k;

		pd_writer_feature(w, PD_FEAT_SAMPLE_TIME, st2, sizeof(st2));
		if (skd_build_id_file(exe, hex, sizeof(hex)) > 0) {
			k = skd_build_id_bytes(hex, id, sizeof(id));
			len = k > 0 ? (uint8_t)k : 0;
			pd_build_id_entry(&b, PD_MISC_USER, id, len, exe);
			pd_writer_feature(w, PD_FEAT_BUILD_ID, b.p, b.len);
		}
	}
	pd_buf_free(&b);
	if (pd_writer_close(w, &res))
		return 1;
	pd_conv_free(c);
	if (!pipe)
		close(fd);
	return mk_caller(0) == 3 ? 0 : 1;
}
