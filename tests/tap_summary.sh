#!/bin/bash
# Count distinct tests across flat TAP files.
#
#   tests/tap_summary.sh [--no-skips] FILE...     (- reads stdin)
#
# Result lines are the unindented "ok ..." / "not ok ..." lines; a result
# whose line carries a "# SKIP" directive is a skip, also "not ok ... # SKIP"
# (cmocka prints skips that way). A result's description names its test:
#
#   TEST [CONFIGURATION]: CASE        TEST: CASE
#   TEST [CONFIGURATION]              TEST
#
# TEST is what comes before the first ": " (all of it without one), less a
# bracketed CONFIGURATION at its end: the sim model, the kernel, the
# capture, the arguments it ran with. Every result line of a test is one of
# its cases; a "# N cases" or "# checked N ... cases" comment before a
# result says that result checked a table of N cases. A name is the same
# test in every file and every configuration: it counts once, passes if
# every case passed on every configuration, fails if any failed, and is
# skipped (not passed) if it failed nowhere but skipped somewhere. Tests
# of different things need different names (unit tests are PROGRAM/FUNC).
#
# Malformed input fails: an unindented line that is not a result, a plan
# ("1..N"), a comment, "TAP version" or empty; a result without a
# description; "Bail out!"; a file without any result. Plans themselves
# are checked by the producers (tests/vm/run.sh, cmocka).
#
# "# needs hardware: TEST: WHY" comments are tests that need a real PMU,
# which no machine of ours has, written by the VM harness when such a test
# found none. They are listed apart, once each whatever the kernels they
# were tried on, before the last line, and are neither passes nor skips.
#
# Prints, per file: its tests, their cases, its configurations (and the
# result lines, which the old count summed); the tests run on several
# configurations, grouped by those configurations; every failing and
# skipped result line; and last "N passed, N failed, N skipped", N counting
# distinct tests. Exits 1 if anything failed, 3 if nothing failed but
# something was skipped and --no-skips was given (CI: everything a test
# needs is provided), 2 on a usage error.
set -euo pipefail

usage() {
    echo "usage: $0 [--no-skips] FILE... (flat TAP streams; - for stdin)" >&2
    exit 2
}

