// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata_read.h"
#include "readall.h"

#define MAX_FILE	((size_t)1 << 34)	/* 16 GiB read into memory */

static int say(char *err, size_t len, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return ret;
}

static bool in_file(const struct pd_file *f, uint64_t off, uint64_t size)
{
	return off <= f->len && size <= f->len - off;
}

static int add_attr(struct pd_file *f, const void *p, size_t size,
		    const uint8_t *ids, size_t nr_ids, char *err,
		    size_t errlen)
{
	struct pd_attr *a;
	uint32_t asize;
	uint64_t *v;
	unsigned int *va;
	size_t i;

	if (f->nr_attrs == PD_MAX_ATTRS)
		return say(err, errlen, -E2BIG, "more than %d events: not a "
			   "file skidless can show", PD_MAX_ATTRS);
	if (size < PD_ATTR_SIZE_VER0)
		return say(err, errlen, -EINVAL, "an event attr is %zu bytes, "
			   "less than the 64 of the first perf ABI: the file "
			   "is damaged", size);
	memcpy(&asize, (const uint8_t *)p + 4, 4);
	if (!asize)
		asize = PD_ATTR_SIZE_VER0;
	if (asize > PD_ATTR_SIZE)
		return say(err, errlen, -EOVERFLOW, "the events use a perf ABI "
			   "newer than this reader's (attr size %u > %d): read "
			   "the file with the perf that wrote it", asize,
			   PD_ATTR_SIZE);
	if (asize > size)
		return say(err, errlen, -EINVAL, "an event attr says %u bytes "
			   "but its entry holds %zu: the file is damaged",
			   asize, size);
	a = &f->attrs[f->nr_attrs];
	memset(a, 0, sizeof(*a));
	memcpy(a, p, asize);
	if (a->sample_type & PD_SAMPLE_READ)
		return say(err, errlen, -EOPNOTSUPP, "samples carry counter "
			   "values (PERF_SAMPLE_READ), which skidless does not "
			   "parse: record without -s/--read, or use perf");
	v = realloc(f->ids, (f->nr_ids + nr_ids) * sizeof(*v) + 8);
	if (!v)
		return say(err, errlen, -ENOMEM, "out of memory");
	f->ids = v;
	va = realloc(f->id_attr, (f->nr_ids + nr_ids) * sizeof(*va) + 8);
	if (!va)
		return say(err, errlen, -ENOMEM, "out of memory");
	f->id_attr = va;
	for (i = 0; i < nr_ids; i++) {
		memcpy(&f->ids[f->nr_ids], ids + 8 * i, 8);
		f->id_attr[f->nr_ids++] = f->nr_attrs;
	}
	if (nr_ids)
		memcpy(&f->first_id[f->nr_attrs], ids, 8);
	f->nr_attrs++;
	return 0;
}

/* perf's evlist__valid_sample_type() and friends, as errors. */
static int check_attrs(struct pd_file *f, char *err, size_t errlen)
{
	unsigned int i;

	if (!f->nr_attrs)
		return say(err, errlen, -EINVAL, "the file describes no event: "
			   "it is damaged or was not finished");
	f->sample_type = f->attrs[0].sample_type;
	f->sample_id_all = f->attrs[0].flags & PD_ATTR_SAMPLE_ID_ALL;
	for (i = 1; i < f->nr_attrs; i++) {
		if ((f->attrs[i].flags ^ f->attrs[0].flags) &
		    PD_ATTR_SAMPLE_ID_ALL)
			return say(err, errlen, -EINVAL, "events disagree on "
				   "sample_id_all: perf cannot read it either");
		if (f->attrs[i].sample_type != f->sample_type &&
		    !(f->attrs[i].sample_type & f->sample_type &
		      PD_SAMPLE_IDENTIFIER))
			return say(err, errlen, -EINVAL, "events have different "
				   "sample fields and no PERF_SAMPLE_IDENTIFIER "
				   "to tell them apart: perf rejects this too");
	}
	return 0;
}

