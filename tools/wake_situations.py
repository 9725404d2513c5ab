#!/usr/bin/env python3
"""Every wake-up on a 2-CPU machine by the situation the kernel saw, real against model.

Issue 28 (docs/validate.md, "The wake-up situations, real against model"): where the model
places a wake-up differently from the recordings, the placement rule at fault is the one whose
situation it is. This reads ftrace text traces (plain or .xz; real ones, and the model's own,
`schedlab validate --sim-out`) and classifies each sched_waking of a task that is asleep (not
running, not queued) by what the kernel could see at that moment, with A the CPU the waking
runs on and B the other:

  ctx    task: a task running on A wakes it; irq: an interrupt on A does (the h or s flag, the
         idle task's context, or an hrtimer_expire_entry/irq_handler_entry line just before it
         on A at the same time, as schedlab's traces mark a sleep timer)
  last   A or B: the CPU the wakee last ran on (its last switch-in; the kernel's waking line
         gives task_cpu(), schedlab's the chosen CPU, so the switches are read instead)
  A      for a task: alone (nothing else runnable on A) or queued (others wait there); for an
         interrupt: idle (A's idle task runs, nothing queued) or busy
  B      idle (its idle task runs, nothing queued or on its way there) or busy

and its outcome, the CPU of its sched_wakeup: A or B. A wakee is counted when it ran on both
CPUs in its trace (a task pinned to one cannot move), or, with -t, when its name is listed.

Usage: wake_situations.py [-t NAME,...] [--by wakee|pair] [--budget=pos|zero] [--newidle]
                         [--json] REAL...
                         [--model MODEL...]
  REAL...      the recordings' traces (counted per trace: a file's mean over its recordings)
  --model ...  the model's traces of the same file(s) (seeds): then each situation's count per
               trace and share onto A, real beside model, the difference in points and the
               model's wake-ups per trace placed otherwise than the real share says
               ("moved": (model share - real share) x model count; + more onto A), sorted by
               the size of "moved"
  --by wakee   each situation split by the wakee's name; --by pair: by waker -> wakee
  --json       one JSON object instead of the table
  --budget=pos|zero  only the wake-ups (of REAL and MODEL) whose LLC scan budget of SIS_UTIL,
               as the last balance set it (tools/sis_util.py's "bal"), was > 0 (pos) or 0
               (zero); those before the trace's first balance left out (issue 28, step 30:
               the rates of vcpu_pack_sis_gate, which lets the both-busy rules act only where
               the budget is > 0; not --newidle). Each trace is read a second time for it
  --no-foreign[=US]  the recordings' wake-ups (REAL) while a foreign task (not one of the
               file's threads, as tools/foreign_runs.py finds them, the workload's JSON beside
               each trace) held either CPU or had run on one at most US us before (default
               1000) left out (not --newidle)
Then, real beside model, the wake-ups by a task placed on the other CPU, B, which ran a task
at the waking that the wakee's own switch-in there preempted (the switch-out is R): the time
from sched_waking to that switch (us), and `param ipi_busy=N` (the real median, ns). And the
wake-ups by a task of a task last on the waker's CPU A while B runs a task, by the tasks
waiting on A (runnable, not running): one of a prio as high as the wakee's or higher ("as
high"), only lower ones, none; how many went to B; `param vcpu_pack_wait=N`, of 1000 "as high"
ones, how many moved, `param vcpu_pack_wait_lower=N`, of 1000 "lower" ones, and
`param vcpu_pack_wait_none=N`, of 1000 with none waiting (the waker alone on A). And
`param vcpu_pack_queued=N`: of 1000 wake-ups by a task of a task last on its CPU A, others
waiting on A and B idle (nothing running or waiting there: the rule's own condition), how many
stayed on A. Two more counts (issue 28 step 22, no machine parameter reads them): vcpu_pack_wait's
classes again where nothing waits on B ("(B alone)": B's task runs alone there), and the join
case: a wake-up by a task alone on A of a task last on B while B runs a task with others waiting
there, how many went onto A (mainline, finding no idle CPU, leaves it on B); and vcpu_pack_queued's
wake-ups by the tasks waiting on A (as high as the wakee or only lower ones), how many stayed.
Step 27's lines: `param vcpu_pack_wait_alone=N` and `vcpu_pack_wait_lower_alone=N`, the "as
high" and "lower" rates where B's task runs alone, `_crowded` the same where others wait on B
too; `param vcpu_pack_join=N`, the join case's per mille onto A; and the stay case, a wake-up by
a task alone on A of a task last on B whose task runs alone there: how many stayed on B,
`param vcpu_pack_stay=N` per 1000. And vcpu_pack_irq's case: an interrupt on A, whose idle task
runs while a woken task is on its way there, wakes a task last on A, B idle: how many stayed on
A, `param vcpu_pack_irq=N` per 1000. And vcpu_pack_wait_hot's (step 28): the none class with B's
task alone there and B's busy time (decayed as util_avg, 32 x 1024 us half-life, from B's first
switch in the trace) at HOT_UTIL (768 of 1024) or more: how many moved to B,
`param vcpu_pack_wait_hot=N` per 1000. And vcpu_pack_stay_queued's (step 29): a wake-up by a task
with others waiting on A, of a task last on B while B runs a task: how many stayed on B,
`param vcpu_pack_stay_queued=N` per 1000.
With --newidle, instead: the moments a CPU goes idle (its task blocks, nothing waits on it)
while the other CPU has at least one task waiting (runnable, not running), by the CPU's avg_idle
estimate then (the kernel's: at each wake-up onto it while idle, avg += (idle so far - avg) / 8,
capped at 1 ms, 1 ms at the start), real beside model: how many per trace, and how often the
CPU pulled a waiting task (a sched_migrate_task of a task waiting on the other CPU, not of a
waking one, to it, within 50 us of the moment, the pulled task switched in there next); then the
same by the waiting tasks: hot (all ran less than 0.5 ms before, task_hot's cut-off) or cold,
woken or preempted (how they came to wait) or both. A task no later line names does not wait.
Exit 2 on a file that cannot be read, a trace that is not of 2 CPUs, or no wake-up counted.
"""
import collections
import json
import re
import statistics
import sys

