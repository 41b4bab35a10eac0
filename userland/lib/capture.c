// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"

#define REC_MAX		0xfff8	/* largest 8-aligned u16 size */
#define IO_BUF_SIZE	(1 << 20)

struct skd_capture_writer {
	FILE *f;
	uint64_t bytes;
	int err;			/* first error, sticky */
	/* Sink mode: whole records go to fn instead of a file. */
	skd_capture_sink_fn sink;
	void *sink_arg;
	uint8_t *pend;			/* a record being assembled */
	size_t pend_len;
};

static int writer_fail(struct skd_capture_writer *w, int err)
{
	if (!w->err)
		w->err = err;
	return w->err;
}

/* Records arrive in pieces (fixed part, strings, padding): join them. */
static int sink_bytes(struct skd_capture_writer *w, const void *p, size_t n)
{
	const struct skd_rec_header *h;
	int ret;

	memcpy(w->pend + w->pend_len, p, n);
	w->pend_len += n;
	w->bytes += n;
	h = (const void *)w->pend;
	if (w->pend_len < sizeof(*h) || w->pend_len < h->size)
		return 0;
	w->pend_len = 0;
	ret = w->sink(h, w->sink_arg);
	return ret ? writer_fail(w, ret) : 0;
}

static int put_bytes(struct skd_capture_writer *w, const void *p, size_t n)
{
	if (w->err)
		return w->err;
	if (w->sink)
		return n > REC_MAX + 8 - w->pend_len ?
		       writer_fail(w, -E2BIG) : sink_bytes(w, p, n);
	errno = 0;	/* a short write need not set it */
	if (fwrite(p, 1, n, w->f) != n)
		return writer_fail(w, errno ? -errno : -EIO);
	w->bytes += n;
	return 0;
}

struct skd_capture_writer *skd_capture_create(const char *path)
{
	struct skd_file_header h = { .version = SKD_FILE_VERSION,
				     .header_size = sizeof(h) };
	struct skd_capture_writer *w;

	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->f = fopen(path, "wbe");
	if (!w->f) {
		free(w);
		return NULL;
	}
	setvbuf(w->f, NULL, _IOFBF, IO_BUF_SIZE);
	memcpy(h.magic, SKD_FILE_MAGIC, sizeof(h.magic));
	put_bytes(w, &h, sizeof(h));
	return w;
}

struct skd_capture_writer *skd_capture_create_sink(skd_capture_sink_fn fn,
						  void *arg)
{
	struct skd_capture_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->pend = malloc(REC_MAX + 8);
	if (!w->pend) {
		free(w);
		return NULL;
	}
	w->sink = fn;
	w->sink_arg = arg;
	return w;
}

int skd_capture_put(struct skd_capture_writer *w, const void *rec)
{
	const struct skd_rec_header *h = rec;

	return put_bytes(w, rec, h->size);
}

/* A record of fixed part @fixed (header included) followed by strings. */
static int put_with_strings(struct skd_capture_writer *w, void *fixed,
			    size_t fixed_len, const char *const *strs,
			    unsigned int n)
{
	static const uint8_t zeros[8];
	struct skd_rec_header *h = fixed;
	size_t len = fixed_len, i, pad;
	int ret;

	for (i = 0; i < n; i++)
		len += strlen(strs[i]) + 1;
	pad = -len & 7;
	if (len + pad > REC_MAX)
		return writer_fail(w, -ENAMETOOLONG);
	h->size = (uint16_t)(len + pad);
	ret = put_bytes(w, fixed, fixed_len);
	for (i = 0; !ret && i < n; i++)
		ret = put_bytes(w, strs[i], strlen(strs[i]) + 1);
	return ret ? ret : put_bytes(w, zeros, pad);
}

int skd_capture_put_session(struct skd_capture_writer *w,
			    const struct skd_frec_session *s,
			    const char *hostname, const char *release,
			    const char *cmdline, const char *pmu)
{
	const char *strs[] = { hostname, release, cmdline, pmu };
	struct skd_frec_session rec = *s;

	rec.hdr.type = SKD_FREC_SESSION;
	rec.hdr.misc = 0;
	return put_with_strings(w, &rec, sizeof(rec), strs, 4);
}

int skd_capture_put_event(struct skd_capture_writer *w, uint32_t index,
			  uint32_t branch_sample,
			  const struct skd_event_attr *attr, const char *name)
{
	struct skd_frec_event rec = {
		.hdr.type = SKD_FREC_EVENT,
		.index = index,
		.branch_sample = branch_sample,
		.attr = *attr,
	};

	return put_with_strings(w, &rec, sizeof(rec), &name, 1);
}

int skd_capture_put_map(struct skd_capture_writer *w, uint64_t time,
			uint32_t pid, uint64_t start, uint64_t end,
			uint64_t pgoff, const char *path)
{
	struct skd_frec_map rec = {
		.hdr.type = SKD_FREC_MAP,
		.time = time, .pid = pid,
		.start = start, .end = end, .pgoff = pgoff,
	};

	return put_with_strings(w, &rec, sizeof(rec), &path, 1);
}

int skd_capture_put_ksym(struct skd_capture_writer *w, uint64_t addr,
			 uint64_t size, const char *name)
{
	struct skd_frec_ksym rec = {
		.hdr.type = SKD_FREC_KSYM, .addr = addr, .size = size,
	};

	return put_with_strings(w, &rec, sizeof(rec), &name, 1);
}

int skd_capture_put_stats(struct skd_capture_writer *w, uint32_t cpu,
			  const struct skd_cpu_stats *st)
{
	struct skd_frec_stats rec = {
		.hdr.type = SKD_FREC_STATS, .hdr.size = sizeof(rec),
		.cpu = cpu, .stats = *st,
	};

	return put_bytes(w, &rec, sizeof(rec));
}

