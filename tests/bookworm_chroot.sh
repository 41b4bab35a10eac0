# SPDX-License-Identifier: GPL-2.0
# Sourced by tests/packages.sh and tests/dkms-check.sh: their TAP helpers
# and the clean Debian bookworm chroot both install into.
#
#   tap_init NAME       ok RC DESCRIPTION [LOG], finish (plan, time, exit)
#   bookworm_chroot     $R: a fresh chroot under $OUT from the debootstrap
#                       cached in $CACHE (made the first time), apt's
#                       archives bind-mounted from the cache, apt updated;
#                       in_chroot CMD... runs there. Unmounted and removed
#                       at exit. Needs $OUT and the mount namespace the
#                       caller made (unshare).

tap_init() {
	TAP_NAME=$1
	n=0 fails=0 T0=$SECONDS
}
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n $2"; else
	echo "not ok $n $2"; fails=$((fails + 1)); [ -n "${3:-}" ] &&
	tail -n 30 "$3" | sed 's/^/# /'; fi; }
finish() { echo "1..$n"; echo "# $TAP_NAME took $((SECONDS - T0)) s"; [ $fails = 0 ]; exit; }

CACHE=${SKD_CHROOT_CACHE:-/root/.cache/skidless-chroot}
MIRROR=http://deb.debian.org/debian
BASE=$CACHE/bookworm-base.tar

in_chroot() { chroot "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 HOME=/root "$@"; }

chroot_cleanup() {
	for m in var/cache/apt/archives dev/pts dev proc; do
		mountpoint -q "$R/$m" 2> /dev/null && umount -l "$R/$m"
	done
	# Only once nothing is mounted beneath it.
	findmnt -rn -o TARGET | grep -q "^$R" || rm -rf "$R"
}

bookworm_chroot() {
	local t=$SECONDS rc

	mkdir -p "$CACHE/archives/partial"
	if [ ! -s "$BASE" ]; then
		rm -rf "$CACHE/base.tmp"
		debootstrap --variant=minbase bookworm "$CACHE/base.tmp" "$MIRROR" \
			> "$OUT/debootstrap.log" 2>&1 &&
			tar -C "$CACHE/base.tmp" -cf "$BASE.tmp" . && mv "$BASE.tmp" "$BASE"
		rc=$?
		rm -rf "$CACHE/base.tmp"
		ok $rc "debootstrap bookworm into the cache ($((SECONDS - t)) s)" "$OUT/debootstrap.log"
		[ $rc = 0 ] || finish
	fi
	R=$OUT/chroot
	mkdir -p "$R"
	trap chroot_cleanup EXIT
	tar -C "$R" -xf "$BASE" &&
		cat > "$R/etc/apt/sources.list" <<-EOS &&
		deb $MIRROR bookworm main
		deb $MIRROR bookworm-updates main
		deb http://deb.debian.org/debian-security bookworm-security main
		EOS
		cp /etc/resolv.conf "$R/etc/resolv.conf" &&
		printf '#!/bin/sh\nexit 101\n' > "$R/usr/sbin/policy-rc.d" &&
		chmod 755 "$R/usr/sbin/policy-rc.d" &&
		mount -t proc proc "$R/proc" &&
		mount --bind /dev "$R/dev" &&
		mount --bind "$CACHE/archives" "$R/var/cache/apt/archives"
	rc=$?
	[ $rc = 0 ] && in_chroot apt-get update -q > "$OUT/apt-update.log" 2>&1
	rc=$?
	ok $rc "a clean bookworm chroot from the cached debootstrap ($((SECONDS - t)) s)" "$OUT/apt-update.log"
	[ $rc = 0 ] || finish
}
