#!/usr/bin/env python3
"""The wake-ups of a task by another onto the waker's own CPU, in a trace of record.sh: what
EEVDF's check decided on and what it decided (docs/validate.md, issue 28 step 32).

For each such wake-up where waker and wakee share a cfs_rq (the same task group), one row:
the wakee's state at sched_waking (delayed: left queued by DELAY_DEQUEUE; else asleep, with
the sign of its saved lag), whether the waker was eligible after the check's update_curr
(kernel arithmetic: avg_vruntime's sums over the tree plus curr), whether a reschedule was
set (TIF_NEED_RESCHED, bit 4 of the thread flags on 6.18: checked against the trace's N), and
how stale the waker's vruntime was at sched_waking (the check's update_curr moved it by that).

Usage: python3 tools/eevdf_probe/wake_state.py [-n NAMES_REGEX] TRACE...
"""
import argparse
import collections
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import ftrace_lines  # noqa: E402  (tools/: the trace lines every tool reads)

NEED_RESCHED = 0x10


def kv(s):
    return dict(x.split('=', 1) for x in s.split() if '=' in x)


def wakeups(path):
    """(names, rows): each row the merged fields of one probed wake-up"""
    names, rows, pend, waking, wpend = {}, [], {}, {}, {}
    for _, _, cpu, _, _, _, ev, rest in ftrace_lines.records(path):
        if ev == 'sched_switch':
            d = kv(rest.replace(' ==> ', ' '))
            for k in ('prev', 'next'):
                if k + '_pid' in d:
                    names[int(d[k + '_pid'])] = d.get(k + '_comm', '?')
            continue
        if ev != 'bpf_trace_printk':
            continue
        tag = rest.split()[0]
        d = kv(rest)
        if tag == 'SLW':
            wpend[cpu] = {'W' + k: v for k, v in d.items()}
        elif tag == 'SLWQ' and cpu in wpend:
            w = wpend.pop(cpu)
            w.update({'WQ' + k: v for k, v in d.items()})
            waking[int(w['Ww'])] = w
        elif tag == 'SLP':
            pend[cpu] = {'P' + k: v for k, v in d.items()}
            pend[cpu]['W'] = waking.pop(int(d['w']), None)
        elif cpu in pend and tag in ('SLC', 'SLQ', 'SLL', 'SLQC'):
            pend[cpu].update({tag[2:] + k: v for k, v in d.items()})
            if (tag == 'SLQ' and d.get('qcur') != '1') or tag == 'SLQC':
                rows.append(pend.pop(cpu))
    return names, rows


def classify(r):
    """the row's key, or None when it is not a wake-up onto its waker's cfs_rq"""
    if r.get('Qsame') != '1' or r.get('Qqcur') != '1' or r['W'] is None:
        return None
    w = r['W']
    if w['Wonrq'] == '1' and w['Wdl'] == '1':
        state = 'delayed'
    elif w['Wonrq'] == '1':
        return None
    else:
        lag = int(w['Wl'])
        state = 'asleep, lag ' + ('> 0' if lag > 0 else '= 0' if lag == 0 else '< 0')
    return (state, waker(r), outcome(r))


def eligible(r, v):
    """entity_eligible of vruntime v on the row's cfs_rq (curr counted, as avg_vruntime)"""
    zv, cv, cw = int(r['Qzv']), int(r['Ccv']), int(r['Ccw']) >> 10
    avg = int(r['Qsw']) + (cv - zv) * cw
    return avg >= (v - zv) * (int(r['Qsl']) + cw)


def waker(r):
    """the running task's eligibility after the check's update_curr"""
    return 'waker eligible' if eligible(r, int(r['Ccv'])) else 'waker ineligible'


def outcome(r):
    """whether the check (or its update_curr) set a reschedule"""
    return 'rescheduled' if int(r['Cfl'], 16) & NEED_RESCHED else 'kept'


def delayed_first(r):
    """for a wake-up whose tree's earliest deadline is a delayed entity other than the wakee:
    (that entity eligible, wakee eligible, waker eligible, outcome), else None"""
    if r.get('Llme') != '0' or r.get('Llmdl') != '1':
        return None
    return ('delayed first eligible' if eligible(r, int(r['Llmv'])) else 'delayed first ineligible',
            'wakee eligible' if eligible(r, int(r['Pwv'])) else 'wakee ineligible',
            waker(r), outcome(r))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('-n', '--names', default='.', help='waker and wakee names (regex)')
    ap.add_argument('-d', '--delayed', action='store_true',
                    help='only the wake-ups whose earliest deadline is another, delayed entity '
                    '(a probe.bpf.c with its SLL line)')
    ap.add_argument('traces', nargs='+')
    a = ap.parse_args()
    try:
        rx = re.compile(a.names)
    except re.error as e:
        print('-n %s: not a regular expression: %s' % (a.names, e), file=sys.stderr)
        return 2
    count = collections.Counter()
    stale = []
    for path in a.traces:
        try:
            names, rows = wakeups(path)
        except OSError as e:
            print('%s: %s' % (path, e.strerror), file=sys.stderr)
            return 2
        for r in rows:
            wn, cn = names.get(int(r['Pw']), '?'), names.get(int(r['Cc']), '?')
            if not (rx.search(wn) and rx.search(cn)):
                continue
            key = classify(r)
            if key is not None and a.delayed:
                key = delayed_first(r)
            if key is None:
                continue
            count[key] += 1
            w = r['W']
            if w['WQqcv'] != '0':
                stale.append((int(r['Ccv']) - int(w['WQqcv'])) / 1000)
    if not count:
        print('no probed wake-up onto its waker\'s cfs_rq%s (is this a record.sh trace?)' %
              (' behind a delayed earliest deadline' if a.delayed else ''), file=sys.stderr)
        return 2
    for k, v in sorted(count.items()):
        print('%7d  %s' % (v, ', '.join(k)))
    stale.sort()
    n = len(stale)
    print('waker vruntime (virtual us) charged by the check: p10 %.1f, median %.1f, p90 %.1f (%d)' %
          (stale[n // 10], stale[n // 2], stale[n * 9 // 10], n))
    return 0


if __name__ == '__main__':
    sys.exit(main())
