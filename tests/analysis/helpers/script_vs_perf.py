#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""`skidless script --perf` against `perf script` (its default layout) on
one capture: as many samples, the same number of frames in each, every
frame of a call chain at the same address (perf prints it in the
object's own terms), and at least 99% of the frames by the same name
(a rarer symbol may be another alias of one address). perf prints the
ip of a sample without a call chain on the header line, in absolute
terms; those frames are compared by name only.

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


ours, theirs = samples(sys.argv[1]), samples(sys.argv[2])
if len(ours) != len(theirs):
    sys.exit("%d samples, perf script has %d" % (len(ours), len(theirs)))
frames = addr_ok = name_ok = 0
for i, (a, b) in enumerate(zip(ours, theirs)):
    if len(a) != len(b):
        sys.exit("sample %d: %d frames, perf script has %d" % (i, len(a), len(b)))
    for (oa, on), (pa, pn) in zip(a, b):
        frames += 1
        addr_ok += pa is None or oa == pa
        name_ok += on == pn
if addr_ok != frames or name_ok < frames * 0.99:
    sys.exit("%d frames: %d at perf's address, %d by perf's name" %
             (frames, addr_ok, name_ok))
print("%d samples, %d frames, %d named as perf names them" %
      (len(ours), frames, name_ok))
