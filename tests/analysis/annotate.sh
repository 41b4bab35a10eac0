#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# skidless annotate against tools we did not write, on the same files:
# instruction addresses and mnemonics against objdump -d, per-instruction
# shares against perf annotate --stdio (local period, perf's default),
# source lines against addr2line; exact-IP counts consistent with the
# totals; a missing symbol or object is refused with a message.
#
# Inputs: a host perf capture (cpu-clock) of a small C program built -g
# here, and the VM's captures of busyloop (timer and sim models).
#
#   tests/analysis/annotate.sh CAPS_DIR VMBIN_DIR     TAP on stdout
#   (HOME must hold the build-id cache CAPS_DIR/home, as run.sh sets it)
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CAPS=$1
VMBIN=$2
SKD=${SKD:-$TOP/build/skidless}
source "$TOP/tests/analysis/helpers/tap.sh"
source "$TOP/tests/analysis/helpers/mkperf.sh"

# Our instruction lines: percent samples exact address: mnemonic operands.
insns() { awk '$1 ~ /^[0-9]+\.[0-9][0-9]$/ && $4 ~ /^[0-9a-f]+:$/ {
	a = $4; sub(":", "", a); print a, $1, $2, $3, $5 }' "$1"; }

# objdump's instruction lines (address: mnemonic operands) to "address
# mnemonic", written the way capstone names the same bytes: a segment or
# data16 prefix on a nop is dropped, and xchg ax,ax (66 90) is a nop.
OBJDUMP_NORM='
	$1 ~ /^[0-9a-f]+:$/ {
		a = $1; sub(":", "", a)
		i = 2
		while ($i ~ /^(cs|ds|es|ss|data16)$/ && i < NF) i++
		m = $i
		if (m == "xchg" && $(i + 1) == "ax,ax") m = "nop"
		print a, m
	}'

# objdump's instructions of function $2 in $1: address mnemonic.
objdump_insns() {
	objdump -d --no-show-raw-insn $3 "$1" |
		awk -v fn="<$2>:" '
		$2 == fn { on = 1; next }
		on && NF == 0 { exit }
		on { print }' | awk "$OBJDUMP_NORM"
}

# Addresses and mnemonics agree with objdump (Intel syntax: no suffixes).
cmp_objdump() { # ANNOTATE_OUT BINARY FUNC
	insns "$1" | awk '{ print $1, $5 }' > "$W/ours"
	objdump_insns "$2" "$3" -Mintel > "$W/theirs"
	if [ ! -s "$W/theirs" ]; then
		# A stripped object (symbols from its debug file): our range.
		local first last
		first=$(head -1 "$W/ours" | cut -d' ' -f1)
		last=$(tail -1 "$W/ours" | cut -d' ' -f1)
		[ -n "$first" ] || { echo "no instructions"; return 1; }
		objdump -d --no-show-raw-insn -Mintel --start-address=0x$first \
			--stop-address=$((0x$last + 16)) "$2" | awk "$OBJDUMP_NORM" |
			head -n "$(wc -l < "$W/ours")" > "$W/theirs"
	fi
	[ -s "$W/theirs" ] || { echo "objdump shows no $3 in $2"; return 1; }
	# The first word only: capstone writes "rep stosb", objdump "rep stos".
	awk '{ print $1, $2 }' "$W/theirs" > "$W/theirs1"
	diff "$W/theirs1" "$W/ours"
}

