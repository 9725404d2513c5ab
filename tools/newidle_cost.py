#!/usr/bin/env python3
"""The newidle balance's own time, read from ftrace text traces (issue 28, step 16).

docs/validate.md ("The newidle balance's own time"): in the recorded kernel a CPU going idle
takes time to balance (6.18's sched_balance_newidle: sched_balance_update_blocked_averages,
the groups' statistics, the busiest runqueue's lock, detach_tasks), and the pulled task's
switch-in comes after it. The traces show the balance only through its pull: the
sched_migrate_task line a newidle pull writes on the pulling CPU A, in the context of the task
that is blocking there. The reference instant is that task's own last line before it blocks:
the sched_wakeup it writes on A for a wake-up it makes (a task that wakes another and then
sleeps, rt-app's signal-then-wait, the common case in these workloads).

Each such sleep (a sched_wakeup written on A by A's running task in task context, no interrupt
flag, then that task's switch-out on A in state S or D within WINDOW, with no other line by it
on A between) is one of:

  pulled   A switched to a task whose sched_migrate_task to A was written on A by the sleeping
           task after its sched_wakeup (the newidle balance of that sleep pulled it)
  busy     A switched to a task that waited on A (no balance: pick_next_task found one)
  idle     A switched to its idle task (no pull: no balance ran, or it found nothing)

and the tool prints per class the medians (us) from the sched_wakeup to the switch-out, and for
the pulled from the sched_wakeup to the sched_migrate_task and from that to the switch-out.
The balance's time as the model needs it (`param newidle_cost`, the time from the CPU's decision
to balance to its examination of the other CPU's queue; `param newidle_tail`, from that
examination to the pulled task's switch-in): the decision is where a CPU that finds a task
switches (busy), so newidle_cost = median(wakeup -> migrate | pulled) - median(wakeup ->
switch-out | busy), newidle_tail = median(migrate -> switch-out | pulled), rounded to 100 ns.

Usage: newidle_cost.py [--json] TRACE...
Exit 2 on a file that cannot be read, a trace that is not of 2 CPUs, or no pulled sleep.
"""
import json
import statistics
import sys

from ftrace_lines import IRQ_FLAGS, WAKE, records, sched_lines
from wake_situations import migrate

WINDOW = 200000  # ns: the wake-up and the sleep of one step of the task's program
CLASSES = ["pulled", "busy", "idle"]


def sleeps(path):
    """the sleeps of one trace as (class, wakeup -> switch ns, wakeup -> migrate ns or None)"""
    curr = {}  # cpu -> pid running (0: idle)
    ref = {}  # cpu -> time of the running task's last sched_wakeup line there (task context)
    mig = {}  # cpu -> (time, pid) of a pull written there by the running task after ref
    mark = {}  # cpu -> timestamp text of its last interrupt entry line
    out = []
    trace = sched_lines(records(path, max_cpu=1), mark)
    for (_, tpid, cpu, flags, ts, t, ev, rest), s in trace:
        if ev == "sched_switch":
            prev, pstate, _, nxt = s
            r = ref.pop(cpu, None)
            m = mig.pop(cpu, None)
            if prev and r is not None and pstate[:1] in ("S", "D") and t - r <= WINDOW:
                if m and m[1] == nxt:
                    out.append(("pulled", t - r, m[0] - r))
                elif nxt == 0:
                    out.append(("idle", t - r, None))
                else:
                    out.append(("busy", t - r, None))
            curr[cpu] = nxt
        elif tpid == 0 or curr.get(cpu) != tpid:
            continue
        elif ev == "sched_wakeup":
            if flags[2:3] in IRQ_FLAGS or mark.get(cpu) == ts or not WAKE.search(rest):
                continue
            ref[cpu] = t
            mig.pop(cpu, None)
        elif ev == "sched_migrate_task":
            s = migrate(rest)
            if s and s[1] == cpu and cpu in ref:
                mig[cpu] = (t, s[0])
        elif ev == "sched_waking":
            ref.pop(cpu, None)  # another wake-up follows: the reference is its sched_wakeup
            mig.pop(cpu, None)
    return out


def med_us(v):
    return round(statistics.median(v) / 1000, 1) if v else None


def summary(paths):
    rows = {c: [[], []] for c in CLASSES}
    for p in paths:
        for cls, to_sw, to_mig in sleeps(p):
            rows[cls][0].append(to_sw)
            if to_mig is not None:
                rows[cls][1].append(to_mig)
    if not rows["pulled"][0]:
        raise ValueError("no newidle pull after a wake-up in " + " ".join(paths))
    pulled_sw, pulled_mig = rows["pulled"]
    tails = [s - m for s, m in zip(pulled_sw, pulled_mig)]
    r = dict(traces=len(paths))
    for c in CLASSES:
        r[c] = dict(n=len(rows[c][0]), to_switch_us=med_us(rows[c][0]))
    r["pulled"]["to_migrate_us"] = med_us(pulled_mig)
    r["pulled"]["migrate_to_switch_us"] = med_us(tails)
    base = statistics.median(rows["busy"][0]) if rows["busy"][0] else 0
    cost = statistics.median(pulled_mig) - base
    r["newidle_cost_ns"] = max(0, int(round(cost / 100)) * 100)
    r["newidle_tail_ns"] = int(round(statistics.median(tails) / 100)) * 100
    return r


def main(argv):
    as_json = "--json" in argv
    paths = [a for a in argv if a != "--json"]
    if not paths:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    try:
        r = summary(paths)
    except (OSError, ValueError, EOFError) as e:
        print(f"newidle_cost.py: {e}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(r, indent=1, sort_keys=True))
        return 0
    print(f"{r['traces']} traces: sleeps after a wake-up written on their CPU, by what the CPU "
          "switched to (medians, us from the sched_wakeup)")
    for c in CLASSES:
        x = r[c]
        extra = ""
        if c == "pulled":
            extra = (f"  to the sched_migrate_task {x['to_migrate_us']}, from it to the switch "
                     f"{x['migrate_to_switch_us']}")
        print(f"  {c:7s} {x['n']:6d}  to the switch-out {x['to_switch_us']}{extra}")
    print(f"newidle_cost={r['newidle_cost_ns']}ns newidle_tail={r['newidle_tail_ns']}ns")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
