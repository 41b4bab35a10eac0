#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The recording cost benchmark (issue 11): every instruction the guest
# executes, kernel and user, counted by a QEMU TCG plugin of ours
# (bench/cost/insn_plugin.c) while a 5-frame-deep single-threaded workload
# (bench/cost/deep5.c, a fixed 1000 million instructions, COST_WORK in the
# environment to change it) runs alone, under Debian's perf 6.1 (perf record -e cpu-clock, with and without -g) and
# under skidless record (timer backend, with and without call chains; the
# intel backend with PEBS, with and without LBR, on each sim model), in
# one VM (bench/cost/cost_guest.sh).
#
# Determinism: one TCG thread, and -icount shift=0,sleep=off, so the
# guest's clock advances 1 ns per instruction executed, whatever the host
# is doing: the same run takes the same samples, and the same instructions
# but for a few million of the guest kernel's (README, "Recording cost").
#
# Per recorder and call-chain setting, with S samples and I instructions
# counted at 500 Hz and at 8000 Hz (recorded, not asked: the file's own
# count, read by the host's perf):
#   marginal = (I8000 - I500) / (S8000 - S500)  per sample, kernel and user
#   fixed    = I500 - base - 500 Hz samples * marginal  (start, stop, write)
#   bytes    = (size8000 - size500) / (S8000 - S500)
# skidless's figures are printed beside perf's and as ratios to them.
# The workload's own cost: instructions executed on its CPU (CPU 1) beside
# the run without a recorder. Loss: samples lost with call chains at 8,
# 16, 64 and 100 kHz. The plugin's counts are checked against callgrind's.
#
#   bench/cost.sh [--short] [--limits FILE] [--tap FILE] [--out DIR]
#
# --short: timer backend only (make check's version, 1-3 minutes of
# VM time); --limits FILE: fail (exit 1, TAP "not ok") when a ratio is
# above its limit there (bench/cost_limits); --out: where the logs go
# (default build/bench/cost).
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$TOP/build/bench/cost
MODE=full LIMITS='' TAP=''
KVER=6.12.117+deb12-amd64
KERNEL=${SKD_BENCH_KERNEL:-/boot/vmlinuz-$KVER}

usage() {
	echo "usage: $0 [--short] [--limits FILE] [--tap FILE] [--out DIR]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--short) MODE=short; shift ;;
	--limits) [ $# -ge 2 ] || usage; LIMITS=$2; shift 2 ;;
	--tap) [ $# -ge 2 ] || usage; TAP=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || usage; OUT=$2; shift 2 ;;
	*) usage ;;
	esac
done
for f in "$TOP/build/skidless" "$TOP/skidless.ko" "$TOP/skidless_sim.ko"; do
	[ -f "$f" ] || { echo "$0: $f missing: make tools vm-bin && make module SIM=1" >&2; exit 2; }
done
command -v perf > /dev/null || { echo "$0: perf is not installed (apt-get install linux-perf)" >&2; exit 2; }
command -v valgrind > /dev/null || { echo "$0: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }

mkdir -p "$OUT"
OUT=$(realpath "$OUT")
BIN=$OUT/vm-bin
rm -rf "$BIN" && mkdir -p "$BIN"
CFLAGS=(-std=c11 -Wall -Wextra -Werror)
gcc "${CFLAGS[@]}" -O2 -shared -fPIC -fvisibility=hidden -o "$OUT/insn_plugin.so" \
	"$TOP/bench/cost/insn_plugin.c"
gcc "${CFLAGS[@]}" -O2 -o "$BIN/costrun" "$TOP/bench/cost/costrun.c"
gcc "${CFLAGS[@]}" -O1 -g -fno-omit-frame-pointer -fno-inline -o "$BIN/deep5" \
	"$TOP/bench/cost/deep5.c"
cp "$TOP/build/skidless" "$(readlink -f "$(command -v perf)")" \
	"$TOP/bench/cost/cost_guest.sh" "$TOP/tests/kselftest/tap.sh" "$BIN/"
[ -x "$BIN/perf" ] || mv "$BIN"/perf* "$BIN/perf"
echo "cost_guest.sh 0 $MODE ${COST_WORK:-1000}${COST_HIST:+ kallsyms}" > "$OUT/list"

# COST_HIST=N (a diagnostic): where the Nth measured run's instructions
# went, by block, kernel blocks named by the guest's /proc/kallsyms.
hist=()
[ -z "${COST_HIST:-}" ] || hist=(",hist=$COST_HIST")
rm -f "$OUT/counts"
SKD_QEMU_EXTRA="-icount shift=0,sleep=off -plugin file=$OUT/insn_plugin.so,out=$OUT/counts${hist[*]}" \
	bash "$TOP/tests/vm/run.sh" --kernel "$KERNEL" --ko "$TOP/skidless.ko" \
	--sim-ko "$TOP/skidless_sim.ko" --bin "$BIN" --tests "$OUT/list" \
	--timeout 3000 --out "$OUT/vm" > "$OUT/vm.log" 2>&1 || {
	cat "$OUT/vm.log"; echo "$0: the VM run failed (logs in $OUT/vm)" >&2; exit 1; }
# The oracle for the plugin's counts: callgrind's, of the same binary and
# libraries (the VM runs the host's), user mode.
valgrind --tool=callgrind --callgrind-out-file="$OUT/calib.callgrind" \
	"$BIN/deep5" 50 > /dev/null 2>&1 || true
calib=(--calib "$(awk '$1 == "totals:" { print $2 }' "$OUT/calib.callgrind" 2> /dev/null)")
lim=() tap=()
[ -z "$LIMITS" ] || lim=(--limits "$LIMITS")
[ -z "$TAP" ] || tap=(--tap "$TAP")
[ -z "${COST_HIST:-}" ] ||
	python3 "$TOP/bench/cost/hist.py" "$OUT/counts" "$OUT/vm/tap.log"
python3 "$TOP/bench/cost/analyze.py" "$OUT/counts" "$OUT/vm/tap.log" "${lim[@]}" "${tap[@]}" \
	"${calib[@]}"
