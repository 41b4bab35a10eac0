// SPDX-License-Identifier: GPL-2.0
/* The formats `skidless convert` knows: one line per writer, in --help order. */
#include "opt_writers.h"
#include "writers.h"

const struct writer writers[] = {
	{ "autofdo", "AutoFDO text samples of --binary (create_llvm_prof --profiler=text)",
	  false, write_autofdo },
	{ "bolt", "BOLT fdata of --binary's LBR branches (llvm-bolt -data=FILE)",
	  false, write_bolt },
	{ "bolt-nl", "BOLT fdata of --binary's sample addresses, no LBR (perf2bolt -nl)",
	  false, write_bolt_nl },
	{ NULL, NULL, false, NULL },
};
