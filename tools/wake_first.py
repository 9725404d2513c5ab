#!/usr/bin/env python3
"""Whether a task's wakee runs before it, inside and after the waker's first 1.4 ms, in real
and model traces alike.

Issue 28, step 15 (docs/validate.md, "rt-app's sync and its hand-off"): the machine's
wake_preempt rates (wake_preempt_all) decide a wake-up by the running task onto its own CPU
inside the waker's first wake_preempt_window (1.4 ms) since its switch-in; after it the policy
checks first and the rates are drawn where it did not preempt. `schedlab calibrate
--recordings` and tools/wake_preempt_pairs.py read the need_resched flag of sched_wakeup, which
the model's traces do not write; this reads what both write: the waker's next sched_switch on
that CPU. A wake-up is counted when the line's task is the one running on its CPU (a task's
wake-up, not an interrupt's: no interrupt flag and no interrupt entry line on that CPU at the
same timestamp, as the model marks a timer's; ftrace_lines.task_waking), the wakee goes to that same CPU (sched_wakeup's target_cpu), was
seen switched out and slept --sleep us (1000) or more, and no other such wake-up on that CPU
is still waiting for the waker's switch. The wakee ran first when the waker's next switch is a
preemption (R) to it; otherwise the waker went on (a preemption to another task, or a sleep).

Usage: wake_first.py [--window US] [--sleep US] [--pairs] TRACE...
  (defaults 1400 and 1000) prints per trace and pooled: inside the window, after it: the wakee
  first, of the counted wake-ups (per 1000)
  --pairs   then, pooled, inside the window, per pair (the waker's and the wakee's comm, the
            latest seen before the wake-up), the most counted first: a rate the policy's
            check gives pair by pair, where a pooled rate cannot (docs/validate.md, step 21)
Exit 2 on a file that cannot be read, on a bad option, or when no wake-up is counted.
"""
import collections
import sys

from ftrace_lines import WAKE, reason, records, sched_lines, task_waking


def count(path, window_ns, sleep_ns, pairs=None):
    """{('inside' | 'after', 'first' | 'kept'): n} of one trace; pairs, a Counter, gets
    {(waker comm, wakee comm, 'first' | 'kept'): n} inside the window"""
    c = collections.Counter()
    cur, in_at, out_at, pend, comm, mark = {}, {}, {}, {}, {}, {}
    for (_, pid, cpu, flags, ts, t, event, rest), s in sched_lines(records(path), mark):
        if s:
            prev, state, name, nxt = s
            comm[nxt] = name
            if cpu in pend:
                waker, wakee, when, names = pend.pop(cpu)
                if waker == prev:
                    first = state.startswith("R") and nxt == wakee
                    c[(when, "first" if first else "kept")] += 1
                    if pairs is not None and when == "inside":
                        pairs[names + ("first" if first else "kept",)] += 1
            out_at[prev] = t
            cur[cpu], in_at[cpu] = nxt, t
        elif event == "sched_wakeup":
            w = WAKE.search(rest)
            if not w:
                continue
            wakee, target = int(w.group(2)), int(w.group(4))
            comm[wakee] = w.group(1)
            if (target != cpu or not task_waking(flags, ts, pid, cpu, mark, cur) or wakee == pid
                    or wakee not in out_at or cpu in pend or t - out_at[wakee] < sleep_ns):
                continue
            pend[cpu] = (pid, wakee, "inside" if t - in_at[cpu] < window_ns else "after",
                         (comm.get(pid, "?"), comm[wakee]))
    return c


def line(label, c):
    parts = []
    for when in ("inside", "after"):
        n = c[(when, "first")] + c[(when, "kept")]
        share = "%d" % ((c[(when, "first")] * 1000 + n // 2) // n) if n else "-"
        parts.append("%s the window: wakee first %d of %d (%s per 1000)"
                     % (when, c[(when, "first")], n, share))
    print("%s: %s" % (label, "; ".join(parts)))


def main(argv):
    window_us, sleep_us = 1400, 1000
    files = []
    i = 0
    usage = "usage: wake_first.py [--window US] [--sleep US] [--pairs] TRACE...\n"
    pairs = None
    while i < len(argv):
        if argv[i] in ("--window", "--sleep"):
            try:
                v = int(argv[i + 1])
                if v < 0:
                    raise ValueError
            except (IndexError, ValueError):
                sys.stderr.write("wake_first.py: %s takes a number of us, 0 or more\n%s"
                                 % (argv[i], usage))
                return 2
            if argv[i] == "--window":
                window_us = v
            else:
                sleep_us = v
            i += 2
        elif argv[i] == "--pairs":
            pairs = collections.Counter()
            i += 1
        elif argv[i].startswith("-"):
            sys.stderr.write("wake_first.py: unknown option %s\n%s" % (argv[i], usage))
            return 2
        else:
            files.append(argv[i])
            i += 1
    if not files:
        sys.stderr.write(usage)
        return 2
    pooled = collections.Counter()
    for path in files:
        try:
            c = count(path, window_us * 1000, sleep_us * 1000, pairs)
        except (OSError, EOFError, ValueError) as e:  # lzma.LZMAError is an OSError
            sys.stderr.write("wake_first.py: %s: %s\n" % (path, reason(path, e)))
            return 2
        line(path, c)
        pooled.update(c)
    if not sum(pooled.values()):
        sys.stderr.write("wake_first.py: no wake-up counted in %s\n" % " ".join(files))
        return 2
    if len(files) > 1:
        line("all %d" % len(files), pooled)
    if pairs is not None:
        n = collections.Counter()
        for (a, b, _), k in pairs.items():
            n[(a, b)] += k
        print("inside the window, by pair (all traces):")
        for (a, b), k in sorted(n.items(), key=lambda x: (-x[1], x[0])):
            f = pairs[(a, b, "first")]
            print("  %s -> %s: wakee first %d of %d (%d per 1000)"
                  % (a, b, f, k, (f * 1000 + k // 2) // k))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
