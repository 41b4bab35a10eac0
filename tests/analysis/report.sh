#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# skidless report against Debian's perf report on the same perf.data:
# the top-20 entries and their shares (within 0.1 point), self and
# children, for several --sort keys and filters, -F, --json and the
# call graph; on perf's own capture of a small forking program built and
# recorded here (perf record -e cpu-clock -g), and on every capture the
# VM made (CAPS_DIR/*.data). Bad input exits 1 with a message.
#
#   tests/analysis/report.sh CAPS_DIR VMBIN_DIR      TAP on stdout
#
# CAPS_DIR/home, when there, is a HOME whose build-id cache resolves the
# VM's binaries and kernel; else one is made from VMBIN_DIR's programs.
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CAPS=${1:?usage: $0 CAPS_DIR VMBIN_DIR}
VMBIN=${2:?usage: $0 CAPS_DIR VMBIN_DIR}
SKD=$TOP/build/skidless
CMP=$TOP/tests/analysis/report_cmp.py
source "$TOP/tests/analysis/helpers/tap_fails.sh"

# agree DESC FILE "PERF OPTS" "SKIDLESS OPTS" [CMP OPTS]: the tables agree.
agree() {
	local d=$1 f=$2 popts=$3 sopts=$4 copts=${5:-}
	# A file with branch stacks puts perf in its branch view (-b) by
	# default; skidless report shows samples (report --branches: LBR).
	# shellcheck disable=SC2086
	perf report --stdio -i "$f" -g none --no-branch-stack $popts > "$W/p.out" 2> "$W/p.err"
	# shellcheck disable=SC2086
	"$SKD" report -i "$f" -n 0 -g none $sopts > "$W/s.out" 2> "$W/s.err"
	# shellcheck disable=SC2086
	check "$d" python3 "$CMP" "$W/p.out" "$W/s.out" $copts
}

for t in perf python3 cc; do
	command -v $t > /dev/null || { echo "1..1"; echo "not ok 1 - $t is installed (tests/deps.sh)"; exit 1; }
done

# --- perf's own capture of a program built here ---------------------
cat > "$W/prog.c" << 'EOF'
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void leaf_a(unsigned long n)
{ for (unsigned long i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) static void leaf_b(unsigned long n)
{ for (unsigned long i = 0; i < n; i++) sink ^= i * 3; }
__attribute__((noinline)) static void mid(unsigned long n)
{ leaf_a(n); leaf_b(n / 2); }
__attribute__((noinline)) static void top(unsigned long n)
{ mid(n); leaf_b(n); }
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 0) : 4000000;
	pid_t c = fork();
	for (int r = 0; r < 10; r++) { top(n); if (c == 0) leaf_a(n); }
	if (c == 0) return 0;
	waitpid(c, 0, 0);
	return 0;
}
EOF
check "the test program builds" cc -O1 -g -fno-omit-frame-pointer -o "$W/prog" "$W/prog.c"
F=$W/host.data
check "perf record -e cpu-clock -g --sample-cpu of it" \
	perf record -q -e cpu-clock -g --sample-cpu -o "$F" -- "$W/prog"

agree "host: --no-children --sort sym top-20" "$F" "--no-children --sort sym" "--no-children --sort sym"
agree "host: children --sort sym top-20 (children and self)" "$F" "--children --sort sym" "--children --sort sym --return-address"
agree "host: default (children with chains)" "$F" "--sort sym" "--return-address"
for k in dso comm pid cpu "sym,dso" "dso,sym" "comm,dso"; do
	agree "host: --no-children --sort $k" "$F" "--no-children --sort $k" "--no-children --sort $k"
done
agree "host: children --sort dso" "$F" "--children --sort dso" "--children --sort dso"

# Filters: perf's spelling for perf, the short one for skidless.
child=$(perf report --stdio -i "$F" --no-children --sort pid -g none 2> /dev/null |
	awk '/^ +[0-9.]+%/ { split($2, a, ":"); print a[1]; exit }')
