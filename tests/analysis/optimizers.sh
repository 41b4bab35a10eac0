#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The optimizers read skidless's LBR captures, and `skidless convert`'s
# feeds equal what they make of them. TAP on stdout.
#
#   tests/analysis/optimizers.sh CAPS_DIR VMBIN_DIR
#
# 1. Built here: opt_target.c compiled, its call, return and loop branch
#    found by objdump, and a capture of it written by mklbr.c through
#    record's real output stage, so every count is known by construction.
#    perf2bolt (Debian bolt-15) must write exactly those branches, and
#    `convert -f bolt` the same lines; llvm-bolt must take our fdata.
#    AutoFDO (Debian autofdo): create_llvm_prof must make a profile naming
#    the hot functions, sample_merger's text of the perf.data must equal
#    `convert -f autofdo` byte for byte, and create_llvm_prof must make the
#    same profile of either. perf2bolt -nl must equal `convert -f bolt-nl`.
#    Special cases: a local name twice (NAME/N), PLT stubs, kernel
#    entries, unmapped addresses, call chains, LBR call stacks, pipe mode,
#    a Golden Cove model. Bad input: a clear message and exit 1.
# 2. The VM's captures in CAPS_DIR with branch stacks (HOME=CAPS_DIR/home
#    holds their build-id cache), for the program VMBIN_DIR/busyloop: the
#    same comparisons, perf2bolt's fall-through lines aside (on captures
#    with call chains perf2bolt runs perf script with --hide-call-graph:
#    it cannot parse the chain's lines); LBR call stacks refused by -f bolt.
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CAPS=${1:?usage: optimizers.sh CAPS_DIR VMBIN_DIR}
VMBIN=${2:?usage: optimizers.sh CAPS_DIR VMBIN_DIR}
SKD=$TOP/build/skidless
L=$TOP/userland/lib
C=$TOP/userland/cli
# perf2bolt is llvm-bolt under another name; /usr/bin/perf2bolt-15 runs
# llvm-bolt's optimizing mode (the name must end in perf2bolt).
BOLTBIN=/usr/lib/llvm-15/bin
source "$TOP/tests/analysis/helpers/tap_fails.sh"
# The lines of two files, sorted, are the same.
same_lines() { diff -u <(sort "$1") <(sort "$2"); }

for tool in "$BOLTBIN/perf2bolt" "$BOLTBIN/llvm-bolt" create_llvm_prof \
	sample_merger llvm-profdata perf objdump nm; do
	if ! command -v "$tool" > /dev/null; then
		notok "$tool is installed (tests/deps.sh)"
		echo "1..$n"
		exit 1
	fi
done

# ---- 1. a capture made here ----
export HOME=$W/home
mkdir -p "$HOME"
T=$W/opt_target
# DWARF 4: AutoFDO 0.19 reads no DWARF 5 (GCC 12's default).
cc -std=c11 -O1 -gdwarf-4 -fno-pie -no-pie -Wl,--emit-relocs \
	-Wl,--build-id=sha1 -o "$T" "$TOP/tests/analysis/opt_dup.c" \
	"$TOP/tests/analysis/opt_target.c" 2> "$W/last.err"
check "opt_target builds" test $? = 0
cc -std=c11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Werror -I"$TOP/uapi" \
	-I"$TOP/kmod" -I"$TOP/kmod/intel" -I"$TOP/kmod/host" -I"$L" -I"$C" \
	-o "$W/mklbr" "$TOP/tests/analysis/mklbr.c" "$C/record_output.c" \
	"$L/buildid.c" "$L/buildid_cache.c" "$L/capture.c" "$L/decode.c" \
	"$L/hmap.c" "$L/perfdata_conv.c" "$L/data_src.c" "$L/perfdata_host.c" \
	"$L/perfdata_write.c" "$L/readall.c" "$L/symbols.c" -ldw -lelf 2> "$W/last.err"
check "mklbr builds" test $? = 0

