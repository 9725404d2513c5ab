#!/usr/bin/env python3
"""What stretches rt-app's runs in a recording: the other vCPU, interrupts, moves (issue 28).

Each row of an rt-app log (idx perf run period start end rel_st slack c_duration c_period
wu_lat) is one loop of a phase: c_duration us of runs asked, perf loops, run us of wall time
they took, inside [start, end] (us, put on the trace's clock: below). The recording's trace
(real.trace or real.trace.xz beside the logs, sched_switch lines) gives the thread's time on
its CPU inside that window, `eff`: the time it was off its CPU, asleep or runnable, is left
out (rt-app's work between runs, a few us a run, stays in). The row's stretch is eff /
c_duration, its cost eff * 1000 / perf ns a loop (comparable across launches whatever their
calibration), and its relative cost, the cost over
the median cost of the same thread's rows of the same c_duration (its phase) in the same
recording (runs differ in length and so in their cold start; the relative cost puts them
together).

Each row is put in groups by what went on while the thread was on its CPU in the window:

  other   the other vCPU's share of that time idle, running a thread of this file's logs
          (rt-app), or anything else: `idle` (busy under 10%), `rt-app` or `else` (busy 90%
          or more, mostly rt-app threads or mostly not), `part` (between)
  irq     interrupt-context trace lines (hardirq/softirq flag) on its own vCPU meanwhile:
          0 or 1+ (the tick's interrupt writes nothing and is not seen)
  moved   the thread ran on both vCPUs in the window, or first on another than where it
          last ran before it: yes / no

and per group printed: rows, the stretch's median and mean, `wall` the mean of the logged run
over c_duration (what validate's run mean sees: preemptions inside the runs included), the
median cost (ns/loop), the mean relative cost and its standard error. With --threads, the
same per thread. With --taken, per thread, what ran on the CPU a row's thread left
runnable (switched out in state R) until it was switched in again, inside the row's window:
the five largest, ms a recording. Last, per file, the least-squares line
of the relative cost against the other vCPU's busy share (rows of the thread's relative cost,
whatever their group): `busy slope`, the relative cost a run gains when the other vCPU is busy
for all of it against none of it, in per mille, with its standard error. A directory's
recordings are pooled under its name (r1/video-long, r2/video-long: video-long).

Per directory, too, the loop's cost where nothing took the CPU: the logged run over perf of
the rows of 1000 us asked or more with no switch-out of their thread in state R inside the
window (`unpreempted`), their mean and spread ((p75 - p25) / 1.349, a normal's sd); and over
the directories whose clock offset is sure, the medians of both as rtapp_kloop and
rtapp_kloop_sd lines (docs/validate.md, "What stretches a run").

A log's thread is found in the trace by its name (the log's name without `<log_basename>-`
and `-<instance>.log`, log_basename from the directory's JSON file, cut to 15 characters as
the kernel's comm); several logs of one name take its pids in order of their instance; a
name over 15 characters (the kernel refuses it, the thread stays `rt-app`) takes the pid of
the nearest named instance shifted by the difference of the instances (rt-app makes its
threads in that order), for the other vCPU's share only: the recordings miss some switch
lines of the threads left named rt-app (switch-ins too), so their rows are left out, and so is
a row whose window (or its first 10 us after the end) holds a switch line missing for its
thread (a CPU going idle, or switching from another task, while the thread was its last
switched in; or the thread switched out where it was not seen switched in). The rows left out
are counted per directory.

The logs' clock and the trace's differ by tens of ms in the recordings; the offset is found
per directory as the commonest distance (5 us bins, within 4 s) from a row's end to a sleep
(a switch-out not runnable) of its thread, which follows the end of a loop at once in most
files, and printed with the share of rows whose end is within 10 us of such a sleep; under
half it is marked UNSURE (loops that end in a timer already past, or in a `runtime`, do not
sleep there: the example files), and that directory's table is not to be trusted. A model's
side (validate --sim-out: sim.trace) is read the same way.

Usage: run_stretch.py [--json] [--threads] [--taken] DIR...   (each a recorded directory:
       logs, JSON, real.trace, real.trace.xz or sim.trace)
Exit 2 on a directory without logs or trace, a log or trace line that cannot be read, a log
whose thread is not in the trace; 1 when the output cannot be written.
"""
import bisect
import glob
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ftrace_lines import IRQ_FLAGS, WAKE, opener, parse, switch, uncommented  # noqa: E402
from cli_common import flags, run  # noqa: E402
from rtapp_json import BadInput, log_basename  # noqa: E402

