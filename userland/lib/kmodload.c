// SPDX-License-Identifier: GPL-2.0
/* All of skidless's libkmod use. */
#include <errno.h>
#include <libkmod.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "kmod_params.h"
#include "kmodload.h"

#define MAX_PARAMS	64

/* libkmod's log lines go into k->log instead of its default, stderr. */
static void capture_log(void *data, int priority, const char *file, int line,
			const char *fn, const char *format, va_list args)
{
	struct skd_kmod *k = data;
	size_t at = strlen(k->log);
	int n;

	(void)priority;
	(void)file;
	(void)line;
	(void)fn;
	if (at + 1 >= sizeof(k->log))
		return;
	n = snprintf(k->log + at, sizeof(k->log) - at, "libkmod: ");
	if (n < 0 || (size_t)n >= sizeof(k->log) - at)
		return;
	vsnprintf(k->log + at + n, sizeof(k->log) - at - n, format, args);
}

/*
 * kmod_new() parses modprobe.d before a log function can be set: a bad
 * line there would go to stderr through libkmod's default one. Unless the
 * user asked for its log (-v, or KMOD_LOG set), it is silenced for that
 * call; later lines are captured into k->log.
 */
static struct kmod_ctx *new_ctx(struct skd_kmod *k)
{
	bool user_env = getenv("KMOD_LOG");
	struct kmod_ctx *ctx;

	if (!k->verbose && !user_env)
		setenv("KMOD_LOG", "0", 1);
	ctx = kmod_new(NULL, NULL);
	if (!k->verbose && !user_env)
		unsetenv("KMOD_LOG");
	if (!ctx)
		return NULL;
	kmod_set_log_fn(ctx, capture_log, k);
	if (!user_env)
		kmod_set_log_priority(ctx, k->verbose ? LOG_INFO : LOG_ERR);
	return ctx;
}

/* Whether @names[0..n) has the @len bytes at @name. */
static bool has_name(const char *names[], size_t n, const char *name,
		     size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], name, len))
			return true;
	return false;
}

/*
 * The parameter names the module declares, copied into @store; also
 * listed in k->known_params. modinfo has "parmtype" (name:type) for
 * module_param() and "parm" (name:description) for those documented:
 * module_param_cb() parameters have only the latter.
 */
static size_t param_names(struct kmod_list *info, const char *names[],
			  size_t max, char *store, size_t store_len,
			  struct skd_kmod *k)
{
	size_t n = 0, at = 0, kat = 0, len;
	struct kmod_list *l;
	const char *key, *val, *colon;

	kmod_list_foreach(l, info) {
		key = kmod_module_info_get_key(l);
		if (strcmp(key, "parmtype") && strcmp(key, "parm"))
			continue;
		val = kmod_module_info_get_value(l);
		if (!val || n == max)
			continue;
		colon = strchr(val, ':');
		len = colon ? (size_t)(colon - val) : strlen(val);
		if (has_name(names, n, val, len))
			continue;
		if (at + len + 1 > store_len)
			break;
		memcpy(store + at, val, len);
		store[at + len] = '\0';
		names[n++] = store + at;
		at += len + 1;
		if (kat + len + 3 < sizeof(k->known_params))
			kat += (size_t)snprintf(k->known_params + kat,
						sizeof(k->known_params) - kat,
						"%s%.*s", kat ? ", " : "",
						(int)len, val);
	}
	return n;
}

/* Quietly: its "context released" is no news. */
static void free_ctx(struct kmod_ctx *ctx)
{
	kmod_set_log_priority(ctx, LOG_ERR);
	kmod_unref(ctx);
}

static int check_params(struct skd_kmod *k, struct kmod_module *mod,
			char *const params[], int nparams, char *out,
			size_t len)
{
	const char *names[MAX_PARAMS];
	char store[MAX_PARAMS * 32];
	struct kmod_list *info = NULL;
	size_t n;
	int ret;

	ret = kmod_module_get_info(mod, &info);
	if (ret < 0)
		return ret;
	n = param_names(info, names, MAX_PARAMS, store, sizeof(store), k);
	ret = skd_kmod_join_params(out, len, params, nparams, names, n,
				   k->bad_param, sizeof(k->bad_param));
	kmod_module_info_free_list(info);
	return ret;
}

static bool is_loaded(struct kmod_module *mod)
{
	int state = kmod_module_get_initstate(mod);

	return state == KMOD_MODULE_LIVE || state == KMOD_MODULE_COMING ||
	       state == KMOD_MODULE_BUILTIN;
}

int skd_kmod_load(struct skd_kmod *k, char *const params[], int nparams)
{
	struct kmod_module *mod = NULL;
	char options[1024];
	struct kmod_ctx *ctx;
	const char *path;
	int ret;

	ctx = new_ctx(k);
	if (!ctx)
		return -ENOMEM;
	ret = kmod_module_new_from_name(ctx, SKD_MODULE_NAME, &mod);
	if (ret < 0)
		goto out;
	/* Before the lookup: a module insmod'ed from a tree is loaded too. */
	if (is_loaded(mod)) {
		ret = -EEXIST;
		goto out;
	}
	path = kmod_module_get_path(mod);
	if (!path) {
		ret = -ENOENT;
		goto out;
	}
	snprintf(k->path, sizeof(k->path), "%s", path);
	ret = check_params(k, mod, params, nparams, options, sizeof(options));
	if (ret < 0)
		goto out;
	ret = kmod_module_probe_insert_module(mod,
					      KMOD_PROBE_FAIL_ON_LOADED |
					      KMOD_PROBE_APPLY_BLACKLIST,
					      options, NULL, NULL, NULL);
	if (ret == KMOD_PROBE_APPLY_BLACKLIST)
		ret = -ECANCELED;
	else if (ret > 0)
		ret = -EINVAL;
out:
	kmod_module_unref(mod);
	free_ctx(ctx);
	return ret;
}

static void list_holders(struct skd_kmod *k, struct kmod_module *mod)
{
	struct kmod_list *holders = kmod_module_get_holders(mod), *l;
	size_t at = 0;

	kmod_list_foreach(l, holders) {
		struct kmod_module *h = kmod_module_get_module(l);
		const char *name = kmod_module_get_name(h);

		if (at + strlen(name) + 3 < sizeof(k->holders))
			at += (size_t)snprintf(k->holders + at,
					       sizeof(k->holders) - at, "%s%s",
					       at ? ", " : "", name);
		kmod_module_unref(h);
	}
	kmod_module_unref_list(holders);
}

int skd_kmod_unload(struct skd_kmod *k)
{
	struct kmod_module *mod = NULL;
	struct kmod_ctx *ctx;
	int ret;

	ctx = new_ctx(k);
	if (!ctx)
		return -ENOMEM;
	ret = kmod_module_new_from_name(ctx, SKD_MODULE_NAME, &mod);
	if (ret < 0)
		goto out;
	if (kmod_module_get_initstate(mod) < 0) {
		ret = -ENOENT;
		goto out;
	}
	/* As rmmod: say who holds it rather than try. */
	list_holders(k, mod);
	if (k->holders[0] || kmod_module_get_refcnt(mod) > 0) {
		ret = -EBUSY;
		goto out;
	}
	ret = kmod_module_remove_module(mod, 0);
	/* delete_module(2) says EWOULDBLOCK for a module in use. */
	if (ret == -EAGAIN)
		ret = -EBUSY;
out:
	kmod_module_unref(mod);
	free_ctx(ctx);
	return ret;
}
