#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a flame graph SVG with xml.etree: every frame is a <g> holding a
<title> "NAME (COUNT ..., P%...)" and a <rect>; each rect's width is its
count's fraction of the root's width; the frames one level above the root
(the commands) fill the root, but for frames under 0.1 px, which are
left out and counted in a comment; the root's count is TOTAL.

    svg_check.py FILE TOTAL
"""
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
tree = ET.parse(sys.argv[1])
total = int(sys.argv[2])
frames = []
for g in tree.getroot().iter(NS + "g"):
    title, rect = g.find(NS + "title"), g.find(NS + "rect")
    if title is None or rect is None:
        continue
    m = re.match(r"(.*) \((\d+) \w+, ", title.text)
    if not m:
        sys.exit("title not understood: %r" % title.text)
    frames.append((m.group(1), int(m.group(2)), float(rect.get("x")),
                   float(rect.get("y")), float(rect.get("width"))))
if not frames or frames[0][0] != "all":
    sys.exit("no root frame 'all'")
root = frames[0]
if root[1] != total:
    sys.exit("root counts %d, the stacks %d" % (root[1], total))
for name, count, x, y, w in frames:
    want = count / root[1] * root[4]
    if abs(w - want) > 0.001:
        sys.exit("%s: width %.4f, its count says %.4f" % (name, w, want))
level1 = [f for f in frames if abs(f[3] - (root[3] - 16)) < 0.01]
s = sum(f[4] for f in level1)
# Frames under 0.1 px are left out (and counted in a comment).
m = re.search(r"<!-- (\d+) frames narrower than", open(sys.argv[1]).read())
omitted = int(m.group(1)) if m else 0
if not (root[4] - 0.1 * omitted - 0.01 <= s <= root[4] + 0.01):
    sys.exit("commands' widths sum to %.4f, the root is %.4f" % (s, root[4]))
print("%d frames, widths as counts, %d commands fill the root" %
      (len(frames), len(level1)))