IDLE_MAX = 0.1  # busy share under which the other vCPU counts as idle
BUSY_MIN = 0.9  # and at or over which as busy
SEARCH = 4000000000  # ns either side of a row's end searched for the clocks' offset
TOP = 5  # the takers printed per thread with --taken
LONG_US = 1000  # the runs asked of at least this long measure the loop's cost
MIN_ROWS = 8  # a directory with fewer such rows gives no figure
SURE = 0.5  # the share of rows ending at a sleep under which the offset is marked UNSURE


def log_rows(path):
    """(perf, run, start, end, c_duration) of each row; raises BadInput naming the line"""
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for no, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            w = line.split()
            if len(w) < 11:
                raise BadInput("%s:%d: expected 11 columns, found %d" % (path, no, len(w)))
            try:
                perf, run, start, end, cdur = (int(w[1]), int(w[2]), int(w[4]), int(w[5]),
                                               int(w[8]))
            except ValueError:
                raise BadInput("%s:%d: expected integers in perf, run, start, end and "
                               "c_duration" % (path, no)) from None
            out.append((perf, run, start, end, cdur))
    return out


def basename_of(d):
    """log_basename from the directory's JSON file (global's, tools/rtapp_json.py), rt-app's
    default rt-app without one"""
    for p in sorted(glob.glob(os.path.join(d, "*.json"))):
        base = log_basename(p)
        if base is not None:
            return base
    return "rt-app"


def logs_of(d):
    """[(thread name, instance, path)] of the directory's logs"""
    base = basename_of(d)
    out = []
    for p in sorted(glob.glob(os.path.join(d, "*.log"))):
        stem = os.path.basename(p)[:-4]
        m = re.match(r"^(.*)-(\d+)$", stem)
        if not m:
            raise BadInput("%s: expected a log named <basename>-<thread>-<instance>.log" % p)
        name = m.group(1)
        if name.startswith(base + "-"):
            name = name[len(base) + 1:]
        out.append((name, int(m.group(2)), p))
    return out


def read_trace(path):
    """per CPU the switch-ins ([t], [pid]), per pid its on-CPU spans [(a, b, cpu)] and runnable
    spans off the CPU [(a, b)], per pid its comm, per CPU the interrupt lines' times; ns"""
    cur = {}
    ons = {}
    comm = {}
    irqs = {}
    sleeps = {}
    preempts = {}
    wakes = {}  # pid -> times of the sched_waking lines it wrote itself (not in an interrupt)
    woken = {}  # pid -> (time, cpu, in an interrupt, waker pid) of the sched_waking lines of it
    lost = {}  # pid -> times its switch-out was missing (the span closed there)
    running = {}  # cpu -> (pid, since)
    seen = False
    with opener(path) as f:
        for no, (_, tpid, cpu, lflags, _, t, ev, rest) in parse(uncommented(f)):
            in_irq = lflags[2:3] in IRQ_FLAGS
            if ev == "sched_waking":
                wk = WAKE.search(rest)
                if wk:
                    woken.setdefault(int(wk.group(2)), []).append((t, cpu, in_irq, tpid))
            if in_irq and ev != "cpu_idle":
                irqs.setdefault(cpu, []).append(t)
            elif ev == "sched_waking" and tpid:
                wakes.setdefault(tpid, []).append(t)
            if ev == "cpu_idle" and "state=4294967295" not in rest:
                # the CPU goes idle: whatever ran there has stopped, its switch-out line
                # missing (some recordings lose the switch-outs of the threads left named
                # rt-app)
                if running.get(cpu, (0, 0))[0]:
                    ons.setdefault(running[cpu][0], []).append((running[cpu][1], t, cpu))
                    lost.setdefault(running[cpu][0], []).append(t)
                    running[cpu] = (0, t)
                    cur.setdefault(cpu, ([], []))
                    cur[cpu][0].append(t)
                    cur[cpu][1].append(0)
                continue
            if ev != "sched_switch":
                continue
            s = switch(rest)
            if not s:
                raise BadInput("%s:%d: expected sched_switch's prev_pid, prev_state, next_comm "
                               "and next_pid" % (path, no))
            seen = True
            prev, state, ncomm, nxt = s
            was = running.get(cpu, (0, 0))[0]
            if was and (was == prev or was != nxt):
                if was != prev:
                    lost.setdefault(was, []).append(t)
                ons.setdefault(was, []).append((running[cpu][1], t, cpu))
            if prev and was != prev and cpu in running:
                # prev switched out where it was not seen switched in: that switch-in line is
                # lost, and so is its time on the CPU since
                lost.setdefault(prev, []).append(t)
            if prev and state.startswith("R"):
                preempts.setdefault(prev, []).append((t, cpu))
            elif prev:
                sleeps.setdefault(prev, []).append(t)
            running[cpu] = (nxt, t)
            cur.setdefault(cpu, ([], []))
            cur[cpu][0].append(t)
            cur[cpu][1].append(nxt)
            if ncomm != "rt-app" or nxt not in comm:
                comm[nxt] = ncomm
    if not seen:
        raise BadInput("%s: no sched_switch line" % path)
    return cur, ons, comm, irqs, sleeps, lost, preempts, wakes, woken