from foreign_runs import no_foreign
from ftrace_lines import WAKE, last_named, records, sched_lines, switch, task_waking
import sis_util
from wake_preempt_pairs import util_at

PRIOS = re.compile(r"prev_prio=(\d+) .*next_prio=(\d+)")

SITUATIONS = [(c, lst, a, b) for c, aa in (("task", ("alone", "queued")),
                                           ("irq", ("idle", "busy")))
              for lst in ("A", "B") for a in aa for b in ("idle", "busy")]
# analyse's last value: the extra counts
EXTRAS = ("join", "alone", "queued", "stay", "irqpend", "hot", "stayq")
HOT_UTIL = 768  # per 1024: vcpu_pack_hot_util's default, B's busy time in the "hot" count


def analyse(path, names, timed=False, skip=None):
    """The rows (situation, waker, wakee, onto A) of one trace, the latencies (us) of the
    wake-ups by a task onto the other CPU that preempted the task running there, and the
    (class of the tasks waiting on A, moved) of vcpu_pack_wait's case; with timed, the latter
    with the waking's time (ns) last (tools/sis_util.py --split), and {kind: [(class or None,
    onto A)]} of the EXTRAS cases; with skip, a function of the waking's time, the wake-ups it
    says yes to are not counted (--no-foreign)"""
    curr = {}  # cpu -> pid running (0: idle)
    last = {}  # pid -> cpu of its last switch-in
    seen = {}  # pid -> cpus it ran on
    queued = {}  # pid -> cpu: runnable, not running (woken, or preempted)
    comm = {}
    pend = {}  # pid -> (A, situation, waker) from its waking to its sched_wakeup
    mark = {}  # cpu -> timestamp of its last interrupt entry line
    out = []
    waiting = {}  # pid -> (waking time, B, B's task then): placed on B, which ran a task
    remote = []
    prio = {}  # pid -> its last traced prio
    waits = []  # (pid, class of the tasks waiting on A, moved to B) of vcpu_pack_wait's case
    # the extra counts, kind -> [(pid, class, onto A)]: "alone" (vcpu_pack_wait's case with
    # B's task alone), "queued" (vcpu_pack_queued's, by class), and the cases of join, stay,
    # irqpend (vcpu_pack_irq), hot (vcpu_pack_wait_hot, within "alone") and stayq
    # (vcpu_pack_stay_queued)
    extras = {k: [] for k in EXTRAS}
    busy = {0: [0.0, None, False], 1: [0.0, None, False]}  # cpu -> its busy time, util_at's state
    seen_to = last_named(path)
    trace = sched_lines(records(path, max_cpu=1), mark)
    for (tcomm, tpid, cpu, flags, ts, now, ev, rest), s in trace:
        if ev == "sched_switch":
            prev, pstate, ncomm, nxt = s
            pp = PRIOS.search(rest)
            if pp:
                prio[prev], prio[nxt] = int(pp.group(1)), int(pp.group(2))
            w = waiting.pop(nxt, None)
            if w and w[1] == cpu and w[2] == prev and pstate.startswith("R"):
                remote.append((nxt, (now - w[0]) / 1000.0))
            if prev and pstate.startswith("R"):
                queued[prev] = cpu
            queued.pop(nxt, None)
            pend.pop(nxt, None)  # a waking whose wakeup line was lost: not counted
            curr[cpu] = nxt
            if busy[cpu][1] is not None:
                busy[cpu][0] = util_at(busy[cpu], now)
            busy[cpu][1:] = [now, nxt != 0]
            if nxt:
                comm[nxt] = ncomm
                last[nxt] = cpu
                seen.setdefault(nxt, set()).add(cpu)
        elif ev == "sched_migrate_task":
            s = migrate(rest)
            if s and s[0] in queued:
                queued[s[0]] = s[1]
        elif ev == "sched_waking":
            s = WAKE.search(rest)
            if not s:
                continue
            pid = int(s.group(2))
            comm[pid] = s.group(1)
            prio[pid] = int(s.group(3))
            a, b = cpu, 1 - cpu
            if (pid in pend or pid in queued or pid in curr.values() or pid not in last or
                    a not in curr or b not in curr):
                continue
            irq = not task_waking(flags, ts, tpid, cpu, mark, curr)
            live = {q: c for q, c in queued.items() if seen_to.get(q, 0) > now}
            on_a = sum(1 for c in live.values() if c == a)
            on_b = any(c == b for c in live.values())
            b_idle = curr.get(b, 0) == 0 and not on_b
            if irq:
                sa = "idle" if curr.get(a, 0) == 0 and not on_a else "busy"
            else:
                sa = "alone" if not on_a else "queued"
            sit = ("irq" if irq else "task", "A" if last[pid] == a else "B", sa,
                   "idle" if b_idle else "busy")
            # what waits on A, by the best prio there against the wakee's
            wq = [prio.get(q, 120) for q, c in live.items() if c == a]
            on_a_cls = "none" if not wq else "as high" if min(wq) <= prio[pid] else "lower"
            wcls = on_a_cls if sit[0] == "task" and sit[1] == "A" and curr.get(b, 0) else None
            # the extra counts' cases, one at most (their situations exclude each other)
            extra = None
            if sit[:3] == ("task", "B", "alone") and curr.get(b, 0) and on_b:
                extra = ("join", None)  # the waker alone on A, others waiting behind B's task
            elif sit[:3] == ("task", "B", "alone") and curr.get(b, 0):
                extra = ("stay", None)  # the waker alone on A, B's task alone there
            elif sit[:3] == ("task", "B", "queued") and curr.get(b, 0):
                extra = ("stayq", None)  # others wait behind the waker on A, B runs a task
            elif wcls and not on_b:
                extra = ("alone", wcls)
            elif sit == ("irq", "A", "busy", "idle") and not curr.get(a, 0):
                extra = ("irqpend", None)  # A idle, a woken task on its way there
            elif sit == ("task", "A", "queued", "idle"):
                extra = ("queued", on_a_cls)
            # "hot": vcpu_pack_wait_hot's case, the none class with B alone and B's busy time
            # (decayed as util_avg) at HOT_UTIL or more
            hot = (extra == ("alone", "none") and busy[b][1] is not None and
                   util_at(busy[b], now) >= HOT_UTIL)
            pend[pid] = (a, sit, "(irq)" if irq else tcomm.strip(), now, curr.get(b, 0),
                         wcls, extra, hot)
        elif ev in ("sched_wakeup", "sched_wakeup_new"):
            s = WAKE.search(rest)
            if not s:
                continue
            pid, tgt = int(s.group(2)), int(s.group(4))
            if pid not in curr.values():
                queued[pid] = tgt
            w = pend.pop(pid, None)
            if w and skip is not None and skip(w[3]):
                w = None
            if w:
                out.append((pid, w[1], w[2], tgt == w[0]))
                if w[1][0] == "task" and tgt != w[0] and w[4]:
                    waiting[pid] = (w[3], tgt, w[4])
                if w[5]:
                    waits.append((pid, w[5], tgt != w[0], w[3]))
                if w[6]:
                    extras[w[6][0]].append((pid, w[6][1], tgt == w[0]))
                if w[7]:
                    extras["hot"].append((pid, None, tgt == w[0]))
    rows = []
    for pid, sit, waker, on_a in out:
        if counted(pid, comm, seen, names):
            rows.append((sit, waker, comm[pid], on_a))
    return (rows, [lat for pid, lat in remote if counted(pid, comm, seen, names)],
            [(c, mv) + ((t,) if timed else ()) for pid, c, mv, t in waits
             if counted(pid, comm, seen, names)],
            {k: [(c, on_a) for pid, c, on_a in v if counted(pid, comm, seen, names)]
             for k, v in extras.items()})


