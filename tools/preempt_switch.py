#!/usr/bin/env python3
"""The switch that follows a task's wake-up preemption on its own CPU, in real traces.

Issue 28 (docs/validate.md, steps 22 and 23): a task that wakes another on its own CPU and is
preempted by it does not switch at the wake-up. It finishes its system call (the broadcast,
the unlock) and takes the preemption on its way back to user mode, so the switch comes a few
microseconds after the sched_waking line. The model switched at the wake-up itself; the
machine parameter task_preempt is that time.

This reads ftrace text traces (plain or .xz) and takes every sched_waking written by the
running task of its CPU in task context (ftrace_lines.task_waking: no interrupt flag, no
interrupt entry at that instant, not the idle task) that is the first such line on its CPU
since the CPU's last switch, and whose CPU's next sched_switch is from that waker, left
runnable (R, R+), to that wakee: a preemption of the waker by its wakee. Printed: how many,
the time from the sched_waking to that switch at the 10th, 25th, 50th, 75th and 90th
percentiles (nearest rank, us), and `param task_preempt=Nns`, the median.

Usage: preempt_switch.py TRACE...   (directories: their real.trace.xz, real.trace or sim.trace)
Exit 2 on a file that cannot be read or when no such preemption is found; 1 when the output
cannot be written.
"""
import sys

from cli_common import run
from foreign_runs import pct  # the nearest-rank percentile
from ftrace_lines import WAKE, NoTrace, reason, records, sched_lines, task_waking, trace_of

QS = (10, 25, 50, 75, 90)


def delays(path):
    """the ns from each counted sched_waking to its waker's switch to the wakee, in one trace"""
    out = []
    mark, curr, pend = {}, {}, {}
    for rec, sw in sched_lines(records(path), mark):
        _, pid, cpu, flags, ts, t, ev, fields = rec
        if sw:
            prev, state, _, nxt = sw
            p = pend.pop(cpu, None)
            if p and prev == p[1] and state.startswith("R") and nxt == p[2]:
                out.append(t - p[0])
            curr[cpu] = nxt
        elif ev == "sched_waking" and cpu not in pend:
            w = WAKE.search(fields)
            if w and task_waking(flags, ts, pid, cpu, mark, curr):
                pend[cpu] = (t, pid, int(w.group(2)))
    return out


def main(argv):
    if not argv or any(a.startswith("-") for a in argv):
        print(__doc__, file=sys.stderr)
        return 2
    ds = []
    for a in argv:
        try:
            ds.extend(delays(trace_of(a, ["real.trace.xz", "real.trace", "sim.trace"])))
        except NoTrace as e:
            print(f"preempt_switch.py: {e}", file=sys.stderr)
            return 2
        except (OSError, ValueError) as e:
            print(f"preempt_switch.py: {a}: {reason(a, e)}", file=sys.stderr)
            return 2
    if not ds:
        print("preempt_switch.py: no task preempted by its own wakee in " + " ".join(argv),
              file=sys.stderr)
        return 2
    ds.sort()
    print(f"{len(ds)} wake-ups preempting their waker on its own CPU; from the sched_waking "
          "to the switch (us): " +
          ", ".join(f"p{q} {pct(ds, q) / 1000:.1f}" for q in QS))
    print(f"param task_preempt={pct(ds, 50)}ns")
    return 0


if __name__ == "__main__":
    run(main)
