#!/usr/bin/env python3
"""rt-app's loop cost against the other vCPU's state, with the runs' cold start apart (issue 28).

tools/run_stretch.py reads each rt-app log row (one loop of one phase: perf loops, c_duration
us asked) with `eff`, its thread's time on its CPU inside the row's window, and `busy`, the
share of that time the other vCPU was not idle. Here each row is also given its run events
(`runs`: the phase of the thread in the launch's JSON whose runs sum to the row's c_duration,
as tools/rtapp_event_cost.py tells them; a row no phase matches is left out and counted), and
its time on the CPU is fitted, by weighted least squares over the rows, as

    eff = a x loops + d x loops x idle + c x runs + w x wakes + s x resumes
                                                        (ns; idle = 1 - busy)

a the loop's cost (ns a loop) with the other vCPU busy all along, d what a loop costs more
when the other vCPU is idle all along (so (a + d) / a is the work rate's slow-down with the
other idle), c a cost per run event whatever its loops (the run's cold start, rt-app's own work
between runs inside the window), w a cost per wake-up the thread makes inside the window (its
own sched_waking lines, not an interrupt's; the model's wake_tail charges these apart), s a
cost per resume (its switch-ins inside the window beyond one a run: back on a CPU after a
preemption or a block; the model's ctx_switch and cache_refill). Each row is weighted by
1 / loops (a row's time varies with the interruptions it meets, which come with its length); a
term no row has (no wake-up at all) is left out, 0. The fit is made per file (the directories
of one name pooled, r1/video-long and r2/video-long: video-long) and over all the files, and
then, with the pooled a, d, c, w, s, per file: its rows' CPU per loop measured and predicted,
and their difference in per mille (`resid`): whether one machine-wide set explains the files'
different loop costs; `cls res` the same with an a per class of loops per run (below) the same
in every file and one d, c, w, s (whether the runs' lengths explain them). Printed beside: per
file the loops' mean idle share (weighted by loops), loops per run and wake-ups per million
loops (wk/Ml), and the fit without d for comparison.

The pooled d compares files as well as states (a file whose other vCPU idles more may have
cheaper loops for other reasons), so d is also fitted `within`: each cell (a file and a class
of loops per run: under 3000, 10000, 30000, 70000, 150000, 400000, more) has its own a, with
one d, c, w and s over all; its rate is 1000 ab / (ab + d), ab the cells' a weighted by loops.
`classes`: the same with the cells by class alone (their a printed), whatever the file.
Standard errors are the weighted least squares' (rows taken as independent).

Last, the loop's quiet cost as tools/rtapp_loop_cost.py reads it (per directory the lower
quartile of the rows' logged run * 1000 / perf, the median over directories: step 14's
14587 ns), once as it is and once with each row's cost divided by 1 + (d / ab) x its idle
share (within's d): what a loop costs with the other vCPU busy.

With --resumes, the resumes are split (docs/validate.md, "A resume's cost"): run_stretch.py
gives each row its preemptions (switch-outs in state R) resumed inside the window, each with
its time off the CPU, whether it came back on the CPU it left, what ran there meanwhile
(`rt-app`: only the file's logged threads, `else`: a task not of the logs, `idle`) and its
cause (the sched_waking of the task switched in, within 300 us and after that task's last time
on a CPU: `irq` in an interrupt on that CPU, `remote` from the other CPU, `own` by the
preempted thread; `queued`: none) with `gap`, that sched_waking to the switch-out; `blocks` are
the switch-ins beyond the runs and those resumes. Per split, its classes (count, mean gap and
time off, us) and the blocks take the resumes' place in within's fit and in `phases`'s (each
directory's thread and c_duration its own a, solved by taking the phases' weighted means out;
its standard errors count the phases' a). Last, `switch-ins after a foreign task`: the
switch-ins inside the window back on the CPU the thread left where a task not of the logs ran
meanwhile (run starts and resumes), a column beside the resumes, ns beyond them.

Usage: loop_other.py [--json] [--quiet-only] [--resumes] DIR...   (recorded directories as
       run_stretch.py's)
  --quiet-only  only the rows with no interrupt line on their CPU and no preemption inside
  --resumes     the resumes split as above
Prints `param rtapp_kloop=Nns` (the quiet cost with the other vCPU busy) and
`param sib_idle_rate=N` (the machine's work per 1000 ns of CPU with the other vCPU idle,
against 1000 with it busy: within's 1000 ab / (ab + d), rounded).
Exit 2 on bad input (as run_stretch.py's, a directory without one rt-app JSON, fewer rows than
parameters), 1 when the output cannot be written.
"""
import glob
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import flags, run  # noqa: E402
from run_stretch import BadInput, dir_rows  # noqa: E402
from rtapp_event_cost import phases  # noqa: E402


