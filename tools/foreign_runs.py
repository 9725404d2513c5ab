#!/usr/bin/env python3
"""The foreign tasks' runs while the file runs, per CPU (docs/validate.md, "The background's
shape (issue 28, step 16)"), read from a recording or a model trace alike.

The recordings of tests/data/validate-rep keep of their traces only the cpu_idle lines and the
lines naming one of the file's threads (tools/validate_record_set.sh): a foreign task's switch
in from idle, to another foreign task or back to idle is not there. So a trace is read as they
are kept (a model trace's other switch lines are dropped first), and a foreign run is found
three ways:
  preempt  a switch from one of the file's threads, left runnable (R, R+), to a foreign task
  after    a switch from one of the file's threads, left asleep, to a foreign task
           (both end at the CPU's next kept switch or its next cpu_idle entry, whichever
           comes first: the foreign task's switches to another or to idle are not kept)
  idle     an idle exit with need_resched set (a task was woken there) followed by the next
           cpu_idle entry with no kept switch between, or by a kept switch from a foreign task
           to one of the file's: the exit to the entry (or switch)
  irq      an idle exit without need_resched followed by the next entry, no switch between:
           an interrupt handled with nothing to run (not a foreign run)
A model trace sets no need_resched flag on its idle exits; there the dropped switch from the
idle task to a task marks the exit as the flag does.

A task is the file's when its comm is one of the rt-app JSON's task names (NAME or NAME-N, cut
to 15 characters) or rt-app; the idle task (pid 0) is nobody's; every other task is foreign:
the kernel's threads, the guest agent, the recording harness, other people's work, and in a
model trace the machine's background (kworker-bgC, kworker-lgC). The window is the file's: its
threads' first switch-in to their last switch-out on any CPU; a run counts when it starts
inside it. Rates: preempt a second of the file's busy time on the CPU (a thread of the file
running), idle and irq a second of the CPU's idle time, the others a second of the window.
A named foreign comm (preempt, after) is given a kind: kernel (a name with a '/' but swapper,
or rcu_*, kcompactd, kdamond, kswapd, khugepaged, ksmd, oom_reaper, kauditd, ksoftirqd,
migration), agent (tokio-rt-worker), bg (the model's kworker-bgC, kworker-lgC) or other (the
harness and the rest).

Usage: foreign_runs.py [--json] [--long US] [--bins N] [--workload FILE.json | --tasks NAME,...] TRACE...
  TRACE        ftrace text (plain or .xz); the workload's names come from the one *.json
               beside it (machine-background.json aside) unless --workload or --tasks gives them
  --long US    the foreign runs (preempt, after, idle) of US or more (default 1000) a second of
               the window per CPU and their mean, printed as machine.conf lines
               background_long_rate / background_long_run
  --bins N     every foreign run (preempt, after, idle) a second of the window per CPU and
               their distribution as the means of N bins of equal counts (1 to 32), shortest
               first, printed as machine.conf lines background_rate / background_runs
  --json       one JSON object instead of the table

The other tools' --no-foreign[=US] (wake_pack.py, wake_situations.py, wake_preempt_pairs.py,
sis_util.py --split) reads the same runs (Near, no_foreign) and leaves out the wake-ups while a
foreign task holds either CPU or ran on one at most US us before (docs/validate.md, "The rates
without the foreign tasks (issue 28, step 16)").

Printed: a row per trace and CPU (window, busy and idle s; each class's rate, median and mean
us), then pooled per CPU and over both: each class's count, rate, median, p90 and mean run and
CPU ms a second, all foreign runs, the named ones by kind, the 12 commonest names, the long
runs. Exit status 2 on bad input (a file that cannot be read, no switch of the file's threads,
no workload JSON, a bad --long).
"""
import bisect
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ftrace_lines import reason, records, switch  # noqa: E402
from rtapp_json import BadInput, NamesOption, is_thread, names_beside  # noqa: E402

KTHREAD = re.compile(r"^(kworker/|rcu_|kcompactd|kdamond|kswapd|khugepaged|ksmd|oom_reaper|"
                     r"kauditd|ksoftirqd|migration)")
CLASSES = ("preempt", "after", "idle", "irq")
KINDS = ("kernel", "agent", "bg", "other")


def kind(comm):
    if re.fullmatch(r"kworker-(bg|lg)\d+", comm):
        return "bg"
    if ("/" in comm and not comm.startswith("swapper/")) or KTHREAD.match(comm):
        return "kernel"
    return "agent" if comm == "tokio-rt-worker" else "other"


IDLE_EXIT = 4294967295
STATE = re.compile(r"state=(\d+)")


