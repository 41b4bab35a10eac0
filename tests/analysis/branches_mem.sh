#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# skidless report --branches and --mem against perf's reading of the same
# perf.data: every LBR entry perf script -F brstack prints, counted by
# (source, target) with mispredicts and cycles, and the basic blocks
# between consecutive entries, equal to the --json report, the ends in
# busyloop named as perf script -F brstacksym names them; every memory
# sample perf script -F addr,data_src,weight prints, by the level perf
# decodes from its data source, with latencies and data addresses, equal
# too; each level's share of the total latency within 0.1 point of
# perf's mem mode (perf mem report's view, which weighs by latency). Bad
# input is refused with a message. (branches_mem.py does the counting.)
#
# Inputs: the VM's sim-model captures (LBR: skylake, icelake,
# sapphirerapids, skylake-htoff, alderlake; load latency: mem-skylake,
# mem-sapphirerapids) and files tests/perfdata/mkperf.c writes here
# through skidless's writer (both kinds of sample in one file; every raw
# PEBS data-source value decoded for four models).
#
#   tests/analysis/branches_mem.sh CAPS_DIR VMBIN_DIR     TAP on stdout
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE=$TOP/tests/analysis/helpers
CAPS=$1
SKD=${SKD:-$TOP/build/skidless}
CHECK_NOTE=1
source "$HERE/tap.sh"
source "$HERE/mkperf.sh"

branches() { # FILE
	perf script -i "$1" -F brstack --hide-call-graph > "$W/perf.br" 2> "$W/perf.err" ||
		{ cat "$W/perf.err"; return 1; }
	"$SKD" report --branches --json -n 0 -i "$1" > "$W/skd.json" || return 1
	python3 "$HERE/branches_mem.py" branches "$W/perf.br" "$W/skd.json"
}
names() { # FILE
	perf script -i "$1" -F brstack --hide-call-graph > "$W/perf.br" 2> /dev/null &&
	perf script -i "$1" -F brstacksym --hide-call-graph > "$W/perf.bs" 2> /dev/null ||
		return 1
	"$SKD" report --branches --json -n 0 -i "$1" > "$W/skd.json" 2> /dev/null || return 1
	python3 "$HERE/branches_mem.py" names "$W/perf.br" "$W/perf.bs" "$W/skd.json"
}
mem() { # FILE
	perf script -i "$1" -F ip,addr,data_src,weight --hide-call-graph > "$W/perf.mem" 2> "$W/perf.err" ||
		{ cat "$W/perf.err"; return 1; }
	"$SKD" report --mem --json -n 0 -i "$1" > "$W/skd.json" || return 1
	python3 "$HERE/branches_mem.py" mem "$W/perf.mem" "$W/skd.json"
}
memreport() { # FILE
	perf report --stdio --mem-mode --no-branch-stack --no-children -g none \
		--sort mem -i "$1" > "$W/perf.mr" 2> "$W/perf.err" ||
		{ cat "$W/perf.err"; return 1; }
	"$SKD" report --mem --json -n 0 -i "$1" > "$W/skd.json" || return 1
	python3 "$HERE/branches_mem.py" memreport "$W/perf.mr" "$W/skd.json"
}
text_ok() { # FILE VIEW: the text view prints its tables; on stderr at
	# most the symbolizer's word on objects it cannot read (the VM's vdso)
	"$SKD" report "$2" -i "$1" > "$W/text" 2> "$W/text.err" || return 1
	! grep -v "stay unnamed" "$W/text.err" && grep -q "$3" "$W/text" &&
		echo "$(wc -l < "$W/text") lines"
}
refused() { # EXPECTED_WORDS ARGS...: exit 1, a message, nothing on stdout
	local want=$1
	shift
	"$SKD" report "$@" > "$W/o" 2> "$W/e"
	local rc=$?
	cat "$W/e"
	[ $rc = 1 ] && [ ! -s "$W/o" ] && grep -q "$want" "$W/e"
}

# A file of both kinds through skidless's own writer.
if mkperf "$W/synth.data"; then
	check "mkperf: --branches agrees with perf script -F brstack" branches "$W/synth.data"
	check "mkperf: --mem agrees with perf script -F addr,data_src,weight" mem "$W/synth.data"
	check "mkperf: --mem weights as perf's mem mode" memreport "$W/synth.data"
	# Every raw data-source value through each decoding table.
	for m in skylake skylakex sapphirerapids alderlake_gracemont; do
		if "$W/mkperf" "$W/ds-$m.data" dsrc $m 2> "$W/cc.err"; then
			check "mkperf dsrc $m: --mem agrees with perf script -F addr,data_src,weight" mem "$W/ds-$m.data"
			check "mkperf dsrc $m: --mem weights as perf's mem mode" memreport "$W/ds-$m.data"
		else
			out "not ok" "mkperf writes data sources for $m"
		fi
	done
else
	out "not ok" "mkperf builds and writes a perf.data"
	sed 's/^/#   /' "$W/cc.err" | head -5
fi

nlbr=0
for m in skylake icelake sapphirerapids skylake-htoff alderlake; do
	f=$CAPS/$m.data
	[ -f "$f" ] || continue
	nlbr=$((nlbr + 1))
	check "$m: --branches agrees with perf script -F brstack" branches "$f"
	check "$m: branch ends in busyloop named as perf script -F brstacksym names them" names "$f"
	check "$m: the text view prints its three tables" text_ok "$f" --branches "Branch targets per function"
done
[ $nlbr -gt 0 ] || out "not ok" "the VM's LBR captures in $CAPS (none found)"

nmem=0
for m in mem-skylake mem-sapphirerapids; do
	f=$CAPS/$m.data
	[ -f "$f" ] || continue
	nmem=$((nmem + 1))
	check "$m: --mem agrees with perf script -F addr,data_src,weight" mem "$f"
	check "$m: --mem weights as perf's mem mode (perf mem report)" memreport "$f"
	check "$m: the text view prints histograms and addresses" text_ok "$f" --mem "Data addresses"
done
[ $nmem -gt 0 ] || out "not ok" "the VM's load-latency captures in $CAPS (none found)"

# Bad input.
check "a missing file: exit 1, a message naming it" refused "nothing.data" --branches -i "$W/nothing.data"
check "a missing file (--mem): exit 1, a message naming it" refused "nothing.data" --mem -i "$W/nothing.data"
printf 'not a capture at all\n' > "$W/junk.data"
check "not a capture: exit 1, a message" refused "capture" --mem -i "$W/junk.data"
nob=$CAPS/timer.data
[ -f "$nob" ] || nob=$CAPS/mem-skylake.data
if [ -f "$nob" ]; then
	check "no branch stacks ($(basename "$nob")): exit 1, says record -b" refused "record with -b" --branches -i "$nob"
fi
nom=$CAPS/skylake.data
if [ -f "$nom" ]; then
	check "no memory samples (skylake LBR capture): exit 1, names an event to record" refused "load_latency" --mem -i "$nom"
fi
check "--branches with --mem: exit 1" refused "unrecognized\|usage\|Usage" --branches --mem -i "$W/synth.data"
check "-n takes a number" refused "\-n" --mem -n lots -i "$W/synth.data"
echo "1..$n"
