#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fuzz every userland decoder and file reader (issue 4, item 4): builds the
# libFuzzer targets of tests/fuzz/ (clang, ASan + UBSan), replays the
# regression inputs of tests/fuzz/regressions/TARGET/, then runs each
# target for a fixed time from its corpus in build/fuzz/corpus/TARGET,
# seeded from build/fuzz/seeds/TARGET.
#
#   tests/fuzz/run.sh [--groups] [--seconds N] [--tap FILE] [-j N] [NAME...]
#
# --groups      fuzz the CI groups of the Makefile instead of the targets
#               (NAMEs are then groups): one binary per group, whose first
#               input byte picks the member, from build/fuzz/corpus/group_G
#               seeded from build/fuzz/seeds-group/G. The regression inputs
#               of every member are replayed first, each with its member's
#               own target.
# --seconds N   fuzzing time per target or group (default 120)
# --tap FILE    also write the TAP lines to FILE
# -j N          run N targets or groups at once (default 1)
#
# CI runs: tests/fuzz/run.sh --groups --seconds 120 -j 1 --tap FILE
#
# Prints one TAP line per target (group), and one per target (member) that
# has regression inputs; the last line is "# fuzz: N runs in total". A
# crash, sanitizer report, leak, timeout or out-of-memory fails its target
# (group): the input is copied to tests/fuzz/regressions/TARGET/crash-SHA1,
# where it stays as a regression input (commit it with the fix), and the
# report's head goes into the TAP as comments. An input of a group is
# filed under the member it ran, without its first byte, so that it is an
# input of the member's own target. Exits 1 if any target (group) failed.
#
# To reproduce one: build/fuzz/fuzz_TARGET tests/fuzz/regressions/TARGET/crash-SHA1
# (logs of the last run are in build/fuzz/logs/).
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FUZZ=$TOP/build/fuzz
REGRESS=$TOP/tests/fuzz/regressions
TARGETS=(ring pebs lbr capture kallsyms maps elf events plan)
SECONDS_PER=120
TAP=
JOBS=1
GROUPS_MODE=0
OPTS=(-timeout=10 -rss_limit_mb=2048)

# The groups and their members, in index byte order, from the Makefile.
declare -A MEMBERS=()
GROUP_NAMES=()
while read -r g m; do
	[ -n "$g" ] || continue
	GROUP_NAMES+=("$g")
	MEMBERS[$g]=$m
done < <(make -s --no-print-directory -C "$TOP/tests/fuzz" list-groups \
	2> /dev/null)

usage() {
	echo "usage: $0 [--groups] [--seconds N] [--tap FILE] [-j N] [NAME...]" >&2
	echo "targets: ${TARGETS[*]}" >&2
	echo "groups (with --groups): ${GROUP_NAMES[*]}" >&2
	exit 2
}

