// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <json.h>
#include <stdio.h>

#include "jsonl_encode.h"

static json_object *hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_object_new_string(buf);
}

static json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *frame(const struct skd_frame *f)
{
	json_object *o = json_object_new_object(), *inl;
	unsigned int i;

	json_object_object_add(o, "ip", hex(f->ip));
	json_object_object_add(o, "sym", str_or_null(f->sym));
	if (f->sym)
		json_object_object_add(o, "off", json_object_new_uint64(f->off));
	json_object_object_add(o, "dso", json_object_new_string(f->dso));
	if (f->file) {
		json_object_object_add(o, "file", json_object_new_string(f->file));
		json_object_object_add(o, "line", json_object_new_int(f->line));
	}
	if (f->nr_inline) {
		inl = json_object_new_array();
		for (i = 0; i < f->nr_inline; i++) {
			json_object *x = json_object_new_object();

			json_object_object_add(x, "func",
					       str_or_null(f->inl[i].func));
			json_object_object_add(x, "file",
					       str_or_null(f->inl[i].file));
			json_object_object_add(x, "line",
					       json_object_new_int(f->inl[i].line));
			json_object_array_add(inl, x);
		}
		json_object_object_add(o, "inlined", inl);
	}
	return o;
}

static json_object *mem(const struct skd_sample_mem *m)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "addr", hex(m->addr));
	/* Golden Cove and Gracemont: instruction and cache latency apart. */
	if (m->flags & SKD_MEM_LAT_SPLIT) {
		json_object_object_add(o, "latency",
				       json_object_new_uint64(m->latency & 0xffff));
		json_object_object_add(o, "cache_latency",
				       json_object_new_uint64((m->latency >> 32) &
							      0xffff));
	} else {
		json_object_object_add(o, "latency",
				       json_object_new_uint64(m->latency));
	}
	json_object_object_add(o, "source", hex(m->source));
	json_object_object_add(o, "modeled",
			       json_object_new_boolean(!!(m->flags & SKD_MEM_MODELED)));
	return o;
}

static json_object *named(const struct jsonl_sample *s, uint64_t addr)
{
	struct skd_frame f;
	char buf[512];

	s->name(s->ctx, addr, &f);
	if (!f.sym)
		return NULL;
	snprintf(buf, sizeof(buf), "%s+0x%" PRIx64, f.sym, f.off);
	return json_object_new_string(buf);
}

static json_object *branches(const struct jsonl_sample *s)
{
	const struct skd_branch_entry *b = s->branches;
	json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < s->nr_branches; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "from", hex(b[i].from));
		json_object_object_add(o, "to", hex(b[i].to));
		json_object_object_add(o, "from_sym", named(s, b[i].from));
		json_object_object_add(o, "to_sym", named(s, b[i].to));
		json_object_object_add(o, "mispredicted", json_object_new_boolean(
			!!(b[i].info & SKD_BR_INFO_MISPRED)));
		if (b[i].info & SKD_BR_INFO_CYC_VALID)
			json_object_object_add(o, "cycles", json_object_new_uint64(
				b[i].info & SKD_BR_INFO_CYCLES));
		json_object_array_add(a, o);
	}
	return a;
}

int jsonl_write_sample(FILE *out, const struct jsonl_sample *s)
{
	json_object *o = json_object_new_object(), *frames;
	unsigned int i;
	int ret = 0;

	if (!o)
		return -ENOMEM;
	json_object_object_add(o, "time", json_object_new_uint64(s->time));
	json_object_object_add(o, "cpu", json_object_new_int64(s->cpu));
	json_object_object_add(o, "pid", json_object_new_int64(s->pid));
	json_object_object_add(o, "tid", json_object_new_int64(s->tid));
	json_object_object_add(o, "comm", json_object_new_string(s->comm));
	json_object_object_add(o, "event", json_object_new_string(s->event));
	json_object_object_add(o, "period", json_object_new_uint64(s->period));
	json_object_object_add(o, "ip", hex(s->ip));
	json_object_object_add(o, "kernel", json_object_new_boolean(
		(s->misc & SKD_MISC_CPUMODE_MASK) == SKD_MISC_KERNEL));
	json_object_object_add(o, "exact", json_object_new_boolean(
		!!(s->misc & SKD_MISC_EXACT_IP)));
	frames = json_object_new_array();
	for (i = 0; i < s->nr_frames; i++)
		json_object_array_add(frames, frame(&s->frames[i]));
	json_object_object_add(o, "frames", frames);
	if (s->mem)
		json_object_object_add(o, "mem", mem(s->mem));
	/* Raw, as recorded: an LBR call stack is also the frames. */
	if (s->branches)
		json_object_object_add(o, "branches", branches(s));
	if (fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
						  JSON_C_TO_STRING_NOSLASHESCAPE),
		  out) < 0 || fputc('\n', out) == EOF)
		ret = -EIO;
	json_object_put(o);
	return ret;
}
