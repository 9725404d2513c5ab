#!/usr/bin/env python3
"""The preemptions of a trace by what made each one, and what becomes of a wake-up onto a busy CPU.

Issue 28 (docs/validate.md, "Mid-run preemptions (issue 28, step 11)"): the model preempted
video's decoders and hwc_eventmon in mid-run far more often than the recordings. This reads
ftrace text traces (plain or .xz: the recordings' real.trace, or the model's `validate
--sim-out` sim.trace; the two are read alike) and prints two tables, each per trace (the mean
over the traces given).

The preemptions: every switch-out of a task that is still runnable (prev_state R or R+, not
the idle task), by the pair (the preempted task -> the task switched in) and by the path that
let the second in, read from its last wake-up:

  own     it was woken onto this CPU by the preempted task itself, from task context (the
          model's wake_preempt rules; mainline's wakeup_preempt at the waker's system call)
  irq     it was woken onto this CPU by an interrupt on this CPU (a timer)
  remote  its wake-up onto this CPU was made on the other CPU
  later   it had been waiting: woken before the preempted task's switch-in, or more than
          --window us before the switch (the tick, or a later check of the policy, let it in)

with the preempted task's median time off the CPU (us, to its next switch-in).

The wake-ups onto a busy CPU: every sched_wakeup whose target CPU runs another task, by (the
running task <- the wakee, its path as above) and what followed: "now", the running task was
switched out runnable to the wakee within --window us; "later", the same after that; "after",
the wakee ran once the running task had blocked; "other", anything else (it ran behind a third
task, or on the other CPU).

A wake-up's path comes from its sched_waking: on another CPU than its sched_wakeup's target,
remote; in hardirq or softirq context ('h', 'H' or 's' in the flags' third column, or, in the
model's traces, which have no such column, at the instant of an hrtimer_expire_entry on that
CPU), or logged by the idle task, irq; else by the task running there. The task running on a
CPU is the latest switched in there, or the task a later line of that CPU names (the
recordings leave out some events of the threads rt-app cannot name, their switch-in among
them; such a task's switch-in time is unknown, and every wake-up counts as after it).

Usage: preempt_causes.py [--window US] [--min N] [--task NAME] TRACE...
  --window US  the longest delay from the wake-up to the switch counted as its cause (100)
  --min N      rows with fewer than N events in all the traces are left out, or summed in one
               line of the first table (default 5)
  --task NAME  only the rows that name NAME
Exit 2 on a file that cannot be read, on a bad option, or when no preemption is found.
"""
import lzma
import sys

from cli_common import run
from ftrace_lines import IRQ_FLAGS, WAKE, reason, records, switch

CAUSES = ("own", "irq", "remote", "later")
OUTCOMES = ("now", "later", "after", "other")


class Trace:
    """one trace's state while it is read, adding to the two tables"""

    def __init__(self, window_ns, pairs, busy):
        self.window, self.pairs, self.busy = window_ns, pairs, busy
        self.comm = {}
        self.running, self.in_at = {}, {}  # cpu: its task, that task's switch-in (0: unknown)
        self.hrt = {}  # cpu: its latest hrtimer_expire_entry
        self.waking = {}  # wakee: (cpu of its sched_waking, 'irq' or the waker's pid)
        self.woken = {}  # wakee: (time, target cpu, path) of its last sched_wakeup
        self.queued = {}  # wakee: (cpu, running pid, time, path), woken onto a busy CPU
        self.pending = {}  # preempted pid: (its pair's row, time) until it runs again
        self.n = 0

    def wakeup(self, pid, cpu, t, wakee, name, target):
        self.comm[wakee] = name
        src_cpu, src = self.waking.pop(wakee, (cpu, pid or "irq"))
        cur = self.running.get(target, 0)
        path = ("remote" if src_cpu != target else "irq" if src == "irq"
                else "own" if src == cur else "remote")
        self.woken[wakee] = (t, target, path)
        self.queued.pop(wakee, None)
        if cur and cur != wakee:
            self.queued[wakee] = (target, cur, t, path)

    def switch(self, cpu, t, prev, state, nxt, name):
        self.comm[nxt] = name
        back = self.pending.pop(nxt, None)
        if back:
            back[0]["off"].append((t - back[1]) / 1000.0)
        if prev and nxt and state.startswith("R"):
            wk = self.woken.get(nxt)
            cause = "later"
            if (wk and wk[1] == cpu and wk[0] >= self.in_at.get(cpu, 0) and
                    t - wk[0] <= self.window):
                cause = wk[2]
            c = self.pairs.setdefault((self.comm.get(prev, "?"), name), {"off": []})
            c[cause] = c.get(cause, 0) + 1
            self.pending[prev] = (c, t)
            self.n += 1
        q = self.queued.pop(nxt, None)
        if q:
            if q[0] != cpu or q[1] != prev:
                out = "other"
            elif not state.startswith("R"):
                out = "after"
            else:
                out = "now" if t - q[2] <= self.window else "later"
            c = self.busy.setdefault((self.comm.get(q[1], "?"), name, q[3]), {})
            c[out] = c.get(out, 0) + 1
        self.running[cpu], self.in_at[cpu] = nxt, t

    def line(self, name, pid, cpu, flags, t, event, rest):
        """one line of the trace, as ftrace_lines.records() reads it"""
        if pid and self.running.get(cpu) != pid:
            self.running[cpu], self.in_at[cpu] = pid, 0
            self.comm.setdefault(pid, name.strip())
        if event == "hrtimer_expire_entry":
            self.hrt[cpu] = t
        elif event == "sched_waking":
            w = WAKE.search(rest)
            if w:
                irq = flags[2:3] in IRQ_FLAGS or self.hrt.get(cpu) == t or not pid
                self.waking[int(w.group(2))] = (cpu, "irq" if irq else pid)
        elif event == "sched_wakeup":
            w = WAKE.search(rest)
            if w:
                self.wakeup(pid, cpu, t, int(w.group(2)), w.group(1), int(w.group(4)))
        elif event == "sched_switch":
            s = switch(rest)
            if s:
                self.switch(cpu, t, s[0], s[1], s[3], s[2])


