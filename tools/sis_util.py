#!/usr/bin/env python3
"""The kernel's PELT utilization and SIS_UTIL scan budget, from a 2-CPU ftrace text.

Issue 28, step 14 (docs/validate.md, "The recordings' SIS_UTIL budget"): mainline 6.18 keeps a
wakee on its busy target when the LLC's scan budget (nr_idle_scan) is 0, which on 2 CPUs with
imbalance_pct 117 is when the average cpu_util_cfs of the two, x, is above 619 of 1024. The
budget is written at each periodic (not newidle) balance of the LLC domain. This reads a trace
(plain or .xz; the recordings' real.trace.xz, or the model's `schedlab validate --sim-out`) and
follows, with the kernel's integer arithmetic (pelt.c: decay_load with the y^n table,
accumulate_sum's three segments, 1024 ns units, 1024-unit periods, the divider
LOAD_AVG_MAX - 1024 + period_contrib):

  each fair task's util_avg (its running time; it moves with the task when a wake-up or a
  balance moves it, decays while it sleeps, is dropped at its exit; a task born in the trace,
  sched_wakeup_new, starts at half the spare capacity of its CPU), its util_est (the EWMA set at
  each sleep: up at once, down by a quarter of the gap, kept within 10 of the last value, or
  while it did not get the CPU it wanted), each CPU's cpu_util_cfs (the sum of the util_avg of
  the tasks attached to it, or of the util_est of those enqueued there if larger, at most 1024),
  x = (cpu_util_cfs(0) + cpu_util_cfs(1)) / 2, and the budget it implies.

Only fair tasks count (a prio under 100 is an rt task, the idle task none). The PELT periods are
taken aligned to the trace's clock (their phase on the real CPUs is unknown: at most one period
of lag in an average). A task's history before the trace is unknown: it starts at 0.

The balance instants: the tick (HZ 250, every 4 ms) at the phase the trace's idle exits show
(the mode of their times modulo 4 ms). At a tick a CPU balances the LLC domain when it is idle
(nothing running or waiting) and its tick ran (an idle exit on it within 300 us of the tick: an
idle CPU whose tick is stopped does not balance) - the idle interval is one jiffy - or when it
is busy and 15 jiffies have passed since its last balance (balance_interval 4 ms x busy_factor
16 = 64 ms, less one jiffy). The budget a wake-up sees is the one of the most recent balance
("bal"); the tool also gives the budget of x at the wake-up itself ("wake") and of x 4 ms
before ("lag4").

Usage: sis_util.py [--json] [--rows] [--all] [--warmup MS] [--until MS] TRACE...
       sis_util.py --split [--warmup MS] [--no-foreign[=US]] TRACE...
       sis_util.py --tasks [--json] [--until MS] TRACE...
       sis_util.py --budget X
  (default)  per trace: wake-ups, the share with x > 619 at the wake-up, with budget 0 (bal,
             wake, lag4), x's p50 and p90 at the wake-ups, balances counted; then all traces
  --rows     one CSV line per sched_waking: trace, time (ns), pid, comm, the waking CPU, the
             two CPUs' cpu_util_cfs, x and budget at the wake-up, x and budget of the last
             balance, and the budget at a lag of 4 ms
  --all      every wake-up; without it only those of tasks that ran on both CPUs (the ones a
             placement can move: not a per-CPU kernel thread, nor the model's background tasks)
  --warmup MS  leave out the wake-ups in the first MS ms from each trace's first switch or
             waking (the tasks' histories before the trace are unknown)
  --split    the wake-ups of vcpu_pack's rules (as their tools measure them: wake_pack.py,
             wake_irq.py, wake_situations.py) split by the budget (bal; wake and lag4 beside):
             stays with budget 0 and > 0, the same by x at the wake-up, and `name=value`
             lines: the rule's rate over the wake-ups whose budget was > 0 (what mainline
             with SIS_UTIL leaves to the rule)
  --no-foreign[=US]  (--split) leave out the wake-ups while a foreign task (not one of the
             file's threads, as tools/foreign_runs.py finds them, the workload's JSON beside
             each trace) held either CPU or had run on one at most US us before (default 1000)
  --tasks    where the utilization comes from (docs/validate.md, "The browser's utilization,
             real against model"): per trace the span, each CPU's idle share and the shares
             of the workload (the task names of the one rt-app JSON beside the trace), the
             machine's own tasks (as tools/irq_background.py names them) and the rest; per
             task name, pooled over the traces, CPU ms per s of the span, slices (switch-in to
             switch-out) and bursts (CPU time from a wake-up to the next sleep) per s and
             their means, the task's own util_avg at its sched_waking lines and its util_est
             at the ticks it was queued (estq); per trace also x at the ticks from the first
             sched line, with and without util_est. A CPU's time before its first sched_switch
             is not counted; a run still open at the end is a slice, not a burst
  --until MS read only the first MS ms from the first sched_switch or sched_waking (the
             recordings run on past rt-app's duration while its threads end their loops)
  --budget X the budget of an average utilization X (0..1024), by the kernel's formula
Exit 2 on a file that cannot be read, a line that is not understood where a field is expected,
a trace of more than 2 CPUs, or no wake-up.
"""
import bisect
import json
import re
import sys

