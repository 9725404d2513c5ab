#!/usr/bin/env python3
"""The wake-up preemption of a waker in real traces, by pair and by the waker's run.

Issue 28 (docs/validate.md, "The switch price re-measured, and the wake-up preemption by
pair"): `schedlab calibrate --recordings` measures one rate, wake_preempt, over the wake-ups by
a running task of a task asleep 1 ms or more onto the waker's own CPU, from task context,
inside the waker's first 1.4 ms since its switch-in; of them, the share whose sched_wakeup has
need_resched set (the flags' second column is not '.'). This selects the same wake-ups in
ftrace text traces (plain or .xz) and splits the rate:

  by pair     waker's comm -> wakee's comm (the pair's count, need_resched, per 1000)
  by run      the waker's run since its switch-in, in bins (us)
  by sleep    the wakee's sleep since its last switch-out, in bins (ms)
  by size     the ratio of the two tasks' utilizations (each one's running time decayed as
              PELT's util_avg, 32 ms half-life, 0..1024, the integer part plus 1 as the
              machine's wake_preempt_ratio reads them): the waker's R times the wakee's or
              more, neither, the wakee's R times the waker's or more (docs/validate.md, step 8)
  by entry    how the waker got its CPU at its switch-in: from a task it preempted (that task
              left runnable, R), from a task that slept, from idle; then the wakers after a
              sleeper against the others, each by size (docs/validate.md, step 20: the
              machine's pooled rates do not split them, the traces do)

so that whether one rate holds can be seen. A task's comm is the latest seen (a sched_switch's
next_comm, a sched_wakeup's comm); the waker's comm in the line's header may
be a stale one from before the thread named itself (and a pair's comm is the one seen last
before the wake-up: rt-app's threads may show as "rt-app" before they name themselves).

Usage: wake_preempt_pairs.py [--min N] [--ratio R] [--short | --again] [--no-again]
                             [--no-foreign[=US]] TRACE...
  --no-foreign[=US]  leave out the wake-ups while a foreign task (not one of the file's
            threads, as tools/foreign_runs.py finds them, the workload's JSON beside each
            trace) held either CPU or had run on one at most US us before (default 1000)
  --min N   pairs with fewer than N counted wake-ups are summed in one line (default 20)
  --ratio R the bound of the table by size (default 8)
  --no-again  leave out the wake-ups that --again counts (the machine draws those at
            wake_preempt_again, so wake_preempt and wake_preempt_short are the others' rates)
  --short   the wake-ups of a task asleep under 1 ms instead, the rest as above (the machine
            parameter wake_preempt_short: docs/validate.md, step 6); after the table by run,
            `param wake_preempt_short=N wake_preempt_short_late=M wake_preempt_short_run=
            160000ns`: the rates of the wakers under 160 us of run and from it (step 23)
  --again   the second halves of the hand-offs instead (wake_preempt_again: docs/validate.md,
            step 7): the first wake-up of a task, by a running task onto its own CPU, after
            the wakee took that CPU from this same waker (switched out runnable), ran at most
            10 us there and slept (on the mutex the waker holds); no bound on the waker's run
            nor on the sleep
Exit 2 on a file that cannot be read, on a bad option, or when no wake-up is counted.
"""
import lzma
import math
import sys

from cli_common import run
from foreign_runs import no_foreign
from ftrace_lines import WAKE, reason, records, switch

SLICE_NS = 1400000  # the waker's first slice (6.18's base slice on 2 CPUs)
SLEPT_NS = 1000000  # the wakee's least sleep: leaves out the second half of a hand-off
RUN_BINS_US = [10, 40, 160, 640]
LATE_RUN_US = 160  # --short: the waker's run from which wake_preempt_short_late applies
SLEEP_BINS_MS = [3, 10, 30]
BOUNCE_NS = 10000  # --again: the wakee's run after taking the CPU from its waker, at most
ENTRY_PREEMPTED, ENTRY_SLEPT, ENTRY_IDLE = 0, 1, 2  # how the waker got its CPU (--entry)
ENTRY_LABELS = ("from a task it preempted (left runnable)", "from a task that slept",
                "from idle")
HALF_NS = 32 * 1024 * 1000  # the utilization's half-life (PELT: y^32 = 1/2, 1024 us periods)


def util_at(u, t):
    """a task's utilization at t from its state [value, since, running], 0..1024"""
    d = math.exp(-math.log(2) * (t - u[1]) / HALF_NS)
    return u[0] * d + (1024 * (1 - d) if u[2] else 0)


def size_row(uw, ue, ratio):
    """0: the wakee's ratio times the waker's or more, 2: the waker's, 1: neither"""
    w, e = int(uw) + 1, int(ue) + 1
    return 2 if w >= e * ratio else 0 if e >= w * ratio else 1