PULL_WINDOW = 50000  # ns: a pull this close to the moment a CPU goes idle is its newidle pull
AVG_IDLE_MAX = 1000000  # ns: 2 * max_idle_balance_cost (sysctl_sched_migration_cost 0.5 ms)
IDLE_BINS = (50, 200, 400, 600, 800, 900, 1000)  # us: upper ends of the avg_idle classes
MIGRATION_COST = 500000  # ns: sysctl_sched_migration_cost, task_hot()'s cut-off
WINDOW = 32000000  # ns: PELT's half-life, the busy CPU's recent past in newidle()'s detail
WAITERS = [f"{h} {k}" for h in ("hot", "cold") for k in ("woken", "preempted", "both")]


class Level:
    """a step function of time (a CPU's busy flag, its runnable tasks) and its mean over the
    WINDOW ns before a moment (time before the trace's first line counts as 0)"""

    def __init__(self):
        self.pts = collections.deque()  # (time, value) where the value changed, oldest first

    def set(self, t, v):
        if self.pts and self.pts[-1][1] == v:
            return
        self.pts.append((t, v))
        while len(self.pts) > 1 and self.pts[1][0] <= t - WINDOW:
            self.pts.popleft()

    def mean(self, t):
        lo, acc, pts = t - WINDOW, 0, list(self.pts)
        for i, (pt, v) in enumerate(pts):
            b = pts[i + 1][0] if i + 1 < len(pts) else t
            acc += max(0, b - max(pt, lo)) * v
        return acc / WINDOW


