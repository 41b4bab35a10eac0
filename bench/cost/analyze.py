#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The host half of bench/cost.sh: the plugin's counts and the VM's
captures in, the cost table (and TAP against the limits) out.

  analyze.py COUNTS TAP_LOG [--limits FILE] [--tap FILE] [--calib N]

--calib N: callgrind's count of the calibration run's user instructions
(deep5 50 on the host); the plugin's must agree within 0.1%.

COUNTS is the plugin's output (one "mark SEQ k= u= k0= u0= k1= u1=" line
per measured run), TAP_LOG the VM's test channel, where the guest named
each run ("# cost-run SEQ NAME RC") and exported each capture in base64.
Samples and lost samples are read from each capture by the host's perf
(perf report -D), an oracle of ours neither.
"""
import base64
import os
import re
import subprocess
import sys
import tempfile


def parse_counts(path):
    runs = {}
    for line in open(path):
        f = line.split()
        if not f or f[0] != 'mark':
            continue
        runs[int(f[1])] = {k: int(v) for k, v in (x.split('=') for x in f[2:])}
    return runs


def parse_log(path):
    names, files, cur, buf = {}, {}, None, []
    for line in open(path, errors='replace'):
        line = line.rstrip('\r\n')
        m = re.match(r'# cost-run (\d+) (\S+) (\d+)(?: (\d+))?$', line)
        if m:
            names[m.group(2)] = (int(m.group(1)), int(m.group(3)),
                                 int(m.group(4) or 1))
        elif line.startswith('# skd-file-begin '):
            cur, buf = line[len('# skd-file-begin '):], []
        elif line.startswith('# skd-file-end ') and cur:
            files[cur] = base64.b64decode(''.join(buf))
            cur = None
        elif cur and line.startswith('# b64 '):
            buf.append(line[6:])
    return names, files


def perf_counts(data):
    """(samples, lost) in a perf.data image, as the host's perf reads it."""
    with tempfile.NamedTemporaryFile(suffix='.data') as f:
        f.write(data)
        f.flush()
        out = subprocess.run(['perf', 'report', '-D', '-i', f.name],
                             capture_output=True, text=True).stdout
    samples = lost = 0
    for line in out.splitlines():
        if 'PERF_RECORD_SAMPLE' in line:
            samples += 1
        elif 'PERF_RECORD_LOST' in line:
            m = re.search(r'lost:?\s*(\d+)\s*$', line)
            lost += int(m.group(1)) if m else 0
    return samples, lost


class Run:
    def __init__(self, name, counts, data, wcpu):
        self.name = name
        self.wcpu = wcpu
        self.k, self.u = counts['k'], counts['u']
        self.t = self.k + self.u
        # the workload's CPU, and the other (the recorder's)
        self.cpu1 = counts.get('k%d' % wcpu, 0) + counts.get('u%d' % wcpu, 0)
        self.bytes = len(data) if data is not None else 0
        self.samples, self.lost = perf_counts(data) if data else (0, 0)


def fmt(v):
    if v is None:
        return '-'
    if abs(v) >= 1e6:
        return '%.1fM' % (v / 1e6)
    return '%.0f' % v


def fr(v, digits=2):
    return '-' if v is None else '%.*f' % (digits, v)


def ratio(a, b):
    return a / b if a is not None and b else None


