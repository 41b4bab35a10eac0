// SPDX-License-Identifier: GPL-2.0
/*
 * PLT names. Every index read from the file (relocation symbol, string
 * offset, section link) is checked; an IRELATIVE relocation, which has
 * no symbol, names its stub by the resolver's address, as perf does.
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

struct skd_symtab *skd_plt_symtab(Elf *e)
{
	GElf_Shdr rel_sh, plt_sh, sym_sh;
	Elf_Data *rel_data, *sym_data;
	Elf_Scn *rel, *plt, *symscn;
	struct skd_symtab *t;
	struct skd_sym *syms;
	size_t shstrndx, nrel, i, n = 0;
	uint64_t first;
	char **names;

	if (!e || elf_kind(e) != ELF_K_ELF) {
		errno = ENOEXEC;
		return NULL;
	}
	if (elf_getshdrstrndx(e, &shstrndx))
		return empty();
	rel = find_section(e, shstrndx, ".rela.plt", &rel_sh);
	if (!rel || rel_sh.sh_type != SHT_RELA || !rel_sh.sh_entsize)
		return empty();
	plt = find_section(e, shstrndx, ".plt.sec", &plt_sh);
	first = 0;
	if (!plt) {
		plt = find_section(e, shstrndx, ".plt", &plt_sh);
		first = PLT_ENTRY;
	}
	symscn = elf_getscn(e, rel_sh.sh_link);
	if (!plt || !symscn || !gelf_getshdr(symscn, &sym_sh) ||
	    plt_sh.sh_type != SHT_PROGBITS)
		return empty();
	rel_data = elf_getdata(rel, NULL);
	sym_data = elf_getdata(symscn, NULL);
	if (!rel_data || !sym_data)
		return empty();
	nrel = rel_data->d_size / rel_sh.sh_entsize;
	/* Stubs past the end of the section are not there: no names. */
	if (plt_sh.sh_size < first)
		return empty();
	if (nrel > (plt_sh.sh_size - first) / PLT_ENTRY)
		nrel = (plt_sh.sh_size - first) / PLT_ENTRY;
	syms = calloc(nrel ? nrel : 1, sizeof(*syms));
	names = calloc(nrel ? nrel : 1, sizeof(*names));
	if (!syms || !names)
		goto nomem;
	for (i = 0; i < nrel; i++) {
		GElf_Rela ra;
		GElf_Sym s;
		const char *name;
		size_t symi;

		if (!gelf_getrela(rel_data, (int)i, &ra))
			continue;
		symi = GELF_R_SYM(ra.r_info);
		name = NULL;
		if (symi && gelf_getsym(sym_data, (int)symi, &s))
			name = elf_strptr(e, sym_sh.sh_link, s.st_name);
		/*
		 * IRELATIVE (libc's own ifunc calls): no symbol, the resolver
		 * at the addend; perf names the stub by it too.
		 */
		if ((!name || !*name) &&
		    GELF_R_TYPE(ra.r_info) == R_X86_64_IRELATIVE) {
			if (asprintf(&names[n], "*ABS*+0x%llx@plt",
				     (unsigned long long)ra.r_addend) < 0) {
				names[n] = NULL;
				goto nomem;
			}
		} else if (!name || !*name) {
			continue;
		} else if (asprintf(&names[n], "%s@plt", name) < 0) {
			names[n] = NULL;
			goto nomem;
		}
		syms[n].addr = plt_sh.sh_addr + first + i * PLT_ENTRY;
		syms[n].size = PLT_ENTRY;
		syms[n].name = names[n];
		n++;
	}
	t = skd_symtab_from_list(syms, n);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(syms);
	return t;
nomem:
	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	free(syms);
	errno = ENOMEM;
	return NULL;
}

/* Where @ip's `jmp *disp32(%rip)` reads its target, or 0 if it is none. */
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

struct skd_symtab *skd_pltgot_symtab(Elf *e)
{
	GElf_Shdr got_sh, rel_sh, sym_sh;
	Elf_Data *code, *rel_data, *sym_data;
	Elf_Scn *got, *rel, *symscn;
	size_t shstrndx, entsize, nent, nrel, i, j, n = 0;
	struct skd_symtab *t;
	struct skd_sym *syms;
	char **names;

	if (!e || elf_kind(e) != ELF_K_ELF) {
		errno = ENOEXEC;
		return NULL;
	}
	if (elf_getshdrstrndx(e, &shstrndx))
		return empty();
	got = find_section(e, shstrndx, ".plt.got", &got_sh);
	rel = find_section(e, shstrndx, ".rela.dyn", &rel_sh);
	if (!got || !rel || got_sh.sh_type != SHT_PROGBITS ||
	    rel_sh.sh_type != SHT_RELA || !rel_sh.sh_entsize)
		return empty();
	symscn = elf_getscn(e, rel_sh.sh_link);
	code = elf_getdata(got, NULL);
	rel_data = elf_getdata(rel, NULL);
	sym_data = symscn ? elf_getdata(symscn, NULL) : NULL;
	if (!symscn || !gelf_getshdr(symscn, &sym_sh) || !code ||
	    !code->d_buf || !rel_data || !sym_data)
		return empty();
	entsize = got_sh.sh_entsize ? got_sh.sh_entsize : 8;
	nent = code->d_size / entsize;
	nrel = rel_data->d_size / rel_sh.sh_entsize;
	syms = calloc(nent ? nent : 1, sizeof(*syms));
	names = calloc(nent ? nent : 1, sizeof(*names));
	if (!syms || !names)
		goto nomem;
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
			if (!name || !*name)
				break;
			if (asprintf(&names[n], "%s@plt", name) < 0) {
				names[n] = NULL;
				goto nomem;
			}
			syms[n].addr = ip;
			syms[n].size = entsize;
			syms[n].name = names[n];
			n++;
			break;
		}
	}
	t = skd_symtab_from_list(syms, n);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(syms);
	return t;
nomem:
	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	free(syms);
	errno = ENOMEM;
	return NULL;
}
