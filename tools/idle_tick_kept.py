#!/usr/bin/env python3
"""Per idle entry, the ticks at which an idle vCPU left idle for nothing (issue 28, step 15).

Reads ftrace text traces (plain or .xz; the recordings and `schedlab validate --sim-out`
traces) of 2 CPUs. An idle period of a CPU runs from a switch to its idle task (pid 0) to its
next switch; periods the trace does not close are left out, and so are the entries before the
CPU's first switch away from its idle task (the busy period before is then unknown). The busy
period is the time from that CPU's last switch away from its idle task to the entry. The tick's
phase is tools/idle_kick.py's (the densest 100 us bin of the idle exits modulo 4 ms, HZ 250).
The period's ticks are the phase's instants after the entry, tick k = 1, 2, ..., up to the one
whose 300 us window holds the period's last idle exit (the one its task follows: a wake-up, a
pull), which is not counted, nor any after. A tick is "taken" when the CPU leaves idle
(cpu_idle state=4294967295) within 300 us after it and goes back to idle with nothing run.

Each tick is put in a row by the other CPU at that instant: idle; busy with a NOHZ_NEXT_KICK
predicted there; busy with none. The prediction replays 6.18's rules from the switches alone:
a CPU enters the NO_HZ idle mask at an idle entry unless it is in it already (then it sets
nohz.needs_update); it leaves the mask at its first tick while busy; at a busy CPU's tick, after
that, a pending needs_update kicks the other CPU if that one is in the mask and idle (kick_ilb's
IPI; the kicked CPU only recomputes nohz.next_balance), and is cleared.

A tick kept by the idle CPU itself after a busy period (tick_nohz_next_event keeps a running
tick while rcu_needs_cpu(): RCU callbacks queued on the CPU) shows as tick 1 taken more often
than the later ticks in every row, the other CPU idle included; the kicks show in the "kick"
row; the timer wheel's timers and the stats kicks (every 32 ms) at any tick.

Printed, over all the traces, per bucket of the busy period (< 1 ms, 1-4, 4-16, >= 16 ms) and
all: the entries with a tick 1; per row, for ticks 1..5 and 6 or later together, the ticks taken
and seen; and the runs of taken ticks from tick 1 (0, 1, 2, 3, 4 or more) of the periods seen
past the run's end.

Usage: idle_tick_kept.py [--json] TRACE...   Exit 2 on a file that cannot be read, a trace
that is not of 2 CPUs, a bad option.
"""
import bisect
import json
import sys

from ftrace_lines import reason
from idle_kick import EXIT, TICK, WINDOW, fields, read, tick_phase

BUCKETS = [(0, 1000000, "<1ms"), (1000000, 4000000, "1-4ms"), (4000000, 16000000, "4-16ms"),
           (16000000, None, ">=16ms")]
KMAX = 6  # ticks 6 and later are counted together
RUNMAX = 4  # runs of 4 taken ticks or more together


def bucket(b):
    for lo, hi, name in BUCKETS:
        if b >= lo and (hi is None or b < hi):
            return name
    return None


def next_kicks(phase, sw_t, sw_idle, t_end):
    """{(cpu, tick instant)}: the NOHZ_NEXT_KICKs 6.18's rules predict from the switches alone.
    A CPU enters the NO_HZ idle mask at an idle entry (its tick stopped) unless it is in it
    already, and then sets nohz.needs_update; it leaves the mask at its first tick while busy.
    At a tick of a busy CPU, after it left the mask, a pending needs_update kicks the other CPU
    when that one is in the mask and idle (kick_ilb's IPI), and is cleared."""
    entries = sorted((t, c) for c in (0, 1) for t, i in zip(sw_t[c], sw_idle[c]) if i)
    if not entries:
        return set()

    def idle_at(c, t):
        i = bisect.bisect_right(sw_t[c], t)
        return sw_idle[c][i - 1] if i else None

    in_mask = [False, False]
    needs_update = False
    kicks = set()
    tick = entries[0][0] + (phase - entries[0][0]) % TICK
    e = 0
    while tick < t_end:
        while e < len(entries) and entries[e][0] < tick:
            c = entries[e][1]
            if idle_at(c, entries[e][0]) and not in_mask[c]:
                in_mask[c] = True
                needs_update = True
            e += 1
        for c in (0, 1):
            if idle_at(c, tick) is False:
                in_mask[c] = False
                d = 1 - c
                if needs_update and in_mask[d] and idle_at(d, tick):
                    kicks.add((d, tick))
                    needs_update = False
        tick += TICK
    return kicks


