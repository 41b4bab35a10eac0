#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# System sleep during PMU sampling: suspend to RAM in the kernel's
# pm_test "core" mode (every step but the firmware's: devices suspended,
# CPU 1 taken down, syscore ops run on CPU 0) while a sim session samples
# every CPU. The sim model, like firmware, brings CPU 0's PMU back at
# power-on state, so sampling there only resumes if skidless programs it
# again.
. "$(dirname "$0")/tap.sh"

BIN=$(cd "$(dirname "$0")" && pwd)
SIM=/sys/kernel/debug/skidless-sim
T=$(mktemp -d)
trap 'rm -rf "$T"; echo none > /sys/power/pm_test 2> /dev/null' EXIT

# stat CPU NAME: one counter of the sim model's CPU.
stat() {
	awk -v k="$2" '$1 == k { print $2 }' "$SIM/cpu$1/stats"
}

plan 4
if ! grep -qw mem /sys/power/state || [ ! -w /sys/power/pm_test ]; then
	for i in 1 2 3 4; do
		result 0 "# SKIP no suspend to RAM with pm_test in this kernel"
	done
	exit 4
fi
echo deep > /sys/power/mem_sleep 2> /dev/null
echo core > /sys/power/pm_test
echo 1 > /sys/module/suspend/parameters/pm_test_delay

"$BIN/busyloop" 6 &
b0=$!
"$BIN/busyloop" 6 &
b1=$!
taskset -p 1 $b0 > /dev/null 2>&1
taskset -p 2 $b1 > /dev/null 2>&1
r0=$(stat 0 records)
skidless record -q --backend sim:skylake -e cycles:pp -c 200003 -a \
	-m 1024 --duration 5 -o "$T/s.data" 2> "$T/rec.err" &
rec=$!
# Suspend only once CPU 0 samples: a slow kernel can take more than a
# second to start the session, and suspending before it proves nothing.
i=0
while [ "$(stat 0 records)" -le "${r0:-0}" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
resets=$(stat 0 resets)
echo mem > /sys/power/state
rc=$?
after=$(stat 0 resets)
r1=$(stat 0 records)
sleep 1.5
r2=$(stat 0 records)
wait $rec
rrc=$?
kill $b0 $b1 2> /dev/null
wait 2> /dev/null

[ $rc = 0 ] && [ "$after" -gt "$resets" ]
result $? "suspend (pm_test core) ran and the model lost CPU 0's PMU state (resets $resets -> $after)"
[ "$r2" -gt "$r1" ]
result $? "CPU 0 samples again after resume: skidless programmed it anew (PEBS records $r1 -> $r2)"
sed 's/^/# /' "$T/rec.err"
# The reader is frozen with every user task while the kernel suspends and
# the sim still samples it: records may be lost, but each one is counted.
set -- $(sed -n 's/.*records generated \([0-9]*\), delivered \([0-9]*\), lost \([0-9]*\).*/\1 \2 \3/p' "$T/rec.err")
[ $rrc = 0 ] && [ $# = 3 ] && [ "$1" -gt 0 ] && [ "$1" = $(($2 + $3)) ]
result $? "the session lived through it; generated ${1:-?} = delivered ${2:-?} + lost ${3:-?} (rc $rrc)"
cpus=$(skidless script -i "$T/s.data" | awk '{ print $3 }' | sort -u | wc -l)
[ "$cpus" = 2 ]
result $? "both CPUs have samples ($cpus)"
finish
