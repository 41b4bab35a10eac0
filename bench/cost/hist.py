#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Name the blocks of the plugin's hist= diagnostic (bench/cost.sh with
COST_HIST=N): kernel addresses by the guest's /proc/kallsyms, which the
guest exported into its TAP log, user addresses left as they are; summed
by symbol.

  hist.py COUNTS TAP_LOG
"""
import base64
import bisect
import collections
import gzip
import sys


def kallsyms(log):
    """The lines of the kallsyms file exported in the TAP log."""
    buf, on = [], False
    for line in open(log, errors='replace'):
        line = line.rstrip('\r\n')
        if line == '# skd-file-begin kallsyms':
            on = True
        elif line == '# skd-file-end kallsyms':
            break
        elif on and line.startswith('# b64 '):
            buf.append(line[6:])
    return gzip.decompress(base64.b64decode(''.join(buf))).decode().splitlines()


def main():
    counts, log = sys.argv[1], sys.argv[2]
    syms = []
    for line in kallsyms(log):
        f = line.split()
        if len(f) >= 3 and f[1] in 'tTwW':
            syms.append((int(f[0], 16), f[2]))
    syms.sort()
    keys = [a for a, _ in syms]
    by_sym = collections.Counter()
    for line in open(counts):
        f = line.split()
        if not f or f[0] != 'hist':
            continue
        addr, n = int(f[1], 16), int(f[2])
        if addr >> 63:
            i = bisect.bisect_right(keys, addr) - 1
            by_sym['[k] ' + (syms[i][1] if i >= 0 else hex(addr))] += n
        else:
            by_sym['[u] %#x' % addr] += n
    for name, n in by_sym.most_common(40):
        print('%14d  %s' % (n, name))


if __name__ == '__main__':
    main()
