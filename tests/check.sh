#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: everything skidless promises, tested from this tree.
#
#   1. dependencies (Debian packages, installed when run as root)
#   2. static checks: module W=1 against bookworm's 6.12 and 6.1 and
#      sid's newest kernel, sparse, checkpatch --strict; userland -Werror
#      and cppcheck; man pages and completion against --help; the
#      summary's count on fixtures (tests/tap_summary_test.sh)
#   3. host unit tests (cmocka, ASan + UBSan)
#   4. the cost benchmarks: instructions per sample under callgrind, in
#      the module's drain and in the reader; after the VM tests, the
#      recording cost against perf in one VM, counted by a QEMU plugin
#      (bench/cost.sh --short), with ratchet limits
#   5. the module in a VM: Debian's kernels under QEMU TCG, kselftests,
#      the whole suite on 6.12 and again on 6.1
#   6. the analysis side (report, annotate, writers, diff, optimizer
#      feeds) against the real consumers on the VM's captures, beside
#   7. the reliability lane: the same suite, then stress and an ioctl
#      fuzzer, on a debug kernel (KASAN, lockdep, kmemleak, UBSAN) built
#      from linux-source-6.1; libFuzzer on the userland decoders; and a
#      summary of what it survived
#   8. the Debian packages: make deb, lintian, install and purge in a
#      clean bookworm chroot, DKMS against 6.1's and 6.12's headers
#
# The debug kernel and sid's kernel tree build (niced, cached) and the
# packages' tests run (niced) from the start, while stages 2-5 run. Then
# two VMs at a time, a core each: the 6.12 VM, then the debug kernel's
# suite VM; beside them, once the debug kernel is built, the 6.1 VM, then
# the debug kernel's stress VM. The analysis (niced) and the userland
# fuzzers (each target two minutes, two at a time, niced more) take what
# the VMs leave.
#
# Every stage writes TAP into build/check/; tests/tap_summary.sh sums them
# up, its last line "N passed, N failed, N skipped", N counting distinct
# tests: a kselftest, in-VM shell test, unit test function or analysis
# script is one test whose TAP lines are its cases, and a result reads
# "TEST [CONFIGURATION]: CASE", so the same test on another sim model,
# capture or kernel (the debug kernel reruns the VM suite) counts once and
# fails if it fails on any. Before that line: per file its tests, cases,
# configurations and result lines, and every failing or skipped line.
# make check fails on any failure, on malformed TAP and on any skip: it
# installs everything a test needs. Tests of the real PMU, which these
# machines lack, are listed apart as "needs hardware".
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$TOP/build/check
cd "$TOP"
rm -rf "$OUT"
mkdir -p "$OUT"
START=$(date +%s)

say() { printf '\n== %s\n' "$*"; }

# tap FILE RC DESCRIPTION [LOG]: one result line, with the log on failure.
tap() {
	local file=$1 rc=$2 desc=$3 log=${4:-}
	if [ "$rc" = 0 ]; then
		echo "ok - $desc" | tee -a "$file"
	else
		echo "not ok - $desc" | tee -a "$file"
		[ -n "$log" ] && [ -s "$log" ] && sed -n '1,40s/^/#   /p' "$log" | tee -a "$file"
	fi
}

# The kernel the VM boots, and whose headers the module is built against.
vm_kernel_release() {
	local v
	for v in $(ls -1 /lib/modules 2>/dev/null | sort -rV); do
		if [ -r "/boot/vmlinuz-$v" ] && [ -d "/lib/modules/$v/build" ]; then
			echo "$v"
			return
		fi
	done
}

# The newest series of each (6.1, 6.12) but the VM's: built, and booted
# by the second VM lane if its image is installed.
other_kernel_releases() {
	local v
	for v in $(ls -1 /lib/modules 2>/dev/null | sort -rV); do
		[ -d "/lib/modules/$v/build" ] || continue
		[ "${v%.*}" != "${KVER%.*}" ] || continue
		echo "$v"
	done | awk -F. '!seen[$1 "." $2]++'
}

