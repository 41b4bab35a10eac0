#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The command line on one sim model ($1): precise samples with branch
# stacks (-e instructions:ppp -b), LBR call stacks (--call-graph lbr),
# several events in one -e, memory samples, the selftest, skidless list,
# and refusals that name the fix. Everything is read back through script
# and report. Samples marked exact come from events Intel's list marks
# precise: instructions is, on every model (INST_RETIRED.PREC_DIST on
# Skylake, INST_RETIRED.ANY elsewhere); cycles is not from Ice Lake on.
. "$(dirname "$0")/tap.sh"

BIN=$(cd "$(dirname "$0")" && pwd)
M=${1:?usage: cli_pmu.sh MODEL}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# A hybrid model samples a command on CPU 0's core type (P-cores, CPU 0
# in the VM): the workloads stay there.
PIN=
case $M in alderlake) PIN="taskset 1" ;; esac

# share PATTERN FILE: percentage of lines of FILE matching the ERE.
share() {
	awk -v re="$1" '$0 ~ re { n++ } END { print (NR ? int(100 * n / NR) : 0) }' "$2"
}

# Leaf frame of every sample line: the word after the mode column.
leaves() {
	awk '{ for (i = 1; i < NF; i++) if ($i ~ /^[UK]\*?$/) { print $(i + 1); break } }'
}

plan 16

skidless info --pmu "sim:$M" > "$T/info" 2>&1
grep -q "^pmu: .*$M" "$T/info" && grep -q "^PEBS: *format" "$T/info" &&
	grep -q "^LBR: " "$T/info"
result $? "info --pmu sim:$M names the model, its PEBS format and LBR"
sed 's/^/# /' "$T/info"

skidless record -q --backend "sim:$M" -e instructions:ppp -b -o "$T/b.data" -- \
	$PIN "$BIN/busyloop" "$(slow 1)" 2> "$T/rec.err"
rc=$?
[ $rc = 0 ] && grep -q "lost 0" "$T/rec.err"
result $? "record -e instructions:ppp -b -- busyloop: exit 0, nothing lost (rc $rc)"
sed 's/^/# /' "$T/rec.err"

skidless script -i "$T/b.data" > "$T/b.script"
n=$(wc -l < "$T/b.script")
exact=$(share ' [UK][*] ' "$T/b.script")
[ "$n" -ge 500 ] && [ "$exact" = 100 ]
result $? "script: every one of $n samples is marked exact ($exact%)"
sed -n '1,2s/^/# /p' "$T/b.script"

grep ' U[*] spin+' "$T/b.script" > "$T/b.spin"
into=$(share '[|] brstack work[+]0x[0-9a-f]+/spin[+]0x0/' "$T/b.spin")
[ -s "$T/b.spin" ] && [ "$into" -ge 95 ]
result $? "script: samples in spin() show the call from work() as their newest branch ($into%)"

skidless report --no-children -g none -i "$T/b.data" > "$T/b.report"
top=$(awk '!/^#/ { for (i = 1; i < NF; i++) if ($i == "[.]" || $i == "[k]") { print $(i + 1); exit } }' "$T/b.report")
pct=$(awk '!/^#/ && NF { print int($1); exit }' "$T/b.report")
[ "$top" = spin ] && [ "$pct" -ge 80 ]
result $? "report puts spin() on top with $pct% of the period (got '$top')"
sed -n '1,12s/^/# /p' "$T/b.report"

skidless record -q --backend "sim:$M" -e instructions:pp --call-graph lbr \
	-o "$T/l.data" -- $PIN "$BIN/chain" 1 2> /dev/null
skidless script -i "$T/l.data" | grep ' U[*] c+0x' > "$T/l.c"
whole=$(share ' c[+]0x[0-9a-f]+ [(]chain[)] <- b[+]0x[0-9a-f]+ [(]chain[)] <- a[+]0x[0-9a-f]+ [(]chain[)] <- main[+]0x' "$T/l.c")
[ -s "$T/l.c" ] && [ "$whole" -ge 95 ]
result $? "--call-graph lbr: samples in c() read c <- b <- a <- main ($whole% of $(wc -l < "$T/l.c"))"
sed -n '1s/^/# /p' "$T/l.c"

skidless record -q --backend "sim:$M" -c 400009 \
	-e cycles:pp,instructions:p -e br_inst_retired.all_branches \
	-o "$T/m.data" -- $PIN "$BIN/busyloop" 0.6 2> /dev/null