def moment_detail(t, ws, other, st):
    """--newidle's detail of a moment: the other CPU's busy share and mean runnable tasks over
    the last WINDOW, the number of waiters, and the coldest waiter's (the first a balance from
    the tail of cfs_tasks would try) name, time since it last ran, its last run, its last sleep
    (None when it was preempted), how it waits, and whether it waits on another CPU than the
    one it last ran on (moved: 6.18 enqueues a migrated task with exec_start 0, never hot)"""
    q = max(ws, key=lambda q: (t - st["ran"].get(q, 0), q))
    return dict(time=t, busy=st["busy"][other].mean(t), runnable=st["nrun"][other].mean(t),
                waiters=len(ws), comm=st["comm"].get(q, "?"), since=t - st["ran"].get(q, 0),
                run=st["run"].get(q), sleep=st["sleep"].get(q) if st["how"].get(q) == "woken"
                else None, how=st["how"].get(q, "woken"), moved=q in st["moved"])


def newidle(path, detail=False):
    """(avg_idle in ns, pulled, the waiters' class) of each moment a CPU of the trace went idle
    while the other had a task waiting; a task the trace never shows again does not wait (its
    lines were lost: a recording has a task preempted once and never switched in again). With
    detail, each also has moment_detail's dict and the pulled task's name (None: no pull)."""
    seen_to = last_named(path)
    curr, queued, pend = {}, {}, set()
    st = dict(busy={0: Level(), 1: Level()}, nrun={0: Level(), 1: Level()}, comm={}, ran={},
              run={}, sleep={}, how={}, start={}, moved=set(), last_cpu={})
    last_t = 0
    avg = {0: AVG_IDLE_MAX, 1: AVG_IDLE_MAX}
    idle_at = {}  # cpu -> when it went idle (its switch to the idle task)
    pulled = {}  # pid -> (time, cpu): moved from the other CPU while waiting, not woken
    watch = {}  # cpu -> (time, avg_idle): went idle with a task waiting on the other
    ran, how = st["ran"], st["how"]  # pid -> its last switch-out; pid -> woken or preempted
    out = []
    for _, _, cpu, _, _, t, ev, rest in records(path, max_cpu=1):
        if detail and ev in ("sched_switch", "sched_migrate_task", "sched_wakeup",
                             "sched_wakeup_new"):
            nrun_after(last_t, curr, queued, seen_to, st)
            last_t = t
        if ev == "sched_switch":
            s = switch(rest)
            if not s:
                continue
            prev, pstate, ncomm, nxt = s
            if prev and pstate.startswith("R"):
                queued[prev] = cpu
                how[prev] = "preempted"
            fresh = {q for q, (pt, pc) in pulled.items()
                     if pc == cpu and t - pt <= PULL_WINDOW and queued.get(q) == cpu}
            queued.pop(nxt, None)
            pend.discard(nxt)
            live = [c for q, c in queued.items() if q not in fresh and seen_to[q] > t]
            if prev and not pstate.startswith("R") and cpu in curr and 1 - cpu in curr and \
                    cpu not in live and (fresh or 1 - cpu in live):
                ws = list(fresh) + [q for q, c in queued.items()
                                    if c == 1 - cpu and q not in fresh and seen_to[q] > t]
                kinds = {how.get(q, "woken") for q in ws}
                cls = ("cold " if max(t - ran.get(q, 0) for q in ws) >= MIGRATION_COST else
                       "hot ") + (kinds.pop() if len(kinds) == 1 else "both")
                d = moment_detail(t, ws, 1 - cpu, st) if detail else None
                if nxt in fresh:
                    out.append((avg[cpu], True, cls) + ((d, ncomm) if detail else ()))
                elif not nxt:
                    watch[cpu] = (t, avg[cpu], cls, d)
            elif not prev and cpu in watch:
                t0, a, cls, d = watch.pop(cpu)
                p = pulled.get(nxt)
                pl = bool(nxt and p and p[1] == cpu and p[0] - t0 <= PULL_WINDOW)
                out.append((a, pl, cls) + ((d, ncomm if pl else None) if detail else ()))
            if not prev:
                idle_at.pop(cpu, None)
            if not nxt:
                idle_at[cpu] = t
            pulled.pop(nxt, None)
            curr[cpu] = nxt
            ran[prev] = t
            if detail:
                st["comm"][nxt] = ncomm
                st["last_cpu"][prev] = cpu
                st["moved"].discard(nxt)
                if prev in st["start"]:
                    st["run"][prev] = t - st["start"].pop(prev)
                st["start"][nxt] = t
                st["busy"][cpu].set(t, int(nxt != 0))
        elif ev == "sched_migrate_task":
            s = migrate(rest)
            if s and s[0] in queued and s[0] not in pend:
                if queued[s[0]] != s[1]:
                    pulled[s[0]] = (t, s[1])
                    if detail:
                        st["moved"].add(s[0])
                queued[s[0]] = s[1]
        elif ev == "sched_waking":
            s = WAKE.search(rest)
            if s:
                pend.add(int(s.group(2)))
        elif ev in ("sched_wakeup", "sched_wakeup_new"):
            s = WAKE.search(rest)
            if not s:
                continue
            pid, tgt = int(s.group(2)), int(s.group(4))
            pend.discard(pid)
            if pid not in curr.values():
                queued[pid] = tgt
                how[pid] = "woken"
                if detail and pid in ran:
                    st["sleep"][pid] = t - ran[pid]
                if detail and st["last_cpu"].get(pid, tgt) != tgt:
                    st["moved"].add(pid)
            if curr.get(tgt) == 0 and tgt in idle_at:
                a = avg[tgt] + (t - idle_at.pop(tgt) - avg[tgt]) // 8
                avg[tgt] = min(a, AVG_IDLE_MAX)
    return out