def clock_offset(pid_rows, sleeps):
    """(ns to add to a log's times to put them on the trace's clock, the share of rows whose
    end is within 10 us of a sleep of its thread with it), or None: the commonest (in 5 us
    bins, within 4 s) distance from a row's end to a sleep of its thread, the median of the
    distances in that bin"""
    bins = {}
    n = 0
    for pid, rows in pid_rows:
        ts = sleeps.get(pid, [])
        for row in rows:
            n += 1
            e = row[3] * 1000
            i = bisect.bisect_left(ts, e - SEARCH)
            while i < len(ts) and ts[i] < e + SEARCH:
                bins.setdefault((ts[i] - e) // 5000, []).append(ts[i] - e)
                i += 1
    if not bins:
        return None
    best = max(sorted(bins), key=lambda k: len(bins[k]))
    off = sorted(bins[best])[len(bins[best]) // 2]
    hit = 0
    for pid, rows in pid_rows:
        ts = sleeps.get(pid, [])
        for row in rows:
            e = row[3] * 1000 + off
            i = bisect.bisect_left(ts, e - 10000)
            hit += i < len(ts) and ts[i] <= e + 10000
    return off, hit / float(n)


def overlap(a, b, lo, hi):
    return max(0, min(b, hi) - max(a, lo))


def segments(cur, cpu, a, b):
    """[(pid, ns)] of what ran on the CPU in [a, b), in order (pid 0: idle)"""
    times, pids = cur.get(cpu, ([], []))
    i = bisect.bisect_right(times, a) - 1
    out = []
    t = a
    while t < b:
        pid = pids[i] if i >= 0 else 0
        nxt = times[i + 1] if i + 1 < len(times) else b
        out.append((pid, min(nxt, b) - t))
        t = min(nxt, b)
        i += 1
    return out


def other_shares(cur, cpu, a, b, ours):
    """ns of [a, b) the CPU spent idle, running one of ours, running anything else"""
    idle = rt = other = 0
    for pid, ns in segments(cur, cpu, a, b):
        if pid == 0:
            idle += ns
        elif pid in ours:
            rt += ns
        else:
            other += ns
    return idle, rt, other


END_SLACK = 10000  # ns after a row's end where a lost line of its thread still leaves it out
WAKE_GAP = 300000  # ns: a preempter's sched_waking this close before the switch made it


def resume_of(tp, pcpu, span, seg, woken, ons, pid, ours):
    """a preemption of pid at tp on pcpu resumed with span (its next on-CPU span), seg what
    ran on pcpu meanwhile: {off: ns off the CPU, same: back on pcpu, ran: `rt-app` (only this
    file's other threads ran there), `else` (a task not of its logs), `idle` (nothing), cause:
    how the task switched in at tp came (`irq`: its sched_waking in an interrupt on pcpu,
    `remote`: on the other CPU, `own`: pid's own, `queued`: none within WAKE_GAP and after its
    last time on a CPU (ons): it was waiting), gap: ns from that sched_waking to tp (0 for
    queued)}"""
    nxt = seg[0][0] if seg else 0
    who = [w for w, ns in seg if ns > 0]
    ran = ("else" if any(w and w not in ours for w in who) else
           "rt-app" if any(w for w in who) else "idle")
    cause, gap = "queued", 0
    lst = woken.get(nxt, [])
    i = bisect.bisect_right(lst, (tp, 1 << 30, True, 1 << 62)) - 1
    ends = [b for a, b, c in ons.get(nxt, []) if b <= tp]
    if nxt and i >= 0 and tp - lst[i][0] <= WAKE_GAP and lst[i][0] >= max(ends or [0]):
        t, cpu, in_irq, waker = lst[i]
        gap = tp - t
        cause = ("remote" if cpu != pcpu else "irq" if in_irq else
                 "own" if waker == pid else "other")
    return {"off": span[0] - tp, "same": span[2] == pcpu, "ran": ran, "cause": cause,
            "gap": gap}


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def dir_rows(d):
    """the rows of one recorded directory, each a dict"""
    logs = logs_of(d)
    if not logs:
        raise BadInput("%s: no rt-app logs (*.log)" % d)
    tr = [p for p in (os.path.join(d, "real.trace"), os.path.join(d, "real.trace.xz"),
                        os.path.join(d, "sim.trace"))
          if os.path.exists(p)]
    if not tr:
        raise BadInput("%s: no real.trace or real.trace.xz" % d)
    cur, ons, comm, irqs, sleeps, lost, preempts, wakes, woken = read_trace(tr[0])
    by_name = {}
    for pid in sorted(comm):
        if pid:
            by_name.setdefault(comm[pid], []).append(pid)
    names = {}
    for name, inst, p in logs:
        names.setdefault(name[:15], []).append((inst, p))
    pid_of = {}
    unnamed = []
    for name, lst in names.items():
        pids = by_name.get(name, [])
        if not pids:
            unnamed.extend((inst, p, name) for inst, p in lst)
            continue
        if len(pids) < len(lst):
            raise BadInput("%s: thread %s: %d logs but %d such threads in the trace"
                           % (d, name, len(lst), len(pids)))
        for (inst, p), pid in zip(sorted(lst), pids):
            pid_of[p] = (name, pid, inst)
    # a name the kernel refused (over 15 characters) leaves the thread's comm rt-app; rt-app
    # makes its threads in the order of their instance, so the pid is a named neighbour's
    # shifted by the difference of the instances
    named = list(pid_of.values())
    for inst, p, name in unnamed:
        near = sorted(named, key=lambda v: (abs(v[2] - inst), v[2]))
        pid = near[0][1] + inst - near[0][2] if near else None
        if pid is None or comm.get(pid) not in ("rt-app", name):
            raise BadInput("%s: thread %s (instance %d) not found in the trace" % (d, name, inst))
        pid_of[p] = (name, pid, inst)
    unknown = set(p for _, p, _ in unnamed)
    ours = set(v[1] for v in pid_of.values())
    logged = [(pid_of[p][1], log_rows(p)) for _, _, p in logs]
    found = clock_offset(logged, sleeps)
    if found is None:
        raise BadInput("%s: no row's end is followed by a sleep of its thread in the trace" % d)
    shift, share = found
    out = []
    dropped = 0
    for (name, inst, p), (pid, lrows) in zip(logs, logged):
        tname = pid_of[p][0]
        spans = ons.get(pid, [])
        starts = [s[0] for s in spans]
        rows = []
        for perf, run, start, end, cdur in lrows:
            if perf <= 0 or cdur <= 0:
                continue
            if p in unknown:
                # a thread left named rt-app: the recordings miss some of its switch lines
                # (switch-ins too, not seen as such), so its on-CPU time is not known
                dropped += 1
                continue
            lo, hi = start * 1000 + shift, end * 1000 + shift
            j = max(0, bisect.bisect_left(starts, lo) - 1)
            inside = []
            foreign = 0
            while j < len(spans) and spans[j][0] < hi:
                if overlap(spans[j][0], spans[j][1], lo, hi) > 0:
                    inside.append(spans[j])
                    if j and spans[j][0] >= lo and spans[j - 1][2] == spans[j][2] and any(
                            w and w not in ours and ns > 0 for w, ns in segments(
                                cur, spans[j][2], spans[j - 1][1], spans[j][0])):
                        # back on the CPU it left, where a task not of this file's logs ran
                        foreign += 1
                j += 1
            k = bisect.bisect_left(starts, lo) - 1
            while k >= 0 and spans[k][1] > lo:
                k -= 1
            before = spans[k][2] if k >= 0 else None
            on = idle = rt = other = nirq = 0
            cpus = set()
            for a, b, cpu in inside:
                a, b = max(a, lo), min(b, hi)
                on += b - a
                cpus.add(cpu)
                i0, i1, i2 = other_shares(cur, 1 - cpu, a, b, ours - {pid})
                idle, rt, other = idle + i0, rt + i1, other + i2
                ts = irqs.get(cpu, [])
                nirq += bisect.bisect_left(ts, b) - bisect.bisect_left(ts, a)
            gone = lost.get(pid, [])
            if not on or bisect.bisect_right(gone, hi + END_SLACK) > bisect.bisect_left(gone, lo):
                # no run seen, or its thread's switch-out (or switch-in) missing in the window
                # or at its end (the sleep that ends the row, END_SLACK: the clocks' offset is
                # found to 10 us): the on-CPU time is not known
                dropped += 1
                continue
            eff = on
            first = min(inside)[2]
            moved = len(cpus) > 1 or (before is not None and before != first)
            busy = (rt + other) / on
            if busy < IDLE_MAX:
                grp = "idle"
            elif busy < BUSY_MIN:
                grp = "part"
            else:
                grp = "rt-app" if rt >= other else "else"
            pre = preempts.get(pid, [])
            i0 = bisect.bisect_left(pre, (lo, -1))
            i1 = bisect.bisect_left(pre, (hi, -1))
            taken = {}
            resumes = []
            for tp, pcpu in pre[i0:i1]:
                # runnable off its CPU from tp to its next switch-in: whoever ran on the CPU
                # it left meanwhile took that time
                k = bisect.bisect_right(starts, tp)
                tin = min(spans[k][0] if k < len(spans) else hi, hi)
                seg = segments(cur, pcpu, tp, tin)
                for who, ns in seg:
                    name = comm.get(who, str(who)) if who else "idle"
                    taken[name] = taken.get(name, 0) + ns
                if k < len(spans) and spans[k][0] < hi:
                    resumes.append(resume_of(tp, pcpu, spans[k], seg, woken, ons, pid,
                                             ours))
            rows.append({"thread": tname, "preempted": i1 - i0, "taken": taken,
                         "runcost": run * 1000.0 / perf, "stretch": eff / 1000.0 / cdur,
                         "wall": run / cdur, "cdur": cdur, "cost": eff / float(perf),
                         "perf": perf, "eff": eff,
                         "spans": len(inside), "resumes": resumes, "foreign": foreign,
                         "wakes": bisect.bisect_left(wakes.get(pid, []), hi) -
                         bisect.bisect_left(wakes.get(pid, []), lo),
                         "busy": busy, "other": grp, "irq": "1+" if nirq else "0",
                         "moved": "yes" if moved else "no"})
        # a phase's rows (one c_duration) have one shape of runs and so one cold start
        for c in set(r["cdur"] for r in rows):
            mc = median([r["cost"] for r in rows if r["cdur"] == c])
            for r in rows:
                if r["cdur"] == c:
                    r["rel"] = r["cost"] / mc
        out.extend(rows)
    return out, (shift, share), dropped


def unpreempted(rows):
    """(rows, mean, spread) of the loop's cost in the long runs nothing took the CPU from"""
    c = sorted(r["runcost"] for r in rows if not r["preempted"] and r["cdur"] >= LONG_US)
    n = len(c)
    if n < MIN_ROWS:
        return n, None, None
    return n, sum(c) / n, (c[3 * n // 4] - c[n // 4]) / 1.349


def stats(sel):
    """the figures of a group of rows"""
    n = len(sel)
    rel = [r["rel"] for r in sel]
    mean = sum(rel) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in rel) / (n - 1)) if n > 1 else 0.0
    return {"rows": n, "stretch": median([r["stretch"] for r in sel]),
            "stretch_mean": sum(r["stretch"] for r in sel) / n,
            "wall_mean": sum(r["wall"] for r in sel) / n,
            "cost": median([r["cost"] for r in sel]), "rel": mean, "rel_se": sd / math.sqrt(n)}


def slope(rows):
    """least squares of rel on busy: (per mille gained at busy 1, its standard error)"""
    n = len(rows)
    if n < 3:
        return None
    xs = [r["busy"] for r in rows]
    ys = [r["rel"] for r in rows]
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return None
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    res = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys)) / (n - 2)
    se = math.sqrt(res / sxx)
    return {"permille": 1000.0 * b / a, "se": 1000.0 * se / a, "rows": n}


