#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make dkms-check (TAP on stdout): the skidless-dkms package under DKMS,
# against the headers of both bookworm kernels (Debian's 6.1 and 6.12),
# in a clean bookworm chroot (the cached debootstrap of tests/packages.sh,
# no VM). As a user installs it, the headers first: the package's postinst
# adds the module to DKMS and builds and installs it for both kernels.
# Then each step by hand: `dkms uninstall` from both, `dkms remove`,
# `dkms add`, `dkms build` and `dkms install` for each kernel, `dkms
# status`; and the purge, after which DKMS holds nothing of skidless.
# Every module installed must be under /lib/modules/KERNEL/updates/dkms,
# carry that kernel's vermagic and no trace of the simulated PMU, and be
# signed with the MOK key pair DKMS makes for Secure Boot. The modules
# are kept in build/dkms-check/ for tests/dkms-vm.sh, which loads each in
# the VM on its kernel and samples with it.
# Time: about 3 minutes on 2 cores with a warm cache (176 s measured, load
# 7 beside), most of it four module builds (two by the postinst, two by
# hand; 20 to 40 s each, niced); the first run
# (or the first after a kernel update in the archive) unpacks the two
# kernels' headers, 2 minutes more. make deb is skipped with
# SKD_DEB_BUILT=1, as after tests/packages.sh.
# Needs root.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
TOP=$PWD

if [ -z "${SKD_PKG_UNSHARED:-}" ] && [ "$(id -u)" = 0 ]; then
	exec env SKD_PKG_UNSHARED=1 unshare --mount --propagation private \
		bash "$0" "$@"
fi

. tests/bookworm_chroot.sh
tap_init dkms-check.sh

if [ "$(id -u)" != 0 ]; then
	echo "not ok 1 dkms-check: needs root (chroot, mounts)"; n=1; fails=1; finish
fi

OUT=$TOP/build/dkms-check
rm -rf "$OUT" && mkdir -p "$OUT"
VERSION=$(sed -n 's/^VERSION := //p' Makefile)
DKMS_DEB=$TOP/build/deb/skidless-dkms_${VERSION}_all.deb

# The package as make deb builds it (again unless SKD_DEB_BUILT=1 says
# the one in build/deb is current, as after tests/packages.sh).
t=$SECONDS
if [ "${SKD_DEB_BUILT:-}" != 1 ] || [ ! -s "$DKMS_DEB" ]; then
	nice -n 10 make -s deb > "$OUT/make-deb.log" 2>&1
	ok $? "make deb ($((SECONDS - t)) s)" "$OUT/make-deb.log"
fi
[ -s "$DKMS_DEB" ] || finish

bookworm_chroot

# Debian's two bookworm kernels: 6.1 (linux-headers-amd64) and 6.12
# (linux-headers-6.12-amd64), whatever their current ABI numbers. Unpacking
# them takes two minutes: the chroot with them is cached as a tarball named
# by their versions, so a kernel update in the archive makes a new one.
t=$SECONDS
HDR_PKGS="linux-headers-amd64 linux-headers-6.12-amd64 openssl"
# shellcheck disable=SC2086
key=$(in_chroot apt-cache show --no-all-versions $HDR_PKGS 2> /dev/null |
	sed -n 's/^Version: //p' | paste -sd_ | tr -c 'A-Za-z0-9._+\n-' _)
HDR_TAR=$CACHE/bookworm-headers-$key.tar
if [ -n "$key" ] && [ -s "$HDR_TAR" ]; then
	for m in var/cache/apt/archives dev proc; do umount "$R/$m"; done
	rm -rf "$R" && mkdir -p "$R" && tar -C "$R" -xf "$HDR_TAR" &&
		mount -t proc proc "$R/proc" && mount --bind /dev "$R/dev" &&
		mount --bind "$CACHE/archives" "$R/var/cache/apt/archives" &&
		in_chroot apt-get update -q > "$OUT/headers.log" 2>&1
	rc=$?
	echo "from $HDR_TAR" >> "$OUT/headers.log"
