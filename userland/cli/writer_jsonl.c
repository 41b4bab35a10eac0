// SPDX-License-Identifier: GPL-2.0
/*
 * JSON lines: one object per sample, in time order, built with json-c.
 * Addresses are "0x..." strings (64-bit values do not survive a double);
 * counts and times are numbers. Memory and branch fields only when the
 * sample has them.
 */
#include <errno.h>
#include <inttypes.h>
#include <json.h>
#include <stdio.h>

#include "stacks.h"
#include "subcommands.h"
#include "writers.h"

struct jsonl {
	FILE *out;
	int err;
};

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

static json_object *named(struct skd_profile *p, const struct skd_event *ev,
			  uint64_t addr)
{
	struct skd_frame f;
	char buf[512];

	skd_profile_addr(p, ev, addr, &f);
	if (!f.sym)
		return NULL;
	snprintf(buf, sizeof(buf), "%s+0x%" PRIx64, f.sym, f.off);
	return json_object_new_string(buf);
}

static json_object *branches(struct skd_profile *p, const struct skd_event *ev)
{
	const struct skd_branch_entry *b = ev->sample.branches;
	json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < ev->sample.nr_branches; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "from", hex(b[i].from));
		json_object_object_add(o, "to", hex(b[i].to));
		json_object_object_add(o, "from_sym", named(p, ev, b[i].from));
		json_object_object_add(o, "to_sym", named(p, ev, b[i].to));
		json_object_object_add(o, "mispredicted", json_object_new_boolean(
			!!(b[i].info & SKD_BR_INFO_MISPRED)));
		if (b[i].info & SKD_BR_INFO_CYC_VALID)
			json_object_object_add(o, "cycles", json_object_new_uint64(
				b[i].info & SKD_BR_INFO_CYCLES));
		json_object_array_add(a, o);
	}
	return a;
}

static void sample(struct skd_profile *p, const struct skd_event *ev,
		   void *arg)
{
	unsigned int i, n = skd_profile_nr_frames(p, ev);
	json_object *o = json_object_new_object(), *frames;
	struct jsonl *j = arg;
	struct skd_frame f;
	char comm[16];

	if (!o) {
		j->err = -ENOMEM;
		return;
	}
	json_object_object_add(o, "time", json_object_new_uint64(ev->id->time));
	json_object_object_add(o, "cpu", json_object_new_int(ev->id->cpu));
	json_object_object_add(o, "pid", json_object_new_int64(ev->id->pid));
	json_object_object_add(o, "tid", json_object_new_int64(ev->id->tid));
	json_object_object_add(o, "comm", json_object_new_string(
		stacks_comm(p, ev, comm, sizeof(comm))));
	json_object_object_add(o, "event", json_object_new_string(
		stacks_event_label(p, ev->sample.rec->event)));
	json_object_object_add(o, "period",
			       json_object_new_uint64(ev->sample.rec->period));
	json_object_object_add(o, "ip", hex(ev->sample.rec->ip));
	json_object_object_add(o, "kernel", json_object_new_boolean(
		(ev->misc & SKD_MISC_CPUMODE_MASK) == SKD_MISC_KERNEL));
	json_object_object_add(o, "exact", json_object_new_boolean(
		!!(ev->misc & SKD_MISC_EXACT_IP)));
	frames = json_object_new_array();
	for (i = 0; i < n; i++) {
		skd_profile_frame(p, ev, i, &f);
		json_object_array_add(frames, frame(&f));
	}
	json_object_object_add(o, "frames", frames);
	if (ev->sample.mem)
		json_object_object_add(o, "mem", mem(ev->sample.mem));
	/* Raw, as recorded: an LBR call stack is also the frames above. */
	if (ev->sample.branches)
		json_object_object_add(o, "branches", branches(p, ev));
	if (fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
						  JSON_C_TO_STRING_NOSLASHESCAPE),
		  j->out) < 0 || fputc('\n', j->out) == EOF)
		j->err = -EIO;
	json_object_put(o);
}

int write_jsonl(struct skd_profile *p, FILE *out, const struct writer_args *a)
{
	struct jsonl j = { .out = out };

	(void)a;
	skd_profile_walk(p, false, sample, &j);
	if (j.err == -ENOMEM)
		fprintf(stderr, "%s: out of memory\n", PROG_NAME);
	return j.err ? j.err : ferror(out) ? -EIO : 0;
}
