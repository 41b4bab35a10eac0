// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the perf.data `skidless record -b` would write for a process
 * running BINARY, through the real output stage (record_output.c and
 * everything under it), for optimizers.sh to hand to perf2bolt and
 * create_llvm_prof. The branch stacks are made of the branches named on
 * the command line (found in BINARY by objdump), so every count the
 * consumers report is known by construction:
 *
 *   mklbr OUT BINARY NSAMPLES DEPTH FROM-TO[:m] ...
 *
 * The FROM-TO pairs (hex, link-time addresses) are one iteration of a
 * loop, in the order they execute; ":m" marks the branch mispredicted.
 * Every sample holds the DEPTH most recent branches of that loop run
 * over and over, ending with the loop's last branch, and its IP is the
 * first branch's source (where the loop goes on). DEPTH a multiple of
 * the number of branches gives each branch DEPTH/NBRANCHES entries per
 * sample. DEPTH 0: a capture without branch stacks. A "g" after DEPTH
 * adds a call chain (the IP, then the first branch's source as the
 * caller), as `skidless record -b` records by default; a "c" makes the
 * stacks LBR call stacks (--call-graph lbr), entries as given.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "capture.h"
#include "record_output.h"
#include "record_pmu.h"

#define PID		4243
#define PIE_BASE	0x555555554000ULL
#define MAX_BR		64

static uint8_t rec[16384];
static struct skd_capture_writer *out;

static void put(void)
{
	if (skd_capture_put(out, rec)) {
		fprintf(stderr, "mklbr: record not taken\n");
		exit(1);
	}
}

/* The executable PT_LOAD, where the loader maps it (PIEs at PIE_BASE). */
static int exec_segment(const char *path, uint64_t *start, uint64_t *len,
			uint64_t *pgoff, uint64_t *base)
{
	int fd = open(path, O_RDONLY), ret = -1;
	Elf *e;
	GElf_Ehdr eh;
	size_t n, i;

	elf_version(EV_CURRENT);
	if (fd < 0)
		return -1;
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && gelf_getehdr(e, &eh) && !elf_getphdrnum(e, &n)) {
		*base = eh.e_type == ET_DYN ? PIE_BASE : 0;
		for (i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD ||
			    !(ph.p_flags & PF_X))
				continue;
			*start = *base + (ph.p_vaddr & ~0xfffULL);
			*pgoff = ph.p_offset & ~0xfffULL;
			*len = ((ph.p_vaddr + ph.p_memsz + 0xfff) & ~0xfffULL) -
			       (ph.p_vaddr & ~0xfffULL);
			ret = 0;
			break;
		}
	}
	elf_end(e);
	close(fd);
	return ret;
}

