#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Debian's perf 6.1 reads the captures skidless made in the VM
# (tests/kselftest/perf_export.sh put them in the TAP log as base64):
# each opens with no word on stderr, and perf script agrees with skidless
# script sample for sample on the user samples' leaf symbol and on every
# branch of their LBR stacks.
#
#   tests/perfdata/vm_perf.sh TAP_LOG VM_BIN_DIR     TAP on stdout
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LOG=$1
VMBIN=$2
SKD=$TOP/build/skidless
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# One build-id cache for both tools, holding the VM's test programs: the
# files were recorded as /skd/bin/NAME, which only the cache can resolve.
export HOME=$W/home
mkdir -p "$HOME"
n=0
out() { n=$((n + 1)); echo "$1 $n - $2"; }

perf buildid-cache -a "$VMBIN/busyloop" 2> /dev/null
# busyloop's own functions, by nm: the names both tools must agree on,
# and their sizes.
OWN=" $(nm "$VMBIN/busyloop" | awk '$2 ~ /^[tT]$/ { printf "%s ", $3 }')"
# _init has no size: its section's (readelf). The PLT's header, 16
# bytes at the start of .plt, as an offset from _init.
section() { readelf -SW "$VMBIN/busyloop" | sed -n "s/.* \\$1  *PROGBITS  *\([0-9a-f]*\)  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1 \2/p"; }
read -r init_addr init_size <<< "$(section .init)"
read -r plt_addr _ <<< "$(section .plt)"
SIZES=" $(nm -S "$VMBIN/busyloop" | while read -r _ size type name; do
	case $type in t|T) [ -n "$name" ] && printf '%s=%d ' "$name" "$((16#$size))" ;; esac
done) _init=$((16#$init_size)) "
PLT_HDR=$((16#$plt_addr - 16#$init_addr))
source "$TOP/tests/perfdata/vm_log.sh"
names=$(vm_names)
vm_kallsyms
if [ -z "$names" ]; then
	out "not ok" "the VM exported captures (none in $LOG)"
	echo "1..$n"
	exit 1
fi
for name in $names; do
	f=$W/$name.data
	extract "$name" > "$f"

	perf report -i "$f" --stdio --sort sym > "$W/$name.report" 2> "$W/$name.rerr"
	rc=$?
	if [ $rc = 0 ] && [ ! -s "$W/$name.rerr" ]; then
		out ok "perf report --stdio opens the capture without a word on stderr [$name]"
	else
		out "not ok" "perf report --stdio opens the capture without a word on stderr [$name]: rc $rc"
		sed 's/^/#   /' "$W/$name.rerr" | head -5
	fi

	# The user samples of busyloop: tid, time, leaf symbol+offset and its
	# object, then the branches. perf glues the first brstacksym entry to
	# the field before it, so the ip, known from the first run, is cut
	# off the second run's line. Symbols outside busyloop are compared
	# as named or not (perf and elfutils may pick different aliases of
	# one glibc address).
	perf script -i "$f" -F comm,tid,time,ip,sym,symoff,dso --hide-call-graph \
		2> "$W/$name.serr" > "$W/$name.p1"
	perf script -i "$f" -F comm,tid,time,ip,brstacksym --hide-call-graph \
		2>> "$W/$name.serr" > "$W/$name.p2"
	paste -d '|' "$W/$name.p1" "$W/$name.p2" |
		awk -F '|' -v own="$OWN" -v sizes="$SIZES" -v plt_hdr="$PLT_HDR" '
		function hex(h,  i, v) {
			sub(/^0x/, "", h)
			for (i = 1; i <= length(h); i++)
				v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
			return v
		}
		# perf 6.1 names an address past the end of a symbol after it:
		# the PLT as _init+N. Its stubs skidless names NAME@plt, as
		# perf does since Linux 6.2: named, not busyloop functions.
		# The header, .plt to newer perf and to skidless, perf 6.1
		# leaves unnamed in a library and calls _init+N here: unnamed.
		function norm(s,  q, z, o) {
			if (s == "[unknown]" || s ~ /^\[unknown\]/) return "[unknown]"
			split(s, q, "+")
			if (match(sizes, " " q[1] "=[0-9]+ ")) {
				z = substr(sizes, RSTART + length(q[1]) + 2, RLENGTH - length(q[1]) - 3)
				o = q[2] != "" ? hex(q[2]) : 0
				if (q[1] == "_init" && o >= plt_hdr && o < plt_hdr + 16)
					return "[unknown]"
				if (o >= z + 0) return "*"
			}
			return index(own, " " q[1] " ") ? s : "*"
		}
		{
			n1 = split($1, a, " ")
			if (a[1] != "busyloop" || a[4] ~ /^ffff/) next
			t = a[3]; sub(":$", "", t)
			line = a[2] " " t " " norm(a[5])
			n2 = split($2, b, " ")
			rest = ""
			for (i = 4; i <= n2; i++) rest = rest " " b[i]
			sub("^ *" a[4], "", rest)
			m = split(rest, e, " ")
			for (i = 1; i <= m; i++) {
				split(e[i], br, "/")
				line = line " " norm(br[1]) "/" norm(br[2]) "/" br[3]
			}
			print line
		}' > "$W/$name.perf"
	"$SKD" script -i "$f" 2> "$W/$name.kerr" |
		awk -v own="$OWN" '
		function norm(s,  q) {
			if (s ~ /^0x/) return "[unknown]"
			split(s, q, "+")
			if (q[1] == ".plt")	# the PLT header: see above
				return "[unknown]"
			return index(own, " " q[1] " ") ? s : "*"
		}
		$1 == "busyloop" && / U/ {
			split($2, id, "/"); t = $4; sub(":$", "", t)
			for (i = 5; i <= NF; i++) if ($i ~ /^U/) break
			line = id[2] " " t " " norm($(i + 1))
			for (j = i; j <= NF; j++) if ($j == "brstack") break
			for (k = j + 1; k <= NF; k++) {
				split($k, b, "/")
				line = line " " norm(b[1]) "/" norm(b[2]) "/" b[3]
			}
			print line
		}' > "$W/$name.skd"
	np=$(wc -l < "$W/$name.perf")
	ns=$(wc -l < "$W/$name.skd")
	named=$(awk '$3 != "[unknown]"' "$W/$name.perf" | wc -l)
	if [ "$np" -gt 0 ] && [ ! -s "$W/$name.serr" ] &&
	   [ "$named" -ge $((np * 9 / 10)) ] &&
	   diff -q <(sort "$W/$name.perf") <(sort "$W/$name.skd") > /dev/null; then
		out ok "perf script and skidless script agree on every user sample [$name]: all $np (leaf symbol and branch stack; $named named)"
	else
		out "not ok" "perf script and skidless script agree on every user sample [$name]: they disagree, perf script $np samples ($named named), skidless script $ns"
		diff <(sort "$W/$name.perf") <(sort "$W/$name.skd") | head -6 | sed 's/^/#   /'
		sed 's/^/#   perf: /' "$W/$name.serr" | head -3
	fi
done
echo "1..$n"