# The module's sources, without this tree's build output, into DIR.
copy_module_tree() {
	rm -rf "$1" && mkdir -p "$1/tests/kselftest" &&
		cp -r Kbuild kmod uapi "$1/" &&
		cp -r tests/kselftest/modules "$1/tests/kselftest/" &&
		find "$1" \( -name "*.o" -o -name ".*.cmd" -o -name "*.mod" \
			-o -name "*.mod.c" -o -name "*.ko" -o -name "*.o.d" \
			-o -name event_table.c -o -name gen_events \
			-o -name Module.symvers -o -name modules.order \) -delete
}

say "dependencies"
if ! bash tests/deps.sh; then
	echo "not ok - dependencies installed" > "$OUT/deps.tap"
	bash tests/tap_summary.sh "$OUT"/*.tap
	exit 1
fi
KVER=$(vm_kernel_release)
KDIR=/lib/modules/$KVER/build
echo "VM kernel: ${KVER:-none}"

# Longest first: the debug kernel (5 to 8 minutes from scratch, niced
# beside the stages below; cached after).
( nice -n 10 bash tests/vm/debug-kernel.sh > "$OUT/debug-kernel.dir" \
	2> "$OUT/debug-kernel.log"; echo $? > "$OUT/debug-kernel.rc" ) &
DEBUG_KERNEL_JOB=$!

# The newest kernel Debian has (sid): its source prepared for modules
# (niced, cached; about 2.5 minutes the first time, mostly the download
# and unpacking), then the module built against it W=1, in a tree of its
# own copied now, before the static checks clean this one.
copy_module_tree build/kmod-sid
( nice -n 10 bash tests/sid-kernel.sh > "$OUT/sid-kernel.dir" 2> "$OUT/sid-kernel.log" &&
	nice -n 10 make -s -C "$(tail -n 1 "$OUT/sid-kernel.dir")" M="$TOP/build/kmod-sid" \
		SKD_SIM=y W=1 modules > "$OUT/w1-sid.log" 2>&1
  echo $? > "$OUT/sid-kernel.rc" ) &
SID_KERNEL_JOB=$!

# The Debian packages, niced from here on beside the stages below: make
# deb, lintian, install and purge in a clean bookworm chroot, then DKMS
# against both bookworm kernels' headers in that chroot. Mostly downloads
# and dpkg (3 to 4 and about 5 minutes the first time, in a build tree of
# their own, build/deb); make deb once, dkms-check takes its packages.
( nice -n 10 bash tests/packages.sh > "$OUT/packages.tap" 2> "$OUT/packages.log"
  SKD_DEB_BUILT=1 nice -n 10 bash tests/dkms-check.sh > "$OUT/dkms.tap" \
	2> "$OUT/dkms.log" ) &
PACKAGES_JOB=$!

say "static checks"
S=$OUT/static.tap
# One test on each kernel it is built against (the debug kernel's below).
MODULES_W1="modules (skidless, skidless_sim) build W=1 clean"
# From scratch, so every warning the module has is seen again.
make -s -C "$KDIR" M="$TOP" clean > /dev/null 2>&1
make -s module KDIR="$KDIR" SIM=1 W=1 > "$OUT/w1.log" 2>&1
rc=$?
! grep -iE "warning:|error:" "$OUT/w1.log" > /dev/null && [ $rc = 0 ]
tap "$S" $? "$MODULES_W1 [$KVER]" "$OUT/w1.log"

# bookworm's other kernel series (6.1 beside the VM's 6.12): the same code
# must build there too, API drift and <asm/msr-index.h> names included.
# Its modules are the ones the second VM lane loads.
for other in $(other_kernel_releases); do
	copy_module_tree "build/kmod-$other" &&
		make -s -C "/lib/modules/$other/build" M="$TOP/build/kmod-$other" \
			SKD_SIM=y W=1 modules > "$OUT/w1-$other.log" 2>&1
	rc=$?
	! grep -iE "warning:|error:" "$OUT/w1-$other.log" > /dev/null && [ $rc = 0 ]
	tap "$S" $? "$MODULES_W1 [$other]" "$OUT/w1-$other.log"
done

# Host builds name the registers as the kernel does (kmod/host/msr_names.h):
# the same values as in every installed kernel's headers.
bash tests/msr_names.sh --tap "$S" > /dev/null 2>&1 ||
	grep -q "^not ok" "$S" || tap "$S" 1 "tests/msr_names.sh ran"

touch kmod/*.c kmod/intel/*.c kmod/sim/*.c
make -s module KDIR="$KDIR" SIM=1 C=1 > "$OUT/sparse.log" 2>&1
rc=$?
! grep -iE "warning:|error:" "$OUT/sparse.log" > /dev/null && [ $rc = 0 ]
tap "$S" $? "sparse (C=1) finds nothing in kmod/" "$OUT/sparse.log"

CHECKPATCH=$(bash tests/checkpatch.sh 2> "$OUT/checkpatch.log")
if [ -n "$CHECKPATCH" ]; then
	"$CHECKPATCH" --strict --no-tree --quiet --show-types -f \
		kmod/*.[ch] kmod/intel/*.[ch] kmod/sim/*.[ch] uapi/skidless.h \
		> "$OUT/checkpatch.log" 2>&1
fi
[ -n "$CHECKPATCH" ] && ! grep -E "^(ERROR|WARNING|CHECK)" "$OUT/checkpatch.log" > /dev/null
tap "$S" $? "checkpatch --strict is clean on kmod/ and uapi/ (host shim aside)" "$OUT/checkpatch.log"

# The package's module holds no part of the device model (a test-only part must not ship):
# none of kmod/sim/ is linked into skidless.ko.
if [ -r skidless.mod ] && [ -r skidless_sim.mod ]; then
	! grep "/kmod/sim/" skidless.mod > "$OUT/sim-split.log" &&
		grep -q "/kmod/sim/" skidless_sim.mod
else
	echo "skidless.mod or skidless_sim.mod missing after make module SIM=1" > "$OUT/sim-split.log"
	false
fi
tap "$S" $? "skidless.ko links nothing of the device model; skidless_sim.ko holds it" "$OUT/sim-split.log"

make -s tools kselftests > "$OUT/userland.log" 2>&1
tap "$S" $? "userland and tests build with -Wall -Wextra -Werror" "$OUT/userland.log"

# Man pages and completion against every subcommand's --help.
bash tests/docs.sh > "$OUT/docs.tap" 2> "$OUT/docs.log" ||
	grep -q "^not ok" "$OUT/docs.tap" || tap "$OUT/docs.tap" 1 "tests/docs.sh ran" "$OUT/docs.log"
grep "^not ok" "$OUT/docs.tap"

# The summary's own count, on fixtures: one test of many cases.
bash tests/tap_summary_test.sh > "$OUT/tap_summary.tap" 2>&1 ||
	grep -q "^not ok" "$OUT/tap_summary.tap" ||
	tap "$OUT/tap_summary.tap" 1 "tests/tap_summary_test.sh ran"

cppcheck --quiet --enable=warning,portability,performance --std=c11 \
	--error-exitcode=1 -Iuapi -Iuserland/lib -Iuserland/cli \
	-D_GNU_SOURCE -D__x86_64__ userland/ > "$OUT/cppcheck.log" 2>&1
tap "$S" $? "cppcheck finds nothing in userland/" "$OUT/cppcheck.log"

say "unit tests (ASan + UBSan)"
make -s -C tests/unit run > "$OUT/unit.log" 2>&1
rc=$?
# One test per cmocka test function, named after its program: two
# programs may have functions of the same name. cmocka's skips read
# "not ok N # SKIP NAME".
for t in build/unit/*.tap; do
	[ -e "$t" ] || continue
	p=$(basename "$t" .tap)
	p=${p#test_}
	sed -E -e "s/^((not )?ok [0-9]+) # SKIP (.*)/\\1 - $p\/\\3 # SKIP/" -e t \
		-e "s/^((not )?ok [0-9]+ - )/\\1$p\//" "$t"
done > "$OUT/unit.tap"
grep -E "^(not )?ok" "$OUT/unit.tap" | grep -c "^ok" | sed 's/$/ unit tests passed/'
if [ $rc != 0 ] && ! grep -q "^not ok" "$OUT/unit.tap"; then
	tap "$OUT/unit.tap" 1 "unit tests ran (a program crashed or failed to build)" "$OUT/unit.log"
fi

say "perf.data: Debian's perf reads what skidless writes, and back"
make -s tools > "$OUT/perfdata.log" 2>&1
bash tests/perfdata/perf_check.sh "$TOP/build/perfdata" > "$OUT/perfdata.tap" 2>> "$OUT/perfdata.log"
rc=$?
grep -c "^ok" "$OUT/perfdata.tap" | sed 's/$/ perf.data results ok/'
[ $rc = 0 ] || grep -q "^not ok" "$OUT/perfdata.tap" ||
	tap "$OUT/perfdata.tap" 1 "perf.data tests ran" "$OUT/perfdata.log"

say "cost: instructions per sample, DS record to ring record and ring record to perf.data (callgrind)"
bash bench/run.sh --tap "$OUT/bench.tap" > "$OUT/bench.log" 2>&1
rc=$?
grep -v "^#" "$OUT/bench.log" | tail -8
[ -s "$OUT/bench.tap" ] || tap "$OUT/bench.tap" 1 "the cost benchmark ran (rc $rc)" "$OUT/bench.log"
bash bench/reader_cost.sh --tap "$OUT/bench-reader.tap" > "$OUT/bench-reader.log" 2>&1
rc=$?
grep -v "^#" "$OUT/bench-reader.log" | head -4
[ -s "$OUT/bench-reader.tap" ] ||
	tap "$OUT/bench-reader.tap" 1 "the reader's cost benchmark ran (rc $rc)" "$OUT/bench-reader.log"

say "VM tests ($KVER, QEMU TCG)"
make -s vm-bin > "$OUT/vm-bin.log" 2>&1
VM_BIN_RC=$?
# The same suite on bookworm's other kernel (6.1), with the modules built
# against its headers above, in a second VM beside this one once the
# debug kernel is built (the core that build takes is then free).
OTHER_VM=$(for v in $(other_kernel_releases); do
	[ -r "/boot/vmlinuz-$v" ] && echo "$v"; done | head -n 1)
OTHER_SERIES=${OTHER_VM%.*}
OTHER_OUT=$OUT/vm-${OTHER_SERIES:-other}
( until [ -s "$OUT/debug-kernel.rc" ]; do sleep 5; done
  bash tests/vm/run.sh --kernel "/boot/vmlinuz-$OTHER_VM" \
	--ko "build/kmod-$OTHER_VM/skidless.ko" \
	--sim-ko "build/kmod-$OTHER_VM/skidless_sim.ko" \
	--test-ko "build/kmod-$OTHER_VM/tests/kselftest/modules/kvm_intel.ko" \
	--bin build/vm-bin --tests tests/kselftest/list --timeout 1500 \
	--out "$OTHER_OUT" > "$OTHER_OUT.log" 2>&1 ) &
OTHER_VM_JOB=$!
[ $VM_BIN_RC = 0 ] &&
	bash tests/vm/run.sh --kernel "/boot/vmlinuz-$KVER" --ko skidless.ko \
		--sim-ko skidless_sim.ko \
		--test-ko tests/kselftest/modules/kvm_intel.ko --bin build/vm-bin --tests tests/kselftest/list --timeout 1500 \
		--out "$OUT/vm" 2>&1 | tee "$OUT/vm.log" | grep -v "^[0-9]* passed"
cp "$OUT/vm/results.tap" "$OUT/vm.tap" 2>/dev/null ||
	tap "$OUT/vm.tap" 1 "the VM lane ran" "$OUT/vm.log"

say "cost: skidless record against perf record, every guest instruction counted (QEMU plugin)"
bash bench/cost.sh --short --limits bench/cost_limits --tap "$OUT/cost.tap" \
	--out "$OUT/cost" > "$OUT/cost.log" 2>&1
rc=$?
grep -v "^#" "$OUT/cost.log" | grep -E "ratio|not ok|^perf|^skidless"
[ -s "$OUT/cost.tap" ] || tap "$OUT/cost.tap" 1 "the recording cost benchmark ran (rc $rc)" "$OUT/cost.log"

say "perf 6.1 reads the captures made in the VM"
bash tests/perfdata/vm_perf.sh "$OUT/vm/tap.log" build/vm-bin > "$OUT/vm-perf.tap" 2>&1
grep -E "^(not )?ok" "$OUT/vm-perf.tap"

# Beside the reliability lane, niced: the consumers' answers do not
# depend on time, the debug kernel's VMs do.
( nice -n 5 bash tests/analysis/run.sh "$OUT/vm/tap.log" build/vm-bin \
	"$OUT/analysis" > "$OUT/analysis.tap" 2> "$OUT/analysis.log" ) &
ANALYSIS_JOB=$!

# The second VM lane's results, when it is done: the same tests as the
# first, on another kernel.
other_vm_results() {
	wait "$OTHER_VM_JOB"
	say "VM tests on ${OTHER_VM:-the other bookworm kernel} (QEMU TCG), beside the others"
	grep -E "^  |FAIL|^vm:" "$OTHER_OUT.log" | grep -v " 0 failed"
	if [ -r "$OTHER_OUT/results.tap" ]; then
		# run.sh labels each result with the kernel: the summary
		# counts each test once, whatever the kernels it ran on
		cp "$OTHER_OUT/results.tap" "$OTHER_OUT.tap"
	else
		tap "$OTHER_OUT.tap" 1 "the VM lane on ${OTHER_VM:-the 6.1 kernel of bookworm (linux-image-amd64)} ran" "$OTHER_OUT.log"
	fi
}

say "reliability lane: debug kernel, stress, fuzzing"
# Niced: the VMs' tests measure time, the fuzzers only spend it.
nice -n 10 bash tests/fuzz/run.sh --seconds "${SKD_FUZZ_SECONDS:-120}" -j 2 \
	--tap "$OUT/fuzz.tap" > "$OUT/fuzz.log" 2>&1 &
FUZZ_JOB=$!
wait "$DEBUG_KERNEL_JOB"
D=$OUT/debug.tap
if [ "$(cat "$OUT/debug-kernel.rc" 2>/dev/null)" = 0 ]; then
	DEBUG_KDIR=$(tail -n 1 "$OUT/debug-kernel.dir")
	tap "$D" 0 "debug kernel: $(grep -o 'built in [0-9]* s' "$OUT/debug-kernel.log" || echo "cached") ($DEBUG_KDIR)"
	# The module once more, against the debug kernel, in a tree of its own.
	copy_module_tree build/debug-kmod &&
		make -s -C "$DEBUG_KDIR" M="$TOP/build/debug-kmod" SKD_SIM=y W=1 modules \
			> "$OUT/debug-kmod.log" 2>&1
	rc=$?
	! grep -iE "warning:|error:" "$OUT/debug-kmod.log" > /dev/null && [ $rc = 0 ]
	tap "$D" $? "$MODULES_W1 [$(cat "$DEBUG_KDIR/include/config/kernel.release" 2>/dev/null || echo "debug kernel")]" "$OUT/debug-kmod.log"
	# Two VMs at once, a core each, each ending with its own kmemleak
	# scan and lockdep check: the whole suite but its million-call fuzz
	# run (stress.list has one sized for this kernel); stress.list, its
	# 1000 load/unload cycles first. About 13 and 12 minutes.
	# Not lockdown.sh nor kmod_sig.sh: the debug kernel has no lockdown
	# LSM (tests/vm/debug-kernel/config), and lockdown would bar
	# kmemleak's scan. The command's PMU tests on two models (legacy and
	# architectural LBR, the hybrid part): the kernel paths the others reach are the PMU
	# tests' own, which run on every model. Not perf_export.sh: it only
	# hands captures to the host's perf, which reads the first lane's; not
	# dwarf.sh, whose kernel side (the stack copy) user_stack covers.
	grep -v '^fuzz_device \|^lockdown\|^kmod_sig\|^perf_export\|^dwarf\|^cli_pmu.sh .* \(skylake-htoff\|icelake\|sapphirerapids\)$' \
		tests/kselftest/list > "$OUT/debug-suite.list"
	cp tests/kselftest/stress.list "$OUT/debug-stress.list"
	# The suite VM takes the 6.12 VM's core now, the stress VM the
	# 6.1 VM's when it is done.
	vms=()
	for lane in suite stress; do
		[ $lane = stress ] && other_vm_results
		list=$OUT/debug-$lane.list
		bash tests/vm/run.sh --kernel "$DEBUG_KDIR/arch/x86/boot/bzImage" \
			--no-pvh --ko build/debug-kmod/skidless.ko \
			--sim-ko build/debug-kmod/skidless_sim.ko \
			--test-ko build/debug-kmod/tests/kselftest/modules/kvm_intel.ko \
			--bin build/vm-bin \
			--tests $list --mem 2G --timeout 2400 \
			--out "$OUT/debug-$lane" > "$OUT/debug-$lane.log" 2>&1 &
		vms+=($!)
	done
	wait "${vms[@]}"
	for lane in suite stress; do
		grep -E "^  |FAIL|^vm:" "$OUT/debug-$lane.log" | grep -v " 0 failed"
		# the first VM lane's tests, on another kernel (run.sh labels
		# each result with it): the summary counts each test once
		cat "$OUT/debug-$lane/results.tap" >> "$D" 2>/dev/null ||
			tap "$D" 1 "the debug-kernel $lane VM ran" "$OUT/debug-$lane.log"
	done
else
	tap "$D" 1 "the debug kernel builds from linux-source-6.1" "$OUT/debug-kernel.log"
	other_vm_results
fi
wait "$FUZZ_JOB"
[ -s "$OUT/fuzz.tap" ] || tap "$OUT/fuzz.tap" 1 "the userland fuzzers ran" "$OUT/fuzz.log"
grep -E "^(not )?ok" "$OUT/fuzz.tap"
bash tests/reliability_summary.sh "$OUT" | tee "$OUT/reliability.txt"

say "analysis: the real consumers read the VM's captures"
wait "$ANALYSIS_JOB"
[ -s "$OUT/analysis.tap" ] || tap "$OUT/analysis.tap" 1 "the analysis tests ran" "$OUT/analysis.log"
grep -E "^(not )?ok" "$OUT/analysis.tap"

say "packages: make deb, lintian, a clean bookworm chroot, DKMS on 6.1 and 6.12"
wait "$PACKAGES_JOB"
# The modules DKMS built there, each loaded and sampled with in a VM on
# its kernel (about 25 s for both; build/vm-bin is the VM lane's).
bash tests/dkms-vm.sh > "$OUT/dkms-vm.tap" 2> "$OUT/dkms-vm.log"
for t in packages dkms dkms-vm; do
	[ -s "$OUT/$t.tap" ] || tap "$OUT/$t.tap" 1 "tests/$t ran" "$OUT/$t.log"
done
grep -hE "^(not )?ok" "$OUT/packages.tap" "$OUT/dkms.tap" "$OUT/dkms-vm.tap" |
	grep -c "^ok" | sed 's/$/ package results ok/'
grep -h "^not ok" "$OUT/packages.tap" "$OUT/dkms.tap" "$OUT/dkms-vm.tap"

say "static: the module against sid's kernel (built beside the stages above)"
wait "$SID_KERNEL_JOB"
SID_SOURCE=$(sed -n 's/^sid-kernel: \(linux-source-[^ ]* [^ ]*\).*/\1/p' "$OUT/sid-kernel.log" | tail -n 1)
cat "$OUT/sid-kernel.log" "$OUT/w1-sid.log" > "$OUT/w1-sid-all.log" 2>/dev/null
[ "$(cat "$OUT/sid-kernel.rc")" = 0 ] && ! grep -iE "warning:|error:" "$OUT/w1-sid.log" > /dev/null
tap "$S" $? "$MODULES_W1 [sid: ${SID_SOURCE:-linux-source}]: $(grep -o 'prepared in [0-9]* s' "$OUT/sid-kernel.log" || echo "tree cached")" "$OUT/w1-sid-all.log"

say "summary"
echo "make check took $(( $(date +%s) - START )) s; logs in build/check/"
# Everything a test needs is installed above: a skip here is a failure.
# The stages' files in the order they ran, then any other.
taps=()
for t in deps static tap_summary docs unit perfdata bench vm vm-perf debug fuzz \
	analysis packages dkms; do
	[ -e "$OUT/$t.tap" ] && taps+=("$OUT/$t.tap")
done
for t in "$OUT"/*.tap; do
	[[ " ${taps[*]} " == *" $t "* ]] || taps+=("$t")
done
bash tests/tap_summary.sh --no-skips "${taps[@]}"