int main(int argc, char *argv[])
{
	/* What AutoFDO's documentation samples: br_inst_retired.near_taken:pp. */
	static struct skd_event_attr ev = {
		.size = sizeof(ev), .config = 0x20c4, .sample_period = 100003,
		.precise = 2,
	};
	static struct skd_config cfg;
	static struct record_pmu pmu;
	struct record_output_params p = {
		.format = RECORD_FORMAT_PERF, .cfg = &cfg, .pmu = &pmu,
	};
	struct skd_branch_entry br[MAX_BR];
	uint64_t start, len, pgoff, base, t = 1000000000ULL;
	unsigned int nbr = 0, nsamples, depth, i, k;
	struct record_output *o;
	char path[4096];
	struct stat st;
	const char *model;
	bool chain, call_stack;
	char *end;

	if (argc < 6) {
		fprintf(stderr, "usage: mklbr OUT BINARY NSAMPLES DEPTH FROM-TO[:m]...\n");
		return 2;
	}
	if (!realpath(argv[2], path) || stat(path, &st) ||
	    exec_segment(path, &start, &len, &pgoff, &base)) {
		fprintf(stderr, "mklbr: %s: no executable segment\n", argv[2]);
		return 1;
	}
	nsamples = (unsigned int)strtoul(argv[3], NULL, 0);
	depth = (unsigned int)strtoul(argv[4], &end, 10);
	chain = *end == 'g';
	call_stack = *end == 'c';
	for (i = 5; i < (unsigned int)argc && nbr < MAX_BR; i++, nbr++) {
		unsigned long long f, to;
		char m = 0;

		if (sscanf(argv[i], "%llx-%llx:%c", &f, &to, &m) < 2) {
			fprintf(stderr, "mklbr: bad branch '%s'\n", argv[i]);
			return 2;
		}
		br[nbr] = (struct skd_branch_entry){ f + base, to + base,
			SKD_BR_INFO_CYC_VALID | 5 |
			(m == 'm' ? SKD_BR_INFO_MISPRED : 0) };
	}
	if (depth > 32 || !nbr)
		return 2;

	/* As cmd_record.c sets up `record -b --backend sim:skylake`. */
	cfg.size = sizeof(cfg);
	cfg.backend = SKD_BACKEND_SIM;
	cfg.ring_pages = 64;
	cfg.sample_period = ev.sample_period;
	cfg.nr_events = 1;
	cfg.callchain_depth = chain ? 127 : 0;
	cfg.branch_sample = !depth ? 0 : call_stack ?
			    SKD_BRANCH_CALL_STACK | SKD_BRANCH_USER :
			    SKD_BRANCH_ANY | SKD_BRANCH_USER;
	pmu.backend = SKD_BACKEND_SIM;
	pmu.branch_sample = cfg.branch_sample;
	pmu.events[0] = ev;
	pmu.nr_events = 1;
	/* The planner's word for it (test_events: test_carries_mem). */
	pmu.no_mem_events = 1;
	snprintf(pmu.names[0], sizeof(pmu.names[0]), "br_inst_retired.near_taken:pp");
	/* MKLBR_MODEL: another sim model (sapphirerapids: WEIGHT_STRUCT). */
	model = getenv("MKLBR_MODEL") ? getenv("MKLBR_MODEL") : "skylake";
	snprintf(pmu.pmu_name, sizeof(pmu.pmu_name), "sim:%s", model);
	snprintf(pmu.pmu.model_name, sizeof(pmu.pmu.model_name), "%s", model);
	p.path = argv[1];
	p.argc = argc;
	p.argv = argv;
	o = record_output_open(&p);
	if (!o)
		return 1;
	out = record_output_writer(o);

	{
		struct skd_rec_comm *cm = (void *)rec;
		const char *slash = strrchr(path, '/');

		memset(rec, 0, sizeof(rec));
		*cm = (struct skd_rec_comm){ { SKD_REC_COMM, SKD_MISC_COMM_EXEC,
					       sizeof(*cm) },
					     { t, 0, PID, PID, 0 }, "" };
		snprintf(cm->comm, sizeof(cm->comm), "%s", slash + 1);
		put();
	}
	{
		struct skd_rec_mmap *mm = (void *)rec;
		size_t plen = strlen(path) + 1;

		memset(rec, 0, sizeof(rec));
		*mm = (struct skd_rec_mmap){
			{ SKD_REC_MMAP, 0,
			  (uint16_t)((sizeof(*mm) + plen + 7) & ~7UL) },
			{ t + 1, 0, PID, PID, 0 }, start, len, pgoff,
			major(st.st_dev), minor(st.st_dev), st.st_ino, 0,
			PROT_READ | PROT_EXEC, MAP_PRIVATE };
		memcpy(mm->path, path, plen);
		put();
	}
	for (i = 0; i < nsamples; i++) {
		struct skd_rec_sample *s = (void *)rec;
		struct skd_branches *b;

		memset(rec, 0, sizeof(rec));
		t += 1000;
		s->hdr = (struct skd_rec_header){ SKD_REC_SAMPLE,
			SKD_MISC_USER | SKD_MISC_EXACT_IP, 0 };
		s->id = (struct skd_rec_id){ t, 0, PID, PID, 0 };
		s->ip = br[0].from;
		s->period = ev.sample_period;
		s->hdr.size = sizeof(*s);
		b = (void *)(s + 1);
		if (chain) {
			struct skd_callchain *cc = (void *)(s + 1);

			cc->nr = 2;
			cc->ips[0] = s->ip;
			cc->ips[1] = br[0].from + 5;
			s->fields |= SKD_SAMPLE_CALLCHAIN;
			b = (void *)&cc->ips[2];
		}
		if (!depth) {
			s->hdr.size = (uint16_t)((uint8_t *)b - rec);
			put();
			continue;
		}
		s->fields |= SKD_SAMPLE_BRANCHES;
		b->nr = (uint16_t)depth;
		b->flags = call_stack ? SKD_BR_CALL_STACK : 0;
		/* Most recent first: the loop's last branch, then backwards. */
		for (k = 0; k < depth; k++)
			b->entries[k] = br[nbr - 1 - k % nbr];
		s->hdr.size = (uint16_t)((uint8_t *)&b->entries[depth] - rec);
		put();
		if (i % 64 == 63)
			record_output_round(o);
	}
	{
		struct skd_rec_task *tk = (void *)rec;

		memset(rec, 0, sizeof(rec));
		*tk = (struct skd_rec_task){ { SKD_REC_EXIT, 0, sizeof(*tk) },
			{ t + 10, 0, PID, PID, 0 }, 1, 1 };
		put();
	}
	record_output_round(o);
	return record_output_commit(o) ? 1 : 0;
}
