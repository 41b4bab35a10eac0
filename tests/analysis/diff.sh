#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# skidless diff on a pair of captures whose shares perf report gives:
# base and new shares and their deltas agree with perf report of each
# capture within 0.1 point; rows sorted by change; --threshold hides
# exactly the smaller changes; a capture against itself changes nothing;
# the differential flame graph parses and each frame's shares and colour
# follow the folded stacks of the two captures. Then bad input.
#
#   tests/analysis/diff.sh [CAPS_DIR VMBIN_DIR]      TAP on stdout
# With no arguments it records its own pair (hotpair.c, two balances);
# given captures, the first two (in the order given) with an event in
# common are the pair.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/helpers/common.sh"
CHECK=$TOP/tests/analysis/helpers/diff_check.py

# The pair: the first two captures with an event in common.
events() {
	perf report -i "$1" --stdio --no-children --no-branch-stack \
		--sort dso,sym 2> /dev/null |
		sed -n "s/^# Samples: .* of event '\(.*\)'$/\1/p"
}
A= B=
for x in $CAPS; do
	for y in $CAPS; do
		[ "$x" \< "$y" ] || [ "$x" \> "$y" ] || continue
		[ -n "$(comm -12 <(events "$x" | sort) <(events "$y" | sort))" ] || continue
		A=$x B=$y
		break 2
	done
done
if [ -z "$B" ]; then
	out "not ok" "two captures with an event in common (in: $(echo $CAPS))"
	finish
fi
# Which event the flame graph shows: one both have, NEW's first such.
E=$(comm -12 <(events "$A" | sort) <(events "$B" | sort) | head -1)
for x in A B; do
	perf report -i "${!x}" --stdio --no-children --no-branch-stack --sort dso,sym \
		> "$W/$x.perf" 2> /dev/null
	"$SKD" convert -i "${!x}" -f folded --event "$E" > "$W/$x.folded" 2> /dev/null
done
"$SKD" diff --json "$A" "$B" > "$W/d.json" 2> "$W/d.err"
# (stderr may name objects the build-id cache lacks, like the VM's vdso.)
check "diff --json $(basename "$A") $(basename "$B") exits 0" test $? = 0
check "shares and deltas agree with perf report of each capture within 0.1 point; sorted by change" \
	python3 "$CHECK" shares "$W/A.perf" "$W/B.perf" "$W/d.json"
"$SKD" diff "$A" "$B" > "$W/d.txt" 2> /dev/null
check "the text lists as many symbols as the JSON" test \
	"$(grep -vc '^#' "$W/d.txt")" = "$(jq '[.events[].symbols[]] | length' "$W/d.json")"
"$SKD" diff --json --threshold 1 "$A" "$B" > "$W/t.json" 2> /dev/null
check "--threshold 1 hides exactly the changes under 1 point" test \
	"$(jq '[.events[].symbols[] | select(.delta <= -1 or .delta >= 1)] | length' "$W/d.json") $(jq '[.events[].symbols[] | select(.delta > -1 and .delta < 1)] | length' "$W/d.json")" = \
	"$(jq '[.events[].symbols[]] | length' "$W/t.json") $(jq '[.events[].hidden] | add' "$W/t.json")"
"$SKD" diff --json "$A" "$A" > "$W/s.json" 2> /dev/null
check "a capture against itself: every delta 0" test \
	"$(jq '[.events[].symbols[] | select(.delta != 0)] | length' "$W/s.json")" = 0

"$SKD" diff --svg "$W/d.svg" --event "$E" "$A" "$B" > /dev/null 2> "$W/svg.err"
check "diff --svg writes a well-formed SVG (xmllint)" xmllint --noout "$W/d.svg"
check "the SVG's frames: widths as NEW's counts (xml.etree)" \
	python3 "$TOP/tests/analysis/helpers/svg_check.py" "$W/d.svg" \
	"$(awk '{ s += $NF } END { print s + 0 }' "$W/B.folded")"
check "each frame's NEW and BASE shares match the folded stacks, red if up, blue if down" \
	python3 "$CHECK" svg "$W/d.svg" "$W/A.folded" "$W/B.folded"

# Bad input: a message, exit 1, the previous flame graph kept.
cp "$W/d.svg" "$W/prev.svg"
bad() { # DESCRIPTION EXPECTED-MESSAGE ARGS...
	local d=$1 msg=$2
	shift 2
	"$SKD" diff "$@" > /dev/null 2> "$W/bad.err"
	local rc=$?
	if [ $rc = 1 ] && grep -q "$msg" "$W/bad.err" && cmp -s "$W/d.svg" "$W/prev.svg" &&
	   [ "$(ls "$W" | grep -c '^d\.svg\.')" = 0 ]; then
		out ok "$d: exit 1, '$(head -1 "$W/bad.err")'"
	else
		out "not ok" "$d (rc $rc)"
		sed 's/^/#   /' "$W/bad.err"
	fi
}
bad "missing BASE" "No such file" --svg "$W/d.svg" --event "$E" "$W/missing.data" "$B"
bad "one capture only" "give two captures" --svg "$W/d.svg" --event "$E" "$A"
bad "threshold not a number" "threshold takes a number" --threshold x "$A" "$B"
bad "event not in NEW" "no samples of event nosuch" --event nosuch --svg "$W/d.svg" "$A" "$B"
mkdir "$W/adir"
bad "flame graph path is a directory" "is a directory" --svg "$W/adir" "$A" "$B"
finish
