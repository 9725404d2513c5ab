#!/usr/bin/env python3
"""Where a wake-up by a running task goes while the other CPU is idle, in real 2-CPU traces.

Issues 27/28: the measured kernel's non-mainline sched_vcpu_pack boot option keeps many such
wake-ups on the waker's CPU where mainline 6.18 takes the idle one. This reads ftrace text
traces (plain or .xz) and, for each sched_waking sent by a task running on CPU A (not from an
interrupt) while CPU B is idle (its idle task runs and no task waits there: the rules' own
condition), of a task not running anywhere, writes one row:
the outcome (sched_wakeup's target_cpu is A: "packed") and candidate predictors computed from
the trace's own history:

  prev_a      the wakee last ran on A (its last switch-in there; else sched_waking's
              target_cpu)
  nr_a        tasks runnable on A besides the waker (a task whose later lines were lost, as
              the recordings' harness tasks preempted once and never named again, waits
              only until its last line: ftrace_lines.last_named)
  resched     need-resched already set on A (the N flag)
  util_a      A's busy time, decayed as PELT's util_avg (32 ms half-life, 1024 = always busy)
  util_sum_a  sum of the PELT-like utilization of the tasks attached to A (their last CPU),
              the wakee's included when it last ran on A (the kernel's cpu_util, roughly)
  util_p      the wakee's PELT-like utilization (running time only)
  util_w      the waker's
  waker_ran   how long the waker has run since its switch-in (us)
  waker_left  how long the waker runs on after the wake-up before it blocks (us; a sync proxy)
  last_run    the wakee's last stint on a CPU (us)
  slept       how long the wakee slept (us)
  idle_b      how long B has been idle (us)
  life_p      the wakee's running time over its life in the trace (per 1024)
  life_a      A's busy time since the trace's start (per 1024)
  tick_last   A's busy time (per 1000) between its last two ticks (tick_nohz_handler
              hrtimer events, when recorded; -1 else); tick_since: from its last tick to now
  since_tick  time since A's last tick (us; -1: not recorded)
  prio_p      the wakee's prio (sched_waking's), prio_w the waker's (its switch-in's)
  lat         (an outcome) sched_waking to the wakee's switch-in (us)

Usage: wake_pack.py [--rows] [--room=R --small=S] [--no-foreign[=US]] TRACE...
  --no-foreign[=US]  leave out the wake-ups while a foreign task (not one of the file's
          threads, found as tools/foreign_runs.py finds them, the workload's JSON beside each
          trace) held either CPU or had run on one at most US us before (default 1000)
  --rows  one CSV line per wake-up instead of the tables
  --room=R --small=S  also the vcpu_pack_room rule's classes (defaults 675 and 28): the wakee
          last on A with A's waker alone or not; last on B and small (util_p < S, util_a +
          util_p < R, A alone) or not; how many of each ran on A, and how often the rule
          (packed: last on A, or small) says where the wake-up went
  --fit   machine.conf lines from the traces: vcpu_pack_waker, of 1000 wake-ups of a task last
          on A with the waker alone there, how many stayed on A; vcpu_pack_other, of 1000
          of a task last on B with the waker alone on A, how many joined A; vcpu_pack_room and
          vcpu_pack_small, the pair (grid: small 2..64 by 2, room 300..1024 by 25) that says
          best where the wake-ups of a task last on B with the waker alone on A went, then
          vcpu_pack_prio, the bound on the wakee's prio (100..140; 0: none) that does best
          among the wake-ups that pair packs; the room and prio without a size bound (a
          comment); vcpu_pack_queued, of 1000 wake-ups of a task last on A with others
          queued there, how many stayed
  --sum   (with --fit) the room on util_sum_a (the tasks attached to A, asleep ones included,
          as the kernel's cpu_util) instead of util_a (A's busy time), and the line
          `param vcpu_pack_room_sum=1` (docs/validate.md, step 28)
Prints, over all the traces given, the pack rate by bins of each predictor. Exit 2 on a file
that cannot be read or traces with no such wake-up.
"""
import math
import re
import sys

from foreign_runs import no_foreign
from ftrace_lines import LINE, SW, WAKE, last_named, opener, stamp

HALF_NS = 32 * 1024 * 1000  # PELT: y^32 = 1/2 with 1024 us periods
PERCPU = re.compile(r"/\d+$")  # kworker/0:1, ksoftirqd/1, migration/0: bound to one CPU


