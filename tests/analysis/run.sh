#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The analysis side against the real consumers, on the captures the VM
# made (tests/kselftest/perf_export.sh wrote them into the TAP log):
#
#   tests/analysis/run.sh TAP_LOG VM_BIN_DIR OUT_DIR     TAP on stdout
#   tests/analysis/run.sh --extract TAP_LOG VM_BIN_DIR CAPS_DIR
#
# extracts every capture to CAPS_DIR/NAME.data, with a build-id cache in
# CAPS_DIR/home/.debug holding the VM's programs and the VM kernel's
# kallsyms (the files were recorded as /skd/bin/NAME, which only the
# cache resolves), then runs each tests/analysis/*.sh as
# `HOME=CAPS_DIR/home NAME.sh CAPS_DIR VM_BIN_DIR`, its TAP lines prefixed
# with its name: each script is one test (tests/tap_summary.sh), and a line
# of one capture ("CAPTURE: ...") says "NAME [CAPTURE]: ...", the capture
# being a configuration. A script that fails without a failing line fails.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
extract_only=
if [ "${1:-}" = --extract ]; then
	extract_only=1
	shift
fi
LOG=$1
VMBIN=$(cd "$2" && pwd)
OUT=$3
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
CAPS=$OUT
[ -n "$extract_only" ] || CAPS=$OUT/caps

source "$(dirname "${BASH_SOURCE[0]}")/../perfdata/vm_log.sh"

mkdir -p "$CAPS/home"
export HOME=$CAPS/home
for f in "$VMBIN"/*; do
	[ -f "$f" ] && [ -x "$f" ] && perf buildid-cache -a "$f" 2> /dev/null
done
vm_kallsyms
names=$(vm_names)
for name in $names; do
	extract "$name" > "$CAPS/$name.data"
done
if [ -n "$extract_only" ]; then
	echo "$CAPS: $(echo $names)"
	exit 0
fi

n=0
out() { n=$((n + 1)); echo "$1 $n - $2"; }
if [ -z "$names" ]; then
	out "not ok" "the VM exported captures (none in $LOG)"
	echo "1..$n"
	exit 1
fi
for t in "$HERE"/*.sh; do
	name=$(basename "$t" .sh)
	[ "$name" != run ] || continue
	timeout 600 bash "$t" "$CAPS" "$VMBIN" > "$OUT/$name.tap" 2> "$OUT/$name.err"
	rc=$?
	while read -r line; do
		case $line in
		"ok "*|"not ok "*)
			status=${line%% [0-9]*}
			desc=${line#* - }
			# a check of one capture: the capture is its configuration
			cap=${desc%%: *}
			if [ "$cap" != "$desc" ] && [[ " $names " == *" $cap "* ]]; then
				out "$status" "$name [$cap]: ${desc#*: }"
			else
				out "$status" "$name: $desc"
			fi ;;
		"#"*) echo "$line" ;;
		esac
	done < "$OUT/$name.tap"
	if [ $rc != 0 ] && ! grep -q "^not ok" "$OUT/$name.tap"; then
		why="exit $rc"
		[ $rc != 124 ] || why="timeout after 600 s"
		out "not ok" "$name ran ($why)"
		sed 's/^/#   /' "$OUT/$name.err" | tail -5
	fi
done
echo "1..$n"
