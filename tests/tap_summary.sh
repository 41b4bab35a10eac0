#!/bin/bash
# Count results across flat TAP files.
#
#   tests/tap_summary.sh FILE...     (- reads stdin)
#
# Result lines are the unindented "ok ..." / "not ok ..." lines; a result
# whose line carries a "# SKIP" directive is a skip, also "not ok ... # SKIP"
# (cmocka prints skips that way).  Plans, comments and indented subtest
# lines are ignored, but for "# needs hardware: TEST: WHY" comments: tests
# that need a real PMU, which no machine of ours has, written by the VM
# harness when such a test found none. They are listed apart, once each
# whatever the kernels they were tried on, before the last line, and are
# neither passes nor skips.
#
# Prints "N passed, N failed, N skipped" last; exits 1 if anything failed,
# 3 if nothing failed but something was skipped and --no-skips was given
# (CI: everything a test needs is provided), 2 on a usage error.
set -euo pipefail

usage() {
    echo "usage: $0 [--no-skips] FILE... (flat TAP streams; - for stdin)" >&2
    exit 2
}

count() {
    awk '
        { sub(/\r$/, "") }
        /^# needs hardware: / { if (!seen[$0]++) hw[++nhw] = substr($0, 19); next }
        !/^(not )?ok([ \t]|$)/ { next }
        toupper($0) ~ /#[ \t]*SKIP/ { skipped++; next }
        /^not ok/ { failed++; next }
        { passed++ }
        END {
            if (nhw) {
                printf "needs hardware: %d (not run: no machine here has a PMU)\n", nhw
                for (i = 1; i <= nhw; i++) printf "  %s\n", hw[i]
            }
            printf "%d passed, %d failed, %d skipped\n",
                   passed, failed, skipped
        }
    ' "$@"
}

main() {
    local no_skips=0
    if [ "${1:-}" = --no-skips ]; then no_skips=1; shift; fi
    [ $# -gt 0 ] || usage
    local f
    for f in "$@"; do
        [ "$f" = - ] || [ -r "$f" ] || { echo "$0: cannot read $f" >&2; exit 2; }
    done
    local summary
    summary=$(count "$@")
    echo "$summary"
    case "$summary" in
        *" 0 failed, 0 skipped") exit 0 ;;
        *" 0 failed,"*) [ $no_skips = 1 ] && exit 3; exit 0 ;;
        *) exit 1 ;;
    esac
}

main "$@"
