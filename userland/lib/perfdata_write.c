// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfdata_write.h"

#define BUF_SIZE	(64 * 1024)
#define NR_CHECKPOINTS	64	/* flush boundaries kept for a full disk */
#define NR_QUEUED	16	/* full buffers the writer thread may hold */

/*
 * The background writer (pd_writer_async()). The caller fills w->buf and
 * hands full buffers to the queue; the thread writes them in order. While
 * the thread runs it alone touches the file and the write accounting
 * (written, records, checkpoints, err, full, dropped); the caller touches
 * them again only after async_drain(), which waits, under the queue's
 * mutex, until the thread has nothing left. The caller waits only when
 * NR_QUEUED buffers are already queued: a file system slower than the
 * records for that long.
 */
struct wbuf {
	uint8_t *p;
	size_t used;
	uint64_t buffered;	/* records in it */
};

struct async {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;	/* to the thread: a buffer, or stop */
	pthread_cond_t done;	/* to the caller: a buffer written */
	struct wbuf q[NR_QUEUED];
	unsigned int head, n;	/* queued: q[head], ... n of them */
	uint8_t *spare[NR_QUEUED + 1];	/* empty buffers */
	unsigned int nr_spare;
	bool busy;		/* the thread is writing one */
	bool stop;
	int err;		/* the thread's first error, for put */
};

struct checkpoint {
	uint64_t off;		/* file offset: a record boundary */
	uint64_t records;	/* data records before it */
};

struct pd_writer {
	int fd;
	bool pipe;
	unsigned int nr_events;
	struct pd_event_spec *events;
	uint64_t sample_type;	/* of the first event: the trailer's layout */

	uint8_t *buf;
	size_t used;
	uint64_t data_off;	/* file offset of the data section */
	uint64_t written;	/* file offset where the next byte goes */
	uint64_t records;	/* records in the file (whole) */
	uint64_t buffered;	/* records in buf */
	bool started;		/* a data record was put */

	int err;		/* first error, sticky */
	bool full;		/* ENOSPC/EFBIG: records counted, not written */
	uint64_t dropped;

	struct checkpoint cp[NR_CHECKPOINTS];
	unsigned int nr_cp, cp_next;

	struct pd_buf feat[PD_FEAT_MAX];
	bool has_feat[PD_FEAT_MAX];
	bool feat_sent[PD_FEAT_MAX];	/* pipe: already streamed */

	struct async *async;	/* NULL: writes happen in the caller */
};

/* ---- byte buffers ---- */