def main():
    args = sys.argv[1:]
    limits_path = tap_path = None
    if '--limits' in args:
        i = args.index('--limits')
        limits_path = args[i + 1]
        del args[i:i + 2]
    if '--tap' in args:
        i = args.index('--tap')
        tap_path = args[i + 1]
        del args[i:i + 2]
    calib = None
    if '--calib' in args:
        i = args.index('--calib')
        calib = int(args[i + 1] or 0)
        del args[i:i + 2]
    counts, (names, files) = parse_counts(args[0]), parse_log(args[1])
    runs, failed = {}, []
    for name, (seq, rc, wcpu) in names.items():
        if rc != 0 or seq not in counts:
            failed.append(name)
            continue
        runs[name] = Run(name, counts[seq], files.get(name), wcpu)
    bases = [r for n, r in sorted(runs.items()) if n.startswith('base')]
    if not bases:
        sys.exit('analyze.py: no run without a recorder was counted')
    base_t = sum(b.t for b in bases) / len(bases)
    # instructions on the workload's CPU, by which CPU that was
    base_wl = {}
    for w in {b.wcpu for b in bases}:
        bw = [b.cpu1 for b in bases if b.wcpu == w]
        base_wl[w] = sum(bw) / len(bw)

    print('Recording cost, instructions counted by the QEMU plugin over the whole guest')
    print('(2 vCPUs, TCG, icount 1 ns per instruction); workload: deep5, %.0fM instructions'
          % (bases[0].cpu1 / 1e6))
    print('runs without a recorder: %s instructions (%s)' % (
        ', '.join(fmt(b.t) for b in bases),
        'all equal' if len({b.t for b in bases}) == 1 else
        'spread %.4f%%' % (100 * (max(b.t for b in bases) - min(b.t for b in bases)) / base_t)))
    print()

    def pair(prefix):
        lo, hi = runs.get(prefix + '-500'), runs.get(prefix + '-8000')
        if not lo or not hi or hi.samples == lo.samples:
            return None
        ds = hi.samples - lo.samples
        m = {'k': (hi.k - lo.k) / ds, 'u': (hi.u - lo.u) / ds,
             't': (hi.t - lo.t) / ds, 'bytes': (hi.bytes - lo.bytes) / ds}
        m['fixed'] = lo.t - base_t - lo.samples * m['t']
        m['samples'] = (lo.samples, hi.samples)
        m['lost'] = hi.lost
        bw = base_wl.get(hi.wcpu)
        m['slow'] = 100 * (hi.cpu1 - bw) / bw if bw else None
        m['slow_per'] = (hi.cpu1 - bw) / hi.samples if bw else None
        return m

    fig = {}
    hdr = '%-22s %9s %9s %9s %9s %8s %7s %9s %s' % (
        '', 'kernel', 'user', 'total', 'fixed', 'bytes', 'wl +%', 'wl/smpl', 'samples')
    print('Per sample (slope 500 -> 8000 Hz, by samples recorded); fixed = per run beyond')
    print('the workload alone; wl = instructions on the workload\'s CPU at 8000 Hz beyond')
    print('the run without a recorder (+%, and per sample)')
    print(hdr)
    for cg, label in (('', 'no call chains'), ('-g', 'call chains (fp)')):
        for rec in ('perf', 'skidless'):
            m = pair(rec + cg)
            fig[rec + cg] = m
            if not m:
                print('%-22s not measured' % (rec + cg))
                continue
            print('%-22s %9s %9s %9s %9s %8.1f %7s %9s %d/%d' % (
                rec + (' -g' if cg else '') + ' cpu-clock' if rec == 'perf' else
                rec + (' -g' if cg else ' none') + ' timer',
                fmt(m['k']), fmt(m['u']), fmt(m['t']), fmt(m['fixed']),
                m['bytes'], fr(m['slow']), fmt(m['slow_per']), *m['samples']))
        p, s = fig['perf' + cg], fig['skidless' + cg]
        if p and s:
            print('%-22s %9s %9s %9s %9s %8s %7s %9s   (skidless / perf, %s)' % (
                '  ratio', fr(ratio(s['k'], p['k'])), fr(ratio(s['u'], p['u'])),
                fr(ratio(s['t'], p['t'])), fr(ratio(s['fixed'], p['fixed'])),
                fr(ratio(s['bytes'], p['bytes'])), '',
                fr(ratio(s['slow_per'], p['slow_per'])), label))
    print()

    pebs = sorted({n.rsplit('-', 1)[0] for n in runs if n.startswith('pebs')})
    if pebs:
        print('PEBS on the sim models, skidless record -e instructions:pp (fp call chains),')
        print('periods 4000000 and 250000 (500 and 8000 samples a second of a 2 GHz core);')
        print('absolute: perf has no PEBS here. The model\'s own clock runs in the guest kernel')
        print('and is counted too.')
        print(hdr)
        for pre in pebs:
            m = pair(pre)
            fig[pre] = m
            if m:
                print('%-22s %9s %9s %9s %9s %8.1f %7s %9s %d/%d' % (
                    pre.replace('pebs-b-', 'pebs+lbr ').replace('pebs-', 'pebs '),
                    fmt(m['k']), fmt(m['u']), fmt(m['t']), fmt(m['fixed']),
                    m['bytes'], fr(m['slow']), fmt(m['slow_per']), *m['samples']))
        print()

    rates = sorted({int(n.rsplit('-', 1)[1]) for n in runs
                    if re.match(r'(perf|skidless)-g-\d+$', n)})
    if len(rates) > 2:
        print('Loss with call chains: samples recorded / lost, per rate asked')
        print('%-10s %s' % ('Hz', ' '.join('%16d' % r for r in rates)))
        for rec in ('perf', 'skidless'):
            cells, best = [], 0
            for r in rates:
                x = runs.get('%s-g-%d' % (rec, r))
                cells.append('%16s' % ('%d/%d' % (x.samples, x.lost) if x else '-'))
                if x and x.lost == 0 and r > best:
                    best = r
            fig[rec + '-lossfree'] = best
            print('%-10s %s   loss-free up to %d Hz' % (rec, ' '.join(cells), best))
        print()

    # The figures the limits name: skidless / perf, with call chains
    # ("chain") and without ("nochain"): per-sample marginal instructions
    # (kernel + user), fixed cost per run, bytes per sample, and the
    # instructions on the workload's CPU per sample.
    fields = {'marginal': 't', 'kernel': 'k', 'user': 'u', 'fixed': 'fixed',
              'bytes': 'bytes', 'workload': 'slow_per'}

    def get(key):
        which, name = key.split('.', 1)
        cg = {'chain': '-g', 'nochain': ''}.get(which)
        if cg is None or name not in fields:
            return None
        p, s = fig.get('perf' + cg), fig.get('skidless' + cg)
        return ratio(s[fields[name]], p[fields[name]]) if p and s else None

    results, bad = [], False
    results.append(('not ok' if failed else 'ok', 'every measured run exited 0 (failed: %s)'
                    % (' '.join(failed) or 'none')))
    bad = bool(failed)
    if calib is not None:
        c = runs.get('calib')
        ok = c is not None and abs(c.u - calib) <= calib / 1000
        bad |= not ok
        results.append(('ok' if ok else 'not ok',
                        'the plugin counts the user instructions callgrind counts: %s and %d'
                        % (c.u if c else 'not measured', calib)))
    if limits_path:
        for line in open(limits_path):
            f = line.split('#')[0].split()
            if len(f) < 2:
                continue
            key, limit = f[0], float(f[1])
            v = get(key)
            ok = v is not None and v <= limit
            bad |= not ok
            results.append(('ok' if ok else 'not ok', '%s = %s, limit %s (ratchet)' % (
                key, 'not measured' if v is None else '%.3f' % v, limit)))
    if tap_path:
        with open(tap_path, 'w') as t:
            t.write('1..%d\n' % len(results))
            for i, (st, desc) in enumerate(results, 1):
                t.write('%s %d - cost: %s\n' % (st, i, desc))
    for st, desc in results:
        print('%-6s %s' % (st, desc))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
