#!/usr/bin/env python3
"""How long a vCPU had been idle when it left idle at the tick's phase for nothing (issue 28).

Reads ftrace text traces (plain or .xz; the recordings and `schedlab validate --sim-out`
traces) of 2 CPUs. An exit counted is an idle exit (cpu_idle state=4294967295) within 300 us
after the tick's phase (tools/idle_kick.py's: the densest 100 us bin of the exits modulo the
4 ms tick) after which the CPU idles again with no task switched in ("nothing follows"). Its
age is the number of whole ticks (4 ms, HZ 250) since the CPU last switched to its idle task;
exits before the trace's first switch to idle on that CPU are not counted. A tick kept for a
while after a busy period (RCU's callbacks, NO_HZ's near timers) shows as ages 0, 1, 2...;
the timer wheel's own timers, which fire at any age, as a flat tail.

Usage: idle_tick_age.py [--json] TRACE...   Prints, over all the traces, the count and share
of each age 0..19 and of 20 or more. Exit 2 on a file that cannot be read, a trace that is not
of 2 CPUs, a bad option.
"""
import json
import sys

from ftrace_lines import reason
from idle_kick import EXIT, TICK, WINDOW, fields, read, tick_phase

MAX_AGE = 20  # ages of 20 ticks or more are counted together


def ages(path):
    ev = read(path)
    phase = tick_phase(
        [t for (_, _, t, e, r) in ev if e == "cpu_idle" and fields(r).get("state") == EXIT])
    since = [None, None]  # the CPU's last switch to its idle task, while it runs it
    pending = [None, None]  # a tick-phase exit's age, until we know what follows
    out = {}
    for cpu, _, t, e, r in ev:
        if e == "sched_switch":
            since[cpu] = t if fields(r).get("next_pid") == "0" else None
            pending[cpu] = None
        elif e == "cpu_idle":
            if fields(r).get("state") == EXIT:
                pending[cpu] = None
                if since[cpu] is not None and (t - phase) % TICK < WINDOW:
                    pending[cpu] = min((t - since[cpu]) // TICK, MAX_AGE)
            elif pending[cpu] is not None:
                out[pending[cpu]] = out.get(pending[cpu], 0) + 1
                pending[cpu] = None
    return out


def main(argv):
    as_json = "--json" in argv
    paths = [a for a in argv if a != "--json"]
    if not paths or any(p.startswith("--") for p in paths):
        print(__doc__, file=sys.stderr)
        return 2
    total = {}
    for p in paths:
        try:
            for k, n in ages(p).items():
                total[k] = total.get(k, 0) + n
        except (OSError, EOFError, ValueError, KeyError) as e:
            print(f"idle_tick_age.py: {p}: {reason(p, e)}", file=sys.stderr)
            return 2
    n = sum(total.values())
    rows = [(k, total.get(k, 0), round(total.get(k, 0) / n, 3) if n else None)
            for k in range(MAX_AGE + 1)]
    if as_json:
        print(json.dumps({"exits": n, "ages": {str(k): {"count": c, "share": s}
                                               for k, c, s in rows}}, indent=1))
        return 0
    print("age (ticks)\tcount\tshare")
    for k, c, s in rows:
        print(("%d+" % k if k == MAX_AGE else str(k)) + "\t" + str(c) + "\t" +
              ("-" if s is None else str(s)))
    print("all\t" + str(n))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