# The loop's three branches, by objdump: opt_hot's call of opt_leaf,
# opt_leaf's return, and opt_hot's jump back to the top of the loop.
objdump -d --no-show-raw-insn "$T" > "$W/dis"
# A function's instructions, by the address objdump heads it with.
body() { awk -v a="$1" '$1 ~ "^0*" a "$" && /^[0-9a-f]+ </ { on = 1; next }
	on && /^$/ { exit } on' "$W/dis"; }
hot=$(nm "$T" | awk '$3 == "opt_hot" { print $1 }')
call=$(body "$hot" | awk '$2 == "call" && /<opt_leaf>/ { sub(":", "", $1); print $1 }')
target=$(body "$hot" | awk '$2 == "call" && /<opt_leaf>/ { print $3 }')
after=$(body "$hot" | awk -v c="$call:" 'p { sub(":", "", $1); print $1; exit } $1 == c { p = 1 }')
ret=$(body "$target" | awk '$2 == "ret" { sub(":", "", $1); print $1 }')
back=$(body "$hot" | awk '$2 ~ /^j/ && $2 != "jmp" { sub(":", "", $1); print $1, $3 }' |
	while read -r from to; do
		[ $((0x$to)) -lt $((0x$from)) ] && { echo "$from $to"; break; }
	done)
leaf=$target
check "objdump finds the loop's branches (call $call, ret $ret, back ${back:-none})" \
	test -n "$call" -a -n "$after" -a -n "$ret" -a -n "$back" -a -n "$hot"
read -r jcc top <<< "$back"
NS=200
DEPTH=15	# 5 of each branch per sample: each counted 5 * NS times
EACH=$((NS * DEPTH / 3))
F=$W/lbr.data
"$W/mklbr" "$F" "$T" $NS $DEPTH "$call-$target" "$ret-$after" "$jcc-$top:m" 2> "$W/last.err"
check "mklbr writes an LBR capture of opt_target" test $? = 0
check "perf reads it: branch stacks in the header" \
	sh -c "perf report --header-only -i '$F' | grep -q 'contains samples with branch stack'"

# What perf2bolt must write, by construction: offsets from the functions.
off() { printf '%x' $((0x$1 - 0x$2)); }
{
	echo "1 opt_hot $(off "$call" "$hot") 1 opt_leaf/2 0 0 $EACH"
	echo "1 opt_leaf/2 $(off "$ret" "$leaf") 1 opt_hot $(off "$after" "$hot") 0 $EACH"
	echo "1 opt_hot $(off "$jcc" "$hot") 1 opt_hot $(off "$top" "$hot") $EACH $EACH"
} > "$W/want.fdata"
"$BOLTBIN/perf2bolt" -p "$F" -o "$W/p2b.fdata" "$T" > "$W/p2b.log" 2>&1
check "perf2bolt reads our capture (exit 0)" test $? = 0
check "perf2bolt matched the build-id and read all $NS samples" \
	sh -c "grep -q 'matched build-id' '$W/p2b.log' &&
	       grep -q 'read $NS samples and $((NS * DEPTH)) LBR entries' '$W/p2b.log'"
check "perf2bolt's fdata holds exactly the branches written (by construction)" \
	same_lines "$W/want.fdata" "$W/p2b.fdata"
"$SKD" convert -i "$F" -f bolt --binary "$T" -o "$W/skd.fdata" 2> "$W/last.err"
check "skidless convert -f bolt" test $? = 0
check "convert -f bolt equals perf2bolt's fdata (sorted lines)" \
	same_lines "$W/p2b.fdata" "$W/skd.fdata"
"$BOLTBIN/llvm-bolt" "$T" -o "$W/opt_target.bolt" -data="$W/skd.fdata" \
	-reorder-blocks=ext-tsp > "$W/bolt.log" 2>&1
check "llvm-bolt takes our fdata (exit 0)" test $? = 0
check "llvm-bolt used the profile (2 functions with a profile, no stale data)" \
	sh -c "grep -q 'BOLT-INFO: 2 out of [0-9]* functions in the binary .* have non-empty execution profile' '$W/bolt.log' &&
	       ! grep -q 'invalid\|stale\|BOLT-ERROR' '$W/bolt.log'"
check "the BOLTed opt_target runs" "$W/opt_target.bolt"

create_llvm_prof --profile="$F" --binary="$T" --out="$W/afdo.prof" > "$W/cllp.log" 2>&1
check "create_llvm_prof reads our capture (exit 0)" test $? = 0
check "its profile is not empty" test -s "$W/afdo.prof"
llvm-profdata show --sample "$W/afdo.prof" > "$W/afdo.show" 2> "$W/last.err"
check "llvm-profdata shows opt_leaf with $EACH samples in its body" \
	grep -q "Function: opt_leaf: [0-9]*, $EACH," "$W/afdo.show"
check "llvm-profdata shows opt_hot calling opt_leaf $EACH times" \
	grep -q "calls: opt_leaf:$EACH" "$W/afdo.show"
sample_merger --profile="$F" --binary="$T" --output_file="$W/sm.afdo" > /dev/null 2>&1
check "sample_merger writes AutoFDO's text of our capture" test -s "$W/sm.afdo"
check "AutoFDO counts the branches written: $EACH each" sh -c \
	"[ \$(sed -n '/->/p' '$W/sm.afdo' | grep -c ':$EACH\$') = 3 ]"
"$SKD" convert -i "$F" -f autofdo --binary "$T" -o "$W/skd.afdo" 2> "$W/last.err"
check "skidless convert -f autofdo" test $? = 0
check "convert -f autofdo equals sample_merger's text byte for byte" \
	cmp "$W/sm.afdo" "$W/skd.afdo"
create_llvm_prof --profiler=text --profile="$W/skd.afdo" --binary="$T" \
	--format=text --out="$W/from_text.prof" > /dev/null 2>&1
check "create_llvm_prof --profiler=text takes our text" test -s "$W/from_text.prof"
create_llvm_prof --profile="$F" --binary="$T" --format=text \
	--out="$W/from_data.prof" > /dev/null 2>&1
check "and makes the same profile as from the perf.data" \
	cmp "$W/from_data.prof" "$W/from_text.prof"

# Calls into a library go through PLT stubs, functions to BOLT ("abs@PLT").
P=$W/opt_plt
cc -std=c11 -O1 -fno-builtin -fno-pie -no-pie -Wl,--emit-relocs -o "$P" \
	"$TOP/tests/analysis/opt_plt.c" 2> "$W/last.err"
check "opt_plt builds" test $? = 0
objdump -d --no-show-raw-insn "$P" > "$W/dis"
phot=$(nm "$P" | awk '$3 == "opt_plt_hot" { print $1 }')
pcall=$(body "$phot" | awk '$2 == "call" && /<abs@plt>/ { sub(":", "", $1); print $1, $3 }')
read -r pcall pstub <<< "$pcall"
pafter=$(body "$phot" | awk -v c="$pcall:" 'p { sub(":", "", $1); print $1; exit } $1 == c { p = 1 }')
pback=$(body "$phot" | awk '$2 == "jne" { sub(":", "", $1); print $1, $3; exit }')
read -r pjcc ptop <<< "$pback"
# The stub jumps to libc, which returns to the call's next instruction.
"$W/mklbr" "$W/plt.data" "$P" 20 16 "$pcall-$pstub" "$pstub-7f0000001000" \
	"7f0000001020-$pafter" "$pjcc-$ptop:m" 2> "$W/last.err"
check "mklbr writes an LBR capture of opt_plt (call $pcall, stub $pstub)" test $? = 0
"$BOLTBIN/perf2bolt" -p "$W/plt.data" -o "$W/plt.p2b" "$P" > "$W/last.err" 2>&1
"$SKD" convert -i "$W/plt.data" -f bolt --binary "$P" -o "$W/plt.fdata" 2> "$W/last.err"
check "perf2bolt names the PLT stub abs@PLT" grep -q 'abs@PLT' "$W/plt.p2b"
check "convert -f bolt equals perf2bolt's fdata with the PLT (sorted lines)" \
	same_lines "$W/plt.p2b" "$W/plt.fdata"
# An interrupt in the loop: into the kernel and back. perf2bolt drops
# such entries (--ignore-interrupt-lbr); so must we.
"$W/mklbr" "$W/kern.data" "$T" 20 16 "$call-$target" "$ret-$after" \
	"$jcc-ffffffff81000100" "ffffffff81000200-$top" 2> "$W/last.err"
check "mklbr writes a capture with branches into the kernel" test $? = 0
"$BOLTBIN/perf2bolt" -p "$W/kern.data" -o "$W/kern.p2b" "$T" > "$W/last.err" 2>&1
"$SKD" convert -i "$W/kern.data" -f bolt --binary "$T" -o "$W/kern.fdata" 2> "$W/last.err"
check "convert -f bolt equals perf2bolt's fdata with kernel entries" \
	same_lines "$W/kern.p2b" "$W/kern.fdata"
# AutoFDO's reader stops at libc's addresses, which no mapping holds here.
sample_merger --profile="$W/plt.data" --binary="$P" --output_file="$W/plt.sm" \
	> /dev/null 2>&1
"$SKD" convert -i "$W/plt.data" -f autofdo --binary "$P" -o "$W/plt.afdo" 2> "$W/last.err"
check "convert -f autofdo equals sample_merger's text with unmapped addresses" \
	cmp "$W/plt.sm" "$W/plt.afdo"

# A Golden Cove model: PEBS weights there are WEIGHT_STRUCT, which
# AutoFDO's reader does not know; record leaves the memory fields out for
# events without memory info, as perf does.
MKLBR_MODEL=sapphirerapids "$W/mklbr" "$W/spr.data" "$T" $NS $DEPTH \
	"$call-$target" "$ret-$after" "$jcc-$top:m" 2> "$W/last.err"
check "mklbr writes the capture as sim:sapphirerapids" test $? = 0
check "its samples have no WEIGHT_STRUCT (no memory event)" sh -c \
	"perf report --header-only -I -i '$W/spr.data' | grep 'sample_type = ' |
	 grep -v -q 'WEIGHT\|DATA_SRC\|ADDR'"
sample_merger --profile="$W/spr.data" --binary="$T" --output_file="$W/spr.sm" \
	> "$W/last.err" 2>&1
check "AutoFDO reads the sapphirerapids capture: the same text" cmp "$W/sm.afdo" "$W/spr.sm"

# Pipe mode (`record -o -`): AutoFDO's reader refuses a stream with a
# BUILD_ID or BRANCH_STACK HEADER_FEATURE record, which perf never sends.
# (perf2bolt needs a file: perf script adds symbols to a stream's lines.)
"$W/mklbr" - "$T" $NS $DEPTH "$call-$target" "$ret-$after" "$jcc-$top:m" \
	> "$W/pipe.data" 2> "$W/last.err"
check "mklbr writes the capture in pipe mode" test $? = 0
sample_merger --profile="$W/pipe.data" --binary="$T" --output_file="$W/pipe.sm" \
	> "$W/last.err" 2>&1
check "AutoFDO reads our pipe mode: the same text as from the file" \
	cmp "$W/sm.afdo" "$W/pipe.sm"
check "perf buildid-list finds opt_target's build-id in the stream" sh -c \
	"perf buildid-list -i '$W/pipe.data' | grep -q \"^\$(readelf -n '$T' |
	 sed -n 's/.*Build ID: //p') .*opt_target\$\""
