#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make demo`: build everything, boot Debian's kernel in QEMU, record a real
# profile of a hot/warm/cold workload with the timer backend and show it.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$TOP"
bash tests/deps.sh

KVER=''
for v in $(ls -1 /lib/modules | sort -rV); do
	if [ -r "/boot/vmlinuz-$v" ] && [ -d "/lib/modules/$v/build" ]; then
		KVER=$v
		break
	fi
done
[ -n "$KVER" ] || { echo "demo: no kernel with headers to boot" >&2; exit 1; }

make -s module KDIR="/lib/modules/$KVER/build"
make -s vm-bin
OUT=build/demo
bash tests/vm/run.sh --mode demo --demo /skd/bin/demo.sh \
	--kernel "/boot/vmlinuz-$KVER" --ko skidless.ko --bin build/vm-bin \
	--out "$OUT" --timeout 300 | tee "$OUT.log"

top=$(awk '/^== skidless report/ { r = 1; next }
	r && !/^#/ { for (i = 1; i < NF; i++) if ($i == "[.]" || $i == "[k]") { print $(i + 1); exit } }' "$OUT.log")
echo
if [ "$top" = hot_loop ]; then
	echo "demo: the profile's top function is hot_loop, as the workload intends"
else
	echo "demo: expected hot_loop on top, got '$top' (see $OUT.log)" >&2
	exit 1
fi