def nrun_after(t, curr, queued, seen_to, st):
    """each CPU's runnable tasks (its running one and the live ones waiting) from time t, the
    time of the last line that could change them"""
    for c in (0, 1):
        n = int(bool(curr.get(c))) + sum(1 for q, qc in queued.items()
                                         if qc == c and seen_to[q] > t)
        st["nrun"][c].set(t, n)


def newidle_table(real, model, as_json):
    """--newidle's report: the moments and their pulls by avg_idle class, real beside model"""
    sides = [("real", real)] + ([("model", model)] if model else [])
    counts, wcounts = {}, {}
    for side, paths in sides:
        c = [[0, 0] for _ in IDLE_BINS]
        wc = [[0, 0] for _ in WAITERS]
        for p in paths:
            for a, pl, cls in newidle(p):
                i = next(i for i, hi in enumerate(IDLE_BINS) if a < hi * 1000 or hi == 1000)
                c[i][0] += 1
                c[i][1] += int(pl)
                wc[WAITERS.index(cls)][0] += 1
                wc[WAITERS.index(cls)][1] += int(pl)
        counts[side], wcounts[side] = c, wc
    if not sum(n for n, _ in counts["real"]):
        raise ValueError("no CPU went idle with a task waiting on the other in " + " ".join(real))
    rows = []
    lo = 0
    for i, hi in enumerate(IDLE_BINS):
        r = dict(avg_idle_us=[lo, hi])
        for side, paths in sides:
            n, pl = counts[side][i]
            r[side + "_n"] = n / len(paths)
            r[side + "_pulled"] = pl / n if n else None
        rows.append(r)
        lo = hi
    wrows = []
    for i, cls in enumerate(WAITERS):
        r = dict(waiters=cls)
        for side, paths in sides:
            n, pl = wcounts[side][i]
            r[side + "_n"] = n / len(paths)
            r[side + "_pulled"] = pl / n if n else None
        wrows.append(r)
    if as_json:
        print(json.dumps(dict(real_traces=len(real), model_traces=len(model), avg_idle=rows,
                              waiters=wrows), indent=1))
        return
    print(f"a CPU going idle with a task waiting on the other, by its avg_idle (us), per trace: "
          f"{len(real)} real" + (f", {len(model)} model" if model else ""))
    print(f"{'avg_idle':>10} {'real/trace':>10} {'pulled%':>7}" +
          (f" {'model/trace':>11} {'pulled%':>7}" if model else ""))
    for r in rows:
        lo, hi = r["avg_idle_us"]
        print(f"{f'{lo}-{hi}':>10}" + pulled_cells(r, sides))
    print("the same by the tasks waiting on the other CPU: cold when one of them last ran 0.5 ms "
          "(task_hot's cut-off) ago or more; woken or preempted: how they wait")
    print(f"{'waiters':>15} {'real/trace':>10} {'pulled%':>7}" +
          (f" {'model/trace':>11} {'pulled%':>7}" if model else ""))
    for r, cls in zip(wrows, WAITERS):
        print(f"{cls:>15}" + pulled_cells(r, sides))


