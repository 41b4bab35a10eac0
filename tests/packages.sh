#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages (TAP on stdout): `make deb` builds them, lintian
# finds no error or warning in the .debs, the .dsc and the .changes, and
# both install into a clean Debian bookworm chroot with apt, work there
# (skidless --version, skidless list --pmu icelake, DKMS has the module's
# source) and purge leaving nothing behind: no file dpkg -L listed, and no
# path at all that was not there before the install (a listing of the
# whole chroot before and after, volatile directories aside).
#
# The chroot comes from debootstrap (deb.debian.org), cached as a tarball
# in $SKD_CHROOT_CACHE (default /root/.cache/skidless-chroot) with the .debs
# apt downloads, so a rerun needs the network only for apt's indexes.
# The chroot has no kernel headers: skidless-dkms's postinst adds the
# module to DKMS and skips the build (make dkms-check builds it).
# Time: about 1 minute with a warm cache (the package build, lintian,
# the chroot's dependencies unpacked); 3 to 4 minutes the first time.
# Needs root (chroot, mounts): run by make check as root.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
TOP=$PWD

# Mounts made here live in a mount namespace of their own: they vanish
# with this script, whatever ends it.
if [ -z "${SKD_PKG_UNSHARED:-}" ] && [ "$(id -u)" = 0 ]; then
	exec env SKD_PKG_UNSHARED=1 unshare --mount --propagation private \
		bash "$0" "$@"
fi

. tests/bookworm_chroot.sh
tap_init packages.sh

if [ "$(id -u)" != 0 ]; then
	echo "not ok 1 packages: needs root (chroot, mounts)"; n=1; fails=1; finish
fi

OUT=$TOP/build/packages-test
rm -rf "$OUT" && mkdir -p "$OUT"
DEB=$TOP/build/deb
VERSION=$(sed -n 's/^VERSION := //p' Makefile)

t=$SECONDS
nice -n 10 make -s deb > "$OUT/make-deb.log" 2>&1
rc=$?
ok $rc "make deb: skidless_${VERSION}_amd64.deb, skidless-dkms_${VERSION}_all.deb and the source package ($((SECONDS - t)) s)" "$OUT/make-deb.log"
[ $rc = 0 ] || finish
CHANGES=$DEB/skidless_${VERSION}_amd64.changes
DEBS=("$DEB/skidless_${VERSION}_amd64.deb" "$DEB/skidless-dkms_${VERSION}_all.deb")

t=$SECONDS
lintian --fail-on error,warning "$CHANGES" > "$OUT/lintian.log" 2>&1
rc=$?
grep -E '^[EW]: ' "$OUT/lintian.log" > /dev/null && rc=1
ok $rc "lintian: no error or warning in the .debs, .dsc and .changes ($((SECONDS - t)) s)" "$OUT/lintian.log"

# --- the chroot ---------------------------------------------------------
bookworm_chroot

# The packages' dependencies first, so that the listing taken before the
# install has them and the one after the purge can be compared with it.
t=$SECONDS
deps=$(for d in "${DEBS[@]}"; do dpkg-deb -f "$d" Depends; done | paste -sd,)
in_chroot apt-get satisfy -y -q --no-install-recommends "$deps" \
	> "$OUT/deps.log" 2>&1
ok $? "the packages' dependencies install: $deps ($((SECONDS - t)) s)" "$OUT/deps.log"

# Everything in the chroot but what changes by itself.
snapshot() {
	( cd "$R" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./tmp \
		-o -path ./run -o -path ./var/cache -o -path ./var/lib/apt \
		-o -path ./var/lib/dpkg -o -path ./var/log -o -path ./root \) \
		-prune -o -print | sort )
}
snapshot > "$OUT/before.list"

t=$SECONDS
mkdir -p "$R/tmp/debs" && cp "${DEBS[@]}" "$R/tmp/debs/"
in_debs=()
for d in "${DEBS[@]}"; do in_debs+=("/tmp/debs/${d##*/}"); done
in_chroot apt-get install -y -q --no-install-recommends "${in_debs[@]}" \
	> "$OUT/install.log" 2>&1
