#!/usr/bin/env python3
"""Per task, a recording's CPU time beside its replays' (issue 27's measurement).

Usage: trace_replay_table.py REAL_TRACE EXTRACTION_JSON NAME=SIM_TRACE... [--json OUT]

REAL_TRACE: the recording; EXTRACTION_JSON: `schedlab trace-workload REAL_TRACE --json` (its
cpu_ns are trace-stats' run times, tests/trace_accounting.sh); each SIM_TRACE: the
--trace-out of `schedlab run ... --workload trace:file=REAL_TRACE` (the only workload), named
NAME (a kernel). Tasks are matched as tools/trace_side_by_side.py matches them (spawn order,
then the k-th fork of each parent); the simulated CPU time is measured from the simulated
trace by trace-stats.

Prints, per task with any CPU time, recorded ms and each replay's ms and error, then per replay
the total, its error, the switches and migrations (recorded / replayed), the tasks within 10%
and the tasks of more than 10 ms within 25%.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_side_by_side import records, measure  # noqa: E402

SL = os.environ.get("SL", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "schedlab"))


NEXT = re.compile(r"next_pid=(\d+)|==> .*:(\d+) \[")


def sim_measure(path):
    """per pid CPU ns and switch-outs (trace-stats, which reads 2.6.3x's sched_switch too);
    forks"""
    ts = json.loads(subprocess.run([SL, "trace-stats", "--json", path], check=True,
                                   capture_output=True, text=True).stdout)
    st = {t["pid"]: {"cpu": t["cpu_time_ns"], "sw": t["context_switches"]} for t in ts["per_task"]}
    forks = {}
    for pid, cpu, t, ev, rest in records(path):
        if ev == "sched_process_fork":
            f = dict(re.findall(r"(\w+)=(\S+)", rest))
            forks.setdefault(int(f["pid"]), []).append(int(f["child_pid"]))
    return st, forks


def migrations(path):
    """switch-ins on another CPU than the task's previous one"""
    last, n = {}, 0
    for pid, cpu, t, ev, rest in records(path):
        if ev != "sched_switch":
            continue
        m = NEXT.search(rest)
        p = int(m.group(1) or m.group(2)) if m else 0
        if p > 0:
            if p in last and last[p] != cpu:
                n += 1
            last[p] = cpu
    return n


def match(tasks, rforks, sforks):
    roots = [t["pid"] for t in tasks if t["parent"] < 0]
    m, todo = {}, []
    for i, p in enumerate(roots):
        m[p] = i + 1
        todo.append(p)
    while todo:
        p = todo.pop()
        for c, s in zip(rforks.get(p, []), sforks.get(m[p], [])):
            m[c] = s
            todo.append(c)
    return m


def main():
    args = sys.argv[1:]
    out = None
    if "--json" in args:
        i = args.index("--json")
        out = args[i + 1]
        del args[i:i + 2]
    real_path, ext_path = args[:2]
    sims = [a.split("=", 1) for a in args[2:]]
    ext = json.load(open(ext_path))
    tasks = ext["per_task"]
    real, rforks = measure(real_path)
    rsw = sum(v["sw"] for v in real.values())
    rmig = migrations(real_path)
    rows = {}
    for t in tasks:
        # a reused pid: the first task of it is the one matched by spawn order
        rows.setdefault((t["pid"], t["comm"]), {"rec": 0, "sim": {}})["rec"] += t["cpu_time_ns"]
    summary = []
    for name, path in sims:
        sim, sforks = sim_measure(path)
        m = match(tasks, rforks, sforks)
        tot_s = 0
        for t in tasks:
            s = m.get(t["pid"])
            ns = sim[s]["cpu"] if s in sim else 0
            rows[(t["pid"], t["comm"])]["sim"][name] = ns
        for k, r in rows.items():
            tot_s += r["sim"].get(name, 0)
        summary.append((name, tot_s, sum(v["sw"] for v in sim.values()), migrations(path)))
    tot_r = sum(r["rec"] for r in rows.values())
    names = [n for n, _ in sims]
    print("| pid | comm | recorded ms | " + " | ".join("%s ms | err" % n for n in names) + " |")
    print("|---|---|---|" + "---|---|" * len(names))
    for (pid, comm), r in sorted(rows.items(), key=lambda kv: -kv[1]["rec"]):
        if not r["rec"] and not any(r["sim"].values()):
            continue
        cells = []
        for n in names:
            s = r["sim"].get(n, 0)
            cells.append("%.3f | %s" % (s / 1e6, "%+.1f%%" % (100.0 * (s - r["rec"]) / r["rec"]) if r["rec"] else "-"))
        print("| %d | %s | %.3f | %s |" % (pid, comm, r["rec"] / 1e6, " | ".join(cells)))
    print()
    res = {"recorded_ms": tot_r / 1e6, "switches": rsw, "migrations": rmig, "replays": {}}
    for name, tot_s, sw, mig in summary:
        w10 = n10 = w25 = n25 = 0
        for r in rows.values():
            if not r["rec"]:
                continue
            s = r["sim"].get(name, 0)
            n10 += 1
            w10 += abs(s - r["rec"]) <= 0.10 * r["rec"]
            if r["rec"] > 10e6:
                n25 += 1
                w25 += abs(s - r["rec"]) <= 0.25 * r["rec"]
        err = 100.0 * (tot_s - tot_r) / tot_r if tot_r else 0.0
        print("%s: total CPU %.3f ms recorded, %.3f ms replayed (%+.1f%%); switches %d / %d; "
              "migrations %d / %d; tasks within 10%%: %d of %d; tasks > 10 ms within 25%%: %d of %d"
              % (name, tot_r / 1e6, tot_s / 1e6, err, rsw, sw, rmig, mig, w10, n10, w25, n25))
        res["replays"][name] = {"cpu_ms": tot_s / 1e6, "error_pct": err, "switches": sw,
                                "migrations": mig, "within10": [w10, n10], "over10ms_within25": [w25, n25]}
    if out:
        with open(out, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