from foreign_runs import no_foreign
from ftrace_lines import WAKE, last_named, numbered, records, switch

# pelt.c, sched-pelt.h: y^32 = 1/2; runnable_avg_yN_inv[n] = (2^32 - 1) y^n, truncated, as the
# kernel's generator writes it; LOAD_AVG_MAX the fixed point of max = max y + 1024 in that
# arithmetic (47742)
LOAD_AVG_PERIOD = 32
_Y = 0.5 ** (1.0 / LOAD_AVG_PERIOD)
YN_INV = [int(((1 << 32) - 1) * _Y ** i) for i in range(LOAD_AVG_PERIOD)]


def _load_avg_max():
    y_inv = int(((1 << 32) - 1) * _Y)
    last, m = 0, 0
    while True:
        m = ((m * y_inv) >> 32) + 1024
        if m == last:
            return m
        last = m


LOAD_AVG_MAX = _load_avg_max()
PELT_MIN_DIVIDER = LOAD_AVG_MAX - 1024
CAPACITY = 1024
UTIL_EST_MARGIN = CAPACITY // 100
UTIL_EST_WEIGHT_SHIFT = 2
IMBALANCE_PCT = 117  # sd_init: the MC (LLC) domain's
LLC_WEIGHT = 2
TICK_NS = 4000000  # HZ 250
BUSY_INTERVAL = 15  # jiffies: msecs_to_jiffies(4 ms x 16) - 1
TICK_SLACK = 300000  # ns: an idle exit this close to a tick instant is that tick's
LAG_NS = 4000000
X_LIMIT = 619  # the largest x with a budget of 1 or more on 2 CPUs (budget(619) = 1)


def decay_load(val, n):
    """val y^n, as pelt.c computes it"""
    if n > LOAD_AVG_PERIOD * 63:
        return 0
    if n >= LOAD_AVG_PERIOD:
        val >>= n // LOAD_AVG_PERIOD
        n %= LOAD_AVG_PERIOD
    return (val * YN_INV[n]) >> 32


def segments(periods, d1, d3):
    """__accumulate_pelt_segments: d1 y^p + 1024 (y + ... + y^(p-1)) + d3"""
    return decay_load(d1, periods) + LOAD_AVG_MAX - decay_load(LOAD_AVG_MAX, periods) - 1024 + d3


class Avg:
    """a sched_avg's util and runnable parts (load_sum is the runnable part for a task)"""
    __slots__ = ("last", "contrib", "util_sum", "run_sum", "util", "runnable")

    def __init__(self, now):
        self.last = now - now % 1024  # aligned to the 1024 ns unit, as the clock's first update
        self.contrib = (now >> 10) % 1024  # periods aligned to the trace's clock
        self.util_sum = self.run_sum = self.util = self.runnable = 0

    def update(self, now, load, running):
        """___update_load_sum and ___update_load_avg: True when a period boundary was crossed
        (then util and runnable are recomputed)"""
        delta = now - self.last
        if delta < 0:
            self.last = now
            return False
        delta >>= 10
        if not delta:
            return False
        self.last += delta << 10
        if not load:
            running = 0
        contrib = delta
        delta += self.contrib
        periods = delta // 1024
        if periods:
            self.util_sum = decay_load(self.util_sum, periods)
            self.run_sum = decay_load(self.run_sum, periods)
            delta %= 1024
            if load:
                contrib = segments(periods, 1024 - self.contrib, delta)
        self.contrib = delta
        if load:
            self.run_sum += contrib << 10
        if running:
            self.util_sum += contrib << 10
        if not periods:
            return False
        divider = PELT_MIN_DIVIDER + self.contrib
        self.util = self.util_sum // divider
        self.runnable = self.run_sum // divider
        return True

    def peek(self, now, running=False):
        """util_avg as an update to now would make it (running or blocked), the state left
        unchanged"""
        if running:
            c = Avg(0)
            c.last, c.contrib, c.util_sum, c.run_sum = self.last, self.contrib, self.util_sum, \
                self.run_sum
            c.util, c.runnable = self.util, self.runnable
            c.update(now, 1, 1)
            return c.util
        delta = (now - self.last) >> 10
        if delta <= 0:
            return self.util
        delta += self.contrib
        periods = delta // 1024
        if not periods:
            return self.util
        return decay_load(self.util_sum, periods) // (PELT_MIN_DIVIDER + delta % 1024)