def read(path, window_ns, pairs, busy):
    """adds one trace to pairs ((preempted, switched in) -> {cause: count, 'off': [us]}) and
    busy ((running, wakee, path) -> {outcome: count}); returns how many preemptions"""
    tr = Trace(window_ns, pairs, busy)
    for name, pid, cpu, flags, _, t, event, rest in records(path):
        tr.line(name, pid, cpu, flags, t, event, rest)
    return tr.n


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else 0.0


def row(label, c, keys, nf, off=True):
    out = "%-44s %7.1f" % (label, sum(c.get(k, 0) for k in keys) / nf)
    out += "".join(" %7.1f" % (c.get(k, 0) / nf) for k in keys)
    print(out + (" %8.0f" % median(c["off"]) if off else ""))


def options(argv):
    """(window us, least, task, files), or None after saying what is wrong"""
    window, least, task, files = 100, 5, None, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--window", "--min", "--task"):
            if i + 1 >= len(argv) or (a != "--task" and not argv[i + 1].isdigit()):
                sys.stderr.write("preempt_causes.py: %s: expected %s\n"
                                 % (a, "a name" if a == "--task" else "a count"))
                return None
            if a == "--window":
                window = int(argv[i + 1])
            elif a == "--min":
                least = int(argv[i + 1])
            else:
                task = argv[i + 1]
            i += 2
            continue
        if a.startswith("-"):
            sys.stderr.write("preempt_causes.py: unknown option %s (expected --window US, "
                             "--min N or --task NAME)\n" % a)
            return None
        files.append(a)
        i += 1
    if not files:
        sys.stderr.write("usage: preempt_causes.py [--window US] [--min N] [--task NAME] "
                         "TRACE...\n")
        return None
    return window, least, task, files


def main(argv):
    opts = options(argv)
    if not opts:
        return 2
    window, least, task, files = opts
    pairs, busy = {}, {}
    n = 0
    for path in files:
        try:
            n += read(path, window * 1000, pairs, busy)
        except (OSError, EOFError, lzma.LZMAError) as e:
            sys.stderr.write("preempt_causes.py: %s: cannot read: %s\n" % (path, reason(path, e)))
            return 2
    if not n:
        sys.stderr.write("preempt_causes.py: %s: no task switched out runnable\n"
                         % " ".join(files))
        return 2
    nf = len(files)
    print("%d preemptions in %d trace(s); per trace, by path (window %d us)" % (n, nf, window))
    print("\n%-44s %7s %7s %7s %7s %7s %8s" % ("preempted -> switched in", "all", *CAUSES,
                                              "off us"))
    every, rest = {"off": []}, {"off": []}
    for key, c in sorted(pairs.items(), key=lambda kv: (-sum(kv[1].get(k, 0) for k in CAUSES),
                                                        kv[0])):
        for k in CAUSES:
            every[k] = every.get(k, 0) + c.get(k, 0)
        every["off"] += c["off"]
    row("all", every, CAUSES, nf)
    for key, c in sorted(pairs.items(), key=lambda kv: (-sum(kv[1].get(k, 0) for k in CAUSES),
                                                        kv[0])):
        if task and task not in key:
            continue
        if sum(c.get(k, 0) for k in CAUSES) >= least:
            row("%s -> %s" % key, c, CAUSES, nf)
            continue
        for k in CAUSES:
            rest[k] = rest.get(k, 0) + c.get(k, 0)
        rest["off"] += c["off"]
    if any(rest.get(k) for k in CAUSES):
        row("(rows under %d)" % least, rest, CAUSES, nf)
    print("\n%-44s %7s %7s %7s %7s %7s" % ("running <- woken onto its CPU (path)", "all",
                                          *OUTCOMES))
    for cause in CAUSES[:3]:
        c = {}
        for key, v in busy.items():
            if key[2] == cause:
                for k in OUTCOMES:
                    c[k] = c.get(k, 0) + v.get(k, 0)
        if c:
            row("all (%s)" % cause, c, OUTCOMES, nf, False)
    for key, c in sorted(busy.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])):
        if (not task or task in key[:2]) and sum(c.values()) >= least:
            row("%s <- %s (%s)" % key, c, OUTCOMES, nf, False)
    return 0


if __name__ == "__main__":
    run(main)
