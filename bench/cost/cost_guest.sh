#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest half of bench/cost.sh: runs the workload under each recorder
# between the counting plugin's marks (costrun), in the order the host
# expects, and tells the host, per measured run, what it was:
#
#   # cost-run SEQ NAME RC WORKLOAD_CPU
#
# SEQ is the plugin's mark number (one per costrun). Each capture follows
# as an skd-file (base64) named NAME, with the recorder's stderr as
# NAME.err, for the host to count samples, lost samples and bytes.
#
#   cost_guest.sh full|short [MILLIONS [kallsyms]]
#
# MILLIONS: the workload's size in millions of instructions (default 1000);
# kallsyms: export /proc/kallsyms too (for bench/cost/hist.py).
#
# The recorder runs on CPU 0, the workload on CPU 1 (taskset), so the
# instructions executed on CPU 1 are the workload's and what sampling
# costs in its context; on the hybrid model (alderlake), whose sessions
# sample CPU 0's core type only, the other way round.
. "$(dirname "$0")/tap.sh"

MODE=${1:-full}
T=/tmp/cost
mkdir -p "$T"
SEQ=0
WCPU=1		# the workload's CPU
WORK=${2:-1000}
MODELS="skylake icelake sapphirerapids skylake-htoff alderlake"

export_file() {
	echo "# skd-file-begin $1"
	base64 < "$2" | sed 's/^/# b64 /'
	echo "# skd-file-end $1"
}

# run NAME CAPTURE RECORDER...: one measured run of RECORDER (empty: the
# workload alone) with the workload after it; the capture exported.
run() {
	name=$1 cap=$2
	shift 2
	rm -f "$cap"
	taskset $((1 << (1 - WCPU))) costrun "$@" taskset $((1 << WCPU)) deep5 "$WORK" \
		> /dev/null 2> "$T/err"
	rc=$?
	SEQ=$((SEQ + 1))
	echo "# cost-run $SEQ $name $rc $WCPU"
	[ -n "$cap" ] && [ -f "$cap" ] && export_file "$name" "$cap"
	export_file "$name.err" "$T/err"
	rm -f "$cap"
	[ $rc = 0 ] || { sed 's/^/# /' "$T/err"; bad="$bad $name"; }
}

perf_run() {	# NAME HZ [-g]
	run "$1" "$T/p.data" perf record -q -e cpu-clock -F "$2" $3 \
		-o "$T/p.data" --
}

skd_run() {	# NAME HZ [-g]
	cg="--call-graph none"
	[ "${3-}" = -g ] && cg=-g
	run "$1" "$T/s.data" skidless record -q -F "$2" $cg -o "$T/s.data" --
}

pebs_run() {	# NAME MODEL PERIOD [-b]
	run "$1" "$T/s.data" skidless record -q --backend "sim:$2" \
		-e instructions:pp -c "$3" ${4-} -o "$T/s.data" --
}

# perf takes every sample asked: no interrupt-time throttling, and no
# lowered rate limit from an earlier run. skidless: the timer's ceiling
# raised for the loss search.
echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent
echo 100000 > /proc/sys/kernel/perf_event_max_sample_rate
skd_rmmod && insmod "$SKD_KO" max_freq=100000 && insmod "$SKD_SIM_KO" ||
	{ echo "1..0 # reloading skidless with max_freq=100000 failed"; exit 1; }

bad=
# Not counted: the recorders' first starts, which fill the page cache and
# copy every binary they sample into the build-id cache (~/.debug), which
# later runs find there. The same command lines as the measured runs, so
# every file they touch is touched here first.
for _ in 1 2; do
	taskset 1 perf record -q -e cpu-clock -F 8000 -g -o "$T/warm.data" -- \
		taskset 2 deep5 20 > /dev/null 2>&1
	taskset 1 skidless record -q -F 8000 -g -o "$T/warm.data" -- \
		taskset 2 deep5 20 > /dev/null 2>&1
done

run base ""
run base2 ""
# The plugin's count checked against callgrind's on the host (cost.sh):
# the same binaries, user mode, no taskset.
SEQ=$((SEQ + 1))
costrun deep5 50 > /dev/null
echo "# cost-run $SEQ calib $? $WCPU"
for g in "" -g; do
	for hz in 500 8000; do
		perf_run "perf$g-$hz" $hz $g
		skd_run "skidless$g-$hz" $hz $g
	done
done
if [ "$MODE" = full ]; then
	# 8000 Hz samples every 250000 instructions of a 2 GHz core: the
	# model's instructions event at periods of the same rates.
	for m in $MODELS; do
		[ $m = alderlake ] && WCPU=0
		for b in "" -b; do
			pebs_run "pebs$b-$m-500" $m 4000000 $b
			pebs_run "pebs$b-$m-8000" $m 250000 $b
		done
		WCPU=1
	done
	WCPU=0
	run base-cpu0 ""
	WCPU=1
	for hz in 16000 64000 100000; do
		perf_run "perf-g-$hz" $hz -g
		skd_run "skidless-g-$hz" $hz -g
	done
	run base3 ""
fi
if [ "${3-}" = kallsyms ]; then
	gzip -c /proc/kallsyms > "$T/kallsyms.gz"
	export_file kallsyms "$T/kallsyms.gz"
fi
plan 1
[ -z "$bad" ]
result $? "every measured run exited 0 (failed:${bad:- none})"
finish
