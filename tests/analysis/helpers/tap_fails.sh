# SPDX-License-Identifier: GPL-2.0
# Sourced by optimizers.sh and report.sh (not a test itself): a scratch
# directory $W, removed on exit, TAP lines numbered in $n, failures in $fails.
#   ok DESCRIPTION
#   notok DESCRIPTION [FILE]: FILE's first 15 lines shown, when not empty
#   check DESCRIPTION CMD...: CMD's output goes to $W/last.err, shown on failure.
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() {
	n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"
	[ -n "${2:-}" ] && [ -s "$2" ] && sed -n '1,15s/^/#   /p' "$2"
}
check() {
	local d=$1; shift
	if "$@" > "$W/last.err" 2>&1; then ok "$d"; else notok "$d" "$W/last.err"; fi
}