count() {
    awk '
    function file_name(f) {
        if (f == "" || f == "-") f = "stdin"
        sub(/.*\//, "", f)
        return f
    }
    function new_file(path) {
        fi = ++nfiles; fname[fi] = file_name(path); fresults[fi] = 0
        tablecases = 0
    }
    # One result of test t, configuration c, in file fi.
    function record(t, c, kind, line, ncases,   ti, k) {
        if (!(t in tidx)) { ti = tidx[t] = ++ntests; tname[ti] = t; tfile[ti] = fi }
        ti = tidx[t]
        k = ti SUBSEP c
        if (!(k in cases)) {
            cases[k] = 0
            if (c != "") {
                if (!(c in corder)) corder[c] = ++ncorder
                tcfg[ti, ++tncfg[ti]] = c
            }
        }
        cases[k] += ncases
        k = fi SUBSEP ti SUBSEP c
        if (!(k in fcases)) fcases[k] = 0
        fcases[k] += ncases
        fresults[fi]++
        if (kind == "fail") {
            tfail[ti]++
            failures[++nfailures] = fname[fi] ": " line
        } else if (kind == "skip") {
            tskip[ti]++
            skips[++nskips] = fname[fi] ": " line
        }
    }
    # A failure that is no result line of a test: malformed input.
    function malformed(why) {
        record(fname[fi] " is well-formed TAP", "", "fail", "not ok - " why, 1)
    }
    BEGIN { ai = 0 }
    # Register each file, the empty ones too (they have no first line).
    FNR == 1 {
        while (++ai < ARGC && ARGV[ai] != FILENAME) { empty[++nempty] = ARGV[ai] }
        new_file(FILENAME)
    }
    { sub(/\r$/, "") }
    /^# needs hardware: / { if (!seen[$0]++) hw[++nhw] = substr($0, 19); next }
    /^#/ {
        # "# checked 1227 cases", "# 16 cases": the next result is a table
        if (!tablecases && match($0, /^# (checked )?[0-9]+ ([A-Za-z-]+ )?cases/)) {
            tablecases = substr($0, RSTART, RLENGTH)
            sub(/^# (checked )?/, "", tablecases)
            tablecases += 0
        }
        next
    }
    /^(not )?ok([ \t]|$)/ {
        line = $0
        kind = "pass"
        if (line ~ /^not ok/) kind = "fail"
        if (toupper(line) ~ /#[ \t]*SKIP/) kind = "skip"
        desc = line
        sub(/^(not )?ok[ \t]*[0-9]*[ \t]*(-[ \t]+)?/, "", desc)
        sub(/[ \t]*#[ \t]*([Ss][Kk][Ii][Pp]|[Tt][Oo][Dd][Oo])([ \t].*)?$/, "", desc)
        n = tablecases > 0 ? tablecases : 1
        tablecases = 0
        if (desc == "") {
            malformed("line " FNR " is a result without a description: " line)
            next
        }
        p = index(desc, ": ")
        t = p ? substr(desc, 1, p - 1) : desc
        c = ""
        if (match(t, / \[[^][]*\]$/)) {
            c = substr(t, RSTART + 2, RLENGTH - 3)
            t = substr(t, 1, RSTART - 1)
        }
        record(t, c, kind, line, n)
        next
    }
    /^1\.\.[0-9]+/ || /^TAP version / || /^[ \t]/ || /^$/ { next }
    /^Bail out!/ { malformed("line " FNR ": " $0); next }
    { malformed("line " FNR " is not TAP: " $0) }
    # PREFIX and the items of LIST, which end in KEEP and are separated by
    # KEEP and a space, in lines of at most 100 columns.
    function wrap(prefix, list, keep,   n, w, i, item, out, col, pad) {
        n = split(list, w, keep " ")
        pad = sprintf("%" length(prefix) "s", "")
        out = prefix; col = length(prefix)
        for (i = 1; i <= n; i++) {
            if (w[i] == "") continue
            item = w[i] (i < n ? keep : "")
            if (col > length(prefix) && col + 1 + length(item) > 100) {
                out = out "\n" pad; col = length(prefix)
            }
            out = out " " item; col += 1 + length(item)
        }
        return out
    }
    function plural(n, what) { return n " " what (n == 1 ? "" : "s") }
    function s(n) { return n == 1 ? " " : "s" }
    END {
        while (++ai < ARGC) empty[++nempty] = ARGV[ai]
        for (i = 1; i <= nempty; i++) new_file(empty[i])
        for (f = 1; f <= nfiles; f++)
            if (fresults[f] == 0) { fi = f; malformed("it holds no test result") }
        # Per test: its cases are those run without a configuration plus
        # those of its largest configuration; per file, the same over the
        # results in that file.
        for (k in cases) {
            split(k, a, SUBSEP)
            if (a[2] == "") tplain[a[1]] += cases[k]
            else if (cases[k] > tmax[a[1]]) tmax[a[1]] = cases[k]
        }
        for (k in fcases) {
            split(k, a, SUBSEP)
            ft = a[1] SUBSEP a[2]
            if (!(ft in ftest)) { ftest[ft] = 1; ftests[a[1]]++
                if (tfile[a[2]] == a[1]) fnew[a[1]]++ }
            if (a[3] == "") fplain[ft] += fcases[k]
            else {
                if (fcases[k] > fmax[ft]) fmax[ft] = fcases[k]
                if (!((a[1], a[3]) in fcfg)) { fcfg[a[1], a[3]] = 1; fncfg[a[1]]++ }
            }
        }
        for (ft in ftest) { split(ft, a, SUBSEP); fncases[a[1]] += fplain[ft] + fmax[ft] }

        print "per file: tests (each counts once, whatever its cases and configurations), their cases,"
        print "configurations, and results (ok and not ok lines, a test\x27s cases on each configuration)"
        for (f = 1; f <= nfiles; f++) {
            again = ftests[f] - fnew[f]
            nc = fncfg[f] ? fncfg[f] : 1
            printf "  %-16s %5d test%s %8d case%s %3d configuration%s %6d result%s%s\n", fname[f],
                ftests[f], s(ftests[f]), fncases[f], s(fncases[f]), nc, s(nc),
                fresults[f], s(fresults[f]),
                again ? " (" plural(again, "test") " also in a file above)" : ""
        }
        # Tests run on several configurations, grouped by which (in the
        # order they were first seen).
        for (ti = 1; ti <= ntests; ti++) {
            if (tncfg[ti] < 2) continue
            for (i = 1; i <= tncfg[ti]; i++) {
                c = tcfg[ti, i]
                for (j = i - 1; j >= 1 && corder[a[j]] > corder[c]; j--) a[j + 1] = a[j]
                a[j + 1] = c
            }
            g = "[" a[1] "]"
            for (i = 2; i <= tncfg[ti]; i++) g = g " [" a[i] "]"
            if (!(g in gidx)) { gidx[g] = ++ngroups; gcfgs[ngroups] = g }
            gi = gidx[g]
            gtests[gi] = gtests[gi] " " tname[ti] " (" tplain[ti] + tmax[ti] ")"
            gn[gi]++
        }
        if (ngroups) print "tests run on several configurations, (their cases); each passes only if it passes on all:"
        for (gi = 1; gi <= ngroups; gi++) {
            print wrap("  on", gcfgs[gi], "]") ":"
            print wrap("    " plural(gn[gi], "test") ":", substr(gtests[gi], 2), ")")
        }
        for (i = 1; i <= nskips; i++) print "skipped: " skips[i]
        for (i = 1; i <= nfailures; i++) print "FAILED: " failures[i]
        for (ti = 1; ti <= ntests; ti++) {
            if (tfail[ti]) failed++
            else if (tskip[ti]) skipped++
            else passed++
        }
        if (nhw) {
            printf "needs hardware: %d (not run: no machine here has a PMU)\n", nhw
            for (i = 1; i <= nhw; i++) printf "  %s\n", hw[i]
        }
        printf "%d passed, %d failed, %d skipped\n", passed, failed, skipped
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
    case "${summary##*$'\n'}" in
        *" 0 failed, 0 skipped") exit 0 ;;
        *" 0 failed,"*) [ $no_skips = 1 ] && exit 3; exit 0 ;;
        *) exit 1 ;;
    esac
}

main "$@"
