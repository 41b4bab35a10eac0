#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages `make check` needs, if any are missing.
# As root it runs apt-get itself; otherwise it says what to install.
set -euo pipefail

PACKAGES=(
	gcc make pkg-config binutils xz-utils cpio
	libelf-dev libdw-dev libiberty-dev g++ libkmod-dev libjson-c-dev
	libjansson-dev libnl-3-dev libnl-genl-3-dev libcmocka-dev
	libc6-dbg
	linux-headers-amd64 linux-image-amd64 linux-headers-6.12-amd64
	qemu-system-x86 busybox-static
	sparse linux-source-6.1 cppcheck valgrind
	flex bison bc
	clang libclang-rt-14-dev llvm
	linux-perf
	protobuf-c-compiler libprotobuf-c-dev zlib1g-dev
	golang-go libxml2-dev libxml2-utils librsvg2-bin jq python3 perl
	autofdo bolt-15
	libcapstone-dev
	kmod
	dpkg-dev debhelper dh-dkms dkms lintian debootstrap man-db groff-base
)

missing=()
for p in "${PACKAGES[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "make check needs these Debian packages: ${missing[*]}" >&2
	echo "install them with: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