def read(path, tables, short=False, again=False, no_again=False, ratio=8, skip=None):
    """adds the counted wake-ups of one trace to tables (pairs, runs, sleeps, sizes); returns
    how many, and how many skip (a function of the wake-up's time, --no-foreign) left out"""
    pairs, runs, sleeps, sizes, entries = tables
    cur, in_at, out_at, comm, entry = {}, {}, {}, {}, {}
    util = {}  # pid: [utilization, since, running]
    took, bounced = {}, {}  # --again: whose CPU a task took (pid, when), whom it bounced on
    n = left = 0
    for _, pid, cpu, flags, _, t, event, rest in records(path):
        if event == "sched_switch":
            s = switch(rest)
            if not s:
                continue
            prev, state, ncomm, nxt = s
            for p, on in ((prev, False), (nxt, True)):
                if p:
                    u = util.setdefault(p, [0.0, t, False])
                    u[0], u[1], u[2] = util_at(u, t), t, on
            if prev:
                out_at[prev] = t
                was = took.pop(prev, None)
                if was and state[0] in "SD" and t - was[1] <= BOUNCE_NS:
                    bounced[prev] = was[0]
            if nxt and prev and state.startswith("R"):
                took[nxt] = (prev, t)
            else:
                took.pop(nxt, None)
            cur[cpu], in_at[cpu] = nxt, t
            entry[cpu] = ENTRY_IDLE if not prev else (
                ENTRY_PREEMPTED if state.startswith("R") else ENTRY_SLEPT)
            if nxt:
                comm[nxt] = ncomm
        elif event == "sched_wakeup":
            w = WAKE.search(rest)
            if not w:
                continue
            wakee, target = int(w.group(2)), int(w.group(4))
            comm[wakee] = w.group(1)
            bounced_on = bounced.pop(wakee, None)
            if (again and bounced_on != pid) or (no_again and bounced_on == pid):
                continue
            if (target != cpu or len(flags) < 4 or flags[2] != "." or not pid
                    or cur.get(cpu) != pid or wakee == pid or wakee not in out_at):
                continue
            ran, slept = t - in_at[cpu], t - out_at[wakee]
            if not again and (ran >= SLICE_NS or (slept < SLEPT_NS) != short):
                continue
            if skip is not None and skip(t):
                left += 1
                continue
            flag = flags[1] != "."
            n += 1
            key = (comm.get(pid, "?"), w.group(1))
            size = size_row(util_at(util.get(pid, [0, t, False]), t),
                            util_at(util.get(wakee, [0, t, False]), t), ratio)
            for table, k in ((pairs, key), (runs, sum(ran >= b * 1000 for b in RUN_BINS_US)),
                             (sleeps, sum(slept >= b * 1000000 for b in SLEEP_BINS_MS)),
                             (sizes, size), (entries, (entry.get(cpu, ENTRY_IDLE), size))):
                c = table.setdefault(k, [0, 0])
                c[0] += 1
                c[1] += flag
    return n, left


