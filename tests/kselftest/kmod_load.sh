#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# skidless load and unload (libkmod, modprobe's semantics) against the
# kernel and Debian's depmod: the module installed under
# /lib/modules/$(uname -r)/extra as make install and DKMS put it, options
# from modprobe.d, what each refusal says, the pids that hold the device,
# and record's autoload. libkmod's own log lines never reach stderr
# without -v. Leaves the module (and the device model) loaded, as found.
. "$(dirname "$0")/tap.sh"

KO=${SKD_KO:-/skd/skidless.ko}
MODDIR=/lib/modules/$(uname -r)
CONF=/etc/modprobe.d/skidless.conf
ERR=/tmp/kmod_load.err
ALL_ERR=/tmp/kmod_load.allerr      # every stderr without -v, for the end
# Debian's depmod (kmod), which vm-bin brings: busybox's applet, which its
# sh would run for a bare `depmod`, writes no modules.dep.bin.
DEPMOD=$(dirname "$0")/depmod

[ -f "$KO" ] || { echo "1..0 # SKIP no module at $KO"; exit 4; }
plan 21
: > "$ALL_ERR"

# run CMD...: its stdout in $out, rc in $rc, stderr in $ERR (and ALL_ERR).
run() {
	out=$("$@" 2> "$ERR")
	rc=$?
	cat "$ERR" >> "$ALL_ERR"
}
say() { diag "rc $rc, stdout: $out"; sed 's/^/# stderr: /' "$ERR"; }

skd_rmmod || { diag "cannot unload the module to start with"; exit 1; }
rm -rf "$MODDIR" /etc/modprobe.d

run skidless load
[ $rc = 1 ] && grep -q "install skidless-dkms" "$ERR" &&
	grep -q "make install" "$ERR" && ! skd_loaded
result $? "not installed: exit 1, names skidless-dkms and make install"
[ $rc = 1 ] || say

# Installed as make install does it; Debian's depmod writes the indexes
# libkmod reads (modules.dep.bin), busybox's would not.
mkdir -p "$MODDIR/extra" /etc/modprobe.d && cp "$KO" "$MODDIR/extra/" &&
	"$DEPMOD" 2> "$ERR" && grep -q '^extra/skidless.ko:' "$MODDIR/modules.dep" &&
	[ -s "$MODDIR/modules.dep.bin" ]
rc=$?
result $rc "depmod indexes the module under $MODDIR/extra"
if [ $rc != 0 ]; then
	sed 's/^/# /' "$ERR"
	skd_insmod
	echo "Bail out! the module could not be installed in the VM"
	exit 1
fi

# A line libkmod complains about, and an option that must arrive.
printf 'frobnicate skidless\noptions skidless max_freq=12345\n' > "$CONF"
run skidless load
[ $rc = 0 ] && skd_loaded && [ -c /dev/skidless ] &&
	echo "$out" | grep -q "$MODDIR/extra/skidless.ko"
result $? "skidless load loads the installed module: $out"
[ $rc = 0 ] || say
[ "$(cat /sys/module/skidless/parameters/max_freq 2> /dev/null)" = 12345 ]
result $? "modprobe.d's option reaches the module (max_freq $(cat /sys/module/skidless/parameters/max_freq 2> /dev/null))"
[ ! -s "$ERR" ]
result $? "libkmod's complaint about the bad modprobe.d line stays off stderr"

run skidless load
[ $rc = 0 ] && grep -q "already loaded" "$ERR" && skd_loaded
result $? "loading again: exit 0, says it is already loaded"
[ $rc = 0 ] || say
run skidless load max_freq=100
[ $rc = 1 ] && grep -q "already loaded" "$ERR" && grep -q "not applied" "$ERR"
result $? "loading again with parameters: exit 1, says they were not applied"

# -v: libkmod's own text, the oracle that there was something to hide.
skidless load -v > /dev/null 2> "$ERR"
grep -q "ignoring bad line starting with 'frobnicate'" "$ERR"
result $? "-v shows libkmod's own lines"