def pulled_cells(r, sides):
    """a row's moments per trace and share pulled, real then model"""
    s = ""
    for side, _ in sides:
        v = r[side + "_pulled"]
        w = 11 if side == "model" else 10
        s += f" {r[side + '_n']:{w}.1f} {'   -' if v is None else f'{100.0 * v:4.0f}':>7}"
    return s


def counted(pid, comm, seen, names):
    """a wakee listed with -t, or without -t one seen on both CPUs"""
    return comm.get(pid, "?") in names if names else len(seen.get(pid, ())) == 2


def migrate(rest):
    """(pid, dest_cpu) of a sched_migrate_task line, or None"""
    f = dict(kv.split("=", 1) for kv in rest.split() if "=" in kv)
    try:
        return int(f["pid"]), int(f["dest_cpu"])
    except (KeyError, ValueError):
        return None


def budget_skip(path, keep):
    """--budget: a function of a waking's time, true for the wake-ups to leave out: those whose
    last balance's SIS_UTIL budget (sis_util.py) is 0 (keep "pos") or > 0 (keep "zero"), and
    those before the first balance"""
    tr = sis_util.load([path])[0]

    def skip(t):
        b = tr.at(t, "bal")
        return b is None or (b[1] > 0) != (keep == "pos")
    return skip


def tally(paths, names, by, near=None, budget=None):
    """{key: [wake-ups, onto A]} over the traces, how many traces, the remote latencies; near
    (a function of the path) gives each trace's wake-ups to leave out (--no-foreign), budget
    ("pos" or "zero") those of the other SIS_UTIL budget (--budget)"""
    cells, lats, waits, extras = {}, [], [], {k: [] for k in EXTRAS}
    for p in paths:
        skips = ([near(p)] if near else []) + ([budget_skip(p, budget)] if budget else [])
        skip = (lambda t, sk=skips: any(f(t) for f in sk)) if skips else None
        rows, lat, wt, ex = analyse(p, names, skip=skip)
        lats += lat
        waits += wt
        for k in EXTRAS:
            extras[k] += ex[k]
        for sit, waker, wakee, on_a in rows:
            key = sit + ((wakee,) if by == "wakee" else (f"{waker} -> {wakee}",) if by else ())
            c = cells.setdefault(key, [0, 0])
            c[0] += 1
            c[1] += int(on_a)
    return cells, len(paths), lats, waits, extras


def sit_name(key):
    ctx, lst, a, b = key[:4]
    return f"{ctx:4} last {lst} A {a:6} B {b:4}"


