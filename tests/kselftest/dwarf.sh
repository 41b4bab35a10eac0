#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# --call-graph dwarf: the module copies user registers and stack per
# sample, the reader unwinds them with the objects' DWARF call-frame
# information (elfutils). The workload has no frame pointers, so the frame
# pointer chain of the same samples is the control: it cannot name them.
. "$(dirname "$0")/tap.sh"

BIN=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# share REGEX FILE: percentage of lines of FILE matching REGEX.
share() {
	awk -v re="$1" '$0 ~ re { n++ } END { print (NR ? int(100 * n / NR) : 0) }' "$2"
}

plan 4

# Bracket expressions, not backslashes: awk -v would eat those.
CHAIN='dw_c[+]0x[0-9a-f]+ [(]dwarf_chain[)] <- dw_b[+]0x[0-9a-f]+ [(]dwarf_chain[)] <- dw_a[+]0x[0-9a-f]+ [(]dwarf_chain[)] <- main[+]0x'

skidless record -q -F 1000 --call-graph dwarf -o "$T/dw.data" -- \
	"$BIN/dwarf_chain" chain "$(slow 2)" 2> "$T/dw.err"
rc=$?
skidless script -i "$T/dw.data" > "$T/dw.script" 2> "$T/dw.script.err"
n=$(grep -c " dwarf_chain " "$T/dw.script")
grep " dwarf_chain " "$T/dw.script" | grep ' U dw_c+' > "$T/dw.leaf"
pct=$(share "$CHAIN" "$T/dw.leaf")
[ $rc = 0 ] && [ "$n" -ge 200 ] && [ "$pct" -ge 90 ]
result $? "dwarf: dw_c <- dw_b <- dw_a <- main without frame pointers ($pct% of $(wc -l < "$T/dw.leaf") samples in dw_c; $n samples)"
sed -n '1,3s/^/# /p' "$T/dw.leaf"
sed 's/^/# /' "$T/dw.err" "$T/dw.script.err"

# The same workload by frame pointers: the chain is lost (the control).
skidless record -q -F 1000 --call-graph fp -o "$T/fp.data" -- \
	"$BIN/dwarf_chain" chain "$(slow 1)" 2> /dev/null
skidless script -i "$T/fp.data" | grep " dwarf_chain " | grep ' U dw_c+' > "$T/fp.leaf"
fp=$(share "$CHAIN" "$T/fp.leaf")
[ -s "$T/fp.leaf" ] && [ "$fp" -lt 50 ]
result $? "control: frame pointers name that chain in $fp% only"

# Through libc: qsort() calls the comparator; libc has no frame pointers
# but has call-frame information.
skidless record -q -F 1000 --call-graph dwarf,16384 -o "$T/qs.data" -- \
	"$BIN/dwarf_chain" qsort "$(slow 2)" 2> /dev/null
skidless script -i "$T/qs.data" | grep " dwarf_chain " | grep ' U dw_c+' > "$T/qs.leaf"
pct=$(share 'dw_cmp[+]0x[0-9a-f]+ [(]dwarf_chain[)] <- .*[(]libc[.]so[.]6[)] <- .*sort_it[+]0x[0-9a-f]+ [(]dwarf_chain[)] <- main[+]0x' "$T/qs.leaf")
[ -s "$T/qs.leaf" ] && [ "$pct" -ge 80 ]
result $? "dwarf through libc: dw_c <- dw_cmp <- libc's qsort <- sort_it <- main ($pct% of $(wc -l < "$T/qs.leaf"))"
sed -n '1,2s/^/# /p' "$T/qs.leaf"

out=$(skidless record --call-graph dwarf,100 -- true 2>&1)
[ $? != 0 ] && echo "$out" | grep -q "multiple of 8"
result $? "a stack size that is not a multiple of 8 is refused: $out"
finish
