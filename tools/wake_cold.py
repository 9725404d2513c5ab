#!/usr/bin/env python3
"""What a task's first step costs after a sleep, in real traces (issue 28, step 20).

On the measured guest a thread woken after sleeping a while does not take its next action at
once: rt-app's `waker` (a timer, then a resume) writes its sched_waking 10 us after its
switch-in when its vCPU was busy, 20-30 us when the vCPU had been idle for milliseconds,
where the model's switch costs (ctx_switch + cache_refill) are all it charges. A thread that
slept under a millisecond goes on in 4 us. Caches and TLB gone cold, the task's own and the
vCPU's (the host ran something else on the core while the guest halted), is the reading; the
machine's parameters wake_cold, wake_cold_idle and wake_cold_idle_decade model it.

Only the threads whose next action after a sleep is a wake-up are read (the wake-up's line
marks the first step's end; a run first would hide it): by the workload's JSON (the one beside
each trace), a task qualifies when after each of its blocking events (timer, sleep, suspend,
wait, sync) the next event, past lock and unlock, is a wake-up (resume, signal, broad) or
another blocking event, in the loop's order, phases in turn and round again; a task with any
other event there (run, runtime, barrier, mem, ...) is left out. For each switch-in of such a
thread after a sleep (its last switch-out left it in S or D) of --sleep ms or more (default 1):
d = its first sched_waking written by itself in task context, before its next switch-out,
minus the switch-in (a switch-out first: the row is left out, as a timer followed by a timer).
The row is `idle` when the switch came from the idle task (then the CPU's idle length: from
its switch to the idle task to this switch, in ms), `busy` otherwise.

Printed: the counts, the medians of d (us) by class and idle-length bin, and with -c DIR the
machine's switch cost (DIR/machine.conf's ctx_switch + cache_refill, what the model charges at
a switch-in) taken out:
  wake_cold              median(busy d) - base
  wake_cold_idle/_decade the least-absolute-deviations line of (idle d - base - wake_cold)
                         against log10(idle ms) over the idle rows: its value at 1 ms, its
                         slope (0 to 20 us a tenfold)
as machine.conf lines. --rows: one line per row instead (trace, task, class, sleep ms, idle ms,
d us).

Usage: wake_cold.py [-c DIR] [--sleep MS] [--rows] DIR...
  DIR...  recordings (real.trace.xz or real.trace and one rt-app JSON beside it) or `validate
          --sim-out` directories (sim.trace)
Exit 2 on bad input (a directory without a trace or one JSON, a JSON that is not rt-app's, a
bad option) or when no row is counted; 1 when the output cannot be written.
"""
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rtapp_json  # noqa: E402
from cli_common import run  # noqa: E402
from ftrace_lines import WAKE as WAKE_LINE  # noqa: E402
from ftrace_lines import NoTrace, reason, records, sched_lines, task_waking, trace_of  # noqa: E402

BLOCK = {"timer", "sleep", "suspend", "wait", "sync"}
WAKE = {"resume", "signal", "broad"}
PASS = {"lock", "unlock"}
# the keys of a task or phase that are not events
NOT_EVENTS = {"loop", "priority", "cpus", "instance", "policy", "phases", "delay", "nice",
              "dl-runtime", "dl-period", "dl-deadline", "util_min", "util_max", "taskgroup",
              "numa_membind", "nodes_membind"}
IDLE_BINS = (0.3, 3.0)  # ms: the medians' bins of the idle length


def kind(key):
    """an event key's kind: workgen's renamed repeats ("run1", "sleep2") read as their event"""
    return re.sub(r"\d+$", "", key)


def events(task):
    """the task's event kinds in loop order (a task's own events, else its phases' in turn)"""
    phases = task.get("phases") if isinstance(task, rtapp_json.Obj) else None
    bodies = [v for _, v in phases] if isinstance(phases, rtapp_json.Obj) else [task]
    out = []
    for body in bodies:
        if isinstance(body, rtapp_json.Obj):
            out += [kind(k) for k, _ in body if k not in NOT_EVENTS]
    return out


def qualifies(evs):
    """whether every blocking event is followed, past lock/unlock, by a wake-up or a block"""
    if not any(e in BLOCK for e in evs):
        return False
    n = len(evs)
    for i, e in enumerate(evs):
        if e not in BLOCK:
            continue
        for j in range(1, n + 1):
            nxt = evs[(i + j) % n]
            if nxt in PASS:
                continue
            if nxt not in WAKE and nxt not in BLOCK:
                return False
            break
    return True


def threads_of(d):
    """the qualifying task names (as the trace's comm: cut to 15 characters) of directory d"""
    js = rtapp_json.workload_files(d)
    if len(js) != 1:
        raise rtapp_json.BadInput(f"{d}: expected one rt-app *.json (found {len(js)})")
    return {name[:15] for name, task in rtapp_json.tasks_of(js[0])
            if isinstance(task, rtapp_json.Obj) and qualifies(events(task))}