def measure(path, names):
    """the trace at path read as the recordings keep it: its cpu_idle lines and the
    sched_switch lines naming one of the file's threads (prev or next), per CPU in order, as
    (t, kind, fields): ("idle", state, need_resched) or ("sw", prev_pid, prev_state, prev_comm,
    next_comm, next_pid); and the file's window (first switch-in, last switch-out of its
    threads)"""
    ev, lo, hi = {}, None, None
    try:
        for comm, pid, cpu, flags, ts, t, name, rest in records(path):
            if name == "cpu_idle":
                s = STATE.search(rest)
                if not s:
                    raise BadInput(f"{path}: at {ts}: expected cpu_idle's state=N")
                ev.setdefault(cpu, []).append((t, "idle", int(s.group(1)), "N" in flags[1:2]))
                continue
            if name != "sched_switch":
                continue
            s = switch(rest)
            if not s:
                raise BadInput(f"{path}: at {ts}: expected sched_switch's prev_pid, "
                               "prev_state, next_comm, next_pid")
            prev_pid, state, nxt, npid = s
            pf, nf = is_thread(comm, names) and prev_pid != 0, is_thread(nxt, names)
            if not (pf or nf):
                # the recordings keep only the lines naming the file's threads; a model
                # trace's idle-to-task switch dropped here marks the idle exit as the
                # recordings' need_resched flag does (a task was woken to run)
                if prev_pid == 0 and npid != 0:
                    ev.setdefault(cpu, []).append((t, "mark"))
                continue
            ev.setdefault(cpu, []).append((t, "sw", prev_pid, state, comm, nxt, npid))
            if nf:
                lo = t if lo is None else lo
            if pf:
                hi = t
    except OSError as e:
        raise BadInput(f"{path}: cannot read: {e.strerror or reason(path, e)}")
    except EOFError:
        raise BadInput(f"{path}: truncated")
    if lo is None or hi is None or hi <= lo:
        raise BadInput(f"{path}: expected switches of the file's threads, found none")
    return ev, lo, hi


def runs(ev, lo, hi, names):
    """per CPU, inside [lo, hi): the foreign episodes [(comm, class, ns, start)] (class
    preempt, after, idle or irq), the file's busy ns and the idle ns"""
    out = {}
    for cpu, v in ev.items():
        rows, busy, idle = [], 0, 0
        fg = None     # an open foreign episode: (start, comm, class)
        ex = None     # an idle exit with no switch since: (t, need_resched)
        ent = None    # the open idle period's entry
        run = None    # the file's thread's switch-in
        for e in v:
            t = e[0]
            if e[1] == "mark":
                ex = (ex[0], True) if ex is not None else None
                continue
            if e[1] == "idle":
                if e[2] != IDLE_EXIT:
                    if fg is not None:
                        if lo <= fg[0] < hi:
                            rows.append((fg[1], fg[2], min(t, hi) - fg[0], fg[0]))
                        fg = None
                    if ex is not None and lo <= ex[0] < hi:
                        rows.append(("", "idle" if ex[1] else "irq", min(t, hi) - ex[0],
                                     ex[0]))
                    ex, ent = None, t
                else:
                    if ent is not None:
                        idle += max(0, min(t, hi) - max(ent, lo))
                    ex, ent = (t, e[3]), None
                continue
            _, _, prev_pid, state, prev_comm, nxt, npid = e
            prev_file = prev_pid != 0 and is_thread(prev_comm, names)
            if prev_file and run is not None:
                busy += max(0, min(t, hi) - max(run, lo))
                run = None
            if fg is not None:
                if lo <= fg[0] < hi:
                    rows.append((fg[1], fg[2], min(t, hi) - fg[0], fg[0]))
                fg = None
            elif not prev_file and prev_pid != 0 and ex is not None:
                # idle, then a foreign task (its switch not kept), then this switch
                if lo <= ex[0] < hi:
                    rows.append((prev_comm, "idle", min(t, hi) - ex[0], ex[0]))
            ex = None
            if npid != 0 and not is_thread(nxt, names):
                fg = (t, nxt, "preempt" if prev_file and state.startswith("R") else "after")
            elif is_thread(nxt, names):
                run = t
        if fg is not None and lo <= fg[0] < hi:
            rows.append((fg[1], fg[2], hi - fg[0], fg[0]))
        if run is not None:
            busy += max(0, hi - max(run, lo))
        out[cpu] = (rows, busy, idle)
    return out


def workload_names(path):
    """the file's task names from the one rt-app *.json beside the trace"""
    return names_beside(path, advice="; give --workload FILE.json or --tasks NAME,...")