static int read_file_header(struct pd_file *f, char *err, size_t errlen)
{
	struct pd_file_header h;
	uint64_t i, n, f_off;
	unsigned int bit, k = 0;
	int ret;

	memcpy(&h, f->base, sizeof(h));
	if (h.size != sizeof(h))
		return say(err, errlen, -EINVAL, "perf.data header size %llu "
			   "(neither 104 nor the 16 of pipe mode): the file is "
			   "damaged", (unsigned long long)h.size);
	if (!h.attr_size || h.attr_size < PD_ATTR_SIZE_VER0 + 16)
		return say(err, errlen, -EINVAL, "attr entry size %llu is "
			   "impossible: the file is damaged",
			   (unsigned long long)h.attr_size);
	if (!in_file(f, h.attrs.offset, h.attrs.size) ||
	    h.data.offset > f->len)
		return say(err, errlen, -ERANGE, "the header points past the "
			   "end of the file (%zu bytes): the file was cut short; "
			   "copy it again", f->len);
	/*
	 * Data that runs past the end: a copy cut short. What is there is
	 * read up to the last whole record, and the file is flagged; the
	 * features, which come after the data, are gone.
	 */
	if (!in_file(f, h.data.offset, h.data.size)) {
		f->truncated = true;
		h.data.size = f->len - h.data.offset;
	}
	if (h.attrs.offset < h.size || h.data.offset < h.size ||
	    (h.attrs.offset < h.data.offset + h.data.size &&
	     h.data.offset < h.attrs.offset + h.attrs.size))
		return say(err, errlen, -EINVAL, "header sections overlap: the "
			   "file is damaged");
	if (h.data.offset % 8)
		return say(err, errlen, -EINVAL, "the data section starts at "
			   "%llu, not a multiple of 8: not written by perf",
			   (unsigned long long)h.data.offset);
	if (h.attrs.size % h.attr_size)
		return say(err, errlen, -EINVAL, "the attrs section is not a "
			   "whole number of entries: the file is damaged");
	n = h.attrs.size / h.attr_size;
	for (i = 0; i < n; i++) {
		const uint8_t *e = f->base + h.attrs.offset + i * h.attr_size;
		struct pd_section ids;

		memcpy(&ids, e + h.attr_size - 16, sizeof(ids));
		if (!in_file(f, ids.offset, ids.size) || ids.size % 8)
			return say(err, errlen, -ERANGE, "the ids of event %llu "
				   "lie outside the file: it was cut short",
				   (unsigned long long)i);
		ret = add_attr(f, e, h.attr_size - 16,
			       f->base + ids.offset,
			       ids.size / 8, err, errlen);
		if (ret)
			return ret;
	}
	f->data_off = h.data.offset;
	f->data_end = h.data.offset + h.data.size;
	if (f->truncated)
		return check_attrs(f, err, errlen);
	/* The feature table sits right after the data (header.c). */
	f_off = f->data_end;
	for (bit = 1; bit < PD_FEAT_MAX; bit++) {
		struct pd_section s;

		if (!(h.features[bit / 64] & (1ULL << (bit % 64))))
			continue;
		if (!in_file(f, f_off + k * 16ULL, 16))
			return say(err, errlen, -ERANGE, "the feature table runs "
				   "past the end of the file: it was cut short");
		memcpy(&s, f->base + f_off + k++ * 16, sizeof(s));
		if (!in_file(f, s.offset, s.size))
			return say(err, errlen, -ERANGE, "feature %u lies past "
				   "the end of the file: it was cut short", bit);
		f->feat[bit] = f->base + s.offset;
		f->feat_len[bit] = s.size;
	}
	return check_attrs(f, err, errlen);
}

/* Pipe mode: attrs and features are records; collect them first. */
static int read_pipe_header(struct pd_file *f, char *err, size_t errlen)
{
	size_t off = sizeof(struct pd_pipe_header), bad = 0;
	const struct pd_header *h;
	int ret;

	f->pipe = true;
	f->data_off = off;
	f->data_end = f->len - (f->len - off) % 8;
	while ((h = pd_file_next(f, &off, &bad))) {
		const uint8_t *p = (const uint8_t *)h;
		uint64_t feat;
		uint32_t asize;

		if (h->type == PD_REC_HEADER_ATTR) {
			if (h->size < 8 + PD_ATTR_SIZE_VER0)
				return say(err, errlen, -EINVAL, "a HEADER_ATTR "
					   "record is too short: the stream is "
					   "damaged");
			memcpy(&asize, p + 12, 4);
			if (!asize)
				asize = PD_ATTR_SIZE_VER0;
			if (asize > h->size - 8u)
				asize = h->size - 8u;
			ret = add_attr(f, p + 8, asize,
				       p + 8 + asize,
				       (h->size - 8u - asize) / 8, err, errlen);
			if (ret)
				return ret;
		} else if (h->type == PD_REC_HEADER_FEATURE && h->size >= 16) {
			memcpy(&feat, p + 8, 8);
			if (feat && feat < PD_FEAT_MAX) {
				f->feat[feat] = p + 16;
				f->feat_len[feat] = h->size - 16u;
			}
		} else if (h->type == PD_REC_HEADER_BUILD_ID) {
			/*
			 * A stream's build-ids are records of their own, the
			 * BUILD_ID feature's entries; the first run of them
			 * back to back (all of ours) serves as that feature.
			 */
			if (!f->feat[PD_FEAT_BUILD_ID]) {
				f->feat[PD_FEAT_BUILD_ID] = p;
				f->feat_len[PD_FEAT_BUILD_ID] = h->size;
			} else if (f->feat[PD_FEAT_BUILD_ID] +
				   f->feat_len[PD_FEAT_BUILD_ID] == p) {
				f->feat_len[PD_FEAT_BUILD_ID] += h->size;
			}
		}
	}
	return check_attrs(f, err, errlen);
}

