#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The reliability lane in a few lines, from make check's logs:
#
#   tests/reliability_summary.sh build/check
#
# What the module survived on the debug kernel (load/unload, hotplug,
# sessions, rmmod races, throttling, fork storms), how many hostile calls
# the fuzzers made, what the kernel's checkers reported (all must be 0),
# and whether every loss was accounted for. It only reads: the pass/fail
# verdicts are the TAP lines of the stages themselves.
set -uo pipefail

OUT=${1:?usage: reliability_summary.sh CHECK_OUT_DIR}
# the debug kernel's two VMs: the whole suite, and stress.list (the
# load/unload cycles first)
VMS=("$OUT/debug-suite" "$OUT/debug-stress")
taps() { cat "${VMS[@]/%//tap.log}" 2>/dev/null; }

# count PATTERN: reports matching the extended regex, over the VMs. Each
# VM's report is in its console log and again in the kernel log dumped at
# the end (which may have wrapped, or be missing after a crash): the larger.
count() {
	local vm c d n=0
	for vm in "${VMS[@]}"; do
		c=$(tr -d '\r' < "$vm/console.log" 2>/dev/null | grep -cE "$1")
		d=$(sed -n '/^# skd-dmesg-begin/,$p' "$vm/tap.log" 2>/dev/null | grep -cE "$1")
		n=$((n + (c > d ? c : d)))
	done
	echo $n
}

echo "reliability summary (debug kernel $(taps | grep -ah '^# skd-kernel:' 2>/dev/null |
	head -n 1 | cut -d' ' -f3 || echo '?'): KASAN, lockdep, kmemleak, UBSAN)"
if [ -z "$(taps)" ]; then
	echo "  the debug-kernel VMs did not run: see $OUT/debug-kernel.log and $OUT/debug-*.log"
else
	echo "  load/unload cycles:        $(taps | grep -ahoE '[0-9]+ load/unload cycles of skidless.ko \([0-9]+ succeeded\)' | sort -n | tail -n 1);" \
		"rmmod raced with sessions: $(taps | grep -ahoE 'refused [0-9]+ times, unloaded [0-9]+ times' | head -n 1)"
	echo "  CPU offline/online cycles: $(taps | grep -ahoE '^ok [0-9]+ [0-9]+ offline/online cycles' |
		awk '{ n += $3 } END { print n + 0 }') while sampling (timer and sim)"
	echo "  concurrent sessions:       $(taps | grep -ahoE '[0-9]+ processes x [0-9]+ sessions' |
		awk '{ n += $1 * $4 } END { print n + 0 }') opened, run and closed by 8 processes at once"
	echo "  throttled minute:          $(taps | grep -ahoE 'throttling engaged .*' | head -n 1)"
	echo "  fork storm:                $(taps | grep -ahoE '[0-9]+ fork\+exec\+exit in [0-9]+ s' | head -n 1)," \
		"$(taps | grep -ahoE 'one FORK and one EXIT record per child \([^)]*\)' | head -n 1)"
	echo "  device fuzzer:             debug kernel $(taps | grep -ahE '^# fuzz_device: ' | sed 's/^# fuzz_device: //' | paste -sd';' -)"
fi
echo "  device fuzzer:             Debian's kernel $(grep -ahE '^# fuzz_device: ' "$OUT/vm/tap.log" 2>/dev/null | sed 's/^# fuzz_device: //' | paste -sd';' -)"
echo "  userland fuzzers:          $(grep -ahcE '^(not )?ok - fuzz [a-z]+: [0-9]+ runs in' "$OUT/fuzz.tap" 2>/dev/null) targets," \
	"$(grep -ah '^# fuzz: ' "$OUT/fuzz.log" 2>/dev/null | sed 's/^# fuzz: //' | tail -n 1)," \
	"$(grep -ahoE '[0-9]+ s of CPU' "$OUT/fuzz.tap" 2>/dev/null | awk '{ n += $1 } END { print n + 0 }') s of CPU"
RESULTS=("${VMS[@]/%//results.tap}")
echo "  kernel reports:            KASAN $(count 'BUG: KASAN')," \
	"UBSAN $(count 'UBSAN:')," \
	"lockdep $(count 'possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage|bad unlock balance')," \
	"kmemleak $(cat "${RESULTS[@]}" 2>/dev/null | grep -aE '^not ok [0-9]* kmemleak( \[[^]]*\])?:' | grep -oE '[0-9]+ unreferenced' |
		awk '{ n += $1 } END { print n + 0 }') leaks," \
	"other BUG/WARNING $(count 'BUG: |WARNING: CPU')" \
	"(lockdep still on at the end in $(cat "${RESULTS[@]}" 2>/dev/null | grep -acE '^ok [0-9]* lockdep( \[[^]]*\])?:') of ${#VMS[@]} VMs)"
acct=$(cat "$OUT/vm/results.tap" "$OUT"/debug-*/results.tap 2>/dev/null |
	grep -E '^(not )?ok' | grep -E 'generated [0-9]+ ?=|== delivered \+ lost|accounting')
echo "  lost-record accounting:    exact in $(grep -c '^ok' <<< "$acct") of $(grep -c . <<< "$acct") checks" \
	"(generated == delivered + lost, per CPU, both kernels)"
