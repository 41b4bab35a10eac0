// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "decode.h"

/* The user registers and stack: the last section, at @at of @size. */
static int decode_ustack(const uint8_t *p, size_t size, size_t at,
			 struct skd_event *ev)
{
	const struct skd_user_stack *us;
	size_t padded;

	if (size - at < sizeof(*us))
		return -EINVAL;
	us = (const void *)(p + at);
	if (us->abi != SKD_USER_ABI_NONE && us->abi != SKD_USER_ABI_64)
		return -EINVAL;
	if (us->size > SKD_MAX_USER_STACK ||
	    (us->abi == SKD_USER_ABI_NONE && us->size))
		return -EINVAL;
	padded = ((size_t)us->size + 7) & ~(size_t)7;
	if (size - at - sizeof(*us) < padded)
		return -EINVAL;
	ev->sample.ustack = us;
	ev->sample.stack = us->data;
	return 0;
}

static int decode_sample(const uint8_t *p, size_t size, struct skd_event *ev)
{
	const struct skd_rec_sample *rec = (const void *)p;
	const struct skd_callchain *cc;
	const struct skd_branches *br;
	size_t at = sizeof(*rec);

	if (size < at)
		return -EINVAL;
	ev->sample.rec = rec;
	/* Sections follow in bit order; each must fit before the next. */
	if (rec->fields & SKD_SAMPLE_CALLCHAIN) {
		if (size - at < sizeof(*cc))
			return -EINVAL;
		cc = (const void *)(p + at);
		if (cc->nr_kernel > cc->nr || cc->nr > SKD_MAX_CALLCHAIN ||
		    size - at - sizeof(*cc) < cc->nr * sizeof(uint64_t))
			return -EINVAL;
		ev->sample.ips = cc->ips;
		ev->sample.nr = cc->nr;
		ev->sample.nr_kernel = cc->nr_kernel;
		at += sizeof(*cc) + cc->nr * sizeof(uint64_t);
	}
	if (rec->fields & SKD_SAMPLE_MEM) {
		if (size - at < sizeof(struct skd_sample_mem))
			return -EINVAL;
		ev->sample.mem = (const void *)(p + at);
		at += sizeof(struct skd_sample_mem);
	}
	if (rec->fields & SKD_SAMPLE_BRANCHES) {
		if (size - at < sizeof(*br))
			return -EINVAL;
		br = (const void *)(p + at);
		if (size - at - sizeof(*br) <
		    br->nr * sizeof(struct skd_branch_entry))
			return -EINVAL;
		ev->sample.branches = br->entries;
		ev->sample.nr_branches = br->nr;
		ev->sample.branch_flags = br->flags;
		at += sizeof(*br) + br->nr * sizeof(struct skd_branch_entry);
	}
	if (rec->fields & SKD_SAMPLE_USER_STACK)
		return decode_ustack(p, size, at, ev);
	return 0;
}

static int decode_exec(const uint8_t *p, size_t size, struct skd_event *ev)
{
	const struct skd_rec_exec *rec = (const void *)p;
	size_t room;

	if (size < sizeof(*rec) + 1)
		return -EINVAL;
	room = size - sizeof(*rec);
	/* The path must end inside the record. */
	if (!memchr(rec->path, '\0', room))
		return -EINVAL;
	ev->exec.rec = rec;
	ev->exec.path = rec->path;
	return 0;
}

static int decode_mmap(const uint8_t *p, size_t size, struct skd_event *ev)
{
	const struct skd_rec_mmap *rec = (const void *)p;

	if (size < sizeof(*rec) + 1)
		return -EINVAL;
	if (!memchr(rec->path, '\0', size - sizeof(*rec)))
		return -EINVAL;
	ev->mmap.rec = rec;
	ev->mmap.path = rec->path;
	return 0;
}

int skd_decode(const void *buf, size_t len, struct skd_event *ev)
{
	const struct skd_rec_header *hdr = buf;
	const uint8_t *p = buf;
	size_t size;
	int ret = 0;

	if (len < sizeof(*hdr))
		return -EINVAL;
	size = hdr->size;
	if (size < sizeof(*hdr) || size % 8 || size > len)
		return -EINVAL;

	memset(ev, 0, sizeof(*ev));
	ev->type = hdr->type;
	ev->misc = hdr->misc;
	ev->size = hdr->size;
	ev->hdr = hdr;

	if (hdr->type == 0 || hdr->type >= __SKD_REC_MAX)
		return (int)size;
	if (size < sizeof(*hdr) + sizeof(struct skd_rec_id))
		return -EINVAL;
	ev->id = (const void *)(p + sizeof(*hdr));

	switch (hdr->type) {
	case SKD_REC_SAMPLE:
		ret = decode_sample(p, size, ev);
		break;
	case SKD_REC_LOST:
		if (size < sizeof(struct skd_rec_lost))
			return -EINVAL;
		ev->lost = buf;
		break;
	case SKD_REC_COMM:
		if (size < sizeof(struct skd_rec_comm))
			return -EINVAL;
		ev->comm = buf;
		/* comm[] is NUL-terminated by the kernel; do not rely on it. */
		if (!memchr(ev->comm->comm, '\0', sizeof(ev->comm->comm)))
			return -EINVAL;
		break;
	case SKD_REC_EXEC:
		ret = decode_exec(p, size, ev);
		break;
	case SKD_REC_MMAP:
		ret = decode_mmap(p, size, ev);
		break;
	case SKD_REC_FORK:
	case SKD_REC_EXIT:
		if (size < sizeof(struct skd_rec_task))
			return -EINVAL;
		ev->task = buf;
		break;
	case SKD_REC_THROTTLE:
	case SKD_REC_UNTHROTTLE:
		if (size < sizeof(struct skd_rec_throttle))
			return -EINVAL;
		ev->throttle = buf;
		break;
	}
	return ret ? ret : (int)size;
}

const char *skd_rec_type_name(uint32_t type)
{
	static const char *const names[__SKD_REC_MAX] = {
		[SKD_REC_SAMPLE] = "SAMPLE",
		[SKD_REC_LOST] = "LOST",
		[SKD_REC_COMM] = "COMM",
		[SKD_REC_EXEC] = "EXEC",
		[SKD_REC_FORK] = "FORK",
		[SKD_REC_EXIT] = "EXIT",
		[SKD_REC_THROTTLE] = "THROTTLE",
		[SKD_REC_UNTHROTTLE] = "UNTHROTTLE",
		[SKD_REC_MMAP] = "MMAP",
	};

	if (type < __SKD_REC_MAX && names[type])
		return names[type];
	return "UNKNOWN";
}