def decay(dt):
    return math.exp(-math.log(2) * dt / HALF_NS)


class Pelt:
    """A 0..1024 signal that rises while 'on' and decays while off, continuously."""

    def __init__(self):
        self.v, self.t, self.on = 0.0, None, False

    def at(self, t):
        if self.t is None:
            return 0.0
        d = decay(t - self.t)
        return self.v * d + (1024.0 * (1 - d) if self.on else 0.0)

    def set(self, t, on):
        self.v, self.t, self.on = self.at(t), t, on


def tick_frac(tk, end):
    """Busy per 1000 between two ticks (or the last tick and end); -1 when not known."""
    if end is not None:
        tk = tk + [end]
    if len(tk) < 2 or tk[1][0] <= tk[0][0]:
        return -1
    return 1000.0 * (tk[1][1] - tk[0][1]) / (tk[1][0] - tk[0][0])


def analyse(path):
    curr = {}  # cpu -> pid
    since = {}  # cpu -> switch-in time
    cpu_util = {}  # cpu -> Pelt (busy)
    tutil = {}  # pid -> Pelt (running)
    lastcpu = {}  # pid -> cpu
    comm = {}
    last_run = {}  # pid -> last stint ns
    slept_at = {}  # pid -> time it blocked
    pending = {}  # pid -> row waiting for sched_wakeup
    rows = []
    waker_open = {}  # waker pid -> rows waiting for its block
    ncpu = 2
    queued = {}  # pid -> cpu: runnable, not running
    awaiting = {}  # pid -> row whose wakee has not run yet
    prio = {}  # pid -> prio at its last switch-in
    ran = {}  # pid -> total run ns
    first = {}  # pid -> first seen
    busy = {}  # cpu -> total busy ns
    t0 = None
    seen_to = last_named(path)
    ticks = {}  # cpu -> [(t, busy ns by then)] of its last two ticks (tick_nohz_handler)

    def busy_at(c, t):
        return busy.get(c, 0) + (t - since[c] if curr.get(c) and c in since else 0)
    for line in opener(path):
        if line.startswith("#"):
            m = re.search(r"#P:(\d+)", line)
            if m:
                ncpu = int(m.group(1))
            continue
        m = LINE.match(line)
        if not m:
            continue
        tcomm, tpid, cpu, flags, ts, ev, args = m.groups()
        cpu, tpid, t = int(cpu), int(tpid), int(round(float(ts) * 1e9))
        if t0 is None:
            t0 = t
        if ev == "sched_switch":
            s = SW.search(args)
            if not s:
                continue
            prev, pstate, ncomm, nxt = int(s.group(1)), s.group(2), s.group(3), int(s.group(4))
            # a CPU's next switch ends whatever ran there (a lost switch-out: an exit)
            gone = curr.get(cpu)
            if gone and gone != prev and gone in tutil:
                tutil[gone].set(t, False)
            if cpu in since and curr.get(cpu):
                busy[cpu] = busy.get(cpu, 0) + t - since[cpu]
                ran[curr[cpu]] = ran.get(curr[cpu], 0) + t - since[cpu]
            if prev:
                tu = tutil.setdefault(prev, Pelt())
                tu.set(t, False)
                if cpu in since:
                    last_run[prev] = t - since[cpu]
                lastcpu[prev] = cpu
                if pstate[0] in "SDI" or pstate.startswith("X"):
                    slept_at[prev] = t
                    for r in waker_open.pop(prev, []):
                        r["waker_left"] = (t - r["t"]) / 1000.0
            if prev and pstate.startswith("R"):
                queued[prev] = cpu
            queued.pop(nxt, None)
            comm[nxt] = ncomm
            pm = re.search(r"next_prio=(\d+)", args)
            if pm:
                prio[nxt] = int(pm.group(1))
            r = awaiting.pop(nxt, None)
            if r is not None:
                r["lat"] = (t - r["t"]) / 1000.0
            curr[cpu], since[cpu] = nxt, t
            cpu_util.setdefault(cpu, Pelt()).set(t, nxt != 0)
            first.setdefault(nxt, t)
            if nxt:
                tutil.setdefault(nxt, Pelt()).set(t, True)
                lastcpu[nxt] = cpu
        elif ev == "sched_waking":
            w = WAKE.search(args)
            if not w:
                continue
            # the CPU the wakee last ran on, from the trace's switches (schedlab's own traces
            # write the chosen CPU as sched_waking's target_cpu; the kernel, task_cpu())
            pid = int(w.group(2))
            prevcpu = lastcpu.get(pid, int(w.group(4)))
            comm[pid] = w.group(1)
            if ncpu != 2 or tpid == 0 or curr.get(cpu) != tpid or flags[2:3] in ("h", "H", "s"):
                continue
            other = 1 - cpu
            # the tasks waiting (runnable, not running) now: a task whose later lines were
            # lost (ftrace_lines.last_named) waits no more after its last line
            now = stamp(ts)
            live = [c for q, c in queued.items() if seen_to.get(q, 0) > now]
            # B idle as the rule (sl_rq_idle) needs it: its idle task runs, nothing waits there
            if curr.get(other, -1) != 0 or other in live or pid in curr.values():
                continue
            if PERCPU.search(w.group(1)) and not w.group(1).startswith("kworker/u"):
                continue
            sum_a = sum(p.at(t) for q, p in tutil.items() if lastcpu.get(q) == cpu)
            row = dict(trace=path, t=t, waker=tcomm, wakee=w.group(1), prev_a=int(prevcpu == cpu),
                       util_a=cpu_util[cpu].at(t) if cpu in cpu_util else 0.0,
                       util_sum_a=sum_a,
                       util_p=tutil[pid].at(t) if pid in tutil else 0.0,
                       util_w=tutil[tpid].at(t) if tpid in tutil else 0.0,
                       waker_ran=(t - since.get(cpu, t)) / 1000.0,
                       waker_left=float("inf"),
                       last_run=last_run.get(pid, 0) / 1000.0,
                       slept=(t - slept_at[pid]) / 1000.0 if pid in slept_at else float("inf"),
                       idle_b=(t - since.get(other, t)) / 1000.0, cpu=cpu, out=None,
                       lat=-1.0, prio_p=int(w.group(3)), prio_w=prio.get(tpid, -1),
                       nr_a=sum(1 for c in live if c == cpu),
                       resched=int(flags[1:2] == "N"),
                       tick_last=tick_frac(ticks.get(cpu, []), None),
                       tick_since=tick_frac(ticks.get(cpu, [])[-1:], (t, busy_at(cpu, t))),
                       since_tick=(t - ticks[cpu][-1][0]) / 1000.0 if ticks.get(cpu) else -1,
                       life_p=1024.0 * ran.get(pid, 0) / max(1, t - first.get(pid, t)),
                       life_a=1024.0 * (busy.get(cpu, 0) + t - since.get(cpu, t)) / max(1, t - t0))
            pending[pid] = row
            waker_open.setdefault(tpid, []).append(row)
        elif ev == "hrtimer_expire_entry" and "tick_nohz_handler" in args:
            ticks[cpu] = (ticks.get(cpu, []) + [(t, busy_at(cpu, t))])[-2:]
        elif ev == "sched_migrate_task":
            w = re.search(r"pid=(\d+) .*orig_cpu=(\d+) dest_cpu=(\d+)", args)
            if w and int(w.group(1)) in queued:
                queued[int(w.group(1))] = int(w.group(3))
        elif ev in ("sched_wakeup", "sched_wakeup_new"):
            w = WAKE.search(args)
            if not w:
                continue
            if int(w.group(2)) not in curr.values():
                queued[int(w.group(2))] = int(w.group(4))
            row = pending.pop(int(w.group(2)), None)
            if row is not None:
                row["out"] = int(int(w.group(4)) == row["cpu"])
                rows.append(row)
                awaiting[int(w.group(2))] = row
    return rows


