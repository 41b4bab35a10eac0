// SPDX-License-Identifier: GPL-2.0
/* skidless load, skidless unload: the module, as modprobe handles it. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev_users.h"
#include "device.h"
#include "kmod_explain.h"
#include "kmodload.h"
#include "subcommands.h"

#define MAX_PIDS	32

static void load_usage(FILE *f)
{
	fprintf(f,
		"Usage: %s load [-v] [PARAM=VALUE ...]\n\n"
		"Load the installed skidless module (/lib/modules/$(uname -r),\n"
		"where skidless-dkms or make install put it) as modprobe does:\n"
		"its dependencies first, the options of modprobe.d, then the\n"
		"PARAM=VALUE given here (see modinfo skidless); a module that\n"
		"modprobe.d blacklists is not loaded. Needs root.\n\n"
		"  -v, --verbose            show libkmod's own messages\n\n"
		"Exit status: 0 when the module is loaded, also when it was\n"
		"already (said on stderr) unless PARAM=VALUE were given, which\n"
		"then were not applied: 1.\n", PROG_NAME);
}

static void unload_usage(FILE *f)
{
	fprintf(f,
		"Usage: %s unload [-v]\n\n"
		"Unload the skidless module. Refused while it is in use: the\n"
		"processes that hold /dev/skidless open or mapped, and the\n"
		"modules that depend on it, are named. Needs root.\n\n"
		"  -v, --verbose            show libkmod's own messages\n",
		PROG_NAME);
}

/* -v and --help; returns the index of the first operand, or -1 / -2. */
static int parse_opts(int argc, char *argv[], bool *verbose,
		      void (*usage)(FILE *f))
{
	static const struct option opts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	int c;

	/* "+": PARAM=VALUE words are operands, whatever follows. */
	while ((c = getopt_long(argc, argv, "+vh", opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			*verbose = true;
			break;
		case 'h':
			usage(stdout);
			return -2;
		default:
			usage(stderr);
			return -1;
		}
	}
	return optind;
}

/* With -v, or when KMOD_LOG asks libkmod for its log. */
static void show_log(const struct skd_kmod *k)
{
	if ((k->verbose || getenv("KMOD_LOG")) && k->log[0])
		fputs(k->log, stderr);
}

int load_main(int argc, char *argv[])
{
	struct skd_kmod k = {};
	int first, ret, nparams;

	first = parse_opts(argc, argv, &k.verbose, load_usage);
	if (first < 0)
		return first == -2 ? 0 : 1;
	nparams = argc - first;
	ret = skd_kmod_load(&k, argv + first, nparams);
	show_log(&k);
	if (!ret) {
		printf("loaded %s%s\n", k.path,
		       access(SKD_DEVICE_PATH, F_OK) ? "" :
		       ": " SKD_DEVICE_PATH " is ready");
		return 0;
	}
	if (ret == -EINVAL && k.bad_param[0]) {
		fprintf(stderr, "%s: skidless has no parameter `%s'; it has: "
			"%s\n", PROG_NAME, k.bad_param, k.known_params);
		return 1;
	}
	fprintf(stderr, "%s: %s%s\n", PROG_NAME,
		skd_kmod_explain(SKD_KMOD_LOAD, -ret, skd_lockdown_active(NULL)),
		ret == -EEXIST && nparams ?
		": the parameters given were not applied (`skidless unload` "
		"first)" : "");
	return ret == -EEXIST && !nparams ? 0 : 1;
}

/* The pids that hold the device, with their names, on stderr. */
static void show_users(void)
{
	pid_t pids[MAX_PIDS];
	char path[64], comm[64];
	int n, i;
	FILE *f;

	n = skd_dev_users("/proc", SKD_DEVICE_PATH, pids, MAX_PIDS);
	if (n <= 0)
		return;
	fprintf(stderr, "%s: held by", PROG_NAME);
	for (i = 0; i < n && i < MAX_PIDS; i++) {
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pids[i]);
		comm[0] = '\0';
		f = fopen(path, "r");
		if (f) {
			if (fgets(comm, sizeof(comm), f))
				comm[strcspn(comm, "\n")] = '\0';
			fclose(f);
		}
		fprintf(stderr, "%s pid %d%s%s%s", i ? "," : "", (int)pids[i],
			comm[0] ? " (" : "", comm, comm[0] ? ")" : "");
	}
	fprintf(stderr, "%s\n", n > MAX_PIDS ? ", ..." : "");
}

int unload_main(int argc, char *argv[])
{
	struct skd_kmod k = {};
	int first, ret;

	first = parse_opts(argc, argv, &k.verbose, unload_usage);
	if (first < 0)
		return first == -2 ? 0 : 1;
	if (first < argc) {
		fprintf(stderr, "%s: unload takes no operands\n", PROG_NAME);
		unload_usage(stderr);
		return 1;
	}
	ret = skd_kmod_unload(&k);
	show_log(&k);
	if (!ret) {
		printf("unloaded skidless\n");
		return 0;
	}
	if (ret == -EBUSY && k.holders[0]) {
		fprintf(stderr, "%s: the skidless module is in use by the "
			"modules %s: unload them first (rmmod)\n", PROG_NAME,
			k.holders);
		return 1;
	}
	fprintf(stderr, "%s: %s\n", PROG_NAME,
		skd_kmod_explain(SKD_KMOD_UNLOAD, -ret,
				 skd_lockdown_active(NULL)));
	if (ret == -EBUSY)
		show_users();
	return 1;
}
