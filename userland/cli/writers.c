// SPDX-License-Identifier: GPL-2.0
/* The formats `skidless convert` knows: one line per writer, in --help order. */
#include "opt_writers.h"
#include "writers.h"

const struct writer writers[] = {
	{ "pprof", "pprof's profile.proto, gzipped (go tool pprof)", true, write_pprof },
	{ "jsonl", "JSON lines: one object per sample (jq, python)", false, write_jsonl },
	{ "folded", "FlameGraph folded stacks (flamegraph.pl, speedscope)", false, write_folded },
	{ "svg", "a flame graph, SVG (opens in a browser)", false, write_svg },
	{ "perf-script", "perf script's layout (stackcollapse-perf.pl)", false, write_perf_script },
	{ "autofdo", "AutoFDO text samples of --binary (create_llvm_prof --profiler=text)",
	  false, write_autofdo },
	{ "bolt", "BOLT fdata of --binary's LBR branches (llvm-bolt -data=FILE)",
	  false, write_bolt },
	{ "bolt-nl", "BOLT fdata of --binary's sample addresses, no LBR (perf2bolt -nl)",
	  false, write_bolt_nl },
	{ NULL, NULL, false, NULL },
};