# Shares within 0.1 point of perf annotate's, address by address.
cmp_perf_annotate() { # ANNOTATE_OUT PERF_DATA FUNC
	perf annotate --stdio -i "$2" -s "$3" 2> "$W/perr" |
		awk '$1 ~ /^[0-9]+\.[0-9]+$/ && $2 == ":" && $3 ~ /^[0-9a-f]+:$/ {
			a = $3; sub(":", "", a); print a, $1 }' > "$W/pa"
	[ -s "$W/pa" ] || { echo "perf annotate printed nothing"; cat "$W/perr"; return 1; }
	insns "$1" | awk '{ print $1, $2 }' > "$W/oa"
	join <(sort "$W/pa") <(sort "$W/oa") > "$W/joined"
	[ "$(wc -l < "$W/joined")" = "$(wc -l < "$W/pa")" ] ||
		{ echo "addresses differ"; diff <(cut -d' ' -f1 "$W/pa" | sort) <(cut -d' ' -f1 "$W/oa" | sort); return 1; }
	awk '{ d = $2 - $3; if (d < 0) d = -d; if (d > 0.1) { print "at", $1, "perf", $2, "skidless", $3; bad = 1 } }
	     END { exit bad }' "$W/joined"
}

# The source line above each instruction is addr2line's for its address.
cmp_addr2line() { # ANNOTATE_OUT BINARY
	awk '$1 ~ /^[0-9]+\.[0-9][0-9]$/ && $4 ~ /^[0-9a-f]+:$/ {
		a = $4; sub(":", "", a); print a, src; next }
	     NF >= 1 && $1 ~ /:[0-9]+$/ { s = $1; n = split(s, p, "/"); src = p[n] }' "$1" > "$W/src"
	cut -d' ' -f1 "$W/src" | sed 's/^/0x/' | addr2line -e "$2" |
		sed 's/ (discriminator [0-9]*)//; s|.*/||' > "$W/a2l"
	paste -d' ' "$W/src" "$W/a2l" |
		awk 'NF == 3 && $3 !~ /^\?\?/ && $3 !~ /:\?$/ && $3 !~ /:0$/ {
			known++; if ($2 != $3) { print "at", $1, "skidless", $2, "addr2line", $3; bad = 1 } }
		     END { if (!known) { print "addr2line knows no line"; bad = 1 } exit bad }'
}

# Exact-IP: each line's exact count at most its samples; the columns sum
# to the header's totals.
cmp_exact() { # ANNOTATE_OUT
	awk '/^# event:/ { for (i = 1; i <= NF; i++) { if ($i == "samples") s = $(i - 1); if ($i == "exact-IP),") e = substr($(i - 1), 2) } }
	     $1 ~ /^[0-9]+\.[0-9][0-9]$/ && $4 ~ /^[0-9a-f]+:$/ {
		ts += $2; te += $3; if ($3 > $2) { print "line", $4, "exact", $3, "> samples", $2; bad = 1 } }
	     END { if (ts != s || te != e) { print "sums", ts, te, "header", s, e; bad = 1 }
		   printf "%d samples, %d exact\n", ts, te; exit bad }' "$1"
}

# Samples and exact-IP samples per instruction as perf sees them: the
# misc flags of every sample from perf report -D (PERF_RECORD_MISC_EXACT_IP,
# 0x4000), each ip named sym+off by perf script; summed over our sections.
cmp_exact_perf() { # ANNOTATE_OUT PERF_DATA FUNC
	perf report -D -i "$2" 2> /dev/null |
		sed -n 's/.*PERF_RECORD_SAMPLE([^,]*, \(0x[0-9a-f]*\)): [0-9]*\/[0-9]*: 0x\([0-9a-f]*\) .*/\2 \1/p' > "$W/misc"
	perf script -i "$2" -F ip,sym,symoff --hide-call-graph 2> /dev/null |
		awk '{ print $1, $2 }' | sort -u > "$W/ipsym"
	insns "$1" > "$W/ins"
	python3 - "$W/misc" "$W/ipsym" "$W/ins" "$3" << 'PY'
import sys
from collections import defaultdict
misc, ipsym, ins, fn = sys.argv[1:]
name = {}
for line in open(ipsym):
    f = line.split()
    if len(f) == 2:
        name[int(f[0], 16)] = f[1]
perf = defaultdict(lambda: [0, 0])
for line in open(misc):
    ip, m = line.split()
    s = name.get(int(ip, 16), "")
    if s.split("+")[0] == fn:
        off = int(s.split("+")[1], 16) if "+" in s else 0
        perf[off][0] += 1
        perf[off][1] += bool(int(m, 16) & 0x4000)
ours = defaultdict(lambda: [0, 0])
first = None
for line in open(ins):
    a, pct, n, e, mn = line.split()[:5]
    a = int(a, 16)
    first = a if first is None else first
    if int(n):
        ours[a - first][0] += int(n)
        ours[a - first][1] += int(e)
if not perf or dict(perf) != dict(ours):
    print("perf (offset: samples, exact):", sorted(perf.items())[:6])
    print("skidless:", sorted(ours.items())[:6])
    sys.exit(1)
print(sum(v[0] for v in perf.values()), "samples,",
      sum(v[1] for v in perf.values()), "exact")
PY
}