# perf 6.1 has no tid key: its pid key is per thread.
agree "host: --no-children --sort tid (perf's pid)" "$F" "--no-children --sort pid" "--no-children --sort tid"
# perf 6.1 filters threads by the first sample of an entry: with the
# process in the sort keys each entry has one.
agree "host: --pid $child" "$F" "--no-children --sort sym,pid --pid $child" \
	"--no-children --sort sym,pid --pid $child"
agree "host: --tid $child (children)" "$F" "--children --sort pid,sym --tid $child" \
	"--children --sort tid,sym --tid $child"
agree "host: --comm prog" "$F" "--no-children --sort sym --comms prog" \
	"--no-children --sort sym --comm prog"
agree "host: --cpu 0" "$F" "--no-children --sort sym --cpu 0" "--no-children --sort sym --cpu 0"
agree "host: --dso prog" "$F" "--no-children --sort sym --dsos prog" \
	"--no-children --sort sym --dso prog"
agree "host: --sym leaf_a,main" "$F" "--no-children --sort sym --symbols leaf_a,main" \
	"--no-children --sort sym --sym leaf_a,main"
# A time range: the middle third of the samples, by perf script's clock.
perf script -i "$F" -F time 2> /dev/null | tr -d ' :' > "$W/times"
lines=$(wc -l < "$W/times")
t1=$(sed -n "$((lines / 3 + 1))p" "$W/times")
t2=$(sed -n "$((2 * lines / 3))p" "$W/times")
agree "host: --time $t1,$t2" "$F" "--no-children --sort sym --time $t1,$t2" \
	"--no-children --sort sym --time $t1,$t2"
agree "host: --time $t1, (open end)" "$F" "--children --sort sym --time $t1," \
	"--children --sort sym --time $t1,"
agree "host: -F overhead,sample,sym (samples equal)" "$F" \
	"--no-children -F overhead,sample,sym" "--no-children -F overhead,sample,sym"
agree "host: -F overhead,sample,period,comm,sym with children (samples and periods equal)" "$F" \
	"--children -F overhead,sample,period,comm,sym" "--children -F overhead,sample,period,comm,sym"

# --json: the same top-20 as perf's table, from the document.
"$SKD" report -i "$F" --no-children --sort sym -n 0 --json > "$W/s.json" 2> "$W/s.err"
python3 - "$W/s.json" > "$W/s.out" << 'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for ev in d["events"]:
    print("# event: %s, x" % ev["event"])
    for e in ev["entries"]:
        print("  %8.2f%%  [%s] %s" % (e["overhead"], "k" if e["kernel"] else ".", e["sym"]))
EOF
perf report --stdio -i "$F" -g none --no-children --sort sym > "$W/p.out" 2> /dev/null
check "host: --json entries agree with perf's table" python3 "$CMP" "$W/p.out" "$W/s.out"

# Call graph: the branches under the busiest entry, caller order with
# children as perf's default, callee order without.
graph() { # FILE: the "--PCT--name" lines of the first entry's tree
	awk '/^ +[0-9.]+%/ { if (seen++) exit; next } seen' "$1" |
		grep -o -- '--[0-9.]*%--[^ ]*' | sort
}
perf report --stdio -i "$F" --children --sort sym -g caller,0.5 > "$W/p.g" 2> /dev/null
"$SKD" report -i "$F" --children --sort sym -g caller,0.5 > "$W/s.g" 2> /dev/null
graph "$W/p.g" > "$W/p.gl"; graph "$W/s.g" > "$W/s.gl"
check "host: -g caller tree of the top entry is perf's ($(wc -l < "$W/p.gl") branches)" \
	bash -c "[ -s '$W/p.gl' ] && diff '$W/p.gl' '$W/s.gl'"