rc=$?
ok $rc "apt installs skidless and skidless-dkms into the chroot ($((SECONDS - t)) s)" "$OUT/install.log"

in_chroot dpkg -L skidless skidless-dkms > "$OUT/dpkg-L.list" 2> "$OUT/dpkg-L.err"
missing=0
while read -r f; do [ -e "$R$f" ] || { echo "missing: $f"; missing=1; }
done < "$OUT/dpkg-L.list" > "$OUT/dpkg-L.check"
[ -s "$OUT/dpkg-L.list" ] && [ $missing = 0 ]
ok $? "dpkg -L: the $(wc -l < "$OUT/dpkg-L.list") paths of both packages are installed" "$OUT/dpkg-L.check"

in_chroot skidless --version > "$OUT/version.log" 2>&1 &&
	grep -qx "skidless $VERSION" "$OUT/version.log"
ok $? "skidless --version in the chroot: $(head -n 1 "$OUT/version.log")" "$OUT/version.log"

in_chroot skidless list --pmu icelake > "$OUT/list.log" 2>&1 &&
	grep -qi "mem_inst_retired.all_loads" "$OUT/list.log"
ok $? "skidless list --pmu icelake in the chroot ($(wc -l < "$OUT/list.log") lines)" "$OUT/list.log"

for f in /usr/share/man/man1/skidless.1.gz /usr/share/man/man4/skidless.4.gz \
	/usr/share/bash-completion/completions/skidless \
	/lib/udev/rules.d/60-skidless.rules \
	/usr/src/skidless-$VERSION/dkms.conf /usr/src/skidless-$VERSION/Kbuild; do
	[ -e "$R$f" ] || echo "missing: $f"
done > "$OUT/files.check"
in_chroot getent group skidless >> "$OUT/files.check" 2>&1 || echo "no group skidless" >> "$OUT/files.check"
! grep -q "^missing\|^no group" "$OUT/files.check"
ok $? "man pages, completion, udev rule, DKMS source and the group skidless are there" "$OUT/files.check"

in_chroot dkms status > "$OUT/dkms-status.log" 2>&1
grep -q "^skidless/$VERSION: added" "$OUT/dkms-status.log"
ok $? "dkms status in the chroot without headers: skidless/$VERSION added (no headers in the chroot: not built)" "$OUT/dkms-status.log"

t=$SECONDS
in_chroot apt-get purge -y -q skidless skidless-dkms > "$OUT/purge.log" 2>&1
ok $? "apt purges both ($((SECONDS - t)) s)" "$OUT/purge.log"

left=0
while read -r f; do
	# Directories that were there before (/usr/bin, ...) stay; /lib is
	# /usr/lib in bookworm (merged /usr).
	p=$(readlink -m "$R$f")
	grep -qxF ".${p#"$R"}" "$OUT/before.list" && continue
	[ -e "$R$f" ] && { echo "left: $f"; left=1; }
done < "$OUT/dpkg-L.list" > "$OUT/purge.check"
in_chroot dpkg -l 'skidless*' 2> /dev/null | grep '^[a-z][a-z] ' >> "$OUT/purge.check" && left=1
[ $left = 0 ]
ok $? "after the purge no path dpkg -L listed is left, nor a dpkg entry" "$OUT/purge.check"

# The group skidless stays, as Debian keeps system groups at purge (a
# file owned by it elsewhere would lose its owner otherwise); the shadow
# tools' backup files that creating it leaves are allowed.
snapshot | grep -vxE '\./etc/(group|gshadow|passwd|shadow)-' > "$OUT/after.list"
grep -vxE '\./etc/(group|gshadow|passwd|shadow)-' "$OUT/before.list" |
	diff - "$OUT/after.list" > "$OUT/snapshot.diff"
ok $? "the chroot after the purge is as before the install, dkms tree included (but the group skidless)" "$OUT/snapshot.diff"

finish
