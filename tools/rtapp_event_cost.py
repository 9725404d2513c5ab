#!/usr/bin/env python3
"""rt-app's own CPU between runs in recorded launches, per run event (issue 28, step 14).

The model charges an rt-app run rtapp_cold + loops x rtapp_kloop / 1000 ns and a waker wake_tail
after each wake-up it makes. What a recorded thread spends beyond its loops (rt-app's resume,
suspend, timer and log calls, the switches' share) is read here per (recording, thread):

  cpu      the thread's time on a CPU in the trace (real.trace or real.trace.xz beside the logs,
           sched_switch lines: switch-in to switch-out, by pid)
  loops    sum(perf) of its log rows (<basename>-<thread>-<instance>.log: idx perf run period
           start end rel_st slack c_duration ...), charged KLOOP ns per 1000 loops (--kloop,
           the recordings' 14587: tools/rtapp_loop_cost.py's median p25)
  runs     the run events of its rows: each row is one loop of one phase of the thread in the
           launch's JSON, told by its c_duration (the phase whose runs sum to it); a row no
           phase matches is counted and left out of runs (and reported)
  wakes    its sched_waking lines (the thread as the current task of the line), each charged
           --tail ns (the model's wake_tail, 11000), which the model already charges apart

and per thread y = (cpu - loops x KLOOP / 1000 - wakes x TAIL) / rows, x = runs / rows. The
least-squares line through the origin over all threads, each weighted by its rows over its
CPU per row (the variance of its mean y: interruptions come with time on the CPU), is the
per-run cost the model's rtapp_cold stands for: the model has no other
per-loop charge, so all of rt-app's own time between runs is put on the runs. Beside it, the
line with an intercept (the intercept: a per-loop cost not tied to the runs) for the record.
A thread with no rows or no trace time is left out. The thread's time before its first and
after its last logged row (its start, its exit) is in cpu: a few ms a recording.

Usage: rtapp_event_cost.py [--kloop NS] [--tail NS] [--rows] DIR...
  --rows  one line per (directory, thread): rows, loops, runs, wakes, cpu ms, x, y
Prints `param rtapp_cold=Nns` (the fit through the origin, rounded; 0 when negative).
Exit 2 on bad input (a directory without one JSON, logs or trace, a log or trace line not
understood), 1 when the output cannot be written.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rtapp_json  # noqa: E402
from ftrace_lines import opener, parse, switch  # noqa: E402
from run_stretch import BadInput, log_rows, logs_of  # noqa: E402

# sched_switch's prev_comm up to the first space (a name with a space is cut there)
PREV_COMM = re.compile(r"prev_comm=(\S+)")


def phases(path):
    """{thread: [(c_duration us, run events)]} of each phase of each task"""
    out = {}
    for name, body in rtapp_json.tasks_of(path):
        if not isinstance(body, rtapp_json.Obj):
            continue
        ph = body.get("phases")
        lists = [b for _, b in ph if isinstance(b, rtapp_json.Obj)] if isinstance(
            ph, rtapp_json.Obj) else [body]
        res = []
        for ev in lists:
            cdur = runs = 0
            for key, val in ev:
                if key.startswith("run"):
                    runs += 1
                    try:
                        if isinstance(val, (bool, list)) or val is None:
                            raise TypeError
                        cdur += int(float(val))
                    except (TypeError, ValueError):
                        raise BadInput("%s: task %s: expected a number of us for %s" %
                                       (path, name, key)) from None
            res.append((cdur, runs))
        out[name] = res
    return out


def trace_cpu(path):
    """{pid: [cpu ns, sched_waking lines as the current task, comm]}"""
    on = {}  # cpu -> (pid, since)
    acc = {}
    try:
        for no, (tcomm, pid, cpu, _, _, t, ev, rest) in parse(opener(path)):
            if ev not in ("sched_switch", "sched_waking"):
                continue
            if ev == "sched_waking":
                if pid:
                    acc.setdefault(pid, [0, 0, tcomm.strip()])[1] += 1
                continue
            w = switch(rest)
            if not w:
                raise BadInput("%s:%d: expected prev_pid and next_pid in sched_switch" %
                               (path, no))
            prev, _, _, nxt = w
            if cpu in on and on[cpu][0] == prev and prev:
                a = acc.setdefault(prev, [0, 0, ""])
                a[0] += t - on[cpu][1]
            if prev:
                c = PREV_COMM.search(rest)
                acc.setdefault(prev, [0, 0, ""])[2] = c.group(1) if c else ""
            on[cpu] = (nxt, t)
    except OSError as e:
        raise BadInput("%s: cannot read: %s" % (path, e.strerror)) from None
    return acc


def measure(d, kloop, tail):
    js = rtapp_json.workload_files(d)
    if len(js) != 1:
        raise BadInput("%s: expected one rt-app JSON, found %d" % (d, len(js)))
    ph = phases(js[0])
    tr = [p for p in (os.path.join(d, "real.trace"), os.path.join(d, "real.trace.xz"))
          if os.path.exists(p)]
    if not tr:
        raise BadInput("%s: expected real.trace or real.trace.xz" % d)
    cpu = trace_cpu(tr[0])
    logs = logs_of(d)
    if not logs:
        raise BadInput("%s: expected rt-app logs (*.log)" % d)
    out = []
    for name, inst, p in logs:
        comm = name[:15]
        pids = [pid for pid, a in cpu.items() if a[2] == comm]
        if len(pids) != 1 or name not in ph:
            continue  # instances of one name, or a thread the trace does not name: not told apart
        rows = loops = runs = unmatched = 0
        for perf, _, _, _, cdur in log_rows(p):
            rows += 1
            loops += perf
            n = [r for c, r in ph[name] if c == cdur]
            if n:
                runs += n[0]
            else:
                unmatched += 1
        if not rows or unmatched == rows:
            continue
        ns, wakes, _ = cpu[pids[0]]
        rows -= unmatched
        y = (ns - loops * kloop / 1000.0 - wakes * tail) / rows
        out.append(dict(dir=d, thread=name, rows=rows, unmatched=unmatched, loops=loops,
                        runs=runs, wakes=wakes, cpu_ms=ns / 1e6, x=runs / rows, y=y))
    return out


def fit(pts):
    """(slope through the origin, (intercept, slope) of the line), each thread weighted by
    rows / (cpu per row): a row's extra CPU varies with the interruptions its time on the CPU
    meets (the tick, interrupts, the other vCPU's cache traffic), so the variance of a thread's
    mean y is about proportional to its CPU per row over its rows; with weights by rows alone
    the long-run threads (1-10 ms a row), whose y moves by 10-100 us with a 1% difference in
    the loop's cost, decide the per-run cost of all"""
    w = [p["rows"] / max(p["cpu_ms"] * 1e6 / p["rows"], 1.0) for p in pts]
    sw = sum(w)
    sxx = sum(wi * p["x"] ** 2 for wi, p in zip(w, pts))
    sxy = sum(wi * p["x"] * p["y"] for wi, p in zip(w, pts))
    c0 = sxy / sxx
    mx = sum(wi * p["x"] for wi, p in zip(w, pts)) / sw
    my = sum(wi * p["y"] for wi, p in zip(w, pts)) / sw
    vxx = sxx - sw * mx * mx
    b = (sxy - sw * mx * my) / vxx if vxx > 0 else float("nan")
    return c0, (my - b * mx, b)


def main(argv):
    kloop, tail, show = 14587.0, 11000.0, False
    dirs = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--kloop", "--tail") and i + 1 < len(argv):
            try:
                v = float(argv[i + 1])
            except ValueError:
                sys.stderr.write("rtapp_event_cost.py: %s: expected ns, found %r\n" %
                                 (a, argv[i + 1]))
                return 2
            if a == "--kloop":
                kloop = v
            else:
                tail = v
            i += 2
            continue
        if a == "--rows":
            show = True
        elif a.startswith("-"):
            sys.stderr.write("usage: rtapp_event_cost.py [--kloop NS] [--tail NS] [--rows] "
                             "DIR...\n")
            return 2
        else:
            dirs.append(a)
        i += 1
    if not dirs:
        sys.stderr.write("usage: rtapp_event_cost.py [--kloop NS] [--tail NS] [--rows] DIR...\n")
        return 2
    try:
        pts = [p for d in dirs for p in measure(d, kloop, tail)]
    except BadInput as e:
        sys.stderr.write("rtapp_event_cost.py: %s\n" % e)
        return 2
    if not pts or not sum(p["rows"] * p["x"] ** 2 for p in pts):
        sys.stderr.write("rtapp_event_cost.py: no thread with logged runs and trace time\n")
        return 2
    try:
        if show:
            print("%-40s %-16s %6s %9s %6s %6s %9s %6s %9s" % (
                "directory", "thread", "rows", "loops", "runs", "wakes", "cpu ms", "x", "y ns"))
            for p in pts:
                print("%-40s %-16s %6d %9d %6d %6d %9.3f %6.2f %9.0f" % (
                    p["dir"][-40:], p["thread"][:16], p["rows"], p["loops"], p["runs"],
                    p["wakes"], p["cpu_ms"], p["x"], p["y"]))
        c0, (a, b) = fit(pts)
        rows = sum(p["rows"] for p in pts)
        print("threads %d, rows %d (%d matched no phase), runs %d, wakes %d; kloop %.0f ns, "
              "tail %.0f ns" % (len(pts), rows, sum(p["unmatched"] for p in pts),
                                sum(p["runs"] for p in pts), sum(p["wakes"] for p in pts),
                                kloop, tail))
        print("per run (through the origin): %.0f ns; with an intercept: %.0f ns a run + %.0f "
              "ns a loop" % (c0, b, a))
        print("param rtapp_cold=%dns" % max(0, int(c0 + 0.5)))
        sys.stdout.flush()
    except OSError:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
