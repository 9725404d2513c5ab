#!/usr/bin/env python3
"""The idle vCPU's balances on a 2-CPU machine, real against model (issue 28, step 14).

Reads ftrace text traces (plain or .xz; the recordings and the model's `schedlab validate
--sim-out` traces) and counts, per second of each trace (from the first to the last switch to
a task switched in 20 times or more, the workload's; the events are counted over the whole
trace):

  moves      sched_migrate_task lines that are no wake-up's (no sched_waking of the task
             pending or at the same instant), by where the task went: "idle" (the destination
             runs its idle task: an idle or nohz balance), "newidle" (the destination's task
             blocks next, within 100 us), "busy" (another running task: a periodic balance)
  exits      idle exits (cpu_idle state=4294967295), by the phase of the tick (HZ 250: "tick"
             when within 300 us after the phase where the trace's idle exits are densest,
             100 us bins modulo 4 ms) and by what follows on that CPU before its next idle
             entry: "pull" (it runs a task an idle balance moved there), "wake" (a task woken
             there), "nothing" (back to idle with no task run); and by the other CPU busy
             (a tick there may have kicked it) or idle (its own tick)
  waits      episodes where a task waits (runnable, not running) on one CPU while the other
             runs its idle task, from the later of the two starts to the first of: the task
             moved to the idle CPU by a balance ("pulled"), the task run where it waits
             ("ran"), the idle CPU taking another task ("taken"). A task that no later line
             names ends no episode (the recordings lost some preempted tasks' lines,
             ftrace_lines.last_named). Printed: the count of each end and the pulled ones'
             median and 90th percentile waits.

Usage: idle_kick.py [--min N] [--json] TRACE...   Each trace is reported on its own line, then
the sum. --min N: the span's tasks are those switched in N times or more (default 20).
Exit 2 on a file that cannot be read, a trace that is not of 2 CPUs, a bad option.
"""
import json
import sys

from ftrace_lines import SW, WAKE, last_named, reason, records, switch

TICK = 4000000  # ns: HZ 250
BIN = 100000  # ns: the bins of the tick's phase
WINDOW = 300000  # ns: an exit this soon after the phase is the tick's (or its kick's)
NEWIDLE_WINDOW = 100000  # ns: a pull this close before its CPU's task blocks is newidle's
EXIT = "4294967295"
MIN_WAKES = 20


def fields(rest):
    """the key=value fields of an event line as a dict"""
    return dict(kv.split("=", 1) for kv in rest.split() if "=" in kv)


def read(path):
    """(cpu, flags, ns, event, rest) of each event line"""
    return [(cpu, flags, t, ev, rest)
            for _, _, cpu, flags, _, t, ev, rest in records(path, 1, f"{path}: ")]


def tick_phase(exits):
    """the start of the densest 100 us bin of the exit times modulo the tick (0 if none)"""
    bins = {}
    for t in exits:
        b = (t % TICK) // BIN
        bins[b] = bins.get(b, 0) + 1
    if not bins:
        return 0
    return max(sorted(bins), key=lambda b: bins[b]) * BIN


def pct(v, q):
    """the q-quantile of the sorted list v (nearest rank), None when empty"""
    if not v:
        return None
    return v[min(len(v) - 1, int(q * len(v)))]


