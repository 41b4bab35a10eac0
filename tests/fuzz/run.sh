#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fuzz every userland decoder and file reader (issue 4, item 4): builds the
# libFuzzer targets of tests/fuzz/ (clang, ASan + UBSan), replays the
# regression inputs of tests/fuzz/regressions/TARGET/, then runs each
# target for a fixed time from its corpus in build/fuzz/corpus/TARGET,
# seeded from build/fuzz/seeds/TARGET.
#
#   tests/fuzz/run.sh [--seconds N] [--tap FILE] [-j N] [TARGET...]
#
# --seconds N   fuzzing time per target (default 120)
# --tap FILE    also write the TAP lines to FILE
# -j N          run N targets at once (default 1)
#
# CI runs: tests/fuzz/run.sh --seconds 120 -j 2 --tap FILE
#
# Prints one TAP line per target, with the CPU time it got, and one per
# target that has regression inputs; the last line is "# fuzz: N runs in
# total". A crash, sanitizer report, leak, timeout or out-of-memory fails
# its target: the input is copied to
# tests/fuzz/regressions/TARGET/crash-SHA1, where it stays as a regression
# input (commit it with the fix), and the report's head goes into the TAP
# as comments. A target that does not build fails too, and only it. Exits
# 1 if any target failed.
#
# To reproduce one: build/fuzz/fuzz_TARGET tests/fuzz/regressions/TARGET/crash-SHA1
# (logs of the last run are in build/fuzz/logs/).
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FUZZ=$TOP/build/fuzz
REGRESS=$TOP/tests/fuzz/regressions
TARGETS=(ring pebs lbr capture perfdata kallsyms maps elf events plan)
SECONDS_PER=120
TAP=
JOBS=1
OPTS=(-timeout=10 -rss_limit_mb=2048)

usage() {
	echo "usage: $0 [--seconds N] [--tap FILE] [-j N] [TARGET...]" >&2
	echo "targets: ${TARGETS[*]}" >&2
	exit 2
}

want=()
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) [ $# -ge 2 ] || usage; SECONDS_PER=$2; shift 2 ;;
	--tap) [ $# -ge 2 ] || usage; TAP=$2; shift 2 ;;
	-j) [ $# -ge 2 ] || usage; JOBS=$2; shift 2 ;;
	-j*) JOBS=${1#-j}; shift ;;
	-h|--help) usage ;;
	-*) usage ;;
	*) want+=("$1"); shift ;;
	esac
done
case $SECONDS_PER in ''|*[!0-9]*|0) usage ;; esac
case $JOBS in ''|*[!0-9]*|0) usage ;; esac
ITEMS=("${TARGETS[@]}")
for t in "${want[@]}"; do
	[[ " ${ITEMS[*]} " == *" $t "* ]] || { echo "$0: no target $t" >&2; usage; }