/*
 * @buf as a perf.data: copied (with room to stay 8-byte aligned and
 * NUL-terminated), or, when @map, a private mapping of the file taken
 * over as it is (its last page holds the zeros after the end).
 */
static int open_buf(void *buf, size_t len, bool map, struct pd_file *f,
		    char *err, size_t errlen)
{
	uint64_t magic = 0, size;
	int ret;

	memset(f, 0, sizeof(*f));
	if (len >= 8)
		memcpy(&magic, buf, 8);
	if (len < 16 || magic != PD_MAGIC) {
		ret = len >= 8 && !memcmp(buf, "PERFFILE", 8);
		if (map)
			munmap(buf, len);	/* magic still in @magic */
		if (ret)
			return say(err, errlen, -EPROTONOSUPPORT, "a version 1 "
				   "perf.data (PERFFILE): convert it with a "
				   "current perf (perf inject) first");
		if (len >= 8 && magic == PD_MAGIC_SWAPPED)
			return say(err, errlen, -EPROTONOSUPPORT, "a perf.data "
				   "of the other byte order: read it on such "
				   "a machine, or convert it with perf there");
		return say(err, errlen, -ENOMSG, "not a perf.data file (no "
			   "PERFILE2 magic)");
	}
	if (map) {
		f->base = buf;
		f->mapped = true;
	} else {
		/* A copy with room to stay 8-byte aligned and NUL-terminated. */
		f->base = malloc(len + 8);
		if (!f->base)
			return say(err, errlen, -ENOMEM, "out of memory for "
				   "%zu bytes", len);
		memcpy(f->base, buf, len);
		memset(f->base + len, 0, 8);
	}
	f->len = len;
	memcpy(&size, f->base + 8, 8);
	if (size == sizeof(struct pd_pipe_header))
		ret = read_pipe_header(f, err, errlen);
	else if (len < sizeof(struct pd_file_header))
		ret = say(err, errlen, -EINVAL, "%zu bytes: too short for a "
			  "perf.data header (104 bytes); the file was cut "
			  "short", len);
	else
		ret = read_file_header(f, err, errlen);
	if (ret)
		pd_file_close(f);
	return ret;
}

int pd_file_open_mem(const void *buf, size_t len, struct pd_file *f,
		     char *err, size_t errlen)
{
	return open_buf((void *)buf, len, false, f, err, errlen);
}

int pd_file_open(const char *path, struct pd_file *f, char *err,
		 size_t errlen)
{
	size_t len, tail;
	struct stat st;
	void *map;
	char *buf;
	int fd, ret;

	memset(f, 0, sizeof(*f));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return say(err, errlen, -errno, "cannot open %s: %s", path,
			   strerror(errno));
	/*
	 * A regular file is mapped, not read and copied twice: a big
	 * capture's pages then come from the page cache as they are read.
	 * Only when its last page has the 8 bytes of zeros the reader
	 * wants after the end (the kernel fills a page past EOF with them).
	 */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size >= 16 &&
	    (uint64_t)st.st_size <= MAX_FILE) {
		len = (size_t)st.st_size;
		tail = len % (size_t)sysconf(_SC_PAGESIZE);
		map = tail && tail + 8 <= (size_t)sysconf(_SC_PAGESIZE) ?
		      mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
			   0) : MAP_FAILED;
		if (map != MAP_FAILED) {
			close(fd);
			return open_buf(map, len, true, f, err, errlen);
		}
	}
	ret = skd_read_fd(fd, MAX_FILE, &buf, &len);
	close(fd);
	if (ret)
		return say(err, errlen, ret, "cannot read %s: %s", path,
			   strerror(-ret));
	ret = pd_file_open_mem(buf, len, f, err, errlen);
	free(buf);
	return ret;
}

