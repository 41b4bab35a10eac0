#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The register names host builds take from kmod/host/msr_names.h must mean
# what the kernel's <asm/msr-index.h> and <asm/perf_event.h> say: for each
# kernel build tree given (default: every /lib/modules/*/build), every name
# defined there is compiled against that kernel's headers and against
# msr_names.h, and the two values compared.
#
#   tests/msr_names.sh [--tap FILE] [KDIR...]
#
# One TAP result per kernel, naming each disagreement. Exit 1 on any.
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NAMES_H=$TOP/kmod/host/msr_names.h
TAP=
if [ "${1:-}" = --tap ]; then TAP=$2; shift 2; fi
[ $# -gt 0 ] || set -- /lib/modules/*/build
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

names=$(sed -n 's/^#define \([A-Z][A-Z0-9_]*\)[ \t].*/\1/p' "$NAMES_H")

# A program printing "NAME VALUE" for every name, under whatever headers
# are included first.
{
	echo '#include <stdio.h>'
	echo 'int main(void) {'
	for n in $names; do
		echo "	printf(\"$n %llu\\n\", (unsigned long long)($n));"
	done
	echo '	return 0; }'
} > "$WORK/print.c"

result() {
	echo "$1"
	[ -z "$TAP" ] || echo "$1" >> "$TAP"
}

cc -std=c11 -Wall -Werror -I"$TOP/kmod/host" -include msr_names.h \
	-o "$WORK/ours" "$WORK/print.c" && "$WORK/ours" > "$WORK/ours.txt" || {
	result "not ok - kmod/host/msr_names.h does not build"
	exit 1
}

failed=0
for kdir in "$@"; do
	kdir=$(realpath "$kdir" 2> /dev/null) || continue
	# Debian splits a kernel's headers into -amd64 and -common trees.
	src=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$kdir/Makefile" | head -n 1)
	src=${src:-$kdir}
	asm=$src/arch/x86/include/asm
	name=$(basename "$kdir")
	if [ ! -r "$asm/msr-index.h" ] || [ ! -r "$asm/perf_event.h" ]; then
		result "not ok - register names of msr_names.h mean the same as in the kernel's headers [$(basename "$kdir")]: no <asm/msr-index.h> in $src"
		failed=1
		continue
	fi
	# The single-line object-like #defines of both headers, comments
	# cut (the bit helpers they use stubbed), without the rest of the
	# kernel.
	{
		echo '#define BIT(n) (1UL << (n))'
		echo '#define BIT_ULL(n) (1ULL << (n))'
		echo '#define _BITUL(n) (1UL << (n))'
		echo '#define _BITULL(n) (1ULL << (n))'
		echo '#define _AC(x, y) x##y'
		echo '#define GENMASK_ULL(h, l) (((~0ULL) << (l)) & (~0ULL >> (63 - (h))))'
		cat "$asm/msr-index.h" "$asm/perf_event.h" |
			grep -E '^#define [A-Z][A-Z0-9_]*[ 	]+[^\\]*$' |
			grep -vE '^#define _ASM_' | sed 's|/[*].*||; s|//.*||'
	} > "$WORK/kernel.h"
	if ! cc -std=gnu11 -w -include "$WORK/kernel.h" -o "$WORK/theirs" \
		"$WORK/print.c" 2> "$WORK/cc.log"; then
		result "not ok - register names of msr_names.h mean the same as in the kernel's headers [$name]: they lack some of msr_names.h's names"
		sed -n 's/.*error: .\([A-Z0-9_]*\). undeclared.*/#   \1 is not defined in '"$name"'/p' \
			"$WORK/cc.log" | sort -u | tee -a "${TAP:-/dev/null}"
		failed=1
		continue
	fi
	"$WORK/theirs" > "$WORK/theirs.txt"
	bad=$(join "$WORK/ours.txt" "$WORK/theirs.txt" | awk '$2 != $3')
	n=$(wc -l < "$WORK/ours.txt")
	if [ -z "$bad" ]; then
		result "ok - register names of msr_names.h mean the same as in the kernel's headers [$name]: all $n"
	else
		result "not ok - register names of msr_names.h mean the same as in the kernel's headers [$name]: msr_names.h and $name disagree"
		echo "$bad" | sed 's/^/#   NAME OURS THEIRS: /' | tee -a "${TAP:-/dev/null}"
		failed=1
	fi
done
exit $failed
