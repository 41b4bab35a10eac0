#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/tap_summary.sh on small TAP fixtures (TAP on stdout; make check's
# static stage). The expected counts are worked out by hand from each
# fixture, by the rule make check promises: a test counts once whatever
# its cases and configurations, fails if any case fails on any of them,
# is skipped if it failed nowhere but skipped somewhere; malformed input
# fails. All results are cases of one test.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SUMMARY=$HERE/tap_summary.sh
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
NAME="tap_summary.sh counts distinct tests"
n=0 fails=0

# expect DESCRIPTION RC LAST [PATTERN...] -- ARGS...: run the summary on
# ARGS; its exit code must be RC, its last line LAST, and each extended
# regex PATTERN must match a line of its output.
expect() {
	local desc=$1 rc=$2 last=$3 pats=() out got why=
	shift 3
	while [ "$1" != -- ]; do pats+=("$1"); shift; done
	shift
	out=$(bash "$SUMMARY" "$@" 2>&1)
	got=$?
	[ "$got" = "$rc" ] || why="exit $got, not $rc"
	[ "$(tail -n 1 <<< "$out")" = "$last" ] || why+="${why:+; }last line '$(tail -n 1 <<< "$out")', not '$last'"
	for p in "${pats[@]}"; do
		grep -qE -- "$p" <<< "$out" || why+="${why:+; }no line matches /$p/"
	done
	n=$((n + 1))
	if [ -z "$why" ]; then
		echo "ok $n - $NAME: $desc"
	else
		echo "not ok $n - $NAME: $desc: $why"
		sed 's/^/#   /' <<< "$out"
		fails=$((fails + 1))
	fi
}

# The same kselftest on three sim models and two kernels, in two files
# (the VM lane's and the debug kernel's): one test of 2 cases on 4
# configurations, beside one other test.
cat > "$W/vm.tap" <<'EOF'
1..5
ok 1 pmu_sampling [skylake, 6.12]: nothing lost
ok 2 pmu_sampling [skylake, 6.12]: every period is 200003 (13619 of 13619)
ok 3 pmu_sampling [icelake, 6.12]: nothing lost
ok 4 pmu_sampling [icelake, 6.12]: every period is 200003 (12001 of 12001)
ok 5 insmod [6.12]: insmod skidless.ko
EOF
cat > "$W/debug.tap" <<'EOF'
ok - debug kernel: built in 300 s
1..3
ok 1 pmu_sampling [skylake, 6.1-debug]: nothing lost
ok 2 pmu_sampling [skylake, 6.1-debug]: every period is 200003 (999 of 999)
ok 3 insmod [6.1-debug]: insmod skidless.ko
EOF
expect "duplicates across configurations and files collapse into one test" 0 \
	"3 passed, 0 failed, 0 skipped" \
	'^  vm\.tap +2 tests +3 cases +3 configurations +5 results$' \
	'^  debug\.tap +3 tests +4 cases +2 configurations +4 results \(2 tests also in a file above\)$' \
	'^  on \[skylake, 6\.12\] \[icelake, 6\.12\] \[skylake, 6\.1-debug\]:$' \
	'^    1 test: pmu_sampling \(2\)$' \
	'^    1 test: insmod \(1\)$' \
	-- "$W/vm.tap" "$W/debug.tap"

# One configuration of three fails: the test fails, once, and the failing
# line is shown.
sed 's/^ok 3 pmu_sampling \[icelake, 6.12\]: nothing lost/not ok 3 pmu_sampling [icelake, 6.12]: 5 lost/' \
	"$W/vm.tap" > "$W/vm-fail.tap"
expect "one failing configuration fails the test" 1 \
	"2 passed, 1 failed, 0 skipped" \
	'^FAILED: vm-fail\.tap: not ok 3 pmu_sampling \[icelake, 6\.12\]: 5 lost$' \
	-- "$W/vm-fail.tap" "$W/debug.tap"

# A table of 216 cases is one test; one bad case fails it.
{
	echo "1..216"
	for i in $(seq 1 216); do
		if [ "$i" = 100 ]; then echo "not ok $i uapi_reject [6.12]: case $i: accepted"
		else echo "ok $i uapi_reject [6.12]: case $i: EINVAL"; fi
	done
	echo "ok 217 poll [6.12]: POLLIN when a page is full"
} > "$W/table.tap"
expect "a failure inside a table fails its test, which counts once" 1 \
	"1 passed, 1 failed, 0 skipped" \
	'^  table\.tap +2 tests +217 cases +1 configuration +217 results$' \
	'^FAILED: table\.tap: not ok 100 uapi_reject \[6\.12\]: case 100: accepted$' \
	-- "$W/table.tap"

