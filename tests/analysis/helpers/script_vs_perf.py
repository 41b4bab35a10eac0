#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""`skidless script --perf` against `perf script` (its default layout) on
one capture: as many samples, the same number of frames in each, every
frame of a call chain at the same address (perf prints it relative to
its file). Names: the same, or another alias at the same offset (so the
same symbol start), or perf's "+0x0" where skidless gives a return
address to the function whose call ends there (it looks up the byte
before); at most 0.5% otherwise (perf has no names for PLT entries).
perf prints the ip of a sample without a call chain on its header line,
in absolute terms; those frames are compared by name only.

    script_vs_perf.py OURS.txt PERF.txt
"""
import re
import sys

INLINE = re.compile(r"\s([0-9a-f]+)\s+(\S+) \(([^()]*)\)\s*$")


def samples(path):
    """Frames per sample: (address, name), or (None, name) for an ip
    printed on the sample's own line (no call chain)."""
    out, header = [], None

    def close():
        if header is not None and not out[-1]:
            m = INLINE.search(header)
            if not m:
                sys.exit("%s: not understood: %r" % (path, header))
            out[-1].append((None, m.group(2)))

    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if not line.strip():
            close()
            header = None
        elif line[0] == "\t":
            if header is None:
                sys.exit("%s: a frame outside a sample: %r" % (path, line))
            out[-1].append(tuple(line.split()[:2]))
        else:
            close()
            header = line
            out.append([])
    close()
    return out


def off(name):
    return name.rsplit("+", 1)[1] if "+" in name else None


ours, theirs = samples(sys.argv[1]), samples(sys.argv[2])
if len(ours) != len(theirs):
    sys.exit("%d samples, perf script has %d" % (len(ours), len(theirs)))
frames = addr_ok = same = alias = boundary = 0
other = []
for i, (a, b) in enumerate(zip(ours, theirs)):
    if len(a) != len(b):
        sys.exit("sample %d: %d frames, perf script has %d" % (i, len(a), len(b)))
    for (oa, on), (pa, pn) in zip(a, b):
        frames += 1
        addr_ok += pa is None or oa == pa
        if on == pn:
            same += 1
        elif off(on) is not None and off(on) == off(pn):
            alias += 1
        elif pn.endswith("+0x0"):
            boundary += 1
        else:
            other.append((on, pn))
summary = ("%d samples, %d frames at perf's addresses; names: %d as perf's, "
           "%d another alias of the symbol, %d a return address perf gives "
           "to the next symbol, %d else" %
           (len(ours), frames, same, alias, boundary, len(other)))
if addr_ok != frames or len(other) > frames * 0.005:
    sys.exit("%s\n%d frames at other addresses; first names apart: %s" %
             (summary, frames - addr_ok, other[:5]))
print(summary)
