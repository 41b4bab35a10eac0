/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fuzz targets share: a check that turns a broken promise of the
 * code under test into a crash libFuzzer records, and a file holding the
 * input for the readers that only take a path.
 */
#ifndef _SKD_FUZZLIB_H
#define _SKD_FUZZLIB_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* An invariant the code under test documents, checked on every input. */
#define FUZZ_CHECK(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

/*
 * @data in a memory file, as one reusable path: "/proc/self/fd/N". Every
 * open() of the path starts at offset 0 and sees exactly @size bytes.
 */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	static char path[32];
	static int fd = -1;
	size_t done = 0;
	ssize_t n;

	if (fd < 0) {
		fd = memfd_create("skd-fuzz", MFD_CLOEXEC);
		if (fd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0)) {
		perror("ftruncate");
		abort();
	}
	while (done < size) {
		n = pwrite(fd, data + done, size - done, (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			perror("pwrite");
			abort();
		}
		done += (size_t)n;
	}
	return path;
}

/* Little-endian integers at the head of an input, 0 past its end. */
static inline uint64_t fuzz_take(const uint8_t **data, size_t *size,
				 unsigned int bytes)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < bytes; i++) {
		if (*size) {
			v |= (uint64_t)**data << (8 * i);
			(*data)++;
			(*size)--;
		}
	}
	return v;
}

#endif /* _SKD_FUZZLIB_H */
