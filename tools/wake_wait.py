#!/usr/bin/env python3
"""What a task's slowest wake-ups wait behind, and how often the same situation arises.

Issue 28 (docs/validate.md, "The slow five per cent of the wake-ups"): the wake-up latency
p95 is the figure the model misses most. For the tasks named, every wake-up in each trace
(sched_waking of a task not already pending, to its next switch-in, as validate and
tools/agreement_breakdown.py count it) is put in a *situation*, what the kernel faces at the
waking:

  from      irq     an interrupt (hardirq/softirq flag, the idle task, or in the model's
                    traces a wake-up at the instant of an hrtimer/irq line on that CPU)
            own     a task running on the target CPU wakes it there (the waker's CPU)
            other   a task on the other CPU wakes it
  target    idle, or the name of the task running on the target CPU at the waking
  other     idle/busy: the CPU that is not the target

and an *outcome*: `first` (its switch-in on the target CPU comes next there: the CPU was idle
or its task was preempted), `moved` (it ran first on another CPU than the target), or
`waited` (the target's task blocked first, or others ran first: the first of them is
"behind"). The target is the CPU the wakee last ran on (a recording's sched_waking names it;
the model's trace writes its move first, which is undone here).

Per task (-t), printed: its wake-ups, the latency's p50 and p95, the wake-ups at or above the
p95 by situation, outcome and what they waited behind, then every wake-up in those situations:
how many, and per outcome how many and their latency p50/p95. With --vs, each group of traces
after it is printed beside the first (the recordings against the model's traces).

--count irq|own|other|any (any: the three) counts, over every task (names starting with --skip,
default kworker, left out: the model's background tasks), the wake-ups from that source onto
the wakee's own last CPU while it runs a task, per (wakee, running task) pair: at once (first,
within --prompt us, default 100), late (first, later: the running task preempted after a
while), moved, waited; and in all, the share kept on that CPU and of those the share run at
once: the rate irq_wake_preempt takes. --by-size R groups them instead by the two utilizations
(each task's running time decayed as PELT's util_avg, 32 ms half-life, as
tools/wake_preempt_pairs.py): the running task's R times the wakee's or more, the wakee's R
times the running task's, or neither (irq_wake_preempt_up's row); --by-run by the running
task's time since its switch-in. --kept DIM,... (with --count; DIM: other, the other CPU B idle
or busy; run, the running task's time since its switch-in; size, the --by-size row, ratio 8
unless given; pair, the wakee and the running task) splits the wake-ups kept on the CPU by what
followed: run at once, preempted in late, after the running task blocked (the wakee next),
queued behind others; one line per row and group of traces (docs/validate.md, "Packed wakees:
at once, or not at all").

Usage: wake_wait.py [--pct 95] [--min-share N] -t TASK [-t TASK...] TRACE... [--vs TRACE...]...
       wake_wait.py --count irq|own|other|any [--prompt US] [--skip PREFIX] [--by-size R | --by-run]
                    [--kept DIM,...] TRACE... [--vs TRACE...]...
  TRACE is an ftrace text file (plain or .xz): a recording's real.trace(.xz) or the model's
  sim.trace (validate --sim-out). Latencies in us. --min-share: the situations printed hold
  this many per 1000 of the slow wake-ups or more (default 50).
Exit 2 on bad input (a missing or unreadable trace, no task named, a malformed sched line, a
trace without a sched_switch).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ftrace_lines import IRQ_FLAGS, SW, WAKE, opener, parse, reason, uncommented  # noqa: E402
from wake_preempt_pairs import util_at  # noqa: E402

MIGRATE = re.compile(r"pid=(\d+) .*orig_cpu=(\d+) dest_cpu=(\d+)")
OUTCOMES = ("first", "moved", "waited")
NONE = (0.0, 0, False)  # the utilization of a task not seen running yet
IRQ_LINES = ("hrtimer_expire_entry", "irq_handler_entry", "softirq_entry")


class Every:
    """every task name (--count)"""

    def __contains__(self, name):
        return True


def die(msg, code=2):
    sys.stderr.write("wake_wait.py: %s\n" % msg)
    sys.exit(code)


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q / 100.0 * len(v)))] if v else float("nan")


def wakeups(path, tasks):
    """[(comm, latency us, situation (from, target, other), outcome, behind, the target's task's
    run since its switch-in (us), the two utilizations (target's task, wakee), (direct: the
    wakee's switch-in was the first switch on its CPU after the waking, elsewhere: that CPU
    is not the target))] of a trace"""
    curr, comm, pend, irq, migr, since, out = {}, {0: "idle"}, {}, {}, {}, {}, []
    util = {}  # pid: [utilization, since (ns), running], as tools/wake_preempt_pairs.py
    seen_switch = False
    try:
        f = opener(path)
        lines = list(f)
    except (OSError, EOFError, ValueError) as e:
        die("%s: cannot read: %s" % (path, reason(path, e)))
    for n, (_, tpid, cpu, flags, ts, _, ev, args) in parse(uncommented(lines)):
        t = float(ts) * 1e6
        if ev in IRQ_LINES:
            irq[cpu] = ts
        elif ev == "sched_migrate_task":
            g = MIGRATE.search(args)
            if not g:
                die("%s:%d: a sched_migrate_task without pid/orig_cpu/dest_cpu" % (path, n))
            migr[int(g.group(1))] = (ts, int(g.group(2)), int(g.group(3)))
        elif ev == "sched_switch":
            s = SW.search(args)
            if not s:
                die("%s:%d: a sched_switch without prev_pid/prev_state/next_comm/next_pid" %
                    (path, n))
            seen_switch = True
            prev, nxt, ncomm = int(s.group(1)), int(s.group(4)), s.group(3)
            if nxt and ncomm != "rt-app":
                comm[nxt] = ncomm
            curr[cpu] = nxt
            since[cpu] = t
            for q, on in ((prev, False), (nxt, True)):
                if q:
                    u = util.setdefault(q, [0.0, t * 1000, False])
                    u[0], u[1], u[2] = util_at(u, t * 1000), t * 1000, on
            pstate = s.group(2)
            pcomm = comm.get(prev, str(prev)) if prev else "idle"
            for pid, w in pend.items():
                if pid != nxt:
                    w["sw"].setdefault(cpu, []).append((pcomm, pstate, comm.get(nxt, str(nxt))))
            w = pend.pop(nxt, None)
            if w is not None and w["comm"] in tasks:
                sw = w["sw"].get(cpu, []) + [(pcomm, pstate, None)]
                outcome, behind = outcome_of(sw, cpu != w["target"])
                out.append((w["comm"], t - w["t"], w["sit"], outcome, behind, w["run"],
                            w["sizes"], (len(sw) == 1, cpu != w["target"])))
        elif ev == "sched_waking":
            w = WAKE.search(args)
            if not w:
                die("%s:%d: a sched_waking without comm/pid/prio/target_cpu" % (path, n))
            pid, target = int(w.group(2)), int(w.group(4))
            mig = migr.get(pid)
            if mig and mig[0] == ts and mig[2] == target:
                target = mig[1]  # the model's trace: the move, then the waking on the new CPU
            if w.group(1) != "rt-app":
                comm[pid] = w.group(1)
            if pid in pend or pid in curr.values() or target not in curr:
                continue
            other = [c for c in curr if c != target]
            if flags[2:3] in IRQ_FLAGS or tpid == 0 or irq.get(cpu) == ts:
                frm = "irq" if cpu == target else "irq-other"
            elif cpu == target:
                frm = "own"
            else:
                frm = "other"
            tgt = "idle" if curr[target] == 0 else comm.get(curr[target], str(curr[target]))
            oth = "idle" if not other or all(curr[c] == 0 for c in other) else "busy"
            pend[pid] = {"t": t, "target": target, "comm": comm.get(pid, str(pid)),
                         "sit": (frm, tgt, oth), "sw": {}, "run": t - since.get(target, t),
                         "sizes": (util_at(util.get(curr[target], NONE), t * 1000),
                                   util_at(util.get(pid, NONE), t * 1000))}
    if not seen_switch:
        die("%s: no sched_switch line (an ftrace text trace with sched_switch and "
            "sched_waking expected)" % path)
    return out


def outcome_of(sw, elsewhere):
    """the outcome and what was waited behind, from the switches on the CPU where the wakee
    ran between its waking and its switch-in (prev, prev_state, next; the last its own)"""
    if len(sw) == 1:
        prev, state = sw[0][0], sw[0][1]
        if prev == "idle" or state.startswith("R"):
            return ("moved" if elsewhere else "first"), "-"
        return "waited", prev
    first = sw[0][0] if sw[0][0] != "idle" and not sw[0][1].startswith("R") else sw[0][2]
    return "waited", first


def collect(paths, tasks):
    rows = []
    for p in paths:
        rows.extend(wakeups(p, tasks))
    return rows


def sit_name(s):
    return "%s->%s, other %s" % s


def summary(rows, task, q):
    """(n, p50, p95, {situation: count at or above pct q}, {(situation, behind): count})"""
    lat = [r[1] for r in rows if r[0] == task]
    if not lat:
        return None
    cut = pct(lat, q)
    slow = [r for r in rows if r[0] == task and r[1] >= cut]
    sits, beh = {}, {}
    for r in slow:
        sits[r[2]] = sits.get(r[2], 0) + 1
        key = (r[2], r[3], r[4])
        beh[key] = beh.get(key, 0) + 1
    return len(lat), pct(lat, 50), cut, len(slow), sits, beh


def situation(rows, task, sit):
    """(n, {outcome: (count, latency p50, latency p95)}) of one situation's wake-ups"""
    sel = [r for r in rows if r[0] == task and r[2] == sit]
    oc = {}
    for o in OUTCOMES:
        lat = [r[1] for r in sel if r[3] == o]
        oc[o] = (len(lat), pct(lat, 50), pct(lat, 95))
    return len(sel), oc


