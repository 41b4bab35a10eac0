#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The module's lifecycle: unload is refused while a session is open or a
# ring is still mapped, works after, and survives CYCLES ($1, default 100)
# load/unload cycles of skidless.ko alone (the module a package ships),
# then ten with the device model's module beside it.
. "$(dirname "$0")/tap.sh"

KO=${SKD_KO:-/skd/skidless.ko}
CYCLES=${1:-100}

[ -f "$KO" ] || { echo "1..0 # SKIP no module at $KO"; exit 4; }
plan 7
skd_insmod

exec 3<>/dev/skidless
skd_rmmod 2>/dev/null
rc=$?
[ $rc -ne 0 ] && skd_loaded
result $? "rmmod is refused while a session is open (rmmod rc $rc)"
exec 3>&-

# A ring mapped by a process that closed its fd still pins the module.
hold_mapping 2 &
holder=$!
sleep 1
skd_rmmod 2>/dev/null
rc=$?
[ $rc -ne 0 ] && skd_loaded
result $? "rmmod is refused while a ring is mapped (rmmod rc $rc)"
wait $holder
result $? "the mapping holder ran cleanly"

check "rmmod works once nothing holds the module" skd_rmmod

# A timer faster than 100 kHz per CPU would leave it little else to do.
out=$(insmod "$KO" max_freq=1000000000 2>&1)
rc=$?
[ $rc -ne 0 ] && ! skd_loaded && dmesg | tail -n 3 | grep -q "max_freq must be 1..100000"
result $? "insmod max_freq=1000000000 is refused and says the range (rc $rc)"

ok=0
i=0
while [ $i -lt $CYCLES ]; do
	insmod "$KO" && [ -c /dev/skidless ] && rmmod skidless && ok=$((ok + 1))
	i=$((i + 1))
done
both=0
i=0
while [ $i -lt 10 ]; do
	skd_insmod && [ -c /dev/skidless ] && skd_rmmod && both=$((both + 1))
	i=$((i + 1))
done
[ $ok = $CYCLES ] && [ $both = 10 ]
result $? "$CYCLES load/unload cycles of skidless.ko ($ok succeeded), 10 with the device model ($both)"

skd_insmod && [ -c /dev/skidless ]
result $? "the module loads again afterwards"
finish
