#!/usr/bin/env python3
"""Where an interrupt's wake-up goes on a 2-CPU machine, in real traces (issue 28, browser).

For each sched_waking run from an interrupt (the h or s flag, the idle task's context, or an
hrtimer_expire_entry/irq_handler_entry line just before it on that CPU, as schedlab's own
traces mark a sleep timer) on CPU X, of a task that last ran on X and that ran on both CPUs in
the trace (a task pinned to one CPU cannot move), counts where its sched_wakeup put it, by
whether X runs a task and whether the other CPU O is idle (its idle task runs and no woken task
is on its way there; one no later line names is not: its lines were lost,
ftrace_lines.last_named). Mainline sends the wakee from a busy X to an idle O
(select_idle_sibling); the class "X busy, O idle" gives vcpu_pack_irq_busy: of 1000 such
wake-ups, how many stayed on X.

The task running on a CPU is taken from every line of that CPU, not only from its switches: a
recording leaves out the switches of tasks outside the file (bash, the rt-app main thread), so
a CPU that went idle after one of them would read busy (docs/validate.md, "A fresh task's
protection"; issue 28, "Keeping the interrupt's wakee").

The class is split by how the wakee went to sleep on X: "alone" (no other task runnable on X
then: its lag was 0, so EEVDF dequeued it at once, and mainline moves every such wake-up to an
idle O) or "others" (tasks were queued beside it: it may have slept with a negative lag and
stayed queued, DELAY_DEQUEUE, and then its wake-up stays on X in mainline too, ttwu_runnable).
The model's rule (sl_vcpu_pack_irq) acts only on what the policy moved, never on a delayed
wakee, so its rate is the "alone" row's: the parameter printed is that row's. The alone row is
split again by the wakee's prio against the running task's (the waking line's prio, the
switch's next_prio): vcpu_pack_irq_same is the rate where the two are equal, and
vcpu_pack_irq_busy then the rate of the others.

The class "X busy, O idle" is split a third way, by what waits on X at the waking (a task
runnable there, not running, other than the wakee; one whose later lines were lost waits no
more): vcpu_pack_irq_alone is the rate where nothing waits (the running task alone), what the
measured kernel looks at (issue 28, step 19: 1246 of 1307 stayed on the calibration half, 125 of
343 with others waiting). Unlike the alone row it counts every such wake-up, a delayed wakee
too (it is not known from the trace; the model keeps a delayed one anyway). The class "X busy, O
busy" gives vcpu_pack_irq_move: of the wake-ups with others waiting on X and nothing on O (its
task alone there), how many went to O (166 of 269 on the calibration half; 1-6% otherwise),
where mainline, finding no idle CPU, keeps every one.

Usage: wake_irq.py TRACE...   (ftrace text, plain or .xz)
Prints the table over all traces, `param vcpu_pack_irq_busy=N` and, when both kinds occur,
`param vcpu_pack_irq_same=N vcpu_pack_irq_busy=M` (the alone row split by prio), then, when
the class has a wake-up with nothing waiting on X, `param vcpu_pack_irq_alone=N`, and when
"busy busy" has one with others waiting on X and none on O, `param vcpu_pack_irq_move=N`; exit
2 on a file that cannot be read or traces without a wake-up of that class that slept alone.
"""
import re
import sys

from ftrace_lines import IRQ_ENTRY, IRQ_FLAGS, WAKE, last_named, records, switch

NEXT_PRIO = re.compile(r"next_prio=(\d+)")


