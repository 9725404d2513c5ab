#!/usr/bin/env python3
"""rt-app's sync hand-off between two threads, episode by episode, in ftrace text traces.

Issue 28, step 15 (docs/validate.md, "rt-app's sync and its hand-off"): in browser-long,
BrowserDisplay does `lock mutex11; sync queue11 (pthread_cond_signal, then pthread_cond_wait
with mutex11); unlock` and Binder-dummy does `lock; wait queue11; unlock; run 200; lock;
signal queue11; unlock; run 100`. Whether the syncer sleeps in its wait depends on what its
signal's wake-up of the partner does:

  w1      the signal's wake-up of the partner: placed on the syncer's CPU (own) or the other;
          on its own CPU the partner runs first (the syncer's next switch is a preemption to
          it: it then finds the mutex held and sleeps on it) or the syncer goes on
  w2      after such a bounce, the wait's release of the mutex wakes the partner again: it
          runs first (the syncer, preempted before its futex wait, finds the partner's signal
          taken when it runs again: it does not sleep) or the syncer sleeps first
  slept   the partner woke the syncer in the episode (its signal, or the mutex after it)

Wake-ups are read from sched_waking (written in the waker's context; a remote wake-up's
sched_wakeup comes from the target CPU's idle task) and placed by the sched_wakeup that
follows (its target_cpu; sched_waking's is the task's previous CPU). An episode opens at a
wake-up of the partner by the syncer once the partner has run --gap us
(100) of CPU since the last one opened (its bounce on the mutex runs a few us). Printed per
trace and pooled: episodes, the syncer slept, w1 on the other CPU, w1 on its own CPU with the
partner first, w2 with the partner first, the partner's moves between the two CPUs (its last
CPU before w1: the syncer's, then placed on the other; the other, then placed on the
syncer's), and w1's partner-first share by the syncer's run since its switch-in (inside or
after 1.4 ms, wake_preempt_window: the model's rates decide inside, its policy after).

Usage: sync_episodes.py [--syncer COMM] [--partner COMM] [--gap US] TRACE...
  (defaults BrowserDisplay, Binder-dummy, 100)
Exit 2 on a file that cannot be read, on a bad option, or when no episode is found.
"""
import collections
import sys

from ftrace_lines import WAKE, reason, records, switch

WINDOW_NS = 1400000  # wake_preempt_window: 6.18's base slice on 2 CPUs


def outcome(state, nxt, partner):
    """what the syncer's next switch after a wake-up says: the partner first, another task
    first, or the syncer went to sleep (or exited)"""
    if state.startswith("R"):
        return "first" if nxt == partner else "other"
    return "slept"


def episodes(path, syncer, partner, gap_ns):
    """the episodes of one trace, each a dict (see the docstring)"""
    eps = []
    ep = None
    comm = {}  # pid: latest comm
    curr = {}  # cpu: running pid
    in_at = {}  # cpu: its current task's switch-in
    last_cpu = {}  # pid: the CPU it last left
    ran_since = 0  # the partner's CPU time since the current episode opened
    run_from = None  # the partner's switch-in, while it runs
    pend = None  # (episode, wake-up index, partner's pid) waiting for the syncer's next switch
    placing = None  # (episode, wake-up index, the waker's CPU) waiting for the sched_wakeup
    for _, pid, cpu, _, _, t, event, rest in records(path):
        if event == "sched_switch":
            s = switch(rest)
            if not s:
                continue
            prev, state, ncomm, nxt = s
            comm[nxt] = ncomm
            if comm.get(prev) == partner and run_from is not None:
                ran_since += t - run_from
                run_from = None
            if comm.get(nxt) == partner:
                run_from = t
            if pend and comm.get(prev) == syncer:
                pend[0]["w%d" % pend[1]] = outcome(state, nxt, pend[2])
                pend = None
            last_cpu[prev] = cpu
            curr[cpu], in_at[cpu] = nxt, t
        elif event == "sched_waking":
            w = WAKE.search(rest)
            if not w:
                continue
            waker = comm.get(pid) if curr.get(cpu) == pid else None
            wakee = int(w.group(2))
            if waker == syncer and w.group(1) == partner:
                if ep is None or ran_since >= gap_ns:
                    ep = {"n": 0, "woke": 0, "prev_own": last_cpu.get(wakee) == cpu,
                          "ran": t - in_at.get(cpu, t)}
                    eps.append(ep)
                    ran_since = 0
                ep["n"] += 1
                pend = (ep, ep["n"], wakee) if ep["n"] <= 2 else None
                placing = (ep, ep["n"], cpu)
            elif waker == partner and w.group(1) == syncer and ep is not None:
                ep["woke"] += 1
        elif event == "sched_wakeup" and placing:
            w = WAKE.search(rest)
            if w and w.group(1) == partner:
                placing[0]["own%d" % placing[1]] = int(w.group(4)) == placing[2]
                placing = None
    return eps


