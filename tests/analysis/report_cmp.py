#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the tables of `perf report --stdio` and `skidless report`.

  report_cmp.py PERF_OUT SKIDLESS_OUT [--top N] [--tol T]

Both print, per event, lines of percent columns, optional counts
(-F ...,sample,period), then the sort keys. The first N entries of each
of perf's sections (those perf could name: an address stands for an
unnamed function and is left out, counted) must be in skidless's section
of the same rank with every percent within T points and the same counts.
An entry shown twice under one name (strchr of ld.so and of libc with
--sort sym) is matched occurrence by occurrence. An entry skidless lacks
counts as 0%, or matches an entry only skidless has, alike but for the
name and of the same shares: one address under another alias (perf and
elfutils choose differently among glibc's mmap64/__mmap, index/strchr,
...). perf 6.1 names the PLT stubs of a .plt.sec binary _init, skidless
NAME@plt: both are compared as one "(plt)" entry.
Exit 0 when they agree; the differences on stdout otherwise.
"""
import re
import sys

PCT = re.compile(r'^\s+((?:[\d.]+%\s+)+)((?:\d+\s+)*)(.*?)\s*$')


def plt(key):
    return re.sub(r'(\[.\] )(_init|\S+@plt)($|\s)', r'\1(plt)\3', key)


def sections(path):
    """[(name, {key: [(pcts, counts), ...]}, [(key, occurrence) in order])]"""
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
        if not key:
            continue
        occ = cur[1].setdefault(key, [])
        if '(plt)' in key and occ:
            # Two stubs folded into "(plt)": one entry, shares summed.
            occ[0] = ([a + b for a, b in zip(occ[0][0], pcts)], occ[0][1])
            continue
        occ.append((pcts, counts))
        cur[2].append((key, len(occ) - 1))
    return out


def same_but_name(a, b):
    """Keys alike but for the symbol's name: same marker and columns."""
    ta = re.split(r'(\[.\] \S+)', a)
    tb = re.split(r'(\[.\] \S+)', b)
    if len(ta) != 3 or len(tb) != 3:
        return False
    return ta[0] == tb[0] and ta[2] == tb[2] and ta[1][:3] == tb[1][:3]


def unnamed(key):
    return re.search(r'(^|\s)(\[.\] )?0x[0-9a-f]+($|\s)', key) is not None


def close(a, b, tol):
    return len(a) == len(b) and all(abs(x - y) <= tol for x, y in zip(a, b))


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
    skipped = compared = aliases = 0
    for (pname, pe, porder), (sname, se, sorder) in zip(perf, skd):
        # What skidless shows that perf's entries have not taken yet.
        left = {k: list(v) for k, v in se.items()}
        spare = [k for k, _ in sorder if k not in pe]
        for key, i in porder[:top]:
            pp, pc = pe[key][i]
            if unnamed(key):
                skipped += 1
                continue
            compared += 1
            mine = left.get(key, [])
            hit = next((o for o in mine if close(pp, o[0], tol)), None)
            if hit is None and mine and len(pe[key]) == 1:
                hit = mine[0]	# one each: compared, whatever the shares
            if hit is not None:
                mine.remove(hit)
                sp, sc = hit
                if not close(pp, sp, tol):
                    bad.append('%s: %s: perf %s, skidless %s' %
                               (pname, key, pp, sp))
                if pc and sc and pc != sc:
                    bad.append('%s: %s: perf samples %s, skidless %s' %
                               (pname, key, pc, sc))
                continue
            alias = next((k for k in spare if same_but_name(key, k) and
                          left.get(k) and close(pp, left[k][0][0], tol)),
                         None)
            if alias:
                left[alias].pop(0)
                aliases += 1
                continue
            # Absent is a share of 0: fine below the tolerance.
            if any(a > tol for a in pp):
                bad.append('%s: perf has %s %s, skidless has not' %
                           (pname, key, pp))
    for b in bad[:15]:
        print(b)
    print('compared %d entries (%d under another alias), %d unnamed left out'
          % (compared, aliases, skipped))
    sys.exit(1 if bad or not compared else 0)


main()