def budget(x):
    """update_idle_cpu_scan's nr_idle_scan on 2 CPUs for x = sum_util / llc_weight"""
    tmp = min(x * x * IMBALANCE_PCT * IMBALANCE_PCT // (10000 * CAPACITY), CAPACITY)
    return (CAPACITY - tmp) * LLC_WEIGHT // CAPACITY


class Task:
    __slots__ = ("avg", "est", "unchanged", "cpu", "queued", "fair", "comm")

    def __init__(self, now, cpu):
        self.avg = Avg(now)
        self.est = 0
        self.unchanged = False
        self.cpu = cpu  # the CPU whose cfs_rq it is attached to
        self.queued = False  # enqueued (running or waiting)
        self.fair = True
        self.comm = "?"


def tick_phase(path):
    """(phase ns, {cpu: sorted idle exit times}): the mode of the idle exits' times modulo the
    tick, in 100 us bins, then the median of the exits within 200 us of that bin"""
    exits = {}
    for _, _, cpu, _, _, t, ev, rest in records(path):
        if ev == "cpu_idle" and "state=4294967295" in rest:
            exits.setdefault(cpu, []).append(t)
    allx = [t for v in exits.values() for t in v]
    if not allx:
        return None, exits
    bins = {}
    for t in allx:
        b = t % TICK_NS // 100000
        bins[b] = bins.get(b, 0) + 1
    mode = max(sorted(bins), key=lambda b: bins[b]) * 100000 + 50000
    near = sorted((t % TICK_NS - mode + TICK_NS // 2) % TICK_NS - TICK_NS // 2 for t in allx)
    near = [d for d in near if abs(d) <= 200000]
    return (mode + near[len(near) // 2]) % TICK_NS, {c: sorted(v) for c, v in exits.items()}


class Trace:
    """one trace's PELT state, the balances and their budgets, and x at each wake-up"""

    def __init__(self, path, until=None):
        self.path = path
        self.until = until  # ns after the first sched line: the lines after it are not read
        self.tasks = {}
        self.curr = {}  # cpu -> pid running (0 idle)
        self.seen_to = last_named(path)
        self.phase, self.exits = tick_phase(path)
        self.last_bal = {}  # cpu -> jiffy of its last balance
        self.bal = []  # (time, x, budget) of each balance
        self.xs = []  # (time, x) at each tick and waking, in time order
        self.wakes = []  # (time, pid, comm, cpu, x, cpu_util_cfs of CPU 0 and 1)
        self.ran_on = {}  # pid -> the CPUs it was switched in on
        self.t0 = None
        self.next_tick = None
        # --tasks: pid -> [cpu ns, slices, bursts (run time to a sleep), util sum, wakings]
        self.acct = {}
        self.since = {}  # cpu -> the time its current task (or idle) was switched in
        self.idle_ns = {0: 0, 1: 0}
        self.wake_comm = {}  # pid -> the comm its sched_waking lines give
        self.tick_x = []  # (x, x of util_avg alone) at each tick from t0
        self.est_q = {}  # pid -> [sum of its util_est at the ticks it was queued, those ticks]
        self.t_end = None

    def task(self, pid, now, cpu):
        p = self.tasks.get(pid)
        if p is None:
            p = self.tasks[pid] = Task(now, cpu)
        return p

    def cpu_util(self, c, now):
        util = est = 0
        for pid, p in self.tasks.items():
            if not p.fair or p.cpu != c:
                continue
            util += p.avg.peek(now, self.curr.get(c) == pid)
            if p.queued and (self.curr.get(c) == pid or self.seen_to.get(pid, 0) > now):
                est += p.est
        return min(max(util, est), CAPACITY)

    def x(self, now):
        return (self.cpu_util(0, now) + self.cpu_util(1, now)) // LLC_WEIGHT

    def waiting(self, c, now):
        return any(p.queued and p.cpu == c and self.curr.get(c) != pid and
                   self.seen_to.get(pid, 0) > now for pid, p in self.tasks.items())

    def tick_ran(self, c, t):
        ex = self.exits.get(c, [])
        i = bisect.bisect_left(ex, t - TICK_SLACK)
        return i < len(ex) and ex[i] <= t + TICK_SLACK

    def ticks_to(self, now):
        """the ticks up to now: the running fair tasks' PELT updated (entity_tick), the
        balances, x sampled"""
        if self.phase is None:
            return
        if self.next_tick is None:
            k = (now - self.phase) // TICK_NS
            self.next_tick = self.phase + k * TICK_NS
            if self.next_tick < now:
                self.next_tick += TICK_NS
        while self.next_tick <= now:
            t = self.next_tick
            jiffy = (t - self.phase) // TICK_NS
            for c in (0, 1):
                pid = self.curr.get(c, 0)
                if pid and pid in self.tasks and self.tasks[pid].fair:
                    self.running_update(self.tasks[pid], t, True)
            x = None
            for c in (0, 1):
                idle = not self.curr.get(c, 0) and not self.waiting(c, t)
                last = self.last_bal.get(c)
                if idle:
                    due = self.tick_ran(c, t) and (last is None or jiffy - last >= 1)
                else:
                    due = last is None or jiffy - last >= BUSY_INTERVAL
                if due:
                    self.last_bal[c] = jiffy
                    if x is None:
                        x = self.x(t)
                        self.bal.append((t, x, budget(x)))
            self.xs.append((t, x if x is not None else self.x(t)))
            if self.t0 is not None and t >= self.t0:
                self.tick_split(t)
            self.next_tick += TICK_NS

    def tick_split(self, t):
        """--tasks: x at a tick from util_avg alone (no util_est, no clamp), and each queued
        task's util_est (what util_est adds to x)"""
        util = 0
        for pid, p in self.tasks.items():
            if not p.fair:
                continue
            util += p.avg.peek(t, self.curr.get(p.cpu) == pid)
            if p.queued and (self.curr.get(p.cpu) == pid or self.seen_to.get(pid, 0) > t):
                q = self.est_q.setdefault(pid, [0, 0])
                q[0] += p.est
                q[1] += 1
        self.tick_x.append((self.xs[-1][1], util // LLC_WEIGHT))

    def running_update(self, p, now, running):
        if p.avg.update(now, 1, running):
            p.unchanged = False

    def sleep(self, p, now):
        """dequeue_task_fair with DEQUEUE_SLEEP: util_est_update with the util_avg of the
        task's last update, then its PELT to now"""
        ewma, dq = p.est, p.avg.util
        # a util_avg above the capacity (no idle time to be sure of) leaves it all as it was
        if not p.unchanged and (ewma <= dq or ewma - dq < UTIL_EST_MARGIN or dq <= CAPACITY):
            if ewma <= dq:
                ewma = dq
            elif ewma - dq >= UTIL_EST_MARGIN and dq + UTIL_EST_MARGIN >= p.avg.runnable:
                ewma = ((ewma << UTIL_EST_WEIGHT_SHIFT) - (ewma - dq)) >> UTIL_EST_WEIGHT_SHIFT
            p.est = ewma
            p.unchanged = True
        self.running_update(p, now, True)
        p.queued = False

    def move(self, p, now, cpu):
        """a task's util moves with it: synced to now as blocked, attached with its util_avg"""
        if p.cpu == cpu:
            return
        p.avg.update(now, 0, 0)  # the blocked sync leaves util_est's flag alone
        p.avg.util_sum = p.avg.util * (PELT_MIN_DIVIDER + p.avg.contrib)
        p.avg.run_sum = p.avg.runnable * (PELT_MIN_DIVIDER + p.avg.contrib)
        p.cpu = cpu

    def account(self, cpu, now, slept):
        """--tasks: the time since the CPU's last switch to its task (a slice; a burst ends when
        the task sleeps) or to its idle time; nothing before the CPU's first switch"""
        old = self.curr.get(cpu, 0)
        if cpu in self.since:
            dur = now - self.since[cpu]
            if old:
                a = self.acct.setdefault(old, [0, 0, 0, 0, 0])
                a[0] += dur
                a[1] += 1
                a[2] += int(slept)
            else:
                self.idle_ns[cpu] += dur
        self.since[cpu] = now

    def missed(self, cpu, pid, now):
        """a switch the recording left out (it keeps only the switches of its own tasks'
        lines): the task of a line runs on the line's CPU, the one before it there slept"""
        self.account(cpu, now, True)
        old = self.curr[cpu]
        if old and old in self.tasks and self.tasks[old].queued:
            self.sleep(self.tasks[old], now)
        if pid:
            q = self.task(pid, now, cpu)
            if q.cpu != cpu:
                self.move(q, now, cpu)
            self.running_update(q, now, False)
            q.queued = True
        self.curr[cpu] = pid

    def line(self, rec, lineno):
        tcomm, tpid, cpu, _, _, now, ev, rest = rec
        if cpu > 1:
            raise ValueError(f"{self.path}:{lineno}: CPU {cpu}: the tool reads 2-CPU traces")
        if self.t0 is None and ev in ("sched_switch", "sched_waking"):
            self.t0 = now  # the workload's start: a recording's first lines are idle exits
        if self.t0 is not None:
            self.t_end = now
        self.ticks_to(now)
        if ev != "sched_switch" and cpu in self.curr and self.curr[cpu] != tpid:
            self.missed(cpu, tpid, now)
            if tpid in self.tasks and self.tasks[tpid].comm == "?":
                self.tasks[tpid].comm = tcomm
        if ev == "sched_switch":
            s = switch(rest)
            pr = re.search(r"prev_prio=(\d+)", rest)
            npr = re.search(r"next_prio=(\d+)", rest)
            if not s or not pr or not npr:
                raise ValueError(f"{self.path}:{lineno}: a sched_switch without prev_pid, "
                                 "prev_prio, prev_state, next_pid and next_prio")
            prev, pstate, ncomm, nxt = s
            if cpu in self.curr and self.curr[cpu] != prev:
                self.missed(cpu, prev, now)
            self.curr[cpu] = prev
            self.account(cpu, now, not pstate.startswith("R"))
            if prev:
                p = self.task(prev, now, cpu)
                if p.comm == "?":
                    pc = re.search(r"prev_comm=(.*) prev_pid=", rest)
                    p.comm = pc.group(1) if pc else "?"
                p.fair = int(pr.group(1)) >= 100
                if p.cpu != cpu:
                    self.move(p, now, cpu)
                if pstate.startswith("R"):
                    self.running_update(p, now, True)
                    p.queued = True
                else:
                    self.sleep(p, now)
            if nxt:
                q = self.task(nxt, now, cpu)
                q.fair = int(npr.group(1)) >= 100
                q.comm = ncomm
                self.ran_on.setdefault(nxt, set()).add(cpu)
                if q.cpu != cpu:
                    self.move(q, now, cpu)
                self.running_update(q, now, False)
                q.queued = True
            self.curr[cpu] = nxt
        elif ev == "sched_migrate_task":
            f = dict(kv.split("=", 1) for kv in rest.split() if "=" in kv)
            try:
                pid, dest = int(f["pid"]), int(f["dest_cpu"])
            except (KeyError, ValueError):
                raise ValueError(f"{self.path}:{lineno}: a sched_migrate_task without pid and "
                                 "dest_cpu") from None
            if dest > 1:
                raise ValueError(f"{self.path}:{lineno}: CPU {dest}: the tool reads 2-CPU "
                                 "traces")
            if pid in self.tasks:
                self.move(self.tasks[pid], now, dest)
        elif ev in ("sched_waking", "sched_wakeup", "sched_wakeup_new"):
            s = WAKE.search(rest)
            if not s:
                raise ValueError(f"{self.path}:{lineno}: a {ev} without comm, pid, prio and "
                                 "target_cpu")
            pid, prio, tgt = int(s.group(2)), int(s.group(3)), int(s.group(4))
            if tgt > 1:
                raise ValueError(f"{self.path}:{lineno}: CPU {tgt}: the tool reads 2-CPU "
                                 "traces")
            if ev == "sched_waking":
                u0, u1 = self.cpu_util(0, now), self.cpu_util(1, now)
                x = (u0 + u1) // LLC_WEIGHT
                self.xs.append((now, x))
                self.wakes.append((now, pid, s.group(1), cpu, x, u0, u1))
                self.wake_comm[pid] = s.group(1)
                a = self.acct.setdefault(pid, [0, 0, 0, 0, 0])
                a[3] += self.tasks[pid].avg.peek(now) if pid in self.tasks else 0
                a[4] += 1
                return
            new = ev == "sched_wakeup_new" and pid not in self.tasks
            p = self.task(pid, now, tgt)
            p.fair = prio >= 100
            p.comm = s.group(1)
            if p.queued:
                return
            if new and p.fair:
                # post_init_entity_util_avg: half the spare capacity, or the CPU's util per
                # unit of its load if that is less (a nice-0 weight over the runnable sum)
                cu = sum(q.avg.peek(now) for q in self.tasks.values()
                         if q.fair and q.cpu == tgt and q is not p)
                ld = sum(q.avg.runnable for q in self.tasks.values()
                         if q.fair and q.cpu == tgt and q is not p)
                cap = (CAPACITY - cu) // 2
                u = cap if not cu else min(cap, cu * 1024 // (ld + 1))
                p.avg.util = p.avg.runnable = max(u, 0)
                p.avg.util_sum = p.avg.run_sum = p.avg.util * (PELT_MIN_DIVIDER + p.avg.contrib)
            elif p.cpu != tgt:
                self.move(p, now, tgt)
            elif p.avg.update(now, 0, 0):
                p.unchanged = False  # enqueue_entity's update clears util_est's flag
            p.queued = True
        elif ev == "sched_process_exit":
            pm = re.search(r"pid=(\d+)", rest)
            if pm and int(pm.group(1)) in self.tasks:
                del self.tasks[int(pm.group(1))]

    def run(self):
        for lineno, rec in numbered(self.path):
            if (self.until is not None and self.t0 is not None and
                    rec[5] > self.t0 + self.until):
                self.ticks_to(self.t0 + self.until)
                self.t_end = self.t0 + self.until
                break
            self.line(rec, lineno)
        if self.t_end is not None:
            for c in list(self.since):
                self.account(c, self.t_end, False)  # the runs open at the end: slices, no burst
        return self

    def counted(self, warmup, all_tasks):
        """the wake-ups counted: of tasks that ran on both CPUs (a task bound to one, as a
        per-CPU kernel thread or the model's background tasks, is never placed), or all"""
        return [w for w in self.wakes if w[0] - self.t0 >= warmup and
                (all_tasks or len(self.ran_on.get(w[1], ())) == 2)]

    def at(self, t, mode):
        """(x, budget) a wake-up at t sees: bal, the last balance's; wake, x at t; lag4, x at
        t - 4 ms (the last sample before); None before the first"""
        if mode == "bal":
            i = bisect.bisect_right(self.bal, (t + 1000, 1 << 62, 0)) - 1
            return (self.bal[i][1], self.bal[i][2]) if i >= 0 else None
        tt = t + 1000 if mode == "wake" else t - LAG_NS
        i = bisect.bisect_right(self.xs, (tt, 1 << 62)) - 1
        return (self.xs[i][1], budget(self.xs[i][1])) if i >= 0 else None


MODES = ("bal", "wake", "lag4")
X_BINS = (0, 200, 400, 500, 560, 620, 700, 800, 1025)  # --split's classes of x


def load(paths, until=None):
    out = []
    for p in paths:
        t = Trace(p, until).run()
        if t.t0 is None:
            raise ValueError(f"{p}: no sched_switch or sched_waking line")
        out.append(t)
    return out


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def summary(traces, warmup, all_tasks, as_json):
    res = []
    tot = {"n": 0, "hi": 0, **{m: 0 for m in MODES}}
    allx = []
    for tr in traces:
        ws = tr.counted(warmup, all_tasks)
        xs = sorted(w[4] for w in ws)
        r = dict(trace=tr.path, wakeups=len(ws), above=sum(1 for x in xs if x > X_LIMIT),
                 balances=len(tr.bal), phase_us=None if tr.phase is None else tr.phase / 1000)
        for m in MODES:
            r["budget0_" + m] = sum(1 for w in ws if (tr.at(w[0], m) or (0, 1))[1] == 0)
        r["x_p50"] = xs[len(xs) // 2] if xs else None
        r["x_p90"] = xs[(len(xs) - 1) * 9 // 10] if xs else None
        res.append(r)
        allx += xs
        tot["n"] += len(ws)
        tot["hi"] += r["above"]
        for m in MODES:
            tot[m] += r["budget0_" + m]
    if not tot["n"]:
        raise ValueError("no wake-up in " + " ".join(t.path for t in traces))
    allx.sort()
    if as_json:
        print(json.dumps(dict(traces=res, wakeups=tot["n"], above=tot["hi"],
                              budget0={m: tot[m] for m in MODES}), indent=1))
        return
    print("wake-ups (sched_waking) and the SIS_UTIL budget they see (x: the average "
          "cpu_util_cfs of the 2 CPUs; budget 0 above x = 619)")
    print(f"{'trace':58} {'wake-ups':>8} {'x>619%':>7} {'b0 bal%':>7} {'wake%':>6} "
          f"{'lag4%':>6} {'x p50':>6} {'p90':>5} {'bals':>5}")
    for r in res:
        n = r["wakeups"]
        print(f"{r['trace'][-58:]:58} {n:8d} {pct(r['above'], n):7.1f} "
              f"{pct(r['budget0_bal'], n):7.1f} {pct(r['budget0_wake'], n):6.1f} "
              f"{pct(r['budget0_lag4'], n):6.1f} {r['x_p50'] if n else '-':>6} "
              f"{r['x_p90'] if n else '-':>5} {r['balances']:5d}")
    n = tot["n"]
    print(f"{'all':58} {n:8d} {pct(tot['hi'], n):7.1f} {pct(tot['bal'], n):7.1f} "
          f"{pct(tot['wake'], n):6.1f} {pct(tot['lag4'], n):6.1f} {allx[len(allx) // 2]:6d} "
          f"{allx[(len(allx) - 1) * 9 // 10]:5d}")


def task_class(comm, names):
    """wl: the workload's (rt-app's threads); bg: the machine's own (kernel threads, the guest
    agent, the model's kworker-bg); other: the rest (the recording harness, other work)"""
    import irq_background
    import rtapp_json
    if irq_background.is_background(comm):
        return "bg"
    return "wl" if rtapp_json.is_thread(comm, names) else "other"


def workload_names(path):
    """the task names of the rt-app JSON beside a trace (the recordings' and --sim-out's
    directories hold one; the model's machine-background.json is not it), or none"""
    import os
    import rtapp_json
    js = rtapp_json.workload_files(os.path.dirname(path) or ".")
    return rtapp_json.task_names(js[0]) if len(js) == 1 else set()


def rtapp_rows(path, comm):
    """(rows, microseconds asked) of rt-app's logs of a task beside a trace
    (<logbasename>-<task>-<instance>.log, a logbasename without '-': idx perf run period start
    end rel_st slack c_duration ...); (0, 0) without one"""
    import glob
    import os
    rows = asked = 0
    for f in sorted(glob.glob(os.path.join(os.path.dirname(path) or ".", f"*-{comm}-*.log"))):
        # the log basename (rt-app's "logbasename", "rt-app" by default) has no '-': the glob's
        # web-Event-Display-7.log is not Display's
        if not re.fullmatch(r"[^-]*-" + re.escape(comm) + r"-\d+\.log", os.path.basename(f)):
            continue
        with open(f) as fh:
            for n, line in enumerate(fh, 1):
                if line.startswith("#") or not line.strip():
                    continue
                v = line.split()
                try:
                    asked += int(v[8])
                except (IndexError, ValueError):
                    raise ValueError(f"{f}:{n}: expected rt-app's log columns (c_duration the "
                                     "9th)") from None
                rows += 1
    return rows, asked


def tasks(traces, as_json):
    """per task name, pooled over the traces: CPU time per second of the span (first
    sched_switch or sched_waking to the last line), slices (switch-in to switch-out) and bursts
    (the CPU time from a wake-up to the next sleep) per second and their means, and the task's
    own util_avg at its sched_waking lines; per trace, each CPU's idle share and each class's"""
    import rtapp_json
    by = {}
    per = []
    logged = {}  # comm -> [rt-app log rows, microseconds of run asked]
    span_all = 0
    for tr in traces:
        span = tr.t_end - tr.t0
        if span <= 0:
            raise ValueError(f"{tr.path}: no time between the first and the last line")
        span_all += span
        try:
            names = workload_names(tr.path)
        except rtapp_json.BadInput as e:
            raise ValueError(str(e)) from None
        cls = {"wl": 0, "bg": 0, "other": 0}
        for pid, a in tr.acct.items():
            comm = tr.tasks[pid].comm if pid in tr.tasks else tr.wake_comm.get(pid, "?")
            k = task_class(comm, names)
            cls[k] += a[0]
            b = by.setdefault(comm, [k, 0, 0, 0, 0, 0, 0, 0])
            for i in range(5):
                b[i + 1] += a[i]
            q = tr.est_q.get(pid, (0, 0))
            b[6] += q[0]
            b[7] += q[1]
        if tr.until is None:
            for comm in names:
                loops, asked = rtapp_rows(tr.path, comm[:15])
                lg = logged.setdefault(comm[:15], [0, 0])
                lg[0] += loops
                lg[1] += asked
        n = len(tr.tick_x)
        per.append(dict(trace=tr.path, span_s=span / 1e9, ticks=n,
                        tick_x_mean=sum(x for x, _ in tr.tick_x) / n if n else None,
                        tick_above=pct(sum(1 for x, _ in tr.tick_x if x > X_LIMIT), n),
                        tick_xutil_mean=sum(u for _, u in tr.tick_x) / n if n else None,
                        tick_util_above=pct(sum(1 for _, u in tr.tick_x if u > X_LIMIT), n),
                        idle={c: tr.idle_ns[c] / span for c in (0, 1)},
                        share={k: v / (2 * span) for k, v in cls.items()}))
    res = []
    for comm, (k, ns, sl, bu, us, nw, eq, nq) in sorted(by.items(),
                                                         key=lambda i: (-i[1][1], i[0])):
        if not ns and not nw:
            continue
        loops, asked = logged.get(comm, (0, 0))
        res.append(dict(comm=comm, cls=k, cpu_ms_per_s=ns / span_all * 1e3,
                        loops=loops, cpu_per_asked=ns / (asked * 1000) if asked else None,
                        slices_per_s=sl / span_all * 1e9, slice_us=ns / sl / 1e3 if sl else 0.0,
                        bursts_per_s=bu / span_all * 1e9, burst_us=ns / bu / 1e3 if bu else 0.0,
                        util=us / nw if nw else None, wakings=nw,
                        est_queued=eq / nq if nq else None))
    if as_json:
        print(json.dumps(dict(traces=per, tasks=res), indent=1))
        return
    print("per trace: the span (s), each CPU's idle share, the classes' shares of the 2 CPUs "
          "(wl: the workload's, bg: the machine's own, other); at the ticks from the first sched "
          "line: x's mean and share above 619, and x of util_avg alone (without util_est)")
    for r in per:
        print(f"{r['trace'][-58:]:58} {r['span_s']:7.2f} idle0 {100 * r['idle'][0]:5.1f}% "
              f"idle1 {100 * r['idle'][1]:5.1f}% wl {100 * r['share']['wl']:5.1f}% "
              f"bg {100 * r['share']['bg']:5.1f}% other {100 * r['share']['other']:5.1f}% "
              f"ticks {r['ticks']}: x {r['tick_x_mean'] or 0:.0f}, >619 {r['tick_above']:.1f}%, "
              f"util_avg alone {r['tick_xutil_mean'] or 0:.0f}, >619 {r['tick_util_above']:.1f}%")
    print("per task, pooled: CPU ms per s of the span, slices per s and mean (us), bursts (wake-up"
          " to sleep) per s and mean (us), the task's util_avg at its wakings, wakings")
    print("; loops: rt-app's log rows beside the traces, cpu/asked: the CPU time over the "
          "microseconds of run those rows asked (without --until); estq: its util_est at the "
          "ticks it was queued")
    print(f"{'comm':20} {'cls':5} {'ms/s':>7} {'sl/s':>7} {'sl us':>8} {'bu/s':>7} "
          f"{'bu us':>8} {'util':>5} {'wakings':>7} {'loops':>6} {'cpu/asked':>9} {'estq':>5}")
    for r in res:
        u = "-" if r["util"] is None else f"{r['util']:.0f}"
        ca = "-" if r["cpu_per_asked"] is None else f"{r['cpu_per_asked']:.3f}"
        print(f"{r['comm'][:20]:20} {r['cls']:5} {r['cpu_ms_per_s']:7.1f} {r['slices_per_s']:7.1f} "
              f"{r['slice_us']:8.1f} {r['bursts_per_s']:7.1f} {r['burst_us']:8.1f} {u:>5} "
              f"{r['wakings']:7d} {r['loops']:6d} {ca:>9} "
              f"{'-' if r['est_queued'] is None else format(r['est_queued'], '.0f'):>5}")


def rows(traces, warmup, all_tasks):
    print("trace,t_ns,pid,comm,cpu,util0,util1,x_wake,budget_wake,x_bal,budget_bal,budget_lag4")
    for tr in traces:
        for t, pid, comm, cpu, x, u0, u1 in tr.counted(warmup, all_tasks):
            b = tr.at(t, "bal")
            lg = tr.at(t, "lag4")
            print(f"{tr.path},{t},{pid},{comm.replace(',', ' ')},{cpu},{u0},{u1},{x},{budget(x)},"
                  f"{'' if b is None else b[0]},{'' if b is None else b[1]},"
                  f"{'' if lg is None else lg[1]}")


def split(paths, warmup, near=None):
    """the rules' wake-ups by the budget they saw; near (a function of the path, --no-foreign)
    gives each trace's wake-ups to leave out"""
    import wake_irq
    import wake_pack
    import wake_situations
    cells = {}  # rule -> mode -> [n0, kept0, n1, kept1]
    by_x = {}  # rule -> [[wake-ups, kept] per X_BINS class of x at the wake-up]

    def add(rule, tr, t, kept):
        if t - tr.t0 < warmup or (mask is not None and mask(t)):
            return
        x = tr.at(t, "wake")
        if x is not None:
            c = by_x.setdefault(rule, [[0, 0] for _ in X_BINS[:-1]])
            i = max(k for k in range(len(X_BINS) - 1) if x[0] >= X_BINS[k])
            c[i][0] += 1
            c[i][1] += int(kept)
        for m in MODES:
            b = tr.at(t, m)
            if b is None:
                continue
            c = cells.setdefault(rule, {}).setdefault(m, [0, 0, 0, 0])
            i = 0 if b[1] == 0 else 2
            c[i] += 1
            c[i + 1] += int(kept)
    for p in paths:
        tr = Trace(p).run()
        if tr.t0 is None:
            raise ValueError(f"{p}: no sched_switch or sched_waking line")
        mask = near(p) if near else None
        for r in wake_pack.analyse(p):
            if r["prev_a"]:
                add("vcpu_pack_waker" if r["nr_a"] == 0 else "vcpu_pack_queued", tr, r["t"],
                    r["out"])
            elif r["nr_a"] == 0:
                add("vcpu_pack_other (join)", tr, r["t"], r["out"])
        for key, o, stayed, t in wake_irq.analyse(p, timed=True):
            if key == (True, True) and not o[0]:
                add("vcpu_pack_irq_busy", tr, t, stayed)
                add("vcpu_pack_irq_same" if o[1] else "vcpu_pack_irq_busy (other prio)", tr, t,
                    stayed)
        rws, _, waits, _ = wake_situations.analyse(p, set(), timed=True)
        for (c, mv, t) in waits:
            if c == "as high":
                add("vcpu_pack_wait (moved)", tr, t, mv)
            elif c == "lower":
                add("vcpu_pack_wait_lower (moved)", tr, t, mv)
            else:
                add("both busy, none waiting (moved)", tr, t, mv)
    if not cells:
        raise ValueError("no wake-up of vcpu_pack's situations in " + " ".join(paths))
    sis = ("vcpu_pack_waker", "vcpu_pack_queued", "vcpu_pack_irq_busy", "vcpu_pack_irq_same",
           "vcpu_pack_irq_busy (other prio)")
    print("vcpu_pack's situations by the SIS_UTIL budget (bal: the last balance's; wake, lag4 "
          "beside): kept (or moved), of wake-ups")
    print(f"{'rule':32} {'mode':5} {'all':>13} {'budget 0':>15} {'budget > 0':>15}")
    for rule in sorted(cells, key=lambda r: (r not in sis, r)):
        for m in MODES:
            n0, k0, n1, k1 = cells[rule].get(m, [0, 0, 0, 0])
            print(f"{rule:32} {m:5} {k0 + k1:5d}/{n0 + n1:<5d} {pct(k0 + k1, n0 + n1):3.0f}% "
                  f"{k0:5d}/{n0:<5d} {pct(k0, n0):3.0f}% {k1:5d}/{n1:<5d} {pct(k1, n1):3.0f}%")
    print("the same by x at the wake-up: kept (or moved)/wake-ups, x from " +
          "  ".join(f"{lo}-{hi - 1}" for lo, hi in zip(X_BINS, X_BINS[1:])))
    for rule in sorted(by_x, key=lambda r: (r not in sis, r)):
        print(f"{rule:32} " + " ".join(f"{k:4d}/{n:<4d}" for n, k in by_x[rule]))
    print("# the rules' rates over the wake-ups whose budget (bal) was > 0: what mainline "
          "6.18 with SIS_UTIL would move, and the recordings kept")
    for rule in sis:
        if rule in cells:
            n0, k0, n1, k1 = cells[rule]["bal"]
            if n1:
                # each rule's value as its own tool prints it (wake_irq rounds, wake_pack floors)
                v = round(1000 * k1 / n1) if "irq" in rule else k1 * 1000 // n1
                print(f"{rule.split()[0]}={v}" + (" (of the other prios)" if " " in rule else ""))


def main(argv):
    argv, near = no_foreign(argv, "sis_util.py")
    as_json = "--json" in argv
    all_tasks = "--all" in argv
    warmup = 0
    until = None
    paths = []
    it = iter(argv)
    mode = "summary"
    for a in it:
        if a in ("--json", "--all"):
            continue
        if a == "--rows":
            mode = "rows"
        elif a == "--split":
            mode = "split"
        elif a == "--tasks":
            mode = "tasks"
        elif a in ("--warmup", "--budget", "--until"):
            v = next(it, None)
            try:
                n = int(v)
                if n < 0:
                    raise ValueError
            except (TypeError, ValueError):
                print(f"sis_util.py: {a} {v}: expected a whole number, 0 or more",
                      file=sys.stderr)
                return 2
            if a == "--budget":
                if n > CAPACITY:
                    print(f"sis_util.py: --budget {n}: expected 0..1024", file=sys.stderr)
                    return 2
                print(budget(n))
                return 0
            if a == "--until":
                until = n * 1000000
            else:
                warmup = n * 1000000
        elif a.startswith("-"):
            print(f"sis_util.py: {a}: unknown option\n{__doc__}", file=sys.stderr)
            return 2
        else:
            paths.append(a)
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        if mode == "split":
            split(paths, warmup, near)
            return 0
        traces = load(paths, until)
        if mode == "rows":
            rows(traces, warmup, all_tasks)
        elif mode == "tasks":
            tasks(traces, as_json)
        else:
            summary(traces, warmup, all_tasks, as_json)
    except (OSError, EOFError, ValueError) as e:
        print(f"sis_util.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
