#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks for `skidless diff`, against perf report of each capture.

  diff_check.py shares BASE.perf NEW.perf DIFF.json
      For the first event both perf reports have: every symbol among
      perf's top 10 (named, >= 0.5%: rarer symbols may be
      another alias of one address) of either capture has skidless's
      base and new shares within 0.1 point of perf's and its delta within
      0.1 of perf's difference; rows sorted by the absolute delta.
  diff_check.py svg DIFF.svg BASE.folded NEW.folded
      Each frame's title gives NEW's share and BASE's share of its call
      path as the folded stacks have them (0.01 point), and its colour
      is red where the share grew, blue where it shrank.
"""
import re
import sys
import xml.etree.ElementTree as ET


def perf_rows(path):
    """{event: {(dso, sym): share}} from perf report --sort dso,sym."""
    out, cur = {}, None
    for line in open(path, errors="replace"):
        m = re.match(r"# Samples: .* of event '([^']*)'", line)
        if m:
            cur = out.setdefault(m.group(1), {})
            continue
        if cur is None or line.startswith("#"):
            continue
        m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.*?)\s*$", line)
        if m:
            key = (m.group(2), m.group(4))
            cur[key] = cur.get(key, 0) + float(m.group(1))
    return out


def shares(base_perf, new_perf, diff_json):
    import json
    pb, pn = perf_rows(base_perf), perf_rows(new_perf)
    d = json.load(open(diff_json))
    events = [e for e in pn if e in pb]
    if not events:
        sys.exit("no event in both perf reports")
    ev = events[0]
    dev = [e for e in d["events"] if e["event"] == ev]
    if not dev:
        sys.exit("skidless diff has no event %s" % ev)
    rows = {(r["dso"], r["symbol"]): r for r in dev[0]["symbols"]}
    deltas = [abs(r["delta"]) for r in dev[0]["symbols"]]
    if deltas != sorted(deltas, reverse=True):
        sys.exit("rows not sorted by absolute delta")
    top = set()
    for side in (pb[ev], pn[ev]):
        named = [k for k, v in sorted(side.items(), key=lambda x: -x[1])
                 if v >= 0.5 and not k[1].startswith("0x")]
        top.update(named[:10])
    bad = 0
    for k in sorted(top):
        b, n = pb[ev].get(k, 0.0), pn[ev].get(k, 0.0)
        r = rows.get(k)
        ok = r is not None and abs(r["base"] - b) <= 0.1 and \
            abs(r["new"] - n) <= 0.1 and abs(r["delta"] - (n - b)) <= 0.1
        bad += not ok
        print("%-30s %-20s perf %6.2f -> %6.2f (%+6.2f)  skidless %s%s" % (
            k[1], k[0], b, n, n - b,
            "%6.2f -> %6.2f (%+6.2f)" % (r["base"], r["new"], r["delta"])
            if r else "missing", "" if ok else "  <- differs"))
    sys.exit(1 if bad else 0)


def folded(path):
    stacks = []
    for line in open(path):
        s, c = line.rstrip("\n").rsplit(" ", 1)
        stacks.append((s.split(";"), int(c)))
    return stacks, sum(c for _, c in stacks)


def path_share(stacks_total, path):
    stacks, total = stacks_total
    n = len(path)
    return 100.0 * sum(c for s, c in stacks if s[:n] == path) / total


def svg(svg_path, base_folded, new_folded):
    ns = "{http://www.w3.org/2000/svg}"
    base, new = folded(base_folded), folded(new_folded)
    frames = []
    for g in ET.parse(svg_path).getroot().iter(ns + "g"):
        t, r = g.find(ns + "title"), g.find(ns + "rect")
        if t is not None and r is not None:
            frames.append((t.text, float(r.get("y")), r.get("fill")))
    root_y, stack, checked = frames[0][1], [], 0
    for text, y, fill in frames:
        m = re.match(r"(.*) \(\d+ \w+, ([\d.]+)%; base ([\d.]+)%, "
                     r"([+-][\d.]+) points\)$", text)
        if not m:
            sys.exit("title not understood: %r" % text)
        level = int(round((root_y - y) / 16))
        del stack[level:]
        stack.append(m.group(1))
        path = stack[1:]
        want_new = path_share(new, path) if path else 100.0
        want_base = path_share(base, path) if path else 100.0
        if abs(float(m.group(2)) - want_new) > 0.006 or \
           abs(float(m.group(3)) - want_base) > 0.006:
            sys.exit("%s: new %s%% base %s%%, the stacks say %.3f%% %.3f%%" %
                     (";".join(path), m.group(2), m.group(3), want_new,
                      want_base))
        rgb = [int(v) for v in re.findall(r"\d+", fill)]
        d = float(m.group(4))
        if (d > 0 and not (rgb[0] == 255 and rgb[2] <= 255)) or \
           (d < 0 and not (rgb[2] == 255 and rgb[0] <= 255)) or \
           (d >= 0.5 and rgb[1] == 255) or (d <= -0.5 and rgb[1] == 255):
            sys.exit("%s: %+.2f points coloured %s" % (";".join(path), d, fill))
        checked += 1
    print("%d frames: shares as the folded stacks say, red up, blue down" %
          checked)


if __name__ == "__main__":
    if sys.argv[1] == "shares":
        shares(*sys.argv[2:5])
    else:
        svg(*sys.argv[2:5])
