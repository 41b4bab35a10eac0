#!/bin/bash
# Count results across flat TAP files.
#
#   tests/tap_summary.sh FILE...     (- reads stdin)
#
# Result lines are the unindented "ok ..." / "not ok ..." lines; a result
# whose line carries a "# SKIP" directive is a skip, also "not ok ... # SKIP"
# (cmocka prints skips that way).  Plans, comments and indented subtest
# lines are ignored.  Prints "N passed, N failed, N skipped"; exits 1 if
# anything failed, 2 on a usage error.
set -euo pipefail

usage() {
    echo "usage: $0 FILE... (flat TAP streams; - for stdin)" >&2
    exit 2
}

count() {
    awk '
        { sub(/\r$/, "") }
        !/^(not )?ok([ \t]|$)/ { next }
        toupper($0) ~ /#[ \t]*SKIP/ { skipped++; next }
        /^not ok/ { failed++; next }
        { passed++ }
        END { printf "%d passed, %d failed, %d skipped\n",
                     passed, failed, skipped }
    ' "$@"
}

main() {
    [ $# -gt 0 ] || usage
    local f
    for f in "$@"; do
        [ "$f" = - ] || [ -r "$f" ] || { echo "$0: cannot read $f" >&2; exit 2; }
    done
    local summary
    summary=$(count "$@")
    echo "$summary"
    case "$summary" in
        *" 0 failed,"*) exit 0 ;;
        *) exit 1 ;;
    esac
}

main "$@"
