#!/usr/bin/env python3
"""How much of a machine's background is bound to one CPU, in whole recordings (issue 28, step 19).

The model's background (machine.conf background_rate/background_run, measured by calibrate on
the idle machine) is one task per CPU pinned there. On the 2-vCPU guest most of the foreign
tasks a recording shows are not bound to a CPU (rcu_preempt, unbound kworkers, the guest agent,
the harness, other people's work): the kernel places them, on an idle vCPU when there is one,
where a pinned task has to take its busy CPU from a thread of the file (docs/validate.md, "Step
19"). This counts, in whole traces (tools/validate_record_set.sh's FULL=1: every task's lines),
each switch to a foreign task: not one of the file's threads (rtapp_json.is_thread: the task
names of the one rt-app JSON beside each trace, and rt-app) and not the idle task. A foreign
task is bound to a CPU when its comm is a per-CPU kernel thread's: NAME/N, NAME/N:M or
NAME/N:MH (kworker/0:1, kworker/1:2H, ksoftirqd/0, migration/1, cpuhp/0); an unbound
worker's kworker/uN:M is not. Printed: per trace and in total the switch-ins of bound and of
free foreign tasks, the five commonest of each kind in total, and `background_pinned N`, the
bound ones per 1000 (machine.conf: the share of the background the model pins; the rest runs
as tasks the model's policy places).

Usage: bg_pinned.py TRACE...   (ftrace text, plain or .xz, each beside its rt-app JSON)
Exit 2 on a file that cannot be read, a trace without one rt-app JSON beside it, or no foreign
switch-in in all of them; 1 when the output cannot be written.
"""
import collections
import re
import sys

from cli_common import run
from ftrace_lines import reason, records, switch
from rtapp_json import BadInput, is_thread, names_beside

BOUND = re.compile(r"/\d+(:\d+H?)?$")


def bound(comm):
    """whether comm is a per-CPU kernel thread's (bound to its CPU): an unbound worker's
    kworker/uN:M has a letter after its '/'"""
    return bool(BOUND.search(comm))


def count(path):
    """Counter of (kind, comm) of the switches to a foreign task in the trace at path"""
    names = names_beside(path)
    c = collections.Counter()
    for _, _, _, _, _, _, ev, fields in records(path):
        if ev != "sched_switch":
            continue
        s = switch(fields)
        if not s or not s[3] or is_thread(s[2], names):
            continue
        c[("bound" if bound(s[2]) else "free", s[2])] += 1
    return c


def main(argv):
    if not argv or any(a.startswith("-") for a in argv):
        print(__doc__, file=sys.stderr)
        return 2
    total = collections.Counter()
    print(f"{'trace':60} {'bound':>7} {'free':>7}")
    for p in argv:
        try:
            c = count(p)
        except BadInput as e:
            print(f"bg_pinned.py: {e}", file=sys.stderr)
            return 2
        except (OSError, ValueError) as e:
            print(f"bg_pinned.py: {p}: {reason(p, e)}", file=sys.stderr)
            return 2
        total.update(c)
        b = sum(v for (k, _), v in c.items() if k == "bound")
        print(f"{p:60} {b:7d} {sum(c.values()) - b:7d}")
    b = sum(v for (k, _), v in total.items() if k == "bound")
    n = sum(total.values())
    if not n:
        print("bg_pinned.py: no switch to a foreign task in " + " ".join(argv), file=sys.stderr)
        return 2
    print(f"{'total':60} {b:7d} {n - b:7d}")
    for kind in ("bound", "free"):
        top = sorted(((v, cm) for (k, cm), v in total.items() if k == kind), reverse=True)[:5]
        print(f"# {kind}: " + ", ".join(f"{cm} {v}" for v, cm in top))
    print(f"background_pinned {round(1000 * b / n)}")
    return 0


if __name__ == "__main__":
    run(main)
