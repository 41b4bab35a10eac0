// SPDX-License-Identifier: GPL-2.0
/*
 * Feeds input bytes as a capture file to skd_profile_load() and names
 * every sample and record as `script --all` and `report` do: anyone can
 * hand the tool a capture. The file system is kept out by --wrap, below.
 */
#include <string.h>

#include "capture.h"
#include "fuzzlib.h"
#include "profile.h"
#include "dso.h"

/*
 * Linked with --wrap: a mapping of "/fx..." is the ELF fixture
 * FUZZ_FX_ELF, any other path one that does not exist. Kernel symbols come
 * from the input's KSYM records only.
 */
struct skd_dso *__real_skd_dso_open(const char *path, const char *build_id,
				    const struct skd_dso_opts *o, char *err,
				    size_t errlen);
struct skd_dso *__wrap_skd_dso_open(const char *path, const char *build_id,
				    const struct skd_dso_opts *o, char *err,
				    size_t errlen);

struct skd_dso *__wrap_skd_dso_open(const char *path, const char *build_id,
				    const struct skd_dso_opts *o, char *err,
				    size_t errlen)
{
	char alt[4096];

	if (!strncmp(path, "/fx", 3))
		return __real_skd_dso_open(FUZZ_FX_ELF, NULL, o, err, errlen);
	snprintf(alt, sizeof(alt), "/nonexistent%s", path);
	return __real_skd_dso_open(alt, build_id, o, err, errlen);
}

static size_t sink;

static void touch_frame(const struct skd_frame *f)
{
	FUZZ_CHECK(f->dso);
	sink += strlen(f->dso) + f->ip + f->off;
	if (f->sym)
		sink += strlen(f->sym);
}

/* print_sample() of cmd_script.c, without the printing. */
static void walk_sample(struct skd_profile *p, const struct skd_event *ev)
{
	const struct skd_branch_entry *b = ev->sample.branches;
	unsigned int i, n = skd_profile_nr_frames(p, ev);
	struct skd_frame f, to;
	const char *comm;

	FUZZ_CHECK(ev->type == SKD_REC_SAMPLE && ev->id);
	comm = skd_profile_comm(p, ev->id->pid, ev->id->tid, ev->id->time);
	if (comm)
		sink += strlen(comm);
	sink += strlen(skd_profile_event_name(p, ev->sample.rec->event));
	for (i = 0; i < n; i++) {
		skd_profile_frame(p, ev, i, &f);
		touch_frame(&f);
	}
	if (ev->sample.mem)
		sink += ev->sample.mem->addr + ev->sample.mem->latency;
	for (i = 0; b && i < ev->sample.nr_branches; i++) {
		skd_profile_addr(p, ev, b[i].from, &f);
		skd_profile_addr(p, ev, b[i].to, &to);
		touch_frame(&f);
		touch_frame(&to);
	}
}

/* print_other() of cmd_script.c. */
static void walk_other(const struct skd_profile *p, const struct skd_event *ev)
{
	const char *comm;

	FUZZ_CHECK(ev->id && ev->type != SKD_REC_SAMPLE);
	comm = skd_profile_comm(p, ev->id->pid, ev->id->tid, ev->id->time);
	if (comm)
		sink += strlen(comm);
	switch (ev->type) {
	case SKD_REC_COMM:
		sink += strlen(ev->comm->comm);
		break;
	case SKD_REC_EXEC:
		sink += strlen(ev->exec.path);
		break;
	case SKD_REC_FORK:
		sink += ev->task->ppid + ev->task->ptid;
		break;
	case SKD_REC_LOST:
		sink += ev->lost->lost;
		break;
	case SKD_REC_THROTTLE:
	case SKD_REC_UNTHROTTLE:
		sink += ev->throttle->limit;
		break;
	}
}

static void walk_record(struct skd_profile *p, const struct skd_event *ev,
			void *arg)
{
	(void)arg;
	if (ev->type == SKD_REC_SAMPLE)
		walk_sample(p, ev);
	else
		walk_other(p, ev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct skd_profile_totals *t;
	struct skd_event ev;
	size_t i;
	struct skd_profile *p;
	struct skd_frame f;
	char err[512];
	unsigned int k;

	err[0] = '\0';
	if (skd_profile_load(fuzz_file(data, size), &p, err, sizeof(err))) {
		FUZZ_CHECK(err[0] && strlen(err) < sizeof(err));
		return 0;
	}
	t = skd_profile_totals(p);
	FUZZ_CHECK(!t->corrupt || t->bad_offset < size);
	for (k = 0; k < 5; k++)
		sink += strlen(skd_profile_session_string(p, k));

	/* script --all */
	skd_profile_walk(p, true, walk_record, NULL);

	/* report: the leaf frame of each sample, by event. */
	for (i = 0; i < skd_profile_nr_samples(p); i++) {
		skd_profile_sample(p, i, &ev);
		skd_profile_frame(p, &ev, 0, &f);
		touch_frame(&f);
		sink += strlen(skd_profile_event_name(p, ev.sample.rec->event));
	}
	skd_profile_free(p);
	return 0;
}
