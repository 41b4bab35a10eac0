#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The command's live paths (draining, holding a command until sampling
# runs, the module's MMAP records and READ_MAPS, writing and reading
# captures) under ASan, UBSan and LeakSanitizer: every run must end
# cleanly with no report at all.
. "$(dirname "$0")/tap.sh"

BIN=$(cd "$(dirname "$0")" && pwd)
SKD=$BIN/skidless-asan
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

[ -x "$SKD" ] || { echo "1..0 # SKIP no sanitized build"; exit 4; }

# clean DESCRIPTION EXPECTED_RC COMMAND...: exit code as expected and no
# sanitizer report on stderr.
clean() {
	desc=$1
	want=$2
	shift 2
	"$@" > "$T/out" 2> "$T/err"
	rc=$?
	if grep -q -e "Sanitizer" -e "runtime error" "$T/err"; then
		sed -n '1,30s/^/# /p' "$T/err"
		result 1 "$desc: sanitizer report"
		return
	fi
	[ "$rc" = "$want" ] || sed -n '1,10s/^/# /p' "$T/err"
	[ "$rc" = "$want" ]
	result $? "$desc (rc $rc)"
}

plan 15
clean "info" 0 "$SKD" info
clean "record -- busyloop" 0 "$SKD" record -q -o "$T/a.data" -- "$BIN/busyloop" 1
clean "record -- sh with short-lived children" 0 "$SKD" record -q -o "$T/b.data" -- \
	sh -c "$BIN/busyloop 0.2; $BIN/busyloop 0.2"
"$BIN/busyloop" "$(slow 2)" &
clean "record -p" 0 "$SKD" record -q -p $! --duration 0.5 -o "$T/c.data"
wait
clean "record -a with a small ring that overflows" 0 "$SKD" record -q -a --idle \
	-m 1 -F 4000 --duration 1 -o "$T/d.data"
clean "script --all" 0 "$SKD" script --all -i "$T/b.data"
clean "report" 0 "$SKD" report -i "$T/d.data"
head -c 5000 "$T/a.data" > "$T/cut.data"
clean "script of a truncated capture" 0 "$SKD" script -i "$T/cut.data"
clean "a refused configuration" 1 "$SKD" record -q -p 999999 -o "$T/e.data"
clean "info --pmu sim:icelake" 0 "$SKD" info --pmu sim:icelake
clean "record on sim with events, PEBS memory info and LBR" 0 "$SKD" record -q \
	--backend sim:sapphirerapids -c 200003 \
	-e cycles:ppp,mem_inst_retired.all_loads:p -b -o "$T/f.data" -- "$BIN/busyloop" 0.5
clean "script of PMU samples" 0 "$SKD" script -i "$T/f.data"
clean "report with two events" 0 "$SKD" report -i "$T/f.data"
clean "an event the planner refuses, explained" 1 "$SKD" record -q \
	--backend sim:skylake -e branches,branches,branches,branches,branches \
	-o "$T/g.data" -- true
clean "selftest on sim" 0 "$SKD" selftest --backend sim:skylake --seconds "$(slow 0.5)"
finish