done
[ ${#want[@]} -gt 0 ] && ITEMS=("${want[@]}")

mkdir -p "$FUZZ/logs"
if [ -n "$TAP" ]; then
	mkdir -p "$(dirname "$TAP")"
	: > "$TAP"
fi
tap() {
	echo "$1"
	if [ -n "$TAP" ]; then echo "$1" >> "$TAP"; fi
}
# The head of a sanitizer or libFuzzer report in LOG, as TAP comments.
report_head() {
	awk '/ERROR: |runtime error:|check failed:|deadly signal|ALARM: /,0 {
		if (n++ < 30) print "#   " $0
	}' "$1"
}

if ! make -s -C "$TOP/tests/fuzz" -j"$JOBS" seeds > "$FUZZ/logs/build.log" 2>&1; then
	tap "not ok - fuzz seeds build"
	while IFS= read -r l; do
		tap "$l"
	done < <(sed -n '1,30s/^/#   /p' "$FUZZ/logs/build.log")
	tap "# fuzz: 0 runs in total"
	exit 1
fi
# Each target on its own: one that does not build fails alone, and the
# others still run (logs/T.build.log).
broken=" "
for t in "${ITEMS[@]}"; do
	make -s -C "$TOP/tests/fuzz" -j"$JOBS" "$t" \
		> "$FUZZ/logs/$t.build.log" 2>&1 || broken+="$t "
done

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
# Reports name functions and lines only through llvm-symbolizer.
if ! command -v llvm-symbolizer > /dev/null; then
	for s in /usr/lib/llvm-*/bin/llvm-symbolizer; do
		[ -x "$s" ] && export ASAN_SYMBOLIZER_PATH=$s
	done
fi

# Regression inputs must all run clean: out is OUT.tap, 1 if one crashed.
replay() {
	local t=$1 out=$2 log=$FUZZ/logs/$1.replay.log files
	mapfile -t files < <(find "$REGRESS/$t" -maxdepth 1 -type f \
		! -name '.*' 2> /dev/null | sort)
	[ ${#files[@]} -gt 0 ] || return 0
	if "$FUZZ/fuzz_$t" "${OPTS[@]}" "${files[@]}" > "$log" 2>&1; then
		echo "ok - fuzz $t: ${#files[@]} regression inputs run clean" >> "$out"
		return 0
	fi
	{
		echo "not ok - fuzz $t: a regression input fails again" \
			"(log: build/fuzz/logs/$t.replay.log)"
		grep -h '^Running: ' "$log" | tail -1 | sed 's/^/#   /'
		report_head "$log"
	} >> "$out"
	return 1
}

# Fuzzes target NAME for SECONDS_PER from build/fuzz/corpus/NAME and DIR...,
# artifacts in build/fuzz/artifacts/NAME/ (art), log in logs/NAME.log; sets
# rc, runs (also in logs/NAME.runs), rate, cov and cpu (seconds of CPU the
# fuzzer got: beside the VMs of make check, less than its wall time).
run_fuzzer() {
	local name=$1 corpus=$FUZZ/corpus/$1 log=$FUZZ/logs/$1.log
	local TIMEFORMAT='%U %S'
	shift
	art=$FUZZ/artifacts/$name
	rm -rf "$art"
	mkdir -p "$corpus" "$art"
	{ time timeout -k 10 $((SECONDS_PER + 300)) "$FUZZ/fuzz_$name" "${OPTS[@]}" \
		-max_total_time="$SECONDS_PER" -print_final_stats=1 \
		-artifact_prefix="$art/" "$corpus" "$@" > "$log" 2>&1; } \
		2> "$FUZZ/logs/$name.time"
	rc=$?
	cpu=$(awk '{ printf "%.0f", $1 + $2 }' "$FUZZ/logs/$name.time")
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	runs=${runs:-0}
	echo "$runs" > "$FUZZ/logs/$name.runs"
	cov=$(grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*' "$log" | tail -1 |
	      awk '{ printf "cov %s, ft %s, corpus %s", $2, $4, $6 }')
	rate=$((runs / SECONDS_PER))
}

# FILE as tests/fuzz/regressions/T/crash-SHA1; prints that path.
save_regression() {
	local t=$1 f=$2 sha
	sha=$(sha1sum "$f" | cut -d' ' -f1)
	mkdir -p "$REGRESS/$t"
	cp "$f" "$REGRESS/$t/crash-$sha"
	echo "tests/fuzz/regressions/$t/crash-$sha"
}

# The TAP line of target NAME's run into OUT; the failing inputs in $@.
result() {
	local name=$1 out=$2 f
	shift 2
	if [ $rc = 0 ] && [ $# = 0 ]; then
		echo "ok - fuzz $name: $runs runs in $SECONDS_PER s ($rate/s," \
			"${cpu:-?} s of CPU), 0 crashes, ${cov:-no coverage line}" \
			>> "$out"
		return 0
	fi
	{
		echo "not ok - fuzz $name: $runs runs in $SECONDS_PER s," \
			"$# crashes (rc $rc, log: build/fuzz/logs/$name.log)"
		for f; do echo "#   $f"; done
		report_head "$FUZZ/logs/$name.log"
	} >> "$out"
	return 1
}

# One target: its TAP lines in $FUZZ/logs/T.tap, its run count in T.runs.
fuzz_one() {
	local t=$1 out=$FUZZ/logs/$1.tap
	local rc runs cov rate cpu art f k kinds=() dirs

	: > "$out"
	echo 0 > "$FUZZ/logs/$t.runs"
	if [[ $broken == *" $t "* ]]; then
		{
			echo "not ok - fuzz $t: does not build (clang, libFuzzer," \
				"ASan, UBSan; log: build/fuzz/logs/$t.build.log)"
			sed -n '1,30s/^/#   /p' "$FUZZ/logs/$t.build.log"
		} >> "$out"
		return
	fi
	if ! replay "$t" "$out"; then
		echo "not ok - fuzz $t: not run, a regression input crashes" >> "$out"
		return
	fi
	dirs=("$FUZZ/seeds/$t")
	[ -d "$REGRESS/$t" ] && dirs+=("$REGRESS/$t")
	run_fuzzer "$t" "${dirs[@]}"

	# Every input that made it fail becomes a regression input.
	for f in "$art"/crash-* "$art"/leak-* "$art"/timeout-* "$art"/oom-*; do
		[ -f "$f" ] || continue
		k=$(basename "$f")
		kinds+=("${k%%-*} -> $(save_regression "$t" "$f")")
	done
	result "$t" "$out" "${kinds[@]}"
}

running=0
for t in "${ITEMS[@]}"; do
	if [ "$JOBS" -gt 1 ]; then
		if [ $running -ge "$JOBS" ]; then
			wait -n
			running=$((running - 1))
		fi
		fuzz_one "$t" &
		running=$((running + 1))
	else
		fuzz_one "$t"
	fi
done
wait

failed=0
total=0
for t in "${ITEMS[@]}"; do
	while IFS= read -r line; do
		tap "$line"
		[[ $line == "not ok"* ]] && failed=1
	done < "$FUZZ/logs/$t.tap"
	total=$((total + $(cat "$FUZZ/logs/$t.runs")))
done
tap "# fuzz: $total runs in total"
exit $failed
