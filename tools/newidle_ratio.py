#!/usr/bin/env python3
"""The NI_RANDOM success ratio that recordings' own newidle pulls sustain (issue 28).

6.18's newidle balance (NI_RANDOM, docs/validate.md "The newidle balance, rule by rule") runs on
a call with probability (1 + ratio) / 1024 and adds 1024 / (1 + ratio) to its success count
when it pulls; every 512 calls the ratio becomes that count. So the ratio tracks 1024 times q,
the share of the calls whose balance would pull if it ran, and the calls that pull are
q x q of all calls. A trace gives the pulls (wake_situations.py --newidle's, a waiting task
moved to a CPU whose task blocked with nothing else queued there) and the moments a CPU went
idle (its switches to the idle task). Each of both entered the newidle balance (a pull switches
from the blocking task straight to the pulled one), which is called when the root domain's
overloaded flag is set: at most that many calls. Hence q >= sqrt(pulls / (idle entries +
pulls)), and the ratio the workload keeps, 1024 q, is at least 1024 sqrt(pulls / (idle entries
+ pulls)): the value of `param newidle_ratio` measured on the recordings (each CPU's ratio when
the run starts).

Usage: newidle_ratio.py [--json] TRACE...
  prints per trace: the idle entries, the pulls, and their ratio; then all the traces pooled
  (the sums of both) and that ratio rounded: `param newidle_ratio=N`.
Exit 2 on a file that cannot be read, a trace that is not of 2 CPUs, or no CPU that went idle.
"""
import json
import math
import sys

from ftrace_lines import records, switch
from wake_situations import newidle


def idle_entries(path):
    """the switches to the idle task in the trace"""
    n = 0
    for _, _, _, _, _, _, ev, rest in records(path):
        if ev != "sched_switch":
            continue
        s = switch(rest)
        if s and s[3] == 0:
            n += 1
    return n


def ratio(pulls, entries):
    """1024 sqrt(pulls / (entries + pulls)): the newidle balance's calls are the idle entries
    and the pulls"""
    return 1024.0 * math.sqrt(pulls / (entries + pulls)) if entries + pulls else 0.0


def main(argv):
    as_json = "--json" in argv
    paths = [a for a in argv if a != "--json"]
    if not paths or any(a.startswith("-") for a in paths):
        print(__doc__[__doc__.index("Usage:"):].rstrip(), file=sys.stderr)
        return 2
    rows = []
    try:
        for p in paths:
            e = idle_entries(p)
            pl = sum(1 for _, pulled, _ in newidle(p) if pulled)
            rows.append(dict(trace=p, idle_entries=e, pulls=pl, ratio=ratio(pl, e)))
    except (OSError, ValueError, EOFError) as err:
        print(f"newidle_ratio.py: {err}", file=sys.stderr)
        return 2
    te = sum(r["idle_entries"] for r in rows)
    tp = sum(r["pulls"] for r in rows)
    if not te + tp:
        print("newidle_ratio.py: no CPU went idle in " + " ".join(paths), file=sys.stderr)
        return 2
    total = dict(traces=len(rows), idle_entries=te, pulls=tp, ratio=ratio(tp, te))
    if as_json:
        print(json.dumps(dict(traces=rows, total=total), indent=1))
        return 0
    print(f"{'idle entries':>12} {'pulls':>6} {'ratio':>7}  trace")
    for r in rows:
        print(f"{r['idle_entries']:>12} {r['pulls']:>6} {r['ratio']:>7.1f}  {r['trace']}")
    print(f"{te:>12} {tp:>6} {total['ratio']:>7.1f}  all {len(rows)} traces: "
          f"param newidle_ratio={round(total['ratio'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
