# SPDX-License-Identifier: GPL-2.0
# Sourced by the consumer tests in tests/analysis (not a test itself):
# TAP output, and the captures to test, either the VM's (CAPS_DIR VMBIN_DIR: CAPS_DIR/*.data,
# resolved through CAPS_DIR/home's build-id cache when it has one, else
# through VMBIN_DIR's programs added to a fresh cache) or, with no
# arguments, four made here: perf record -e cpu-clock -g of hotpair.c
# with two workload balances and one without -g, and mkperf's file of
# PEBS and LBR samples.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
SKD=${SKD:-$TOP/build/skidless}
SC=$TOP/tests/analysis/helpers/stackcollapse-perf.pl
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
source "$TOP/tests/analysis/helpers/mkperf.sh"
n=0
failed=0
out() {
	n=$((n + 1))
	[ "$1" = ok ] || failed=$((failed + 1))
	echo "$1 $n - $2"
}
# check DESCRIPTION CMD...: ok when CMD succeeds; its output is shown otherwise.
check() {
	local d=$1
	shift
	if "$@" > "$W/check.out" 2>&1; then
		out ok "$d"
	else
		out "not ok" "$d"
		head -15 "$W/check.out" | sed 's/^/#   /'
	fi
}
finish() {
	echo "1..$n"
	[ "$failed" = 0 ]
	exit
}

# CAPS: the captures to test, one path per line.
if [ $# -ge 2 ]; then
	CAPS_DIR=$1
	VMBIN_DIR=$2
	if [ -d "$CAPS_DIR/home/.debug" ]; then
		export HOME=$CAPS_DIR/home
	else
		export HOME=$W/home
		mkdir -p "$HOME"
		for b in "$VMBIN_DIR"/*; do
			[ -f "$b" ] && [ -x "$b" ] && perf buildid-cache -a "$b" 2> /dev/null
		done
	fi
	CAPS=$(ls "$CAPS_DIR"/*.data 2> /dev/null)
	if [ -z "$CAPS" ]; then
		out "not ok" "captures in $CAPS_DIR (none)"
		finish
	fi
else
	export HOME=$W/home
	mkdir -p "$HOME"
	cc -O1 -g -fno-omit-frame-pointer -Wl,--build-id=sha1 -o "$W/hotpair" \
		"$TOP/tests/analysis/helpers/hotpair.c" 2> "$W/cc.err" ||
		{ out "not ok" "hotpair.c builds"; sed 's/^/#   /' "$W/cc.err"; finish; }
	# Two balances with call chains, and one without (perf script
	# prints its ip on the sample's line).
	for r in 3 1 nog; do
		g=-g
		[ $r != nog ] || g=
		perf record -q -e cpu-clock $g -o "$W/hotpair$r.data" -- \
			"$W/hotpair" 60000000 "${r/nog/2}" > /dev/null 2> "$W/rec.err" ||
			{ out "not ok" "perf record -e cpu-clock $g (perf_event_paranoid?)"
			  sed 's/^/#   /' "$W/rec.err"; finish; }
	done
	# And a file of PEBS memory samples and LBR stacks written through
	# skidless's real perf.data writer (tests/perfdata/mkperf.c).
	mkperf "$W/synth.data" ||
		{ out "not ok" "mkperf writes synth.data"; sed 's/^/#   /' "$W/cc.err"; finish; }
	CAPS="$W/hotpair3.data
$W/hotpair1.data
$W/hotpairnog.data
$W/synth.data"
fi
