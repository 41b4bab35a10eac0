#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# skidless load of an unsigned module where the kernel wants signatures,
# as under Secure Boot: in lockdown (what Debian's kernel enters when
# Secure Boot is on) the kernel refuses it with EPERM, with
# module.sig_enforce with EKEYREJECTED; both times skidless load names
# the fix, enrolling DKMS's key with mokutil. Neither can be undone: this
# runs last in its VM, after lockdown.sh, and leaves the module unloaded.
. "$(dirname "$0")/tap.sh"

KO=${SKD_KO:-/skd/skidless.ko}
LOCKDOWN=/sys/kernel/security/lockdown
ENFORCE=/sys/module/module/parameters/sig_enforce
MODDIR=/lib/modules/$(uname -r)
ERR=/tmp/kmod_sig.err

[ -f "$KO" ] || { echo "1..0 # SKIP no module at $KO"; exit 4; }
plan 4
grep -q ' /sys/kernel/security ' /proc/mounts ||
	mount -t securityfs securityfs /sys/kernel/security
[ -w "$LOCKDOWN" ] || { diag "this kernel has no lockdown LSM"; exit 1; }
grep -q '\[none\]' "$LOCKDOWN" && echo integrity > "$LOCKDOWN"
skd_rmmod > /dev/null 2>&1
mkdir -p "$MODDIR/extra" && cp "$KO" "$MODDIR/extra/" &&
	"$(dirname "$0")/depmod" 2> /dev/null
! grep -q '\[none\]' "$LOCKDOWN" && ! skd_loaded
result $? "locked down ($(cat "$LOCKDOWN")), module installed and unloaded"

skidless load > /dev/null 2> "$ERR"
rc=$?
[ $rc = 1 ] && ! skd_loaded &&
	grep -q "mokutil --import /var/lib/dkms/mok.pub" "$ERR" &&
	grep -q "locked down" "$ERR" &&
	dmesg | tail -n 5 | grep -q "unsigned module loading is restricted"
result $? "in lockdown the kernel refuses it (its log says why) and load names mokutil"
sed 's/^/# /' "$ERR"

echo 1 > "$ENFORCE"
[ "$(cat "$ENFORCE")" = Y ]
result $? "module.sig_enforce turned on"
skidless load > /dev/null 2> "$ERR"
rc=$?
[ $rc = 1 ] && ! skd_loaded &&
	grep -q "mokutil --import /var/lib/dkms/mok.pub" "$ERR" &&
	dmesg | tail -n 5 | grep -q "Loading of unsigned module is rejected"
result $? "with signatures enforced the kernel rejects the key (EKEYREJECTED) and load names mokutil"
sed 's/^/# /' "$ERR"
rm -rf "$MODDIR"
finish
