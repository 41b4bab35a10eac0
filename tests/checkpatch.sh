#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the path of checkpatch.pl from Debian's linux-source-6.1, unpacking
# just its scripts/ once into a cache (the tarball is 140 MB of xz).
set -euo pipefail

CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/skidless
tarball=$(ls /usr/src/linux-source-6.1.tar.xz 2>/dev/null || true)
[ -n "$tarball" ] || { echo "linux-source-6.1 is not installed" >&2; exit 1; }
stamp=$(stat -c %Y "$tarball")
dir=$CACHE/checkpatch-$stamp
if [ ! -x "$dir/scripts/checkpatch.pl" ]; then
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	tar -xJf "$tarball" -C "$dir.tmp" --strip-components=1 --wildcards \
		'linux-source-6.1/scripts/checkpatch.pl' \
		'linux-source-6.1/scripts/spelling.txt' \
		'linux-source-6.1/scripts/const_structs.checkpatch'
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
fi
echo "$dir/scripts/checkpatch.pl"