def fmt_us(x):
    return "-" if x != x else "%.0f" % x


def report(groups, tasks, q, min_share):
    names = [g[0] for g in groups]
    for task in tasks:
        print("%s" % task)
        sums = [summary(g[1], task, q) for g in groups]
        for name, s in zip(names, sums):
            if s is None:
                print("  %-8s no wake-up" % name)
                continue
            n, p50, cut, nslow, sits, beh = s
            print("  %-8s %d wake-ups, p50 %s us, p%g %s us; %d at or above it, by situation"
                  " (outcome, behind):" % (name, n, fmt_us(p50), q, fmt_us(cut), nslow))
            for key, c in sorted(beh.items(), key=lambda kv: (-kv[1], kv[0])):
                if c * 1000 >= min_share * nslow:
                    print("    %4d  %-40s %-6s %s" % (c, sit_name(key[0]), key[1], key[2]))
        keys = set()
        for s in sums:
            if s is not None:
                keys.update(k for k, c in s[4].items() if c * 1000 >= min_share * s[3])
        if not keys:
            continue
        print("  every wake-up in those situations: n; per outcome n (latency p50/p95 us)")
        for k in sorted(keys):
            print("    %s" % sit_name(k))
            for g in groups:
                n, oc = situation(g[1], task, k)
                print("      %-7s %5d; %s" % (g[0], n, "; ".join(
                    "%s %d (%s/%s)" % (o, oc[o][0], fmt_us(oc[o][1]), fmt_us(oc[o][2]))
                    for o in OUTCOMES)))