# --- A host perf capture of a small program built -g here. ---
cat > "$W/hot.c" << 'EOF'
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) unsigned long hot(unsigned long n)
{
	unsigned long x = 0, i;

	for (i = 0; i < n; i++) {
		x += i * 3;
		if (x & 0x100)
			x ^= i >> 2;
	}
	return x;
}

int main(int argc, char **argv)
{
	sink = hot(argc > 1 ? strtoul(argv[1], NULL, 0) : 200000000UL);
	return 0;
}
EOF
if ! gcc -O1 -g -o "$W/hot" "$W/hot.c" ||
   ! perf record -q -e cpu-clock -F 4000 -o "$W/hot.data" -- "$W/hot" > /dev/null 2> "$W/rec.err"; then
	out "not ok" "host capture: build and perf record of hot.c"
	sed 's/^/#   /' "$W/rec.err" | head -5
	echo "1..$n"
	exit 1
fi
"$SKD" annotate --stdio -M intel -i "$W/hot.data" hot > "$W/hot.an" 2> "$W/hot.err"
rc=$?
check "host: annotate hot exits 0 with no warning" \
	sh -c "[ $rc = 0 ] && [ ! -s '$W/hot.err' ] || cat '$W/hot.err'"
check "host: addresses and mnemonics of hot agree with objdump -d -M intel" \
	cmp_objdump "$W/hot.an" "$W/hot" hot
"$SKD" annotate -i "$W/hot.data" hot > "$W/hot.att" 2>&1
same_att() {
	! grep -q $'\033' "$W/hot.att" &&
		diff <(insns "$W/hot.att" | cut -d' ' -f1) <(cut -d' ' -f1 "$W/theirs1")
}
check "host: AT&T syntax (the default; not a TTY: no escapes) has the same addresses" same_att
check "host: per-instruction shares within 0.1 point of perf annotate --stdio" \
	cmp_perf_annotate "$W/hot.an" "$W/hot.data" hot
check "host: source lines agree with addr2line" cmp_addr2line "$W/hot.an" "$W/hot"
check "host: exact-IP and sample columns sum to the totals" cmp_exact "$W/hot.an"
check "host: cpu-clock samples are never exact-IP" grep -q '(0 exact-IP)' "$W/hot.an"
check "host: samples and exact-IP samples per instruction as perf report -D flags them" \
	cmp_exact_perf "$W/hot.an" "$W/hot.data" hot
"$SKD" annotate --tty -i "$W/hot.data" hot > "$W/hot.tty" 2>&1
one_hot() {
	local hot top
	[ "$(grep -c $'\033\\[1;37;41m' "$W/hot.tty")" = 1 ] || return 1
	hot=$(grep $'\033\\[1;37;41m' "$W/hot.tty" | sed 's/\x1b\[[0-9;]*m//g' | awk '{ print $1 }')
	top=$(insns "$W/hot.an" | awk '{ print $2 }' | sort -g | tail -1)
	echo "highlighted $hot, hottest $top"
	[ "$hot" = "$top" ]
}
check "host: --tty highlights one instruction, the hottest" one_hot
# On a terminal (script(1) gives it one) the highlighted view is the
# default, and --stdio turns it off.
tty_default() {
	[ "$(script -qec "'$SKD' annotate -i '$W/hot.data' hot" /dev/null | grep -c $'\033\\[1;37;41m')" = 1 ] &&
		[ "$(script -qec "'$SKD' annotate --stdio -i '$W/hot.data' hot" /dev/null | grep -c $'\033')" = 0 ]
}
check "host: on a terminal the highlighted view is the default; --stdio forces text" tty_default