void pd_file_close(struct pd_file *f)
{
	if (f->mapped)
		munmap(f->base, f->len);
	else
		free(f->base);
	free(f->ids);
	free(f->id_attr);
	memset(f, 0, sizeof(*f));
}

const struct pd_header *pd_file_next(const struct pd_file *f, size_t *off,
				     size_t *bad)
{
	const struct pd_header *h;

	if (*off >= f->data_end)
		return NULL;
	if (f->data_end - *off < sizeof(*h)) {
		*bad = *off;
		return NULL;
	}
	h = (const void *)(f->base + *off);
	if (h->size < sizeof(*h) || h->size % 8 || h->size > f->data_end - *off) {
		*bad = *off;
		return NULL;
	}
	*off += h->size;
	return h;
}

unsigned int pd_attr_of_id(const struct pd_file *f, uint64_t id)
{
	size_t i;

	for (i = 0; i < f->nr_ids; i++)
		if (f->ids[i] == id)
			return f->id_attr[i];
	return 0;
}

/* A cursor over a record's body that refuses to overrun it. */
struct cur {
	const uint8_t *p;
	size_t left;
	bool bad;
};

static uint64_t take64(struct cur *c)
{
	uint64_t v = 0;

	if (c->left < 8) {
		c->bad = true;
		return 0;
	}
	memcpy(&v, c->p, 8);
	c->p += 8;
	c->left -= 8;
	return v;
}

static const void *take(struct cur *c, uint64_t n)
{
	const void *p = c->p;

	if (n > c->left) {
		c->bad = true;
		return NULL;
	}
	c->p += n;
	c->left -= n;
	return p;
}

int pd_parse_sample(const struct pd_file *f, const struct pd_header *h,
		    struct pd_sample *s)
{
	struct cur c = { (const uint8_t *)(h + 1), h->size - sizeof(*h), 0 };
	uint64_t t = f->sample_type, v;
	const struct pd_attr *a;

	memset(s, 0, sizeof(*s));
	if (t & PD_SAMPLE_IDENTIFIER) {
		s->id = take64(&c);
		s->attr = pd_attr_of_id(f, s->id);
		t = f->attrs[s->attr].sample_type;
	}
	a = &f->attrs[s->attr];
	if (t & PD_SAMPLE_IP)
		s->ip = take64(&c);
	if (t & PD_SAMPLE_TID) {
		v = take64(&c);
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	}
	if (t & PD_SAMPLE_TIME)
		s->time = take64(&c);
	if (t & PD_SAMPLE_ADDR)
		s->addr = take64(&c);
	if (t & PD_SAMPLE_ID) {
		s->id = take64(&c);
		if (!(t & PD_SAMPLE_IDENTIFIER))
			s->attr = pd_attr_of_id(f, s->id);
	}
	if (t & PD_SAMPLE_STREAM_ID)
		take64(&c);
	if (t & PD_SAMPLE_CPU)
		s->cpu = (uint32_t)take64(&c);
	if (t & PD_SAMPLE_PERIOD)
		s->period = take64(&c);
	if (t & PD_SAMPLE_CALLCHAIN) {
		s->nr_ips = take64(&c);
		s->ips = s->nr_ips > c.left / 8 ? (c.bad = true, NULL) :
			 take(&c, s->nr_ips * 8);
	}
	if (t & PD_SAMPLE_RAW) {
		uint32_t n;
		const void *p = take(&c, 4);

		if (p) {
			memcpy(&n, p, 4);
			take(&c, n);
			/* RAW is u32 size + data, padded so the next is aligned. */
			take(&c, (uint64_t)(-(4 + (uint64_t)n)) & 7);
		}
	}
	if (t & PD_SAMPLE_BRANCH_STACK) {
		s->nr_branches = take64(&c);
		if (a->branch_sample_type & PD_BRANCH_HW_INDEX)
			take64(&c);
		s->branches = s->nr_branches > c.left / 24 ?
			      (c.bad = true, NULL) :
			      take(&c, s->nr_branches * 24);
	}
	if (t & PD_SAMPLE_REGS_USER) {
		s->regs_abi = take64(&c);
		if (s->regs_abi) {
			s->nr_regs = (unsigned int)
				__builtin_popcountll(a->sample_regs_user);
			s->regs = take(&c, s->nr_regs * 8ULL);
		}
	}
	if (t & PD_SAMPLE_STACK_USER) {
		s->stack_size = take64(&c);
		if (s->stack_size) {
			s->stack = s->stack_size > c.left ?
				   (c.bad = true, NULL) :
				   take(&c, s->stack_size);
			s->stack_dyn = take64(&c);
			if (s->stack_dyn > s->stack_size)
				c.bad = true;
		}
	}
	if (t & PD_SAMPLE_WEIGHT)
		s->weight = take64(&c);
	if (t & PD_SAMPLE_WEIGHT_STRUCT) {
		v = take64(&c);
		s->weight = (uint32_t)v;
		s->weight_var2 = (uint16_t)(v >> 32);
		s->weight_struct = true;
	}
	if (t & PD_SAMPLE_DATA_SRC)
		s->data_src = take64(&c);
	/* The rest we do not use; their sizes need not be known. */
	return c.bad ? -EINVAL : 0;
}

