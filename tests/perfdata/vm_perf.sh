#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Debian's perf 6.1 reads the captures skidless made in the VM
# (tests/kselftest/perf_export.sh put them in the TAP log as base64):
# each opens with no word on stderr, and perf script agrees with skidless
# script sample for sample on the user samples' leaf symbol and on every
# branch of their LBR stacks.
#
#   tests/perfdata/vm_perf.sh TAP_LOG VM_BIN_DIR     TAP on stdout
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LOG=$1
VMBIN=$2
SKD=$TOP/build/skidless
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# One build-id cache for both tools, holding the VM's test programs: the
# files were recorded as /skd/bin/NAME, which only the cache can resolve.
export HOME=$W/home
mkdir -p "$HOME"
n=0
out() { n=$((n + 1)); echo "$1 $n - $2"; }

perf buildid-cache -a "$VMBIN/busyloop" 2> /dev/null
names=$(sed -n 's/^# skd-file-begin //p' "$LOG")
if [ -z "$names" ]; then
	out "not ok" "the VM exported captures (none in $LOG)"
	echo "1..$n"
	exit 1
fi
for name in $names; do
	f=$W/$name.data
	sed -n "/^# skd-file-begin $name\$/,/^# skd-file-end $name\$/s/^# b64 //p" \
		"$LOG" | base64 -d > "$f"

	perf report -i "$f" --stdio --sort sym > "$W/$name.report" 2> "$W/$name.rerr"
	rc=$?
	if [ $rc = 0 ] && [ ! -s "$W/$name.rerr" ]; then
		out ok "$name: perf report --stdio opens it without a word on stderr"
	else
		out "not ok" "$name: perf report --stdio (rc $rc)"
		sed 's/^/#   /' "$W/$name.rerr" | head -5
	fi

	# The user samples of busyloop: time, leaf symbol+offset, branches.
	perf script -i "$f" -F comm,tid,time,ip,sym,symoff,brstacksym \
		--hide-call-graph 2> "$W/$name.serr" |
		awk '$1 == "busyloop" && $4 !~ /^ffff/ {
			t = $3; sub(":$", "", t)
			line = $2 " " t " " $5
			for (i = 6; i <= NF; i++) {
				split($i, b, "/")
				line = line " " b[1] "/" b[2] "/" b[3]
			}
			print line
		}' > "$W/$name.perf"
	"$SKD" script -i "$f" 2> "$W/$name.kerr" |
		awk '$1 == "busyloop" && / U/ {
			split($2, id, "/"); t = $4; sub(":$", "", t)
			for (i = 5; i <= NF; i++) if ($i ~ /^U/) break
			line = id[2] " " t " " $(i + 1)
			for (j = i; j <= NF; j++) if ($j == "brstack") break
			for (k = j + 1; k <= NF; k++) {
				split($k, b, "/")
				line = line " " b[1] "/" b[2] "/" b[3]
			}
			print line
		}' > "$W/$name.skd"
	# perf prints an unnamed address as [unknown], skidless as 0x...
	sed -i 's/ 0x[0-9a-f]*\b/ [unknown]/g; s/\b0x[0-9a-f]*\//[unknown]\//g; s/\/0x[0-9a-f]*\//\/[unknown]\//g' \
		"$W/$name.skd"
	sed -i 's/\[unknown\]+0x0/[unknown]/g' "$W/$name.perf"
	np=$(wc -l < "$W/$name.perf")
	ns=$(wc -l < "$W/$name.skd")
	named=$(awk '$3 != "[unknown]"' "$W/$name.perf" | wc -l)
	if [ "$np" -gt 0 ] && [ ! -s "$W/$name.serr" ] &&
	   [ "$named" -ge $((np * 9 / 10)) ] &&
	   diff -q <(sort "$W/$name.perf") <(sort "$W/$name.skd") > /dev/null; then
		out ok "$name: perf script and skidless script agree on all $np user samples (leaf symbol and branch stack; $named named)"
	else
		out "not ok" "$name: perf script ($np samples, $named named) and skidless script ($ns) disagree"
		diff <(sort "$W/$name.perf") <(sort "$W/$name.skd") | head -6 | sed 's/^/#   /'
		sed 's/^/#   perf: /' "$W/$name.serr" | head -3
	fi
done
echo "1..$n"
