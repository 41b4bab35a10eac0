#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Stress: for SECS seconds ($1, default 30), two loops open sessions that
# sample for a moment and close, while a third unloads and reloads the
# module as fast as it can. rmmod must be refused while a session is open
# and work in between; a session either runs or fails to open with a
# message, never dies of a signal; the module works afterwards.
. "$(dirname "$0")/tap.sh"

KO=${SKD_KO:-/skd/skidless.ko}
SECS=${1:-30}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

loaded() {
	grep -q '^skidless ' /proc/modules
}

# sessions N: record short sessions until $T/stop; tally exit codes.
sessions() {
	: > "$T/rc.$1"
	while [ ! -e "$T/stop" ]; do
		skidless record -q -a -F 2000 --duration 0.2 -o "$T/s$1.data" \
			> /dev/null 2>> "$T/err.$1"
		echo $? >> "$T/rc.$1"
	done
}

[ -f "$KO" ] || { echo "1..0 # SKIP no module at $KO"; exit 4; }
plan 4
skd_insmod
sessions 1 &
s1=$!
sessions 2 &
s2=$!

refused=0 unloaded=0 reloads_bad=0
end=$(($(date +%s) + SECS))
while [ "$(date +%s)" -lt "$end" ]; do
	if skd_rmmod 2> /dev/null; then
		unloaded=$((unloaded + 1))
		skd_insmod || reloads_bad=$((reloads_bad + 1))
	else
		refused=$((refused + 1))
	fi
done
touch "$T/stop"
wait $s1 $s2
skd_insmod

ran=$(cat "$T"/rc.* | grep -c '^0$')
failed=$(cat "$T"/rc.* | grep -c '^1$')
killed=$(cat "$T"/rc.* | grep -vc '^[01]$')
diag "rmmod: $unloaded unloads, $refused refused; sessions: $ran ran," \
	"$failed could not open, $killed other"
sort "$T"/err.* | uniq -c | sort -rn | head -5 | sed 's/^/# /'

[ "$refused" -gt 0 ] && [ "$unloaded" -gt 0 ]
result $? "rmmod raced with sessions: refused $refused times, unloaded $unloaded times"
[ "$reloads_bad" = 0 ]
result $? "every reload after an unload worked ($reloads_bad failed)"
[ "$killed" = 0 ] && [ "$ran" -gt 0 ]
result $? "sessions ran ($ran) or could not open ($failed); none crashed or hung ($killed)"
skidless record -q -a --idle -F 1000 --duration 0.3 -o "$T/final.data" 2> "$T/final.err" &&
	[ "$(skidless script -i "$T/final.data" | wc -l)" -gt 0 ]
result $? "a session samples normally afterwards"
finish
