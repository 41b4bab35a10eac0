#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Captures for Debian's perf to read on the host: the timer backend with
# call chains, every sim model with PEBS and LBR branch stacks, and
# load-latency captures (data address, latency, data source) on a model
# with one latency and on Golden Cove with its split latency, LBR
# captures without call chains for the optimizers, each
# printed into the TAP log as base64 between skd-file markers. The host
# stage (tests/perfdata/vm_perf.sh) opens them with perf 6.1 and with
# skidless and compares them sample for sample.
. "$(dirname "$0")/tap.sh"

BIN=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
MODELS="skylake icelake sapphirerapids skylake-htoff alderlake"

plan 5

export_file() {
	echo "# skd-file-begin $1"
	base64 < "$2" | sed 's/^/# b64 /'
	echo "# skd-file-end $1"
}

skidless record -q -F 500 -g -o "$T/timer.data" -- "$BIN/busyloop" "$(slow 0.6)" 2> "$T/err"
rc=$?
export_file timer "$T/timer.data"
[ $rc = 0 ] && [ -s "$T/timer.data" ]
result $? "timer -g capture made (rc $rc)"

bad=
for m in $MODELS; do
	# The hybrid model samples CPU 0's core type: keep the work there.
	pin=
	[ "$m" = alderlake ] && pin="taskset 1"
	skidless record -q --backend "sim:$m" -c 400009 \
		-e instructions:pp -b -o "$T/$m.data" -- \
		$pin "$BIN/busyloop" "$(slow 0.4)" 2> "$T/err" || bad="$bad $m"
	export_file "$m" "$T/$m.data"
done
[ -z "$bad" ]
result $? "a PEBS+LBR capture made on every model (failed:${bad:- none})"

bad=
for m in skylake sapphirerapids; do
	skidless record -q --backend "sim:$m" -c 2003 \
		-e mem_trans_retired.load_latency_gt_32/ldlat=30/p \
		-o "$T/mem-$m.data" -- "$BIN/busyloop" "$(slow 0.4)" 2> "$T/err" ||
		bad="$bad $m"
	export_file "mem-$m" "$T/mem-$m.data"
done
[ -z "$bad" ]
result $? "a load-latency capture made on skylake and sapphirerapids (failed:${bad:- none})"

# What the optimizers take (tests/analysis/optimizers.sh): taken branches
# with PEBS and LBR, no call chain (perf2bolt cannot parse perf script's
# lines with one), on a model with a plain weight and on Golden Cove.
bad=
for m in skylake sapphirerapids; do
	skidless record -q --backend "sim:$m" -c 100003 \
		-e br_inst_retired.near_taken:pp -b --call-graph none \
		-o "$T/opt-$m.data" -- "$BIN/busyloop" "$(slow 0.4)" 2> "$T/err" ||
		bad="$bad $m"
	export_file "opt-$m" "$T/opt-$m.data"
done
[ -z "$bad" ]
result $? "an LBR capture without call chains made on skylake and sapphirerapids (failed:${bad:- none})"

# The kallsyms record saved in the build-id cache, for the host's perf to
# name (and stay quiet about) this kernel's addresses.
k=$(ls -d "$HOME"/.debug/\[kernel.kallsyms\]/*/kallsyms 2> /dev/null | head -1)
bid=$(basename "$(dirname "$k")")
gzip -c "$k" > "$T/kallsyms.gz" 2> /dev/null
export_file "kallsyms-$bid" "$T/kallsyms.gz"
[ -n "$k" ] && [ -s "$T/kallsyms.gz" ]
result $? "record saved this kernel's kallsyms in the build-id cache (${k:-none})"
finish