# cmocka: one line per test function; a "# N cases" comment before it says
# the function checked a table.
cat > "$W/unit.tap" <<'EOF'
1..3
ok 1 - lbr/test_fmt6
# 20480 cases
ok 2 - lbr/test_arch
# checked 72 period cases on 12 lists
ok 3 - event_data/test_periods
1..1
ok 1 - decode/test_fmt6
EOF
expect "a table test reports its case count; same function names in two programs are two tests" 0 \
	"4 passed, 0 failed, 0 skipped" \
	'^  unit\.tap +4 tests +20554 cases +1 configuration +4 results$' \
	-- "$W/unit.tap"

# Skips: counted once per test, shown, and make check's --no-skips fails
# on them; a test that failed somewhere is failed, not skipped.
cat > "$W/skip.tap" <<'EOF'
ok 1 - perf records here # SKIP no perf
not ok 2 - unit/test_x # SKIP
ok 3 cli_pmu.sh [skylake, 6.12]: records
ok 4 cli_pmu.sh [icelake, 6.12] # SKIP no model
ok 5 pmu_truth [skylake, 6.12]: fine
ok 6 pmu_truth [icelake, 6.12] # SKIP no model
not ok 7 pmu_truth [alderlake, 6.12]: wrong
1..7
EOF
expect "skips are counted once per test and shown" 1 \
	"0 passed, 1 failed, 3 skipped" \
	'^skipped: skip\.tap: ok 1 - perf records here # SKIP no perf$' \
	'^skipped: skip\.tap: not ok 2 - unit/test_x # SKIP$' \
	'^FAILED: skip\.tap: not ok 7 pmu_truth \[alderlake, 6\.12\]: wrong$' \
	-- "$W/skip.tap"
grep -v pmu_truth "$W/skip.tap" > "$W/skip-only.tap"
expect "skips alone pass without --no-skips" 0 "0 passed, 0 failed, 3 skipped" -- "$W/skip-only.tap"
expect "skips fail with --no-skips (exit 3)" 3 "0 passed, 0 failed, 3 skipped" \
	-- --no-skips "$W/skip-only.tap"

# Malformed input fails, each in a test of its file's name.
printf 'ok 1 - fine\nthis is no TAP\n' > "$W/garbage.tap"
printf 'ok 1 - fine\nok 2\n' > "$W/nodesc.tap"
printf 'ok 1 - fine\nBail out! the VM died\n' > "$W/bail.tap"
: > "$W/empty.tap"
printf '1..0\n# nothing ran\n' > "$W/noresult.tap"
expect "malformed input fails" 1 \
	"1 passed, 5 failed, 0 skipped" \
	'^FAILED: garbage\.tap: not ok - line 2 is not TAP: this is no TAP$' \
	'^FAILED: nodesc\.tap: not ok - line 2 is a result without a description: ok 2$' \
	'^FAILED: bail\.tap: not ok - line 2: Bail out! the VM died$' \
	'^FAILED: empty\.tap: not ok - it holds no test result$' \
	'^FAILED: noresult\.tap: not ok - it holds no test result$' \
	-- "$W/garbage.tap" "$W/nodesc.tap" "$W/bail.tap" "$W/empty.tap" "$W/noresult.tap"

# "needs hardware" tests: listed once whatever the kernels, not counted.
cat > "$W/hw.tap" <<'EOF'
ok 1 insmod [6.12]: insmod skidless.ko
# needs hardware: pmu_truth: CPU vendor is AuthenticAMD, not Intel
# needs hardware: pmu_truth: CPU vendor is AuthenticAMD, not Intel
EOF
expect "needs hardware is listed once and counted as nothing" 0 \
	"1 passed, 0 failed, 0 skipped" \
	'^needs hardware: 1 \(not run: no machine here has a PMU\)$' \
	'^  pmu_truth: CPU vendor is AuthenticAMD, not Intel$' \
	-- "$W/hw.tap"

# Only "TEST [CONFIGURATION]" before the first ": " is a configuration;
# brackets in a case are text. Standard input reads as "-".
printf 'ok 1 - a: x [y]\nok 2 - a: z\nok 3 - b [c] d\n' > "$W/plain.tap"
expect "brackets elsewhere are no configuration; - reads stdin" 0 \
	"2 passed, 0 failed, 0 skipped" \
	'^  stdin +2 tests +3 cases +1 configuration +3 results$' \
	-- - < "$W/plain.tap"

expect "a missing file is a usage error" 2 \
	"$SUMMARY: cannot read $W/nosuch.tap" -- "$W/nosuch.tap"

echo "1..$n"
[ $fails = 0 ]
