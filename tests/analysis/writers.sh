#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# skidless convert's formats read by the tools they are for, on the same
# captures as perf: go tool pprof -top agrees with perf report on the top
# symbols' shares, its mappings carry the programs' build-ids;
# stackcollapse-perf.pl (FlameGraph's, vendored) makes of `skidless
# script --perf` exactly what `convert -f folded` writes; the SVG flame
# graph parses (xmllint, xml.etree), renders (librsvg) and its widths
# follow the counts;
# every JSON line parses (python3, jq) and holds perf script's sample
# (tid, time, period, ip, data address, branch stack). Then bad input: a clear message, exit
# 1, the previous output untouched.
#
#   tests/analysis/writers.sh [CAPS_DIR VMBIN_DIR]      TAP on stdout
# With no arguments it records its own pair of captures with perf.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/helpers/common.sh"
BINDIR=${VMBIN_DIR:-$W}

for f in $CAPS; do
	name=$(basename "$f" .data)
	if ! perf report -i "$f" --stdio --no-children --no-branch-stack --sort sym \
		> "$W/$name.perf" 2> /dev/null; then
		out "not ok" "$name: perf report reads it"
		continue
	fi

	# pprof: the top symbols of every event, and the build-ids.
	"$SKD" convert -i "$f" -f pprof -o "$W/$name.pb.gz" 2> "$W/$name.err"
	check "$name: convert -f pprof" test $? = 0
	events=$(sed -n "s/^# Samples: .* of event '\(.*\)'$/\1/p" "$W/$name.perf")
	for e in $events; do
		go tool pprof -top -noinlines -nodefraction=0 -nodecount=100000 \
			-sample_index="$e" "$W/$name.pb.gz" > "$W/$name.top" 2>&1
		check "$name: go tool pprof -top and perf report agree on the top symbols of $e within 0.1 point" \
			python3 "$TOP/tests/analysis/helpers/pprof_vs_perf.py" \
			"$W/$name.perf" "$W/$name.top" "$e"
	done
	go tool pprof -raw "$W/$name.pb.gz" > "$W/$name.raw" 2>&1
	checked=0
	bad=""
	while read -r path bid; do
		b="$BINDIR/$(basename "$path")"
		[ -f "$b" ] || continue
		want=$(readelf -n "$b" | sed -n 's/.*Build ID: //p')
		checked=$((checked + 1))
		[ "$bid" = "$want" ] || bad="$bad $path:$bid!=$want"
	done < <(awk '/^Mappings/ { m = 1; next } m && /^[0-9]+: / { print $3, ($4 ~ /^\[/ ? "" : $4) }' "$W/$name.raw")
	check "$name: pprof's mappings carry readelf's build-id ($checked of the test programs)" \
		test -z "$bad" -a "$(grep -c '^[0-9]*: 0x' "$W/$name.raw")" -gt 0

	# script --perf against perf script, sample by sample.
	"$SKD" script --perf -i "$f" > "$W/$name.sp" 2> /dev/null
	perf script -i "$f" > "$W/$name.pp" 2> /dev/null
	check "$name: script --perf has perf script's samples and frames ($(python3 "$TOP/tests/analysis/helpers/script_vs_perf.py" "$W/$name.sp" "$W/$name.pp" 2>&1 | head -1))" \
		python3 "$TOP/tests/analysis/helpers/script_vs_perf.py" "$W/$name.sp" "$W/$name.pp"

	# folded = stackcollapse-perf.pl of script --perf.
	perl "$SC" "$W/$name.sp" > "$W/$name.sc" 2> "$W/$name.scerr"
	"$SKD" convert -i "$f" -f folded > "$W/$name.folded" 2> /dev/null
	check "$name: stackcollapse-perf.pl of script --perf equals convert -f folded ($(wc -l < "$W/$name.folded") stacks)" \
		cmp "$W/$name.sc" "$W/$name.folded"
	# (It names the event it keeps when there are several.)
	check "$name: stackcollapse-perf.pl understood every line" \
		test -z "$(grep -v '^Filtering for events of type' "$W/$name.scerr")"

	# SVG.
	"$SKD" convert -i "$f" -f svg -o "$W/$name.svg" 2> /dev/null
	check "$name: the SVG is well-formed XML (xmllint)" xmllint --noout "$W/$name.svg"
	check "$name: librsvg renders the SVG (rsvg-convert, to PNG)" \
		rsvg-convert "$W/$name.svg" -o "$W/$name.png"
	total=$(awk '{ s += $NF } END { print s + 0 }' "$W/$name.folded")
	check "$name: the SVG's rectangles are as wide as their counts (xml.etree)" \
		python3 "$TOP/tests/analysis/helpers/svg_check.py" "$W/$name.svg" "$total"

	# JSON lines against perf script's samples.
	"$SKD" convert -i "$f" -f jsonl -o "$W/$name.jsonl" 2> /dev/null
	check "$name: every JSON line parses (python3) and its samples are perf script's (tid, time, period, ip; data addresses, branch stacks)" \
		python3 "$TOP/tests/analysis/helpers/jsonl_vs_perf.py" "$W/$name.jsonl" "$f"
	check "$name: jq reads the same number of objects" \
		test "$(jq -c . "$W/$name.jsonl" | wc -l)" = "$(wc -l < "$W/$name.jsonl")"
	check "$name: --samples counts add up to the event's samples" test \
		"$("$SKD" convert -i "$f" -f folded --samples 2> /dev/null | awk '{ s += $NF } END { print s + 0 }')" = \
		"$(jq -r .event "$W/$name.jsonl" | grep -cxF "$(jq -r .event "$W/$name.jsonl" | head -1)")"
