// SPDX-License-Identifier: GPL-2.0
/*
 * Build-ids. ELF files go through elfutils (dwelf_elf_gnu_build_id reads
 * the note from program headers or sections, whichever the file has); the
 * kernel's notes file is a bare note sequence, walked here with every
 * length checked against what was read.
 */
#include <ctype.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <strings.h>
#include <stdlib.h>
#include <unistd.h>

#include "buildid.h"
#include "readall.h"

static int hex_encode(const unsigned char *id, size_t len, char *hex,
		      size_t hexlen)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	if (!len || len > SKD_BUILD_ID_MAX)
		return -ENODATA;
	if (hexlen < 2 * len + 1)
		return -ENOSPC;
	for (i = 0; i < len; i++) {
		hex[2 * i] = digits[id[i] >> 4];
		hex[2 * i + 1] = digits[id[i] & 15];
	}
	hex[2 * len] = '\0';
	return (int)len;
}

int skd_build_id_elf(Elf *e, char *hex, size_t hexlen)
{
	const void *id;
	ssize_t n;

	if (!e || elf_kind(e) != ELF_K_ELF)
		return -ENOEXEC;
	n = dwelf_elf_gnu_build_id(e, &id);
	if (n < 0)
		return -ENOEXEC;
	if (n == 0)
		return -ENODATA;
	return hex_encode(id, (size_t)n, hex, hexlen);
}

int skd_build_id_file(const char *path, char *hex, size_t hexlen)
{
	Elf *e;
	int fd, ret;

	if (!path || !hex)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	ret = skd_build_id_elf(e, hex, hexlen);
	elf_end(e);
	close(fd);
	return ret;
}

int skd_build_id_notes(const void *notes, size_t len, char *hex, size_t hexlen)
{
	const unsigned char *p = notes;
	size_t off = 0;

	while (len - off >= 12) {
		uint32_t namesz, descsz, type;
		size_t name_al, desc_al;

		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		off += 12;
		name_al = ((size_t)namesz + 3) & ~(size_t)3;
		desc_al = ((size_t)descsz + 3) & ~(size_t)3;
		if (name_al > len - off || desc_al > len - off - name_al)
			return -ENODATA;
		if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 &&
		    !memcmp(p + off, "GNU", 4))
			return hex_encode(p + off + name_al, descsz, hex, hexlen);
		off += name_al + desc_al;
	}
	return -ENODATA;
}

int skd_build_id_kernel(const char *path, char *hex, size_t hexlen)
{
	size_t len;
	char *buf;
	int fd, ret;

	fd = open(path ? path : "/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = skd_read_fd(fd, 1 << 20, &buf, &len);
	close(fd);
	if (ret)
		return ret;
	ret = skd_build_id_notes(buf, len, hex, hexlen);
	free(buf);
	return ret;
}

static int hexdigit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int skd_build_id_bytes(const char *hex, uint8_t *out, size_t cap)
{
	size_t n = strlen(hex), i;

	if (!n || n % 2 || n / 2 > cap)
		return -EINVAL;
	for (i = 0; i < n / 2; i++) {
		int hi = hexdigit(hex[2 * i]), lo = hexdigit(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return (int)(n / 2);
}

bool skd_build_id_valid(const char *hex)
{
	size_t n;

	if (!hex)
		return false;
	for (n = 0; hex[n]; n++)
		if (!isxdigit((unsigned char)hex[n]))
			return false;
	return n >= 2 && n <= 2 * SKD_BUILD_ID_MAX && !(n & 1);
}

bool skd_build_id_equal(const char *a, const char *b)
{
	return a && b && !strcasecmp(a, b);
}