BINS = {
    "util_a": [0, 64, 128, 192, 256, 384, 512, 768, 1025],
    "util_sum_a": [0, 64, 128, 192, 256, 384, 512, 768, 1025, 1e9],
    "util_p": [0, 16, 32, 64, 128, 256, 512, 1025],
    "util_w": [0, 16, 32, 64, 128, 256, 512, 1025],
    "waker_ran": [0, 5, 10, 20, 50, 100, 200, 500, 1000, 1e12],
    "waker_left": [0, 5, 10, 20, 50, 100, 200, 500, 1000, 1e12, float("inf")],
    "last_run": [0, 5, 10, 20, 50, 100, 200, 500, 1000, 1e12],
    "slept": [0, 50, 100, 500, 1000, 5000, 20000, 1e12, float("inf")],
    "idle_b": [0, 10, 20, 50, 100, 200, 500, 1000, 5000, 1e12],
    "prev_a": [0, 1, 2],
    "prio_p": [0, 100, 110, 120, 121, 140],
    "prio_w": [-1, 0, 100, 110, 120, 121, 140],
    "lat": [-1, 0, 5, 10, 20, 50, 100, 200, 500, 1000, 1e12],
    "nr_a": [0, 1, 2, 3, 100],
    "tick_last": [-1, 0, 100, 200, 300, 400, 500, 600, 700, 800, 850, 900, 950, 1001],
    "tick_since": [-1, 0, 100, 200, 300, 400, 500, 600, 700, 800, 850, 900, 950, 1001],
    "since_tick": [-1, 0, 100, 500, 1000, 2000, 4000, 1e12],
    "life_p": [0, 16, 32, 64, 128, 256, 512, 1025],
    "life_a": [0, 64, 128, 192, 256, 384, 512, 768, 1025],
    "resched": [0, 1, 2],
}


