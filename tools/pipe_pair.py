#!/usr/bin/env python3
"""Where one end of a ping-pong pair wakes the other, in real 2-CPU ftrace text traces (issue 27).

`perf bench sched pipe` on the 2-vCPU recording machine runs its two ends on one vCPU for part
of the iterations and on two for the rest, and changes between the two only at wake-ups. This
finds the pair (the two tasks that wake each other most from process context), and classes each
sched_waking of one end by the other, sent while the waker runs on CPU A (B is the other CPU):

  prev      where the wakee last ran: A ("together": the pair shares A) or B ("apart")
  went      the CPU of the wakee's sched_wakeup (on this kernel a wake-up onto the other CPU
            is queued there and its sched_wakeup comes later, from B's idle task)
  b_state   B at the sched_waking: busy (running a task), or idle for how long (since its
            switch to the idle task) and whether it entered the halt (cpu_idle state 1)
  a_others  tasks runnable on A besides the waker (woken there or preempted, not yet run; a
            task no later line names is not: its lines were lost, ftrace_lines.last_named)
  need_rs   the waker's line carries need-resched (N)
  since     wake-ups of the pair since its last change between together and apart
  ran       how long the waker has run since its switch-in (us; a host preemption of A
            shows as a long one in a ping-pong of 1-15 us bursts)
  lat       sched_waking to the wakee's switch-in (us)

Usage: pipe_pair.py [--rows] TRACE...
Prints, per trace and over all of them, the counts by prev x b_state and by the other
predictors, with how many of each went to A (joined the waker); the transitions' rates
(together -> apart per 1000 wake-ups of a wakee last on A with B idle, nothing waiting there,
and the waker alone on A; apart -> together per 1000 of a wakee last on B, the same), i.e.
what vcpu_pack_waker and vcpu_pack_other express; and the share of wake-ups apart. --rows: one CSV line per wake-up instead.
Exit 2 on a file that cannot be read or a trace with no such pair.
"""
import lzma
import re
import sys
from collections import Counter, defaultdict

from ftrace_lines import last_named, opener, parse, reason, switch, uncommented

WAKE = re.compile(r"pid=(\d+) prio=\d+ target_cpu=(\d+)")
MIG = re.compile(r"pid=(\d+) prio=\d+ orig_cpu=(\d+) dest_cpu=(\d+)")
IDLE = re.compile(r"state=(\d+) cpu_id=(\d+)")


def die(msg):
    print("pipe_pair.py: " + msg, file=sys.stderr)
    sys.exit(2)


def events(path):
    """(t_us, cpu, pid, flags, event, args) per line, in the file's order."""
    try:
        f = opener(path)
        out = []
        with f:
            for n, (_, pid, cpu, flags, ts, _, ev, args) in parse(uncommented(f)):
                sec, frac = ts.split(".")
                if len(frac) not in (6, 9):
                    die("%s:%d: expected a timestamp with 6 or 9 decimals" % (path, n))
                # us: ftrace's text has 6 decimals, schedlab's --trace-out 9
                out.append((int(sec) * 1000000 + int(frac[:6]), cpu, pid, flags, ev, args))
        return out
    except (OSError, lzma.LZMAError, EOFError) as e:
        die("%s: %s" % (path, reason(path, e)))


def find_pair(evs):
    """The two tasks that wake each other most from process context."""
    c = Counter()
    for t, cpu, pid, flags, ev, args in evs:
        if ev == "sched_waking" and pid and flags[2] == ".":
            m = WAKE.search(args)
            if m and int(m.group(1)) != pid:
                c[(pid, int(m.group(1)))] += 1
    best, score = None, 0
    for (x, y), n in c.items():
        s = min(n, c.get((y, x), 0))
        if s > score:
            best, score = (min(x, y), max(x, y)), s
    return best


def idle_bin(us):
    for lim in (10, 50, 100, 200, 500, 1000, 4000):
        if us < lim:
            return "<%04d" % lim
    return ">4000"


def since_bin(n):
    for lim in (1, 10, 100, 500, 1000, 5000):
        if n < lim:
            return "<%04d" % lim
    return ">5000"


def ran_bin(us):
    for lim in (2, 5, 10, 20, 50, 200):
        if us < lim:
            return "<%03d" % lim
    return ">200"


