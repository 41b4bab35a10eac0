#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the reliability lane's debug kernel, or find it in the cache.
#
#   tests/vm/debug-kernel.sh [-j N]
#
# Source: Debian's linux-source-6.1 (/usr/src/linux-source-6.1.tar.xz).
# Config: allnoconfig plus tests/vm/debug-kernel/config (KASAN, lockdep,
# kmemleak, UBSAN, ...), every line of which must survive olddefconfig.
# The build lives in ~/.cache/skidless-vm/debug-KEY, KEY a hash of the
# config, the source package version, the compiler and this script, so
# it is built once per change. Prints the build directory: the KDIR to
# build modules with, and arch/x86/boot/bzImage in it is what QEMU boots
# (with run.sh --no-pvh: this config's vmlinux triple-faults through the
# PVH entry before the console is up, the bzImage boots).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FRAGMENT=$HERE/debug-kernel/config
TARBALL=/usr/src/linux-source-6.1.tar.xz
JOBS=$(nproc)
[ "${1:-}" = -j ] && JOBS=$2

die() { echo "debug-kernel: $*" >&2; exit 2; }

[ -r "$TARBALL" ] || die "no $TARBALL: apt-get install linux-source-6.1"
for tool in flex bison bc gcc make; do
	command -v $tool > /dev/null || die "$tool not found: apt-get install flex bison bc"
done
[ -r /usr/include/libelf.h ] || die "objtool needs libelf.h: apt-get install libelf-dev"

SRCVER=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || stat -c %s "$TARBALL")
KEY=$( (cat "$FRAGMENT" "${BASH_SOURCE[0]}"; echo "$SRCVER"; gcc --version | head -1) |
	sha1sum | cut -c1-12)
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/skidless-vm
SRC=$CACHE/linux-source-$SRCVER
OUT=$CACHE/debug-$KEY
mkdir -p "$CACHE"

# One build at a time (make check and make demo may both want it).
exec 9> "$CACHE/debug-kernel.lock"
flock 9

if [ -e "$OUT/.skd-built" ]; then
	echo "$OUT"
	exit 0
fi

if [ ! -e "$SRC/.skd-unpacked" ]; then
	echo "debug-kernel: unpacking $TARBALL" >&2
	rm -rf "$SRC" "$SRC.tmp"
	mkdir -p "$SRC.tmp"
	# Documentation/ is most of the tarball; Kconfig needs one file of it.
	tar -xJf "$TARBALL" -C "$SRC.tmp" --strip-components=1 \
		--exclude='linux-source-6.1/Documentation'
	tar -xJf "$TARBALL" -C "$SRC.tmp" --strip-components=1 \
		linux-source-6.1/Documentation/Kconfig
	touch "$SRC.tmp/.skd-unpacked"
	mv "$SRC.tmp" "$SRC"
fi

rm -rf "$OUT"
mkdir -p "$OUT"
make -s -C "$SRC" O="$OUT" KCONFIG_ALLCONFIG="$FRAGMENT" allnoconfig > /dev/null

# A line Kconfig dropped (a missing dependency) would quietly weaken the
# kernel: refuse instead.
bad=0
while IFS= read -r line; do
	case "$line" in ''|'#'*) continue ;; esac
	sym=${line%%=*} val=${line#*=}
	if [ "$val" = n ]; then
		grep -q "^$sym=" "$OUT/.config" || continue
	else
		grep -qxF "$line" "$OUT/.config" && continue
	fi
	echo "debug-kernel: $line did not survive olddefconfig" \
		"(now: $(grep -E "^$sym=|^# $sym is not set" "$OUT/.config" || echo unset))" >&2
	bad=1
done < "$FRAGMENT"
[ $bad = 0 ] || die "fix $FRAGMENT (a dependency is missing)"

echo "debug-kernel: building in $OUT with -j$JOBS" >&2
t0=$(date +%s)
if ! make -s -C "$OUT" -j"$JOBS" bzImage modules > "$OUT/build.log" 2>&1; then
	tail -n 30 "$OUT/build.log" >&2
	die "build failed; log in $OUT/build.log"
fi
echo "debug-kernel: built in $(( $(date +%s) - t0 )) s" >&2
touch "$OUT/.skd-built"
echo "$OUT"