def analyse(path, min_wakes=MIN_WAKES):
    ev = read(path)
    named = last_named(path)
    wakings = {(int(fields(r).get("pid", -1)), t) for (_, _, t, e, r) in ev if e == "sched_waking"}
    curr = [0, 0]
    idle_since = [ev[0][2] if ev else 0] * 2
    pending = set()  # tasks between sched_waking and sched_wakeup
    waiting = {}  # pid -> (cpu, since)
    pulled_to = [{}, {}]  # per CPU: pids an idle balance moved there since its idle entry
    woken_to = [set(), set()]
    nb_pending = [None, None]  # a non-wake move to a busy CPU: (curr, t) until its next switch
    moves = {"idle": 0, "newidle": 0, "busy": 0}
    exits = []  # (t, cpu, other busy, outcome)
    open_exit = [None, None]
    episodes = {}  # pid -> start
    waits = {"pulled": [], "ran": [], "taken": []}

    def end_episode(pid, t, how):
        s = episodes.pop(pid, None)
        if s is not None and named.get(pid, 0) >= t:
            waits[how].append(t - s)

    def start_episodes(t):
        for pid, (c, since) in waiting.items():
            if curr[1 - c] == 0 and pid not in episodes and named.get(pid, 0) > t:
                episodes[pid] = max(since, idle_since[1 - c])

    for cpu, flags, t, e, rest in ev:
        if e == "cpu_idle":
            f = fields(rest)
            c = int(f.get("cpu_id", cpu))
            if f.get("state") == EXIT:
                open_exit[c] = [t, curr[1 - c] != 0, "nothing"]
                exits.append(open_exit[c])
            elif open_exit[c] is not None:
                open_exit[c] = None
        elif e in ("sched_waking",):
            w = WAKE.search(rest)
            if w:
                pending.add(int(w.group(2)))
        elif e in ("sched_wakeup", "sched_wakeup_new"):
            w = WAKE.search(rest)
            if w:
                pid, tc = int(w.group(2)), int(w.group(4))
                pending.discard(pid)
                if pid not in (curr[0], curr[1]):
                    waiting[pid] = (tc, t)
                    woken_to[tc].add(pid)
                    if curr[1 - tc] == 0 and named.get(pid, 0) > t:
                        episodes.setdefault(pid, max(t, idle_since[1 - tc]))
        elif e == "sched_migrate_task":
            f = fields(rest)
            pid, dst = int(f["pid"]), int(f["dest_cpu"])
            if pid in pending or (pid, t) in wakings:
                continue
            if pid in waiting:
                waiting[pid] = (dst, waiting[pid][1])
            if curr[dst] == 0:
                moves["idle"] += 1
                pulled_to[dst][pid] = t
                end_episode(pid, t, "pulled")
            else:
                nb_pending[dst] = (curr[dst], t)
                end_episode(pid, t, "pulled")
        elif e == "sched_switch":
            m = switch(rest)
            if not m:
                continue
            prev, pstate, _, nxt = m
            if nb_pending[cpu] is not None:
                who, tm = nb_pending[cpu]
                blocks = who == prev and not pstate.startswith("R") and t - tm <= NEWIDLE_WINDOW
                moves["newidle" if blocks else "busy"] += 1
                nb_pending[cpu] = None
            if prev != 0 and pstate.startswith("R"):
                waiting[prev] = (cpu, t)
            if nxt in waiting:
                del waiting[nxt]
            end_episode(nxt, t, "ran")
            if nxt != 0 and prev == 0:
                # the idle CPU takes a task: episodes waiting for it end
                for pid in [p for p, s in episodes.items()
                            if p != nxt and waiting.get(p, (cpu, 0))[0] == 1 - cpu]:
                    end_episode(pid, t, "taken")
                if open_exit[cpu] is not None:
                    if nxt in pulled_to[cpu]:
                        open_exit[cpu][2] = "pull"
                    elif nxt in woken_to[cpu]:
                        open_exit[cpu][2] = "wake"
                    else:
                        open_exit[cpu][2] = "other"
                    open_exit[cpu] = None
            curr[cpu] = nxt
            if nxt == 0:
                idle_since[cpu] = t
                pulled_to[cpu] = {}
                woken_to[cpu] = set()
                start_episodes(t)
    # the workload's span: from the first to the last switch to a task switched in min_wakes
    # times or more (the recordings hold seconds of the harness before and after)
    wt = {}
    for _, _, t, e, r in ev:
        if e == "sched_switch":
            m = SW.search(r)
            if m and m.group(4) != "0":
                wt.setdefault(int(m.group(4)), []).append(t)
    ts = [t for v in wt.values() if len(v) >= min_wakes for t in v]
    span = (max(ts) - min(ts)) / 1e9 if ts else 0.0
    phase = tick_phase([x[0] for x in exits])
    ex = {}
    for t, other_busy, outcome in exits:
        k = ("tick" if (t - phase) % TICK < WINDOW else "off") + "/" + (
            "other busy" if other_busy else "other idle") + "/" + outcome
        ex[k] = ex.get(k, 0) + 1
    for v in waits.values():
        v.sort()
    return {"span": span, "moves": moves, "exits": ex, "waits": waits}


