// SPDX-License-Identifier: GPL-2.0
/* skidless: the command. A table of subcommands; usage comes from it. */
#include <stdio.h>
#include <string.h>

#include "params.h"
#include "subcommands.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char *argv[]);
	const char *description;
} subcommands[] = {
	{ "info", info_main, "Show the module, its backends and the PMU" },
	{ "list", list_main, "List the events -e accepts on a PMU" },
	{ "record", record_main, "Sample a command, a process or CPUs into a file" },
	{ "script", script_main, "Print every sample of a capture, symbolized" },
	{ "report", report_main, "Show the functions where a capture spent its samples" },
	{ "annotate", annotate_main, "Show a function's instructions with their samples" },
	{ "convert", convert_main, "Write a capture in another tool's format" },
	{ "diff", diff_main, "Compare two captures symbol by symbol" },
	{ "selftest", selftest_main, "Measure skid and check LBR call stacks on this PMU" },
	{ "load", load_main, "Load the installed module, as modprobe does" },
	{ "unload", unload_main, "Unload the module, or say who holds it" },
};

static void show_usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: %s <command> [<args>]\n\n"
		   "Precise sampling profiler (PEBS/LBR module + reader).\n\n"
		   "Commands:\n", PROG_NAME);
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(f, "  %-8s %s\n", subcommands[i].name,
			subcommands[i].description);
	fprintf(f, "\nRun `%s <command> --help` for a command's options.\n",
		PROG_NAME);
}

int main(int argc, char *argv[])
{
	size_t i;

	if (argc < 2) {
		show_usage(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		show_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "-v") || !strcmp(argv[1], "--version") ||
	    !strcmp(argv[1], "version")) {
		printf("%s %s\n", PROG_NAME, SKD_TOOL_VERSION);
		return 0;
	}
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);

	fprintf(stderr, "Invalid subcommand: `%s'\n", argv[1]);
	show_usage(stderr);
	return 1;
}