def periods(path):
    """[(busy ns, [(taken, other CPU idle, NEXT kick predicted) per tick k = 1..])]"""
    ev = read(path)
    phase = tick_phase(
        [t for (_, _, t, e, r) in ev if e == "cpu_idle" and fields(r).get("state") == EXIT])
    idle = [None, None]  # (the CPU's switch to its idle task, the busy time before), while idle
    busy_since = [None, None]  # its last switch away from its idle task
    exits = [[], []]  # the idle exits of the open idle period
    sw_t = [[], []]  # per CPU: the times of its switches
    sw_idle = [[], []]  # and whether each was to its idle task
    closed = []  # (cpu, entry, end, busy, exits)

    for cpu, _, t, e, r in ev:
        if e == "sched_switch":
            f = fields(r)
            to_idle = f.get("next_pid") == "0"
            if f.get("prev_pid") == "0" and not to_idle:
                busy_since[cpu] = t
            if idle[cpu] is not None and not to_idle:
                closed.append((cpu, idle[cpu][0], t, idle[cpu][1], exits[cpu]))
                idle[cpu] = None
            elif idle[cpu] is None and to_idle:
                b = t - busy_since[cpu] if busy_since[cpu] is not None else None
                idle[cpu] = (t, b)
                exits[cpu] = []
            sw_t[cpu].append(t)
            sw_idle[cpu].append(to_idle)
        elif e == "cpu_idle" and fields(r).get("state") == EXIT:
            c = int(fields(r).get("cpu_id", cpu))
            if idle[c] is not None:
                exits[c].append(t)
    kicks = next_kicks(phase, sw_t, sw_idle, ev[-1][2] if ev else 0)

    def other_idle_at(c, t):
        """whether the other CPU ran its idle task at t (None before its first switch)"""
        i = bisect.bisect_right(sw_t[1 - c], t)
        return sw_idle[1 - c][i - 1] if i else None

    out = []
    for c, t0, t1, busy, xs in closed:
        if busy is None:
            continue
        ticks = []
        k_t = t0 + (phase - t0) % TICK
        if k_t == t0:
            k_t += TICK
        # the period's last exit is the one its task follows (a wake-up, a pull): a tick
        # whose window holds it is not seen, nor any later
        final = xs[-1] if xs else None
        while k_t < t1 and not (final is not None and k_t <= final < k_t + WINDOW):
            taken = any(k_t <= x < k_t + WINDOW for x in xs[:-1])
            ticks.append((taken, other_idle_at(c, k_t), (c, k_t) in kicks))
            k_t += TICK
        out.append((busy, ticks))
    return out


ROWS = [("busy, kick", lambda oi, k: oi is False and k),
        ("busy", lambda oi, k: oi is False and not k),
        ("idle", lambda oi, k: oi is True)]


def share(taken, seen):
    return round(taken / seen, 3) if seen else None


def summary(rows):
    """per busy bucket and all: entries with a tick 1; per row (the other CPU busy and a NEXT
    kick predicted at the tick, busy and none, idle) and tick k (1..KMAX, the last for KMAX and
    later): ticks seen, taken, share; the runs of taken ticks from tick 1"""
    res = {}
    for name in [b[2] for b in BUCKETS] + ["all"]:
        sel = [p for p in rows if p[1] and (name == "all" or bucket(p[0]) == name)]
        res[name] = {"entries": len(sel), "runs": [0] * (RUNMAX + 1)}
        for rname, keep in ROWS:
            seen, taken = [0] * KMAX, [0] * KMAX
            for _, ticks in sel:
                for k, (tk, oi, kick) in enumerate(ticks):
                    if keep(oi, kick):
                        seen[min(k, KMAX - 1)] += 1
                        taken[min(k, KMAX - 1)] += tk
            res[name][rname] = {"seen": seen, "taken": taken,
                                "share": [share(a, b) for a, b in zip(taken, seen)]}
        for _, ticks in sel:
            run = 0
            while run < len(ticks) and ticks[run][0]:
                run += 1
            if run < len(ticks):
                res[name]["runs"][min(run, RUNMAX)] += 1
    return res


def main(argv):
    as_json = "--json" in argv
    paths = [a for a in argv if a != "--json"]
    if not paths or any(p.startswith("--") for p in paths):
        print(__doc__, file=sys.stderr)
        return 2
    rows = []
    for p in paths:
        try:
            rows += periods(p)
        except (OSError, EOFError, ValueError, KeyError) as e:
            print(f"idle_tick_kept.py: {p}: {reason(p, e)}", file=sys.stderr)
            return 2
    res = summary(rows)
    if as_json:
        print(json.dumps(res, indent=1))
        return 0
    print("busy\tentries\tother\t\ttick 1, 2, 3, 4, 5, 6+: taken/seen\truns 0/1/2/3/4+")
    for name, s in res.items():
        for rname, _ in ROWS:
            d = s[rname]
            cells = " ".join("%d/%d" % (a, b) for a, b in zip(d["taken"], d["seen"]))
            print(f"{name}\t{s['entries']}\t{rname:10}\t{cells}\t" +
                  ("/".join(map(str, s["runs"])) if rname == "idle" else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