def read(d, names, sleep_ns):
    """the rows of directory d: (task, 'idle' or 'busy', sleep ms, idle ms or None, d us)"""
    path = trace_of(d, ("real.trace.xz", "real.trace", "sim.trace"))
    rows = []
    out_at, slept, idle_at, fresh, curr, mark = {}, {}, {}, {}, {}, {}
    for (_, pid, cpu, flags, ts, t, event, rest), s in sched_lines(records(path), mark):
        if s:
            prev, state, ncomm, nxt = s
            fresh.pop(prev, None)
            if prev:
                out_at[prev], slept[prev] = t, state[:1] in ("S", "D")
            if not nxt:
                idle_at[cpu] = t
            elif ncomm in names and slept.get(nxt) and t - out_at[nxt] >= sleep_ns:
                idle = (t - idle_at[cpu]) / 1e6 if not prev and cpu in idle_at else None
                fresh[nxt] = (t, ncomm, (t - out_at[nxt]) / 1e6, idle)
            curr[cpu] = nxt
        elif event == "sched_waking" and pid in fresh and \
                task_waking(flags, ts, pid, cpu, mark, curr) and WAKE_LINE.search(rest):
            t0, name, sl, idle = fresh.pop(pid)
            rows.append((name, "busy" if idle is None else "idle", sl, idle,
                         (t - t0) / 1e3))
    return path, rows


def base_of(d):
    """ctx_switch + cache_refill (ns) of the machine directory d's machine.conf"""
    total = 0
    path = os.path.join(d, "machine.conf")
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*param\s+(ctx_switch|cache_refill)=(\d+)ns\s*$", line)
            if m:
                total += int(m.group(2))
    return total


def fit(xs, ys):
    """the least-absolute-deviations line y = a + b x (the medians' line: the rows' spread is
    skewed, the model charges one value): b on a grid of 100 ns from 0 to 20 us, a the median
    of y - b x for each; the b of the least sum of |y - a - b x| (the smallest of ties)"""
    best = None
    for step in range(0, 201):
        b = step * 100.0
        a = statistics.median(y - b * x for x, y in zip(xs, ys))
        cost = sum(abs(y - a - b * x) for x, y in zip(xs, ys))
        if best is None or cost < best[0] - 1e-6:
            best = (cost, a, b)
    return best[1], best[2]


def main(argv):
    cal, sleep_ms, rows_only, dirs = None, 1.0, False, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-c", "--sleep"):
            if i + 1 >= len(argv):
                sys.stderr.write(f"wake_cold.py: {a}: expected a value\n")
                return 2
            if a == "-c":
                cal = argv[i + 1]
            else:
                try:
                    sleep_ms = float(argv[i + 1])
                except ValueError:
                    sleep_ms = -1
                if not sleep_ms >= 0:
                    sys.stderr.write("wake_cold.py: --sleep: expected ms, 0 or more\n")
                    return 2
            i += 2
            continue
        if a == "--rows":
            rows_only = True
        elif a.startswith("-"):
            sys.stderr.write(f"wake_cold.py: unknown option {a} (expected -c DIR, --sleep MS, "
                             "--rows)\n")
            return 2
        else:
            dirs.append(a)
        i += 1
    if not dirs:
        sys.stderr.write("usage: wake_cold.py [-c DIR] [--sleep MS] [--rows] DIR...\n")
        return 2
    base = 0
    if cal is not None:
        try:
            base = base_of(cal)
        except OSError as e:
            sys.stderr.write(f"wake_cold.py: -c {cal}: cannot read: {e.strerror}\n")
            return 2
    rows = []
    for d in dirs:
        try:
            path, r = read(d, threads_of(d), int(sleep_ms * 1e6))
        except (rtapp_json.BadInput, NoTrace) as e:
            sys.stderr.write(f"wake_cold.py: {e}\n")
            return 2
        except (OSError, EOFError) as e:
            sys.stderr.write(f"wake_cold.py: {d}: cannot read: {reason(d, e)}\n")
            return 2
        rows += [(path,) + x for x in r]
    if not rows:
        sys.stderr.write(f"wake_cold.py: {' '.join(dirs)}: no switch-in after a sleep of "
                         f"{sleep_ms:g} ms or more of a thread whose next action is a wake-up\n")
        return 2
    if rows_only:
        for path, name, cls, sl, idle, d in rows:
            print("%s %s %s %.3f %s %.1f" % (path, name, cls, sl,
                                             "-" if idle is None else "%.3f" % idle, d))
        return 0
    busy = [r[5] for r in rows if r[2] == "busy"]
    idle = [r for r in rows if r[2] == "idle" and r[4] > 0]
    print("%d rows in %d trace(s), threads: %s" % (len(rows), len(dirs),
                                                   " ".join(sorted({r[1] for r in rows}))))
    print("%-24s %6s %9s %9s %9s" % ("class", "rows", "p25 us", "median", "p75"))

    def line(label, v):
        if v:
            q = statistics.quantiles(v, n=4) if len(v) > 1 else [v[0]] * 3
            print("%-24s %6d %9.1f %9.1f %9.1f" % (label, len(v), q[0], statistics.median(v),
                                                    q[2]))
    line("busy", busy)
    edges = (0,) + IDLE_BINS + (math.inf,)
    for lo, hi in zip(edges, edges[1:]):
        line("idle %g-%g ms" % (lo, hi), [r[5] for r in idle if lo <= r[4] < hi])
    print("the model's switch cost (ctx_switch + cache_refill): %d ns%s"
          % (base, "" if cal else " (no -c: 0)"))
    cold = max(0, round(statistics.median(busy) * 1000 - base)) if busy else 0
    print("param wake_cold=%dns" % cold)
    if len(idle) >= 2:
        a, b = fit([math.log10(r[4]) for r in idle], [r[5] * 1000 - base - cold for r in idle])
        print("param wake_cold_idle=%dns" % max(0, round(a)))
        print("param wake_cold_idle_decade=%dns" % max(0, round(b)))
    return 0


if __name__ == "__main__":
    run(main)
