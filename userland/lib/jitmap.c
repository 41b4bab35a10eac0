// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jitmap.h"
#include "readall.h"
#include "symbols.h"

int skd_jitmap_path(const char *dir, uint32_t pid, char *out, size_t len)
{
	if ((size_t)snprintf(out, len, "%s/perf-%u.map", dir ? dir : "/tmp",
			     pid) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* One hex number, "0x" allowed; advances *p. */
static int hex(char **p, uint64_t *v)
{
	char *s = *p, *end;

	while (*s == ' ' || *s == '\t')
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') ||
	      (*s >= 'A' && *s <= 'F')))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 16);
	if (errno || (*end != ' ' && *end != '\t'))
		return -1;
	*p = end;
	return 0;
}

struct skd_symtab *skd_jitmap_open(const char *path)
{
	struct skd_sym *syms = NULL, *grown;
	struct skd_symtab *t = NULL;
	size_t len, n = 0, cap = 0;
	char *buf, *line, *next;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	ret = skd_read_fd(fd, 1UL << 30, &buf, &len);
	close(fd);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	for (line = buf; line < buf + len; line = next) {
		uint64_t start, size;
		char *p = line, *nl = memchr(line, '\n', buf + len - line);

		next = nl ? nl + 1 : buf + len;
		if (nl)
			*nl = '\0';
		if (hex(&p, &start) || hex(&p, &size))
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			grown = realloc(syms, cap * sizeof(*syms));
			if (!grown) {
				errno = ENOMEM;
				goto out;
			}
			syms = grown;
		}
		/* A zero size would stretch to the next entry: keep one byte. */
		syms[n++] = (struct skd_sym) { start, size ? size : 1, p };
	}
	if (!n) {
		errno = ENOEXEC;
		goto out;
	}
	t = skd_symtab_from_list(syms, n);
out:
	free(syms);
	free(buf);
	return t;
}