want=()
while [ $# -gt 0 ]; do
	case $1 in
	--groups) GROUPS_MODE=1; shift ;;
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
if [ $GROUPS_MODE = 1 ]; then
	if [ ${#GROUP_NAMES[@]} = 0 ]; then
		echo "$0: no groups from 'make -C tests/fuzz list-groups'" >&2
		exit 2
	fi
	ITEMS=("${GROUP_NAMES[@]}")
else
	ITEMS=("${TARGETS[@]}")
fi
for t in "${want[@]}"; do
	[[ " ${ITEMS[*]} " == *" $t "* ]] || { echo "$0: no target or group $t" >&2; usage; }
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

# --groups replays with the single targets, so it builds both.
goal=singles
[ $GROUPS_MODE = 1 ] && goal=all
if ! make -s -C "$TOP/tests/fuzz" -j"$JOBS" $goal > "$FUZZ/logs/build.log" 2>&1; then
	tap "not ok - fuzz targets build (clang, libFuzzer, ASan, UBSan)"
	while IFS= read -r l; do
		tap "$l"
	done < <(sed -n '1,30s/^/#   /p' "$FUZZ/logs/build.log")
	tap "# fuzz: 0 runs in total"
	exit 1
fi

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

# Fuzzes with BIN for SECONDS_PER from build/fuzz/corpus/NAME and DIR...,
# artifacts in build/fuzz/artifacts/NAME/ (art), log in logs/NAME.log; sets
# rc, runs (also in logs/NAME.runs), rate and cov.
run_fuzzer() {
	local name=$1 bin=$2 corpus=$FUZZ/corpus/$1 log=$FUZZ/logs/$1.log
	shift 2
	art=$FUZZ/artifacts/$name
	rm -rf "$art"
	mkdir -p "$corpus" "$art"
	timeout -k 10 $((SECONDS_PER + 300)) "$bin" "${OPTS[@]}" \
		-max_total_time="$SECONDS_PER" -print_final_stats=1 \
		-artifact_prefix="$art/" "$corpus" "$@" > "$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	runs=${runs:-0}
	echo "$runs" > "$FUZZ/logs/$name.runs"
	cov=$(grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*' "$log" | tail -1 |
	      awk '{ printf "cov %s, ft %s, corpus %s", $2, $4, $6 }')
	rate=$((runs / SECONDS_PER))
}

# FILE, less its first SKIP bytes, as tests/fuzz/regressions/T/crash-SHA1
# (the SHA1 of what is stored); prints that path.
save_regression() {
	local t=$1 f=$2 skip=$3 tmp sha
	mkdir -p "$REGRESS/$t"
	tmp=$(mktemp "$REGRESS/$t/.new.XXXXXX")
	tail -c +$((skip + 1)) "$f" > "$tmp"
	sha=$(sha1sum "$tmp" | cut -d' ' -f1)
	mv "$tmp" "$REGRESS/$t/crash-$sha"
	echo "tests/fuzz/regressions/$t/crash-$sha"
}

# The TAP line of run NAME, as WHAT, into OUT; the failing inputs in $@.
result() {
	local what=$1 name=$2 out=$3 f
	shift 3
	if [ $rc = 0 ] && [ $# = 0 ]; then
		echo "ok - $what: $runs runs in $SECONDS_PER s ($rate/s)," \
			"0 crashes, ${cov:-no coverage line}" >> "$out"
		return 0
	fi
	{
		echo "not ok - $what: $runs runs in $SECONDS_PER s," \
			"$# crashes (rc $rc, log: build/fuzz/logs/$name.log)"
		for f; do echo "#   $f"; done
		report_head "$FUZZ/logs/$name.log"
	} >> "$out"
	return 1
}

# One target: its TAP lines in $FUZZ/logs/T.tap, its run count in T.runs.
fuzz_one() {
	local t=$1 out=$FUZZ/logs/$1.tap
	local rc runs cov rate art f k kinds=() dirs

	: > "$out"
	echo 0 > "$FUZZ/logs/$t.runs"
	if ! replay "$t" "$out"; then
		echo "not ok - fuzz $t: not run, a regression input crashes" >> "$out"
		return
	fi
	dirs=("$FUZZ/seeds/$t")
	[ -d "$REGRESS/$t" ] && dirs+=("$REGRESS/$t")
	run_fuzzer "$t" "$FUZZ/fuzz_$t" "${dirs[@]}"

	# Every input that made it fail becomes a regression input.
	for f in "$art"/crash-* "$art"/leak-* "$art"/timeout-* "$art"/oom-*; do
		[ -f "$f" ] || continue
		k=$(basename "$f")
		kinds+=("${k%%-*} -> $(save_regression "$t" "$f" 0)")
	done
	result "fuzz $t" "$t" "$out" "${kinds[@]}"
}

# Group inputs: byte i, then an input of member i (of the group's list).
prefix_copy() {
	local i=$1 src=$2 dst=$3
	{ printf '%b' "\\0$(printf %03o "$i")"; cat "$src"; } > "$dst"
}

# One group, its members' regression inputs replayed already: its TAP
# lines appended to $FUZZ/logs/group_G.tap, its run count in group_G.runs.
fuzz_group() {
	local g=$1 name=group_$1 out=$FUZZ/logs/group_$1.tap
	local reg=$FUZZ/regress-group/$1 members
	local rc runs cov rate art f k b i m kinds=() share

	read -ra members <<< "${MEMBERS[$g]}"

	# The members' regression inputs join the seeds, as group inputs.
	rm -rf "$reg"
	mkdir -p "$reg"
	for i in "${!members[@]}"; do
		for f in "$REGRESS/${members[i]}"/*; do
			[ -f "$f" ] || continue
			prefix_copy "$i" "$f" "$reg/${members[i]}-${f##*/}"
		done
	done
	run_fuzzer "$name" "$FUZZ/fuzz_group_$g" "$FUZZ/seeds-group/$g" "$reg"

	# Each failing input is filed under the member that ran it.
	for f in "$art"/crash-* "$art"/leak-* "$art"/timeout-* "$art"/oom-*; do
		[ -f "$f" ] || continue
		k=$(basename "$f")
		k=${k%%-*}
		if [ ! -s "$f" ]; then
			# The group runs no member on an empty input.
			kinds+=("$k on the empty input, in no member: kept as\
 build/fuzz/artifacts/$name/$(basename "$f")")
			continue
		fi
		b=$(od -An -tu1 -N1 "$f" | tr -d ' ')
		m=${members[b % ${#members[@]}]}
		kinds+=("$k in $m -> $(save_regression "$m" "$f" 1)")
	done
	if result "fuzz group $g (${members[*]})" "$name" "$out" \
			"${kinds[@]}" && [ ${#members[@]} -gt 1 ]; then
		# How the time went: "fuzz group: M N runs S s; ..." (group.c).
		share=$(sed -n 's/^fuzz group: //p' "$FUZZ/logs/$name.log" |
			tail -1 | sed 's/ *;$//; s/; */, /g')
		[ -z "$share" ] || echo "#   members: $share" >> "$out"
	fi
}

# --groups: every member's regression inputs first, a group whose member
# fails one is not fuzzed.
run=()
if [ $GROUPS_MODE = 1 ]; then
	for g in "${ITEMS[@]}"; do
		out=$FUZZ/logs/group_$g.tap
		: > "$out"
		echo 0 > "$FUZZ/logs/group_$g.runs"
		bad=()
		for m in ${MEMBERS[$g]}; do
			replay "$m" "$out" || bad+=("$m")
		done
		if [ ${#bad[@]} -gt 0 ]; then
			echo "not ok - fuzz group $g (${MEMBERS[$g]}): not run," \
				"a regression input of ${bad[*]} crashes" >> "$out"
		else
			run+=("$g")
		fi
	done
	job=fuzz_group
else
	run=("${ITEMS[@]}")
	job=fuzz_one
fi

running=0
for t in "${run[@]}"; do
	if [ "$JOBS" -gt 1 ]; then
		if [ $running -ge "$JOBS" ]; then
			wait -n
			running=$((running - 1))
		fi
		$job "$t" &
		running=$((running + 1))
	else
		$job "$t"
	fi
done
wait

failed=0
total=0
for t in "${ITEMS[@]}"; do
	[ $GROUPS_MODE = 1 ] && t=group_$t
	while IFS= read -r line; do
		tap "$line"
		[[ $line == "not ok"* ]] && failed=1
	done < "$FUZZ/logs/$t.tap"
	total=$((total + $(cat "$FUZZ/logs/$t.runs")))
done
tap "# fuzz: $total runs in total"
exit $failed
