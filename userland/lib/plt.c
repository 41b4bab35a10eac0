// SPDX-License-Identifier: GPL-2.0
/*
 * PLT names: the header of .plt, which binds symbols lazily, as ".plt"
 * (as perf names it, tools/perf/util/symbol-elf.c since Linux 6.2); the
 * stubs in .plt (or .plt.sec) named from .rela.plt, and
 * those in .plt.got (calls bound at load time, such as a PIE's
 * __cxa_finalize) from the .rela.dyn relocation of the GOT slot each one
 * jumps through, as objdump and llvm-bolt name them. Every index read from
 * the file (relocation symbol, string offset, section link) is checked; an
 * IRELATIVE relocation, which has no symbol, names its stub by the
 * resolver's address, as perf does.
 */
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plt.h"
#include "symbols.h"

#define PLT_ENTRY	16

static Elf_Scn *find_section(Elf *e, size_t shstrndx, const char *want,
			     GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, sh))
			continue;
		name = elf_strptr(e, shstrndx, sh->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

static struct skd_symtab *empty(void)
{
	return skd_symtab_from_list(NULL, 0);
}

/* Stubs found so far; names owned. */
struct stubs {
	struct skd_sym *v;
	size_t n, cap;
};

static int add(struct stubs *st, uint64_t addr, uint64_t size, char *name)
{
	if (!name)
		return -ENOMEM;
	if (st->n == st->cap) {
		size_t cap = st->cap ? 2 * st->cap : 16;
		struct skd_sym *v = realloc(st->v, cap * sizeof(*v));

		if (!v) {
			free(name);
			return -ENOMEM;
		}
		st->v = v;
		st->cap = cap;
	}
	st->v[st->n++] = (struct skd_sym){ .addr = addr, .size = size,
					   .name = name };
	return 0;
}

static char *stub_name(const char *name)
{
	char *s;

	return asprintf(&s, "%s@plt", name) < 0 ? NULL : s;
}

/* .plt / .plt.sec: entry i is relocation i of .rela.plt. */
static int plt_stubs(Elf *e, size_t shstrndx, struct stubs *st)
{
	GElf_Shdr rel_sh, plt_sh, sym_sh;
	Elf_Data *rel_data, *sym_data;
	Elf_Scn *rel, *plt, *symscn;
	size_t nrel, i;
	uint64_t first;

	rel = find_section(e, shstrndx, ".rela.plt", &rel_sh);
	if (!rel || rel_sh.sh_type != SHT_RELA || !rel_sh.sh_entsize)
		return 0;
	plt = find_section(e, shstrndx, ".plt", &plt_sh);
	if (plt && plt_sh.sh_type == SHT_PROGBITS &&
	    plt_sh.sh_size >= PLT_ENTRY &&
	    add(st, plt_sh.sh_addr, PLT_ENTRY, strdup(".plt")))
		return -ENOMEM;
	plt = find_section(e, shstrndx, ".plt.sec", &plt_sh);
	first = 0;
	if (!plt) {
		plt = find_section(e, shstrndx, ".plt", &plt_sh);
		first = PLT_ENTRY;
	}
	symscn = elf_getscn(e, rel_sh.sh_link);
	if (!plt || !symscn || !gelf_getshdr(symscn, &sym_sh) ||
	    plt_sh.sh_type != SHT_PROGBITS)
		return 0;
	rel_data = elf_getdata(rel, NULL);
	sym_data = elf_getdata(symscn, NULL);
	if (!rel_data || !sym_data)
		return 0;
	nrel = rel_data->d_size / rel_sh.sh_entsize;
	/* Stubs past the end of the section are not there: no names. */
	if (plt_sh.sh_size < first)
		return 0;
	if (nrel > (plt_sh.sh_size - first) / PLT_ENTRY)
		nrel = (plt_sh.sh_size - first) / PLT_ENTRY;
	for (i = 0; i < nrel; i++) {
		uint64_t addr = plt_sh.sh_addr + first + i * PLT_ENTRY;
		const char *name = NULL;
		GElf_Rela ra;
		GElf_Sym s;
		size_t symi;
		char *n;

		if (!gelf_getrela(rel_data, (int)i, &ra))
			continue;
		symi = GELF_R_SYM(ra.r_info);
		if (symi && gelf_getsym(sym_data, (int)symi, &s))
			name = elf_strptr(e, sym_sh.sh_link, s.st_name);
		/*
		 * IRELATIVE (libc's own ifunc calls): no symbol, the resolver
		 * at the addend; perf names the stub by it too.
		 */
		if ((!name || !*name) &&
		    GELF_R_TYPE(ra.r_info) == R_X86_64_IRELATIVE) {
			if (asprintf(&n, "*ABS*+0x%llx@plt",
				     (unsigned long long)ra.r_addend) < 0)
				n = NULL;
		} else if (!name || !*name) {
			continue;
		} else {
			n = stub_name(name);
		}
		if (add(st, addr, PLT_ENTRY, n))
			return -ENOMEM;
	}
	return 0;
}

/* Where a stub's `jmp *disp32(%rip)` reads its target, or 0 if none. */
static uint64_t jmp_slot(const unsigned char *code, size_t len, uint64_t ip)
{
	size_t at = 0;
	int32_t disp;

	if (len >= 4 && !memcmp(code, "\xf3\x0f\x1e\xfa", 4))
		at = 4;		/* endbr64 */
	if (at < len && code[at] == 0xf2)
		at++;		/* bnd */
	if (at + 6 > len || code[at] != 0xff || code[at + 1] != 0x25)
		return 0;
	memcpy(&disp, code + at + 2, sizeof(disp));
	return ip + at + 6 + (int64_t)disp;
}

/* .plt.got: each stub named by the .rela.dyn symbol of its GOT slot. */
static int pltgot_stubs(Elf *e, size_t shstrndx, struct stubs *st)
{
	GElf_Shdr got_sh, rel_sh, sym_sh;
	Elf_Data *code, *rel_data, *sym_data;
	Elf_Scn *got, *rel, *symscn;
	size_t entsize, nent, nrel, i, j;

	got = find_section(e, shstrndx, ".plt.got", &got_sh);
	rel = find_section(e, shstrndx, ".rela.dyn", &rel_sh);
	if (!got || !rel || got_sh.sh_type != SHT_PROGBITS ||
	    rel_sh.sh_type != SHT_RELA || !rel_sh.sh_entsize)
		return 0;
	symscn = elf_getscn(e, rel_sh.sh_link);
	code = elf_getdata(got, NULL);
	rel_data = elf_getdata(rel, NULL);
	sym_data = symscn ? elf_getdata(symscn, NULL) : NULL;
	if (!symscn || !gelf_getshdr(symscn, &sym_sh) || !code ||
	    !code->d_buf || !rel_data || !sym_data)
		return 0;
	entsize = got_sh.sh_entsize ? got_sh.sh_entsize : 8;
	nent = code->d_size / entsize;
	nrel = rel_data->d_size / rel_sh.sh_entsize;
	for (i = 0; i < nent; i++) {
		uint64_t ip = got_sh.sh_addr + i * entsize;
		uint64_t slot = jmp_slot((const unsigned char *)code->d_buf +
					 i * entsize, entsize, ip);

		for (j = 0; slot && j < nrel; j++) {
			const char *name;
			GElf_Rela ra;
			GElf_Sym s;

			if (!gelf_getrela(rel_data, (int)j, &ra) ||
			    ra.r_offset != slot || !GELF_R_SYM(ra.r_info) ||
			    !gelf_getsym(sym_data, (int)GELF_R_SYM(ra.r_info), &s))
				continue;
			name = elf_strptr(e, sym_sh.sh_link, s.st_name);
			if (name && *name &&
			    add(st, ip, entsize, stub_name(name)))
				return -ENOMEM;
			break;
		}
	}
	return 0;
}

struct skd_symtab *skd_plt_symtab(Elf *e)
{
	struct stubs st = { 0 };
	struct skd_symtab *t = NULL;
	size_t shstrndx, i;

	if (!e || elf_kind(e) != ELF_K_ELF) {
		errno = ENOEXEC;
		return NULL;
	}
	if (elf_getshdrstrndx(e, &shstrndx))
		return empty();
	if (!plt_stubs(e, shstrndx, &st) && !pltgot_stubs(e, shstrndx, &st))
		t = skd_symtab_from_list(st.v, st.n);
	for (i = 0; i < st.n; i++)
		free((char *)st.v[i].name);
	free(st.v);
	if (!t)
		errno = ENOMEM;
	return t;
}