skidless script -i "$T/m.data" > "$T/m.script"
# The event is the sixth column; Intel's name yields to "branches".
names=$(awk '{ print $6 }' "$T/m.script" | sort -u | tr '\n' ' ')
n_names=$(echo $names | wc -w)
tables=$(skidless report -i "$T/m.data" | grep -c '^# event: ')
[ "$n_names" = 3 ] && [ "$tables" = 3 ]
result $? "three events from two -e options: all sampled ($names), one report table each ($tables)"

# Intel's name brings its threshold (32); ldlat= overrides it.
skidless record -q --backend "sim:$M" -c 2003 \
	-e mem_trans_retired.load_latency_gt_32/ldlat=30/p -o "$T/ld.data" -- \
	$PIN "$BIN/busyloop" 0.5 2> /dev/null
skidless script -i "$T/ld.data" > "$T/ld.script"
# Golden Cove and Gracemont report instruction and cache latency apart
# (Linux: adl_latency_data_small / the PEBS "latency" split on those cores).
case $M in
sapphirerapids|alderlake) lat='lat [0-9]{1,5}/[0-9]{1,5}' ;;
*) lat='lat [0-9]+' ;;
esac
mem=$(share "[|] mem 0x[0-9a-f]+ $lat src 0x[0-9a-f]+ modeled" "$T/ld.script")
[ -s "$T/ld.script" ] && [ "$mem" = 100 ]
result $? "load-latency samples carry address, latency ($lat) and source, marked modeled ($mem%)"

skidless selftest --backend "sim:$M" > "$T/selftest" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^selftest: pass" "$T/selftest"
result $? "selftest passes on sim:$M (rc $rc)"
sed 's/^/# /' "$T/selftest"

out=$(skidless record --backend "sim:$M" \
	-e branches,branches,branches,branches,branches,branches,branches,branches,branches \
	-o "$T/x" -- true 2>&1)
[ $? != 0 ] && echo "$out" | grep -q "counter"
result $? "more events than counters are refused, naming the counters: $out"

out=$(skidless record --backend "sim:$M" -e cycles -F 10000001 -o "$T/x" -- true 2>&1)
[ $? != 0 ] && echo "$out" | grep -q "above max_sample_rate"
result $? "a frequency no throttle allows is refused, naming the limit: $out"

out=$(skidless record --backend "sim:$M" -e mem_trans_retired.load_latency_gt_32:ppp \
	-o "$T/x" -- true 2>&1)
[ $? != 0 ] && echo "$out" | grep -q -i "ldlat\|precise"
result $? "an impossible precise level is refused with the reason: $out"

out=$(skidless record --backend "sim:$M" -e cycles -C 0 --idle --duration 0.1 \
	-o "$T/x" 2>&1)
[ $? != 0 ] && echo "$out" | grep -q -- "--idle is for the timer backend"
result $? "--idle with a PMU backend is refused, naming the timer backend: $out"

out=$(skidless record --backend "sim:$M" -e topdown.slotz -o "$T/x" -- true 2>&1)
[ $? != 0 ] && echo "$out" | grep -q "skidless list"
result $? "an unknown event is refused, pointing at skidless list: $out"

# The model's list through the module, and the same list without it (the
# first core type's section of a hybrid model's).
skidless list --pmu "sim:$M" 2>&1 |
	awk 'NR > 1 && /^[a-z:_-]+: [a-z_]+ [(]/ { exit } { print }' > "$T/list"
list=$(sed -n '1s/^.*: \([a-z_]*\).*/\1/p' "$T/list")
skidless list --pmu "$list" > "$T/list.nominal" 2>&1
grep -q '^  instructions .* pp' "$T/list" &&
	grep -q '^  br_inst_retired.all_branches ' "$T/list" &&
	[ "$(grep -c '^  [a-z]' "$T/list")" = "$(grep -c '^  [a-z]' "$T/list.nominal")" ]
result $? "list --pmu sim:$M shows Intel's $list events, as many as list --pmu $list"
sed -n '1,6s/^/# /p' "$T/list"

out=$(skidless record --backend intel -e cycles -o "$T/x" -- true 2>&1)
[ $? != 0 ] && echo "$out" | grep -q "sim:"
result $? "no PMU here: --backend intel says why and offers sim: $out"
finish
