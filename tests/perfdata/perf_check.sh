#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Debian's perf (6.1) reads the perf.data skidless writes, and skidless
# reads perf's: TAP on stdout. Files are built from synthetic skidless
# records by mkperf.c through the real converter and writer.
#
#   bash tests/perfdata/perf_check.sh [OUTDIR]
set -uo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${1:-$TOP/build/perfdata}
mkdir -p "$OUT"
L=$TOP/userland/lib
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() {
	n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"
	[ -n "${2:-}" ] && [ -s "$2" ] && sed -n '1,20s/^/#   /p' "$2"
}
check() { local d=$1; shift; if "$@"; then ok "$d"; else notok "$d" "$OUT/last.err"; fi; }

if ! command -v perf > /dev/null; then
	echo "1..0 # SKIP perf missing: apt-get install linux-perf"
	exit 0
fi
cc -std=c11 -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer -Wall -Wextra \
	-Werror -I"$TOP/uapi" -I"$L" -o "$OUT/mkperf" \
	"$TOP/tests/perfdata/mkperf.c" "$L/perfdata_conv.c" \
	"$L/perfdata_write.c" "$L/perfdata_host.c" "$L/data_src.c" \
	"$L/decode.c" "$L/readall.c" "$L/buildid.c" -ldw -lelf 2> "$OUT/last.err"
check "mkperf builds" test $? = 0
SKD=$TOP/build/skidless
F=$OUT/synth.data
"$OUT/mkperf" "$F" 2> "$OUT/last.err"
check "mkperf writes $F" test $? = 0

quiet() { # quiet NAME CMD...: succeeds, nothing on stderr
	"${@:2}" > "$OUT/$1.out" 2> "$OUT/last.err" && [ ! -s "$OUT/last.err" ]
}
check "perf report --stdio: no warning" quiet report perf report --stdio -i "$F"
check "perf script -F comm,tid,ip,sym,dso,brstack,addr,weight: no warning" \
	quiet script perf script -F comm,tid,ip,sym,dso,brstack,addr,weight -i "$F"
check "perf script names our functions" grep -q "mk_leaf" "$OUT/script.out"
perf report --header-only -I -i "$F" > "$OUT/header.out" 2> "$OUT/last.err"
for want in "hostname :" "os release :" "cmdline :" "cpuid :" \
	"event : name = mem_trans_retired.load_latency_gt_3:pp" \
	"contains samples with branch stack" "time of first sample" \
	"clockid: monotonic" "nrcpus avail" "arch : x86_64" "cpudesc :"; do
	check "perf header shows each header we write: '$want'" grep -q "$want" "$OUT/header.out"
done
id=$(readelf -n "$OUT/mkperf" | sed -n 's/.*Build ID: //p')
perf buildid-list -i "$F" > "$OUT/buildid.out" 2> "$OUT/last.err"
check "perf buildid-list lists mkperf's build-id" grep -q "^$id .*mkperf" "$OUT/buildid.out"

# Sample for sample: tid, time, period and leaf symbol, perf against skidless.
perf script -G -F tid,time,period,ip,sym -i "$F" 2> "$OUT/last.err" |
	awk '{sub(":","",$2); printf "%s %s %s %s\n", $1, $2, $3, $5}' > "$OUT/perf.samples"
"$SKD" script -i "$F" 2> "$OUT/last.err" |
	awk '{split($2,a,"/"); t=$4; sub(":","",t); s=$8; sub(/\+.*/,"",s);
	      printf "%s %s %s %s\n", a[2], t, $5, s}' > "$OUT/skd.samples"
check "skidless script and perf script agree sample for sample" \
	diff -u "$OUT/perf.samples" "$OUT/skd.samples"
check "both saw all 40 samples" test "$(wc -l < "$OUT/skd.samples")" = 40

# Sideband perf counts by type: FORK, LOST, THROTTLE, UNTHROTTLE besides
# COMM, MMAP2 and EXIT; LOST's count as perf dumps it; perf warns of the
# loss. skidless reads the same records back.
S=$OUT/side.data
"$OUT/mkperf" "$S" side 2> "$OUT/last.err"
check "mkperf writes $S with sideband records" test $? = 0
perf report --stats -i "$S" > "$OUT/side.stats" 2> "$OUT/last.err"
for t in FORK LOST THROTTLE UNTHROTTLE COMM MMAP2 EXIT; do
	check "perf report --stats counts one $t record" \
		grep -Eq "^ +$t events: +1 " "$OUT/side.stats"
done
check "perf report -D: LOST of 17 records" sh -c \
	"perf report -D -i '$S' 2> /dev/null | grep -q 'PERF_RECORD_LOST: id:[0-9]*: lost:17\$'"
check "perf report warns of the lost chunk" sh -c \
	"perf report --stdio -i '$S' 2>&1 > /dev/null | grep -q 'lost 1 chunks'"
"$SKD" script --all -i "$S" > "$OUT/side.skd" 2> "$OUT/last.err"
check "skidless script --all reads LOST 17, THROTTLE, UNTHROTTLE, FORK" sh -c \
	"grep -q ': LOST 17 records\$' '$OUT/side.skd' &&
	 grep -q ': THROTTLE\$' '$OUT/side.skd' &&
	 grep -q ': UNTHROTTLE\$' '$OUT/side.skd' &&
	 grep -q ': FORK from 4242/4242\$' '$OUT/side.skd'"

