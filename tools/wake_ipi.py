#!/usr/bin/env python3
"""What a wake-up onto another, idle CPU costs its waker, read from real ftrace text traces.

A burst is a task's run from its switch-in to a switch-out that blocks it (prev_state S or D).
Of the bursts that wake exactly one task, those whose wakee's sched_wakeup lands on another
CPU that is idle at that moment (remote) are set against those whose wakee lands on the
waker's own CPU (local). The difference of the two medians is what the remote wake-up adds
to its waker: the IPI, which in a VM exits to the host (the machine parameter wake_ipi).
Bursts longer than --max-us are left out, so that the work of long bursts does not swamp it.

usage: tools/wake_ipi.py [--max-us N] TRACE[.xz|.gz]...   (prints per trace and in all)
"""
import gzip
import lzma
import re
import statistics
import sys

REC = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+): (.*)$')
KV = re.compile(r'(\w+)=(\S+)')


def opener(path):
    if path.endswith('.xz'):
        return lzma.open(path, 'rt', errors='replace')
    if path.endswith('.gz'):
        return gzip.open(path, 'rt', errors='replace')
    return open(path, errors='replace')


def bursts(path, max_us):
    cur = {}      # cpu -> [pid, switch-in time, wakes]
    waking = {}   # wakee pid -> (waker cpu, the waker's burst record)
    out = {'remote': [], 'local': []}
    done = []
    with opener(path) as f:
        for line in f:
            m = REC.match(line)
            if not m:
                continue
            _, pid, cpu, ts, ev, rest = m.groups()
            cpu, ts = int(cpu), float(ts)
            if ev == 'sched_switch':
                d = dict(KV.findall(rest))
                b = cur.get(cpu)
                if b and b[0] == int(d.get('prev_pid', -1)) and b[0] > 0 and \
                        d.get('prev_state', 'R')[:1] in 'SD' and len(b[2]) == 1:
                    # its wakee's sched_wakeup may come later, on the other CPU: the
                    # burst is classed at the end
                    us = (ts - b[1]) * 1e6
                    if us <= max_us:
                        done.append((us, b[2]))
                cur[cpu] = [int(d.get('next_pid', 0)), ts, []]
            elif ev == 'sched_waking':
                b = cur.get(cpu)
                d = dict(KV.findall(rest))
                if b and b[0] == int(pid) and b[0] > 0:
                    b[2].append('pending')
                    waking[int(d.get('pid', -1))] = (cpu, b, len(b[2]) - 1)
            elif ev == 'sched_wakeup':
                d = dict(KV.findall(rest))
                w = waking.pop(int(d.get('pid', -1)), None)
                if not w:
                    continue
                wcpu, b, k = w
                tgt = int(d.get('target_cpu', -1))
                t = cur.get(tgt)
                if tgt == wcpu:
                    b[2][k] = 'local'
                elif t is not None and t[0] == 0:
                    b[2][k] = 'remote'
                else:
                    b[2][k] = 'other'
    for us, marks in done:
        if marks[0] in out:
            out[marks[0]].append(us)
    return out


def main(argv):
    max_us = 100.0
    if len(argv) > 2 and argv[1] == '--max-us':
        max_us = float(argv[2])
        argv = argv[2:]
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    allr, alll = [], []
    print('%-50s %8s %8s %8s %8s %8s' % ('trace', 'remote', 'med us', 'local', 'med us',
                                         'diff us'))
    for path in argv[1:]:
        try:
            o = bursts(path, max_us)
        except OSError as e:
            sys.stderr.write('wake_ipi.py: %s: %s\n' % (path, e))
            return 2
        allr += o['remote']
        alll += o['local']
        r = statistics.median(o['remote']) if o['remote'] else float('nan')
        l = statistics.median(o['local']) if o['local'] else float('nan')
        print('%-50s %8d %8.2f %8d %8.2f %8.2f' % (path[-50:], len(o['remote']), r,
                                                  len(o['local']), l, r - l))
    if allr and alll:
        r, l = statistics.median(allr), statistics.median(alll)
        print('%-50s %8d %8.2f %8d %8.2f %8.2f' % ('all', len(allr), r, len(alll), l, r - l))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