"$SKD" convert -i "$W/pipe.data" -f bolt --binary "$T" -o "$W/pipe.fdata" 2> "$W/last.err"
check "convert reads the stream: the same fdata" same_lines "$W/skd.fdata" "$W/pipe.fdata"

# With call chains, as `skidless record -b` records by default: perf
# script then prints the chain under each sample, which perf2bolt cannot
# parse (perf's own `record -g -b` files alike; record with --call-graph
# none for perf2bolt). The feeds and AutoFDO do not mind.
"$W/mklbr" "$W/chain.data" "$T" $NS ${DEPTH}g "$call-$target" "$ret-$after" \
	"$jcc-$top:m" 2> "$W/last.err"
check "mklbr writes the capture with call chains" test $? = 0
"$SKD" convert -i "$W/chain.data" -f bolt --binary "$T" -o "$W/chain.fdata" 2> "$W/last.err"
check "with call chains: the same convert -f bolt" same_lines "$W/skd.fdata" "$W/chain.fdata"
sample_merger --profile="$W/chain.data" --binary="$T" --output_file="$W/chain.sm" \
	> /dev/null 2>&1
"$SKD" convert -i "$W/chain.data" -f autofdo --binary "$T" -o "$W/chain.afdo" 2> "$W/last.err"
check "with call chains: AutoFDO reads the same text, convert -f autofdo too" \
	sh -c "cmp '$W/sm.afdo' '$W/chain.sm' && cmp '$W/sm.afdo' '$W/chain.afdo'"

