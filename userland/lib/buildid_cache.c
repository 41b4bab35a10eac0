// SPDX-License-Identifier: GPL-2.0
/*
 * The perf-compatible build-id cache (layout in buildid_cache.h, checked
 * against perf 6.1's tools/perf/util/build-id.c and `perf buildid-cache
 * --list`). perf hard-links the object when it can; a copy is used here so
 * that a later rebuild of the file in place never changes the entry.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elf.h>
#include <libelf.h>

#include "buildid.h"
#include "buildid_cache.h"
#include "readall.h"

#define ERR(...) (err ? (void)snprintf(err, errlen, __VA_ARGS__) : (void)0)

int skd_buildid_cache_dir(char *out, size_t len)
{
	const char *home = getenv("HOME");

	if (!home || !*home)
		return -ENOENT;
	if ((size_t)snprintf(out, len, "%s/.debug", home) >= len)
		return -ENAMETOOLONG;
	return 0;
}

static int mkdir_p(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* @dst through a temporary file in its directory and rename(2). */
static int write_atomic(const char *dst, int src_fd, const void *buf,
			size_t len)
{
	char tmp[PATH_MAX];
	char chunk[65536];
	int fd, ret = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.XXXXXX", dst) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	if (buf) {
		ret = write_all(fd, buf, len);
	} else {
		for (;;) {
			ssize_t n = read(src_fd, chunk, sizeof(chunk));

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				ret = n < 0 ? -errno : 0;
				break;
			}
			ret = write_all(fd, chunk, (size_t)n);
			if (ret)
				break;
		}
	}
	if (!ret && fchmod(fd, buf ? 0644 : 0755))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, dst))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

/* <dir>/.build-id/xx/rest -> ../../<rel>, through a temporary link. */
static int link_build_id(const char *dir, const char *bid, const char *rel)
{
	char link[PATH_MAX], tmp[PATH_MAX + 16], target[PATH_MAX];
	int ret;

	if ((size_t)snprintf(link, sizeof(link), "%s/.build-id/%.2s", dir,
			     bid) >= sizeof(link) ||
	    (size_t)snprintf(target, sizeof(target), "../../%s", rel) >=
			     sizeof(target))
		return -ENAMETOOLONG;
	ret = mkdir_p(link);
	if (ret)
		return ret;
	snprintf(link + strlen(link), sizeof(link) - strlen(link), "/%s",
		 bid + 2);
	snprintf(tmp, sizeof(tmp), "%s.tmp%ld", link, (long)getpid());
	unlink(tmp);
	if (symlink(target, tmp))
		return -errno;
	if (rename(tmp, link)) {
		ret = -errno;
		unlink(tmp);
		return ret;
	}
	return 0;
}

/*
 * Store @len bytes of @buf (or the contents of @src_fd) as
 * <dir>/<rel>/<bid>/<base>; @rel has no leading '/'.
 */
static int store(const char *dir, const char *rel, const char *bid,
		 const char *base, int src_fd, const void *buf, size_t len,
		 char *err, size_t errlen)
{
	char path[PATH_MAX], relbid[PATH_MAX];
	struct stat st;
	int ret;

	if ((size_t)snprintf(relbid, sizeof(relbid), "%s/%s", rel, bid) >=
			     sizeof(relbid) ||
	    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, relbid) >=
			     sizeof(path) - 16) {
		ERR("build-id cache: path too long under %s", dir);
		return -ENAMETOOLONG;
	}
	ret = mkdir_p(path);
	if (ret) {
		ERR("build-id cache: cannot create %s: %s (check the "
		    "permissions of %s, or choose another cache directory)",
		    path, strerror(-ret), dir);
		return ret;
	}
	strcat(path, "/");
	strcat(path, base);
	if (stat(path, &st)) {
		ret = write_atomic(path, src_fd, buf, len);
		if (ret) {
			ERR("build-id cache: cannot write %s: %s (free space "
			    "or permissions under %s)", path, strerror(-ret),
			    dir);
			return ret;
		}
	}
	ret = link_build_id(dir, bid, relbid);
	if (ret)
		ERR("build-id cache: cannot link %s/.build-id/%.2s/%s: %s",
		    dir, bid, bid + 2, strerror(-ret));
	return ret;
}

static int pick_dir(const char *dir, char *buf, size_t len, const char **out)
{
	int ret;

	if (dir) {
		*out = dir;
		return 0;
	}
	ret = skd_buildid_cache_dir(buf, len);
	*out = buf;
	return ret;
}

static int add_elf(const char *dir, const char *path, const char *want,
		   char *bid_out, char *err, size_t errlen)
{
	char abs[PATH_MAX], bid[SKD_BUILD_ID_HEX];
	Elf *e;
	int fd, ret;

	if (!realpath(path, abs)) {
		ret = -errno;
		ERR("%s: %s: nothing to add to the build-id cache", path,
		    strerror(errno));
		return ret;
	}
	fd = open(abs, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		ERR("%s: %s", abs, strerror(errno));
		return ret;
	}
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	ret = skd_build_id_elf(e, bid, sizeof(bid));
	elf_end(e);
	if (ret < 0) {
		ERR(ret == -ENODATA ?
		    "%s has no build-id: it cannot be matched later (link it "
		    "with -Wl,--build-id)" :
		    "%s is not an ELF object: not added to the build-id cache",
		    abs);
		goto out;
	}
	if (want && !skd_build_id_equal(want, bid)) {
		ret = -ESTALE;
		ERR("%s has build-id %s, the capture saw %s: it changed "
		    "since; not cached (cache objects while recording)",
		    abs, bid, want);
		goto out;
	}
	if (lseek(fd, 0, SEEK_SET)) {
		ret = -errno;
		goto out;
	}
	ret = store(dir, abs + 1, bid, "elf", fd, NULL, 0, err, errlen);
	if (!ret && bid_out)
		strcpy(bid_out, bid);
out:
	close(fd);
	return ret;
}

