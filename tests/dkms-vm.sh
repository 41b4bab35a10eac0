#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The modules DKMS built in make dkms-check (tests/dkms-check.sh keeps
# them in build/dkms-check/skidless-KERNEL.ko), each loaded in the VM on
# the Debian kernel it was built for, /boot/vmlinuz-KERNEL, and sampled
# with (the sampling kselftest on the timer backend: no simulated PMU,
# which the package does not ship). TAP on stdout, one result a kernel.
# Needs build/vm-bin (make vm-bin). About 40 s a kernel.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

. tests/bookworm_chroot.sh
tap_init dkms-vm.sh

KEPT=build/dkms-check
OUT=build/dkms-vm
rm -rf "$OUT" && mkdir -p "$OUT"
echo "sampling 120" > "$OUT/tests.list"

[ -x build/vm-bin/sampling ]
ok $? "build/vm-bin has the sampling test (make vm-bin)"
kos=$(ls "$KEPT"/skidless-*.ko 2> /dev/null)
[ -n "$kos" ]
ok $? "make dkms-check kept DKMS-built modules in $KEPT"
for ko in $kos; do
	k=${ko##*/skidless-}
	k=${k%.ko}
	if [ ! -r "/boot/vmlinuz-$k" ]; then
		ok 1 "$k: no /boot/vmlinuz-$k to boot (install linux-image-$k: DKMS built for the archive's kernel)"
		continue
	fi
	t=$SECONDS
	bash tests/vm/run.sh --kernel "/boot/vmlinuz-$k" --ko "$ko" \
		--bin build/vm-bin --tests "$OUT/tests.list" --timeout 600 \
		--out "$OUT/$k" > "$OUT/$k.log" 2>&1
	rc=$?
	# insmod and sampling both ran and passed, nothing else.
	# (run.sh labels each result with its configuration: "insmod [KERNEL]:")
	grep -q '^ok [0-9]* insmod\( \[[^]]*\]\)\{0,1\}: insmod skidless.ko' "$OUT/$k/results.tap" &&
		[ "$(grep -c '^ok [0-9]* sampling\( \[[^]]*\]\)\{0,1\}: ' "$OUT/$k/results.tap")" -gt 0 ] || rc=1
	ok $rc "$k: the DKMS-built module loads and samples in the VM ($(tail -n 1 "$OUT/$k.log"), $((SECONDS - t)) s)" "$OUT/$k.log"
done
finish
