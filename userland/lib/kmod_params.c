// SPDX-License-Identifier: GPL-2.0
/* Module parameters from the command line, checked and joined. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kmod_params.h"

/* Parameter names are C identifiers (the kernel's module_param). */
static bool is_name(const char *s, size_t n)
{
	size_t i;

	if (!n || isdigit((unsigned char)s[0]))
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

static bool is_known(const char *s, size_t n, const char *const known[],
		     size_t nknown)
{
	size_t i;

	for (i = 0; i < nknown; i++)
		if (strlen(known[i]) == n && !strncmp(known[i], s, n))
			return true;
	return false;
}

int skd_kmod_join_params(char *out, size_t len, char *const params[],
			 int nparams, const char *const known[], size_t nknown,
			 char *bad, size_t badlen)
{
	size_t at = 0, n;
	const char *eq;
	int i, w;

	if (!len)
		return -E2BIG;
	out[0] = '\0';
	for (i = 0; i < nparams; i++) {
		eq = strchr(params[i], '=');
		n = eq ? (size_t)(eq - params[i]) : strlen(params[i]);
		if (!is_name(params[i], n) ||
		    !is_known(params[i], n, known, nknown)) {
			snprintf(bad, badlen, "%.*s", (int)n, params[i]);
			return -EINVAL;
		}
		/* The kernel's parser takes "..." around a value with blanks. */
		if (eq && strpbrk(eq + 1, " \t\n"))
			w = snprintf(out + at, len - at, "%s%.*s=\"%s\"",
				     at ? " " : "", (int)n, params[i], eq + 1);
		else
			w = snprintf(out + at, len - at, "%s%s", at ? " " : "",
				     params[i]);
		if (w < 0 || (size_t)w >= len - at)
			return -E2BIG;
		at += (size_t)w;
	}
	return 0;
}
