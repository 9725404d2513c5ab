#!/usr/bin/env python3
"""The busy vCPU's wake-up preemption: how often a wake-up onto a CPU running another task
preempts that task, real against model (issue 28, step 18).

docs/validate.md ("The busy vCPU's wake-up preemption, counted"): the model's measured
wake_preempt_* rates decide only a wake-up made by the running task of the wakee's CPU itself;
every other wake-up onto a busy CPU is decided by the policy (6.18's EEVDF wakeup_preempt).
This reads ftrace text traces (plain or .xz; the recordings' real.trace.xz, the model's
`schedlab validate --sim-out` sim.trace, or their directories) and counts each sched_wakeup of a
task onto a CPU C whose running task X, at that line, is another task (not idle), paired with
the wakee's sched_waking before it (a sched_wakeup without one, as sched_wakeup_new, is not
counted). The waking line says who woke:

  own     X itself on C in task context (ftrace_lines.task_waking): NOT counted (the measured
          wake_preempt_* rates' own case), only reported as a number
  irq     an interrupt on C: the waking on C with the h/s flag, or an
          hrtimer_expire_entry/irq_handler_entry line on C at its timestamp (as the model marks
          a sleep timer), or written by a task that is not C's running one
  remote  a task on the other CPU, in task context
  rirq    an interrupt on the other CPU

The waking's CPU is the waker's; the sched_wakeup's CPU is not read (a real wake-up queued to
the target's IPI, TTWU_QUEUE, is written there with the h flag, later; the model writes every
sched_wakeup on the waker's CPU at the waking's time). Each counted wake-up is classed further
by the priority relation (higher: the wakee's prio number below X's, X's from its switch-in
line; equal; lower) and by X's run since its switch-in on C at the sched_wakeup (ms):
<0.1, 0.1-0.7, 0.7-1.4, 1.4-3, >3 (1.4 ms: 6.18's base slice on 2 CPUs, 0.7 ms x (1 + ilog2 2)).
Its outcome is read at C's next sched_switch: preempted when that switch is X, left runnable
(R, R+), to the wakee; then the delay from the sched_wakeup to that switch (us). Several
wake-ups pending on C are all decided by that one switch (only one can be its wakee). A
preemption 1 ms or more after the sched_wakeup is also counted apart ("late": a tick's or a
slice end's switch, 6.18's wake-up check resched_curr()s at once; a real remote one arrives by
IPI in some us, the model's after ipi_busy).

Usage: busy_preempt.py [--json] [--cells] [--threads] REAL... [--model MODEL...]
  REAL...   the recordings: trace files or `validate --out` directories (their real.trace.xz
            or real.trace)
  --model MODEL...  the model's traces of the same file(s): sim.trace files or `validate
            --sim-out` directories
  --cells   every (who, prio, run) cell too, not only each dimension's own rows
  --threads only the wake-ups whose wakee and running task are both threads of the file (the
            task names of the one rt-app *.json beside each trace, tools/rtapp_json.is_thread;
            the model's machine-background.json left out): the recordings are whole traces
  --json    one JSON object instead of the table
The table: per row, the counted wake-ups per trace, the per mille preempted, the per mille
preempted late (1 ms or more after) and the median delay (us) of the preempted, real then model,
and the model's difference in count per trace. Exit 2 on a file that
cannot be read, a trace that is not of 2 CPUs, a bad option, --threads without one rt-app
*.json beside a trace, or no wake-up counted (not an error with --threads: a file's threads may
never wake each other onto a busy CPU).
"""
import json
import statistics
import sys

from cli_common import run
from ftrace_lines import WAKE, records, sched_lines, task_waking, trace_of
from rtapp_json import BadInput as JsonInput, is_thread, names_beside