def analyse(path, timed=False):
    """(key, (slept beside others, same prio, others wait on X now, on O), stayed) of each interrupt
    wake-up of a task last on X, in one trace; with timed, the waking's time (ns) last
    (tools/sis_util.py --split)"""
    curr = {}  # cpu -> pid running (0: idle)
    last = {}  # pid -> cpu of its last switch-in
    seen = {}  # pid -> cpus it ran on
    coming = {0: set(), 1: set()}  # cpu -> pids woken onto it, not yet switched in
    queued = {0: set(), 1: set()}  # cpu -> pids runnable there, not running
    slept = {}  # pid -> whether others were runnable on its CPU when it last slept
    prio = {}  # pid -> its prio, from its last switch-in or waking
    pend = {}  # pid -> (X, key)
    mark = None  # (cpu, time) of the last interrupt entry line
    out = []
    seen_to = last_named(path)
    for tcomm, tpid, cpu, flags, ts, now, ev, rest in records(path, max_cpu=1):
        if ev != "sched_switch" and curr.get(cpu, tpid) != tpid:
            # a switch the recording left out: the line's task runs there
            curr[cpu] = tpid
            for q in queued.values():
                q.discard(tpid)
        if ev in IRQ_ENTRY:
            mark = (cpu, ts)
        elif ev == "sched_switch":
            s = switch(rest)
            if not s:
                continue
            prev, pstate, _, nxt = s
            np = NEXT_PRIO.search(rest)
            if np:
                prio[nxt] = int(np.group(1))
            q = queued[cpu]
            if prev and pstate.startswith("R"):
                q.add(prev)
            elif prev:
                q.discard(prev)
                slept[prev] = bool(q)  # the task switched in waited beside it too
            for qq in queued.values():
                qq.discard(nxt)
            curr[cpu] = nxt
            if nxt:
                last[nxt] = cpu
                seen.setdefault(nxt, set()).add(cpu)
                for c in coming.values():
                    c.discard(nxt)
        elif ev == "sched_waking":
            s = WAKE.search(rest)
            pid = int(s.group(2)) if s else 0
            irq = flags[2:3] in IRQ_FLAGS or mark == (cpu, ts) or tcomm.startswith("<idle>")
            if not s or not irq or last.get(pid) != cpu:
                continue
            x_busy = curr.get(cpu, 0) != 0
            o_idle = curr.get(1 - cpu, 0) == 0 and not any(
                seen_to.get(q, 0) > now for q in coming[1 - cpu])
            same = prio.get(curr.get(cpu, 0)) == int(s.group(3))
            # a task waits on X now (one whose later lines were lost waits no more)
            waits = any(seen_to.get(q, 0) > now for q in queued[cpu] if q != pid)
            o_waits = any(seen_to.get(q, 0) > now for q in queued[1 - cpu] if q != pid)
            pend[pid] = (cpu, (x_busy, o_idle), (slept.get(pid, True), same, waits, o_waits),
                         now)
        elif ev == "sched_wakeup":
            s = WAKE.search(rest)
            if not s:
                continue
            pid, tgt = int(s.group(2)), int(s.group(4))
            coming[tgt].add(pid)
            if curr.get(tgt) != pid:
                for qq in queued.values():
                    qq.discard(pid)
                queued[tgt].add(pid)
            if pid in pend:
                x, key, o, t = pend.pop(pid)
                out.append((pid, key, o, tgt == x, t))
    return [(k, o, st) + ((t,) if timed else ()) for pid, k, o, st, t in out
            if len(seen.get(pid, ())) == 2]


def main(argv):
    paths = [a for a in argv if not a.startswith("--")]
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    rows = []
    for p in paths:
        try:
            rows += analyse(p)
        except (OSError, ValueError) as e:
            msg = str(e)  # opener's own errors name the file already
            print(f"wake_irq.py: {msg if msg.startswith(p) else p + ': ' + msg}", file=sys.stderr)
            return 2
    print("interrupt wake-ups of a task last on the interrupt's CPU X (O: the other CPU)")
    print(f"{'X':6} {'O':6} {'wake-ups':>9} {'stayed':>7} {'slept alone':>12} {'stayed':>7}")
    for xb in (False, True):
        for oi in (False, True):
            sub = [(o, st) for k, o, st in rows if k == (xb, oi)]
            al = [st for o, st in sub if not o[0]]
            print(f"{'busy' if xb else 'idle':6} {'idle' if oi else 'busy':6} {len(sub):9d} "
                  f"{sum(st for o, st in sub):7d} {len(al):12d} {sum(al):7d}")
    cls = [st for k, o, st in rows if k == (True, True)]
    alone = [(o[1], st) for k, o, st in rows if k == (True, True) and not o[0]]
    if not alone:
        print("wake_irq.py: no interrupt wake-up on a busy CPU with the other idle, of a task "
              "that slept alone, in " + " ".join(paths), file=sys.stderr)
        return 2
    print(f"# {sum(cls)} of {len(cls)} stayed on their busy CPU with the other idle")
    n, k = len(alone), sum(st for _, st in alone)
    print(f"# of those that slept alone there (never delayed): {k} of {n}")
    print(f"param vcpu_pack_irq_busy={round(1000 * k / n)}")
    same = [st for sm, st in alone if sm]
    other = [st for sm, st in alone if not sm]
    if same and other:
        print(f"# the wakee's prio the running task's: {sum(same)} of {len(same)}; "
              f"other prios: {sum(other)} of {len(other)}")
        print(f"param vcpu_pack_irq_same={round(1000 * sum(same) / len(same))} "
              f"vcpu_pack_irq_busy={round(1000 * sum(other) / len(other))}")
    # busy X, idle O: nothing else waiting on X, or others waiting there
    lone = [st for k, o, st in rows if k == (True, True) and not o[2]]
    waited = [st for k, o, st in rows if k == (True, True) and o[2]]
    if lone:
        print(f"# by what waits on the busy CPU at the waking: nothing {sum(lone)} of {len(lone)} "
              f"stayed; others {sum(waited)} of {len(waited)}")
        print(f"param vcpu_pack_irq_alone={round(1000 * sum(lone) / len(lone))}")
    # both busy: others wait on X, the other CPU's task alone there
    mv = [not st for k, o, st in rows if k == (True, False) and o[2] and not o[3]]
    rest = [not st for k, o, st in rows if k == (True, False) and not (o[2] and not o[3])]
    if mv:
        print(f"# both CPUs busy, others waiting on X and nothing on O: {sum(mv)} of {len(mv)} "
              f"moved to O; the rest of the class {sum(rest)} of {len(rest)}")
        print(f"param vcpu_pack_irq_move={round(1000 * sum(mv) / len(mv))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
