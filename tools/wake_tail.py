#!/usr/bin/env python3
"""The waker's tail: a task's time from its wake-up of another to its next event (issue 28).

docs/validate.md ("The waker's tail, measured", step 9; the tool: step 17): the machine
parameter wake_tail is the CPU time a task that wakes another from task context (a futex wake)
runs on before its next step: the rest of the system call and the caller's path to its next
one. This measures it in ftrace text traces (plain or .xz; the recordings' real.trace.xz): from
each sched_waking written by the running task of its CPU, not in an interrupt (no h/s flag, no
interrupt entry line on that CPU at the same timestamp, not the idle task:
ftrace_lines.task_waking), of a task other than itself, to the waker's next event:

  its next sched_waking, written the same way (task context), or
  its switch-out asleep (a sched_switch with it as prev in any state but R: S, D, ...).

A wake-up whose waker is switched out runnable first (R, R+: preempted, often by its wakee) is
skipped, not counted: its time to the next event holds other tasks' runs. So is one whose waker
has no next event before the trace ends.

Only the pairs where the model's next step is at once are counted: a (waker comm, wakee comm)
pair is selected when, in the model's traces of the same files (the same reading), the median of
its tails is 0. The model's traces must be made without the waker's charges after a wake-up
(wake_tail and the others below): with them the pairs at 0 are a few left over by chance, not
the ones meant. --all counts every wake-up. (Step 9's "a switch-out runnable skipped" read as
the wake-up left out: so the tool reproduces its 7202 wake-ups and 11 us, docs/validate.md.)

By target, where the wakee's sched_wakeup put it: own (the waker's CPU), busy other (the other
CPU, running a task at the sched_waking), idle other (idle then: the wake-up is deferred to it,
its sched_wakeup written there later); "no sched_wakeup" when none came before the wakee's next
switch-in or another sched_waking of it. Per target: the count, p25, median, p75 (us; pN is the
sorted values' element at int(N/100 x n), the median statistics.median's), and last
`param wake_tail=NNNns`: the median of every counted wake-up rounded to the whole microsecond
(half up; step 9's 11 us, 11000ns).

Usage: wake_tail.py [--json] [--pairs] [--all] REAL... [--model MODEL...]
       wake_tail.py [--json] [--pairs] -c CALDIR [-s SCHEDLAB] [--seed N] [-K KEEPDIR] REAL...
  REAL...   the recordings: `validate --out` directories (their real.trace.xz or real.trace)
            or trace files
  --model MODEL...  the model's traces for the selection: `validate --sim-out` directories
            (their sim.trace) or trace files, made with a machine directory without the waker's
            charges (wake_tail, wake_tail_unlock, wake_enqueue_busy, wake_enqueue_tail,
            wake_ipi)
  -c CALDIR runs the model itself instead: a copy of CALDIR (a machine directory, as
            machines/fc-2vcpu-r28) without those five parameters' lines, and for each file NAME
            of the REAL directories (the first directory of each NAME; each must hold NAME.json)
            `SCHEDLAB validate DIR/NAME.json --real DIR --calibration COPY --seed N --sim-out
            OUT/NAME` (SCHEDLAB build/schedlab, N 1 unless given); -K keeps OUT in KEEPDIR
  --pairs   the selected pairs too: real count and median, the model's count
  --all     no selection: every wake-up by a task
  --json    one JSON object instead of the table
Exit 2 on a file that cannot be read, a trace that is not of 2 CPUs, a bad option, a model run
that fails, or no wake-up counted.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from cli_common import run
from ftrace_lines import WAKE, records, sched_lines, task_waking, trace_of

CLASSES = ["own", "busy other", "idle other", "no sched_wakeup"]
# the model's charges to a waker after its wake-up: left out of -c's copy of CALDIR
CHARGES = ("wake_tail", "wake_tail_unlock", "wake_enqueue_busy", "wake_enqueue_tail",
           "wake_ipi")


class BadInput(Exception):
    """a directory without its trace, a model run that failed: exit 2"""


def tails(path):
    """the wake-ups by a task in the trace at path that have a next event, as dicts: waker,
    wakee (comms), tail (ns), cls (one of CLASSES)"""
    curr = {}  # cpu -> pid running (0: idle)
    mark = {}  # cpu -> timestamp of its last interrupt entry line
    comm = {}  # pid -> its comm seen last
    pend = {}  # wakee pid -> its wake-up, from the sched_waking to the sched_wakeup
    open_ = {}  # waker pid -> its wake-ups waiting for its next event
    out = []

    def close(waker, t):
        for e in open_.pop(waker, []):
            e["tail"] = t - e.pop("t")
            out.append(e)

    for (tcomm, tpid, cpu, flags_, ts, t, ev, rest), s in sched_lines(
            records(path, max_cpu=1), mark):
        if ev == "sched_switch":
            prev, pstate, ncomm, nxt = s
            if prev and pstate.startswith("R"):
                open_.pop(prev, None)  # preempted before its next event: not counted
            elif prev:
                close(prev, t)
            e = pend.pop(nxt, None)
            if e:
                e["cls"] = "no sched_wakeup"
            curr[cpu] = nxt
            if nxt:
                comm[nxt] = ncomm
        elif ev == "sched_waking":
            s = WAKE.search(rest)
            if not s:
                continue
            wakee = int(s.group(2))
            comm[wakee] = s.group(1)
            if not task_waking(flags_, ts, tpid, cpu, mark, curr) or wakee == tpid:
                continue
            close(tpid, t)
            e = pend.pop(wakee, None)
            if e:
                e["cls"] = "no sched_wakeup"
            e = dict(waker=comm.setdefault(tpid, tcomm), wakee=s.group(1), t=t, a=cpu,
                     other_busy=bool(curr.get(1 - cpu, 0)), cls="no sched_wakeup")
            pend[wakee] = e
            open_.setdefault(tpid, []).append(e)
        elif ev in ("sched_wakeup", "sched_wakeup_new"):
            s = WAKE.search(rest)
            if not s:
                continue
            e = pend.pop(int(s.group(2)), None)
            if e:
                tgt = int(s.group(4))
                e["cls"] = ("own" if tgt == e["a"] else
                            "busy other" if e["other_busy"] else "idle other")
    for e in out:
        del e["a"], e["other_busy"]
    return out


def run_model(cal, sl, seed, real, keep):
    """-c: the model's traces of the files of the REAL directories, made in keep (or a
    temporary directory) with a copy of cal without CHARGES; returns (traces, the lines left
    out)"""
    if not os.path.isfile(os.path.join(cal, "machine.conf")):
        raise BadInput(f"-c {cal}: no machine.conf there")
    work = tempfile.mkdtemp(prefix="wake_tail-")
    try:
        copy = os.path.join(work, os.path.basename(os.path.normpath(cal)))
        shutil.copytree(cal, copy)
        dropped = []
        with open(os.path.join(cal, "machine.conf")) as f, \
                open(os.path.join(copy, "machine.conf"), "w") as g:
            for line in f:
                w = line.split()
                if len(w) == 2 and w[0] == "param" and w[1].split("=")[0] in CHARGES:
                    dropped.append(line.strip())
                    continue
                g.write(line)
        out = keep or os.path.join(work, "sim")
        traces, seen = [], set()
        for d in real:
            name = os.path.basename(os.path.normpath(d))
            if not os.path.isdir(d):
                raise BadInput(f"-c: {d}: not a validate --out directory")
            if name in seen:
                continue
            seen.add(name)
            js = os.path.join(d, name + ".json")
            if not os.path.isfile(js):
                raise BadInput(f"-c: {js}: no such file (DIR must hold DIR-name.json)")
            so = os.path.join(out, name)
            os.makedirs(so, exist_ok=True)
            cmd = [sl, "validate", js, "--real", d, "--calibration", copy, "--seed", str(seed),
                   "--sim-out", so]
            try:
                p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   text=True)
            except OSError as ex:
                raise BadInput(f"-c: {sl}: {ex}") from None
            if p.returncode:
                raise BadInput(f"-c: {' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
            traces.append(trace_of(so, ["sim.trace"]))
        return [tails(t) for t in traces], dropped, len(traces)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def pct(v, q):
    """v's element at int(q/100 x n) once sorted (v not empty)"""
    v = sorted(v)
    return v[min(len(v) - 1, int(q / 100.0 * len(v)))]


