#!/usr/bin/env python3
"""What happens at the waker's sleep after a wake-up onto the other, busy CPU (issue 28).

docs/validate.md ("Wake-up placement in the browser, by decision path", (c)): of the wake-ups by
a task onto the other CPU while it ran a task, the model's wakee runs elsewhere first (a balance
pulls it back) five times as often as the recordings'. This follows each such wake-up in ftrace
text traces (plain or .xz; real ones, and the model's own, `schedlab validate --sim-out`): a
sched_waking by the task running on CPU A (not an interrupt: wake_situations.py's test) of a
task asleep, whose sched_wakeup puts it on B, the other CPU, while B runs a task. Then, at the
waker's first switch-out on A after the wake-up, the wakee is

  ran       already switched in on B (it preempted B's task, or that one left)
  queued    still waiting on B; then split by how the waker left A:
              idle     it blocked and A switched to its idle task, straight to the wakee or
                       to a task moved to A within 50 us before (a newidle pull switches from
                       the blocking task to the pulled one: "pulled", or "another")
              A busy   it blocked and A switched to a task that waited there
              waker preempted  it was switched out runnable (R)
            and, for "idle", by the wakee's task_hot class then: hot (it last ran on B less
            than 0.5 ms before, sysctl_sched_migration_cost) or cold (longer, or it last ran on
            A: 6.18 clears exec_start when a task moves, so a moved task is never hot)
  moved     already moved to A (a sched_migrate_task) without having run on B, before the
            waker's switch-out
  ended     the trace ended first

A "queued, idle" wake-up is pulled when the wakee's sched_migrate_task to A comes within 50 us
of the waker's switch-out (PULL_WINDOW, wake_situations.py's) and the wakee's next switch-in
is on A; "another" when A switched to another task moved there. "pulled back" counts every wake-up whose wakee ran on A before it ran on B
(the doc's 10.0 of 319 a trace). Also the medians (us) from the sched_waking to the
sched_wakeup, to the waker's switch-out and to the wakee's switch-in on B.

Last, NI_RANDOM's ratio measured directly. A newidle balance that runs at a moment a CPU goes
idle while a cold task waits on the other CPU pulls (docs/validate.md, "The newidle pulls, rule
by rule against 6.18": the root domain is overloaded then, the imbalance is one task, a cold
task can move), and 6.18 runs it on (2 + ratio) of 1024 calls (it skips when a draw of 0-1023
exceeds 1 + ratio). So the share of such moments pulled in the real traces gives the ratio the
recorded kernel ran with: ratio = 1024 x share - 2, `param newidle_ratio=N`, once over all such
moments (wake_situations.py --newidle's cold ones) and once over this tool's "queued, idle,
cold" wake-ups (the wakee or another task pulled).

Usage: wake_pullback.py [--json] REAL... [--model MODEL...]
  counts per trace (the mean over the traces), real beside model.
Exit 2 on a file that cannot be read, a trace that is not of 2 CPUs, or no wake-up counted in
the real traces.
"""
import json
import statistics
import sys

from ftrace_lines import WAKE, records, sched_lines, task_waking
from wake_situations import AVG_IDLE_MAX, MIGRATION_COST, PULL_WINDOW, migrate, newidle

CLASSES = ["ran", "queued, idle, hot", "queued, idle, cold", "queued, A busy",
           "queued, waker preempted", "moved", "ended"]


