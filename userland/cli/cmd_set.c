// SPDX-License-Identifier: GPL-2.0
/* skidless set: the module's settings, read and changed through netlink. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nl_cli.h"
#include "subcommands.h"

static void usage(FILE *f)
{
	unsigned int i;

	fprintf(f, "Usage: %s set [NAME=VALUE ...]\n\n"
		"Without arguments, print the module's settings; with them, "
		"change them\n(all or none; needs CAP_NET_ADMIN).\n\n"
		"Settings:\n", PROG_NAME);
	for (i = 0; i < skd_nl_nr_settings; i++)
		fprintf(f, "  %-16s %s\n", skd_nl_settings[i].name,
			skd_nl_settings[i].what);
}

static int show(struct skd_nl *nl)
{
	uint32_t values[16];
	unsigned int i;
	int ret;

	ret = skd_nl_get_settings(nl, values);
	if (ret) {
		fprintf(stderr, "%s: GET_SETTINGS: %s%s%s\n", PROG_NAME,
			strerror(-ret), skd_nl_message(nl)[0] ? ": " : "",
			skd_nl_message(nl));
		return 1;
	}
	for (i = 0; i < skd_nl_nr_settings; i++)
		printf("%s=%u\n", skd_nl_settings[i].name, values[i]);
	return 0;
}

/* NAME=VALUE into @attr and @value, or a message and false. */
static bool parse_pair(const char *arg, uint16_t *attr, uint32_t *value)
{
	const struct skd_nl_setting *s;
	const char *eq = strchr(arg, '=');
	unsigned long long v;
	char name[64], *end;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(name)) {
		fprintf(stderr, "%s set: `%s' is not NAME=VALUE (see `%s set "
			"--help' for the names)\n", PROG_NAME, arg, PROG_NAME);
		return false;
	}
	memcpy(name, arg, eq - arg);
	name[eq - arg] = 0;
	s = skd_nl_setting_by_name(name);
	if (!s) {
		fprintf(stderr, "%s set: no setting `%s' (see `%s set --help' "
			"for the names)\n", PROG_NAME, name, PROG_NAME);
		return false;
	}
	errno = 0;
	v = strtoull(eq + 1, &end, 0);
	if (errno || end == eq + 1 || *end || eq[1] == '-' || v > UINT32_MAX) {
		fprintf(stderr, "%s set: %s takes a number: %s\n", PROG_NAME,
			name, s->what);
		return false;
	}
	*attr = s->attr;
	*value = (uint32_t)v;
	return true;
}

/* The setting a refusal's attribute names, for its range. */
static void explain_refusal(struct skd_nl *nl, int err, int argc,
			    char *argv[])
{
	const char *msg = skd_nl_message(nl);

	if (err == -EPERM) {
		fprintf(stderr, "%s set: refused (%s): changing the module's "
			"settings needs CAP_NET_ADMIN; run it as root (sudo "
			"%s set ...)\n", PROG_NAME, strerror(-err), PROG_NAME);
		return;
	}
	fprintf(stderr, "%s set: the module refused (%s)%s%s\n", PROG_NAME,
		strerror(-err), msg[0] ? ": " : "", msg);
	/* Name the fix: each setting's range, for those given. */
	for (int i = 1; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		char name[64];
		const struct skd_nl_setting *s;

		if (!eq || (size_t)(eq - argv[i]) >= sizeof(name))
			continue;
		memcpy(name, argv[i], eq - argv[i]);
		name[eq - argv[i]] = 0;
		s = skd_nl_setting_by_name(name);
		if (s)
			fprintf(stderr, "  %s: %s\n", s->name, s->what);
	}
}

int set_main(int argc, char *argv[])
{
	uint16_t attrs[16];
	uint32_t values[16];
	struct skd_nl *nl;
	int i, n = 0, ret;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
		if (argv[i][0] == '-') {
			fprintf(stderr, "%s set: unknown option `%s'\n",
				PROG_NAME, argv[i]);
			usage(stderr);
			return 1;
		}
		if (n >= 16 || !parse_pair(argv[i], &attrs[n], &values[n]))
			return 1;
		n++;
	}
	if (nl_cli_open(&nl, false, false))
		return 1;
	if (!n) {
		ret = show(nl);
		skd_nl_close(nl);
		return ret;
	}
	ret = skd_nl_set_settings(nl, attrs, values, n);
	if (ret)
		explain_refusal(nl, ret, argc, argv);
	skd_nl_close(nl);
	return ret ? 1 : 0;
}