class Near:
    """the moments of a trace when a foreign task holds either CPU (a foreign run of class
    preempt, after or idle, as runs() finds them) or ran on one at most margin ns before:
    near(t) says whether t is one (the other tools' --no-foreign: their rates without those
    wake-ups, docs/validate.md, "The rates without the foreign tasks (issue 28, step 16)")"""

    def __init__(self, path, margin_ns, names=None):
        names = names if names is not None else workload_names(path)
        ev, lo, hi = measure(path, names)
        spans = sorted((r[3], r[3] + r[2] + margin_ns)
                       for rows, _, _ in runs(ev, lo, hi, names).values()
                       for r in rows if r[1] != "irq")
        self.starts, self.ends = [], []
        for a, b in spans:  # merged, so that the starts and ends both ascend
            if self.ends and a <= self.ends[-1]:
                self.ends[-1] = max(self.ends[-1], b)
            else:
                self.starts.append(a)
                self.ends.append(b)

    def __call__(self, t):
        i = bisect.bisect_right(self.starts, t) - 1
        return i >= 0 and t < self.ends[i]


def no_foreign(argv, tool):
    """the option --no-foreign[=US] taken out of argv: (argv without it, a function path ->
    Near(path, US us) or None when absent); US defaults to 1000. Exit 2 (BadInput's message on
    stderr) on a bad US"""
    rest, margin = [], None
    for a in argv:
        if a == "--no-foreign" or a.startswith("--no-foreign="):
            v = a[len("--no-foreign="):] if "=" in a else "1000"
            if not v.isdigit():
                print(f"{tool}: {a}: expected --no-foreign or --no-foreign=US (a length in us)",
                      file=sys.stderr)
                sys.exit(2)
            margin = int(v) * 1000
        else:
            rest.append(a)
    if margin is None:
        return rest, None

    def near(path):
        try:
            return Near(path, margin)
        except BadInput as e:
            print(f"{tool}: --no-foreign: {e}", file=sys.stderr)
            sys.exit(2)
    return rest, near