# Bad input: a clear message, exit 1, no output file.
"$W/mklbr" "$W/nolbr.data" "$T" 20 0 "$call-$target" 2> "$W/last.err"
check "mklbr writes a capture without branch stacks" test $? = 0
sample_merger --profile="$W/nolbr.data" --binary="$T" --output_file="$W/nolbr.sm" \
	> /dev/null 2>&1
"$SKD" convert -i "$W/nolbr.data" -f autofdo --binary "$T" -o "$W/nolbr.afdo" 2> "$W/last.err"
check "without branch stacks, convert -f autofdo equals sample_merger (addresses only)" \
	cmp "$W/nolbr.sm" "$W/nolbr.afdo"
# No LBR: perf2bolt -nl, sample addresses per function.
"$BOLTBIN/perf2bolt" -nl -p "$W/nolbr.data" -o "$W/nolbr.p2b" "$T" > "$W/last.err" 2>&1
check "perf2bolt -nl reads a capture without branch stacks" test -s "$W/nolbr.p2b"
"$SKD" convert -i "$W/nolbr.data" -f bolt-nl --binary "$T" -o "$W/nolbr.fdata" 2> "$W/last.err"
check "convert -f bolt-nl equals perf2bolt -nl (20 samples at the call)" sh -c \
	"cmp '$W/nolbr.p2b' '$W/nolbr.fdata' && grep -qx '1 opt_hot $(off "$call" "$hot") 20' '$W/nolbr.fdata'"