def table(rows, key, title=""):
    edges = BINS[key]
    print(f"{title}{key}: bin  wake-ups  packed  rate")
    for lo, hi in zip(edges, edges[1:]):
        sel = [r for r in rows if lo <= r[key] < hi or (hi == float("inf") and r[key] == hi)]
        if not sel:
            continue
        k = sum(r["out"] for r in sel)
        print(f"  [{lo:g},{hi:g})  {len(sel):7d}  {k:6d}  {100.0 * k / len(sel):5.1f}%")


def main(argv):
    argv, near = no_foreign(argv, "wake_pack.py")
    rows_out = "--rows" in argv
    room, small = 675.0, 28.0
    for a in argv:
        try:
            if a.startswith("--room="):
                room = float(a[7:])
            elif a.startswith("--small="):
                small = float(a[8:])
        except ValueError:
            print(f"wake_pack.py: {a}: expected a number", file=sys.stderr)
            return 2
    paths = [a for a in argv if not a.startswith("--")]
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    rows, left = [], 0
    for p in paths:
        try:
            got = analyse(p)
            if near:
                mask = near(p)
                left += sum(1 for r in got if mask(r["t"]))
                got = [r for r in got if not mask(r["t"])]
            rows += got
        except OSError as e:
            msg = str(e)  # opener's own errors name the file already
            print(f"wake_pack.py: {msg if msg.startswith(p) else p + ': ' + msg}", file=sys.stderr)
            return 2
    if not rows:
        print("wake_pack.py: no wake-up by a running task while the other CPU was idle in "
              + " ".join(paths), file=sys.stderr)
        return 2
    if near:
        print(f"# --no-foreign: {left} of {len(rows) + left} wake-ups left out (a foreign task "
              "held a CPU or had run on one within the margin)")
    if "--fit" in argv:
        return fit(rows, "util_sum_a" if "--sum" in argv else "util_a")
    if rows_out:
        keys = ["trace", "t", "waker", "wakee", "out"] + list(BINS)
        print(",".join(keys))
        for r in rows:
            print(",".join(str(r[k]) for k in keys))
        return 0
    k = sum(r["out"] for r in rows)
    print(f"{len(rows)} wake-ups by a running task with the other CPU idle; "
          f"{k} ran on the waker's CPU ({100.0 * k / len(rows):.1f}%)")
    for key in BINS:
        table(rows, key)
    for pa in (1, 0):
        sub = [r for r in rows if r["prev_a"] == pa]
        if sub:
            print(f"-- wakee last on {'the waker' if pa else 'the idle'}'s CPU --")
            for key in ("util_a", "util_sum_a", "util_p", "util_w", "waker_ran", "waker_left"):
                table(sub, key, "  ")
    rule(rows, room, small)
    return 0


