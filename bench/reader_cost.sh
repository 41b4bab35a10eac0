#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The reader's instructions per sample from ring record to perf.data
# (issue 11, item 3): bench/reader_cost.c drives `skidless record`'s
# per-record path (record_sink.c, record_output.c and the perf.data
# converter and writer, as the command links them) with timer samples
# carrying a 9-frame call chain, 3 kernel and 6 user frames over an
# executable and a library. callgrind counts the instructions executed
# inside that loop at two sample counts; the slope is the marginal cost
# per sample, without the fixed cost of opening and finishing the file.
#
# The peer, measured in the same run and the same way, is one memcpy() of
# each record's bytes. The file written is then read by perf: perf
# script must see every sample with its chain.
#
#   bench/reader_cost.sh [--tap FILE]
#
# LIMIT is a ratchet: the cost measured when the path was made direct
# (880 instructions; 2351 before: two decodes, a copy through the native
# writer's sink, a call per converted field and a map lookup per frame),
# plus a margin. Lower it when the path gets cheaper, never raise it.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$TOP/build/bench/reader
LIMIT=1000
SMALL=2000
LARGE=12000
TAP=

case ${1:-} in
--tap) [ $# -eq 2 ] || { echo "usage: $0 [--tap FILE]" >&2; exit 2; }
       TAP=$2 ;;
'') ;;
*) echo "usage: $0 [--tap FILE]" >&2; exit 2 ;;
esac
for t in valgrind perf; do
	command -v $t > /dev/null || {
		echo "$0: $t is not installed (apt-get install ${t/perf/linux-perf})" >&2
		exit 1
	}
done

tap() {
	echo "$1"
	if [ -n "$TAP" ]; then echo "$1" >> "$TAP"; fi
}
[ -n "$TAP" ] && : > "$TAP"

make -s -C "$TOP" tools > /dev/null
rm -rf "$OUT"
mkdir -p "$OUT"
PKGS="libdw libelf libkmod json-c libprotobuf-c zlib capstone"
# shellcheck disable=SC2046 # pkg-config's words are meant to split
"${CC:-cc}" -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror \
	-I"$TOP/uapi" -I"$TOP/userland/lib" -I"$TOP/userland/cli" \
	-I"$TOP/kmod/intel" -I"$TOP/kmod/host" -I"$TOP/build/gen" \
	$(pkg-config --cflags $PKGS) -o "$OUT/reader_cost" \
	"$TOP/bench/reader_cost.c" "$TOP/userland/cli/record_sink.c" \
	"$TOP/userland/cli/record_output.c" "$TOP/userland/cli/record_ksyms.c" \
	"$TOP/build/libskidless.a" $(pkg-config --libs $PKGS) -liberty -lm

# run N MODE FUNCTION: instructions inside FUNCTION; the file in $OUT/N.MODE
run() {
	local dir=$OUT/$1.$2

	mkdir -p "$dir/home"
	HOME=$dir/home valgrind --tool=callgrind --collect-atstart=no \
		--toggle-collect="$3" --callgrind-out-file="$dir/callgrind" \
		"$OUT/reader_cost" "$1" "$2" "$dir" > "$dir/log" 2>&1 ||
		{ sed 's/^/#   /' "$dir/log" >&2; return 1; }
	awk '$1 == "totals:" { print $2 }' "$dir/callgrind"
}

failed=0
if r1=$(run $SMALL record feed_record) && r2=$(run $LARGE record feed_record) &&
   m1=$(run $SMALL memcpy feed_memcpy) && m2=$(run $LARGE memcpy feed_memcpy); then
	per=$(awk -v a="$r1" -v b="$r2" -v n=$((LARGE - SMALL)) 'BEGIN { printf "%.0f", (b - a) / n }')
	copy=$(awk -v a="$m1" -v b="$m2" -v n=$((LARGE - SMALL)) 'BEGIN { printf "%.1f", (b - a) / n }')
	echo "Reader: instructions per timer sample with a 9-frame call chain, ring record to perf.data (callgrind, slope $SMALL..$LARGE samples)"
	printf '  %-28s %8s\n' "record (record_sink_put)" "$per" \
		"memcpy of the record" "$copy"
	printf '  %-28s %8s\n' "ratio" "$(awk -v p="$per" -v c="$copy" 'BEGIN { printf "%.1f", p / c }')"
	if [ "$per" -le "$LIMIT" ]; then
		tap "ok - reader: $per instructions per sample, ring record to perf.data (ratchet <= $LIMIT; memcpy $copy)"
	else
		tap "not ok - reader: $per instructions per sample, ring record to perf.data (ratchet <= $LIMIT; memcpy $copy)"
		failed=1
	fi
else
	tap "not ok - reader: the benchmark ran (logs in $OUT)"
	failed=1
fi

# perf reads what the measured loop wrote: every sample, every frame.
file=$OUT/$LARGE.record/perf.data
n=$(HOME=$OUT/$LARGE.record/home perf script -i "$file" -F ip 2> "$OUT/perf.err" |
	awk 'NF == 1 { f++ } END { print f + 0 }') || n=0
want=$((LARGE * 9))
if [ "$n" = "$want" ] && ! grep -qi 'warn\|error' "$OUT/perf.err"; then
	tap "ok - reader: perf script reads the benchmark's file: $LARGE samples, $n frames, no warning"
else
	tap "not ok - reader: perf script reads the benchmark's file: $n frames, want $want"
	sed 's/^/#   /' "$OUT/perf.err" | head -5 >&2
	failed=1
fi
exit $failed