def episodes(path):
    """the wake-ups of one trace as dicts: cls (one of CLASSES), pulled (queued, idle: pulled
    at the waker's sleep), back (the wakee ran on A before B), woken, to_sleep and to_run (ns
    from the sched_waking to the sched_wakeup, to the waker's switch-out and to the wakee's
    switch-in on B, or None)"""
    curr = {}  # cpu -> pid running (0: idle)
    queued = {}  # pid -> cpu: runnable, not running
    ran = {}  # pid -> (time, cpu) of its last switch-out
    mark = {}  # cpu -> timestamp of its last interrupt entry line
    pend = {}  # pid -> (A, waker) from a counted waking to its sched_wakeup
    live = {}  # wakee pid -> its open episode
    moved_to = {}  # pid -> (time, cpu) of its last sched_migrate_task while queued
    avg = {0: AVG_IDLE_MAX, 1: AVG_IDLE_MAX}  # cpu -> avg_idle, wake_situations.py's estimate
    idle_at = {}  # cpu -> when it went idle
    out = []
    trace = sched_lines(records(path, max_cpu=1), mark)
    for (_, tpid, cpu, flags, ts, t, ev, rest), s in trace:
        if ev == "sched_switch":
            prev, pstate, _, nxt = s
            for e in list(live.values()):
                if e["sleep"] is None and e["a"] == cpu and prev == e["waker"]:
                    e["to_sleep"] = t - e["t"]
                    w = e["pid"]
                    if e["cls"] is None:
                        mv = moved_to.get(nxt)
                        other = bool(nxt and nxt != w and mv and mv[1] == cpu and
                                     t - mv[0] <= PULL_WINDOW)
                        if pstate.startswith("R"):
                            e["cls"] = "queued, waker preempted"
                            e["sleep"] = -1
                        elif nxt in (0, w) or other:
                            since = t - ran[w][0] if w in ran else MIGRATION_COST
                            hot = ran.get(w, (0, -1))[1] == e["b"] and since < MIGRATION_COST
                            e["cls"] = "queued, idle, " + ("hot" if hot else "cold")
                            e["sleep"] = t
                            e["other"] = other
                            e["avg_idle"] = avg[cpu]
                        else:
                            e["cls"] = "queued, A busy"
                            e["sleep"] = -1
                    else:
                        e["sleep"] = -1
            e = live.get(nxt)
            if e:
                if cpu == e["b"]:
                    e["to_run"] = t - e["t"]
                else:
                    e["back"] = True
                if e["cls"] is None:
                    e["cls"] = "ran" if cpu == e["b"] else "moved"
                if e["sleep"] not in (None, -1) and cpu == e["a"] and e["mig"] is not None and \
                        abs(e["mig"] - e["sleep"]) <= PULL_WINDOW:
                    e["pulled"] = True
                e["done"] = True
            if prev and pstate.startswith("R"):
                queued[prev] = cpu
            queued.pop(nxt, None)
            if prev:
                ran[prev] = (t, cpu)
            if not prev:
                idle_at.pop(cpu, None)
            if not nxt:
                idle_at[cpu] = t
            curr[cpu] = nxt
            for p in [p for p, e in live.items() if e.get("done") and e["sleep"] is not None]:
                out.append(live.pop(p))
        elif ev == "sched_migrate_task":
            s = migrate(rest)
            if not s:
                continue
            if s[0] in queued:
                queued[s[0]] = s[1]
                moved_to[s[0]] = (t, s[1])
            e = live.get(s[0])
            if e and not e.get("done") and s[1] == e["a"]:
                # a pull by A while the waker still runs there is the newidle balance of the
                # waker's sleep (its line comes before the switch's): not "moved" before it
                if e["cls"] is None and not (cpu == e["a"] and curr.get(cpu) == e["waker"]):
                    e["cls"] = "moved"
                e["mig"] = t
        elif ev == "sched_waking":
            s = WAKE.search(rest)
            if not s:
                continue
            pid, a = int(s.group(2)), cpu
            if not task_waking(flags, ts, tpid, cpu, mark, curr) or pid in queued or \
                    pid in curr.values() or pid in live or \
                    curr.get(1 - a, 0) == 0 or pid not in ran:
                continue
            pend[pid] = (a, tpid, t)
        elif ev in ("sched_wakeup", "sched_wakeup_new"):
            s = WAKE.search(rest)
            if not s:
                continue
            pid, tgt = int(s.group(2)), int(s.group(4))
            if pid not in curr.values():
                queued[pid] = tgt
            if curr.get(tgt) == 0 and tgt in idle_at:
                avg[tgt] = min(avg[tgt] + (t - idle_at.pop(tgt) - avg[tgt]) // 8, AVG_IDLE_MAX)
            w = pend.pop(pid, None)
            if w and tgt != w[0] and curr.get(tgt, 0) and curr.get(w[0]) == w[1]:
                live[pid] = dict(pid=pid, a=w[0], b=tgt, waker=w[1], t=w[2], woken=t - w[2],
                                 cls=None, sleep=None,
                                 mig=None, pulled=False, other=False, back=False, avg_idle=None,
                                 to_sleep=None, to_run=None)
    for e in live.values():
        if e["cls"] is None:
            e["cls"] = "ended"
        out.append(e)
    return out


def summary(paths):
    """per trace means of each class and of the pulled, pulled back, and the medians"""
    n = len(paths)
    cnt = {c: 0 for c in CLASSES}
    pulled = {c: 0 for c in CLASSES}
    other = {c: 0 for c in CLASSES}
    back, sleeps, runs, wokens = 0, [], [], []
    for p in paths:
        for e in episodes(p):
            cnt[e["cls"]] += 1
            pulled[e["cls"]] += e["pulled"]
            other[e["cls"]] += e["other"]
            back += e["back"]
            wokens.append(e["woken"] / 1000.0)
            if e["to_sleep"] is not None:
                sleeps.append(e["to_sleep"] / 1000.0)
            if e["to_run"] is not None:
                runs.append(e["to_run"] / 1000.0)
    total = sum(cnt.values())
    cold = [pl for p in paths for _, pl, cls in newidle(p) if cls.startswith("cold")]
    return dict(cold_moments=len(cold), cold_pulled=sum(cold),
                own_moments=cnt["queued, idle, cold"],
                own_pulled=pulled["queued, idle, cold"] + other["queued, idle, cold"],
                traces=n, wakeups=total / n, back=back / n,
                classes={c: dict(per_trace=cnt[c] / n, pulled=pulled[c] / n, another=other[c] / n)
                         for c in CLASSES},
                woken_us=statistics.median(wokens) if wokens else None,
                to_sleep_us=statistics.median(sleeps) if sleeps else None,
                to_run_us=statistics.median(runs) if runs else None, total=total)


def ni_ratio(pulled, moments):
    """the NI_RANDOM ratio under which a balance runs on pulled of moments calls: 1024 x share
    - 2, within 1..1024 (None without a moment)"""
    if not moments:
        return None
    return min(1024, max(1, round(1024 * pulled / moments - 2)))


def ratio_lines(r):
    out = []
    for what, m, p in (("cold newidle moments", r["cold_moments"], r["cold_pulled"]),
                       ("queued, idle, cold wake-ups", r["own_moments"], r["own_pulled"])):
        n = ni_ratio(p, m)
        out.append(f"{what}: {m}, pulled {p}" +
                   (f" ({100.0 * p / m:.1f}%): param newidle_ratio={n}" if n else ""))
    return out


def cells(r):
    def f(v):
        return "-" if v is None else f"{v:.1f}"
    rows = [("wake-ups", f(r["wakeups"]), "", ""), ("pulled back", f(r["back"]), "", "")]
    for c in CLASSES:
        x = r["classes"][c]
        q = c.startswith("queued, idle")
        rows.append((c, f(x["per_trace"]), f(x["pulled"]) if q else "",
                     f(x["another"]) if q else ""))
    rows.append(("to the sched_wakeup, us (median)", f(r["woken_us"]), "", ""))
    rows.append(("to the waker's switch-out, us (median)", f(r["to_sleep_us"]), "", ""))
    rows.append(("to the wakee's run on B, us (median)", f(r["to_run_us"]), "", ""))
    return rows


def main(argv):
    as_json = "--json" in argv
    args = [a for a in argv if a != "--json"]
    real, model = args, []
    if "--model" in args:
        i = args.index("--model")
        real, model = args[:i], args[i + 1:]
        if not model:
            real = []
    if not real or any(a.startswith("-") for a in real + model):
        print(__doc__[__doc__.index("Usage:"):].rstrip(), file=sys.stderr)
        return 2
    try:
        r = summary(real)
        md = summary(model) if model else None
    except (OSError, EOFError, ValueError) as err:
        print(f"wake_pullback: {err}", file=sys.stderr)
        return 2
    if not r["total"]:
        print("wake_pullback: no wake-up onto the other, busy CPU in the real traces",
              file=sys.stderr)
        return 2
    for x in (r, md):
        if x:
            x["newidle_ratio"] = ni_ratio(x["cold_pulled"], x["cold_moments"])
            x["newidle_ratio_own"] = ni_ratio(x["own_pulled"], x["own_moments"])
    if as_json:
        print(json.dumps(dict(real=r, model=md), sort_keys=True))
        return 0
    print("per trace: wake-ups by a task onto the other CPU running a task; the wakee at the "
          "waker's switch-out")
    hdr = f"{'':40} {'real':>8} {'pulled':>7} {'another':>7}"
    if md:
        hdr += f" {'model':>8} {'pulled':>7} {'another':>7}"
    print(hdr)
    mc = cells(md) if md else None
    for i, (name, v, p, o) in enumerate(cells(r)):
        line = f"{name:40} {v:>8} {p:>7} {o:>7}"
        if mc:
            line += f" {mc[i][1]:>8} {mc[i][2]:>7} {mc[i][3]:>7}"
        print(line.rstrip())
    for side, x in (("real", r), ("model", md)):
        if x:
            for line in ratio_lines(x):
                print(f"{side}, {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
