#!/usr/bin/env python3
"""The newidle moments split by what a 6.18 balance could see, real against model (issue 28).

wake_situations.py --newidle counts the moments a CPU goes idle (its task blocks, nothing waits
on it) while the other CPU has a task waiting, and how often the idle CPU pulls one. This splits
the same moments (docs/validate.md, "The newidle pulls, rule by rule against 6.18"):

  busy      the share of the last 32 ms (PELT's half-life) the other CPU, the busy one, ran a
            task: a stand-in for its PELT utilization (util_avg / 1024). 6.18 calls a one-CPU
            group with two tasks or more overloaded above 1024 x 100 / 117 = 875 (85.4%)
  runnable  the mean number of tasks runnable there (running or waiting) over the same 32 ms:
            a stand-in for runnable_avg / 1024, overloaded above 1.17
  waiters   how many tasks wait there: 1, 2, 3 or more
  run       the coldest waiter's (the longest since it last ran: the first one a balance from
            the tail of cfs_tasks tries) last run, ms
  since     the time since it last ran, ms (below 0.5: task_hot)
  sleep     its last sleep before the wake-up it waits from, ms ("preempted": it waits from a
            preemption)
  task      its name (the 12 commonest), and the names of the pulled tasks

Usage: newidle_split.py [--json] [--cold] [--skip NAME,...] REAL... [--model MODEL...]
  each class: its moments per trace and the share pulled, real then model.
  --cold       only the moments whose coldest waiter last ran 0.5 ms ago or more
  --skip ...   leave out the moments whose coldest waiter's name begins with one of these
               (the model's pinned background tasks, kworker-bg)
Exit 2 on a file that cannot be read, a trace that is not of 2 CPUs, or no moment in the real
traces.
"""
import json
import sys

from wake_situations import newidle

MS = 1e6


def classed(bounds, unit=1.0, fmt="{:g}"):
    """a key function putting a value into the classes [b0, b1), [b1, b2), ... (upper bounds),
    named by their ends in unit"""
    names = []
    lo = 0.0
    for hi in bounds:
        names.append(f"{fmt.format(lo / unit)}-{fmt.format(hi / unit)}")
        lo = hi
    names.append(f">={fmt.format(lo / unit)}")

    def key(v):
        return names[next((i for i, hi in enumerate(bounds) if v < hi), len(bounds))]
    return names, key


def splits():
    """(name, class names or None for free ones, key of a moment's detail)"""
    out = []
    n, k = classed([0.5, 0.7, 0.854], 0.01)
    out.append(("busy %", n, lambda d, k=k: k(d["busy"])))
    n, k = classed([1.0, 1.17, 1.5, 2.0])
    out.append(("runnable", n, lambda d, k=k: k(d["runnable"])))
    out.append(("waiters", ["1", "2", ">=3"],
                lambda d: str(d["waiters"]) if d["waiters"] < 3 else ">=3"))
    n, k = classed([0.1e6, 0.5e6, 2e6], MS)
    out.append(("run ms", n, lambda d, k=k: k(d["run"] if d["run"] is not None else 0)))
    n, k = classed([0.5e6, 2e6, 8e6], MS)
    out.append(("since ms", n, lambda d, k=k: k(d["since"])))
    out.append(("hot", ["hot, stayed", "hot, moved", "cold"],
                lambda d: "cold" if d["since"] >= 0.5e6 else
                "hot, moved" if d["moved"] else "hot, stayed"))
    n, k = classed([0.5e6, 2e6, 8e6], MS)
    out.append(("sleep ms", n + ["preempted"],
                lambda d, k=k: "preempted" if d["sleep"] is None else k(d["sleep"])))
    out.append(("task", None, lambda d: d["comm"]))
    return out


def tally(paths, cold=False, skip=()):
    """per split: class -> [moments, pulled]; and the pulled tasks' names -> pulls"""
    sp = splits()
    acc = {name: {} for name, _, _ in sp}
    who = {}
    for p in paths:
        for _, pl, _, d, comm in newidle(p, detail=True):
            if (cold and d["since"] < 0.5e6) or d["comm"].startswith(tuple(skip)):
                continue
            for name, _, key in sp:
                c = acc[name].setdefault(key(d), [0, 0])
                c[0] += 1
                c[1] += int(pl)
            if pl:
                who[comm] = who.get(comm, 0) + 1
    return acc, who


def main(argv):
    as_json, cold, skip, real, model, where = False, False, (), [], [], None
    it = iter(argv)
    for a in it:
        if a == "--json":
            as_json = True
        elif a == "--cold":
            cold = True
        elif a == "--skip":
            skip = tuple(x for x in next(it, "").split(",") if x)
        elif a == "--model":
            where = model
        elif a.startswith("-"):
            print(f"newidle_split.py: {a}: unknown option\n{__doc__}", file=sys.stderr)
            return 2
        else:
            (real if where is None else where).append(a)
    if not real:
        print(__doc__[__doc__.index("Usage:"):].rstrip(), file=sys.stderr)
        return 2
    sides = [("real", real)] + ([("model", model)] if model else [])
    try:
        res = {side: tally(paths, cold, skip) for side, paths in sides}
    except (OSError, ValueError, EOFError) as e:
        print(f"newidle_split.py: {e}", file=sys.stderr)
        return 2
    if not sum(n for n, _ in res["real"][0]["waiters"].values()):
        print("newidle_split.py: no CPU went idle with a task waiting on the other in "
              + " ".join(real) + (" (of those kept)" if cold or skip else ""), file=sys.stderr)
        return 2
    out = {}
    for name, classes, _ in splits():
        if classes is None:
            counts = {}
            for side, _ in sides:
                for c, (n, _) in res[side][0][name].items():
                    counts[c] = counts.get(c, 0) + n / len(dict(sides)[side])
            classes = sorted(counts, key=lambda c: -counts[c])[:12]
        rows = []
        for c in classes:
            r = dict(cls=c)
            for side, paths in sides:
                n, pl = res[side][0][name].get(c, [0, 0])
                r[side + "_n"] = n / len(paths)
                r[side + "_pulled"] = pl / n if n else None
            rows.append(r)
        out[name] = rows
    pulled = {side: {c: n / len(paths) for c, n in sorted(res[side][1].items(),
                                                          key=lambda kv: -kv[1])}
              for side, paths in sides}
    if as_json:
        print(json.dumps(dict(real_traces=len(real), model_traces=len(model), splits=out,
                              pulled_tasks=pulled), indent=1))
        return 0
    print(f"a CPU going idle with a task waiting on the other, per trace: {len(real)} real"
          + (f", {len(model)} model" if model else ""))
    for name, rows in out.items():
        print(f"{name:>16} {'real/trace':>10} {'pulled%':>7}" +
              (f" {'model/trace':>11} {'pulled%':>7}" if model else ""))
        for r in rows:
            line = f"{r['cls'][:16]:>16}"
            for side, _ in sides:
                v = r[side + "_pulled"]
                w = 11 if side == "model" else 10
                line += f" {r[side + '_n']:{w}.1f} {'   -' if v is None else f'{100 * v:4.0f}':>7}"
            print(line)
    for side, _ in sides:
        print(f"pulled tasks per trace, {side}: " +
              ", ".join(f"{c} {n:.1f}" for c, n in list(pulled[side].items())[:12]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