WHO = ["irq", "remote", "rirq"]
PRIO = ["higher", "equal", "lower"]
BINS = [100000, 700000, 1400000, 3000000]  # ns: upper ends of X's run classes, then beyond
RUNS = ["<0.1", "0.1-0.7", "0.7-1.4", "1.4-3", ">3"]
LATE = 1000000  # ns: a preemption this long after the sched_wakeup or longer is "late"


class BadInput(Exception):
    """a directory without its trace: exit 2"""


def run_class(ns):
    """the class in RUNS of X's run of ns since its switch-in"""
    return next((RUNS[i] for i, hi in enumerate(BINS) if ns < hi), RUNS[-1])


def prio_class(wakee, x):
    """the wakee's priority against X's (a lower number is a higher priority)"""
    return "higher" if wakee < x else "equal" if wakee == x else "lower"


def wakeups(path, names=None):
    """(counted, own): counted the wake-ups onto a busy CPU of the trace at path not made by
    its running task itself, as dicts who, prio, run (classes), preempted (bool), delay (ns,
    None when not preempted); own how many the running task made itself (not counted); with
    names (a file's task names), only those whose wakee and running task are its threads"""
    curr, since, prio = {}, {}, {}  # cpu -> running pid, its switch-in time; pid -> prio
    comm = {}  # pid -> its comm seen last
    mark = {}  # cpu -> timestamp of its last interrupt entry line
    waking = {}  # wakee pid -> (waker class or None, its waking's CPU, the waker's pid)
    pend = {}  # cpu -> the counted wake-ups onto it waiting for its next switch
    out, own = [], 0
    for (_, tpid, cpu, flags_, ts, t, ev, rest), s in sched_lines(
            records(path, max_cpu=1), mark):
        if ev == "sched_switch":
            prev, pstate, ncomm, nxt = s
            for e, x in pend.pop(cpu, []):
                wakee = e.pop("pid")
                e["preempted"] = prev == x and pstate.startswith("R") and nxt == wakee
                e["delay"] = t - e["delay"] if e["preempted"] else None
                out.append(e)
            f = dict(kv.split("=", 1) for kv in rest.split() if kv.count("=") == 1)
            if f.get("next_prio", "").isdigit():
                prio[nxt] = int(f["next_prio"])
            curr[cpu], since[cpu], comm[nxt] = nxt, t, ncomm
        elif ev == "sched_waking":
            s = WAKE.search(rest)
            if not s:
                continue
            wakee = int(s.group(2))
            prio[wakee], comm[wakee] = int(s.group(3)), s.group(1)
            task = task_waking(flags_, ts, tpid, cpu, mark, curr)
            waking[wakee] = (task, cpu, tpid)
        elif ev == "sched_wakeup":
            s = WAKE.search(rest)
            if not s:
                continue
            wakee, c = int(s.group(2)), int(s.group(4))
            w = waking.pop(wakee, None)
            x = curr.get(c, 0)
            if w is None or x == 0 or x == wakee or (names is not None and not (
                    is_thread(comm.get(x, ""), names) and is_thread(s.group(1), names))):
                continue
            task, a, waker = w
            if a == c and task and waker == x:
                own += 1
                continue
            who = ("remote" if task else "rirq") if a != c else "irq"
            e = dict(who=who, prio=prio_class(int(s.group(3)), prio.get(x, 120)),
                     run=run_class(t - since[c]), pid=wakee, delay=t)
            pend.setdefault(c, []).append((e, x))
    return out, own


def threads(path):
    """--threads: the file's task names, from the one rt-app *.json beside the trace"""
    return names_beside(path, what="--threads: ")


def row(es, ntraces):
    """{n (per trace), count, preempted and late (per mille, None: none), delay (median us of
    the preempted, None: none)}"""
    pre = [e["delay"] for e in es if e["preempted"]]
    return dict(n=len(es) / ntraces, count=len(es),
                preempted=round(1000 * len(pre) / len(es)) if es else None,
                late=round(1000 * sum(1 for d in pre if d >= LATE) / len(es)) if es else None,
                delay=round(statistics.median(pre) / 1000, 1) if pre else None)


