#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the tables of `perf report --stdio` and `skidless report`.

  report_cmp.py PERF_OUT SKIDLESS_OUT [--top N] [--tol T] [--cols C]

Both print, per event, lines of percent columns then the sort keys. The
first N entries of each of perf's sections (those perf could name: an
address stands for an unnamed function and is left out, counted) must be
in skidless's section of the same rank with every percent within T
points (an entry skidless lacks counts as 0%). C numeric columns are compared (1: overhead; 2: children and
self). Sample counts, when both print them (-F ...,sample), must match.
Exit 0 when they agree; the differences on stdout otherwise.
"""
import re
import sys

PCT = re.compile(r'^\s+((?:[\d.]+%\s+)+)((?:\d+\s+)*)(.*?)\s*$')


def sections(path):
    """[(name, {key: ([pct...], [counts...])}, [keys in order])]"""
    out = []
    cur = None
    for line in open(path, errors='replace'):
        if line.startswith('#'):
            m = re.search(r"of event '([^']*)'|# event: ([^,]*),", line)
            if m:
                cur = (m.group(1) or m.group(2), {}, [])
                out.append(cur)
            continue
        m = PCT.match(line)
        if not m or cur is None:
            continue
        pcts = [float(x) for x in m.group(1).replace('%', ' ').split()]
        counts = [int(x) for x in m.group(2).split()]
        key = plt(' '.join(m.group(3).split()))
        if not key and counts:
            # A numeric key (cpu) is the last number on the line.
            key = m.group(2).split()[-1]
            counts = counts[:-1]
        if key and key in cur[1]:
            # Two stubs folded into "(plt)": one entry, shares summed.
            old = cur[1][key]
            cur[1][key] = ([a + b for a, b in zip(old[0], pcts)], old[1])
        elif key:
            cur[1][key] = (pcts, counts)
            cur[2].append(key)
    return out


def plt(key):
    """perf 6.1 names the PLT stubs of a .plt.sec binary (IBT) _init,
    skidless NAME@plt: both are compared as one "(plt)" entry."""
    return re.sub(r'(\[.\] )(_init|\S+@plt)($|\s)', r'\1(plt)\3', key)


def unnamed(key):
    return re.search(r'(^|\s)(\[.\] )?0x[0-9a-f]+($|\s)', key) is not None


def main():
    args = sys.argv[1:]
    top, tol = 20, 0.1
    if '--top' in args:
        top = int(args[args.index('--top') + 1])
    if '--tol' in args:
        tol = float(args[args.index('--tol') + 1])
    perf, skd = sections(args[0]), sections(args[1])
    bad = []
    if len(perf) != len(skd) or not perf:
        bad.append('perf has %d event sections, skidless %d' %
                   (len(perf), len(skd)))
    skipped = compared = 0
    for (pname, pe, porder), (sname, se, _) in zip(perf, skd):
        for key in porder[:top]:
            if unnamed(key):
                skipped += 1
                continue
            compared += 1
            if key not in se:
                # Absent is a share of 0: fine below the tolerance (perf
                # and elfutils may name one address by different aliases).
                if any(a > tol for a in pe[key][0]):
                    bad.append('%s: perf has %s %s, skidless has not' %
                               (pname, key, pe[key][0]))
                continue
            pp, pc = pe[key]
            sp, sc = se[key]
            if len(pp) != len(sp) or any(abs(a - b) > tol
                                         for a, b in zip(pp, sp)):
                bad.append('%s: %s: perf %s, skidless %s' %
                           (pname, key, pp, sp))
            if pc and sc and pc != sc:
                bad.append('%s: %s: perf samples %s, skidless %s' %
                           (pname, key, pc, sc))
    for b in bad[:15]:
        print(b)
    print('compared %d entries, %d unnamed left out' % (compared, skipped))
    sys.exit(1 if bad or not compared else 0)


main()
