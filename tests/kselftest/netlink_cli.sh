#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# skidless info, stat, events and set through the module's generic
# netlink family, as a user runs them: values checked against sysfs's
# module parameters, refusals against the kernel's own extack words.
. "$(dirname "$0")/tap.sh"

BIN=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
P=/sys/module/skidless/parameters
trap 'rm -rf "$T"' EXIT

plan 14

skidless info > "$T/info" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "timer (default)" "$T/info" && grep -q "^throttling:" "$T/info" &&
	grep -q "^sessions:    0 open" "$T/info"
result $? "info answers through netlink (rc $rc)"
sed 's/^/# /' "$T/info"

skidless set > "$T/set" 2>&1
rc=$?
ok=0
for name in max_sample_rate max_freq max_ring_pages mlock_kb; do
	grep -qx "$name=$(cat $P/$name)" "$T/set" || ok=1
done
[ $rc = 0 ] && [ $ok = 0 ]
result $? "set without arguments prints every setting as sysfs has it: $(tr '\n' ' ' < "$T/set")"

old=$(cat $P/max_freq)
skidless set max_freq=2000 max_ring_pages=512 2> "$T/err"
rc=$?
[ $rc = 0 ] && [ "$(cat $P/max_freq)" = 2000 ] && [ "$(cat $P/max_ring_pages)" = 512 ]
result $? "set max_freq=2000 max_ring_pages=512: sysfs shows $(cat $P/max_freq) and $(cat $P/max_ring_pages) (rc $rc)"
skidless set max_freq="$old" max_ring_pages=4096

out=$(skidless set max_freq=100001 2>&1)
rc=$?
[ $rc = 1 ] && echo "$out" | grep -q "integer out of range" && echo "$out" | grep -q "1\.\.100000" &&
	[ "$(cat $P/max_freq)" = "$old" ]
result $? "set max_freq=100001: refused with the kernel's words and the range: $out"

out=$(skidless set max_ring_pages=3 max_freq=10 2>&1)
rc=$?
[ $rc = 1 ] && echo "$out" | grep -q "power of two" && [ "$(cat $P/max_freq)" = "$old" ]
result $? "set max_ring_pages=3 max_freq=10: refused, nothing changed: $out"

out=$(skidless set bogus=1 2>&1)
[ $? = 1 ] && echo "$out" | grep -q "no setting .bogus'"
result $? "set bogus=1: names the problem: $out"

skidless events --count 2 --timeout "$(slow 30)" > "$T/ev" 2> "$T/ev.err" &
ev=$!
skidless events --json --count 2 --timeout "$(slow 30)" > "$T/evj" 2>&1 &
evj=$!
sleep "$(slow 1)"
skidless record -q -F 1000 -o "$T/a.data" -- "$BIN/busyloop" "$(slow 1)" 2> "$T/rec.err"
wait $ev
rc=$?
wait $evj
grep -q "^started session [0-9]* pid [0-9]* (skidless.*) uid 0 timer" "$T/ev" &&
	grep -q "^stopped session [0-9]* pid" "$T/ev"
result $? "events: a record's session started and stopped (rc $rc): $(tr '\n' '|' < "$T/ev")"
grep -q '^{"event":"started","session":[0-9]*,"pid":[0-9]*,"uid":0,"comm":"skidless' "$T/evj" &&
	grep -q '^{"event":"stopped"' "$T/evj"
result $? "events --json: one object per event: $(tr '\n' '|' < "$T/evj")"

skidless record -q -F 1000 -o "$T/b.data" -- "$BIN/busyloop" "$(slow 4)" 2> "$T/rec2.err" &
rec=$!
sleep "$(slow 1.5)"
skidless stat > "$T/stat" 2>&1
rc=$?
id=$(sed -n "s/^session \([0-9]*\): pid $rec (.*) uid 0, running, timer, CPUs .*1000 Hz.*/\1/p" "$T/stat")
samples=$(awk '$1 == "all" { print $2; exit }' "$T/stat")
[ $rc = 0 ] && [ -n "$id" ] && [ "${samples:-0}" -gt 0 ]
result $? "stat lists the running record (pid $rec) as session ${id:-?} with ${samples:-no} samples"
sed 's/^/# /' "$T/stat"

skidless stat -s "${id:-1}" --watch 0.5 --count 2 > "$T/watch" 2>&1
rc=$?
rates=$(awk '/samples\/s/ { r = 1; next } r && $1 ~ /^[0-9]+$/ && $2 > 0 { n++ } END { print n + 0 }' "$T/watch")
[ $rc = 0 ] && [ "$rates" -ge 1 ]
result $? "stat -s ${id:-?} --watch 0.5 --count 2: per-CPU rates ($rates CPUs sampling, rc $rc)"
sed 's/^/# /' "$T/watch"
wait $rec

out=$(skidless stat -s 999999 2>&1)
[ $? = 1 ] && echo "$out" | grep -q "no session 999999"
result $? "stat -s 999999: no such session: $out"

for c in stat events set; do
	skidless $c --help > "$T/help" 2>&1
	[ $? = 0 ] && grep -q "^Usage: skidless $c" "$T/help" || echo "$c" >> "$T/badhelp"
done
[ ! -s "$T/badhelp" ]
result $? "stat, events, set --help: usage on stdout, exit 0"

skd_rmmod
out=$(skidless stat 2>&1)
rc=$?
out2=$(skidless events --timeout 1 2>&1)
rc2=$?
skd_insmod
[ $rc = 1 ] && [ $rc2 = 1 ] && echo "$out" | grep -q "not loaded" && echo "$out" | grep -q insmod
result $? "without the module, stat and events say how to load it: $out"

out=$(skidless info 2>&1)
[ $? = 0 ] && echo "$out" | grep -q "^throttling:"
result $? "and with it back, info answers through netlink again"
finish