def merge(rs):
    out = {"span": 0.0, "moves": {}, "exits": {}, "waits": {"pulled": [], "ran": [], "taken": []}}
    for r in rs:
        out["span"] += r["span"]
        for k, v in r["moves"].items():
            out["moves"][k] = out["moves"].get(k, 0) + v
        for k, v in r["exits"].items():
            out["exits"][k] = out["exits"].get(k, 0) + v
        for k, v in r["waits"].items():
            out["waits"][k].extend(v)
    for v in out["waits"].values():
        v.sort()
    return out


def summary(r):
    s = r["span"] or 1.0
    ex = r["exits"]

    def rate(pred):
        return round(sum(v for k, v in ex.items() if pred(k.split("/"))) / s, 2)

    w = r["waits"]["pulled"]
    return {
        "span_s": round(r["span"], 3),
        "idle_moves_per_s": round(r["moves"].get("idle", 0) / s, 2),
        "newidle_moves_per_s": round(r["moves"].get("newidle", 0) / s, 2),
        "busy_moves_per_s": round(r["moves"].get("busy", 0) / s, 2),
        "tick_exits_other_busy_nothing_per_s": rate(lambda k: k[0] == "tick" and k[1] ==
                                                     "other busy" and k[2] == "nothing"),
        "tick_exits_other_busy_pull_per_s": rate(lambda k: k[0] == "tick" and k[1] ==
                                                  "other busy" and k[2] == "pull"),
        "tick_exits_other_idle_nothing_per_s": rate(lambda k: k[0] == "tick" and k[1] ==
                                                     "other idle" and k[2] == "nothing"),
        "tick_exits_wake_per_s": rate(lambda k: k[0] == "tick" and k[2] == "wake"),
        "off_exits_nothing_per_s": rate(lambda k: k[0] == "off" and k[2] == "nothing"),
        "off_exits_pull_per_s": rate(lambda k: k[0] == "off" and k[2] == "pull"),
        "waits_pulled": len(w),
        "waits_ran": len(r["waits"]["ran"]),
        "waits_taken": len(r["waits"]["taken"]),
        "pulled_wait_p50_us": None if not w else round(pct(w, 0.5) / 1000, 1),
        "pulled_wait_p90_us": None if not w else round(pct(w, 0.9) / 1000, 1),
    }


COLS = [("idle_moves_per_s", "idle mv/s"), ("newidle_moves_per_s", "newidle/s"),
        ("busy_moves_per_s", "busy/s"),
        ("tick_exits_other_busy_nothing_per_s", "tick,busy,none/s"),
        ("tick_exits_other_busy_pull_per_s", "tick,busy,pull/s"),
        ("tick_exits_other_idle_nothing_per_s", "tick,idle,none/s"),
        ("tick_exits_wake_per_s", "tick,wake/s"), ("off_exits_nothing_per_s", "off,none/s"),
        ("off_exits_pull_per_s", "off,pull/s"), ("waits_pulled", "pulled"),
        ("waits_ran", "ran"), ("waits_taken", "taken"), ("pulled_wait_p50_us", "p50 us"),
        ("pulled_wait_p90_us", "p90 us")]


def main(argv):
    as_json = "--json" in argv
    argv = [a for a in argv if a != "--json"]
    min_wakes = MIN_WAKES
    if argv[:1] == ["--min"]:
        if len(argv) < 2 or not argv[1].isdigit() or int(argv[1]) < 1:
            print("idle_kick.py: --min: expected a count of 1 or more", file=sys.stderr)
            return 2
        min_wakes = int(argv[1])
        argv = argv[2:]
    paths = argv
    if not paths or any(p.startswith("--") for p in paths):
        print(__doc__, file=sys.stderr)
        return 2
    rs = []
    for p in paths:
        try:
            rs.append((p, analyse(p, min_wakes)))
        except (OSError, EOFError, ValueError, KeyError) as e:
            print(f"idle_kick.py: {p}: {reason(p, e)}", file=sys.stderr)
            return 2
    rows = [(p, summary(r)) for p, r in rs]
    if len(rs) > 1:
        rows.append(("all", summary(merge([r for _, r in rs]))))
    if as_json:
        print(json.dumps({p: s for p, s in rows}, indent=1, sort_keys=True))
        return 0
    print("trace\t" + "\t".join(h for _, h in COLS))
    for p, s in rows:
        print(p + "\t" + "\t".join("-" if s[k] is None else str(s[k]) for k, _ in COLS))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
