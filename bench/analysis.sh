#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# skidless report and script against Debian's perf on one big perf.data
# (issue 10, item 8). bench/mkbig.c writes it through skidless's own
# writer: NSAMPLES timer samples with user call chains, in 8 processes
# with 16 threads, each mapping several shared libraries of this machine
# (their build-ids recorded), so both tools name every frame from the
# same files. Then, one after the other on an otherwise idle machine:
#
#   perf report --stdio --no-children --sort sym   vs
#   skidless report --no-children --sort sym -n 0  (both with call graphs)
#   perf script                                    vs   skidless script
#
# each timed (wall clock, and user+system CPU) with its peak RSS, by
# bench/measure.py (getrusage of the child). The outputs are checked to
# say the same thing: the top 20 report entries and their shares (within
# 0.1 point), and script's leaf symbol of every sample, in order.
# Ratios are perf's time / skidless's; the target is 3 for both.
#
#   bench/analysis.sh [--samples N] [--runs R] [--tap FILE]
#
# R runs of each command (default 3), the fastest kept. Exits 1 if an
# output check fails or a ratio misses the target.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$TOP/build/bench
SAMPLES=5000000
RUNS=3
TARGET=3
TAP=
L=$TOP/userland/lib
SKD=$TOP/build/skidless

usage() {
	echo "usage: $0 [--samples N] [--runs R] [--tap FILE]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--samples) [ $# -ge 2 ] || usage; SAMPLES=$2; shift 2 ;;
	--runs) [ $# -ge 2 ] || usage; RUNS=$2; shift 2 ;;
	--tap) [ $# -ge 2 ] || usage; TAP=$2; shift 2 ;;
	*) usage ;;
	esac
done
case $SAMPLES$RUNS in ''|*[!0-9]*) usage ;; esac
for t in perf python3 cc; do
	command -v $t > /dev/null || {
		echo "$0: $t is not installed (tests/deps.sh)" >&2; exit 1; }
done
[ -x "$SKD" ] || { echo "$0: build the tool first: make tools" >&2; exit 1; }

mkdir -p "$OUT"
cc -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -I"$TOP/uapi" -I"$L" \
	-o "$OUT/mkbig" "$TOP/bench/mkbig.c" "$L/perfdata_conv.c" \
	"$L/perfdata_write.c" "$L/perfdata_host.c" "$L/data_src.c" \
	"$L/decode.c" "$L/readall.c" "$L/buildid.c" -ldw -lelf
F=$OUT/big.data
"$OUT/mkbig" "$F.tmp" "$SAMPLES" && mv "$F.tmp" "$F"
echo "perf.data: $SAMPLES samples, $(du -m "$F" | cut -f1) MB: $F"
# A private HOME: perf's build-id cache and config are not the user's.
export HOME=$OUT/home
rm -rf "$HOME" && mkdir -p "$HOME"

# best NAME CMD...: runs CMD (stdout to $OUT/NAME.out) RUNS times; prints
# "wall cpu rss_kb" of the fastest run.
best() {
	local name=$1 i line b=
	shift
	for ((i = 0; i < RUNS; i++)); do
		line=$(python3 "$TOP/bench/measure.py" "$OUT/$name.out" "$@" \
			2> "$OUT/$name.err") || {
			echo "$0: $name failed:" >&2; tail -5 "$OUT/$name.err" >&2
			return 1
		}
		if [ -z "$b" ] || awk -v a="${line%% *}" -v b="${b%% *}" \
			'BEGIN { exit !(a < b) }'; then b=$line; fi
	done
	echo "$b"
}

pr=$(best perf_report perf report --stdio --no-children --sort sym -i "$F")
sr=$(best skd_report "$SKD" report --no-children --sort sym -n 0 -i "$F")
ps=$(best perf_script perf script -i "$F")
ss=$(best skd_script "$SKD" script -i "$F")

[ -n "$TAP" ] && : > "$TAP"
failed=0
tap() {
	echo "$1"
	if [ -n "$TAP" ]; then echo "$1" >> "$TAP"; fi
	case $1 in "not ok"*) failed=1 ;; esac
}

# Same answers: report's top 20, script's leaf symbols sample by sample
# (perf's first frame line after each sample's header; skidless's first
# frame, without the offset and object).
if python3 "$TOP/tests/analysis/report_cmp.py" "$OUT/perf_report.out" \
	"$OUT/skd_report.out" > "$OUT/report_cmp.log"; then
	tap "ok - report: skidless and perf agree on the top 20 symbols within 0.1 point"
else
	tap "not ok - report: skidless and perf agree on the top 20 symbols within 0.1 point"
	sed 's/^/#   /' "$OUT/report_cmp.log" | head -10
fi
awk '/^[^ \t]/ { want = 1; next } want && NF { sub(/\+0x[0-9a-f]+$/, "", $2); print $2; want = 0 }' \
	"$OUT/perf_script.out" > "$OUT/perf_script.leaf"
awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[UK]\*?$/) break
       s = $(i + 1); sub(/\+0x[0-9a-f]+$/, "", s); print s }' \
	"$OUT/skd_script.out" > "$OUT/skd_script.leaf"
np=$(wc -l < "$OUT/perf_script.leaf")
if [ "$np" = "$SAMPLES" ] && cmp -s "$OUT/perf_script.leaf" "$OUT/skd_script.leaf"; then
	tap "ok - script: skidless and perf name the same leaf in all $np samples, in order"
else
	tap "not ok - script: skidless and perf name the same leaf in all samples ($np from perf, $(wc -l < "$OUT/skd_script.leaf") from skidless)"
	diff "$OUT/perf_script.leaf" "$OUT/skd_script.leaf" | head -6 | sed 's/^/#   /'
fi

# ratio LABEL PERF SKIDLESS: the table line and its verdict.
ratio() {
	local label=$1
	read -r pw pc pm <<< "$2"
	read -r sw sc sm <<< "$3"
	awk -v l="$label" -v pw="$pw" -v pc="$pc" -v pm="$pm" -v sw="$sw" \
		-v sc="$sc" -v sm="$sm" 'BEGIN {
		printf "%-8s %9.2f %9.2f %9.0f  %9.2f %9.2f %9.0f  %6.2fx %6.2fx\n",
		       l, pw, pc, pm / 1024, sw, sc, sm / 1024, pw / sw, pc / sc }'
	if awk -v pw="$pw" -v sw="$sw" -v t="$TARGET" 'BEGIN { exit !(pw / sw >= t) }'; then
		tap "ok - $label: skidless $(awk -v a="$pw" -v b="$sw" 'BEGIN { printf "%.2f", a / b }')x faster than perf (target ${TARGET}x), peak RSS $((sm / 1024)) MB vs perf's $((pm / 1024)) MB"
	else
		tap "not ok - $label: skidless $(awk -v a="$pw" -v b="$sw" 'BEGIN { printf "%.2f", a / b }')x faster than perf (target ${TARGET}x), peak RSS $((sm / 1024)) MB vs perf's $((pm / 1024)) MB"
	fi
}

echo
echo "Best of $RUNS runs each; wall and CPU (user+system) seconds, peak RSS MB; ratio = perf / skidless"
printf '%-8s %9s %9s %9s  %9s %9s %9s  %7s %7s\n' "" "perf" "cpu" "RSS" \
	"skidless" "cpu" "RSS" "wall" "cpu"
ratio report "$pr" "$sr"
ratio script "$ps" "$ss"
exit $failed
