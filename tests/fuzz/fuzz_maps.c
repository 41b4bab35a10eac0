// SPDX-License-Identifier: GPL-2.0
/*
 * Feeds input bytes, not NUL-terminated, to skd_maps_parse() and looks up
 * every mapping's ends: maps text comes from processes the tool does not
 * control, with any bytes a file name may hold.
 */
#include <string.h>

#include "fuzzlib.h"
#include "maps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct skd_maps m;
	const struct skd_map *e;
	size_t i;
	int ret;

	ret = skd_maps_parse((const char *)data, size, &m);
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL || ret == -ENOMEM);
		FUZZ_CHECK(!m.v && !m.n);
		return 0;
	}
	for (i = 0; i < m.n; i++) {
		e = &m.v[i];
		FUZZ_CHECK(e->start < e->end && e->path);
		FUZZ_CHECK(strlen(e->path) < size);
		FUZZ_CHECK(!i || m.v[i - 1].end <= e->start);
		FUZZ_CHECK(skd_maps_find(&m, e->start) == e);
		FUZZ_CHECK(skd_maps_find(&m, e->end - 1) == e);
		FUZZ_CHECK(skd_maps_find(&m, e->end) != e);
		FUZZ_CHECK(skd_map_file_offset(e, e->start) == e->pgoff);
	}
	/* Below the first mapping (or, wrapped, above every end). */
	if (m.n)
		FUZZ_CHECK(!skd_maps_find(&m, m.v[0].start - 1));
	skd_maps_free(&m);
	FUZZ_CHECK(!m.v && !m.n);
	return 0;
}
