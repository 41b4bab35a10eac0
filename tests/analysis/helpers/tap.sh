# SPDX-License-Identifier: GPL-2.0
# Sourced by annotate.sh and branches_mem.sh (not a test itself): a scratch
# directory $W, removed on exit, and TAP lines numbered in $n.
#   out "ok"|"not ok" DESCRIPTION
#   check DESCRIPTION COMMAND...: ok when COMMAND succeeds, else not ok
#     with the first 8 lines of its output; with CHECK_NOTE set, the ok
#     line ends with the last line of its output in parentheses.
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
n=0
out() { n=$((n + 1)); echo "$1 $n - $2"; }
check() {
	local d=$1
	shift
	if "$@" > "$W/why" 2>&1; then
		if [ -n "${CHECK_NOTE:-}" ]; then
			out ok "$d ($(tail -1 "$W/why"))"
		else
			out ok "$d"
		fi
	else
		out "not ok" "$d"
		head -8 "$W/why" | sed 's/^/#   /'
	fi
}