uint64_t skd_capture_bytes(const struct skd_capture_writer *w)
{
	return w->bytes;
}

int skd_capture_finish(struct skd_capture_writer *w, uint64_t time)
{
	struct skd_frec_finished rec = {
		.hdr.type = SKD_FREC_FINISHED, .hdr.size = sizeof(rec),
		.time = time,
	};
	int ret;

	put_bytes(w, &rec, sizeof(rec));
	if (w->sink) {
		ret = w->err;
		free(w->pend);
		free(w);
		return ret;
	}
	if (fflush(w->f))
		writer_fail(w, -errno);
	if (fsync(fileno(w->f)) && errno != EINVAL)
		writer_fail(w, -errno);
	if (fclose(w->f))
		writer_fail(w, -errno);
	ret = w->err;
	free(w);
	return ret;
}

int skd_capture_open(const char *path, struct skd_capture *c, char *err,
		     size_t errlen)
{
	const struct skd_file_header *h;
	struct stat st;
	void *base;
	int fd, ret;

	memset(c, 0, sizeof(*c));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot open %s: %s", path,
			 strerror(errno));
		return ret;
	}
	if (fstat(fd, &st)) {
		ret = -errno;
		snprintf(err, errlen, "cannot stat %s: %s", path,
			 strerror(errno));
		close(fd);
		return ret;
	}
	if ((size_t)st.st_size < sizeof(*h)) {
		close(fd);
		snprintf(err, errlen,
			 "%s is %lld bytes, too short for a skidless capture",
			 path, (long long)st.st_size);
		return -EINVAL;
	}
	base = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	ret = -errno;
	close(fd);
	if (base == MAP_FAILED) {
		snprintf(err, errlen, "cannot map %s: %s", path, strerror(-ret));
		return ret;
	}

	h = base;
	if (memcmp(h->magic, SKD_FILE_MAGIC, sizeof(h->magic))) {
		snprintf(err, errlen,
			 "%s is not a skidless capture (no SKIDLESS magic)",
			 path);
		ret = -EINVAL;
		goto err_unmap;
	}
	if (h->version != SKD_FILE_VERSION) {
		snprintf(err, errlen,
			 "%s is capture format %u; this skidless reads %u%s",
			 path, h->version, SKD_FILE_VERSION,
			 h->version == 1 ? " (format 1 came before config1; "
			 "read it with the skidless that recorded it, or "
			 "record it again)" : "");
		ret = -EPROTO;
		goto err_unmap;
	}
	if (h->header_size < sizeof(*h) || h->header_size % 8 ||
	    h->header_size > (uint64_t)st.st_size) {
		snprintf(err, errlen, "%s has a corrupt header", path);
		ret = -EINVAL;
		goto err_unmap;
	}
	c->base = base;
	c->len = st.st_size;
	c->first = h->header_size;
	return 0;

err_unmap:
	munmap(base, st.st_size);
	return ret;
}

const struct skd_rec_header *skd_capture_next(struct skd_capture *c,
					      size_t *off, size_t *bad)
{
	const struct skd_rec_header *h;

	if (*off >= c->len)
		return NULL;
	h = (const void *)(c->base + *off);
	if (c->len - *off < sizeof(*h) || h->size < sizeof(*h) ||
	    h->size % 8 || h->size > c->len - *off) {
		*bad = *off;
		return NULL;
	}
	if (h->type == SKD_FREC_FINISHED)
		c->finished = 1;
	*off += h->size;
	return h;
}

void skd_capture_close(struct skd_capture *c)
{
	if (c->base)
		munmap((void *)c->base, c->len);
	memset(c, 0, sizeof(*c));
}

/* A record of at least @fixed bytes whose tail holds a NUL. */
static const void *with_string(const struct skd_rec_header *h, uint32_t type,
			       size_t fixed)
{
	if (h->type != type || h->size < fixed + 1)
		return NULL;
	if (!memchr((const uint8_t *)h + fixed, '\0', h->size - fixed))
		return NULL;
	return h;
}

const struct skd_frec_map *skd_frec_map(const struct skd_rec_header *h)
{
	return with_string(h, SKD_FREC_MAP, sizeof(struct skd_frec_map));
}

const struct skd_frec_ksym *skd_frec_ksym(const struct skd_rec_header *h)
{
	return with_string(h, SKD_FREC_KSYM, sizeof(struct skd_frec_ksym));
}

const struct skd_frec_stats *skd_frec_stats(const struct skd_rec_header *h)
{
	if (h->type != SKD_FREC_STATS || h->size < sizeof(struct skd_frec_stats))
		return NULL;
	return (const void *)h;
}

const struct skd_frec_event *skd_frec_event(const struct skd_rec_header *h)
{
	return with_string(h, SKD_FREC_EVENT, sizeof(struct skd_frec_event));
}

const struct skd_frec_build_id *
skd_frec_build_id(const struct skd_rec_header *h)
{
	const struct skd_frec_build_id *b;

	b = with_string(h, SKD_FREC_BUILD_ID, sizeof(struct skd_frec_build_id));
	return b && memchr(b->hex, '\0', sizeof(b->hex)) ? b : NULL;
}

const struct skd_frec_session *skd_frec_session(const struct skd_rec_header *h)
{
	return with_string(h, SKD_FREC_SESSION,
			   sizeof(struct skd_frec_session));
}

const char *skd_frec_session_string(const struct skd_frec_session *s,
				    unsigned int i)
{
	const char *p = s->strings;
	const char *end = (const char *)s + s->hdr.size;

	for (; i && p < end; i--)
		p += strnlen(p, end - p) + 1;
	/* The last string must end inside the record. */
	if (p >= end || !memchr(p, '\0', end - p))
		return "";
	return p;
}
