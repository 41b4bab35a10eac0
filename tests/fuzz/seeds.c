// SPDX-License-Identifier: GPL-2.0
/*
 * Seed inputs for the fuzz targets, written at build time so that no
 * binary is checked in: well-formed ring records, PEBS records of every
 * format, LBR triples, capture files written through capture.c's own
 * writer, maps text and command-line specs. Each is laid out here from
 * uapi/skidless.h and the record tables, as the unit tests lay theirs out.
 *
 *	seeds DIR	writes DIR/<target>/<name>
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "skidless.h"

static const char *out_dir;

/* A growing byte buffer. */
struct buf {
	uint8_t b[65536];
	size_t n;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > sizeof(b->b)) {
		fprintf(stderr, "seeds: buffer full\n");
		exit(1);
	}
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void put_le(struct buf *b, uint64_t v, unsigned int bytes)
{
	unsigned int i;
	uint8_t c;

	for (i = 0; i < bytes; i++) {
		c = (uint8_t)(v >> (8 * i));
		put(b, &c, 1);
	}
}

static void put_zeros(struct buf *b, size_t n)
{
	static const uint8_t z[4096];

	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);

		put(b, z, k);
		n -= k;
	}
}

static void save(const char *target, const char *name, const void *p,
		 size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", out_dir, target);
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s/%s", out_dir, target, name);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static void save_buf(const char *target, const char *name, struct buf *b)
{
	save(target, name, b->b, b->n);
}

static void save_str(const char *target, const char *name, const char *s)
{
	save(target, name, s, strlen(s));
}

/* ---- kernel records ------------------------------------------------ */

#define PID		4242
#define USER_BASE	0x555555554000ULL	/* where "/fx_pie" is mapped */
#define KERNEL_IP	0xffffffff81001310ULL	/* do_work in kallsyms.txt */

static void put_id(struct buf *b, uint64_t time, uint32_t cpu, uint32_t tid)
{
	struct skd_rec_id id = {
		.time = time, .cpu = cpu, .pid = PID, .tid = tid,
	};

	put(b, &id, sizeof(id));
}

static void put_hdr(struct buf *b, uint32_t type, uint16_t misc,
		    size_t size)
{
	struct skd_rec_header h = {
		.type = type, .misc = misc, .size = (uint16_t)size,
	};

	put(b, &h, sizeof(h));
}

/* A sample with a call chain, memory info and branches as @fields says. */
static void put_sample(struct buf *b, uint64_t time, uint32_t fields,
		       uint16_t br_flags, uint16_t event)
{
	static const uint64_t ips[] = {
		KERNEL_IP, USER_BASE + 0x1139, USER_BASE + 0x1160 + 5,
	};
	size_t size = sizeof(struct skd_rec_sample);
	struct skd_rec_sample s;
	struct skd_sample_mem mem = {
		.addr = 0x7ffc0000, .source = 0x1, .latency = 42,
	};
	struct skd_branch_entry br[2] = {
		{ USER_BASE + 0x1150, USER_BASE + 0x1139,
		  SKD_BR_INFO_CYC_VALID | 7 },
		{ USER_BASE + 0x1170, USER_BASE + 0x1150,
		  SKD_BR_INFO_MISPRED },
	};

	if (fields & SKD_SAMPLE_CALLCHAIN)
		size += sizeof(struct skd_callchain) + sizeof(ips);
	if (fields & SKD_SAMPLE_MEM)
		size += sizeof(mem);
	if (fields & SKD_SAMPLE_BRANCHES)
		size += sizeof(struct skd_branches) + sizeof(br);
	memset(&s, 0, sizeof(s));
	s.hdr.type = SKD_REC_SAMPLE;
	s.hdr.misc = SKD_MISC_USER | SKD_MISC_EXACT_IP;
	s.hdr.size = (uint16_t)size;
	s.id = (struct skd_rec_id){ .time = time, .cpu = 1, .pid = PID,
				    .tid = PID };
	s.ip = ips[1];
	s.period = 100003;
	s.fields = fields;
	s.event = event;
	put(b, &s, sizeof(s));
	if (fields & SKD_SAMPLE_CALLCHAIN) {
		put_le(b, 3, 2);	/* nr */
		put_le(b, 1, 2);	/* nr_kernel */
		put_le(b, 0, 4);
		put(b, ips, sizeof(ips));
	}
	if (fields & SKD_SAMPLE_MEM)
		put(b, &mem, sizeof(mem));
	if (fields & SKD_SAMPLE_BRANCHES) {
		put_le(b, 2, 2);
		put_le(b, br_flags, 2);
		put_le(b, 0, 4);
		put(b, br, sizeof(br));
	}
}

/* One record of every kernel type, then one this reader does not know. */
static void put_kernel_records(struct buf *b)
{
	static const char path[] = "/fx_pie\0";	/* NUL-padded to 8 */

	put_hdr(b, SKD_REC_COMM, SKD_MISC_COMM_EXEC,
		sizeof(struct skd_rec_comm));
	put_id(b, 1000, 0, PID);
	put(b, "fx_pie\0\0\0\0\0\0\0\0\0\0", 16);
	put_hdr(b, SKD_REC_EXEC, 0, sizeof(struct skd_rec_exec) + 8);
	put_id(b, 900, 0, PID);
	put_le(b, PID, 4);
	put_le(b, 0, 4);
	put(b, path, 8);
	put_hdr(b, SKD_REC_FORK, 0, sizeof(struct skd_rec_task));
	put_id(b, 1100, 0, PID + 1);
	put_le(b, PID, 4);
	put_le(b, PID, 4);
	put_sample(b, 2000, SKD_SAMPLE_CALLCHAIN | SKD_SAMPLE_MEM |
		   SKD_SAMPLE_BRANCHES, 0, 0);
	put_sample(b, 2100, SKD_SAMPLE_BRANCHES, SKD_BR_CALL_STACK, 1);
	put_sample(b, 2200, 0, 0, 0);
	put_hdr(b, SKD_REC_LOST, 0, sizeof(struct skd_rec_lost));
	put_id(b, 2300, 1, 0);
	put_le(b, 17, 8);
	put_hdr(b, SKD_REC_THROTTLE, 0, sizeof(struct skd_rec_throttle));
	put_id(b, 2400, 1, 0);
	put_le(b, 100000, 8);
	put_hdr(b, SKD_REC_UNTHROTTLE, 0, sizeof(struct skd_rec_throttle));
	put_id(b, 2500, 1, 0);
	put_le(b, 100000, 8);
	put_hdr(b, SKD_REC_EXIT, 0, sizeof(struct skd_rec_task));
	put_id(b, 3000, 0, PID + 1);
	put_le(b, PID, 4);
	put_le(b, PID, 4);
	put_hdr(b, 0x20, 0, 16);
	put_le(b, 0, 8);
}

/* fuzz_ring.c's header: ring size order, stop, head - tail, more, tail. */
static void ring_seed(const char *name, unsigned int order, uint64_t tail,
		      int split)
{
	struct buf recs = { .n = 0 }, *in = calloc(1, sizeof(*in));
	size_t size = 64ULL << order, at, first;

	put_kernel_records(&recs);
	if (recs.n > size) {
		fprintf(stderr, "seeds: ring %s too small\n", name);
		exit(1);
	}
	first = split ? recs.n / 2 / 8 * 8 : recs.n;
	put_le(in, order, 1);
	put_le(in, 0, 1);
	put_le(in, first, 2);
	put_le(in, recs.n - first, 2);
	put_le(in, tail, 8);
	/* The records start at the tail's place in the ring. */
	put_zeros(in, size);
	for (at = 0; at < recs.n; at++)
		in->b[in->n - size + (tail + at) % size] = recs.b[at];
	save_buf("ring", name, in);
	free(in);
}

/* ---- PEBS and LBR -------------------------------------------------- */

/* Formats 1-3: @slots u64 slots, ip in slot 1, real ip (2+) in slot 22. */
static void pebs_fixed(unsigned int fmt, unsigned int slots)
{
	struct buf *b = calloc(1, sizeof(*b));
	unsigned int r, i;
	char name[32];

	put_le(b, fmt, 1);
	for (r = 0; r < 2; r++) {
		for (i = 0; i < slots; i++) {
			uint64_t v = i == 1 ? USER_BASE + 0x1139 :
				     i == 18 ? 1ULL << r :	/* status */
				     i == 19 ? 0x7ffc0000 : i;
			put_le(b, v, 8);
		}
	}
	snprintf(name, sizeof(name), "fmt%u", fmt);
	save_buf("pebs", name, b);
	free(b);
}

/* An adaptive record with the groups of @cfg (DATA_CFG layout). */
static void put_adaptive(struct buf *b, uint64_t cfg)
{
	unsigned int i, nr_lbr = cfg & 8 ? ((cfg >> 24) & 0xff) + 1 : 0;
	size_t size = 32 + (cfg & 1 ? 32 : 0) + (cfg & 2 ? 144 : 0) +
		      (cfg & 4 ? 256 : 0) + 24 * nr_lbr;

	put_le(b, cfg | (uint64_t)size << 48, 8);
	put_le(b, USER_BASE + 0x1139, 8);	/* ip */
	put_le(b, 1, 8);			/* applicable */
	put_le(b, 123456789, 8);		/* tsc */
	if (cfg & 1) {
		put_le(b, 0x7ffc0000, 8);
		put_le(b, 0x1, 8);
		put_le(b, 42, 8);
		put_le(b, 0, 8);
	}
	for (i = 0; cfg & 2 && i < 18; i++)
		put_le(b, 0x1000 + i, 8);
	if (cfg & 4)
		put_zeros(b, 256);
	for (i = 0; i < nr_lbr; i++) {
		put_le(b, USER_BASE + 0x1150 + i, 8);
		put_le(b, USER_BASE + 0x1139, 8);
		put_le(b, (1ULL << 60) | (3ULL << 56) | i, 8);
	}
}

static void pebs_seeds(void)
{
	static const uint64_t cfgs[] = {
		0, 1, 2, 3, 4, 7, 8 | (3ULL << 24), 9 | (31ULL << 24),
	};
	struct buf *b = calloc(1, sizeof(*b));
	char name[32];
	unsigned int i;

	pebs_fixed(1, 22);
	pebs_fixed(2, 24);
	pebs_fixed(3, 25);
	for (i = 0; i < sizeof(cfgs) / sizeof(cfgs[0]); i++) {
		b->n = 0;
		/*
		 * Format 4, or 5 with arch LBR entries whose INFO fields
		 * CPUID.1CH:ECX enumerates (bits 7:5): all, or only cycles.
		 */
		put_le(b, i & 1 ? 8 | 4 : 8 | 5 | 16 | (i & 2 ? 0xe0 : 0x40), 1);
		put_adaptive(b, cfgs[i]);
		put_adaptive(b, cfgs[i]);
		snprintf(name, sizeof(name), "adaptive-%llx",
			 (unsigned long long)cfgs[i]);
		save_buf("pebs", name, b);
	}
	b->n = 0;
	put_le(b, 4, 1);			/* format 4, not adaptive */
	put_adaptive(b, 0);
	save_buf("pebs", "fmt4-basic", b);
	free(b);
}

static void lbr_seeds(void)
{
	static const uint64_t addrs[] = {
		0xffffffff81a0b0c8ULL, 0x00007f1234567890ULL,
	};
	struct buf b;
	char name[32];
	unsigned int fmt, i;

	/* Format, then CPUID.1CH:ECX for the arch decode: each of 0-7. */
	for (fmt = 0; fmt <= 8; fmt++) {
		b.n = 0;
		put_le(&b, fmt, 1);
		put_le(&b, fmt == 8 ? 0xffffffff : fmt & 7, 4);
		for (i = 0; i < 4; i++) {
			put_le(&b, addrs[i & 1] | (i & 2 ? 1ULL << 63 : 0), 8);
			put_le(&b, addrs[!(i & 1)] | ((uint64_t)i << 48), 8);
			put_le(&b, (1ULL << 63) | (1ULL << 60) |
				   (5ULL << 56) | (0x100 + i), 8);
		}
		snprintf(name, sizeof(name), "fmt%u", fmt);
		save_buf("lbr", name, &b);
	}
}

/* ---- captures ------------------------------------------------------ */

static void capture_seed(const char *dir, const char *name, int ksyms,
			 int finish)
{
	struct skd_frec_session s = {
		.start_time = 500, .start_realtime = 1700000000000000000ULL,
		.backend = SKD_BACKEND_SIM, .sample = 100003,
		.callchain_depth = 16, .nr_cpus = 2,
	};
	struct skd_event_attr cycles = {
		.size = sizeof(cycles), .config = 0x3c, .precise = 2,
	};
	struct skd_cpu_stats st = {
		.generated = 10, .delivered = 9, .lost = 1, .samples = 3,
	};
	struct skd_capture_writer *w;
	struct buf recs = { .n = 0 };
	char path[4096];
	uint64_t bytes;
	size_t at;

	snprintf(path, sizeof(path), "%s/capture", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/capture/%s", dir, name);
	w = skd_capture_create(path);
	if (!w) {
		perror(path);
		exit(1);
	}
	skd_capture_put_session(w, &s, "fuzzhost", "6.1.0-fuzz",
				"skidless record -e cycles:pp -- fx_pie",
				"sim:skylake");
	skd_capture_put_event(w, 0, SKD_BRANCH_ANY | SKD_BRANCH_USER,
			      &cycles, "cycles:pp");
	skd_capture_put_event(w, 1, SKD_BRANCH_CALL_STACK, &cycles,
			      "cycles:pp");
	/* Before the EXEC at 900, another image; after it, fx_pie. */
	skd_capture_put_map(w, 400, PID, USER_BASE, USER_BASE + 0x2000,
			    0x1000, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	skd_capture_put_map(w, 1000, PID, USER_BASE, USER_BASE + 0x2000, 0,
			    "/fx_pie");
	skd_capture_put_map(w, 1000, PID, 0x7ffff7fc1000ULL,
			    0x7ffff7fc3000ULL, 0, "[vdso]");
	put_kernel_records(&recs);
	for (at = 0; at < recs.n;
	     at += ((struct skd_rec_header *)(recs.b + at))->size)
		skd_capture_put(w, recs.b + at);
	if (ksyms) {
		skd_capture_put_ksym(w, 0xffffffff81001300ULL, 0x100,
				     "do_work");
		skd_capture_put_ksym(w, 0xffffffffc0001000ULL, 0,
				     "mod_fn [fxmod]");
	}
	skd_capture_put_stats(w, 0, &st);
	skd_capture_put_stats(w, 1, &st);
	bytes = skd_capture_bytes(w);
	if (skd_capture_finish(w, 4000)) {
		perror(path);
		exit(1);
	}
	/* Killed while writing stats: no end marker, a torn record. */
	if (!finish && truncate(path, (off_t)bytes - 16)) {
		perror(path);
		exit(1);
	}
}

/* ---- text ---------------------------------------------------------- */

static const char maps_text[] =
	"555555554000-555555555000 r--p 00000000 08:01 1234    /fx_pie\n"
	"555555555000-555555556000 r-xp 00001000 08:01 1234    /fx_pie\n"
	"7ffff7dd3000-7ffff7f28000 r-xp 00026000 fe:01 5678    /usr/lib/x86_64-linux-gnu/libc.so.6\n"
	"7ffff7fc1000-7ffff7fc3000 r-xp 00000000 00:00 0       [vdso]\n"
	"7ffff7fc5000-7ffff7fc6000 rwxp 00000000 00:00 0 \n"
	"7ffff7fd0000-7ffff7fd1000 r-xs 00000000 00:05 99      /memfd:jit (deleted)\n"
	"\n"
	"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0 [vsyscall]\n";

/*
 * First byte: the PMU (fuzz_events.c pmus[]: 0 none, 1 skylakex, 2
 * icelakex, 3 sapphirerapids, 4 alderlake_gracemont); then the argument.
 */
static const struct {
	unsigned char model;
	const char *text;
} specs[] = {
	{ 0, "cycles" },
	{ 1, "cycles:pp" },
	{ 2, "instructions:ppp" },
	{ 1, "mem_load_retired.l3_miss:p" },
	{ 2, "mem_trans_retired.load_latency_gt_32/ldlat=30/p" },
	{ 3, "MEM_INST_RETIRED.ALL_LOADS:pu" },
	{ 3, "frontend_retired.dsb_miss/frontend=0x11,period=1009/p" },
	{ 2, "ocr.demand_data_rd.l3_miss/offcore_rsp=0x10001/u" },
	{ 4, "mem_uops_retired.load_latency_gt_32:pp" },
	{ 1, "cpu/event=0x3c,any,period=10007/" },
	{ 0, "r01c0:k" },
	{ 1, "r01c0:ppp" },
	{ 1, "cpu/event=0xd0,umask=0x81,cmask=2,inv,edge,period=10007/pp" },
	{ 2, "cpu/event=0xcd,umask=0x1,ldlat=3,freq=4000/p" },
	{ 1, "branch-misses/period=0x1000/uk" },
	{ 1, "cycles:pp,instructions,cpu/event=0xc4,umask=0/" },
	{ 0, "any,u" },
	{ 0, "call_stack" },
	{ 0, "any_call,any_ret,ind_call,ind_jmp,cond,call,k" },
	{ 0, "0-3,8,10-11" },
	{ 0, "0,1023\n" },
};

/*
 * fuzz_plan.c: PMU and options, branch_sample, exclude flags and PMU
 * knob, default period, events.
 */
static void plan_seed(const char *name, unsigned int opts, uint32_t branches,
		      unsigned int knob, const struct skd_event_attr *ev,
		      unsigned int nr)
{
	struct buf b = { .n = 0 };

	put_le(&b, opts, 1);
	put_le(&b, branches, 2);
	put_le(&b, knob, 1);
	put_le(&b, opts & 0x80 ? 4000 : 100003, 8);
	put(&b, ev, nr * sizeof(*ev));
	save_buf("plan", name, &b);
}

static void plan_seeds(void)
{
	const struct skd_event_attr cycles_pp = {
		.config = 0x3c, .precise = 2,
	}, instructions = {
		.config = 0xc0, .flags = SKD_EV_EXCLUDE_KERNEL,
	}, l3_miss = {
		.config = 0x20d1, .precise = 1, .sample_period = 10007,
	}, ldlat = {
		.config = 0x01cd, .precise = 1, .ldlat = 30,
	}, prec_dist = {
		.config = 0x01c0, .precise = 3, .flags = SKD_EV_FREQ,
		.sample_freq = 1000,
	}, skl_ocr = {
		/* OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE */
		.config = 0x01b7, .config1 = 0x10001,
	}, skl_ocr_rfo = {
		.config = 0x01b7, .config1 = 0x10002,
	}, glc_ocr = {
		.config = 0x012a, .config1 = 0x10001,
	}, dsb_miss = {
		/* FRONTEND_RETIRED.DSB_MISS */
		.config = 0x01c6, .precise = 1, .config1 = 0x11,
	}, grt_ldlat = {
		.config = 0x05d0, .precise = 1, .ldlat = 30,
	}, br_cond_p = {
		.config = 0x01c4, .precise = 1,
	};
	struct skd_event_attr set[5];

	set[0] = cycles_pp;
	set[1] = instructions;
	plan_seed("skylake-any", 0, SKD_BRANCH_ANY | SKD_BRANCH_USER, 0,
		  set, 2);
	set[0] = l3_miss;
	set[1] = ldlat;
	set[2] = prec_dist;
	plan_seed("icelake-mem", 1, 0, 0, set, 3);
	set[0] = cycles_pp;
	plan_seed("spr-callstack", 2 | 0x40, SKD_BRANCH_CALL_STACK, 0, set, 3);
	set[0] = cycles_pp;
	plan_seed("ivb-freq", 3 | 0x80, SKD_BRANCH_ANY_CALL, 0, set, 1);
	set[0] = cycles_pp;
	set[1] = instructions;
	set[2] = l3_miss;
	set[3] = prec_dist;
	plan_seed("skylake-pti", 5, 0, 0, set, 4);
	/* Session-wide exclude_kernel, -j k: refused. */
	plan_seed("skylake-exclk", 0, SKD_BRANCH_KERNEL, SKD_EV_EXCLUDE_KERNEL,
		  set, 2);
	set[0] = skl_ocr;
	set[1] = skl_ocr_rfo;
	set[2] = dsb_miss;
	plan_seed("skylake-extra", 0, 0, 0, set, 3);
	plan_seed("skylake-tfa", 10, 0, 0, set, 2);
	set[0] = br_cond_p;
	set[1] = br_cond_p;
	set[2] = br_cond_p;
	set[3] = br_cond_p;
	set[4] = l3_miss;
	plan_seed("skylake-htoff", 11, 0, 0, set, 5);
	set[0] = ldlat;
	set[1] = glc_ocr;
	plan_seed("adl-p-ldlat", 12, SKD_BRANCH_ANY, SKD_EV_EXCLUDE_USER,
		  set, 1);
	plan_seed("spr-ocr", 2, 0, 0x70, set + 1, 1);
	set[0] = grt_ldlat;
	set[1] = cycles_pp;
	plan_seed("adl-e-ldlat", 13, SKD_BRANCH_CALL_STACK, 0, set, 2);
	set[0] = cycles_pp;
	plan_seed("spr-ebx", 15, SKD_BRANCH_CALL_STACK, 0x50, set, 1);
	/* One seed per Intel list (fuzz_plan.c picks 18 and up). */
	set[0] = cycles_pp;
	set[1] = instructions;
	set[2] = l3_miss;
	for (unsigned int i = 0; i < 12; i++) {
		char name[32];

		snprintf(name, sizeof(name), "list%u", i);
		plan_seed(name, 18 + i, SKD_BRANCH_ANY, 0, set, 3);
	}
}

int main(int argc, char **argv)
{
	char name[32], text[256];
	unsigned int i;

	if (argc != 2) {
		fprintf(stderr, "usage: seeds DIR\n");
		return 2;
	}
	out_dir = argv[1];
	mkdir(out_dir, 0755);

	ring_seed("records", 6, 0, 0);
	ring_seed("wraps", 4, 1024 - 40, 0);
	ring_seed("two-drains", 5, 2048 - 64, 1);
	pebs_seeds();
	lbr_seeds();
	capture_seed(out_dir, "ksyms", 1, 1);
	capture_seed(out_dir, "kallsyms-fallback", 0, 1);
	capture_seed(out_dir, "torn", 1, 0);
	save_str("maps", "maps", maps_text);
	plan_seeds();
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		text[0] = (char)specs[i].model;
		snprintf(text + 1, sizeof(text) - 1, "%s", specs[i].text);
		snprintf(name, sizeof(name), "spec%02u", i);
		save("events", name, text, strlen(text + 1) + 1);
	}
	return 0;
}