GROUPS = (("other", ("idle", "part", "rt-app", "else")), ("irq", ("0", "1+")),
          ("moved", ("no", "yes")))


def main(argv):
    seen, argv = flags(argv, ("--json", "--threads", "--taken"))
    as_json, threads, taken = "--json" in seen, "--threads" in seen, "--taken" in seen
    if not argv or any(a.startswith("-") for a in argv):
        sys.stderr.write("usage: run_stretch.py [--json] [--threads] [--taken] DIR...\n")
        return 2
    files = {}
    ndirs = {}
    order = []
    shifts = []
    for d in argv:
        if not os.path.isdir(d):
            sys.stderr.write("run_stretch.py: %s: not a directory\n" % d)
            return 2
        name = os.path.basename(os.path.normpath(d))
        try:
            rows, shift, lost = dir_rows(d)
        except (OSError, BadInput, EOFError, ValueError) as e:
            sys.stderr.write("run_stretch.py: %s\n" % e)
            return 2
        shifts.append((d, shift, lost, unpreempted(rows)))
        if name not in files:
            files[name] = []
            order.append(name)
            ndirs[name] = 0
        files[name].extend(rows)
        ndirs[name] += 1
    result = {}
    for name in order:
        rows = files[name]
        res = {"rows": len(rows), "groups": {}, "busy_slope": slope(rows)}
        for key, vals in GROUPS:
            for v in vals:
                sel = [r for r in rows if r[key] == v]
                if sel:
                    res["groups"]["%s=%s" % (key, v)] = stats(sel)
        if threads:
            for t in sorted(set(r["thread"] for r in rows)):
                res["groups"]["thread " + t] = stats([r for r in rows if r["thread"] == t])
        if taken:
            res["taken_ms"] = {}
            for t in sorted(set(r["thread"] for r in rows)):
                tot = {}
                for r in rows:
                    if r["thread"] == t:
                        for who, ns in r["taken"].items():
                            tot[who] = tot.get(who, 0) + ns
                res["taken_ms"][t] = {w: round(ns / 1e6 / ndirs[name], 3) for w, ns in tot.items()}
        result[name] = res
    if as_json:
        json.dump({"files": result,
                   "directories": [{"dir": d, "offset_ns": o, "at_sleep": round(share, 4),
                                    "left_out": n, "unpreempted_rows": u[0],
                                    "unpreempted_ns_loop": u[1], "unpreempted_sd": u[2]}
                                   for d, (o, share), n, u in shifts]},
                  sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
        return 0
    for d, (o, share), n, u in shifts:
        print("%s: log clock + %.3f ms = trace clock (%.0f%% of the rows end at a sleep%s); %d"
              " rows left out (no run, or a switch-out missing); unpreempted: %d rows%s"
              % (d, o / 1e6, 100 * share, ", UNSURE" if share < SURE else "", n, u[0],
                 ", %.2f ns a loop, spread %.2f" % (u[1], u[2]) if u[1] is not None else ""))
    sure = [u for _, (o, share), n, u in shifts if share >= SURE and u[1] is not None]
    if sure:
        print("# the medians over %d directories (offset sure, %d rows or more)"
              % (len(sure), MIN_ROWS))
        print("param rtapp_kloop=%dns" % round(median([u[1] for u in sure]) * 1000))
        print("param rtapp_kloop_sd=%dns" % round(median([u[2] for u in sure]) * 1000))
    for name in order:
        res = result[name]
        print("%s: %d rows" % (name, res["rows"]))
        print("  %-24s %5s %8s %8s %8s %8s %7s %7s" % ("group", "rows", "stretch", "mean",
                                                       "wall", "ns/loop", "rel", "rel se"))
        for g, v in res["groups"].items():
            print("  %-24s %5d %8.3f %8.3f %8.3f %8.2f %7.3f %7.3f"
                  % (g, v["rows"], v["stretch"], v["stretch_mean"], v["wall_mean"], v["cost"],
                     v["rel"], v["rel_se"]))
        for t, tot in res.get("taken_ms", {}).items():
            top = sorted(tot.items(), key=lambda x: (-x[1], x[0]))[:TOP]
            print("  %-16s taken by %s" % (t, ", ".join("%s %.2f ms" % w for w in top) or "-"))
        s = res["busy_slope"]
        if s:
            print("  busy slope %+.1f per mille (standard error %.1f, %d rows)"
                  % (s["permille"], s["se"], s["rows"]))
        else:
            print("  busy slope -")
    return 0


if __name__ == "__main__":
    run(main)