"$BOLTBIN/llvm-bolt" "$T" -o "$W/opt_target.nl" -data="$W/nolbr.fdata" > "$W/last.err" 2>&1
check "llvm-bolt takes our no_lbr fdata (exit 0)" test $? = 0
bad() { # bad DESC PATTERN ARGS...: exit 1, PATTERN on stderr, no file
	local d=$1 pat=$2
	shift 2
	rm -f "$W/bad.out"
	"$SKD" convert -o "$W/bad.out" "$@" > /dev/null 2> "$W/bad.err"
	local rc=$?
	if [ $rc = 1 ] && grep -q "$pat" "$W/bad.err" && [ ! -e "$W/bad.out" ]; then
		ok "$d: exit 1, says '$pat'"
	else
		notok "$d: exit $rc, wanted 1 and '$pat'" "$W/bad.err"
	fi
}
bad "bolt from a capture without branch stacks" "no branch stacks.*record -b" \
	-i "$W/nolbr.data" -f bolt --binary "$T"
bad "bolt without --binary" "needs --binary" -i "$F" -f bolt
bad "autofdo without --binary" "needs --binary" -i "$F" -f autofdo
bad "bolt-nl without --binary" "needs --binary" -i "$F" -f bolt-nl
bad "--binary that does not exist" "No such file" -i "$F" -f bolt \
	--binary "$W/nonexistent"
bad "--binary not in the capture" "no sample or branch .* lies in" -i "$F" \
	-f autofdo --binary /bin/true
"$W/mklbr" "$W/callstack.data" "$T" 20 3c "$call-$target" "$ret-$after" \
	"$jcc-$top" 2> "$W/last.err"
check "mklbr writes a capture with LBR call stacks" test $? = 0
bad "bolt from LBR call stacks (--call-graph lbr)" "LBR call stacks" \
	-i "$W/callstack.data" -f bolt --binary "$T"
"$SKD" convert -i "$W/callstack.data" -f autofdo --binary "$T" \
	-o "$W/callstack.afdo" 2> "$W/callstack.err"
