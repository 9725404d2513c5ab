#!/usr/bin/env python3
"""The time a task's wake-up of another takes inside the waker, by target (issue 28, step 15).

docs/validate.md ("The just-woken wakee pulled back"): the recorded waker's sched_wakeup of the
wakee comes 11-15 us after its sched_waking when the wakee goes to the other, busy vCPU, 1 us
onto the waker's own. This reads ftrace text traces (plain or .xz; real ones, or the model's
own, `schedlab validate --sim-out`) and follows each sched_waking by the task running on its CPU
A (not an interrupt: wake_situations.py's test) of a task neither running nor queued, to the
wakee's sched_wakeup on target B:

  own         B is A
  busy other  B is the other CPU and runs a task at the sched_waking
  idle other  B is the other CPU and is idle at the sched_waking (the enqueue there is the
              IPI's wake list, on B: not the waker's time)

For each class: the wake-ups, the median (us) from the sched_waking to the sched_wakeup
("enqueue"), the share of sched_wakeup lines written on A ("on A"), the median from the
sched_waking to the waker's next event on A (its next sched_waking there, or its switch-out,
whichever comes first: "next"), the median from the sched_wakeup to that next event for the
wake-ups enqueued before it ("after"), and for busy other the median from the sched_wakeup to
the wakee's switch-in on B when it preempted B's task there ("preempt", the task switched out
runnable; "preempt from waking": the same from the sched_waking). A wake-up whose wakee is
woken again or runs before its sched_wakeup is left out.

Usage: wake_cost.py [--json] TRACE...
Exit 2 on a file that cannot be read, a trace that is not of 2 CPUs, or no wake-up counted.
"""
import json
import statistics
import sys

from ftrace_lines import WAKE, records, sched_lines, task_waking

CLASSES = ["own", "busy other", "idle other"]


def wakeups(path):
    """the wake-ups of one trace as dicts: cls, enqueue (ns), on_a (bool), next (ns or None),
    after (ns or None), preempt (ns from the sched_wakeup, or None)"""
    curr = {}  # cpu -> pid running (0: idle)
    queued = set()  # pids runnable, not running
    mark = {}  # cpu -> timestamp of its last interrupt entry line
    pend = {}  # wakee pid -> its wake-up, from the sched_waking to the sched_wakeup
    open_next = {}  # waker pid -> its wake-ups waiting for the waker's next event
    open_run = {}  # wakee pid -> its busy-other wake-up waiting for the switch-in
    out = []

    def close_next(waker, t):
        for e in open_next.pop(waker, []):
            e["next"] = t - e["t"]
            if e["tw"] is not None:
                e["after"] = t - e["tw"]

    trace = sched_lines(records(path, max_cpu=1), mark)
    for (_, tpid, cpu, flags, ts, t, ev, rest), s in trace:
        if ev == "sched_switch":
            prev, pstate, _, nxt = s
            if prev:
                close_next(prev, t)
            pend.pop(nxt, None)
            e = open_run.pop(nxt, None)
            if e and cpu == e["b"] and prev and pstate.startswith("R") and e["tw"] is not None:
                e["preempt"] = t - e["tw"]
                e["preempt_call"] = t - e["t"]
            if prev and pstate.startswith("R"):
                queued.add(prev)
            queued.discard(nxt)
            curr[cpu] = nxt
        elif ev == "sched_waking":
            s = WAKE.search(rest)
            if not s:
                continue
            pid = int(s.group(2))
            if not task_waking(flags, ts, tpid, cpu, mark, curr):
                continue
            close_next(tpid, t)
            if pid in queued or pid in curr.values() or pid in pend:
                pend.pop(pid, None)
                continue
            e = dict(a=cpu, t=t, tw=None, other_busy=bool(curr.get(1 - cpu, 0)), cls=None,
                     enqueue=None, on_a=None, next=None, after=None, preempt=None,
                     preempt_call=None, b=None)
            pend[pid] = e
            open_next.setdefault(tpid, []).append(e)
        elif ev in ("sched_wakeup", "sched_wakeup_new"):
            s = WAKE.search(rest)
            if not s:
                continue
            pid, tgt = int(s.group(2)), int(s.group(4))
            if pid not in curr.values():
                queued.add(pid)
            e = pend.pop(pid, None)
            if not e:
                continue
            e["tw"], e["b"], e["enqueue"], e["on_a"] = t, tgt, t - e["t"], cpu == e["a"]
            e["cls"] = ("own" if tgt == e["a"] else
                        "busy other" if e["other_busy"] else "idle other")
            if e["cls"] == "busy other":
                open_run[pid] = e
            out.append(e)
    return out


def med_us(xs):
    """the median of ns values in us, one decimal, or None"""
    return round(statistics.median(xs) / 1000, 1) if xs else None


def summary(paths):
    """{class: {n, enqueue, on_a, next, after, preempt, preempt_call}} over the traces"""
    es = [e for p in paths for e in wakeups(p)]
    r = {}
    for c in CLASSES:
        cs = [e for e in es if e["cls"] == c]
        r[c] = dict(n=len(cs), enqueue=med_us([e["enqueue"] for e in cs]),
                    on_a=round(sum(e["on_a"] for e in cs) / len(cs), 3) if cs else None,
                    next=med_us([e["next"] for e in cs if e["next"] is not None]),
                    after=med_us([e["after"] for e in cs if e["after"] is not None and
                                  e["after"] >= 0]),
                    preempt=med_us([e["preempt"] for e in cs if e["preempt"] is not None]),
                    preempt_call=med_us([e["preempt_call"] for e in cs
                                         if e["preempt_call"] is not None]),
                    n_preempt=sum(e["preempt"] is not None for e in cs))
    return r


def main(argv):
    as_json = "--json" in argv
    paths = [a for a in argv if a != "--json"]
    if not paths:
        print("Usage: " + __doc__.split("Usage: ")[1].split("\n")[0], file=sys.stderr)
        return 2
    try:
        r = summary(paths)
    except (OSError, EOFError, ValueError) as ex:  # lzma errors are OSError/EOFError
        print(f"wake_cost: {ex}", file=sys.stderr)
        return 2
    if not sum(v["n"] for v in r.values()):
        print("wake_cost: no wake-up by a task counted", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(r, sort_keys=True))
        return 0
    print(f"{'target':12} {'n':>6} {'enqueue':>8} {'on A':>6} {'next':>6} {'after':>6} "
          f"{'preempt':>8} {'from waking':>11} {'n':>5}")
    for c in CLASSES:
        v = r[c]
        print(f"{c:12} {v['n']:6} {v['enqueue']!s:>8} {v['on_a']!s:>6} {v['next']!s:>6} "
              f"{v['after']!s:>6} {v['preempt']!s:>8} {v['preempt_call']!s:>11} "
              f"{v['n_preempt']:5}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