# A process holding the device open.
# (3<, not 3<>: a missing device must not become a file.)
sh -c 'exec 3< /dev/skidless; exec sleep 60' &
holder=$!
sleep 1
run skidless unload
[ $rc = 1 ] && skd_loaded && grep -q "in use" "$ERR" &&
	grep -q "pid $holder (sleep)" "$ERR"
result $? "unload is refused while pid $holder holds /dev/skidless, and names it"
say
kill $holder
wait $holder 2> /dev/null

# A ring still mapped after its fd was closed pins the module too.
hold_mapping 3 &
holder=$!
sleep 1
run skidless unload
[ $rc = 1 ] && skd_loaded && grep -q "pid $holder" "$ERR"
result $? "and while pid $holder has a ring mapped, fd closed"
[ $rc = 1 ] || say
wait $holder

if [ -n "${SKD_SIM_KO:-}" ] && [ -e "$SKD_SIM_KO" ]; then
	insmod "$SKD_SIM_KO"
	run skidless unload
	[ $rc = 1 ] && skd_loaded && grep -q "in use by the modules skidless_sim" "$ERR"
	result $? "and while the device model's module depends on it"
	[ $rc = 1 ] || say
	rmmod skidless_sim
else
	result 0 "# SKIP no device model module in this VM"
fi

run skidless unload
[ $rc = 0 ] && ! skd_loaded && [ ! -e /dev/skidless ]
result $? "unload works once nothing holds it"
[ $rc = 0 ] || say
run skidless unload
[ $rc = 1 ] && grep -q "not loaded" "$ERR"
result $? "unloading again: exit 1, not loaded"

# Values the kernel refuses: the module's own check (dmesg names it).
run skidless load max_freq=1000000000
[ $rc = 1 ] && ! skd_loaded && grep -q "dmesg" "$ERR" &&
	dmesg | tail -n 5 | grep -q "max_freq must be 1..100000"
result $? "a value out of range is refused, pointing at dmesg, which names it"
[ $rc = 1 ] || say
run skidless load max_freq=fast
[ $rc = 1 ] && ! skd_loaded && grep -q "dmesg" "$ERR" &&
	dmesg | tail -n 5 | grep -q "invalid for parameter .max_freq"
result $? "a value that is no number is refused by the kernel's parser"
[ $rc = 1 ] || say
run skidless load nosuch=1
[ $rc = 1 ] && ! skd_loaded && grep -q "no parameter .nosuch'" "$ERR" &&
	grep -q "max_freq" "$ERR"
result $? "a parameter the module lacks is refused, the ones it has listed"
[ $rc = 1 ] || say

echo "blacklist skidless" >> "$CONF"
run skidless load
[ $rc = 1 ] && ! skd_loaded && grep -q "blacklist" "$ERR"
result $? "a module modprobe.d blacklists is not loaded, and it says why"
[ $rc = 1 ] || say
rm -f "$CONF"

# record loads it when /dev/skidless is missing, and says so.
run skidless record -q -o /tmp/kmod_load.data -- true
[ $rc = 0 ] && skd_loaded && grep -q "loading the skidless module" "$ERR" &&
	grep -q "loaded $MODDIR/extra/skidless.ko" "$ERR"
result $? "record loads the missing module and says so on stderr"
say

# Parameters given to load arrive (no modprobe.d now).
run skidless unload
run skidless load max_freq=777
[ $rc = 0 ] && [ "$(cat /sys/module/skidless/parameters/max_freq)" = 777 ]
result $? "load max_freq=777 sets it"
[ $rc = 0 ] || say

# What every call above printed without -v.
! grep -q "libkmod" "$ALL_ERR"
result $? "no libkmod log line reached stderr without -v"
grep "libkmod" "$ALL_ERR" | head -n 5 | sed 's/^/# /'

rm -rf "$MODDIR" /etc/modprobe.d /tmp/kmod_load.*
skd_rmmod > /dev/null 2>&1
skd_insmod
result $? "the module and the device model load again from $KO"
finish