def table(es, ntraces, cells):
    """[(dimension, class, row)]: all, each dimension's classes, with cells each cell"""
    rows = [("all", "", row(es, ntraces))]
    for dim, classes in (("who", WHO), ("prio", PRIO), ("run", RUNS)):
        for k in classes:
            rows.append((dim, k, row([e for e in es if e[dim] == k], ntraces)))
    if cells:
        for w in WHO:
            for p in PRIO:
                for r in RUNS:
                    rows.append(("cell", f"{w} {p} {r}",
                                 row([e for e in es if (e["who"], e["prio"], e["run"]) ==
                                      (w, p, r)], ntraces)))
    return rows


def usage():
    print(__doc__[__doc__.index("Usage:"):].split("\nThe table")[0].rstrip(), file=sys.stderr)
    return 2


def main(argv):
    seen, real, model, into = set(), [], None, None
    for a in argv:
        if a == "--model":
            model = into = []
        elif a in ("--json", "--cells", "--threads"):
            seen.add(a)
        elif a.startswith("-"):
            print(f"busy_preempt.py: unknown option {a}", file=sys.stderr)
            return usage()
        else:
            (into if into is not None else real).append(a)
    if not real or (model is not None and not model):
        return usage()
    sides = [("real", real, ["real.trace.xz", "real.trace"])]
    if model:
        sides.append(("model", model, ["sim.trace"]))
    res, owns = {}, {}
    try:
        for side, paths, names in sides:
            es, own = [], 0
            for p in paths:
                tr = trace_of(p, names)
                e, o = wakeups(tr, threads(tr) if "--threads" in seen else None)
                es += e
                own += o
            res[side], owns[side] = table(es, len(paths), "--cells" in seen), own
    except (OSError, ValueError, BadInput, JsonInput) as ex:
        print(f"busy_preempt.py: {ex}", file=sys.stderr)
        return 2
    if not res["real"][0][2]["count"] and "--threads" not in seen:
        print("busy_preempt.py: no wake-up onto a busy CPU counted in " + " ".join(real),
              file=sys.stderr)
        return 2
    if "--json" in seen:
        print(json.dumps(dict(
            real_traces=len(real), model_traces=len(model or []),
            own={s: owns[s] for s in owns},
            rows=[dict(dim=d, cls=k, **{f"{s}_{f}": res[s][i][2][f] for s in res
                                        for f in ("n", "count", "preempted", "late",
                                                  "delay")})
                  for i, (d, k, _) in enumerate(res["real"])]), sort_keys=True))
        return 0
    print(f"wake-ups onto a CPU running another task, not by that task itself, per trace: "
          f"{len(real)} real" + (f", {len(model)} model" if model else "") +
          f"; own (not counted): {owns['real'] / len(real):.1f}" +
          (f", {owns['model'] / len(model):.1f}" if model else "") + " per trace")

    def pm(v):
        return "-" if v is None else str(v)
    head = f"{'class':24} {'real/trace':>10} {'pre‰':>5} {'late‰':>5} {'delay':>6}"
    if model:
        head += f" {'model/trace':>11} {'pre‰':>5} {'late‰':>5} {'delay':>6} {'diff':>7}"
    print(head + "  (delay: median us to the preempting switch)")
    for i, (d, k, r) in enumerate(res["real"]):
        s = f"{(d + ' ' + k).strip():24} {r['n']:10.1f} {pm(r['preempted']):>5} " \
            f"{pm(r['late']):>5} {pm(r['delay']):>6}"
        if model:
            m = res["model"][i][2]
            s += f" {m['n']:11.1f} {pm(m['preempted']):>5} {pm(m['late']):>5} " \
                 f"{pm(m['delay']):>6} {m['n'] - r['n']:+7.1f}"
        print(s)
    return 0


if __name__ == "__main__":
    run(main)