check "autofdo from LBR call stacks: sample addresses only, and says so" sh -c \
	"grep -q 'addresses only' '$W/callstack.err' &&
	 [ \"\$(tr '\n' ' ' < '$W/callstack.afdo')\" = '0 1 $(printf %x $((0x$call - 0x400000))):20 0 ' ]"
mkdir -p "$W/rebuilt"
cc -std=c11 -O2 -fno-pie -no-pie -o "$W/rebuilt/opt_target" \
	"$TOP/tests/analysis/opt_target.c" 2> "$W/last.err"
bad "--binary rebuilt since the capture (same name, another build-id)" \
	"rebuilt since" -i "$F" -f bolt --binary "$W/rebuilt/opt_target"
bad "--binary not an ELF file" "not an ELF file" -i "$F" -f bolt \
	--binary "$TOP/README"

# ---- 2. the VM's captures ----
PERF=$(command -v perf)
mkdir -p "$W/nochain"
printf '#!/bin/sh\n[ "$1" = script ] && { shift; exec %s script --hide-call-graph "$@"; }\nexec %s "$@"\n' \
	"$PERF" "$PERF" > "$W/nochain/perf"
chmod +x "$W/nochain/perf"
B=$VMBIN/busyloop
export HOME=$CAPS/home
vm=0
check "busyloop has DWARF 4, which AutoFDO 0.19 reads (Makefile: -gdwarf-4)" sh -c \
	"readelf --debug-dump=info '$B' | grep -m1 'Version:' | grep -qw 4"
for f in "$CAPS"/*.data; do
	[ -e "$f" ] || continue
	name=$(basename "$f" .data)
	perf report --header-only -I -i "$f" > "$W/$name.hdr" 2> /dev/null
	grep -q 'contains samples with branch stack' "$W/$name.hdr" || continue
	"$SKD" convert -i "$f" -f autofdo --binary "$B" -o "$W/$name.afdo" \
		2> "$W/$name.cerr" || continue	# busyloop not in this capture
	vm=$((vm + 1))
	if grep -q 'branch_sample_type = .*CALL_STACK' "$W/$name.hdr"; then
		bad "$name: bolt from LBR call stacks" "LBR call stacks" \
			-i "$f" -f bolt --binary "$B"
		continue
	fi
	sample_merger --profile="$f" --binary="$B" --output_file="$W/$name.sm" > /dev/null 2>&1
	check "$name: convert -f autofdo equals sample_merger's text" \
		cmp "$W/$name.sm" "$W/$name.afdo"
	create_llvm_prof --profile="$f" --binary="$B" --format=text \
		--out="$W/$name.prof" > /dev/null 2>&1
	check "$name: create_llvm_prof makes a profile naming busyloop's functions" \
		grep -q "^[A-Za-z_][A-Za-z0-9_.]*:[0-9]*:" "$W/$name.prof"
	"$SKD" convert -i "$f" -f bolt --binary "$B" -o "$W/$name.fdata" 2> "$W/last.err"
	check "$name: convert -f bolt writes branches" test -s "$W/$name.fdata"
	"$BOLTBIN/llvm-bolt" "$B" -o "$W/$name.bolt" -data="$W/$name.fdata" \
		> "$W/$name.blog" 2>&1
	check "$name: llvm-bolt takes our fdata of busyloop" grep -q \
		'functions in the binary .* have non-empty execution profile' "$W/$name.blog"
	# perf2bolt reads `perf script -F pid,ip,brstack` lines, which perf
	# breaks up with the call chain when there is one: with a chain,
	# perf2bolt runs perf through a wrapper adding --hide-call-graph
	# (perf's display only; the aggregation is perf2bolt's).
	path=$PATH
	how=
	if grep -q 'sample_type = .*CALLCHAIN' "$W/$name.hdr"; then
		path=$W/nochain:$PATH
		how=" (perf script --hide-call-graph)"
	fi
	PATH=$path "$BOLTBIN/perf2bolt" -p "$f" -o "$W/$name.p2b" "$B" \
		> "$W/$name.p2b.log" 2>&1
	check "$name: perf2bolt reads the VM's capture$how" test -s "$W/$name.p2b"
	# perf2bolt adds the fall-throughs between branches (mispredicts 0):
	# its lines at our branches' places must be ours, count for count.
	sort "$W/$name.fdata" > "$W/$name.a"
	awk 'NR == FNR { k[$1" "$2" "$3" "$4" "$5" "$6] = 1; next }
	     ($1" "$2" "$3" "$4" "$5" "$6) in k' "$W/$name.a" "$W/$name.p2b" |
		sort > "$W/$name.b"
	check "$name: perf2bolt has our every branch with the same counts" \
		diff -u "$W/$name.a" "$W/$name.b"
	sort "$W/$name.p2b" | comm -23 - "$W/$name.b" > "$W/$name.rest"
	check "$name: perf2bolt's other lines are fall-throughs (no mispredicts)" \
		awk '$7 != 0 { print; bad = 1 } END { exit bad }' "$W/$name.rest"
done
check "the VM's captures in $CAPS include LBR captures of busyloop" test $vm -gt 0
# Without LBR (the timer's capture too): perf2bolt -nl on every capture,
# through the --hide-call-graph wrapper.
for f in "$CAPS"/*.data; do
	[ -e "$f" ] || continue
	name=$(basename "$f" .data)
	"$SKD" convert -i "$f" -f bolt-nl --binary "$B" -o "$W/$name.nl" \
		2> /dev/null || continue
	PATH=$W/nochain:$PATH "$BOLTBIN/perf2bolt" -nl -p "$f" -o "$W/$name.nl.p2b" \
		"$B" > /dev/null 2>&1
	check "$name: convert -f bolt-nl equals perf2bolt -nl (sorted lines)" \
		same_lines "$W/$name.nl.p2b" "$W/$name.nl"
done

echo "1..$n"
[ $fails = 0 ]