def per1000(c):
    """c[1] of c[0] per 1000, rounded"""
    return (c[1] * 1000 + c[0] // 2) // c[0]


def row(label, c):
    print("%-40s %7d %7d %5d" % (label, c[0], c[1], per1000(c)))


def bins(title, table, edges, unit):
    print("\n%-40s %7s %7s %5s" % (title, "wakeups", "resched", "/1000"))
    for i in sorted(table):
        lo = "%d" % edges[i - 1] if i else "0"
        hi = "%d %s" % (edges[i], unit) if i < len(edges) else ("and more (%s)" % unit)
        row("%s to %s" % (lo, hi) if i < len(edges) else "%s %s" % (lo, hi), table[i])


def main(argv):
    argv, near = no_foreign(argv, "wake_preempt_pairs.py")
    least = 20
    ratio = 8
    short = False
    again = False
    no_again = False
    files = []
    i = 0
    while i < len(argv):
        if argv[i] == "--min":
            if i + 1 >= len(argv) or not argv[i + 1].isdigit():
                sys.stderr.write("wake_preempt_pairs.py: --min: expected a count\n")
                return 2
            least = int(argv[i + 1])
            i += 2
            continue
        if argv[i] == "--ratio":
            if i + 1 >= len(argv) or not argv[i + 1].isdigit() or not int(argv[i + 1]):
                sys.stderr.write("wake_preempt_pairs.py: --ratio: expected a count from 1\n")
                return 2
            ratio = int(argv[i + 1])
            i += 2
            continue
        if argv[i] == "--no-again":
            no_again = True
            i += 1
            continue
        if argv[i] == "--short":
            short = True
            i += 1
            continue
        if argv[i] == "--again":
            again = True
            i += 1
            continue
        if argv[i].startswith("-"):
            sys.stderr.write("wake_preempt_pairs.py: unknown option %s (expected --min N, "
                             "--ratio R, --short, --again or --no-again)\n"
                             % argv[i])
            return 2
        files.append(argv[i])
        i += 1
    if not files or (short and again) or (again and no_again):
        sys.stderr.write("usage: wake_preempt_pairs.py [--min N] [--ratio R] [--short | --again] "
                         "[--no-again] [--no-foreign[=US]] TRACE...\n")
        return 2
    pairs, runs, sleeps, sizes, entries = {}, {}, {}, {}, {}
    n = left = 0
    for path in files:
        try:
            k, lo = read(path, (pairs, runs, sleeps, sizes, entries), short, again, no_again, ratio,
                         near(path) if near else None)
            n, left = n + k, left + lo
        except (OSError, EOFError, lzma.LZMAError) as e:
            sys.stderr.write("wake_preempt_pairs.py: %s: cannot read: %s\n"
                             % (path, reason(path, e)))
            return 2
    if not n:
        what = ("after a hand-off's bounce" if again else
                "inside its first slice of a task asleep %s"
                % ("under 1 ms" if short else "1 ms or more"))
        sys.stderr.write("wake_preempt_pairs.py: %s: no wake-up by a running task onto its CPU "
                         "%s\n" % (" ".join(files), what))
        return 2
    if near:
        print("--no-foreign: %d of %d wake-ups left out (a foreign task held a CPU or had run "
              "on one within the margin)" % (left, n + left))
    total = [sum(c[0] for c in pairs.values()), sum(c[1] for c in pairs.values())]
    print("%d counted wake-ups in %d trace(s); need_resched set in %d (%d per 1000)"
          % (n, len(files), total[1], (total[1] * 1000 + n // 2) // n))
    print("\n%-40s %7s %7s %5s" % ("waker -> wakee", "wakeups", "resched", "/1000"))
    rest = [0, 0]
    for key, c in sorted(pairs.items(), key=lambda kv: (-kv[1][0], kv[0])):
        if c[0] < least:
            rest[0] += c[0]
            rest[1] += c[1]
            continue
        row("%s -> %s" % key, c)
    if rest[0]:
        row("(pairs under %d)" % least, rest)
    bins("waker's run since switch-in", runs, RUN_BINS_US, "us")
    if short:
        # the machine's wake_preempt_short_late (docs/validate.md, step 23): the rate of a
        # waker that has run LATE_RUN_US or more since its switch-in, beside the others'
        late = RUN_BINS_US.index(LATE_RUN_US) + 1
        c = [[sum(v[i] for k, v in runs.items() if (k >= late) == up) for i in (0, 1)]
             for up in (False, True)]
        if c[0][0] and c[1][0]:
            print("param wake_preempt_short=%d wake_preempt_short_late=%d "
                  "wake_preempt_short_run=%dns" % (per1000(c[0]), per1000(c[1]),
                                                   LATE_RUN_US * 1000))
    bins("wakee's sleep", sleeps, SLEEP_BINS_MS, "ms")
    print("\n%-40s %7s %7s %5s" % ("utilization (the ratio %d)" % ratio, "wakeups", "resched",
                                     "/1000"))
    for k, label in ((2, "waker's %d times the wakee's or more" % ratio), (1, "neither"),
                     (0, "wakee's %d times the waker's or more" % ratio)):
        if k in sizes:
            row(label, sizes[k])
    print("\n%-40s %7s %7s %5s" % ("the waker's CPU came", "wakeups", "resched", "/1000"))
    for e, label in enumerate(ENTRY_LABELS):
        c = [sum(v[i] for k, v in entries.items() if k[0] == e) for i in (0, 1)]
        if c[0]:
            row(label, c)
    # the machine's wake_preempt_slept* rates: a waker on its CPU after a task that slept
    # there, by size, beside the other wakers' (idle or a preemption before them)
    print("\n%-40s %7s %7s %5s" % ("the waker after a sleeper, by size", "wakeups", "resched",
                                     "/1000"))
    for slept in (True, False):
        for k, label in ((None, "all sizes"), (2, "waker's %d times or more" % ratio),
                         (1, "neither"), (0, "wakee's %d times or more" % ratio)):
            c = [sum(v[i] for key, v in entries.items()
                     if (key[0] == ENTRY_SLEPT) == slept and (k is None or key[1] == k))
                 for i in (0, 1)]
            if c[0]:
                row("%s: %s" % ("after a sleeper" if slept else "otherwise", label), c)
    return 0


if __name__ == "__main__":
    run(main)
