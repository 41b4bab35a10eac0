#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare skidless report --branches/--mem --json with perf's reading of
the same perf.data (branches_mem.sh runs perf and passes its output).

  branches_mem.py branches PERF_SCRIPT_BRSTACK SKIDLESS_JSON
  branches_mem.py mem PERF_SCRIPT_MEM SKIDLESS_JSON
  branches_mem.py memreport PERF_MEM_REPORT SKIDLESS_JSON
  branches_mem.py names PERF_SCRIPT_BRSTACK PERF_SCRIPT_BRSTACKSYM SKIDLESS_JSON

Prints what differs and exits 1, or a one-line summary and exits 0.
"""
import json
import re
import sys
from collections import defaultdict

MAX_BLOCK_BYTES = 4096


def fail(msgs):
    for m in msgs[:8]:
        print(m)
    sys.exit(1)


def branches(perf_out, ours):
    """perf script -F brstack: one line per sample, entries newest first,
    FROM/TO/P|M/X|-/A|-/CYCLES[/TYPE]."""
    taken = defaultdict(lambda: [0, 0, 0, 0])   # count, mispred, cyc_n, cyc
    blocks = defaultdict(lambda: [0, 0, 0])     # count, cyc_n, cyc
    total = 0
    for line in open(perf_out):
        ents = []
        for tok in line.split():
            f = tok.split("/")
            if len(f) < 6 or not f[0].startswith("0x"):
                continue
            ents.append((int(f[0], 16), int(f[1], 16), f[2] == "M",
                         int(f[5]) if f[5].isdigit() else 0))
        for i, (fr, to, mis, cyc) in enumerate(ents):
            t = taken[(fr, to)]
            t[0] += 1
            t[1] += mis
            total += 1
            if cyc:
                t[2] += 1
                t[3] += cyc
            if i + 1 < len(ents):
                start = ents[i + 1][1]
                if start <= fr and fr - start < MAX_BLOCK_BYTES:
                    b = blocks[(start, fr)]
                    b[0] += 1
                    if cyc:
                        b[1] += 1
                        b[2] += cyc
    j = json.load(open(ours))
    bad = []
    if j["branches"] != total:
        bad.append(f"branches: perf {total}, skidless {j['branches']}")
    mine = {(int(e["from"]["addr"], 16), int(e["to"]["addr"], 16)):
            [e["count"], e["mispredicted"], e["cycle_counts"], e["cycles"]]
            for e in j["taken"]}
    if set(mine) != set(taken):
        bad.append(f"taken pairs: perf {len(taken)}, skidless {len(mine)}, "
                   f"{len(set(mine) ^ set(taken))} differ")
    for k, v in taken.items():
        if k in mine and mine[k] != v:
            bad.append(f"{k[0]:#x}->{k[1]:#x}: perf count/mispred/cyc_n/cyc "
                       f"{v}, skidless {mine[k]}")
    mb = {(int(e["start"]["addr"], 16), int(e["end"]["addr"], 16)):
          [e["count"], e["cycle_counts"], e["cycles"]] for e in j["blocks"]}
    if mb != dict(blocks):
        diff = [k for k in set(mb) | set(blocks) if mb.get(k) != blocks.get(k)]
        bad.append(f"blocks: {len(diff)} of {len(blocks)} differ, e.g. "
                   f"{diff[0][0]:#x}..{diff[0][1]:#x}: perf "
                   f"{blocks.get(diff[0])}, skidless {mb.get(diff[0])}")
    # The per-function histogram holds every branch, each once.
    hist = sum(t["count"] for f in j["functions"] for t in f["targets"])
    if hist != total:
        bad.append(f"target histogram holds {hist} branches, perf {total}")
    tgt = defaultdict(int)
    for (fr, to), v in taken.items():
        tgt[to] += v[0]
    for f in j["functions"]:
        for t in f["targets"]:
            if tgt.get(int(t["addr"], 16)) != t["count"]:
                bad.append(f"target {t['addr']}: perf {tgt.get(int(t['addr'], 16))}, "
                           f"skidless {t['count']}")
    if bad:
        fail(bad)
    mis = sum(v[1] for v in taken.values())
    print(f"{total} branches, {len(taken)} pairs, {mis} mispredicted, "
          f"{len(blocks)} blocks agree")


def level_of(lvl):
    """perf's LVL text ("L1 or L1 hit", "Remote RAM (1 hop) or L3 hit") to
    the level skidless names, by the same precedence report_mem.c gives
    the bits: remote cache, remote RAM, PMEM, RAM, LFB, L4, L3, L2, L1."""
    outcome = "hit" if lvl.endswith(" hit") else \
        "miss" if lvl.endswith(" miss") else ""
    remote = lvl.startswith("Remote ")
    if "Remote Cache" in lvl:
        level = "remote cache"
    elif "Remote RAM" in lvl:
        level = "remote DRAM"
    elif "PMEM" in lvl:
        level = "PMEM"
    elif "RAM" in lvl:
        level = "remote DRAM" if remote else "local DRAM"
    elif "LFB" in lvl:
        level = "LFB"
    elif "L4" in lvl:
        level = "remote cache" if remote else "L4"
    elif "L3" in lvl:
        level = "remote cache" if remote else "L3"
    elif "L2" in lvl:
        level = "L2"
    elif "L1" in lvl:
        level = "L1"
    elif "I/O" in lvl:
        level = "I/O"
    elif "Uncached" in lvl:
        level = "uncached"
    elif "Any cache" in lvl:
        level = "remote cache" if remote else "any cache"
    else:
        level = "N/A"
    return level, outcome


LINE = re.compile(r"^\s*([0-9a-f]+)\s+([0-9a-f]+)\s+\|OP [^|]*\|LVL ([^|]*)\|"
                  r".*\|BLK[^|]*?\s+(\d+)\s+([0-9a-f]+)\s*$")


def mem(perf_out, ours):
    """perf script -F ip,addr,data_src,weight --hide-call-graph."""
    lv = defaultdict(lambda: [0, 0, None, 0])   # samples, lat sum, min, max
    addrs = defaultdict(lambda: [0, 0])
    code = defaultdict(int)
    total = 0
    for line in open(perf_out):
        m = LINE.match(line)
        if not m:
            continue
        addr, lvl, weight, ip = int(m[1], 16), m[3].strip(), int(m[4]), int(m[5], 16)
        if not addr and not weight:
            continue    # a sample without memory information
        total += 1
        s = lv[level_of(lvl)]
        s[0] += 1
        s[1] += weight
        s[2] = weight if s[2] is None else min(s[2], weight)
        s[3] = max(s[3], weight)
        addrs[addr][0] += 1
        addrs[addr][1] += weight
        code[(addr, ip)] += 1
    j = json.load(open(ours))
    bad = []
    if j["samples"] != total:
        bad.append(f"samples: perf {total}, skidless {j['samples']}")
    mine = {(e["level"], e["outcome"]):
            [e["samples"], e["latency_sum"], e["latency_min"], e["latency_max"]]
            for e in j["levels"]}
    if mine != dict(lv):
        bad.append(f"levels: perf {dict(lv)}, skidless {mine}")
    for e in j["levels"]:
        if sum(h["samples"] for h in e["histogram"]) != e["samples"]:
            bad.append(f"{e['level']}: histogram does not sum to its samples")
    ma = {int(e["addr"], 16): e for e in j["addresses"]}
    if set(ma) != set(addrs):
        bad.append(f"data addresses: perf {len(addrs)}, skidless {len(ma)}")
    for a, e in ma.items():
        if addrs.get(a) != [e["samples"], e["latency_sum"]]:
            bad.append(f"{a:#x}: perf samples/latency {addrs.get(a)}, "
                       f"skidless {[e['samples'], e['latency_sum']]}")
        shown = 0
        for c in e["code"]:
            shown += c["samples"]
            if code.get((a, int(c["ip"], 16))) != c["samples"]:
                bad.append(f"{a:#x} from {c['ip']}: perf "
                           f"{code.get((a, int(c['ip'], 16)))}, skidless {c['samples']}")
        if shown + e["other_code_samples"] != e["samples"]:
            bad.append(f"{a:#x}: code samples do not add up")
        # The code shown is the busiest at that address.
        theirs = sorted((n for (da, ip), n in code.items() if da == a), reverse=True)
        if [c["samples"] for c in e["code"]] != theirs[:len(e["code"])]:
            bad.append(f"{a:#x}: code shown {[c['samples'] for c in e['code']]}, "
                       f"perf's busiest {theirs[:len(e['code'])]}")
    if bad:
        fail(bad)
    print(f"{total} samples, {len(lv)} levels, {len(addrs)} data addresses agree")


def memreport(perf_out, ours):
    """perf report --mem-mode --sort mem (perf mem report's view): each
    level's share of the memory event's total weight (the latencies).
    perf 6.1 folds remote sources into local entries of that view, so
    with remote samples in the file only the total weight is compared."""
    share = defaultdict(float)
    total = None
    on = False
    for line in open(perf_out):
        if line.startswith("# Samples:"):
            on = total is None      # the first event: the memory one
        m = re.match(r"^# Total weight\s*:\s*(\d+)", line)
        if m and on:
            total = int(m[1])
        m = re.match(r"^\s+([0-9.]+)%\s+(.*\S)\s*$", line)
        if m and on:
            share[level_of(m[2])] += float(m[1])
    j = json.load(open(ours))
    bad = []
    if total != j["latency_sum"]:
        bad.append(f"total weight: perf {total}, skidless {j['latency_sum']}")
    remote = any(e["level"].startswith("remote") for e in j["levels"])
    mine = {(e["level"], e["outcome"]): 100.0 * e["latency_sum"] / j["latency_sum"]
            for e in j["levels"]}
    if not share:
        bad.append("perf printed no level")
    for k in set(mine) | set(share):
        if not remote and abs(mine.get(k, 0) - share.get(k, 0)) > 0.1:
            bad.append(f"{k}: perf {share.get(k, 0):.2f}% of the weight, "
                       f"skidless {mine.get(k, 0):.2f}%")
    if bad:
        fail(bad)
    print(f"total weight {total}" + (" (remote sources: levels not compared)" if remote else
          ", " + ", ".join(f"{k[0]} {k[1]} {v:.2f}%" for k, v in sorted(share.items()))))


def names(perf_br, perf_sym, ours):
    """perf script -F brstack and -F brstacksym, line for line: perf's
    name of every branch address; ours must agree on the branches of
    busyloop's own code (other objects' aliases may be picked apart)."""
    name = {}
    for l1, l2 in zip(open(perf_br), open(perf_sym)):
        for e1, e2 in zip(l1.split(), l2.split()):
            a, b = e1.split("/")[:2], e2.split("/")[:2]
            for addr, sym in zip(a, b):
                if addr.startswith("0x") and sym != "[unknown]":
                    name[int(addr, 16)] = sym
    j = json.load(open(ours))
    bad, n, plt = [], 0, 0
    for e in j["taken"]:
        for end in (e["from"], e["to"]):
            if end["dso"] != "busyloop" or not end["sym"]:
                continue
            theirs = name.get(int(end["addr"], 16))
            mine = f"{end['sym']}+{end['off']:#x}"
            # perf 6.1's brstacksym names a PLT stub by the symbol before
            # it (_init+0x36); skidless names it as objdump does
            # (strtod@plt, checked against objdump by the unit tests),
            # and the PLT's header .plt, as perf does since Linux 6.2.
            if (end["sym"].endswith("@plt") or end["sym"] == ".plt") and \
                    theirs and \
                    theirs.startswith("_init+"):
                plt += 1
                continue
            n += 1
            if theirs != mine:
                bad.append(f"{end['addr']}: perf {theirs}, skidless {mine}")
    if not n:
        bad.append("no branch of busyloop named")
    if bad:
        fail(bad)
    print(f"{n} busyloop branch ends named as perf names them"
          + (f", {plt} in the PLT, which perf calls _init+OFF" if plt else ""))


if sys.argv[1] == "names":
    names(sys.argv[2], sys.argv[3], sys.argv[4])
    sys.exit(0)
{"branches": branches, "mem": mem, "memreport": memreport}[sys.argv[1]](
    sys.argv[2], sys.argv[3])
