#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Kernel lockdown: in confidentiality mode the kernel refuses perf the
# state skidless samples (LOCKDOWN_PERF, kernel/events/core.c
# perf_event_open()), so /dev/skidless
# refuses to open, saying why. Lockdown cannot be lifted: this runs last in
# its VM.
. "$(dirname "$0")/tap.sh"

LOCKDOWN=/sys/kernel/security/lockdown

plan 3
mountpoint -q /sys/kernel/security || mount -t securityfs securityfs /sys/kernel/security
if [ ! -w "$LOCKDOWN" ]; then
	for i in 1 2 3; do
		result 0 "# SKIP this kernel has no lockdown LSM"
	done
	exit 4
fi
grep -q '\[none\]' "$LOCKDOWN"
result $? "the kernel starts unlocked ($(cat "$LOCKDOWN"))"

skidless info > /dev/null 2>&1
before=$?
echo confidentiality > "$LOCKDOWN"
[ $before = 0 ] && grep -q '\[confidentiality\]' "$LOCKDOWN"
result $? "info works, then lockdown goes to confidentiality (info rc $before)"

out=$(skidless info 2>&1)
rc=$?
[ $rc != 0 ] && echo "$out" | grep -q "locked down" &&
	dmesg | tail -n 20 | grep -q "locked down"
result $? "opening /dev/skidless is refused, the kernel log says lockdown: $out"
finish