def pct(v, q):
    """the q-quantile of v by the nearest rank (v sorted)"""
    return v[min(len(v) - 1, max(0, -(-len(v) * q // 100) - 1))] if v else 0


def stats(rs, span):
    d = sorted(rs)
    return dict(n=len(d), per_s=len(d) / (span / 1e9) if span else 0.0,
                median_us=statistics.median(d) / 1e3 if d else 0.0,
                p90_us=pct(d, 90) / 1e3, mean_us=statistics.mean(d) / 1e3 if d else 0.0,
                cpu_ms_per_s=sum(d) / 1e6 / (span / 1e9) if span else 0.0)


# each class's rate is per second of: the file's busy time (preempt), the window (after), the
# CPU's idle time (idle, irq)
PER = dict(preempt="busy", after="win", idle="idle", irq="idle")


def summarise(rows, busy, idle, win):
    """one row's or one pool's figures: rows [(comm, class, ns)], ns busy, idle, window"""
    span = dict(busy=busy, idle=idle, win=win)
    s = dict(window_s=win / 1e9, busy_s=busy / 1e9, idle_s=idle / 1e9)
    for c in CLASSES:
        s[c] = stats([r[2] for r in rows if r[1] == c], span[PER[c]])
    s["foreign"] = stats([r[2] for r in rows if r[1] != "irq"], win)
    for k in ("kernel", "agent", "bg", "other"):
        s["kind_" + k] = stats([r[2] for r in rows if r[1] in ("preempt", "after") and
                                kind(r[0]) == k], win)
    return s


def main(argv):
    as_json, given, traces, long_us, bins = False, NamesOption(), [], 1000, 0
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--json":
            as_json = True
        elif a == "--bins":
            if i + 1 >= len(argv) or not argv[i + 1].isdigit() or not 0 < int(argv[i + 1]) <= 32:
                raise BadInput("--bins: expected a count of 1 to 32")
            i += 1
            bins = int(argv[i])
        elif a == "--long":
            if i + 1 >= len(argv) or not argv[i + 1].isdigit() or int(argv[i + 1]) <= 0:
                raise BadInput("--long: expected a length in us (a positive integer)")
            i += 1
            long_us = int(argv[i])
        elif a in NamesOption.FLAGS:
            i = given.take(argv, i)
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        elif a.startswith("-"):
            raise BadInput(f"unknown option '{a}' (valid: --json --long --bins --workload "
                           "--tasks)")
        else:
            traces.append(a)
        i += 1
    if not traces:
        raise BadInput("expected one or more traces (foreign_runs.py --help)")
    fixed = given.names()
    table, pool, comms = [], {}, {}
    for path in traces:
        names = fixed if fixed is not None else workload_names(path)
        ev, lo, hi = measure(path, names)
        out = runs(ev, lo, hi, names)
        for cpu in sorted(out):
            rows, busy, idle = out[cpu]
            table.append(dict(trace=path, cpu=cpu, **summarise(rows, busy, idle, hi - lo)))
            for key in (str(cpu), "all"):
                p = pool.setdefault(key, dict(rows=[], busy=0, idle=0, win=0))
                p["rows"] += rows
                p["busy"] += busy
                p["idle"] += idle
                p["win"] += hi - lo
            for r in rows:
                if r[1] in ("preempt", "after"):
                    comms[r[0]] = comms.get(r[0], 0) + 1
    pooled = {k: summarise(p["rows"], p["busy"], p["idle"], p["win"]) for k, p in pool.items()}
    # the long foreign episodes (any class but irq) a second of the window, per CPU, pooled
    # over the CPUs, and their mean: background_long_rate and background_long_run
    a = pool["all"]
    lng = [r[2] for r in a["rows"] if r[1] != "irq" and r[2] >= long_us * 1000]
    longs = dict(long_us=long_us, n=len(lng),
                 rate=round(len(lng) * 1e9 / a["win"]) if a["win"] else 0,
                 run_ns=sum(lng) // len(lng) if lng else 0)
    pooled["all"]["long"] = longs
    # every foreign run (not irq) a second of the window per CPU, and their distribution as
    # the means of `bins` bins of equal counts, shortest first: background_rate and
    # background_runs
    every = sorted(r[2] for r in a["rows"] if r[1] != "irq")
    if bins and len(every) < bins:
        raise BadInput(f"--bins {bins}: only {len(every)} foreign runs")
    btable = [sum(every[k * len(every) // bins:(k + 1) * len(every) // bins]) //
              (((k + 1) * len(every) // bins) - (k * len(every) // bins))
              for k in range(bins)]
    pooled["all"]["bins"] = dict(rate=round(len(every) * 1e9 / a["win"]) if a["win"] else 0,
                                 runs_ns=btable)
    if as_json:
        json.dump(dict(rows=table, pooled=pooled, comms=comms), sys.stdout, indent=1,
                  sort_keys=True)
        print()
        return 0
    print("%-44s %3s %6s %6s %6s | %-22s | %-22s | %-22s | %s" % (
        "trace", "cpu", "win s", "busy", "idle", "preempt /busy s, us", "after /s, us",
        "idle /idle s, us", "irq /idle s"))
    for r in table:
        print("%-44s %3d %6.2f %6.2f %6.2f | %s | %s | %s | %6.1f" % (
            r["trace"][-44:], r["cpu"], r["window_s"], r["busy_s"], r["idle_s"],
            cell(r["preempt"]), cell(r["after"]), cell(r["idle"]), r["irq"]["per_s"]))
    for key in sorted(pooled, key=lambda k: (k == "all", k)):
        s = pooled[key]
        print(f"pooled cpu {key}: window {s['window_s']:.2f} s, the file's threads running "
              f"{s['busy_s']:.2f} s, idle {s['idle_s']:.2f} s")
        for c in CLASSES + ("foreign",) + tuple("kind_" + k for k in KINDS):
            x = s[c]
            per = dict(PER, foreign="win").get(c, "win")
            print(f"  {c:12s} {x['n']:6d} {x['per_s']:8.2f} a {per} s  median "
                  f"{x['median_us']:8.1f} p90 {x['p90_us']:8.1f} mean {x['mean_us']:8.1f} us  "
                  f"{x['cpu_ms_per_s']:7.2f} ms a {per} s")
    top = sorted(comms.items(), key=lambda kv: (-kv[1], kv[0]))[:12]
    print("switched in (preempt, after): " + ", ".join(f"{k} {v}" for k, v in top))
    print(f"foreign episodes of {long_us} us or more (preempt, after, idle): {longs['n']}, "
          f"{longs['n'] * 1e9 / a['win'] if a['win'] else 0:.2f} a second of the window per "
          f"CPU, mean {longs['run_ns'] / 1e3:.1f} us")
    print(f"background_long_rate {longs['rate']}")
    print(f"background_long_run {longs['run_ns']}ns")
    if bins:
        print(f"foreign runs (preempt, after, idle): {len(every)}, "
              f"{len(every) * 1e9 / a['win'] if a['win'] else 0:.2f} a second of the window "
              f"per CPU, in {bins} bins of equal counts:")
        print(f"background_rate {pooled['all']['bins']['rate']}")
        print("background_runs " + ",".join(f"{x}ns" for x in btable))
    return 0


def cell(x):
    return "%6.2f %6.1f %7.1f" % (x["per_s"], x["median_us"], x["mean_us"])


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BadInput as e:
        print(f"foreign_runs.py: {e}", file=sys.stderr)
        sys.exit(2)