def main(argv):
    argv, near = no_foreign(argv, "wake_situations.py")
    names, by, as_json, real, model, where = set(), None, False, [], [], None
    ni, budget = False, None
    it = iter(argv)
    for a in it:
        if a.startswith("--budget="):
            budget = a[len("--budget="):]
            if budget not in ("pos", "zero"):
                print(f"wake_situations.py: {a}: expected --budget=pos or --budget=zero",
                      file=sys.stderr)
                return 2
        elif a == "-t":
            names = set(x for x in next(it, "").split(",") if x)
        elif a == "--by":
            by = next(it, "")
            if by not in ("wakee", "pair"):
                print(f"wake_situations.py: --by {by}: expected wakee or pair", file=sys.stderr)
                return 2
        elif a == "--json":
            as_json = True
        elif a == "--newidle":
            ni = True
        elif a == "--model":
            where = model
        elif a.startswith("-"):
            print(f"wake_situations.py: {a}: unknown option\n{__doc__}", file=sys.stderr)
            return 2
        else:
            (real if where is None else where).append(a)
    if not real:
        print(__doc__, file=sys.stderr)
        return 2
    if ni:
        try:
            newidle_table(real, model, as_json)
        except (OSError, ValueError) as e:
            print(f"wake_situations.py: {e}", file=sys.stderr)
            return 2
        return 0
    try:
        rc, rn, rlat, rwait, rext = tally(real, names, by, near, budget)
        mc, mn, mlat, mwait, mext = (tally(model, names, by, budget=budget) if model
                                     else ({}, 0, [], [], None))
    except (OSError, ValueError) as e:
        print(f"wake_situations.py: {e}", file=sys.stderr)
        return 2
    if not rc:
        print("wake_situations.py: no wake-up of a task that ran on both CPUs in "
              + " ".join(real), file=sys.stderr)
        return 2
    order = {s: i for i, s in enumerate(SITUATIONS)}
    keys = sorted(set(rc) | set(mc), key=lambda k: (order[k[:4]], k[4:]))
    res = []
    for k in keys:
        rn_k, ra = rc.get(k, [0, 0])
        r = dict(ctx=k[0], last=k[1], a=k[2], b=k[3], real_n=rn_k / rn,
                 real_a=ra / rn_k if rn_k else None)
        if len(k) > 4:
            r["who"] = k[4]
        if model:
            mn_k, ma = mc.get(k, [0, 0])
            r["model_n"] = mn_k / mn
            r["model_a"] = ma / mn_k if mn_k else None
            r["moved"] = ((r["model_a"] - r["real_a"]) * r["model_n"]
                          if mn_k and rn_k else None)
        res.append(r)
    if model:
        res.sort(key=lambda r: -abs(r["moved"] or 0.0))
    remote = dict(real=spread(rlat), model=spread(mlat) if model else None)
    wait = dict(real=wait_classes(rwait), model=wait_classes(mwait) if model else None)
    # "alone" counts the moves to B (not onto A), as vcpu_pack_wait's own count
    wait_alone = {side: wait_classes([(c, not on_a) for c, on_a in e["alone"]]) if e else None
                  for side, e in (("real", rext), ("model", mext))}
    queued = {side: wait_classes(e["queued"]) if e else None
              for side, e in (("real", rext), ("model", mext))}

    def extra_count(kind, onto_a=True):
        """{side: [wake-ups of that extra case, those onto A (onto_a) or B]}"""
        return {side: [len(e[kind]), sum(on_a == onto_a for _, on_a in e[kind])] if e else None
                for side, e in (("real", rext), ("model", mext))}
    join = extra_count("join")
    stay = extra_count("stay", onto_a=False)
    irqpend = extra_count("irqpend")
    hot = extra_count("hot", onto_a=False)
    stayq = extra_count("stayq", onto_a=False)
    if as_json:
        print(json.dumps(dict(real_traces=rn, model_traces=mn, situations=res,
                              remote_preempt=remote, wait=wait, wait_alone=wait_alone,
                              join=join, stay=stay, irqpend=irqpend, hot=hot, stayq=stayq,
                              queued=queued),
                         indent=1))
        return 0
    print(f"wake-ups by situation (A: the waking's CPU, B: the other), per trace: "
          f"{rn} real" + (f", {mn} model" if model else ""))

    def pct(v):
        return "   -" if v is None else f"{100.0 * v:4.0f}"
    head = f"{'situation':34}" + (f" {'who':34}" if by else "")
    head += f" {'real/trace':>10} {'onto A%':>7}"
    if model:
        head += f" {'model/trace':>11} {'onto A%':>7} {'diff':>5} {'moved':>7}"
    print(head)
    for r in res:
        k = (r["ctx"], r["last"], r["a"], r["b"])
        s = f"{sit_name(k):34}" + (f" {r['who'][:34]:34}" if by else "")
        s += f" {r['real_n']:10.1f} {pct(r['real_a']):>7}"
        if model:
            d = ("    -" if r["model_a"] is None or r["real_a"] is None
                 else f"{100.0 * (r['model_a'] - r['real_a']):+5.0f}")
            mv = "      -" if r["moved"] is None else f"{r['moved']:+7.1f}"
            s += f" {r['model_n']:11.1f} {pct(r['model_a']):>7} {d} {mv}"
        print(s)
    print("wake-ups by a task onto the other CPU, which ran a task the wakee then preempted: "
          "sched_waking to the switch (us)")
    for side in ("real", "model") if model else ("real",):
        d = remote[side]
        print(f"  {side:5} {d['n']:6d} wake-ups" + (
            f"  p10 {d['p10']:.1f}  median {d['p50']:.1f}  p90 {d['p90']:.1f}" if d["n"] else ""))
    if remote["real"]["n"]:
        print(f"param ipi_busy={round(remote['real']['p50'] * 1000)}ns")
    print("wake-ups by a task of a task last on its CPU A, B running a task, by the tasks "
          "waiting on A: moved to B")
    for side in ("real", "model") if model else ("real",):
        print(f"  {side:5} " + "  ".join(f"{c}: {m} of {n}" for c, (n, m) in
                                        wait[side].items()))
    n, m = wait["real"]["as high"]
    if n:
        print(f"param vcpu_pack_wait={m * 1000 // n}")
    n, m = wait["real"]["lower"]
    if n:
        print(f"param vcpu_pack_wait_lower={m * 1000 // n}")
    n, m = wait["real"]["none"]
    if n:
        print(f"param vcpu_pack_wait_none={m * 1000 // n}")
    print("the same with B's task alone there (nothing waiting on B): moved to B")
    for side in ("real", "model") if model else ("real",):
        print(f"  {side:5} (B alone) " + "  ".join(f"{c}: {m} of {n}" for c, (n, m) in
                                                  wait_alone[side].items()))
    # vcpu_pack_wait split by B (step 27): B's task alone, and the rest (others wait on B)
    for c, name in (("as high", "vcpu_pack_wait"), ("lower", "vcpu_pack_wait_lower")):
        n, m = wait_alone["real"][c]
        if n:
            print(f"param {name}_alone={m * 1000 // n}")
        n, m = (wait["real"][c][i] - wait_alone["real"][c][i] for i in (0, 1))
        if n:
            print(f"param {name}_crowded={m * 1000 // n}")
    by_task = "wake-ups by a task alone on A of a task last on B, "
    for title, count, name in (
            (by_task + "B running a task with others waiting there: onto A", join,
             "vcpu_pack_join"),
            (by_task + "B's task alone there: stayed on B", stay, "vcpu_pack_stay"),
            ("wake-ups by an interrupt on A, idle with a woken task on its way there, of a "
             "task last on A, B idle: stayed on A", irqpend, "vcpu_pack_irq"),
            (f"the none case with B alone, B's busy time {HOT_UTIL} of 1024 or more: moved to B",
             hot, "vcpu_pack_wait_hot"),
            ("wake-ups by a task with others waiting on A, of a task last on B, B running a "
             "task: stayed on B", stayq, "vcpu_pack_stay_queued")):
        print(title)
        for side in ("real", "model") if model else ("real",):
            n, m = count[side]
            print(f"  {side:5} {m} of {n}" + (f" ({m * 1000 // n} per mille)" if n else ""))
        n, m = count["real"]
        if n:
            print(f"param {name}={m * 1000 // n}")
    print("vcpu_pack_queued's wake-ups by the tasks waiting on A: stayed on A")
    for side in ("real", "model") if model else ("real",):
        print(f"  {side:5} (A queued, B idle) " + "  ".join(
            f"{c}: {m} of {n}" for c, (n, m) in queued[side].items() if c != "none"))
    n, m = (sum(c[i] for k, c in rc.items() if k[:4] == ("task", "A", "queued", "idle"))
            for i in (0, 1))
    if n:
        print(f"param vcpu_pack_queued={m * 1000 // n}")
    return 0


def wait_classes(rows):
    """{class: (wake-ups, moved)} of vcpu_pack_wait's case, by the tasks waiting on A"""
    return {c: (sum(1 for k, _ in rows if k == c), sum(1 for k, mv in rows if k == c and mv))
            for c in ("as high", "lower", "none")}


def spread(v):
    """count, p10, median and p90 (nearest rank) of the latencies v"""
    v = sorted(v)
    if not v:
        return dict(n=0, p10=None, p50=None, p90=None)
    return dict(n=len(v), p10=v[(len(v) - 1) // 10], p50=statistics.median(v),
                p90=v[(len(v) - 1) * 9 // 10])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
