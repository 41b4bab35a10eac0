// SPDX-License-Identifier: GPL-2.0
/*
 * libdwfl unwinding of a copied user stack. Each mapped file is reported
 * to a Dwfl at its load bias (map start - pgoff = where file offset 0
 * would be; bias = that minus the segment's p_vaddr - p_offset); libdwfl
 * reads .eh_frame / .debug_frame from the files and asks us for memory
 * (the stack copy, else the file bytes behind a mapping) and for the
 * initial registers, in DWARF numbering:
 *
 *   0 rax 1 rdx 2 rcx 3 rbx 4 rsi 5 rdi 6 rbp 7 rsp 8-15 r8-r15 16 rip
 */
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unwind_dwarf.h"

#define ERR(...) (err ? (void)snprintf(err, errlen, __VA_ARGS__) : (void)0)

/* DWARF register n <- perf register dwarf_from_perf[n]. */
static const unsigned char dwarf_from_perf[17] = {
	SKD_UREG_AX, SKD_UREG_DX, SKD_UREG_CX, SKD_UREG_BX,
	SKD_UREG_SI, SKD_UREG_DI, SKD_UREG_BP, SKD_UREG_SP,
	SKD_UREG_R8, SKD_UREG_R9, SKD_UREG_R10, SKD_UREG_R11,
	SKD_UREG_R12, SKD_UREG_R13, SKD_UREG_R14, SKD_UREG_R15,
	SKD_UREG_IP,
};

struct umap {
	uint64_t start, len, pgoff;
	int fd;			/* the file behind it, or -1 */
};

struct skd_unwinder {
	struct skd_dso_opts o;
	Dwfl_Callbacks cb;
	char *debuginfo_path;
	Dwfl *dwfl;
	uint64_t space;
	struct umap *maps;
	size_t nr_maps;
	/* The sample being unwound. */
	const uint64_t *regs;
	const unsigned char *stack;
	size_t stack_len;
	bool thread_given;
};

struct skd_unwinder *skd_unwinder_new(const struct skd_dso_opts *o)
{
	const char *debug = o && o->debug_dir ? o->debug_dir : "/usr/lib/debug";
	struct skd_unwinder *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	if (o)
		u->o = *o;
	if (asprintf(&u->debuginfo_path, "+:.debug:%s", debug) < 0) {
		free(u);
		errno = ENOMEM;
		return NULL;
	}
	u->cb.find_elf = dwfl_build_id_find_elf;
	u->cb.find_debuginfo = dwfl_standard_find_debuginfo;
	u->cb.debuginfo_path = &u->debuginfo_path;
	return u;
}

static void drop_space(struct skd_unwinder *u)
{
	size_t i;

	if (u->dwfl)
		dwfl_end(u->dwfl);
	u->dwfl = NULL;
	for (i = 0; i < u->nr_maps; i++)
		if (u->maps[i].fd >= 0)
			close(u->maps[i].fd);
	free(u->maps);
	u->maps = NULL;
	u->nr_maps = 0;
}

void skd_unwinder_free(struct skd_unwinder *u)
{
	if (!u)
		return;
	drop_space(u);
	free(u->debuginfo_path);
	free(u);
}

static bool read_file_word(const struct skd_unwinder *u, uint64_t addr,
			   Dwarf_Word *out)
{
	size_t i;

	for (i = 0; i < u->nr_maps; i++) {
		const struct umap *m = &u->maps[i];
		uint64_t v;

		if (m->fd < 0 || addr < m->start || addr - m->start >= m->len ||
		    m->len - (addr - m->start) < sizeof(v))
			continue;
		if (pread(m->fd, &v, sizeof(v),
			  (off_t)(addr - m->start + m->pgoff)) != sizeof(v))
			return false;
		*out = v;
		return true;
	}
	return false;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			void *arg)
{
	struct skd_unwinder *u = arg;
	uint64_t sp = u->regs[SKD_UREG_SP], v;

	(void)dwfl;
	if (addr >= sp && addr - sp < u->stack_len &&
	    u->stack_len - (addr - sp) >= sizeof(v)) {
		memcpy(&v, u->stack + (addr - sp), sizeof(v));
		*result = v;
		return true;
	}
	return read_file_word(u, addr, result);
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct skd_unwinder *u = arg;

	(void)dwfl;
	*thread_argp = u;
	if (u->thread_given)
		return 0;
	u->thread_given = true;
	return 1;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct skd_unwinder *u = arg;
	Dwarf_Word r[17];
	unsigned int i;

	for (i = 0; i < 17; i++)
		r[i] = u->regs[dwarf_from_perf[i]];
	return dwfl_thread_state_registers(thread, 0, 17, r);
}

