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
#include "buildid.h"
#include "dso.h"

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

/* Every PT_LOAD offset maps, every lookup answers without crashing. */
static void check_dso(struct skd_dso *d, size_t size)
{
	struct skd_dso_sym s;
	uint64_t off, v;

	for (off = 0; off < size + 64; off += 61) {
		if (skd_dso_offset_to_vaddr(d, off, &v))
			continue;
		FUZZ_CHECK(!skd_dso_lookup(d, v, &s) || 1);
		if (s.name)
			FUZZ_CHECK(s.start <= v);
	}
	FUZZ_CHECK(skd_dso_offset_to_vaddr(d, 0, NULL) == -EINVAL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char hex[2 * 64 + 1], dir[PATH_MAX + 32], link[PATH_MAX + 160];
	const char *path = fuzz_file(data, size);
	int len;

	len = skd_build_id_file(path, hex, sizeof(hex));
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

	{
		struct skd_dso_opts o = { .cache_dir = "",
					  .debug_dir = len >= 2 ? root : "/nonexistent" };
		struct skd_dso *d = skd_dso_open(path, len > 0 ? hex : NULL, &o,
						 NULL, 0);

		if (d) {
			check_dso(d, size);
			skd_dso_free(d);
		} else {
			FUZZ_CHECK(errno == ENOEXEC || errno == ENOMEM ||
				   errno == ESTALE);
		}
	}

	if (link[0])
		unlink(link);
	return 0;
}