def solve(m, v):
    """x of m x = v by Gauss-Jordan elimination with partial pivoting; None when singular (a
    pivot under 1e-10: m is scaled to a unit diagonal first, by inverse())"""
    n = len(v)
    a = [list(m[i]) + [v[i]] for i in range(n)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        if abs(a[p][c]) < 1e-10:
            return None
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c and a[r][c]:
                f = a[r][c] / a[c][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return [a[i][n] / a[i][i] for i in range(n)]


def inverse(m):
    """m's inverse, m symmetric with a positive diagonal (a column all zero: None), solved
    scaled to a unit diagonal so that columns of different sizes (loops, runs) compare"""
    n = len(m)
    if any(m[i][i] <= 0 for i in range(n)):
        return None
    sc = [math.sqrt(m[i][i]) for i in range(n)]
    u = [[m[i][j] / (sc[i] * sc[j]) for j in range(n)] for i in range(n)]
    cols = [solve(u, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    if any(c is None for c in cols):
        return None
    return [[cols[j][i] / (sc[i] * sc[j]) for j in range(n)] for i in range(n)]


def wls(xs, ys, ws):
    """weighted least squares without intercept: (coefficients, standard errors) or None; a
    column all zero (no wake-up in any row) is left out, its coefficient and error 0"""
    keep = [i for i in range(len(xs[0])) if any(x[i] for x in xs)]
    if len(keep) < len(xs[0]):
        res = wls([[x[i] for i in keep] for x in xs], ys, ws) if keep else None
        if res is None:
            return None
        b, se = [0.0] * len(xs[0]), [0.0] * len(xs[0])
        for j, i in enumerate(keep):
            b[i], se[i] = res[0][j], res[1][j]
        return b, se
    k = len(xs[0])
    n = len(ys)
    if n <= k:
        return None
    m = [[sum(w * x[i] * x[j] for x, w in zip(xs, ws)) for j in range(k)] for i in range(k)]
    v = [sum(w * x[i] * y for x, y, w in zip(xs, ys, ws)) for i in range(k)]
    inv = inverse(m)
    if inv is None:
        return None
    b = [sum(inv[i][j] * v[j] for j in range(k)) for i in range(k)]
    rss = sum(w * (y - sum(bi * xi for bi, xi in zip(b, x))) ** 2 for x, y, w in zip(xs, ys, ws))
    s2 = rss / (n - k)
    return b, [math.sqrt(max(0.0, inv[i][i] * s2)) for i in range(k)]


def fit(rows, with_idle=True):
    """{a, d, c, w, s (ns), their se, n} of eff on loops, loops x idle (with_idle, else d 0),
    runs, wakes, resumes; None if singular"""
    xs = [(r["perf"], r["perf"] * (1 - r["busy"]) if with_idle else 0, r["runs"], r["wakes"],
           r["resumes"]) for r in rows]
    res = wls(xs, [r["eff"] for r in rows], [1.0 / r["perf"] for r in rows])
    if res is None:
        return None
    b, se = res
    return {"a": b[0], "d": b[1], "c": b[2], "w": b[3], "s": b[4], "a_se": se[0], "d_se": se[1],
            "c_se": se[2], "w_se": se[3], "s_se": se[4], "n": len(rows)}


CLASSES = (3000, 10000, 30000, 70000, 150000, 400000)  # loops per run: the cells' bounds


def cell(r):
    """the row's class of loops per run: 0 under CLASSES[0], ..."""
    lpr = r["perf"] / r["runs"]
    return sum(lpr >= b for b in CLASSES)


def within(rows, by_file=True, split=None):
    """{d, c, w, s, ab, their se, cells, cell_a: each cell's a ("FILE CLASS"), pred: a row's
    predicted eff} of eff on loops by (file,
    class) (by_file) or by class alone, loops x idle, runs, wakes, resumes; or None. With
    split (a list of keys), the resumes are replaced by one column per key, the row's count
    r["split"][key], their coefficients and errors in `split_s` and `split_se`"""
    def key(r):
        return (r["file"], cell(r)) if by_file else ("", cell(r))
    keys = sorted(set(key(r) for r in rows))
    idx = {k: i for i, k in enumerate(keys)}
    xs = []
    for r in rows:
        x = [0.0] * (len(keys) + 4)
        x[idx[key(r)]] = r["perf"]
        x[-4] = r["perf"] * (1 - r["busy"])
        x[-3] = r["runs"]
        x[-2] = r["wakes"]
        x[-1] = r["resumes"]
        if split is not None:
            x = x[:-1] + [r["split"].get(k, 0) for k in split] + [0]
        xs.append(x)
    res = wls(xs, [r["eff"] for r in rows], [1.0 / r["perf"] for r in rows])
    if res is None:
        return None
    b, se = res
    if split is not None:
        n = len(split)
        return {"d": b[-n - 2], "d_se": se[-n - 2], "split_s": dict(zip(split, b[-n - 1:-1])),
                "split_se": dict(zip(split, se[-n - 1:-1])), "cells": len(keys)}
    loops = sum(r["perf"] for r in rows)
    ab = sum(b[idx[key(r)]] * r["perf"] for r in rows) / loops

    def pred(r):
        return (b[idx[key(r)]] * r["perf"] + b[-4] * r["perf"] * (1 - r["busy"]) +
                b[-3] * r["runs"] + b[-2] * r["wakes"] + b[-1] * r["resumes"])
    return {"d": b[-4], "d_se": se[-4], "c": b[-3], "c_se": se[-3], "w": b[-2], "w_se": se[-2],
            "s": b[-1], "s_se": se[-1], "ab": ab, "cells": len(keys), "pred": pred,
            "cell_a": {"%s %d" % k: b[i] for k, i in idx.items()}}


def quiet_cost(dirs, factor):
    """the median over directories of the lower quartile of run * 1000 / perf / (1 + factor x
    idle) of their rows (ns a loop)"""
    q = []
    for rows in dirs:
        c = sorted(r["runcost"] / (1 + factor * (1 - r["busy"])) for r in rows)
        q.append(c[len(c) // 4])
    q.sort()
    n = len(q)
    return q[n // 2] if n % 2 else (q[n // 2 - 1] + q[n // 2]) / 2


def runs_of(d):
    """{thread name cut to 15: {c_duration: run events}} from the directory's rt-app JSON"""
    js = [j for j in sorted(glob.glob(os.path.join(d, "*.json")))
          if os.path.basename(j) != "machine-background.json"]
    if len(js) != 1:
        raise BadInput("%s: expected one rt-app JSON, found %d" % (d, len(js)))
    out = {}
    for name, ph in phases(js[0]).items():
        m = out.setdefault(name[:15], {})
        for cdur, runs in ph:
            m.setdefault(cdur, runs)
    return out


def rows_of(d, quiet_only):
    ph = runs_of(d)
    rows, _, _ = dir_rows(d)
    out = []
    left = 0
    for r in rows:
        n = ph.get(r["thread"], {}).get(r["cdur"])
        if not n or (quiet_only and (r["preempted"] or r["irq"] != "0")):
            left += 1
            continue
        out.append({"perf": r["perf"], "eff": r["eff"], "busy": r["busy"], "runs": n,
                    "wakes": r["wakes"], "resumes": max(0, r["spans"] - n),
                    "runcost": r["runcost"], "pre": r["resumes"],
                    "phase": (d, r["thread"], r["cdur"]), "foreign": r["foreign"],
                    "blocks": max(0, r["spans"] - n - len(r["resumes"]))})
    return out, left


OFF_BINS = (100000, 1000000, 4000000)  # ns off the CPU: the bounds of --resumes' off classes
SPLITS = (
    ("cause", lambda p: p["cause"] if p["cause"] != "other" else "queued",
     ("queued", "irq", "remote", "own")),
    ("cpu", lambda p: "same" if p["same"] else "moved", ("same", "moved")),
    ("off", lambda p: ("<0.1ms", "<1ms", "<4ms", ">=4ms")[sum(p["off"] >= b for b in OFF_BINS)],
     ("<0.1ms", "<1ms", "<4ms", ">=4ms")),
    ("ran", lambda p: p["ran"] if p["same"] else "moved", ("rt-app", "else", "idle", "moved")),
    ("queued, same CPU: ran", lambda p: p["ran"] if p["same"] and p["cause"] in (
        "queued", "other") else "x", ("rt-app", "else", "idle", "x")),
    ("queued, same CPU: off", lambda p: ("<0.1ms", "<1ms", "<4ms", ">=4ms")[
        sum(p["off"] >= b for b in OFF_BINS)] if p["same"] and p["cause"] in (
        "queued", "other") else "x", ("<0.1ms", "<1ms", "<4ms", ">=4ms", "x")),
)


def phase_fit(rows, keys):
    """{s: {key: ns}, se: {key: ns}, d, d_se, phases} of eff on loops with an a per phase (a
    directory's thread and c_duration: its rows against each other), loops x idle, runs, wakes
    and the columns r["split"][key]: the same weighted least squares as within's, solved by
    taking out each phase's weighted mean of every column over loops (weights loops); the
    standard errors count the phases' a among the parameters. None if singular"""
    def cols(r):
        return [1 - r["busy"], r["runs"] / r["perf"], r["wakes"] / r["perf"]] + [
            r["split"].get(k, 0) / r["perf"] for k in keys]
    groups = {}
    for r in rows:
        groups.setdefault(r["phase"], []).append(r)
    xs, ys, ws = [], [], []
    for g in groups.values():
        tot = sum(r["perf"] for r in g)
        mean = [sum(r["perf"] * cols(r)[i] for r in g) / tot for i in range(3 + len(keys))]
        my = sum(r["eff"] for r in g) / tot
        for r in g:
            xs.append([c - m for c, m in zip(cols(r), mean)])
            ys.append(r["eff"] / r["perf"] - my)
            ws.append(r["perf"])
    n, k = len(ys), sum(1 for i in range(3 + len(keys)) if any(x[i] for x in xs))
    if n - k - len(groups) < 1:
        return None
    res = wls(xs, ys, ws)
    if res is None:
        return None
    b, se = res
    f = math.sqrt((n - k) / float(n - k - len(groups)))
    return {"d": b[0], "d_se": se[0] * f, "s": dict(zip(keys, b[3:])),
            "se": {kk: v * f for kk, v in zip(keys, se[3:])}, "phases": len(groups)}


def resume_splits(rows, by_phase=False):
    """[(split name, [(class, resumes, mean gap us, mean off us, s ns, se ns)], blocks' s, se,
    blocks)] of within's fit with each split's classes and the blocks (switch-ins beyond the
    runs and the resumed preemptions) as columns in place of the resumes; a split the fit
    cannot solve is left out"""
    out = []
    for name, fn, classes in SPLITS:
        keys = ["pre " + c for c in classes] + ["blocks"]
        for r in rows:
            sp = {"blocks": r["blocks"]}
            for p in r["pre"]:
                k = "pre " + fn(p)
                sp[k] = sp.get(k, 0) + 1
            r["split"] = sp
        if by_phase:
            res = phase_fit(rows, keys)
            if res is not None:
                res = {"split_s": res["s"], "split_se": res["se"]}
        else:
            res = within(rows, True, keys)
        if res is None:
            continue
        lst = []
        for c in classes:
            ps = [p for r in rows for p in r["pre"] if fn(p) == c]
            if not ps:
                continue
            lst.append((c, len(ps), sum(p["gap"] for p in ps) / 1000.0 / len(ps),
                        sum(p["off"] for p in ps) / 1000.0 / len(ps), res["split_s"]["pre " + c],
                        res["split_se"]["pre " + c]))
        out.append((name, lst, res["split_s"]["blocks"], res["split_se"]["blocks"],
                     sum(r["blocks"] for r in rows)))
    return out


def foreign_fit(rows, by_phase=False):
    """(switch-ins after a foreign task, their s, se; the resumes', se) of within's fit (or
    the phases') with the resumes and the switch-ins back on the CPU the thread left where a
    task not of the file's logs ran meanwhile (run starts and resumes: what a per-program
    refill would charge) as two columns, or None"""
    keys = ["resumes", "foreign"]
    for r in rows:
        r["split"] = {"resumes": r["resumes"], "foreign": r["foreign"]}
    res = phase_fit(rows, keys) if by_phase else within(rows, True, keys)
    if res is None:
        return None
    s, se = (res["s"], res["se"]) if by_phase else (res["split_s"], res["split_se"])
    return (sum(r["foreign"] for r in rows), s["foreign"], se["foreign"], s["resumes"],
            se["resumes"])


def main(argv):
    seen, argv = flags(argv, ("--json", "--quiet-only", "--resumes"))
    as_json, quiet, by_resume = "--json" in seen, "--quiet-only" in seen, "--resumes" in seen
    if not argv or any(a.startswith("-") for a in argv):
        sys.stderr.write("usage: loop_other.py [--json] [--quiet-only] [--resumes] DIR...\n")
        return 2
    files = {}
    order = []
    left = {}
    dirs = []
    for d in argv:
        if not os.path.isdir(d):
            sys.stderr.write("loop_other.py: %s: not a directory\n" % d)
            return 2
        name = os.path.basename(os.path.normpath(d))
        try:
            rows, n = rows_of(d, quiet)
        except (OSError, BadInput, EOFError, ValueError) as e:
            sys.stderr.write("loop_other.py: %s\n" % e)
            return 2
        for r in rows:
            r["file"] = name
        if rows:
            dirs.append(rows)
        if name not in files:
            files[name] = []
            order.append(name)
            left[name] = 0
        files[name].extend(rows)
        left[name] += n
    every = [r for name in order for r in files[name]]
    pooled = fit(every)
    if pooled is None:
        sys.stderr.write("loop_other.py: too few rows, or rows that cannot tell the parameters "
                         "apart\n")
        return 2
    win = within(every)
    if win is None:
        sys.stderr.write("loop_other.py: too few rows, or rows that cannot tell the cells apart\n")
        return 2
    factor = win["d"] / win["ab"]
    cls = within(every, False)
    result = {"pooled": pooled, "pooled_no_idle": fit(every, False), "files": {},
              "within": {k: v for k, v in win.items() if k != "pred"},
              "classes": {k: v for k, v in cls.items() if k != "pred"} if cls else None,
              "kloop": quiet_cost(dirs, 0.0), "kloop_busy": quiet_cost(dirs, factor)}
    if by_resume:
        result["resumes"] = resume_splits(every)
        result["resumes_phase"] = resume_splits(every, True)
        result["foreign"] = [foreign_fit(every), foreign_fit(every, True)]
    for name in order:
        rows = files[name]
        loops = sum(r["perf"] for r in rows)
        runs = sum(r["runs"] for r in rows)
        cpu = sum(r["eff"] for r in rows)
        idle = sum(r["perf"] * (1 - r["busy"]) for r in rows)
        wakes = sum(r["wakes"] for r in rows)
        resumes = sum(r["resumes"] for r in rows)
        pred = (pooled["a"] * loops + pooled["d"] * idle + pooled["c"] * runs +
                pooled["w"] * wakes + pooled["s"] * resumes)
        result["files"][name] = {
            "rows": len(rows), "left_out": left[name], "loops": loops, "runs": runs, "wakes": wakes,
            "resumes": resumes,
            "idle": idle / loops if loops else 0.0, "loops_per_run": loops / runs if runs else 0,
            "ns_loop": cpu / loops if loops else 0.0, "pred_ns_loop": pred / loops if loops else 0,
            "resid": 1000.0 * (cpu - pred) / pred if pred else 0.0,
            "cls_resid": 1000.0 * (cpu / sum(cls["pred"](r) for r in rows) - 1) if cls and rows
            else 0.0,
            "fit": fit(rows) if len(rows) > 3 else None}
    if as_json:
        json.dump(result, sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
        return 0
    print("%-14s %5s %5s %6s %7s %6s %8s %8s %7s %7s  %s" % (
        "file", "rows", "left", "idle", "lp/run", "wk/Ml", "ns/loop", "pred", "resid", "cls res",
        "own fit: a d c w s (se)"))
    for name in order:
        f = result["files"][name]
        own = f["fit"]
        s = ("%.3f(%.3f) %+.3f(%.3f) %.0f(%.0f) %.0f(%.0f) %.0f(%.0f)" % (
            own["a"], own["a_se"], own["d"], own["d_se"], own["c"], own["c_se"], own["w"],
            own["w_se"], own["s"], own["s_se"]) if own else "-")
        print("%-14s %5d %5d %6.3f %7.0f %6.1f %8.3f %8.3f %+7.1f %+7.1f  %s" % (
            name, f["rows"], f["left_out"], f["idle"], f["loops_per_run"],
            1e6 * f["wakes"] / f["loops"] if f["loops"] else 0.0, f["ns_loop"],
            f["pred_ns_loop"], round(f["resid"], 1) + 0.0, round(f["cls_resid"], 1) + 0.0, s))
    p = pooled
    print("pooled (%d rows): a %.3f ns a loop (se %.3f), d %+.3f (se %.3f), c %.0f ns a run "
          "(se %.0f), w %.0f ns a wake-up (se %.0f), s %.0f ns a resume (se %.0f)"
          % (p["n"], p["a"], p["a_se"], p["d"], p["d_se"], p["c"], p["c_se"], p["w"], p["w_se"],
             p["s"], p["s_se"]))
    q = result["pooled_no_idle"]
    if q:
        print("pooled without d: a %.3f ns a loop (se %.3f), c %.0f ns a run (se %.0f), w %.0f "
              "(se %.0f), s %.0f (se %.0f)" % (q["a"], q["a_se"], q["c"], q["c_se"], q["w"],
                                              q["w_se"], q["s"], q["s_se"]))
    print("within (%d cells): d %+.3f (se %.3f) over a %.3f: %+.1f per mille; c %.0f ns a run "
          "(se %.0f), w %.0f (se %.0f), s %.0f (se %.0f)"
          % (win["cells"], win["d"], win["d_se"], win["ab"], 1000 * factor, win["c"], win["c_se"],
             win["w"], win["w_se"], win["s"], win["s_se"]))
    if cls:
        print("classes (%d, the same in every file): d %+.3f (se %.3f) over a %.3f; c %.0f ns a "
              "run (se %.0f), w %.0f (se %.0f), s %.0f (se %.0f)"
              % (cls["cells"], cls["d"], cls["d_se"], cls["ab"], cls["c"], cls["c_se"], cls["w"],
                 cls["w_se"], cls["s"], cls["s_se"]))
        bounds = (0,) + CLASSES
        print("  a by loops a run: " + ", ".join(
            "%d+ %.3f" % (bounds[int(k.split()[-1])], v)
            for k, v in sorted(cls["cell_a"].items(), key=lambda kv: int(kv[0].split()[-1]))))
    for name, lst, sb, sbe, nb in result.get("resumes", []):
        print("resumes by %s (within): " % name + "; ".join(
            "%s %d (gap %.1f us, off %.0f us) %.0f ns (se %.0f)" % c for c in lst) +
            "; blocks %d %.0f ns (se %.0f)" % (nb, sb, sbe))
    for name, lst, sb, sbe, nb in result.get("resumes_phase", []):
        print("resumes by %s (phases): " % name + "; ".join(
            "%s %d (gap %.1f us, off %.0f us) %.0f ns (se %.0f)" % c for c in lst) +
            "; blocks %d %.0f ns (se %.0f)" % (nb, sb, sbe))
    for how, ff in zip(("within", "phases"), result.get("foreign", [])):
        if ff:
            print("switch-ins after a foreign task (%s): %d, %.0f ns (se %.0f) beyond a "
                  "resume's %.0f ns (se %.0f)" % ((how,) + ff))
    print("quiet loop (lower quartiles' median, %d directories): %.3f ns; with the other vCPU "
          "busy: %.3f" % (len(dirs), result["kloop"], result["kloop_busy"]))
    print("param rtapp_kloop=%dns" % round(1000 * result["kloop_busy"]))
    print("param sib_idle_rate=%d" % round(1000 / (1 + factor)))
    return 0


if __name__ == "__main__":
    run(main)