perf report --stdio -i "$F" --no-children --sort sym -g callee,0.5 > "$W/p.g" 2> /dev/null
"$SKD" report -i "$F" --no-children --sort sym -g callee,0.5 > "$W/s.g" 2> /dev/null
graph "$W/p.g" > "$W/p.gl"; graph "$W/s.g" > "$W/s.gl"
check "host: -g callee tree (self) of the top entry is perf's ($(wc -l < "$W/p.gl") branches)" \
	bash -c "[ -s '$W/p.gl' ] && diff '$W/p.gl' '$W/s.gl'"
perf report --stdio -i "$F" --no-children --sort sym -g callee,20 > "$W/p.g" 2> /dev/null
"$SKD" report -i "$F" --no-children --sort sym -g callee,20 > "$W/s.g" 2> /dev/null
graph "$W/p.g" > "$W/p.gl"; graph "$W/s.g" > "$W/s.gl"
check "host: -g callee,20 hides the branches under 20% as perf ($(wc -l < "$W/p.gl") left)" \
	bash -c "[ -s '$W/p.gl' ] && diff '$W/p.gl' '$W/s.gl'"

# Bad input: a clear message and exit 1.
bad() { # DESC PATTERN ARGS...
	local d=$1 pat=$2; shift 2
	"$SKD" report "$@" > "$W/b.out" 2> "$W/b.err"
	local rc=$?
	if [ $rc = 1 ] && grep -q -- "$pat" "$W/b.err"; then ok "$d"
	else echo "rc $rc" >> "$W/b.err"; notok "$d" "$W/b.err"; fi
}
bad "missing file: exit 1, says so" "No such file" -i "$W/nonexistent.data"
bad "bad sort key: exit 1, names the keys" "unknown sort key .bogus." -i "$F" --sort sym,bogus
bad "bad -F field: exit 1" "unknown field" -i "$F" -F overhead,nope
bad "bad time range (not numbers): exit 1" "bad --time" -i "$F" --time abc,def
bad "bad time range (start after end): exit 1" "START is after END" -i "$F" --time 20,10
bad "bad time range (no comma): exit 1" "bad --time" -i "$F" --time 10
bad "bad --cpu: exit 1" "bad --cpu" -i "$F" --cpu x
bad "bad --pid: exit 1" "bad id" -i "$F" --pid 12ab
bad "bad -g: exit 1" "bad -g" -i "$F" -g sideways
printf 'garbage, not a capture\n' > "$W/garbage.data"
bad "not a capture: exit 1" "too short for a skidless capture" -i "$W/garbage.data"

# --- the VM's captures -------------------------------------------------
if [ -d "$CAPS/home" ]; then
	export HOME=$CAPS/home
else
	export HOME=$W/home
	mkdir -p "$HOME"
	for b in "$VMBIN"/*; do
		[ -f "$b" ] && head -c 4 "$b" | grep -q ELF &&
			perf buildid-cache -a "$b" 2> /dev/null
	done
fi
caps=$(ls "$CAPS"/*.data 2> /dev/null)
check "CAPS_DIR has captures" test -n "$caps"
for f in $caps; do
	name=$(basename "$f" .data)
	agree "$name: --no-children --sort sym top-20" "$f" "--no-children --sort sym" "--no-children --sort sym"
	# perf names a caller by its return address: _dl_start_user, not
	# _start, whose call of _dl_start ends it (see --return-address).
	agree "$name: children --sort sym top-20 (--return-address)" "$f" \
		"--children --sort sym" "--children --sort sym --return-address"
	agree "$name: --sort dso,sym" "$f" "--no-children --sort dso,sym" "--no-children --sort dso,sym"
	# Not comm: around an exec, perf 6.1's report gives samples the old
	# command name that its own script gives the new one (the VM's
	# `taskset 1 busyloop`: report 78 taskset samples, script 39, as
	# skidless); the host capture above checks the comm key.
	agree "$name: --sort pid" "$f" "--no-children --sort pid" "--no-children --sort pid"
done

echo "1..$n"
[ $fails = 0 ]