int pd_parse_id(const struct pd_file *f, const struct pd_header *h,
		size_t body, struct pd_sample_id *id)
{
	uint64_t t = f->sample_type, v;
	size_t n = 0;
	struct cur c;

	memset(id, 0, sizeof(*id));
	if (!f->sample_id_all)
		return h->size >= sizeof(*h) + body ? 0 : -EINVAL;
	n += t & PD_SAMPLE_TID ? 8 : 0;
	n += t & PD_SAMPLE_TIME ? 8 : 0;
	n += t & PD_SAMPLE_ID ? 8 : 0;
	n += t & PD_SAMPLE_STREAM_ID ? 8 : 0;
	n += t & PD_SAMPLE_CPU ? 8 : 0;
	n += t & PD_SAMPLE_IDENTIFIER ? 8 : 0;
	if (h->size < sizeof(*h) + body + n)
		return -EINVAL;
	c = (struct cur){ (const uint8_t *)h + h->size - n, n, 0 };
	if (t & PD_SAMPLE_TID) {
		v = take64(&c);
		id->pid = (uint32_t)v;
		id->tid = (uint32_t)(v >> 32);
	}
	if (t & PD_SAMPLE_TIME) {
		id->time = take64(&c);
		id->has_time = true;
	}
	if (t & PD_SAMPLE_ID)
		id->id = take64(&c);
	if (t & PD_SAMPLE_STREAM_ID)
		take64(&c);
	if (t & PD_SAMPLE_CPU)
		id->cpu = (uint32_t)take64(&c);
	if (t & PD_SAMPLE_IDENTIFIER)
		id->id = take64(&c);
	return 0;
}

/* A do_write_string() string: u32 length, then that many bytes. */
static const char *string_at(const uint8_t *p, size_t len, size_t *used)
{
	uint32_t n;

	if (len < 4)
		return NULL;
	memcpy(&n, p, 4);
	if (!n || n > len - 4 || !memchr(p + 4, '\0', n))
		return NULL;
	*used = 4 + (size_t)n;
	return (const char *)p + 4;
}

const char *pd_feature_string(const struct pd_file *f, unsigned int feat)
{
	size_t used;

	if (feat >= PD_FEAT_MAX || !f->feat[feat])
		return NULL;
	return string_at(f->feat[feat], f->feat_len[feat], &used);
}

const char *pd_event_name(const struct pd_file *f, unsigned int a)
{
	const uint8_t *p = f->feat[PD_FEAT_EVENT_DESC];
	size_t len = f->feat_len[PD_FEAT_EVENT_DESC], at = 8, used;
	uint32_t nr, asize, i, nr_ids, k;
	const char *name;
	uint64_t id;

	if (!p || len < 8 || a >= f->nr_attrs)
		return NULL;
	memcpy(&nr, p, 4);
	memcpy(&asize, p + 4, 4);
	for (i = 0; i < nr; i++) {
		if (asize > len - at || len - at - asize < 4)
			return NULL;
		at += asize;
		memcpy(&nr_ids, p + at, 4);
		at += 4;
		name = string_at(p + at, len - at, &used);
		if (!name)
			return NULL;
		at += used;
		if (nr_ids > (len - at) / 8)
			return NULL;
		for (k = 0; k < nr_ids; k++) {
			memcpy(&id, p + at + 8 * k, 8);
			if (f->first_id[a] == id)
				return name;
		}
		/* Without ids, entries follow the attrs' order. */
		if (!nr_ids && i == a)
			return name;
		at += 8ULL * nr_ids;
	}
	return NULL;
}