# A full disk (a file size limit, SIGXFSZ ignored: write() fails with
# EFBIG): the file is cut back to whole records and ends in a LOST that
# counts every record of the complete file, as perf counts them.
total=$(perf report --stats -i "$F" 2> /dev/null | awk '/TOTAL events:/ { print $3 }')
D=$OUT/full.data
rm -f "$D"
( trap '' XFSZ; ulimit -f 4; "$OUT/mkperf" "$D" ) 2> "$OUT/last.err"
rc=$?
check "mkperf on a full disk fails (rc $rc)" test $rc != 0
check "perf report -D reads the cut file: one LOST of all $total records" sh -c \
	"perf report -D -i '$D' 2> '$OUT/last.err' | grep -c 'PERF_RECORD_LOST: id:[0-9]*: lost:$total\$' | grep -qx 1"
check "perf report says it lost events" sh -c \
	"perf report --stdio -i '$D' 2>&1 > /dev/null | grep -q 'lost 1 chunks'"
check "perf report --header-only reads its features" sh -c \
	"perf report --header-only -i '$D' 2> /dev/null | grep -q 'hostname :'"

# --call-graph dwarf: samples as record writes them, from the registers
# and stack tests/unit/fixtures/unw_prog.c (-fomit-frame-pointer) saved
# of itself in main -> unw_a -> unw_b -> unw_c and in a comparator libc's
# qsort() calls. perf must read back the very registers and stack bytes
# saved; skidless unwinds them through the file's CFI and libc's.
U=$OUT/unw_prog
gcc -O1 -fomit-frame-pointer -fno-optimize-sibling-calls \
	-fasynchronous-unwind-tables -Wl,--build-id=sha1 -g -o "$U" \
	"$TOP/tests/unit/fixtures/unw_prog.c" 2> "$OUT/last.err" &&
	"$U" "$OUT/unw" 2>> "$OUT/last.err"
check "unw_prog builds and saves its registers and stack" test $? = 0
for what in deep qsort; do
	W=$OUT/dwarf-$what.data
	"$OUT/mkperf" "$W" dwarf "$OUT/unw.$what" 2> "$OUT/last.err"
	check "mkperf writes a DWARF capture ($what)" test $? = 0
	check "perf report --stdio and perf script read it without a word ($what)" \
		quiet "dwarf-$what" sh -c "perf report --stdio -i '$W' > /dev/null &&
			perf script -i '$W'"
	perf report -D -i "$W" 2> "$OUT/last.err" > "$OUT/dwarf-$what.dump"
	awk '/PERF_RECORD_SAMPLE/ { n++ }
	     n == 1 && /^\.\.\.\. [A-Z0-9]+ +0x/ { print $3 }' \
		"$OUT/dwarf-$what.dump" > "$OUT/dwarf-$what.regs"
	od -v -An -tx8 -w8 -N160 "$OUT/unw.$what" | sed 's/^ */0x/' \
		> "$OUT/dwarf-$what.want"
	check "perf reads its 20 user registers as saved, mask 0xff0fff, ABI 64-bit ($what)" sh -c \
		"grep -q 'user regs: mask 0xff0fff ABI 64-bit' '$OUT/dwarf-$what.dump' &&
		 diff '$OUT/dwarf-$what.want' '$OUT/dwarf-$what.regs' > '$OUT/last.err'"
	len=$(od -An -tu8 -j160 -N8 "$OUT/unw.$what" | tr -d ' ')
	[ "$len" -le 16384 ] || len=16384
	check "perf reads its stack copy, $len bytes ($what)" \
		grep -q "^\.\.\. ustack: size $len," "$OUT/dwarf-$what.dump"
	"$SKD" script -i "$W" > "$OUT/dwarf-$what.skd" 2> "$OUT/last.err"
done
check "skidless unwinds unw_c <- unw_b <- unw_a <- main in all 3 samples" sh -c \
	"grep -c ' U unw_c+0x[0-9a-f]* (unw_prog) <- unw_b+0x[0-9a-f]* (unw_prog) <- unw_a+0x[0-9a-f]* (unw_prog) <- main+0x' \
	 '$OUT/dwarf-deep.skd' | grep -qx 3"
check "skidless unwinds unw_cmp <- libc's qsort <- sort_it <- main in all 3 samples" sh -c \
	"grep -c ' U unw_cmp+0x[0-9a-f]* (unw_prog) <- .*(libc[.]so[.]6) <- sort_it+0x[0-9a-f]* (unw_prog) <- main+0x' \
	 '$OUT/dwarf-qsort.skd' | grep -qx 3"

# Pipe mode.
"$OUT/mkperf" - pipe > "$OUT/pipe.data" 2> "$OUT/last.err"
check "perf report reads our pipe mode" quiet pipe-report \
	sh -c "perf report --stdio -i - < '$OUT/pipe.data'"
check "skidless reads our pipe mode" sh -c \
	"'$SKD' script -i '$OUT/pipe.data' | wc -l | grep -qx 40"

# perf's own file: cpu-clock with -g, written here (needs perf_event_open).
P=$OUT/perf-own.data
if perf record -q -e cpu-clock -g -o "$P" -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' \
	> /dev/null 2> "$OUT/last.err"; then
	perf script -G -F tid,time -i "$P" 2> /dev/null | awk '{print $1}' > "$OUT/own.perf"
	"$SKD" script -i "$P" 2> "$OUT/last.err" | awk '{split($2,a,"/"); print a[2]}' > "$OUT/own.skd"
	check "skidless reads perf's cpu-clock -g file: same samples" \
		diff -u "$OUT/own.perf" "$OUT/own.skd"
else
	n=$((n + 1)); echo "ok $n - skidless reads perf's cpu-clock -g file # SKIP perf record cannot sample here; use a VM fixture"
fi
# Garbage is refused with a reason, not a crash.
head -c 200 "$F" > "$OUT/cut.data"
"$SKD" script -i "$OUT/cut.data" > /dev/null 2> "$OUT/last.err"
check "a cut perf.data is refused with a message" grep -q "cut short" "$OUT/last.err"
echo "1..$n"
exit $((fails > 0))
