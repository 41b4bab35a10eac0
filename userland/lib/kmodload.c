// SPDX-License-Identifier: GPL-2.0
/* All of skidless's libkmod use. */
#include <errno.h>
#include <libkmod.h>
#include <stdarg.h>
#include <stddef.h>

#include "kmodload.h"

#define MODULE_NAME	"skidless"

/*
 * libkmod prints its own errors on stderr ("libkmod: ERROR ... could not
 * find module by name='skidless'") ahead of the caller's sentence, which
 * explains the errno and names the fix (insmod, or modprobe after a DKMS
 * install): keep libkmod quiet.
 */
static void quiet_log(void *data, int priority, const char *file, int line,
		      const char *fn, const char *format, va_list args)
{
	(void)data;
	(void)priority;
	(void)file;
	(void)line;
	(void)fn;
	(void)format;
	(void)args;
}

static struct kmod_ctx *quiet_ctx(void)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);

	if (ctx)
		kmod_set_log_fn(ctx, quiet_log, NULL);
	return ctx;
}

int skd_kmod_load(const char *path, const char *params)
{
	struct kmod_module *mod = NULL;
	struct kmod_ctx *ctx;
	int ret;

	ctx = quiet_ctx();
	if (!ctx)
		return -ENOMEM;
	if (path)
		ret = kmod_module_new_from_path(ctx, path, &mod);
	else
		ret = kmod_module_new_from_name(ctx, MODULE_NAME, &mod);
	if (ret < 0)
		goto out;

	if (path)
		ret = kmod_module_insert_module(mod, 0, params);
	else
		ret = kmod_module_probe_insert_module(
			mod, KMOD_PROBE_FAIL_ON_LOADED, params, NULL, NULL,
			NULL);
	/* Loaded already is what the caller wanted. */
	if (ret == -EEXIST)
		ret = 0;
	/* probe_insert reports "not found in modules.dep" as ENOENT too. */
out:
	kmod_module_unref(mod);
	kmod_unref(ctx);
	return ret;
}

int skd_kmod_unload(void)
{
	struct kmod_module *mod = NULL;
	struct kmod_ctx *ctx;
	int ret;

	ctx = quiet_ctx();
	if (!ctx)
		return -ENOMEM;
	ret = kmod_module_new_from_name(ctx, MODULE_NAME, &mod);
	if (!ret)
		ret = kmod_module_remove_module(mod, 0);
	kmod_module_unref(mod);
	kmod_unref(ctx);
	return ret;
}
