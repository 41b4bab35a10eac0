#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: everything skidless promises, tested from this tree.
#
#   1. dependencies (Debian packages, installed when run as root)
#   2. static checks: module W=1, sparse, checkpatch --strict; userland
#      -Werror and cppcheck
#   3. host unit tests (cmocka, ASan + UBSan)
#   4. the cost benchmark: instructions per sample under callgrind
#   5. the module in a VM: Debian's kernel under QEMU TCG, kselftests
#
# Every stage writes TAP into build/check/; the last line is the sum of all
# of them: "N passed, N failed, N skipped".
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

say "dependencies"
if ! bash tests/deps.sh; then
	echo "not ok - dependencies installed" > "$OUT/deps.tap"
	bash tests/tap_summary.sh "$OUT"/*.tap
	exit 1
fi
KVER=$(vm_kernel_release)
KDIR=/lib/modules/$KVER/build
echo "VM kernel: ${KVER:-none}"

say "static checks"
S=$OUT/static.tap
# From scratch, so every warning the module has is seen again.
make -s -C "$KDIR" M="$TOP" clean > /dev/null 2>&1
make -s module KDIR="$KDIR" W=1 > "$OUT/w1.log" 2>&1
rc=$?
! grep -E "warning:|error:" "$OUT/w1.log" > /dev/null && [ $rc = 0 ]
tap "$S" $? "module builds W=1 clean against $KVER" "$OUT/w1.log"

touch kmod/*.c
make -s module KDIR="$KDIR" C=1 > "$OUT/sparse.log" 2>&1
rc=$?
! grep -E "warning:|error:" "$OUT/sparse.log" > /dev/null && [ $rc = 0 ]
tap "$S" $? "sparse (C=1) finds nothing in kmod/" "$OUT/sparse.log"

CHECKPATCH=$(bash tests/checkpatch.sh 2> "$OUT/checkpatch.log")
if [ -n "$CHECKPATCH" ]; then
	"$CHECKPATCH" --strict --no-tree --quiet --show-types -f \
		kmod/*.[ch] kmod/intel/*.[ch] kmod/sim/*.[ch] uapi/skidless.h \
		> "$OUT/checkpatch.log" 2>&1
fi
[ -n "$CHECKPATCH" ] && ! grep -E "^(ERROR|WARNING|CHECK)" "$OUT/checkpatch.log" > /dev/null
tap "$S" $? "checkpatch --strict is clean on kmod/ and uapi/ (host shim aside)" "$OUT/checkpatch.log"

make -s tools kselftests > "$OUT/userland.log" 2>&1
tap "$S" $? "userland and tests build with -Wall -Wextra -Werror" "$OUT/userland.log"

cppcheck --quiet --enable=warning,portability,performance --std=c11 \
	--error-exitcode=1 -Iuapi -Iuserland/lib -Iuserland/cli \
	-D_GNU_SOURCE -D__x86_64__ userland/ > "$OUT/cppcheck.log" 2>&1
tap "$S" $? "cppcheck finds nothing in userland/" "$OUT/cppcheck.log"

say "unit tests (ASan + UBSan)"
make -s -C tests/unit run > "$OUT/unit.log" 2>&1
rc=$?
cat build/unit/*.tap > "$OUT/unit.tap" 2>/dev/null
grep -E "^(not )?ok" "$OUT/unit.tap" | grep -c "^ok" | sed 's/$/ unit tests passed/'
if [ $rc != 0 ] && ! grep -q "^not ok" "$OUT/unit.tap"; then
	tap "$OUT/unit.tap" 1 "unit tests ran (a program crashed or failed to build)" "$OUT/unit.log"
fi

say "cost: instructions per sample, DS record to ring record (callgrind)"
bash bench/run.sh --tap "$OUT/bench.tap" > "$OUT/bench.log" 2>&1
rc=$?
grep -v "^#" "$OUT/bench.log" | tail -8
[ -s "$OUT/bench.tap" ] || tap "$OUT/bench.tap" 1 "the cost benchmark ran (rc $rc)" "$OUT/bench.log"

say "VM tests ($KVER, QEMU TCG)"
make -s vm-bin > "$OUT/vm-bin.log" 2>&1 &&
	bash tests/vm/run.sh --kernel "/boot/vmlinuz-$KVER" --ko skidless.ko \
		--bin build/vm-bin --tests tests/kselftest/list \
		--out "$OUT/vm" 2>&1 | tee "$OUT/vm.log" | grep -v "^[0-9]* passed"
cp "$OUT/vm/results.tap" "$OUT/vm.tap" 2>/dev/null ||
	tap "$OUT/vm.tap" 1 "the VM lane ran" "$OUT/vm.log"

say "summary"
echo "make check took $(( $(date +%s) - START )) s; logs in build/check/"
bash tests/tap_summary.sh "$OUT"/*.tap
