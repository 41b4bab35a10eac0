// SPDX-License-Identifier: GPL-2.0
/* What a failed load or unload of the module means, and its fix. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kmod_explain.h"

#define SIGNATURE_FIX \
	"the kernel refused the module's signature (Secure Boot): enroll " \
	"the key DKMS signs with as a Machine Owner Key, `sudo mokutil " \
	"--import /var/lib/dkms/mok.pub`, reboot and pick \"Enroll MOK\" " \
	"in MokManager; a module built by hand must be signed with an " \
	"enrolled key"

struct explanation {
	enum skd_kmod_op op;
	int err;
	const char *text;
};

static const struct explanation table[] = {
	{ SKD_KMOD_LOAD, ENOENT,
	  "the skidless module is not installed for this kernel: install "
	  "skidless-dkms (with linux-headers-$(uname -r)), or run `make "
	  "install` in the source tree" },
	{ SKD_KMOD_LOAD, EEXIST, "the skidless module is already loaded" },
	{ SKD_KMOD_LOAD, EKEYREJECTED, SIGNATURE_FIX },
	{ SKD_KMOD_LOAD, ENOKEY, SIGNATURE_FIX },
	{ SKD_KMOD_LOAD, EBADMSG, SIGNATURE_FIX },
	{ SKD_KMOD_LOAD, ECANCELED,
	  "modprobe.d blacklists skidless (a `blacklist skidless` line in "
	  "/etc/modprobe.d, /run/modprobe.d or /lib/modprobe.d): remove it "
	  "to load the module" },
	{ SKD_KMOD_LOAD, EINVAL,
	  "the kernel refused a parameter's value: `sudo dmesg | tail` says "
	  "which, `modinfo skidless` lists them" },
	{ SKD_KMOD_LOAD, ENOEXEC,
	  "the installed module was built for another kernel: rebuild it "
	  "for this one (`sudo dkms autoinstall`, or make and make "
	  "install); `sudo dmesg | tail` says more" },
	{ SKD_KMOD_LOAD, EPERM,
	  "loading a module needs root (CAP_SYS_MODULE): run it with sudo" },
	{ SKD_KMOD_LOAD, EBUSY,
	  "the kernel is loading or unloading skidless right now: try again" },
	{ SKD_KMOD_UNLOAD, ENOENT, "the skidless module is not loaded" },
	{ SKD_KMOD_UNLOAD, EBUSY,
	  "the skidless module is in use: end the sessions that hold it" },
	{ SKD_KMOD_UNLOAD, EAGAIN,
	  "the skidless module is in use: end the sessions that hold it" },
	{ SKD_KMOD_UNLOAD, EPERM,
	  "unloading a module needs root (CAP_SYS_MODULE): run it with sudo" },
};

const char *skd_kmod_explain(enum skd_kmod_op op, int err, bool locked_down)
{
	static __thread char buf[160];
	size_t i;

	/* Lockdown refuses an unverifiable module with EPERM, even to root. */
	if (op == SKD_KMOD_LOAD && err == EPERM && locked_down)
		return SIGNATURE_FIX " (the kernel is locked down)";
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].op == op && table[i].err == err)
			return table[i].text;
	snprintf(buf, sizeof(buf), "%s the module failed: %s",
		 op == SKD_KMOD_LOAD ? "loading" : "unloading", strerror(err));
	return buf;
}

bool skd_lockdown_active(const char *path)
{
	char line[128] = "";
	FILE *f = fopen(path ? path : "/sys/kernel/security/lockdown", "r");

	if (!f)
		return false;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	return line[0] && !strstr(line, "[none]");
}