# An assembly label without .size ends at the next symbol, as perf has it.
cat > "$W/nosize.c" << 'EOF'
__asm__(".text\n.globl spin_asm\n.type spin_asm,@function\nspin_asm:\n"
	" mov %rdi,%rax\n1: dec %rax\n jnz 1b\n ret\n");
extern void spin_asm(unsigned long);
int main(void) { spin_asm(400000000UL); return 0; }
EOF
if gcc -O1 -g -o "$W/nosize" "$W/nosize.c" &&
   perf record -q -e cpu-clock -F 4000 -o "$W/nosize.data" -- "$W/nosize" > /dev/null 2>&1; then
	"$SKD" annotate --stdio -M intel -i "$W/nosize.data" spin_asm > "$W/nosize.an" 2>&1
	check "host: a sizeless label (asm without .size) ends where objdump ends it" \
		cmp_objdump "$W/nosize.an" "$W/nosize" spin_asm
	check "host: the sizeless label's shares within 0.1 point of perf annotate" \
		cmp_perf_annotate "$W/nosize.an" "$W/nosize.data" spin_asm
else
	out "not ok" "host capture: build and perf record of nosize.c"
fi

"$SKD" annotate --stdio -i "$W/hot.data" no_such_function > "$W/o" 2> "$W/e"
rc=$?
check "host: an unsampled symbol: exit 1 and a message naming it" \
	sh -c "[ $rc = 1 ] && grep -q 'no_such_function' '$W/e' && [ ! -s '$W/o' ] || cat '$W/e'"
# The object gone: moved away and no build-id cache to fall back on.
mv "$W/hot" "$W/hot.moved"
HOME=$W/nohome "$SKD" annotate --stdio -i "$W/hot.data" hot > "$W/o" 2> "$W/e"
rc=$?
mv "$W/hot.moved" "$W/hot"
check "host: the object missing: exit 1 and a message naming the file" \
	sh -c "[ $rc = 1 ] && grep -q '$W/hot' '$W/e' || { echo rc $rc; cat '$W/e'; }"
"$SKD" annotate --stdio -i "$W/none.data" hot > /dev/null 2> "$W/e"
rc=$?
check "host: a missing capture: exit 1 and a message" \
	sh -c "[ $rc = 1 ] && grep -q 'none.data' '$W/e'"

# --- PEBS-like samples (exact-IP, two events) through skidless's writer. ---
if mkperf "$W/synth.data"; then
	"$SKD" annotate --stdio -i "$W/synth.data" mk_leaf > "$W/synth.an" 2>&1
	check "mkperf: one section per event, in perf annotate's order" \
		diff <(grep '^# event:' "$W/synth.an" | cut -d' ' -f3 | tr -d ,) \
		     <(perf annotate --stdio -i "$W/synth.data" -s mk_leaf 2> /dev/null |
			sed -n 's/.*Disassembly of .* for \([^ ]*\) (.*/\1/p')
	check "mkperf: samples and exact-IP samples per instruction as perf report -D flags them" \
		cmp_exact_perf "$W/synth.an" "$W/synth.data" mk_leaf
	one_event() {
		"$SKD" annotate --stdio -i "$W/synth.data" -e cpu_clk_unhalted.thread_p mk_leaf > "$W/e1" &&
			[ "$(grep -c '^# event:' "$W/e1")" = 1 ] &&
			grep -q '^# event: cpu_clk_unhalted.thread_p,' "$W/e1" || return 1
		"$SKD" annotate --stdio -i "$W/synth.data" -e no_such_event mk_leaf > "$W/e2" 2> "$W/e2.err"
		[ $? = 1 ] && [ ! -s "$W/e2" ] && grep -q 'no samples of event no_such_event' "$W/e2.err"
	}
	check "mkperf: -e keeps one event's section; an unknown event is refused" one_event