static const Dwfl_Thread_Callbacks thread_cb = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* Load bias of @file mapped at @start from @pgoff; -ENOENT if no segment. */
static int map_bias(int fd, uint64_t start, uint64_t pgoff, uint64_t *bias,
		    bool *is_elf)
{
	size_t phnum, i;
	int ret = -ENOENT;
	Elf *e;

	*is_elf = false;
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getphdrnum(e, &phnum)) {
		elf_end(e);
		return -ENOEXEC;
	}
	*is_elf = true;
	for (i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		/* The segment this mapping starts in (page-aligned head). */
		if (pgoff + 4096 > ph.p_offset &&
		    pgoff < ph.p_offset + ph.p_filesz + 4096) {
			*bias = start - pgoff - (ph.p_vaddr - ph.p_offset);
			ret = 0;
			break;
		}
	}
	elf_end(e);
	return ret;
}

static int build_space(struct skd_unwinder *u, const struct skd_unwind_map *maps,
		       size_t nr_maps, char *err, size_t errlen)
{
	char file[PATH_MAX];
	size_t i, j;

	u->dwfl = dwfl_begin(&u->cb);
	u->maps = calloc(nr_maps ? nr_maps : 1, sizeof(*u->maps));
	if (!u->dwfl || !u->maps) {
		ERR("out of memory unwinding");
		return -ENOMEM;
	}
	elf_version(EV_CURRENT);
	dwfl_report_begin(u->dwfl);
	for (i = 0; i < nr_maps; i++) {
		const struct skd_unwind_map *m = &maps[i];
		struct umap *um = &u->maps[u->nr_maps++];
		uint64_t bias;
		bool is_elf, seen = false;

		*um = (struct umap) { m->start, m->len, m->pgoff, -1 };
		if (!m->path || skd_dso_find_file(m->path, m->build_id, &u->o,
						  file, sizeof(file), NULL, 0))
			continue;
		um->fd = open(file, O_RDONLY | O_CLOEXEC);
		if (um->fd < 0 || map_bias(um->fd, m->start, m->pgoff, &bias,
					   &is_elf))
			continue;
		for (j = 0; j < i; j++)
			if (maps[j].path && !strcmp(maps[j].path, m->path))
				seen = true;
		/* A file mapped twice (two loads of one library) is rare: first wins. */
		if (!seen)
			dwfl_report_elf(u->dwfl, m->path, file, -1, bias, true);
	}
	if (dwfl_report_end(u->dwfl, NULL, NULL)) {
		ERR("libdwfl: %s", dwfl_errmsg(-1));
		return -ENOEXEC;
	}
	if (!dwfl_attach_state(u->dwfl, NULL, 1, &thread_cb, u)) {
		ERR("libdwfl cannot unwind here (%s): no x86-64 ELF mapped?",
		    dwfl_errmsg(-1));
		return -ENOEXEC;
	}
	return 0;
}

struct walk {
	uint64_t *ips;
	size_t n, max;
};

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct walk *w = arg;
	Dwarf_Addr pc;

	if (!dwfl_frame_pc(state, &pc, NULL) || w->n >= w->max)
		return DWARF_CB_ABORT;
	/* Frames below the ip (none here) and a pc of 0 end the chain. */
	if (w->n && !pc)
		return DWARF_CB_ABORT;
	w->ips[w->n++] = pc;
	return DWARF_CB_OK;
}

int skd_unwind_dwarf(struct skd_unwinder *u, uint64_t space,
		     const uint64_t regs[SKD_UREG_NR], const void *stack,
		     size_t stack_len, const struct skd_unwind_map *maps,
		     size_t nr_maps, uint64_t *ips, size_t max, char *err,
		     size_t errlen)
{
	struct walk w = { ips, 0, max };
	bool same;
	size_t i;
	int ret;

	if (!u || !regs || (!stack && stack_len) || (!maps && nr_maps) ||
	    (!ips && max)) {
		ERR("unwind: missing registers, stack, maps or output");
		return -EINVAL;
	}
	if (!max)
		return 0;
	same = u->dwfl && u->space == space && u->nr_maps == nr_maps;
	for (i = 0; same && i < nr_maps; i++)
		same = u->maps[i].start == maps[i].start &&
		       u->maps[i].len == maps[i].len &&
		       u->maps[i].pgoff == maps[i].pgoff;
	if (!same) {
		drop_space(u);
		u->space = space;
		ret = build_space(u, maps, nr_maps, err, errlen);
		if (ret) {
			drop_space(u);
			return ret;
		}
	}
	if (!dwfl_addrmodule(u->dwfl, regs[SKD_UREG_IP])) {
		ERR("unwind: no mapped object holds ip %#llx",
		    (unsigned long long)regs[SKD_UREG_IP]);
		ips[0] = regs[SKD_UREG_IP];
		return -ENOENT;
	}
	u->regs = regs;
	u->stack = stack;
	u->stack_len = stack_len;
	u->thread_given = false;
	/* An error ends the chain where it happened: what came before holds. */
	dwfl_getthread_frames(u->dwfl, 1, frame_cb, &w);
	u->regs = NULL;
	u->stack = NULL;
	if (!w.n)
		ips[w.n++] = regs[SKD_UREG_IP];
	return (int)w.n;
}