else
	# shellcheck disable=SC2086
	in_chroot apt-get install -y -q --no-install-recommends $HDR_PKGS \
		> "$OUT/headers.log" 2>&1
	rc=$?
	if [ $rc = 0 ] && [ -n "$key" ]; then
		rm -f "$CACHE"/bookworm-headers-*.tar
		tar -C "$R" --exclude=./proc/* --exclude=./dev/* \
			--exclude=./var/cache/apt/archives/* -cf "$HDR_TAR.tmp" . &&
			mv "$HDR_TAR.tmp" "$HDR_TAR"
	fi
fi
KERNELS=$(cd "$R/lib/modules" 2> /dev/null && for k in *; do
	[ -e "$k/build/Makefile" ] && echo "$k"; done | sort -V)
k61=$(echo "$KERNELS" | grep '^6\.1\.' | tail -n 1)
k612=$(echo "$KERNELS" | grep '^6\.12\.' | tail -n 1)
[ $rc = 0 ] && [ -n "$k61" ] && [ -n "$k612" ]
ok $? "headers of both bookworm kernels: $k61 and $k612 ($((SECONDS - t)) s)" "$OUT/headers.log"
[ -n "$k61" ] && [ -n "$k612" ] || finish

# The module's checks, on the .ko DKMS installed for kernel $1.
check_module() {
	local k=$1 ko sig ski
	ko=$(ls "$R/lib/modules/$k/updates/dkms/"skidless.ko* 2> /dev/null | head -n 1)
	in_chroot modinfo -F vermagic "${ko#"$R"}" > "$OUT/modinfo-$k.log" 2>&1
	[ -n "$ko" ] && grep -q "^$k " "$OUT/modinfo-$k.log"
	ok $? "the module DKMS installed has the kernel's vermagic [$k]: ${ko#"$R"}, vermagic $(cut -d' ' -f1 "$OUT/modinfo-$k.log")" "$OUT/modinfo-$k.log"

	# Secure Boot: DKMS signs what it builds with its MOK key pair
	# (/var/lib/dkms/mok.key and mok.pub, made at the first build with
	# openssl; the kernel's sign-file from linux-kbuild). modinfo's
	# sig_key of a PKCS#7 signature is the signing certificate's serial.
	# Enrolling mok.pub (mokutil --import) needs the firmware: not tested.
	sig=$(in_chroot modinfo -F sig_key "${ko#"$R"}" 2>&1 | tr -d ':\n')
	signer=$(in_chroot modinfo -F signer "${ko#"$R"}" 2>&1)
	ski=$(in_chroot openssl x509 -inform DER -in /var/lib/dkms/mok.pub \
		-noout -serial 2>&1 | sed 's/^serial=//')
	echo "module: sig_key $sig, signer $signer; DKMS MOK certificate: serial $ski" > "$OUT/sign-$k.log"
	[ -n "$sig" ] && [ "${sig^^}" = "${ski^^}" ]
	ok $? "the module is signed with DKMS's MOK key, /var/lib/dkms/mok.pub [$k]: $signer" "$OUT/sign-$k.log"

	# Nothing of the simulated PMU, test equipment that sends NMIs and
	# writes wherever its DS_AREA points: kmod/sim is not in the
	# package, so no object of it can be linked in, and none of its
	# parameters is the module's.
	{ ls -d "$R/usr/src/skidless-$VERSION/kmod/sim" 2>&1
	  in_chroot modinfo -F parm "${ko#"$R"}"; } > "$OUT/sim-$k.log" 2>&1
	[ -n "$ko" ] && ! grep -qE '^/|^(default_model|sim_tick_us):' "$OUT/sim-$k.log"
	ok $? "the module holds nothing of the simulated PMU [$k]: parameters $(cut -d: -f1 "$OUT/sim-$k.log" | grep -v '^ls' | paste -sd' ')" "$OUT/sim-$k.log"
}
both_installed() {
	in_chroot dkms status > "$1" 2>&1
	grep -q "^skidless/$VERSION, $k61, x86_64: installed" "$1" &&
		grep -q "^skidless/$VERSION, $k612, x86_64: installed" "$1"
}

# As a user installs it: the postinst adds the module and builds and
# installs it for every kernel that has headers.
t=$SECONDS
cp "$DKMS_DEB" "$R/tmp/"
in_chroot apt-get install -y -q --no-install-recommends "/tmp/${DKMS_DEB##*/}" \
	> "$OUT/install.log" 2>&1
rc=$?
[ $rc = 0 ] || cat "$R/var/lib/dkms/skidless/$VERSION/build/make.log" \
	>> "$OUT/install.log" 2> /dev/null