else
	out "not ok" "mkperf builds and writes a perf.data"
	sed 's/^/#   /' "$W/cc.err" | head -5
fi

# --- The VM's captures of busyloop. ---
nvm=0
for f in "$CAPS"/timer.data "$CAPS"/skylake.data "$CAPS"/icelake.data \
	 "$CAPS"/sapphirerapids.data "$CAPS"/skylake-htoff.data \
	 "$CAPS"/alderlake.data; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .data)
	nvm=$((nvm + 1))
	# The function of busyloop perf finds hottest (by samples, not branches).
	fn=$(perf report --stdio --no-branch-stack --no-children -g none -i "$f" --sort dso,sym 2> /dev/null |
		awk '$2 == "busyloop" && $3 ~ /^\[/ { print $4; exit }')
	if [ -z "$fn" ]; then
		out "not ok" "$name: perf report names a busyloop function"
		continue
	fi
	"$SKD" annotate --stdio -M intel -i "$f" --dso busyloop "$fn" > "$W/$name.an" 2> "$W/$name.err"
	rc=$?
	check "$name: annotate $fn exits 0" sh -c "[ $rc = 0 ] || cat '$W/$name.err'"
	check "$name: $fn's addresses and mnemonics agree with objdump -d -M intel" \
		cmp_objdump "$W/$name.an" "$VMBIN/busyloop" "$fn"
	check "$name: $fn's shares within 0.1 point of perf annotate --stdio" \
		cmp_perf_annotate "$W/$name.an" "$f" "$fn"
	check "$name: $fn's source lines agree with addr2line" \
		cmp_addr2line "$W/$name.an" "$VMBIN/busyloop"
	check "$name: exact-IP and sample columns sum to the totals" \
		cmp_exact "$W/$name.an"
	check "$name: samples and exact-IP samples per instruction as perf report -D flags them" \
		cmp_exact_perf "$W/$name.an" "$f" "$fn"
	case $name in
	timer) check "$name: timer samples are never exact-IP" \
		grep -q '(0 exact-IP)' "$W/$name.an" ;;
	*) check "$name: instructions:pp (PEBS) has exact-IP samples" \
		awk '/^# event:/ { e = substr($5, 2); f = 1 } END { exit !(f && e > 0) }' "$W/$name.an" ;;
	esac
	# A shared library's function (mapped at a bias, with a file offset):
	# the hottest in ld.so or libc, found where the header says.
	fn=$(perf report --stdio --no-branch-stack --no-children -g none -i "$f" --sort dso,sym 2> /dev/null |
		awk '$2 ~ /^(ld-linux|libc)/ && $3 == "[.]" { print $4; exit }')
	[ -n "$fn" ] && { [ $name = timer ] || [ $name = skylake ]; } || continue
	"$SKD" annotate --stdio -M intel -i "$f" "$fn" > "$W/$name.so.an" 2> /dev/null
	obj=$(sed -n "s/^# $fn in \(.*\) (build-id .*/\1/p" "$W/$name.so.an" | head -1)
	check "$name: $fn in ${obj:-?}: instructions agree with objdump -d -M intel" \
		cmp_objdump "$W/$name.so.an" "$obj" "$fn"
	check "$name: $fn's shares within 0.1 point of perf annotate --stdio" \
		cmp_perf_annotate "$W/$name.so.an" "$f" "$fn"
	check "$name: $fn's samples and exact-IP samples as perf report -D flags them" \
		cmp_exact_perf "$W/$name.so.an" "$f" "$fn"
done
[ $nvm -gt 0 ] || out "not ok" "VM captures of busyloop in $CAPS (none found)"
echo "1..$n"
