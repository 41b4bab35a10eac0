#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bytes per sample of our perf.data against perf's, for the same samples
# and the same fields: perf 6.x records a small C workload with
# `perf record -e cpu-clock -F 1000 -g` for about a second (no PMU
# needed); bench/perfdata_bytes.c reads that file with our reader, turns
# every sample into the skidless record the timer backend would deliver
# (ip, pid/tid, time, period, call chain), writes them through the real
# converter and writer, and counts the SAMPLE records of both files and
# their bytes.
#
# The peer is perf's own file from the same run: the ratio
# skidless/perf bytes per sample is the figure to compare between
# machines and versions. Nothing here passes or fails on a number.
#
#   bench/perfdata_bytes.sh [--freq HZ]
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$TOP/build/bench/perfdata_bytes
CC=${CC:-cc}
FREQ=1000
L=$TOP/userland/lib

usage() {
	echo "usage: $0 [--freq HZ]" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--freq) [ $# -ge 2 ] || usage; FREQ=$2; shift 2 ;;
	*) usage ;;
	esac
done
case $FREQ in ''|*[!0-9]*) usage ;; esac
command -v perf > /dev/null || {
	echo "$0: perf is not installed (apt-get install linux-perf)" >&2
	exit 1
}
mkdir -p "$OUT"

# The workload: two frames of user code under main, about one second.
cat > "$OUT/work.c" <<'C'
#include <stdio.h>
__attribute__((noinline)) static double leaf(double x)
{
	for (int i = 0; i < 1000; i++)
		x = x * 1.0000001 + 0.5;
	return x;
}
__attribute__((noinline)) static double mid(double x)
{
	return leaf(x) + leaf(x / 2);
}
int main(void)
{
	double s = 0;

	for (long i = 0; i < 250000; i++)
		s += mid((double)i);
	printf("%d\n", s > 0);
	return 0;
}
C
"$CC" -O1 -fno-omit-frame-pointer -o "$OUT/work" "$OUT/work.c"
"$CC" -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -I"$TOP/uapi" -I"$L" \
	-o "$OUT/perfdata_bytes" "$TOP/bench/perfdata_bytes.c" \
	"$L/perfdata_read.c" "$L/perfdata_write.c" "$L/perfdata_conv.c" \
	"$L/data_src.c" "$L/decode.c" "$L/readall.c"

perf record -q -e cpu-clock -F "$FREQ" -g -o "$OUT/perf.data" -- \
	"$OUT/work" > /dev/null
"$OUT/perfdata_bytes" "$OUT/perf.data" "$OUT/skidless.data" > "$OUT/counts"
# perf's own count of its SAMPLE records and bytes, from its raw dump.
perf report -D -i "$OUT/perf.data" 2> /dev/null |
	sed -n 's/^[0-9]* *0x[0-9a-f]* \[\(0x[0-9a-f]*\)\]: PERF_RECORD_SAMPLE.*/\1/p' |
	xargs -r printf '%d\n' |
	awk '{ n++; b += $1 } END { print "perf-D", n, b }' >> "$OUT/counts"

awk '
	$1 == "perf" { pn = $2; pb = $3; pt = $4 }
	$1 == "skidless" { sn = $2; sb = $3; st = $4 }
	$1 == "perf-D" { dn = $2; db = $3 }
	END {
		printf "perf.data bytes per SAMPLE, cpu-clock -g at %s Hz\n", '"$FREQ"'
		printf "  %-22s %6d samples %9d bytes %7.1f B/sample  sample_type %s\n",
			"perf (our reader)", pn, pb, pb / pn, pt
		printf "  %-22s %6d samples %9d bytes %7.1f B/sample\n",
			"perf (perf report -D)", dn, db, db / dn
		printf "  %-22s %6d samples %9d bytes %7.1f B/sample  sample_type %s\n",
			"skidless", sn, sb, sb / sn, st
		printf "ratio skidless/perf: %.3f\n", (sb / sn) / (pb / pn)
	}' "$OUT/counts"