void pd_buf_put(struct pd_buf *b, const void *p, size_t n)
{
	uint8_t *q;
	size_t cap;

	if (b->err || !n)
		return;
	if (b->len + n > b->cap) {
		cap = b->cap ? b->cap : 256;
		while (cap < b->len + n)
			cap *= 2;
		q = realloc(b->p, cap);
		if (!q) {
			b->err = -ENOMEM;
			return;
		}
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void pd_buf_string(struct pd_buf *b, const char *s)
{
	static const uint8_t zeros[PD_NAME_ALIGN];
	size_t n = strlen(s) + 1;
	size_t len = (n + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN;

	pd_buf_u32(b, (uint32_t)len);
	pd_buf_put(b, s, n);
	pd_buf_put(b, zeros, len - n);
}

void pd_buf_free(struct pd_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* ---- raw output ---- */

size_t pd_id_trailer_size(uint64_t t)
{
	size_t n = 0;

	n += t & PD_SAMPLE_TID ? 8 : 0;
	n += t & PD_SAMPLE_TIME ? 8 : 0;
	n += t & PD_SAMPLE_ID ? 8 : 0;
	n += t & PD_SAMPLE_STREAM_ID ? 8 : 0;
	n += t & PD_SAMPLE_CPU ? 8 : 0;
	n += t & PD_SAMPLE_IDENTIFIER ? 8 : 0;
	return n;
}

/* write() all of @n at the current end; -errno, and what got through. */
static int write_all(struct pd_writer *w, const void *p, size_t n,
		     size_t *done)
{
	const uint8_t *q = p;
	ssize_t r;

	*done = 0;
	while (*done < n) {
		r = write(w->fd, q + *done, n - *done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EIO;
		*done += (size_t)r;
	}
	return 0;
}

static int fail(struct pd_writer *w, int err)
{
	if (!w->err)
		w->err = err;
	return w->err;
}

static bool disk_full(int err)
{
	return err == -ENOSPC || err == -EFBIG || err == -EDQUOT;
}

/* Write one buffer of records at the end of the file, and account. */
static int write_out(struct pd_writer *w, const uint8_t *buf, size_t used,
		     uint64_t buffered)
{
	size_t done;
	int ret;

	if (w->full) {
		w->dropped += buffered;
		return w->err;
	}
	if (!used)
		return w->err;
	ret = write_all(w, buf, used, &done);
	w->written += done;
	if (ret) {
		if (disk_full(ret) && !w->pipe) {
			/* The buffer's records are lost; the file ends in a
			 * partial record that close cuts off. */
			w->full = true;
			w->dropped += buffered;
		}
		return fail(w, ret);
	}
	w->records += buffered;
	w->cp[w->cp_next] = (struct checkpoint){ w->written, w->records };
	w->cp_next = (w->cp_next + 1) % NR_CHECKPOINTS;
	if (w->nr_cp < NR_CHECKPOINTS)
		w->nr_cp++;
	return 0;
}

static void *writer_thread(void *arg)
{
	struct pd_writer *w = arg;
	struct async *a = w->async;
	struct wbuf b;

	pthread_mutex_lock(&a->lock);
	for (;;) {
		while (!a->n && !a->stop)
			pthread_cond_wait(&a->wake, &a->lock);
		if (!a->n)
			break;
		b = a->q[a->head];
		a->busy = true;
		pthread_mutex_unlock(&a->lock);
		write_out(w, b.p, b.used, b.buffered);
		pthread_mutex_lock(&a->lock);
		a->head = (a->head + 1) % NR_QUEUED;
		a->n--;
		a->busy = false;
		a->spare[a->nr_spare++] = b.p;
		a->err = w->err;
		pthread_cond_broadcast(&a->done);
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

/* Queue w->buf and take an empty one; waits only while the queue is full. */
static int async_flush(struct pd_writer *w)
{
	struct async *a = w->async;
	int err;

	pthread_mutex_lock(&a->lock);
	while (a->n == NR_QUEUED || !a->nr_spare)
		pthread_cond_wait(&a->done, &a->lock);
	a->q[(a->head + a->n) % NR_QUEUED] =
		(struct wbuf){ w->buf, w->used, w->buffered };
	a->n++;
	w->buf = a->spare[--a->nr_spare];
	err = a->err;
	pthread_cond_signal(&a->wake);
	pthread_mutex_unlock(&a->lock);
	w->used = 0;
	w->buffered = 0;
	return err;
}

/* Everything queued is written: the accounting is the caller's again. */
static void async_drain(struct pd_writer *w)
{
	struct async *a = w->async;

	pthread_mutex_lock(&a->lock);
	while (a->n || a->busy)
		pthread_cond_wait(&a->done, &a->lock);
	pthread_mutex_unlock(&a->lock);
}

/* The queue's buffers (all spare once the thread is gone) and itself. */
static void async_free(struct async *a)
{
	while (a->nr_spare)
		free(a->spare[--a->nr_spare]);
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->wake);
	pthread_cond_destroy(&a->done);
	free(a);
}

static void async_stop(struct pd_writer *w)
{
	struct async *a = w->async;

	if (!a)
		return;
	if (w->used)
		async_flush(w);
	pthread_mutex_lock(&a->lock);
	a->stop = true;
	pthread_cond_signal(&a->wake);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	async_free(a);
	w->async = NULL;
}

int pd_writer_async(struct pd_writer *w)
{
	struct async *a;
	unsigned int i;
	int ret;

	if (w->async)
		return 0;
	if (pd_writer_flush(w))
		return w->err;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->wake, NULL);
	pthread_cond_init(&a->done, NULL);
	for (i = 0; i < NR_QUEUED; i++) {
		a->spare[i] = malloc(BUF_SIZE);
		if (!a->spare[i])
			break;
	}
	a->nr_spare = i;
	ret = i == NR_QUEUED ? 0 : -ENOMEM;
	if (!ret) {
		w->async = a;
		ret = -pthread_create(&a->thread, NULL, writer_thread, w);
	}
	if (ret) {
		w->async = NULL;
		async_free(a);
	}
	return ret;
}

int pd_writer_flush(struct pd_writer *w)
{
	int ret;

	if (w->async)
		return w->used ? async_flush(w) : 0;
	ret = write_out(w, w->buf, w->used, w->buffered);
	w->used = 0;
	w->buffered = 0;
	return ret;
}

/* Append bytes that belong to no data record count (headers in pipe mode). */
static int put_raw(struct pd_writer *w, const void *p, size_t n)
{
	if (!n)		/* an empty feature payload: p may be NULL */
		return w->err;
	if (w->async) {		/* bytes outside the queue: in order */
		if (w->used)
			async_flush(w);
		async_drain(w);
	}
	if (w->used + n > BUF_SIZE && pd_writer_flush(w))
		return w->err;
	if (n > BUF_SIZE) {
		size_t done;
		int ret = write_all(w, p, n, &done);

		w->written += done;
		return ret ? fail(w, ret) : 0;
	}
	memcpy(w->buf + w->used, p, n);
	w->used += n;
	return 0;
}

/*
 * The features perf streams as HEADER_FEATURE: all but those whose
 * feat_ops entry has no .synthesize (tools/perf/util/header.c):
 * TRACING_DATA and BUILD_ID have record types of their own, BRANCH_STACK,
 * AUXTRACE and STAT are never streamed. AutoFDO's reader refuses a
 * stream carrying one of them.
 */
static bool streamed_as_feature(unsigned int feat)
{
	return feat != PD_FEAT_TRACING_DATA && feat != PD_FEAT_BUILD_ID &&
	       feat != PD_FEAT_BRANCH_STACK && feat != PD_FEAT_AUXTRACE &&
	       feat != PD_FEAT_STAT;
}

/*
 * The BUILD_ID payload's entries are HEADER_BUILD_ID records already, of
 * perf's size (36 bytes and the name padded to 64: 4 short of a multiple
 * of 8); in a stream each is padded to 8 like every other record.
 */
static void build_id_records(struct pd_writer *w)
{
	static const uint8_t zeros[8];
	const struct pd_buf *b = &w->feat[PD_FEAT_BUILD_ID];
	size_t at = 0;

	while (at + sizeof(struct pd_header) <= b->len) {
		struct pd_header h;
		size_t pad;

		memcpy(&h, b->p + at, sizeof(h));
		if (h.size < sizeof(h) || at + h.size > b->len)
			break;
		pad = -(size_t)h.size & 7;
		if (h.size + pad > 0xfff8)
			break;
		h.size = (uint16_t)(h.size + pad);
		put_raw(w, &h, sizeof(h));
		put_raw(w, b->p + at + sizeof(h), h.size - pad - sizeof(h));
		put_raw(w, zeros, pad);
		at += h.size - pad;
	}
}

static void feature_record(struct pd_writer *w, unsigned int feat)
{
	struct {
		struct pd_header h;
		uint64_t feat_id;
	} rec = { { PD_REC_HEADER_FEATURE, 0, 0 }, feat };
	static const uint8_t zeros[8];
	size_t len = w->feat[feat].len, pad = -len & 7;

	w->feat_sent[feat] = true;
	if (feat == PD_FEAT_BUILD_ID) {
		build_id_records(w);
		return;
	}
	if (!streamed_as_feature(feat))
		return;
	/* A payload too big for one record is left out, not cut. */
	if (sizeof(rec) + len + pad > 0xfff8)
		return;
	rec.h.size = (uint16_t)(sizeof(rec) + len + pad);
	put_raw(w, &rec, sizeof(rec));
	put_raw(w, w->feat[feat].p, len);
	put_raw(w, zeros, pad);
}

/* ---- open ---- */

static int write_pipe_start(struct pd_writer *w)
{
	struct pd_pipe_header ph = { PD_MAGIC, sizeof(ph) };
	unsigned int i;

	put_raw(w, &ph, sizeof(ph));
	for (i = 0; i < w->nr_events; i++) {
		struct {
			struct pd_header h;
			struct pd_attr attr;
			uint64_t id;
		} rec = {
			{ PD_REC_HEADER_ATTR, 0, sizeof(rec) },
			w->events[i].attr, w->events[i].id,
		};

		put_raw(w, &rec, sizeof(rec));
	}
	return w->err;
}

/* Header (placeholder until close), id arrays, attrs; data follows. */
static int write_file_start(struct pd_writer *w)
{
	struct pd_file_header fh = { .magic = PD_MAGIC };
	uint64_t ids_off = sizeof(fh);
	uint64_t attrs_off = ids_off + w->nr_events * sizeof(uint64_t);
	unsigned int i;

	fh.size = sizeof(fh);
	fh.attr_size = PD_ATTR_SIZE + sizeof(struct pd_section);
	put_raw(w, &fh, sizeof(fh));
	for (i = 0; i < w->nr_events; i++)
		put_raw(w, &w->events[i].id, sizeof(uint64_t));
	for (i = 0; i < w->nr_events; i++) {
		struct pd_section ids = { ids_off + i * 8, 8 };

		put_raw(w, &w->events[i].attr, PD_ATTR_SIZE);
		put_raw(w, &ids, sizeof(ids));
	}
	w->data_off = attrs_off + w->nr_events * fh.attr_size;
	if (pd_writer_flush(w))
		return w->err;
	return 0;
}

struct pd_writer *pd_writer_open(int fd, bool pipe,
				 const struct pd_event_spec *events,
				 unsigned int nr_events)
{
	struct pd_writer *w;
	int ret;

	if (!nr_events) {
		errno = EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->buf = malloc(BUF_SIZE);
	w->events = calloc(nr_events, sizeof(*events));
	if (!w->buf || !w->events) {
		free(w->buf);
		free(w->events);
		free(w);
		errno = ENOMEM;
		return NULL;
	}
	memcpy(w->events, events, nr_events * sizeof(*events));
	w->fd = fd;
	w->pipe = pipe;
	w->nr_events = nr_events;
	w->sample_type = events[0].attr.sample_type;
	ret = pipe ? write_pipe_start(w) : write_file_start(w);
	if (!pipe && !ret) {
		w->nr_cp = 1;
		w->cp[0] = (struct checkpoint){ w->data_off, 0 };
		w->cp_next = 1;
	}
	if (ret) {
		free(w->buf);
		free(w->events);
		free(w);
		errno = -ret;
		return NULL;
	}
	return w;
}

/* ---- data ---- */

int pd_writer_put(struct pd_writer *w, const void *rec)
{
	const struct pd_header *h = rec;

	if (h->size < sizeof(*h) || h->size % 8)
		return w->async ? -EINVAL : fail(w, -EINVAL);
	w->started = true;
	if (w->async) {
		/* Errors and losses are the thread's to count. */
		if (w->used + h->size > BUF_SIZE)
			async_flush(w);
		memcpy(w->buf + w->used, rec, h->size);
		w->used += h->size;
		w->buffered++;
		return 0;
	}
	if (w->full) {
		w->dropped++;
		return w->err;
	}
	if (w->err)
		return w->err;
	if (w->used + h->size > BUF_SIZE && pd_writer_flush(w)) {
		w->dropped += !!w->full;
		return w->err;
	}
	memcpy(w->buf + w->used, rec, h->size);
	w->used += h->size;
	w->buffered++;
	return 0;
}

int pd_writer_feature(struct pd_writer *w, unsigned int feat,
		      const void *payload, size_t len)
{
	struct pd_buf *b;

	if (!feat || feat >= PD_FEAT_MAX)
		return -EINVAL;
	b = &w->feat[feat];
	b->len = 0;
	pd_buf_put(b, payload, len);
	if (b->err)
		return b->err;
	w->has_feat[feat] = true;
	w->feat_sent[feat] = false;
	if (w->pipe && !w->started)
		feature_record(w, feat);
	return 0;
}

/* ---- close ---- */

/* The feature table and payloads, placed at @off (the end of the data). */
static void build_features(struct pd_writer *w, uint64_t off,
			   struct pd_buf *out, uint64_t bits[4])
{
	struct pd_buf payloads = { 0 };
	unsigned int f, n = 0;
	uint64_t at;

	memset(bits, 0, 4 * sizeof(uint64_t));
	for (f = 1; f < PD_FEAT_MAX; f++)
		n += w->has_feat[f];
	at = off + n * sizeof(struct pd_section);
	for (f = 1; f < PD_FEAT_MAX; f++) {
		struct pd_section s;

		if (!w->has_feat[f])
			continue;
		s.offset = at + payloads.len;
		s.size = w->feat[f].len;
		pd_buf_put(out, &s, sizeof(s));
		pd_buf_put(&payloads, w->feat[f].p, w->feat[f].len);
		bits[f / 64] |= 1ULL << (f % 64);
	}
	pd_buf_put(out, payloads.p, payloads.len);
	if (payloads.err)
		out->err = payloads.err;
	pd_buf_free(&payloads);
}

static int pwrite_all(int fd, const void *p, size_t n, uint64_t off)
{
	const uint8_t *q = p;
	size_t done = 0;
	ssize_t r;

	while (done < n) {
		r = pwrite(fd, q + done, n - done, (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		done += (size_t)r;
	}
	return 0;
}

static int write_header(struct pd_writer *w, uint64_t data_end,
			const uint64_t bits[4])
{
	struct pd_file_header fh = {
		.magic = PD_MAGIC, .size = sizeof(fh),
		.attr_size = PD_ATTR_SIZE + sizeof(struct pd_section),
	};

	fh.attrs.offset = sizeof(fh) + w->nr_events * sizeof(uint64_t);
	fh.attrs.size = w->nr_events * fh.attr_size;
	fh.data.offset = w->data_off;
	fh.data.size = data_end - w->data_off;
	memcpy(fh.features, bits, sizeof(fh.features));
	return pwrite_all(w->fd, &fh, sizeof(fh), 0);
}

/* A LOST record for the events of the first attr, with its id trailer. */
static void lost_record(struct pd_writer *w, uint64_t lost, struct pd_buf *b)
{
	struct pd_header h = { PD_REC_LOST, 0, 0 };
	uint64_t t = w->sample_type;

	h.size = (uint16_t)(sizeof(h) + 16 + pd_id_trailer_size(t));
	pd_buf_put(b, &h, sizeof(h));
	pd_buf_u64(b, w->events[0].id);
	pd_buf_u64(b, lost);
	if (t & PD_SAMPLE_TID)
		pd_buf_u64(b, 0);
	if (t & PD_SAMPLE_TIME)
		pd_buf_u64(b, 0);	/* delivered at once by perf */
	if (t & PD_SAMPLE_ID)
		pd_buf_u64(b, w->events[0].id);
	if (t & PD_SAMPLE_STREAM_ID)
		pd_buf_u64(b, w->events[0].id);
	if (t & PD_SAMPLE_CPU)
		pd_buf_u64(b, 0);
	if (t & PD_SAMPLE_IDENTIFIER)
		pd_buf_u64(b, w->events[0].id);
}

/*
 * Disk full: cut back to the latest flush boundary that leaves room, in
 * bytes we already own, for a LOST record and the features (pass 0);
 * else for the LOST record alone (1); else at the latest boundary with
 * nothing added (2). The LOST record counts every record not kept.
 */
static int close_full(struct pd_writer *w, struct pd_writer_result *res)
{
	size_t lost_len = sizeof(struct pd_header) + 16 +
			  pd_id_trailer_size(w->sample_type);
	struct pd_buf tail = { 0 };
	unsigned int pass, i;
	uint64_t bits[4];
	int ret = -ENOSPC;

	for (pass = 0; pass < 3 && ret; pass++) {
		const struct checkpoint *best = NULL;
		uint64_t lost, data_end;

		memset(bits, 0, sizeof(bits));
		tail.len = 0;
		for (i = 0; i < w->nr_cp; i++)
			if (!best || w->cp[i].off > best->off)
				best = &w->cp[i];
		if (!best)
			break;
		lost = w->dropped + (w->records - best->records);
		data_end = best->off;
		if (pass < 2) {
			/* The space must be ours already: look further back. */
			size_t need;

			lost_record(w, lost, &tail);
			if (pass == 0)
				build_features(w, best->off + lost_len, &tail,
					       bits);
			need = tail.len;
			best = NULL;
			for (i = 0; i < w->nr_cp; i++)
				if (w->cp[i].off + need <= w->written &&
				    (!best || w->cp[i].off > best->off))
					best = &w->cp[i];
			if (!best || tail.err)
				continue;
			lost = w->dropped + (w->records - best->records);
			tail.len = 0;
			memset(bits, 0, sizeof(bits));
			lost_record(w, lost, &tail);
			if (pass == 0)
				build_features(w, best->off + lost_len, &tail,
					       bits);
			if (tail.err)
				continue;
			data_end = best->off + lost_len;
		}
		if (ftruncate(w->fd, (off_t)best->off) ||
		    (tail.len && pwrite_all(w->fd, tail.p, tail.len, best->off)) ||
		    write_header(w, data_end, bits))
			continue;
		res->records = best->records + (pass < 2);
		res->lost = lost;
		res->data_bytes = data_end - w->data_off;
		res->truncated = true;
		ret = 0;
	}
	pd_buf_free(&tail);
	return ret;
}

int pd_writer_close(struct pd_writer *w, struct pd_writer_result *res)
{
	struct pd_buf tail = { 0 };
	struct pd_writer_result dummy;
	uint64_t bits[4];
	unsigned int f;
	int ret;

	if (!res)
		res = &dummy;
	memset(res, 0, sizeof(*res));
	async_stop(w);
	pd_writer_flush(w);
	if (w->pipe) {
		for (f = 1; f < PD_FEAT_MAX; f++)
			if (w->has_feat[f] && !w->feat_sent[f])
				feature_record(w, f);
		pd_writer_flush(w);
	} else if (w->full) {
		close_full(w, res);
	} else if (!w->err) {
		build_features(w, w->written, &tail, bits);
		ret = tail.err;
		if (!ret)
			ret = pwrite_all(w->fd, tail.p, tail.len, w->written);
		if (ret && disk_full(ret)) {
			/* No room for the features: cut back as above. */
			w->full = true;
			fail(w, ret);
			close_full(w, res);
		} else if (ret) {
			fail(w, ret);
		} else {
			ret = write_header(w, w->written, bits);
			if (ret)
				fail(w, ret);
		}
		pd_buf_free(&tail);
	}
	if (!res->truncated) {
		res->records = w->records;
		res->lost = w->dropped;
		res->data_bytes = w->written - w->data_off;
	}
	res->err = w->err;
	ret = w->err;
	for (f = 0; f < PD_FEAT_MAX; f++)
		pd_buf_free(&w->feat[f]);
	free(w->events);
	free(w->buf);
	free(w);
	return ret;
}
