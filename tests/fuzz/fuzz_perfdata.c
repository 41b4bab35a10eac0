// SPDX-License-Identifier: GPL-2.0
/*
 * Input bytes as a perf.data: the reader's header, attr and feature
 * checks, then the conversion every record goes through for script and
 * report (perfdata_profile.c), and the records it produces walked as the
 * native reader walks them. Anyone can hand the tool a perf.data.
 */
#include <string.h>

#include "capture.h"
#include "decode.h"
#include "fuzzlib.h"
#include "perfdata_profile.h"
#include "perfdata_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct skd_rec_header *h;
	struct skd_capture c;
	struct skd_event ev;
	struct pd_file f;
	size_t off, bad = 0;
	char err[512];
	unsigned int i;

	err[0] = '\0';
	if (!pd_file_open_mem(data, size, &f, err, sizeof(err))) {
		for (i = 0; i < f.nr_attrs; i++)
			(void)pd_event_name(&f, i);
		(void)pd_feature_string(&f, PD_FEAT_HOSTNAME);
		pd_file_close(&f);
	} else {
		FUZZ_CHECK(err[0] && strlen(err) < sizeof(err));
	}
	err[0] = '\0';
	if (skd_perf_capture_open_mem(data, size, &c, err, sizeof(err)))
		return 0;
	FUZZ_CHECK(c.bad_at < size);
	off = c.first;
	while ((h = skd_capture_next(&c, &off, &bad)))
		if (h->type < 0x8000)
			FUZZ_CHECK(skd_decode(h, h->size, &ev) > 0);
	FUZZ_CHECK(!bad);	/* what we convert is always well-formed */
	skd_capture_close(&c);
	return 0;
}
