#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare `go tool pprof -top` with `perf report --stdio --no-children
--sort sym` for one event: perf's top symbols (named, at least 0.5%;
rarer ones may be named by another alias of the same address) must be
in pprof's list with the same flat share within 0.1 point. perf and
elfutils may name one address by different aliases (perf 6.1 keeps glibc's
symbol versions, "pthread_mutex_lock@@GLIBC_2.2.5", and may pick
__GI___open64_nocancel where elfutils picks __open_nocancel): a perf name
pprof lacks matches, without its version, the same name, or else a pprof
entry perf does not list with the same share, each used once.

    pprof_vs_perf.py PERF_REPORT PPROF_TOP EVENT [TOPN]
"""
import re
import sys


def perf_section(path, event):
    rows, cur = {}, None
    for line in open(path, errors="replace"):
        m = re.match(r"# Samples: .* of event '([^']*)'", line)
        if m:
            cur = m.group(1)
            continue
        if cur != event or line.startswith("#"):
            continue
        m = re.match(r"\s*([\d.]+)%\s+\[(.)\]\s+(.*?)\s*$", line)
        if m:
            rows[m.group(3)] = rows.get(m.group(3), 0) + float(m.group(1))
    return rows


def pprof_top(path):
    rows = {}
    for line in open(path, errors="replace"):
        m = re.match(r"\s*\S+\s+([\d.]+)%\s+[\d.]+%\s+\S+\s+[\d.]+%\s+(.*?)\s*$",
                     line)
        if m:
            rows[m.group(2)] = rows.get(m.group(2), 0) + float(m.group(1))
    return rows


if __name__ == "__main__":
    perf = perf_section(sys.argv[1], sys.argv[3])
    pp = pprof_top(sys.argv[2])
    topn = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    named = [(s, v) for s, v in sorted(perf.items(), key=lambda x: -x[1])
             if v >= 0.5 and not s.startswith("0x")][:topn]
    bad = 0
    if not named:
        print("perf report has no named symbol for event %s" % sys.argv[3])
        sys.exit(1)
    unversioned = {s.split("@")[0] for s in perf}
    spare = {s: v for s, v in pp.items()
             if s not in perf and s not in unversioned}
    for sym, share in named:
        got, alias = pp.get(sym), ""
        if got is None and sym.split("@")[0] in pp:
            alias = sym.split("@")[0]
            got = pp[alias]
        if got is None:
            for s, v in sorted(spare.items()):
                if abs(v - share) <= 0.1 + 1e-9:
                    alias, got = s, v
                    del spare[s]
                    break
        ok = got is not None and abs(got - share) <= 0.1 + 1e-9
        bad += not ok
        print("%-40s perf %6.2f%%  pprof %s%s%s" % (
            sym, share, "%6.2f%%" % got if got is not None else "missing",
            " as " + alias if alias else "", "" if ok else "   <- differs"))
    sys.exit(1 if bad else 0)