def stats(xs):
    """{n, p25, median, p75} of ns values, in us (one decimal); None for an empty list"""
    if not xs:
        return dict(n=0, p25=None, median=None, p75=None)
    return dict(n=len(xs), p25=round(pct(xs, 25) / 1000, 1),
                median=round(statistics.median(xs) / 1000, 1), p75=round(pct(xs, 75) / 1000, 1))


def select(model):
    """{(waker, wakee): model wake-ups} of the pairs whose model tails' median is 0, and how
    many pairs the model has"""
    by = {}
    for e in model:
        by.setdefault((e["waker"], e["wakee"]), []).append(e["tail"])
    return {k: len(v) for k, v in by.items() if statistics.median(v) == 0}, len(by)


def summary(es):
    """{class: stats} for "all" and each of CLASSES"""
    r = {"all": stats([e["tail"] for e in es])}
    for c in CLASSES:
        r[c] = stats([e["tail"] for e in es if e["cls"] == c])
    return r


def param(es):
    """the median of the tails (ns) rounded to the whole us, half up, in ns"""
    return int(statistics.median([e["tail"] for e in es]) + 500) // 1000 * 1000


def usage():
    print(__doc__[__doc__.index("Usage:"):].split("\nExit")[0].rstrip(), file=sys.stderr)
    return 2


