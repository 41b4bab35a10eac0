// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin that counts the guest's instructions, kernel and user
 * apart, on each vCPU, between marks the guest makes (bench/cost.sh).
 *
 * A mark is an 8-byte NOP with a magic displacement, `nopl MAGIC(%rax,
 * %rax,1)`: 0f 1f 84 00, then the little-endian word 0x534b00NN, where
 * NN is 1 to begin a measured interval and 2 to end it. On any x86 CPU it
 * does nothing. Each end writes one line to the file named by out=:
 *
 *   mark SEQ k=KERNEL u=USER k0=.. u0=.. k1=.. u1=..
 *
 * the instructions executed on all vCPUs, then on each, since the last
 * begin (SEQ counts the ends from 1); at exit, "total k=.. u=..".
 *
 * Counting is per translation block: its instructions are added when the
 * block starts executing, so a block left early by a fault or an
 * exception counts whole (the same way on every run); a mark subtracts the
 * instructions that follow it in its block. A block is kernel code if its
 * address has the top bit set (x86-64 canonical upper half). Run QEMU with
 * one TCG thread (-accel tcg,thread=single): the counters are not atomic.
 *
 * Build: gcc -shared -fPIC -O2 -o insn_plugin.so insn_plugin.c
 * Use:   qemu-system-x86_64 ... -plugin file=insn_plugin.so,out=FILE
 *
 * QEMU's public plugin API (include/qemu/qemu-plugin.h of QEMU 7.2, API
 * version 1) has no installed header in Debian; the few declarations
 * used here are restated below with the same types.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- restated from include/qemu/qemu-plugin.h (QEMU 7.2) ---- */
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);
void qemu_plugin_outs(const char *string);
#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
/* ---- end of the restated API ---- */

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

#define MAX_VCPUS	16
#define MARK_LEN	8
#define MARK_BEGIN	1
#define MARK_END	2

enum { KERNEL, USER };

/* [vcpu][KERNEL/USER]: instructions so far; at the last begin. */
static uint64_t count[MAX_VCPUS][2];
static uint64_t base[MAX_VCPUS][2];
static unsigned int nr_vcpus = 1;
static unsigned int seq;
static FILE *out;

/*
 * hist=N (a diagnostic): during the Nth interval, instructions by block
 * address, the 40 blocks that executed most printed at its end as
 * "hist ADDRESS INSTRUCTIONS" (all vCPUs).
 */
struct tb_info {
	uint64_t vaddr;
	uint32_t n;
	uint32_t cls;
};
#define HIST_SIZE	(1u << 20)
static unsigned int hist_seq, hist_used;
static bool hist_on;
static struct { uint64_t key, n; } *hist;

/*
 * Userdata of a block's callback: its instruction count and class. Of a
 * mark's: the mark's code, its block's class and how many instructions
 * follow it in the block (already counted at the block's start).
 */
#define UD_CLASS	(1ull << 32)
#define UD_CODE_SHIFT	33

static void tb_exec_hist(unsigned int vcpu, void *ud)
{
	const struct tb_info *t = ud;
	uint64_t key = t->vaddr, h;

	count[vcpu % MAX_VCPUS][t->cls] += t->n;
	if (!hist_on)
		return;
	for (h = (key * 0x9e3779b97f4a7c15ull) >> 44;; h = (h + 1) % HIST_SIZE) {
		if (hist[h].key == key) {
			hist[h].n += t->n;
			return;
		}
		if (!hist[h].key) {
			/* a full table (never seen) drops new blocks */
			if (hist_used >= HIST_SIZE / 2)
				return;
			hist_used++;
			hist[h].key = key;
			hist[h].n = t->n;
			return;
		}
	}
}

static void hist_print(void)
{
	unsigned int i, j, best;

	for (j = 0; j < 40; j++) {
		best = 0;
		for (i = 1; i < HIST_SIZE; i++)
			if (hist[i].n > hist[best].n)
				best = i;
		if (!hist[best].n)
			break;
		fprintf(out, "hist %#" PRIx64 " %" PRIu64 "\n",
			hist[best].key, hist[best].n);
		hist[best].n = 0;
	}
}

