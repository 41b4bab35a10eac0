#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A module build tree for the newest kernel Debian ships (sid), or the
# cached one: make check compiles the module against it (W=1), so API
# changes are seen before a user's distribution reaches them.
#
#   tests/sid-kernel.sh
#
# From sid, through an apt configuration of its own (the system's sources
# and state are not touched), into ~/.cache/skidless-vm/sid-apt:
#   linux-source-X.Y          the source, Debian's patches applied; X.Y is
#                             the newest series sid has
#   linux-headers-VER-amd64   Debian's config for it and its Module.symvers
# The headers packages' own tools (modpost, objtool, fixdep) are built for
# sid's C library, so `make modules_prepare` builds them from the source
# with this machine's compiler, from Debian's config: olddefconfig drops
# what the compiler lacks, and BTF is off (pahole older than the kernel
# wants). Module.symvers lets modpost check that every symbol the module
# takes is exported to it.
#
# The tree lives in ~/.cache/skidless-vm/sid-VER-KEY, KEY a hash of this
# script and the compiler, so it is prepared once per sid upload. Prints
# the build directory (the KDIR). When sid cannot be reached, fails; only
# a tree prepared before is used then, and the log says so.
set -euo pipefail

die() { echo "sid-kernel: $*" >&2; exit 2; }

for tool in apt-get apt-cache dpkg-deb flex bison bc gcc make; do
	command -v $tool > /dev/null || die "$tool not found: apt-get install flex bison bc"
done
[ -r /usr/include/libelf.h ] || die "objtool needs libelf.h: apt-get install libelf-dev"
[ -r /usr/include/openssl/ssl.h ] || die "sign-file needs openssl: apt-get install libssl-dev"

CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/skidless-vm
APT=$CACHE/sid-apt
MIRROR=${SKD_SID_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$APT/lists/partial" "$APT/archives/partial" "$APT/cache"
echo "deb $MIRROR sid main" > "$APT/sources.list"
# The system's apt.conf.d still applies (a proxy, say), but not its hooks,
# which would refresh the system's caches from these lists.
printf '#clear %s;\n' APT::Update::Pre-Invoke APT::Update::Post-Invoke \
	APT::Update::Post-Invoke-Success > "$APT/apt.conf"

exec 9> "$CACHE/sid-kernel.lock"
flock 9

aptc() {
	"$@" -c "$APT/apt.conf" -o Dir::Etc::sourcelist="$APT/sources.list" \
		-o Dir::Etc::sourceparts=/dev/null \
		-o Dir::State::Lists="$APT/lists" \
		-o Dir::Cache="$APT/cache" -o Dir::Cache::pkgcache= \
		-o Dir::Cache::srcpkgcache= \
		-o Dir::Cache::archives="$APT/archives"
}

# The last tree prepared, for a machine that cannot reach sid now.
cached_tree() {
	local d
	d=$(ls -1td "$CACHE"/sid-*-*/.skd-built 2>/dev/null | head -n 1)
	[ -n "$d" ] || die "cannot reach sid ($MIRROR) and no tree prepared before"
	echo "sid-kernel: cannot reach sid ($MIRROR); using the tree prepared before: $(dirname "$d")" >&2
	echo "sid-kernel: $(cat "$(dirname "$d")/skd-source") (cached)" >&2
	dirname "$d"
	exit 0
}

t0=$(date +%s)
aptc apt-get -q update > "$APT/update.log" 2>&1 || { cat "$APT/update.log" >&2; cached_tree; }
SRCPKG=$(aptc apt-cache pkgnames linux-source- | sort -V | tail -n 1)
[ -n "$SRCPKG" ] || die "sid has no linux-source-* package"
SERIES=${SRCPKG#linux-source-}
VER=$(aptc apt-cache show "$SRCPKG" | sed -n 's/^Version: //p' | sort -V | tail -n 1)
# The amd64 flavour's headers of the same upload (linux-headers-7.2.13+deb14-amd64).
HDRPKG=$(aptc apt-cache pkgnames "linux-headers-${VER%%-*}+" | grep -E -- '\+deb[0-9]+-amd64$' | head -n 1)
[ -n "$HDRPKG" ] || die "sid has no amd64 headers package for $SRCPKG $VER"
HVER=$(aptc apt-cache show "$HDRPKG" | sed -n 's/^Version: //p' | head -n 1)
[ "$HVER" = "$VER" ] || die "$HDRPKG is $HVER, $SRCPKG is $VER: sid is between uploads"
echo "sid-kernel: $SRCPKG $VER" >&2

KEY=$( (cat "${BASH_SOURCE[0]}"; gcc --version | head -1) | sha1sum | cut -c1-12)
SRC=$CACHE/sid-src-$VER
OUT=$CACHE/sid-$VER-$KEY
if [ -e "$OUT/.skd-built" ]; then
	echo "sid-kernel: cached in $OUT" >&2
	echo "$OUT"
	exit 0
fi

echo "sid-kernel: downloading $SRCPKG and $HDRPKG $VER" >&2
(cd "$APT/archives" && rm -f ./*.deb &&
	aptc apt-get -q download "$SRCPKG=$VER" "$HDRPKG=$VER") > "$APT/download.log" 2>&1 ||
	{ cat "$APT/download.log" >&2; die "download failed"; }
echo "sid-kernel: downloaded in $(( $(date +%s) - t0 )) s" >&2

if [ ! -e "$SRC/.skd-unpacked" ]; then
	echo "sid-kernel: unpacking $SRCPKG $VER" >&2
	rm -rf "$SRC" "$SRC.tmp" "$CACHE"/sid-src-*
	mkdir -p "$SRC.tmp/deb"
	dpkg-deb --fsys-tarfile "$APT/archives/${SRCPKG}_${VER}_all.deb" |
		tar -x -C "$SRC.tmp/deb" "./usr/src/$SRCPKG.tar.xz"
	# Documentation/ is most of the tarball; Kconfig needs one file of it.
	tar -xJf "$SRC.tmp/deb/usr/src/$SRCPKG.tar.xz" -C "$SRC.tmp" \
		--strip-components=1 --exclude="$SRCPKG/Documentation"
	tar -xJf "$SRC.tmp/deb/usr/src/$SRCPKG.tar.xz" -C "$SRC.tmp" \
		--strip-components=1 "$SRCPKG/Documentation/Kconfig"
	rm -rf "$SRC.tmp/deb"
	touch "$SRC.tmp/.skd-unpacked"
	mv "$SRC.tmp" "$SRC"
fi

rm -rf "$CACHE"/sid-[0-9]*-* "$OUT.hdr"
mkdir -p "$OUT" "$OUT.hdr"
dpkg-deb -x "$APT/archives/${HDRPKG}_${VER}_amd64.deb" "$OUT.hdr"
cp "$OUT.hdr/usr/src/$HDRPKG/.config" "$OUT.hdr/usr/src/$HDRPKG/Module.symvers" "$OUT/"
rm -rf "$OUT.hdr"
"$SRC/scripts/config" --file "$OUT/.config" -d DEBUG_INFO_BTF
echo "sid-kernel: make modules_prepare for $SERIES in $OUT" >&2
if ! make -s -C "$SRC" O="$OUT" olddefconfig modules_prepare > "$OUT/build.log" 2>&1; then
	tail -n 30 "$OUT/build.log" >&2
	die "modules_prepare failed; log in $OUT/build.log"
fi
rm -f "$APT/archives"/*.deb
echo "sid-kernel: prepared in $(( $(date +%s) - t0 )) s (download, unpack, modules_prepare)" >&2
echo "$SRCPKG $VER" > "$OUT/skd-source"
touch "$OUT/.skd-built"
echo "$OUT"
