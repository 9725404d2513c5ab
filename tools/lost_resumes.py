#!/usr/bin/env python3
"""How often an rt-app `resume` found nobody suspended, in recordings and in the model's runs.

Issue 28 (docs/validate.md, "Lost resumes in the browser (issue 28)"): the model's runs of
the browser file end in a deadlock on some seeds, every thread suspended, after two resumes of
its display cycle were lost within a millisecond. This counts those losses the same way in a
recording and in a model run, from what both write: the trace (sched_waking lines, whose task
is the waker) and rt-app's logs (a row per loop, its end time).

A pair WAKER>WAKEE names a task whose loop ends with a `resume` that wakes WAKEE (in the
browser file: Binder-display>Event-Browser, Event-Browser>BrowserDisplay). Each of WAKER's
logged loops ends with that resume: it was delivered when WAKER woke WAKEE within --window us
(default 8000) before the loop's end, or up to 2 ms after it (the offset below is the commonest
case's, and the waker's time from its broadcast to its loop's end varies), else lost (WAKEE was
not suspended). The window is wide because the waker may wait or be preempted for a few ms
between its broadcast and its loop's end (the wakee preempting it, the mutex of the name held);
a loop lasts 16 ms or more, so no other loop's wake-up falls in it.
The logs' clock (CLOCK_MONOTONIC) and the trace's differ by an
offset, found per pair as the most common difference between a wake-up and a loop end (to 10 us:
the clocks' offset plus the pair's own time from its resume to the loop's end).

A *double loss* is a lost resume of the first pair followed within --double us by a lost one of
the second: both of the cycle's turns gone at once, the start of the model's deadlocks.

usage: lost_resumes.py [--pair W>E ...] [--window US] [--double US] DIR...
(each DIR holds one trace, real.trace.xz or sim.trace, and the rt-app logs *-TASK-N.log)
"""
import glob
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ftrace_lines import WAKE, records  # noqa: E402

DEFAULT_PAIRS = ["Binder-display>Event-Browser", "Event-Browser>BrowserDisplay"]


def die(msg, code=2):
    print("lost_resumes.py: " + msg, file=sys.stderr)
    sys.exit(code)


def loop_ends(d, task):
    """the end times (ns) of task's logged loops in d"""
    logs = glob.glob(os.path.join(d, "*-%s-[0-9]*.log" % task))
    if len(logs) != 1:
        die("%s: expected one log of task %s, found %d" % (d, task, len(logs)))
    ends = []
    with open(logs[0]) as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            cols = line.split()
            if len(cols) < 6:
                die("%s:%d: expected rt-app's log columns" % (logs[0], n))
            ends.append(int(cols[5]) * 1000)
    return ends


def wakes(d, pairs):
    """{(waker, wakee): [time ns]} of d's trace's sched_waking lines (not sched_wakeup: a remote
    wake-up's is written on the wakee's CPU, in the interrupt, not by the waker)"""
    traces = [p for p in (os.path.join(d, "real.trace.xz"), os.path.join(d, "sim.trace"))
              if os.path.exists(p)]
    if not traces:
        die("%s: no real.trace.xz or sim.trace" % d)
    out = {p: [] for p in pairs}
    for tcomm, _, _, _, _, t, ev, rest in records(traces[0]):
        if ev != "sched_waking":
            continue
        w = WAKE.match(rest)
        key = (tcomm.strip(), w.group(1)) if w else None
        if key in out:
            out[key].append(t)
    return out


def offset(ends, ws):
    """the trace's time less the logs', the commonest wake-up less loop end (10 us bins)"""
    c = Counter()
    for e in ends:
        for w in ws:
            if abs(w - e) < 100000000:
                c[(w - e) // 10000] += 1
    if not c:
        return None
    return c.most_common(1)[0][0] * 10000


def run_dir(d, pairs, window, double):
    tw = wakes(d, pairs)
    res, lost_at = [], []
    for p in pairs:
        ws = sorted(tw[p])
        lost = []
        ends = loop_ends(d, p[0])
        off = offset(ends, ws)
        if off is None:
            die("%s: no wake-up of %s by %s near a loop end" % (d, p[1], p[0]))
        for e in ends:
            t = e + off
            if not any(t - window <= w <= t + 2000000 for w in ws):
                lost.append(t)
        res.append((len(ends), len(lost)))
        lost_at.append(lost)
    dbl = 0
    if len(pairs) >= 2:
        for a in lost_at[0]:
            if any(0 <= b - a <= double for b in lost_at[1]):
                dbl += 1
    return res, dbl


def main(argv):
    pairs, window, double, dirs = [], 8000, 2000, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--pair", "--window", "--double") and i + 1 < len(argv):
            v = argv[i + 1]
            if a == "--pair":
                if ">" not in v:
                    die("--pair: expected WAKER>WAKEE, got %r" % v)
                pairs.append(v)
            else:
                try:
                    n = int(v)
                except ValueError:
                    die("%s: expected a whole number of us, got %r" % (a, v))
                if a == "--window":
                    window = n
                else:
                    double = n
            i += 2
            continue
        if a.startswith("-"):
            die("unknown option %s (usage in the file's docstring)" % a)
        dirs.append(a)
        i += 1
    if not dirs:
        die("expected one or more run directories")
    pairs = [tuple(p.split(">", 1)) for p in (pairs or DEFAULT_PAIRS)]
    tot = [[0, 0] for _ in pairs]
    tdbl = 0
    print("%-40s " % "run" + " ".join("%-34s" % ("%s>%s lost/loops" % p) for p in pairs) +
          " double")
    for d in dirs:
        res, dbl = run_dir(d, pairs, window * 1000, double * 1000)
        tdbl += dbl
        for k, (n, lost) in enumerate(res):
            tot[k][0] += n
            tot[k][1] += lost
        print("%-40s " % d[-40:] + " ".join("%-34s" % ("%d/%d" % (lost, n)) for n, lost in res) +
              " %d" % dbl)
    print("%-40s " % "total" + " ".join(
        "%-34s" % ("%d/%d (%.2f%%)" % (lost, n, 100.0 * lost / n if n else 0)) for n, lost in tot) +
        " %d" % tdbl)


if __name__ == "__main__":
    main(sys.argv[1:])
