#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The man pages and the bash completion against the command's --help
# texts (TAP on stdout). For every subcommand `skidless --help` lists:
# man/skidless-CMD.1 exists, names every long option of `skidless CMD
# --help` and documents no option that --help does not have; skidless(1)
# lists it under COMMANDS and SEE ALSO; the completion offers it and each
# of its long options. Every page (and skidless(4)) formats without a
# warning from groff or man, and lexgrog reads its NAME line.
# Usage: tests/docs.sh [path/to/skidless]   (default build/skidless)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
TOOL=${1:-build/skidless}
n=0 fails=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n $2"; else
	echo "not ok $n $2"; fails=$((fails + 1)); [ -n "${3:-}" ] &&
	printf '%s\n' "$3" | sed 's/^/# /'; fi; }

[ -x "$TOOL" ] || { echo "1..0 # SKIP no $TOOL (make tools)"; exit 1; }
cmds=$("$TOOL" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p')
[ -n "$cmds" ]; ok $? "skidless --help lists commands: $(echo $cmds)"

# Long options a text names, one a line: --word (not --NAME placeholders).
long_opts() { grep -oE '(^|[^a-zA-Z0-9-])--[a-z][a-z0-9-]*' | sed -E 's/^[^-]//' | sort -u; }
# A roff page as plain text for grepping: \- becomes -, fonts dropped.
roff_text() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\c$//' "$1"; }
# The options a page documents: the tags (lines after .TP) of OPTIONS.
page_opts() { roff_text "$1" | awk '/^\.SH /{ s = ($2 == "OPTIONS") } s && tp { print; tp = 0 } s && /^\.TP/ { tp = 1 }' | long_opts; }

for f in man/*.[1-9]; do
	w=$( { LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$f" > /dev/null; groff -ww -z -man "$f"; } 2>&1)
	[ -z "$w" ]; ok $? "man pages format without warnings: $f" "$w"
	l=$(lexgrog "$f" 2>&1); ok $? "lexgrog reads the NAME of each man page: $f" "$l"
done

main=man/skidless.1
for c in $cmds; do
	page=man/skidless-$c.1
	[ -f "$page" ]; ok $? "each command has its man page: $c, $page"
	[ -f "$page" ] || continue
	help=$("$TOOL" "$c" --help 2>&1); rc=$?
	[ $rc = 0 ]; ok $? "--help exits 0: $c"
	missing=$(comm -23 <(printf '%s\n' "$help" | long_opts) <(roff_text "$page" | long_opts))
	[ -z "$missing" ]; ok $? "the man page names every long option of --help: $c, $page" "missing: $missing"
	extra=$(comm -13 <( { printf '%s\n' "$help" | long_opts; echo --help; } | sort -u) <(page_opts "$page"))
	[ -z "$extra" ]; ok $? "the man page documents no option --help lacks: $c, $page" "not in --help: $extra"
	roff_text "$main" | awk '/^\.SH /{ s = ($2 == "COMMANDS") } s' | grep "^\.B $c\$" > /dev/null
	ok $? "skidless(1) lists the command under COMMANDS: $c"
	roff_text "$main" | awk '/^\.SH /{ s = ($2 == "SEE") } s' | grep "^\.BR skidless-$c (1)" > /dev/null
	ok $? "skidless(1) has the command's page in SEE ALSO: skidless-$c(1)"
done
[ -f man/skidless.4 ]; ok $? "skidless(4) exists"
undoc=$(grep -oE 'define SKD_IOC_[A-Z_]+\s+_IO' uapi/skidless.h | awk '{print $2}' |
	while read -r i; do roff_text man/skidless.4 | grep "^\.B $i\$" > /dev/null || echo "$i"; done)
[ -z "$undoc" ]; ok $? "skidless(4) documents every ioctl of uapi/skidless.h" "missing: $undoc"

# The completion, run as bash runs it, against this build's --help.
complete_words() {
	bash -c 'source completion/skidless
		skidless() { "$TOOL" "$@"; }
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
		_skidless; printf "%s\n" "${COMPREPLY[@]}"' _ "$@"
}
export TOOL
got=$(complete_words skidless "")
missing=$(comm -23 <(printf '%s\n' $cmds | sort) <(printf '%s\n' "$got" | sort))
[ -z "$missing" ]; ok $? "completion offers every subcommand" "missing: $missing"
for c in $cmds; do
	got=$(complete_words skidless "$c" --)
	missing=$(comm -23 <("$TOOL" "$c" --help 2>&1 | long_opts) <(printf '%s\n' "$got" | sort -u))
	[ -z "$missing" ]; ok $? "completion offers every long option: $c" "missing: $missing"
done

echo "1..$n"
[ $fails = 0 ]
