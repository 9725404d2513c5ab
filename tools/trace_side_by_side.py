#!/usr/bin/env python3
"""A recorded trace beside its replay by the trace workload, per task and per comm.

Usage: trace_side_by_side.py REAL_TRACE EXTRACTION_JSON SIM_TRACE [REGEX [SHOW]]

REAL_TRACE: the recording (ftrace text, .xz or plain); EXTRACTION_JSON: `schedlab
trace-workload REAL_TRACE --json`; SIM_TRACE: the --trace-out of `schedlab run --workload
trace:file=REAL_TRACE[,tasks=REGEX]` (the only workload of that run); REGEX: the same tasks=
("" for all); SHOW: a regex of the comms to print and to time (default: all replayed).

Tasks are matched as the workload creates them: the replayed tasks with no replayed parent are
spawned first, in the extraction's order (pids 1, 2, ... of the simulation), and the k-th fork
of a replayed parent is the k-th replayed fork of its recorded parent. For each task: CPU time
(the extraction's for the recording, where switches from idle can be missing; sched_switch for
the simulation), switch-outs, wake-ups (sched_waking, else sched_wakeup), and the wake-up
latency from the waking to the switch-in (no sample when the switch-in is not traced). Prints a
Markdown table per comm (tasks pooled), how many tasks have their CPU time within 10%, and the
completion time (the first event of a shown task to the last event of one).
"""
import json
import lzma
import re
import sys

LINE = re.compile(r"^\s*(.*?)-(\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(\d+)\]\s+(?:\S+\s+)?(\d+\.\d+):\s+(\w+):\s*(.*)$")
FIELD = re.compile(r"(\w+)=(\S+)")


def records(path):
    op = lzma.open if path.endswith(".xz") else open
    with op(path, "rt", errors="replace") as f:
        for line in f:
            if line.startswith("#"):
                continue
            m = LINE.match(line)
            if not m:
                continue
            comm, pid, cpu, ts, ev, rest = m.groups()
            sec, frac = ts.split(".")
            t = int(sec) * 10**9 + int(frac.ljust(9, "0")[:9])
            yield int(pid), int(cpu), t, ev, rest


def measure(path):
    """per pid: cpu ns, switch-outs, wake-ups, latency samples, first/last time; forks"""
    st = {}
    forks = {}
    running = {}  # cpu -> (pid, since)
    waking = {}  # pid -> time of the wake-up not yet followed by a switch-in
    have_waking = False

    def task(p, t):
        if p not in st:
            st[p] = {"cpu": 0, "sw": 0, "wk": 0, "lat": [], "first": t, "last": t}
        st[p]["last"] = t
        return st[p]

    for pid, cpu, t, ev, rest in records(path):
        f = dict(FIELD.findall(rest))
        if pid > 0:
            task(pid, t)
            cur = running.get(cpu)
            if cur is None or cur[0] != pid:  # seen running, no switch-in traced
                running[cpu] = (pid, t)
                waking.pop(pid, None)
        if ev == "sched_switch":
            prev, nxt = int(f["prev_pid"]), int(f["next_pid"])
            cur = running.get(cpu)
            if prev > 0:
                s = task(prev, t)
                if cur and cur[0] == prev:
                    s["cpu"] += t - cur[1]
                s["sw"] += 1
            running[cpu] = (nxt, t)
            if nxt > 0:
                s = task(nxt, t)
                if nxt in waking:
                    s["lat"].append(t - waking.pop(nxt))
        elif ev in ("sched_waking", "sched_wakeup"):
            if ev == "sched_waking":
                have_waking = True
            elif have_waking:
                continue
            p = int(f["pid"])
            task(p, t)["wk"] += 1
            waking[p] = t
        elif ev == "sched_process_fork":
            forks.setdefault(int(f["pid"]), []).append(int(f["child_pid"]))
            task(int(f["child_pid"]), t)
    return st, forks


def pct(v, q):
    if not v:
        return None
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))]


def us(ns):
    return "-" if ns is None else "%.0f" % (ns / 1000)


def main():
    real_path, ext_path, sim_path = sys.argv[1:4]
    rx = re.compile(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] else None
    show = re.compile(sys.argv[5]) if len(sys.argv) > 5 else None
    ext = json.load(open(ext_path))
    tasks = ext["per_task"]
    sel = {t["pid"]: (rx is None or rx.search(t["comm"]) is not None) for t in tasks}
    byp = {t["pid"]: t for t in tasks}
    real, rforks = measure(real_path)
    sim, sforks = measure(sim_path)

    # the simulation's pid of each recorded task
    roots = [t["pid"] for t in tasks if sel[t["pid"]] and (t["parent"] < 0 or not sel.get(t["parent"], False))]
    m = {}
    todo = []
    for i, p in enumerate(roots):
        m[p] = i + 1
        todo.append(p)
    while todo:
        p = todo.pop()
        kids = [c for c in rforks.get(p, []) if sel.get(c, False)]
        for c, s in zip(kids, sforks.get(m[p], [])):
            m[c] = s
            todo.append(c)

    groups = {}
    within = n = 0
    shown = [p for p in m if p in real and m[p] in sim and (show is None or show.search(byp[p]["comm"]))]
    first_r = min(real[p]["first"] for p in shown)
    last_r = max(real[p]["last"] for p in shown)
    first_s = min(sim[m[p]]["first"] for p in shown)
    last_s = max(sim[m[p]]["last"] for p in shown)
    for p in shown:
        s = m[p]
        r = real[p]
        x = sim[s]
        comm = byp[p]["comm"]
        g = groups.setdefault(comm, {"n": 0, "rc": 0, "sc": 0, "rs": 0, "ss": 0, "rw": 0, "sw": 0, "rl": [], "sl": []})
        rc = byp[p]["cpu_time_ns"]
        g["n"] += 1
        g["rc"] += rc
        g["sc"] += x["cpu"]
        g["rs"] += r["sw"]
        g["ss"] += x["sw"]
        g["rw"] += r["wk"]
        g["sw"] += x["wk"]
        g["rl"] += r["lat"]
        g["sl"] += x["lat"]
        n += 1
        if abs(x["cpu"] - rc) <= 0.10 * rc:
            within += 1
    print("| comm | tasks | CPU ms real | sim | switches real | sim | wake-ups real | sim | "
          "lat p50 us real | sim | lat p95 us real | sim |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for comm, g in sorted(groups.items(), key=lambda kv: -kv[1]["rc"]):
        print("| %s | %d | %.3f | %.3f | %d | %d | %d | %d | %s | %s | %s | %s |" % (
            comm, g["n"], g["rc"] / 1e6, g["sc"] / 1e6, g["rs"], g["ss"], g["rw"], g["sw"],
            us(pct(g["rl"], 0.5)), us(pct(g["sl"], 0.5)), us(pct(g["rl"], 0.95)), us(pct(g["sl"], 0.95))))
    print()
    print("tasks shown: %d (%d replayed); CPU time within 10%%: %d of %d" % (n, len(m), within, n))
    print("completion: real %.3f ms, simulated %.3f ms" % ((last_r - first_r) / 1e6, (last_s - first_s) / 1e6))


if __name__ == "__main__":
    main()