def tally(eps):
    """the counts of a list of episodes"""
    c = collections.Counter()
    for e in eps:
        c["episodes"] += 1
        c["slept"] += e["woke"] > 0
        c["prev_own"] += e["prev_own"]
        if not e.get("own1", True):
            c["w1_other"] += 1
            c["moved_off"] += e["prev_own"]
            continue
        c["moved_on"] += not e["prev_own"]
        late = "after" if e["ran"] >= WINDOW_NS else "inside"
        c["w1_own"] += 1
        c["w1_own_" + late] += 1
        if e.get("w1") != "first":
            continue
        c["w1_first"] += 1
        c["w1_first_" + late] += 1
        if e["n"] >= 2 and e.get("own2", True):
            c["w2"] += 1
            c["w2_first"] += e.get("w2") == "first"
    return c


def per1000(a, b):
    return "%d/%d (%d)" % (a, b, (a * 1000 + b // 2) // b) if b else "0/0 (-)"


def report(label, c):
    print("%s: %d episodes; slept %s; w1 on the other CPU %s; w1 own, partner first %s "
          "(syncer ran inside 1.4 ms %s, after %s); w2 partner first %s; moves: off the "
          "syncer's CPU %s, onto it %s" % (
              label, c["episodes"], per1000(c["slept"], c["episodes"]),
              per1000(c["w1_other"], c["episodes"]), per1000(c["w1_first"], c["w1_own"]),
              per1000(c["w1_first_inside"], c["w1_own_inside"]),
              per1000(c["w1_first_after"], c["w1_own_after"]), per1000(c["w2_first"], c["w2"]),
              per1000(c["moved_off"], c["prev_own"]),
              per1000(c["moved_on"], c["episodes"] - c["prev_own"])))


def main(argv):
    syncer, partner, gap_us = "BrowserDisplay", "Binder-dummy", 100
    files = []
    i = 0
    try:
        while i < len(argv):
            if argv[i] in ("--syncer", "--partner", "--gap"):
                if i + 1 >= len(argv):
                    raise ValueError("%s needs a value" % argv[i])
                v = argv[i + 1]
                if argv[i] == "--syncer":
                    syncer = v
                elif argv[i] == "--partner":
                    partner = v
                else:
                    gap_us = int(v)
                    if gap_us < 0:
                        raise ValueError("--gap: a number of us, 0 or more")
                i += 2
            elif argv[i].startswith("-"):
                raise ValueError("unknown option %s" % argv[i])
            else:
                files.append(argv[i])
                i += 1
    except ValueError as e:
        sys.stderr.write("sync_episodes.py: %s\nusage: sync_episodes.py [--syncer COMM] "
                         "[--partner COMM] [--gap US] TRACE...\n" % e)
        return 2
    if not files:
        sys.stderr.write("usage: sync_episodes.py [--syncer COMM] [--partner COMM] [--gap US] "
                         "TRACE...\n")
        return 2
    pooled = collections.Counter()
    for path in files:
        try:
            c = tally(episodes(path, syncer, partner, gap_us * 1000))
        except (OSError, EOFError, ValueError) as e:  # lzma.LZMAError is an OSError
            sys.stderr.write("sync_episodes.py: %s: %s\n" % (path, reason(path, e)))
            return 2
        report(path, c)
        pooled.update(c)
    if not pooled["episodes"]:
        sys.stderr.write("sync_episodes.py: no wake-up of %s by %s in %s\n"
                         % (partner, syncer, " ".join(files)))
        return 2
    if len(files) > 1:
        report("all %d" % len(files), pooled)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