RUN_BINS = (250, 500, 1000, 1500, 2000, 3000, 4000)


def run_bin(us):
    """the bin of the runner's time on the CPU since its switch-in, in us"""
    lo = 0
    for b in RUN_BINS:
        if us < b:
            return "%d-%d us" % (lo, b)
        lo = b
    return "%d+ us" % lo


def size_name(sizes, ratio):
    """the row of the runner's and the wakee's utilizations, as wake_preempt_ratio's"""
    r, e = int(sizes[0]) + 1, int(sizes[1]) + 1
    return ("runner's %dx" % ratio if r >= e * ratio else
            "wakee's %dx" % ratio if e >= r * ratio else "neither")


def count(groups, frm, prompt, skip, by_run=False, by_size=0):
    """every wake-up from `frm` onto its previous CPU while that runs a task (the wakees and
    runners whose names start with `skip` left out), per (wakee, runner) pair and in all: at
    once (the wakee's next switch-in is the runner's preemption, within `prompt` us), late (a
    preemption later), moved (it ran first on another CPU), waited (others ran first)"""
    tabs = []
    for name, rows in groups:
        d = {}
        for c, lat, sit, oc, _, run, sizes, _ in rows:
            if sit[0] not in sources(frm) or sit[1] == "idle" or (
                    skip and (c.startswith(skip) or sit[1].startswith(skip))):
                continue
            key = (("runner ran", run_bin(run)) if by_run else
                   ("sizes", size_name(sizes, by_size)) if by_size else (c, sit[1]))
            e = d.setdefault(key, [0, 0, 0, 0, 0])
            e[0] += 1
            e[1 if oc == "first" and lat <= prompt else 2 if oc == "first" else
              3 if oc == "moved" else 4] += 1
        tabs.append((name, d))
    keys = set()
    for _, d in tabs:
        keys.update(d)
    print("wake-ups from %s onto a CPU running a task: n, at once (%g us), late, moved, waited"
          % (frm, prompt))
    print("%-16s %-16s %s" % ("wakee", "running task", "   ".join(
        "%-29s" % ("traces " + n) for n, _ in tabs)))
    for k in sorted(keys, key=lambda k: (-sum(d.get(k, [0])[0] for _, d in tabs), k)):
        print("%-16s %-16s %s" % (k[0][:16], k[1][:16], "   ".join(
            "%5d %5d %5d %5d %5d" % tuple(d.get(k, [0] * 5)) for _, d in tabs)))
    for name, d in tabs:
        t = [sum(e[i] for e in d.values()) for i in range(5)]
        kept = t[0] - t[3]
        print("traces %s: %d wake-ups, at once %d, late %d, moved %d, waited %d; kept on the "
              "CPU %d per 1000, of those run at once %d per 1000" %
              (name, t[0], t[1], t[2], t[3], t[4], 1000 * kept // t[0] if t[0] else 0,
               1000 * t[1] // kept if kept else 0))


KEPT_DIMS = ("other", "run", "size", "pair")
RUN_ORDER = {run_bin(b - 1): (i, "") for i, b in enumerate(RUN_BINS + (10 ** 9,))}


def sources(frm):
    """the wake-ups' sources --count takes: one, or any of the three"""
    return ("irq", "own", "other") if frm == "any" else (frm,)


def kept_key(dims, c, sit, run, sizes, ratio):
    """the row of a wake-up in --kept's table: one part per dimension asked for"""
    part = {"other": lambda: "B " + sit[2], "run": lambda: run_bin(run),
            "size": lambda: size_name(sizes, ratio), "pair": lambda: c + " on " + sit[1]}
    return tuple(part[d]() for d in dims)


def kept(groups, frm, prompt, skip, dims, ratio):
    """every wake-up from `frm` onto its previous CPU A while that runs a task (B: the other
    CPU), by `dims`: moved (it ran on B; of those, waited there: B's task blocked or others
    ran first), and of those kept on A: now (A's task
    preempted within `prompt` us), late (A's task preempted later), after (A's task blocked
    and the wakee ran next), queued (others ran on A first); the three shares per 1000 of the
    kept, `late` per 1000 of the kept not run at once (the hypothesis of docs/validate.md's
    last section: a wakee not let in at once is not preempted in later), and the latency p50
    of `after` and of `late` (us); the rates wake_hold and wake_move_preempt take"""
    tabs = []
    for name, rows in groups:
        d, mv = {}, [0, 0]
        for c, lat, sit, oc, _, run, sizes, (direct, elsewhere) in rows:
            if sit[0] not in sources(frm) or sit[1] == "idle" or (
                    skip and (c.startswith(skip) or sit[1].startswith(skip))):
                continue
            e = d.setdefault(kept_key(dims, c, sit, run, sizes, ratio), [[] for _ in range(6)])
            e[(0 if oc == "moved" else 5) if elsewhere else
              1 if oc == "first" and lat <= prompt else 2 if oc == "first" else
              3 if direct else 4].append(lat)
            if elsewhere and sit[2] == "busy":
                mv[0] += 1
                mv[1] += oc == "moved"
        tabs.append((name, d, mv))
    print("wake-ups from %s onto their CPU A running a task, by %s: n, moved (ran on B), of "
          "those waited there, kept on A; of those now (%g us), late, after (A's task "
          "blocked), queued; per 1000 kept: now, late, after; late per 1000 kept not now; "
          "p50 us of after, of late" %
          (frm, ",".join(dims), prompt))
    keys = set()
    for _, d, _ in tabs:
        keys.update(d)
    for k in sorted(keys, key=lambda k: [RUN_ORDER.get(x, (len(RUN_ORDER), x)) for x in k]):
        for name, d, _ in tabs:
            row(name, " | ".join(k), d.get(k, [[]] * 6))
    for name, d, mv in tabs:
        e = [sum((x[i] for x in d.values()), []) for i in range(6)]
        row(name, "all", e)
        nn = sum(len(x) for x in e[2:5])
        print("traces %s: wake_hold=%d (of %d kept and not run at once, %d preempted in "
              "later), wake_hold_max=%.0fns (the longest 'after')" %
              (name, 1000 - 1000 * len(e[2]) // nn if nn else 0, nn, len(e[2]),
               1000 * max(e[3]) if e[3] else 0))
        print("traces %s: wake_move_preempt=%d (of %d moved onto a busy B, %d ran there at "
              "once)" % (name, 1000 * mv[1] // mv[0] if mv[0] else 0, mv[0], mv[1]))


def row(name, label, e):
    """one line of --kept's table"""
    n = [len(x) for x in e]
    k = sum(n[1:5])
    print("%-6s %-36s %5d %5d %4d %5d  %5d %5d %5d %5d  %4s %4s %4s  %4s  %5s %5s" % (
        name, label[:36], sum(n), n[0] + n[5], n[5], k, n[1], n[2], n[3], n[4],
        *(("%d" % (1000 * n[i] // k)) if k else "-" for i in (1, 2, 3)),
        ("%d" % (1000 * n[2] // (k - n[1]))) if k - n[1] else "-",
        fmt_us(pct(e[3], 50)), fmt_us(pct(e[2], 50))))


def main(argv):
    q, min_share, tasks, groups = 95.0, 50, [], [["1", []]]
    frm, prompt, skip, by_run, by_size, dims = None, 100.0, "kworker", False, 0, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--pct", "--min-share", "-t", "--count", "--prompt", "--skip",
                 "--by-size", "--kept") and i + 1 >= len(argv):
            die("%s needs a value" % a)
        if a == "--pct":
            try:
                q = float(argv[i + 1])
            except ValueError:
                die("--pct: %r is not a number" % argv[i + 1])
            if not 0 < q < 100:
                die("--pct: %r is not between 0 and 100" % argv[i + 1])
            i += 2
        elif a == "--min-share":
            try:
                min_share = int(argv[i + 1])
            except ValueError:
                die("--min-share: %r is not an integer (per 1000)" % argv[i + 1])
            i += 2
        elif a == "--count":
            frm = argv[i + 1]
            if frm not in ("irq", "own", "other", "any"):
                die("--count: %r is not irq, own, other or any" % frm)
            i += 2
        elif a == "--prompt":
            try:
                prompt = float(argv[i + 1])
            except ValueError:
                die("--prompt: %r is not a number of us" % argv[i + 1])
            i += 2
        elif a == "--by-size":
            try:
                by_size = int(argv[i + 1])
            except ValueError:
                by_size = 0
            if by_size < 2:
                die("--by-size: %r is not a ratio of 2 or more" % argv[i + 1])
            i += 2
        elif a == "--kept":
            dims = tuple(x for x in argv[i + 1].split(",") if x)
            if not dims or any(x not in KEPT_DIMS for x in dims):
                die("--kept: %r is not a comma-separated list of %s" %
                    (argv[i + 1], ", ".join(KEPT_DIMS)))
            i += 2
        elif a == "--by-run":
            by_run = True
            i += 1
        elif a == "--skip":
            skip = argv[i + 1]
            i += 2
        elif a == "-t":
            tasks.append(argv[i + 1])
            i += 2
        elif a == "--vs":
            groups.append([str(len(groups) + 1), []])
            i += 1
        elif a.startswith("-"):
            die("unknown option %s (usage: wake_wait.py [--pct 95] [--min-share N] -t TASK... "
                "TRACE... [--vs TRACE...], or --count irq|own|other TRACE...)" % a)
        else:
            if not os.path.isfile(a):
                die("%s: no such file" % a)
            groups[-1][1].append(a)
            i += 1
    if dims is not None and frm is None:
        die("--kept needs --count irq|own|other|any")
    if not tasks and frm is None:
        die("no task named (-t TASK) and no --count")
    for g in groups:
        if not g[1]:
            die("no trace given%s" % (" after --vs" if g[0] != "1" else ""))
    if dims is not None:
        kept([(g[0], collect(g[1], Every())) for g in groups], frm, prompt, skip, dims,
             by_size or 8)
        return 0
    if frm is not None:
        count([(g[0], collect(g[1], Every())) for g in groups], frm, prompt, skip, by_run,
              by_size)
        return 0
    data = [(g[0], collect(g[1], set(tasks))) for g in groups]
    report(data, tasks, q, min_share)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
