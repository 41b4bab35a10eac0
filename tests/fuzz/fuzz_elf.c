// SPDX-License-Identifier: GPL-2.0
/*
 * Feeds input bytes as an ELF file to skd_elf_build_id() and
 * skd_symtab_open_elf_debug() (all the libelf use), the input also being
 * its own debug file: a profile names any file a sampled process mapped.
 */
#include <ftw.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzzlib.h"
#include "symbols.h"

static char root[PATH_MAX];

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void remove_root(void)
{
	nftw(root, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

/*
 * The debug root, made once: in $TMPDIR, else tmpfs if there is one, as
 * the symlink each input with a build-id gets is file system work.
 */
static const char *debug_root(void)
{
	const char *tmp = getenv("TMPDIR");
	char ids[PATH_MAX + 16];

	if (!root[0]) {
		if (!(tmp && *tmp) && !access("/dev/shm", W_OK))
			tmp = "/dev/shm";
		snprintf(root, sizeof(root), "%s/skd-fuzz-elf.XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		FUZZ_CHECK(mkdtemp(root));
		atexit(remove_root);
		snprintf(ids, sizeof(ids), "%s/.build-id", root);
		FUZZ_CHECK(!mkdir(ids, 0700));
	}
	return root;
}

static void check_table(const struct skd_symtab *t, const uint8_t *data,
			size_t size)
{
	const struct skd_sym *s, *prev = NULL;
	size_t i, n = skd_symtab_count(t);
	uint64_t v, off;

	for (i = 0; i < n; i++, prev = s) {
		s = skd_symtab_at(t, i);
		FUZZ_CHECK(s && s->name && s->name[0]);
		FUZZ_CHECK(!prev || prev->addr < s->addr);
		FUZZ_CHECK(skd_symtab_lookup(t, s->addr) == s);
	}
	/* Offsets from the input, as maps lines would give them. */
	for (i = 0; i + 8 <= size && i < 256; i += 8) {
		memcpy(&off, data + i, sizeof(off));
		if (skd_symtab_offset_to_vaddr(t, off, &v))
			continue;
		s = skd_symtab_lookup(t, v);
		FUZZ_CHECK(!s || v == s->addr || v - s->addr < s->size);
	}
	FUZZ_CHECK(skd_symtab_offset_to_vaddr(t, 0, NULL) == -EINVAL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char hex[2 * 64 + 1], dir[PATH_MAX + 32], link[PATH_MAX + 160];
	const char *path = fuzz_file(data, size);
	struct skd_symtab *t;
	int len;

	len = skd_elf_build_id(path, hex, sizeof(hex));
	FUZZ_CHECK(len != -ENOSPC);
	if (len > 0)
		FUZZ_CHECK(strlen(hex) == 2 * (size_t)len);
	link[0] = '\0';
	if (len >= 2) {
		snprintf(dir, sizeof(dir), "%s/.build-id/%.2s", debug_root(),
			 hex);
		FUZZ_CHECK(!mkdir(dir, 0700) || errno == EEXIST);
		snprintf(link, sizeof(link), "%s/%s.debug", dir, hex + 2);
		FUZZ_CHECK(!symlink(path, link));
	}

	t = skd_symtab_open_elf_debug(path, len >= 2 ? root : NULL);
	if (t) {
		check_table(t, data, size);
		skd_symtab_free(t);
	} else {
		FUZZ_CHECK(errno == ENOEXEC || errno == ENOMEM);
	}

	if (link[0])
		unlink(link);
	return 0;
}
