// SPDX-License-Identifier: GPL-2.0
/* The formats `skidless convert` knows: one line per writer, in --help order. */
#include "writers.h"

const struct writer writers[] = {
	{ "pprof", "pprof's profile.proto, gzipped (go tool pprof)", true, write_pprof },
	{ "jsonl", "JSON lines: one object per sample (jq, python)", false, write_jsonl },
	{ "folded", "FlameGraph folded stacks (flamegraph.pl, speedscope)", false, write_folded },
	{ "svg", "a flame graph, SVG (opens in a browser)", false, write_svg },
	{ "perf-script", "perf script's layout (stackcollapse-perf.pl)", false, write_perf_script },
	{ NULL, NULL, false, NULL },
};