ok $rc "apt installs skidless-dkms; its postinst builds the module for both kernels ($((SECONDS - t)) s)" "$OUT/install.log"
both_installed "$OUT/status0.log"
ok $? "dkms status after the postinst: skidless/$VERSION installed for $k61 and $k612" "$OUT/status0.log"
for k in $k61 $k612; do check_module "$k"; done

# Each step by hand: uninstall, remove, add, build, install, status.
rc=0
for k in $k61 $k612; do
	in_chroot dkms uninstall -m skidless -v "$VERSION" -k "$k" \
		>> "$OUT/uninstall.log" 2>&1 || rc=1
	ls "$R/lib/modules/$k/updates/dkms/"skidless.ko* >> "$OUT/uninstall.log" 2>&1 && rc=1
done
ok $rc "dkms uninstall from both kernels: their skidless.ko gone" "$OUT/uninstall.log"

in_chroot dkms remove -m skidless -v "$VERSION" --all > "$OUT/remove.log" 2>&1
rc=$?
[ -e "$R/var/lib/dkms/skidless" ] && rc=1
ok $rc "dkms remove --all: nothing of skidless in /var/lib/dkms" "$OUT/remove.log"

in_chroot dkms add -m skidless -v "$VERSION" > "$OUT/add.log" 2>&1 &&
	in_chroot dkms status >> "$OUT/add.log" 2>&1 &&
	grep -q "^skidless/$VERSION: added" "$OUT/add.log"
ok $? "dkms add from /usr/src/skidless-$VERSION" "$OUT/add.log"

for k in $k61 $k612; do
	t=$SECONDS
	in_chroot nice -n 10 dkms build -m skidless -v "$VERSION" -k "$k" \
		> "$OUT/build-$k.log" 2>&1
	rc=$?
	[ $rc = 0 ] || cat "$R/var/lib/dkms/skidless/$VERSION/build/make.log" \
		>> "$OUT/build-$k.log" 2> /dev/null
	ok $rc "dkms build -k [$k]: $((SECONDS - t)) s" "$OUT/build-$k.log"
	in_chroot dkms install -m skidless -v "$VERSION" -k "$k" \
		> "$OUT/install-$k.log" 2>&1
	ok $? "dkms install -k [$k]" "$OUT/install-$k.log"
done
both_installed "$OUT/status.log"
ok $? "dkms status after the steps by hand: installed again for $k61 and $k612" "$OUT/status.log"
for k in $k61 $k612; do check_module "$k"; done

# The modules DKMS built, kept for tests/dkms-vm.sh, which loads each in a
# VM on its kernel and samples with it: as plain .ko (DKMS compresses
# where the kernel does, 6.12's as .ko.xz; the signature is inside).
rc=0
for k in $k61 $k612; do
	ko=$(ls "$R/lib/modules/$k/updates/dkms/"skidless.ko* 2> /dev/null | head -n 1)
	case $ko in
	*.xz) xz -dc "$ko" > "$OUT/skidless-$k.ko" ;;
	*.zst) zstd -dqc "$ko" > "$OUT/skidless-$k.ko" ;;
	*.ko) cp "$ko" "$OUT/skidless-$k.ko" ;;
	*) false ;;
	esac 2>> "$OUT/keep.log" || rc=1
	modinfo -F vermagic "$OUT/skidless-$k.ko" >> "$OUT/keep.log" 2>&1 || rc=1
done
ok $rc "the DKMS-built modules kept for the VM: build/dkms-check/skidless-{$k61,$k612}.ko" "$OUT/keep.log"

in_chroot apt-get purge -y -q skidless-dkms > "$OUT/purge.log" 2>&1
rc=$?
{ in_chroot dkms status; ls -d "$R/var/lib/dkms/skidless" "$R/usr/src/skidless-$VERSION" \
	"$R"/lib/modules/*/updates/dkms/skidless.ko*; } >> "$OUT/purge.log" 2>&1
grep -q skidless <(in_chroot dkms status 2>&1) && rc=1
ls "$R"/lib/modules/*/updates/dkms/skidless.ko* > /dev/null 2>&1 && rc=1
[ -e "$R/var/lib/dkms/skidless" ] || [ -e "$R/usr/src/skidless-$VERSION" ] && rc=1
ok $rc "apt purges skidless-dkms: DKMS, /usr/src and /lib/modules hold nothing of it" "$OUT/purge.log"

finish
