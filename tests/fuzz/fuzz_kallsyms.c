// SPDX-License-Identifier: GPL-2.0
/*
 * Feeds input bytes as a kallsyms file to skd_symtab_open_kallsyms(), then
 * looks up every symbol and input addresses and rebuilds the table from
 * the list a capture stores: `record` reads whatever /proc/kallsyms holds.
 */
#include <string.h>

#include "fuzzlib.h"
#include "symbols.h"

/* What symbols.h promises of any table: sorted, lookups land inside. */
static void check_table(const struct skd_symtab *t)
{
	const struct skd_sym *s, *prev = NULL, *hit;
	size_t i, n = skd_symtab_count(t);

	for (i = 0; i < n; i++, prev = s) {
		s = skd_symtab_at(t, i);
		FUZZ_CHECK(s && s->name && s->name[0]);
		FUZZ_CHECK(!prev || prev->addr < s->addr);
		/* Only the last symbol may have an unknown end. */
		FUZZ_CHECK(s->size || i == n - 1);
		FUZZ_CHECK(skd_symtab_lookup(t, s->addr) == s);
		if (s->size > 1) {
			hit = skd_symtab_lookup(t, s->addr + s->size - 1);
			FUZZ_CHECK(hit && s->addr + s->size - 1 - hit->addr <
					  hit->size);
		}
	}
	FUZZ_CHECK(!skd_symtab_at(t, n));
}

static void check_lookup(const struct skd_symtab *t, uint64_t addr)
{
	const struct skd_sym *s = skd_symtab_lookup(t, addr);

	FUZZ_CHECK(!s || addr == s->addr || addr - s->addr < s->size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct skd_symtab *t, *copy;
	struct skd_sym *list;
	uint64_t addr;
	size_t i, n;

	t = skd_symtab_open_kallsyms(fuzz_file(data, size));
	if (!t) {
		FUZZ_CHECK(errno == ENOEXEC || errno == EPERM ||
			   errno == ENOMEM);
		return 0;
	}
	check_table(t);
	for (i = 0; i + 8 <= size; i += 8) {
		memcpy(&addr, data + i, sizeof(addr));
		check_lookup(t, addr);
	}
	check_lookup(t, 0);
	check_lookup(t, UINT64_MAX);

	/* Stored in a capture and read back: the same table. */
	n = skd_symtab_count(t);
	list = malloc((n ? n : 1) * sizeof(*list));
	FUZZ_CHECK(list);
	for (i = 0; i < n; i++)
		list[i] = *skd_symtab_at(t, i);
	copy = skd_symtab_from_list(list, n);
	FUZZ_CHECK(copy && skd_symtab_count(copy) == n);
	for (i = 0; i < n; i++) {
		const struct skd_sym *a = skd_symtab_at(t, i);
		const struct skd_sym *b = skd_symtab_at(copy, i);

		FUZZ_CHECK(a->addr == b->addr && a->size == b->size &&
			   !strcmp(a->name, b->name));
	}
	skd_symtab_free(copy);
	free(list);
	skd_symtab_free(t);
	return 0;
}