def fit(rows, ukey):
    """The three parameters' machine.conf lines, measured in the traces' wake-ups; ukey: A's
    utilization the room adds the wakee's to (util_a, or util_sum_a with --sum)."""
    a = [r for r in rows if r["prev_a"] and r["nr_a"] == 0]
    b = [(r["util_p"], r[ukey] + r["util_p"], r["out"], r["prio_p"]) for r in rows
         if not r["prev_a"] and r["nr_a"] == 0]
    if not a or not b:
        print("wake_pack.py: --fit: no wake-up of a task last on the waker's CPU, or none of "
              "one last on the idle CPU, with the waker alone", file=sys.stderr)
        return 2
    kept = sum(r["out"] for r in a)
    best = None
    for small in range(2, 65, 2):
        sb = [(u, o) for p, u, o, _ in b if p < small]
        packed_other = sum(o for p, u, o, _ in b if p >= small)
        for room in range(300, 1025, 25):
            err = packed_other + sum((u < room) != o for u, o in sb)
            if best is None or err < best[0]:
                best = (err, small, room)
    err, small, room = best
    # then the prio bound among the wake-ups the pair packs (0: none better than any prio)
    sel = [(q, o) for p, u, o, q in b if p < small and u < room]
    base = sum(1 - o for q, o in sel)
    prio_best = (base, 0)
    for bound in range(100, 141):
        e = sum((q < bound) != o for q, o in sel)
        if e < prio_best[0]:
            prio_best = (e, bound)
    err += prio_best[0] - base
    print(f"# wake_pack.py --fit: {len(a)} wake-ups of a task last on the waker's CPU, the "
          f"waker alone there, {kept} stayed;")
    print(f"# {len(b)} of a task last on the idle CPU: the pair below says where "
          f"{len(b) - err} went ({100.0 * (len(b) - err) / len(b):.1f}%)")
    print(f"param vcpu_pack_waker={kept * 1000 // len(a)}")
    # (vcpu_pack_other: one rate for all of b, the rule without the room rule's sizes)
    joined = sum(o for _, _, o, _ in b)
    print(f"# of the {len(b)} last on the idle CPU, {joined} joined the waker")
    print(f"param vcpu_pack_other={joined * 1000 // len(b)}")
    if ukey == "util_sum_a":
        print("param vcpu_pack_room_sum=1")
    print(f"param vcpu_pack_room={room}")
    print(f"param vcpu_pack_small={small}")
    print(f"param vcpu_pack_prio={prio_best[1]}")
    # the room alone, no bound on the wakee's own size (vcpu_pack_small=1024: the room bounds it)
    nb = [(u, o, q) for p, u, o, q in b]
    err1, room1 = min((sum((u < r) != o for u, o, _ in nb), r) for r in range(300, 1025, 25))
    sel1 = [(q, o) for u, o, q in nb if u < room1]
    base1 = sum(1 - o for _, o in sel1)
    perr1, prio1 = min([(base1, 0)] + [(sum((q < bd) != o for q, o in sel1), bd)
                                       for bd in range(100, 141)])
    err1 += perr1 - base1
    print(f"# without a bound on the wakee's size: the room below says where {len(b) - err1} "
          f"went ({100.0 * (len(b) - err1) / len(b):.1f}%): vcpu_pack_room={room1} "
          f"vcpu_pack_small=1024 vcpu_pack_prio={prio1}")
    q = [r for r in rows if r["prev_a"] and r["nr_a"] > 0]
    kq = sum(r["out"] for r in q)
    if kq:
        print(f"# {len(q)} wake-ups of a task last on the waker's CPU, others queued there, "
              f"{kq} stayed")
        print(f"param vcpu_pack_queued={kq * 1000 // len(q)}")
    else:
        print(f"# {len(q)} wake-ups of a task last on the waker's CPU, others queued there, "
              "none stayed: vcpu_pack_queued cannot say 0 (leave vcpu_pack_waker out)")
    return 0


def rule(rows, room, small):
    """The classes of the vcpu_pack_room and vcpu_pack_waker rules, and how often they hold."""
    cells = {}
    hit = 0
    for r in rows:
        alone = r["nr_a"] == 0
        if r["prev_a"]:
            c, packed = ("last on A, waker alone" if alone else "last on A, others queued"), True
        else:
            packed = alone and r["util_p"] < small and r["util_a"] + r["util_p"] < room
            c = "last on B, small, room" if packed else "last on B, other"
        n = cells.setdefault(c, [0, 0])
        n[0] += 1
        n[1] += r["out"]
        hit += int(packed) == r["out"]
    print(f"rule (room {room:g}, small {small:g}): class  wake-ups  on A  rate")
    for c in sorted(cells):
        n, k = cells[c]
        print(f"  {c:26s} {n:7d} {k:6d} {100.0 * k / n:5.1f}%")
    print(f"  the rule says where {hit} of {len(rows)} went ({100.0 * hit / len(rows):.1f}%)")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
