#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every line of `skidless convert -f jsonl` parses, and the samples are
perf script's: the same (tid, time in microseconds, period, ip) per
sample, and where perf has them the same data addresses (-F addr) and
branch stacks (-F brstack: from, to, mispredicted); where perf has none,
neither has the JSON.

    jsonl_vs_perf.py FILE.jsonl CAPTURE.data
"""
import json
import re
import subprocess
import sys


def perf(capture, fields):
    r = subprocess.run(["perf", "script", "-i", capture, "-F", fields,
                        "--hide-call-graph"], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


samples = [json.loads(line) for line in open(sys.argv[1])]
capture = sys.argv[2]
rc, out, err = perf(capture, "tid,time,period,ip")
if rc:
    sys.exit("perf script: " + err)
theirs = sorted(tuple(l.replace(":", "").split()) for l in out.splitlines()
                if l.strip())
ours = sorted((str(s["tid"]), "%d.%06d" % (s["time"] // 10**9,
                                           s["time"] % 10**9 // 1000),
               str(s["period"]), s["ip"][2:]) for s in samples)
if theirs != ours:
    diff = [(a, b) for a, b in zip(theirs, ours) if a != b][:3]
    sys.exit("samples differ: %d perf, %d ours; first: %s" %
             (len(theirs), len(ours), diff))
report = ["%d samples" % len(ours)]

mem = [s["mem"]["addr"] for s in samples if "mem" in s]
rc, out, err = perf(capture, "addr")
if mem or rc == 0:
    got = sorted(int(l.split()[-1], 16) for l in out.splitlines() if l.strip())
    # perf prints an addr for every sample of an event that records it.
    want = sorted(int(a, 16) for a in mem)
    if rc or [a for a in got if a] != [a for a in want if a]:
        sys.exit("data addresses differ: perf %d, ours %d (%s)" %
                 (len(got), len(want), err.strip()))
    report.append("%d data addresses" % len(want))

br = [b for s in samples for b in s.get("branches", [])]
rc, out, err = perf(capture, "brstack")
if br or rc == 0:
    got = sorted(re.findall(r"0x([0-9a-f]+)/0x([0-9a-f]+)/([PM-])", out))
    want = sorted((b["from"][2:], b["to"][2:],
                   "M" if b["mispredicted"] else "P") for b in br)
    got = [(f, t, "P" if p == "-" else p) for f, t, p in got]
    if rc or got != want:
        sys.exit("branch stacks differ: perf %d entries, ours %d (%s)" %
                 (len(got), len(want), err.strip()))
    report.append("%d branches" % len(want))
print(", ".join(report))