int skd_vdso_image(const void **image, size_t *len)
{
	const Elf64_Ehdr *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Phdr *ph;
	uint64_t end;
	unsigned int i;

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		return -ENOENT;
	/* The image ends with its section headers, which the kernel maps. */
	end = eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize;
	ph = (const void *)((const char *)eh + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_offset + ph[i].p_filesz > end)
			end = ph[i].p_offset + ph[i].p_filesz;
	if (end > (1 << 20))
		return -EFBIG;
	*image = eh;
	*len = end;
	return 0;
}

int skd_buildid_cache_add_vdso_image(const char *dir, const void *image,
				     size_t len, char *bid_out, char *err,
				     size_t errlen)
{
	char bid[SKD_BUILD_ID_HEX];
	Elf *e;
	int ret;

	elf_version(EV_CURRENT);
	e = elf_memory((char *)image, len);
	ret = skd_build_id_elf(e, bid, sizeof(bid));
	elf_end(e);
	if (ret < 0) {
		ERR("the vdso image has no build-id: vdso frames cannot be "
		    "named later");
		return ret;
	}
	ret = store(dir, SKD_VDSO_NAME, bid, "vdso", -1, image, len, err,
		    errlen);
	if (!ret && bid_out)
		strcpy(bid_out, bid);
	return ret;
}

static bool kallsyms_has_addresses(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (end - p >= 16 && strspn(p, "0") < 16)
			return true;
		if (!nl)
			break;
		p = nl + 1;
	}
	return false;
}

int skd_buildid_cache_add_kallsyms(const char *dir, const char *kallsyms,
				   const char *notes, char *bid_out,
				   char *err, size_t errlen)
{
	char bid[SKD_BUILD_ID_HEX];
	size_t len;
	char *buf;
	int fd, ret;

	ret = skd_build_id_kernel(notes, bid, sizeof(bid));
	if (ret < 0) {
		ERR("%s: no kernel build-id (%s): kernel symbols cannot be "
		    "matched later", notes ? notes : "/sys/kernel/notes",
		    strerror(-ret));
		return ret;
	}
	fd = open(kallsyms ? kallsyms : "/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		ERR("%s: %s", kallsyms ? kallsyms : "/proc/kallsyms",
		    strerror(errno));
		return ret;
	}
	ret = skd_read_fd(fd, 1UL << 30, &buf, &len);
	close(fd);
	if (ret)
		return ret;
	/*
	 * kptr_restrict hides every address as zeros: such text names
	 * nothing. (Some symbols are zero anyway: the per-CPU ones first.)
	 */
	if (!kallsyms_has_addresses(buf, len)) {
		free(buf);
		ERR("kallsyms addresses are hidden (kptr_restrict): record as "
		    "root or set /proc/sys/kernel/kptr_restrict to 0");
		return -EPERM;
	}
	ret = store(dir, SKD_KALLSYMS_NAME, bid, "kallsyms", -1, buf, len,
		    err, errlen);
	free(buf);
	if (!ret && bid_out)
		strcpy(bid_out, bid);
	return ret;
}

int skd_buildid_cache_add(const char *dir, const char *path,
			  const char *build_id, char *bid_out, char *err,
			  size_t errlen)
{
	char dbuf[PATH_MAX];
	const void *image;
	size_t len;
	int ret;

	if (!path || (build_id && !skd_build_id_valid(build_id))) {
		ERR("build-id cache: no path or a malformed build-id");
		return -EINVAL;
	}
	ret = pick_dir(dir, dbuf, sizeof(dbuf), &dir);
	if (ret) {
		ERR("build-id cache: HOME is not set: set it or pass a cache "
		    "directory");
		return ret;
	}
	if (!strcmp(path, SKD_VDSO_NAME)) {
		ret = skd_vdso_image(&image, &len);
		if (ret) {
			ERR("this process has no usable vdso (%s)",
			    strerror(-ret));
			return ret;
		}
		return skd_buildid_cache_add_vdso_image(dir, image, len,
							bid_out, err, errlen);
	}
	if (!strcmp(path, SKD_KALLSYMS_NAME))
		return skd_buildid_cache_add_kallsyms(dir, NULL, NULL, bid_out,
						      err, errlen);
	if (path[0] != '/') {
		ERR("%s: not a file path (anonymous or special mapping): "
		    "nothing to cache", path);
		return -EINVAL;
	}
	return add_elf(dir, path, build_id, bid_out, err, errlen);
}

int skd_buildid_cache_lookup(const char *dir, const char *build_id,
			     char *out, size_t outlen)
{
	static const char *const bases[] = { "elf", "vdso", "kallsyms", "debug" };
	char dbuf[PATH_MAX], link[PATH_MAX];
	struct stat st;
	unsigned int i;
	int ret;

	if (!skd_build_id_valid(build_id) || !out)
		return -EINVAL;
	ret = pick_dir(dir, dbuf, sizeof(dbuf), &dir);
	if (ret)
		return ret;
	/* perf writes lower case; ids from elsewhere may not be. */
	if ((size_t)snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", dir,
			     build_id, build_id + 2) >= sizeof(link))
		return -ENAMETOOLONG;
	for (char *p = link + strlen(dir); *p; p++)
		if (*p >= 'A' && *p <= 'F')
			*p += 'a' - 'A';
	for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		if ((size_t)snprintf(out, outlen, "%s/%s", link, bases[i]) >=
		    outlen)
			return -ENAMETOOLONG;
		if (!stat(out, &st) && S_ISREG(st.st_mode))
			return 0;
	}
	out[0] = '\0';
	return -ENOENT;
}