done

# Bad input: a message, exit 1, and the previous output as it was.
f=$(echo "$CAPS" | head -1)
B=$W/bad
mkdir "$B"
echo previous > "$B/prev"
bad_input() { # DESCRIPTION EXPECTED-MESSAGE ARGS...
	local d=$1 msg=$2
	shift 2
	"$SKD" convert "$@" > /dev/null 2> "$W/bad.err"
	local rc=$?
	if [ $rc = 1 ] && grep -q "$msg" "$W/bad.err" &&
	   [ "$(cat "$B/prev")" = previous ] && [ "$(ls "$B" | grep -vx adir)" = prev ] &&
	   [ -z "$(ls "$B/adir" 2> /dev/null)" ]; then
		out ok "$d: exit 1, '$(head -1 "$W/bad.err")', previous output kept, nothing left over"
	else
		out "not ok" "$d (rc $rc)"
		sed 's/^/#   /' "$W/bad.err"
	fi
}
bad_input "missing capture" "No such file" -i "$B/missing.data" -f pprof -o "$B/prev"
bad_input "unknown format" "unknown format 'nosuch'" -i "$f" -f nosuch -o "$B/prev"
bad_input "no format" "which format" -i "$f" -o "$B/prev"
bad_input "event not in the capture" "no samples of event" -i "$f" -f folded --event nosuch -o "$B/prev"
mkdir "$B/adir"
bad_input "output is a directory" "is a directory" -i "$f" -f svg -o "$B/adir"
bad_input "output directory missing" "cannot create a file beside" -i "$f" -f jsonl -o "$B/nodir/x"
"$SKD" convert -i "$f" -f pprof > /dev/null 2> "$W/bad.err"
check "pprof to a pipe works (binary refused on a terminal only)" test $? = 0
for fmt in pprof jsonl folded svg perf-script; do
	"$SKD" convert -i "$f" -f $fmt > /dev/full 2> "$W/full.err"
	rc=$?
	msg="skidless: writing standard output: No space left on device"
	check "standard output full (-f $fmt): exit 1, '$msg'" \
		test $rc = 1 -a "$(grep -cxF "$msg" "$W/full.err")" = 1
done
finish