def main(argv):
    seen = set()
    cal, sl, seed, keep = None, "build/schedlab", 1, None
    real, model, into = [], None, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-c", "-s", "--seed", "-K"):
            if i + 1 >= len(argv):
                print(f"wake_tail.py: {a}: expected a value", file=sys.stderr)
                return 2
            v = argv[i + 1]
            if a == "-c":
                cal = v
            elif a == "-s":
                sl = v
            elif a == "-K":
                keep = v
            elif not v.isdigit():
                print(f"wake_tail.py: --seed: expected a number, not {v}", file=sys.stderr)
                return 2
            else:
                seed = int(v)
            i += 2
            continue
        if a == "--model":
            model = []
            into = model
        elif a in ("--json", "--pairs", "--all"):
            seen.add(a)
        elif a.startswith("-"):
            print(f"wake_tail.py: unknown option {a}", file=sys.stderr)
            return usage()
        else:
            (into if into is not None else real).append(a)
        i += 1
    every = "--all" in seen
    sources = (model is not None) + (cal is not None) + every
    if not real or sources != 1 or (model is not None and not model) or (
            cal is None and (keep or "-s" in argv or "--seed" in argv)):
        return usage()
    try:
        es = [e for r in real for e in tails(trace_of(r, ["real.trace.xz", "real.trace"]))]
        dropped, nmodel, picked, npairs = [], 0, None, 0
        if cal is not None:
            mts, dropped, nmodel = run_model(cal, sl, seed, real, keep)
        elif model is not None:
            mts = [tails(trace_of(m, ["sim.trace"])) for m in model]
            nmodel = len(model)
        if not every:
            picked, npairs = select([e for m in mts for e in m])
            es = [e for e in es if (e["waker"], e["wakee"]) in picked]
    except (OSError, EOFError, ValueError, BadInput) as ex:
        print(f"wake_tail.py: {ex}", file=sys.stderr)
        return 2
    if not es:
        print("wake_tail.py: no wake-up by a task counted" +
              ("" if every else " (in the pairs the model's traces make at once: were they "
               "made with the waker's charges, wake_tail?)"), file=sys.stderr)
        return 2
    r = summary(es)
    pairs = []
    if "--pairs" in seen and picked is not None:
        for k in sorted(picked):
            xs = [e["tail"] for e in es if (e["waker"], e["wakee"]) == k]
            if xs:
                pairs.append(dict(waker=k[0], wakee=k[1], n=len(xs),
                                  median=round(statistics.median(xs) / 1000, 1),
                                  model_n=picked[k]))
        pairs.sort(key=lambda p: (-p["n"], p["waker"], p["wakee"]))
    wt = param(es)
    if "--json" in seen:
        print(json.dumps(dict(real_traces=len(real), model_traces=nmodel, dropped=dropped,
                              pairs_selected=None if picked is None else len(picked),
                              pairs_model=npairs, tails=r, pairs=pairs, wake_tail_ns=wt),
                         sort_keys=True))
        return 0
    if dropped:
        print(f"model: {cal} without: {', '.join(dropped)}")
    if every:
        print(f"every wake-up by a task in {len(real)} real trace(s)")
    else:
        print(f"{len(picked)} of the model's {npairs} (waker, wakee) pairs make their next step "
              f"at once (median 0 in {nmodel} model trace(s)); their wake-ups in {len(real)} "
              f"real trace(s):")
    print(f"{'target':16} {'n':>6} {'p25':>6} {'median':>6} {'p75':>6}  (us)")
    for c in ["all"] + CLASSES:
        v = r[c]
        print(f"{c:16} {v['n']:6} {v['p25']!s:>6} {v['median']!s:>6} {v['p75']!s:>6}")
    if pairs:
        print(f"\n{'waker -> wakee':40} {'n':>6} {'median':>6} {'model n':>7}")
        for p in pairs:
            print(f"{p['waker'] + ' -> ' + p['wakee']:40} {p['n']:6} {p['median']:6} "
                  f"{p['model_n']:7}")
    print(f"param wake_tail={wt}ns")
    return 0


if __name__ == "__main__":
    run(main)