def analyse(path):
    evs = events(path)
    seen_to = last_named(path)  # ns; a task waits only until its last line
    pair = find_pair(evs)
    if not pair:
        die("%s: no pair of tasks that wake each other" % path)
    curr = {}  # cpu -> pid running
    idle_since = {}  # cpu -> t of its switch to the idle task
    halted = {}  # cpu -> in cpu_idle state 1 since that switch
    lastcpu = {}  # pid -> cpu it last ran on (or was migrated to)
    queued = defaultdict(set)  # cpu -> runnable, not running
    pending = {}  # wakee -> row awaiting its sched_wakeup / switch-in
    rows = []
    sw_in = {}  # cpu -> t of its last switch
    state, since = None, 0  # the pair: "A" (together) / "B" (apart) at its last wake-up
    for t, cpu, pid, flags, ev, args in evs:
        if ev == "sched_switch":
            s = switch(args)
            if not s:
                continue
            prev, pst, _, nxt = s
            if prev and pst.startswith("R"):
                queued[cpu].add(prev)
            for q in queued.values():
                q.discard(nxt)
            curr[cpu] = nxt
            sw_in[cpu] = t
            if nxt:
                lastcpu[nxt] = cpu
                r = pending.pop(nxt, None)
                if r is not None and "lat" not in r:
                    r["lat"] = t - r["t"]
            else:
                idle_since[cpu], halted[cpu] = t, False
        elif ev == "cpu_idle":
            m = IDLE.search(args)
            if m and m.group(1) == "1":
                halted[int(m.group(2))] = True
        elif ev == "sched_migrate_task":
            m = MIG.search(args)
            if m:
                p, o, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
                if p in queued[o]:
                    queued[o].discard(p)
                    queued[d].add(p)
                lastcpu[p] = d
        elif ev == "sched_wakeup":
            m = WAKE.search(args)
            if not m:
                continue
            p, tc = int(m.group(1)), int(m.group(2))
            for q in queued.values():
                q.discard(p)
            if curr.get(tc) != p:
                queued[tc].add(p)
            r = pending.get(p)
            if r is not None and "went" not in r:
                r["went"] = "A" if tc == r["a"] else "B"
        elif ev == "sched_waking" and pid in pair and flags[2] == ".":
            m = WAKE.search(args)
            if not m or int(m.group(1)) not in pair or int(m.group(1)) == pid:
                continue
            y = int(m.group(1))
            if curr.get(cpu) != pid or cpu > 1:
                continue
            b = 1 - cpu
            pc = lastcpu.get(y)
            if pc is None:
                continue
            r = {"t": t, "a": cpu, "prev": "A" if pc == cpu else "B"}
            if curr.get(b, 0):
                r["b"] = "busy"
            else:
                r["b"] = "idle" + idle_bin(t - idle_since.get(b, t)) + (
                    "h" if halted.get(b) else "")
            r["idle_us"] = t - idle_since.get(b, t) if not curr.get(b, 0) else -1
            live = {c: {q for q in qs if seen_to.get(q, 0) > t * 1000}
                    for c, qs in queued.items()}
            r["a_others"] = len(live.get(cpu, set()) - {pid, y})
            r["b_waiting"] = len(live.get(b, set()) - {y})
            r["need_rs"] = flags[1] == "N"
            r["since"] = since
            r["ran"] = t - sw_in.get(cpu, t)
            rows.append(r)
            pending[y] = r
        # the pair's state at its wake-ups, counted when the outcome is known
        while rows and "went" in rows[-1] and not rows[-1].get("counted"):
            r = rows[-1]
            r["counted"] = True
            if state is not None and r["went"] != state:
                since = 0
            else:
                since += 1
            state = r["went"]
            break
    rows = [r for r in rows if "went" in r]
    return pair, rows


def table(title, rows, key):
    n, j = Counter(), Counter()
    for r in rows:
        k = key(r)
        n[k] += 1
        j[k] += r["went"] == "A"
    print("\n%s" % title)
    print("| class | wake-ups | went to A (the waker's CPU) | per 1000 |")
    print("|---|---|---|---|")
    for k in sorted(n, key=str):
        print("| %s | %d | %d | %.1f |" % (k, n[k], j[k], 1000.0 * j[k] / n[k]))


def rates(rows):
    """vcpu_pack_waker / vcpu_pack_other's situation: B idle, A runs the waker alone."""
    w = [r for r in rows if r["prev"] == "A" and r["b"] != "busy" and not r["b_waiting"] and
         not r["a_others"]]
    o = [r for r in rows if r["prev"] == "B" and r["b"] != "busy" and not r["b_waiting"] and
         not r["a_others"]]
    ws = sum(r["went"] == "A" for r in w)
    oj = sum(r["went"] == "A" for r in o)
    apart = sum(r["went"] == "B" for r in rows)
    return len(w), ws, len(o), oj, apart


def report(name, rows):
    nw, ws, no, oj, apart = rates(rows)
    print("\n## %s: %d wake-ups of one end by the other, %d (%.1f%%) went to the other CPU" %
          (name, len(rows), apart, 100.0 * apart / max(1, len(rows))))
    print("vcpu_pack_waker (wakee last on A, B idle, waker alone on A): %d of %d stayed = %.1f"
          " per 1000" % (ws, nw, 1000.0 * ws / max(1, nw)))
    print("vcpu_pack_other (wakee last on B, B idle, waker alone on A): %d of %d joined = %.1f"
          " per 1000" % (oj, no, 1000.0 * oj / max(1, no)))
    table("prev x B's state", rows, lambda r: (r["prev"], r["b"]))
    table("prev x tasks runnable on A besides the waker", rows,
          lambda r: (r["prev"], min(r["a_others"], 2)))
    table("prev x need-resched on the waker's line", rows, lambda r: (r["prev"], r["need_rs"]))
    table("prev x wake-ups since the pair last changed", rows,
          lambda r: (r["prev"], since_bin(r["since"])))
    table("prev x how long the waker has run (us)", rows,
          lambda r: (r["prev"], ran_bin(r["ran"])))
    table("prev x waker's CPU", rows, lambda r: (r["prev"], r["a"]))


def main(argv):
    show_rows = "--rows" in argv
    paths = [a for a in argv if not a.startswith("--")]
    if not paths:
        die("usage: pipe_pair.py [--rows] TRACE...")
    allrows = []
    for p in paths:
        pair, rows = analyse(p)
        if not rows:
            die("%s: no wake-up of one end of the pair by the other" % p)
        if show_rows:
            print("trace,t_us,a,prev,went,b,idle_us,a_others,need_rs,since,ran_us,lat_us")
            for r in rows:
                print("%s,%d,%d,%s,%s,%s,%d,%d,%d,%d,%d,%d" % (
                    p, r["t"], r["a"], r["prev"], r["went"], r["b"], r["idle_us"],
                    r["a_others"], r["need_rs"], r["since"], r["ran"], r.get("lat", -1)))
            continue
        print("# %s: pair %d, %d" % (p, pair[0], pair[1]))
        report(p, rows)
        allrows += rows
    if not show_rows and len(paths) > 1:
        report("all %d traces" % len(paths), allrows)


if __name__ == "__main__":
    main(sys.argv[1:])