static void tb_exec(unsigned int vcpu, void *ud)
{
	uintptr_t v = (uintptr_t)ud;

	count[vcpu % MAX_VCPUS][!!(v & UD_CLASS)] += (uint32_t)v;
}

static void mark_exec(unsigned int vcpu, void *ud)
{
	uintptr_t v = (uintptr_t)ud;
	unsigned int code = v >> UD_CODE_SHIFT, cls = !!(v & UD_CLASS), c;
	uint64_t now[MAX_VCPUS][2], k = 0, u = 0;

	memcpy(now, count, sizeof(now));
	now[vcpu % MAX_VCPUS][cls] -= (uint32_t)v;
	if (code == MARK_BEGIN) {
		memcpy(base, now, sizeof(base));
		hist_on = hist && seq + 1 == hist_seq;
		return;
	}
	if (code != MARK_END)
		return;
	for (c = 0; c < nr_vcpus; c++) {
		k += now[c][KERNEL] - base[c][KERNEL];
		u += now[c][USER] - base[c][USER];
	}
	fprintf(out, "mark %u k=%" PRIu64 " u=%" PRIu64, ++seq, k, u);
	for (c = 0; c < nr_vcpus; c++)
		fprintf(out, " k%u=%" PRIu64 " u%u=%" PRIu64,
			c, now[c][KERNEL] - base[c][KERNEL],
			c, now[c][USER] - base[c][USER]);
	fputc('\n', out);
	if (hist_on)
		hist_print();
	hist_on = false;
	fflush(out);
}

/* The mark's code if @insn is a mark, else 0. */
static unsigned int mark_code(const struct qemu_plugin_insn *insn)
{
	const uint8_t *b = qemu_plugin_insn_data(insn);

	if (qemu_plugin_insn_size(insn) != MARK_LEN || !b)
		return 0;
	if (b[0] != 0x0f || b[1] != 0x1f || b[2] != 0x84 || b[3] != 0x00 ||
	    b[7] != 0x53 || b[6] != 0x4b || b[5] != 0x00)
		return 0;
	return b[4];
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	uintptr_t cls = (qemu_plugin_tb_vaddr(tb) >> 63) ? 0 : UD_CLASS;
	unsigned int code;

	(void)id;
	if (hist) {
		struct tb_info *t = malloc(sizeof(*t));

		if (!t)
			abort();
		*t = (struct tb_info){ qemu_plugin_tb_vaddr(tb), n, !!cls };
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec_hist,
						     QEMU_PLUGIN_CB_NO_REGS, t);
	} else {
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec,
						     QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(cls | (uint32_t)n));
	}
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		code = mark_code(insn);
		if (!code)
			continue;
		qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_exec,
			QEMU_PLUGIN_CB_NO_REGS,
			(void *)(((uintptr_t)code << UD_CODE_SHIFT) | cls |
				 (uint32_t)(n - i - 1)));
	}
}

static void at_exit(qemu_plugin_id_t id, void *ud)
{
	uint64_t k = 0, u = 0;
	unsigned int c;

	(void)id;
	(void)ud;
	for (c = 0; c < nr_vcpus; c++) {
		k += count[c][KERNEL];
		u += count[c][USER];
	}
	fprintf(out, "total k=%" PRIu64 " u=%" PRIu64 "\n", k, u);
	fclose(out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL;
	int i;

	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
		else if (!strncmp(argv[i], "hist=", 5))
			hist_seq = atoi(argv[i] + 5);
	if (!path) {
		qemu_plugin_outs("insn_plugin: give out=FILE for the counts\n");
		return 1;
	}
	if (!info->system_emulation || info->system.max_vcpus > MAX_VCPUS) {
		qemu_plugin_outs("insn_plugin: needs system emulation with at most 16 vCPUs\n");
		return 1;
	}
	nr_vcpus = info->system.smp_vcpus;
	if (hist_seq) {
		hist = calloc(HIST_SIZE, sizeof(*hist));
		if (!hist)
			return 1;
	}
	out = fopen(path, "w");
	if (!out) {
		qemu_plugin_outs("insn_plugin: cannot open the out= file\n");
		return 1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
