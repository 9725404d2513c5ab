#!/usr/bin/env python3
"""What makes and unmakes the arrangement of a waker and its wakee on a 2-CPU machine, real
against model.

Issue 28 (docs/validate.md, "Pairs made and unmade"): at a task's wake-up of a sleeping task,
the pair waker -> wakee is *paired* when the wakee last ran on (its task_cpu is) the waker's
CPU, *crossed* when on the other. This reads ftrace text traces (plain or .xz; real ones and
the model's own, `schedlab validate --sim-out`), follows each pair with --min wake-ups or more
in a trace from one of its wake-ups to the next, and counts the changes paired -> crossed and
crossed -> paired, each attributed to the last event between the two wake-ups that changed
the wakee's or the waker's CPU so that the two went apart (or together):

  wake       a wake-up placing the task on the other CPU than its task_cpu: by a task or
             an interrupt (irq: the h or s flag, the idle task's context, an interrupt entry
             line at the same time on that CPU), "away" from the waking CPU (the task was last
             there and goes to the other) or "join" (it comes to the waking CPU); the target CPU
             idle or busy at the waking; for a task's waking "away", the waker alone on its CPU
             or with others queued there. "own" when it is the pair's own wake-up that made it
  newidle    a move of a queued task to a CPU whose running task blocks next there (within
             100 us): that CPU's newidle balance
  idle bal   a move to an idle CPU (no wake-up of the task): its idle or nohz balance
  busy bal   a move to a CPU that runs a task which does not block next: the periodic balance
  push       a move written on the source CPU (the migration thread's active balance)

each as "wakee: ..." or "waker: ..." (whose CPU changed). A sched_migrate_task line belongs
to a wake-up when it comes between that task's sched_waking and sched_wakeup (the kernel's
order) or just before its sched_waking at the same time, an interrupt's entry line between
(schedlab's). The wakee's task_cpu is
read from the switches, migrations and wake-ups, not from sched_waking's target_cpu (the
kernel writes the previous CPU there, schedlab the chosen one). A task that no later line
names does not wait (the recordings lost the lines of a few preempted tasks of their harness).

Usage: pair_flips.py [--min N] [--by pair] [--json] REAL... [--model MODEL...]
  REAL...      the recordings' traces; --model ...: the model's traces of the same file(s)
  --min N      a pair is followed in a trace with N of its wake-ups or more (default 20)
  --by pair    also one row per pair: wake-ups per second, the share paired, the changes
               each way per second
  --json       one JSON object instead of the tables
Rates are per second of the traces (each trace's span from its first to its last wake-up of a
followed pair, summed). Then, of the followed pairs' wake-ups: of the paired ones, per 1000
how many the wake-up itself placed on the other CPU, by the other CPU idle / busy and the
waker alone / with others queued; of the crossed ones, per 1000 joined to the waker's CPU.
Exit 2 on a file that cannot be read, a trace that is not of 2 CPUs, or no pair followed.
"""
import collections
import json
import sys

from ftrace_lines import WAKE, WideTrace, last_named, records, sched_lines, switch, task_waking

NEWIDLE_WINDOW = 100000  # ns: a pull this close before its CPU's task blocks is its newidle pull


def fields(rest):
    """the key=value fields of an event line as a dict"""
    return dict(kv.split("=", 1) for kv in rest.split() if "=" in kv)


def lines(path):
    """the trace's records (ftrace_lines.records'), schedlab's migrate-before-waking order put
    in the kernel's (waking, then migrate)"""
    try:
        out = list(records(path, max_cpu=1))
    except WideTrace as e:  # the CPU as the line writes it
        raise ValueError(f"{path}: CPU {e.column}: the tool reads 2-CPU traces") from None
    i = 0
    while i < len(out):
        a = out[i]
        if a[6] == "sched_migrate_task":
            pid = fields(a[7]).get("pid")
            for j in range(i + 1, min(i + 4, len(out))):
                b = out[j]
                w = WAKE.search(b[7]) if b[6] == "sched_waking" else None
                if b[5] != a[5]:
                    break
                if w and w.group(2) == pid:
                    out[i:j + 1] = out[i + 1:j + 1] + [a]
                    i = j
                    break
        i += 1
    return out


def switches(ev):
    """each CPU's sched_switch lines in ev, in order, as (time, prev_pid, prev_state): analyse
    takes each off as it passes it, so that a CPU's first left is its next switch"""
    out = {0: collections.deque(), 1: collections.deque()}
    for _, _, cpu, _, _, t, name, rest in ev:
        s = switch(rest) if name == "sched_switch" else None
        if s:
            out[cpu].append((t, s[0], s[1]))
    return out


def analyse(path, minimum):
    """per followed pair (waker comm, wakee comm): its wake-up states and changes, and the
    trace's span (ns)"""
    ev = lines(path)
    ahead = switches(ev)
    seen_to = last_named(path)
    curr, cpu_of, queued, comm = {}, {}, {}, {}
    pend = {}  # pid -> (A, situation of its waking, (waker, wakee) of a pair's own wake-up)
    mark = {}
    wakes = []  # (time, waker pid, wakee pid, state)
    watch = {}  # (waker pid, wakee pid) -> [rel, label of the last change of rel]
    by = {}  # pid -> pairs it is in
    pairs = {}  # (waker, wakee) -> list of (state, label) at its wake-ups
    place = []  # (pair, state, moved, class) of the followed pairs' own wake-ups

    def moved(pid, dest, label, own=None):
        if cpu_of.get(pid) == dest:
            return
        cpu_of[pid] = dest
        for key in by.get(pid, ()):
            w = watch[key]
            if key[0] in cpu_of and key[1] in cpu_of:
                rel = cpu_of[key[0]] == cpu_of[key[1]]
                if rel != w[0]:
                    w[0] = rel
                    w[1] = (("wakee: " if pid == key[1] else "waker: ") +
                            ("own " if key == own else "") + label)
    for (_, tpid, cpu, flags, ts, t, name, rest), s in sched_lines(ev, mark):
        if name == "sched_switch":
            ahead[cpu].popleft()
            prev, pstate, ncomm, nx = s
            if prev and pstate.startswith("R"):
                queued[prev] = cpu
            queued.pop(nx, None)
            curr[cpu] = nx
            if nx:
                comm[nx] = ncomm
                moved(nx, cpu, "unseen")
        elif name == "sched_waking":
            s = WAKE.search(rest)
            if not s:
                continue
            pid = int(s.group(2))
            comm[pid] = s.group(1)
            a, b = cpu, 1 - cpu
            if pid in queued or pid in curr.values() or pid not in cpu_of or b not in curr:
                continue
            irq = not task_waking(flags, ts, tpid, cpu, mark, curr)
            live = [c for q, c in queued.items() if seen_to.get(q, 0) > t]
            b_idle = curr.get(b, 0) == 0 and b not in live
            a_alone = a not in live
            own = None
            if not irq:
                own = (tpid, pid)
                st = "paired" if cpu_of[pid] == a else "crossed"
                wakes.append((t, tpid, pid, st))
                if own not in watch:
                    watch[own] = [None, None]
                    by.setdefault(tpid, []).append(own)
                    by.setdefault(pid, []).append(own)
                    cpu_of.setdefault(tpid, a)
                w = watch[own]
                pairs.setdefault(own, []).append((t, st, w[1]))
                watch[own] = [cpu_of[pid] == a, None]
            pend[pid] = (a, "irq" if irq else "task", "idle" if b_idle else "busy",
                         "alone" if a_alone else "queued", own,
                         "paired" if cpu_of[pid] == a else "crossed")
        elif name == "sched_migrate_task":
            f = fields(rest)
            try:
                pid, src, dest = int(f["pid"]), int(f["orig_cpu"]), int(f["dest_cpu"])
            except (KeyError, ValueError):
                continue
            p = pend.get(pid)
            own = p[4] if p else None
            if p:
                a, ctx, bst, ast, own, st = p
                if dest != a:
                    label = f"wake {ctx} away, other {bst}" + (f", waker {ast}"
                                                               if ctx == "task" else "")
                else:
                    label = f"wake {ctx} join, " + (f"waker {ast}" if ctx == "task" else
                                                    "its CPU " + ("idle" if curr.get(a, 0) == 0
                                                                  else "busy"))
            elif cpu != dest:
                label = "push"
            elif curr.get(dest, 0) == 0:
                label = "idle bal"
            else:
                ns = ahead[dest][0] if ahead[dest] else None
                label = ("newidle" if ns and ns[1] == curr[dest] and ns[0] - t <= NEWIDLE_WINDOW
                         and not ns[2].startswith("R") else "busy bal")
            if pid in queued:
                queued[pid] = dest
            moved(pid, dest, label, own)
        elif name in ("sched_wakeup", "sched_wakeup_new"):
            s = WAKE.search(rest)
            if not s:
                continue
            pid, tgt = int(s.group(2)), int(s.group(4))
            if pid not in curr.values():
                queued[pid] = tgt
            p = pend.pop(pid, None)
            if p and p[4]:
                place.append((p[4], p[5], (tgt != p[0]) == (p[5] == "paired"), (p[2], p[3])))
            moved(pid, tgt, "unseen")
    count = {}
    for _, w, p, _ in wakes:
        count[(w, p)] = count.get((w, p), 0) + 1
    keep = {k for k, n in count.items() if n >= minimum}
    span = [t for t, w, p, _ in wakes if (w, p) in keep]
    res = {}
    for key in keep:
        name = (comm.get(key[0], "?"), comm.get(key[1], "?"))
        seq = pairs[key]
        r = res.setdefault(name, dict(wakes=0, paired=0, flips={}))
        prev = None
        for _, st, label in seq:
            r["wakes"] += 1
            r["paired"] += st == "paired"
            if prev and st != prev:
                k = (f"{prev} -> {st}", label or "unseen")
                r["flips"][k] = r["flips"].get(k, 0) + 1
            prev = st
    pl = [(st, mv, cls) for key, st, mv, cls in place if key in keep]
    return res, (max(span) - min(span)) if span else 0, pl


def tally(paths, minimum):
    """the pairs of all traces summed (by their names), the seconds, the placements"""
    pairs, secs, place = {}, 0.0, []
    for p in paths:
        res, span, pl = analyse(p, minimum)
        secs += span / 1e9
        place += pl
        for name, r in res.items():
            s = pairs.setdefault(name, dict(wakes=0, paired=0, flips={}))
            s["wakes"] += r["wakes"]
            s["paired"] += r["paired"]
            for k, n in r["flips"].items():
                s["flips"][k] = s["flips"].get(k, 0) + n
    return pairs, secs, place


def placements(pl):
    """per 1000 of the paired wake-ups placed away by their situation, of crossed ones joined"""
    out = {}
    for st, verb in (("paired", "away"), ("crossed", "join")):
        for bst in ("idle", "busy"):
            for ast in ("alone", "queued"):
                n = sum(1 for s, _, c in pl if s == st and c == (bst, ast))
                m = sum(1 for s, mv, c in pl if s == st and c == (bst, ast) and mv)
                out[f"{st}, other {bst}, waker {ast}: {verb}"] = [n, m]
    return out


def kind(label):
    """a change's event in a few kinds: the pair's own wake-up, another task's or an
    interrupt's wake-up of the waker or the wakee, or a balance's move"""
    who, ev = label.split(": ", 1)
    if ev.startswith("own "):
        return "own wake-up"
    if ev.startswith("wake "):
        return f"{who}: wake-up by {ev.split()[1]} {ev.split()[2].rstrip(',')}"
    return f"{who}: {ev}" if ev == "unseen" else f"balance ({ev})"


def main(argv):
    minimum, by, as_json, real, model, where = 20, None, False, [], [], None
    it = iter(argv)
    for a in it:
        if a == "--min":
            v = next(it, "")
            if not v.isdigit() or int(v) < 2:
                print(f"pair_flips.py: --min {v}: expected a count of 2 or more", file=sys.stderr)
                return 2
            minimum = int(v)
        elif a == "--by":
            by = next(it, "")
            if by != "pair":
                print(f"pair_flips.py: --by {by}: expected pair", file=sys.stderr)
                return 2
        elif a == "--json":
            as_json = True
        elif a == "--model":
            where = model
        elif a.startswith("-"):
            print(f"pair_flips.py: {a}: unknown option\n{__doc__}", file=sys.stderr)
            return 2
        else:
            (real if where is None else where).append(a)
    if not real:
        print(__doc__, file=sys.stderr)
        return 2
    sides = [("real", real)] + ([("model", model)] if model else [])
    data = {}
    try:
        for side, paths in sides:
            data[side] = tally(paths, minimum)
    except (OSError, ValueError) as e:
        print(f"pair_flips.py: {e}", file=sys.stderr)
        return 2
    for side, paths in sides:
        if not data[side][0] or not data[side][1]:
            print(f"pair_flips.py: no pair with {minimum} wake-ups or more in "
                  + " ".join(paths), file=sys.stderr)
            return 2
    rows = {}
    for side, _ in sides:
        pairs, secs, _ = data[side]
        for r in pairs.values():
            for (way, label), n in r["flips"].items():
                c = rows.setdefault((way, label), {})
                c[side] = c.get(side, 0.0) + n / secs
    order = sorted(rows, key=lambda k: (k[0], -max(rows[k].values()), k[1]))
    kinds = {}
    for (way, label), v in rows.items():
        for side, x in v.items():
            c = kinds.setdefault((way, kind(label)), {})
            c[side] = c.get(side, 0.0) + x
    summary = {}
    for side, _ in sides:
        pairs, secs, pl = data[side]
        w = sum(r["wakes"] for r in pairs.values())
        pd = sum(r["paired"] for r in pairs.values())
        summary[side] = dict(seconds=secs, pairs=len(pairs), wakes_per_s=w / secs,
                             paired_share=pd / w, placements=placements(pl))
        for way in ("paired -> crossed", "crossed -> paired"):
            summary[side][way] = sum(n for r in pairs.values() for (wy, _), n in r["flips"].items()
                                     if wy == way) / secs
    per_pair = []
    if by:
        # ties by name: a set's order changes with PYTHONHASHSEED
        names = sorted(set(n for side, _ in sides for n in data[side][0]),
                       key=lambda n: (-data["real"][0].get(n, dict(wakes=0))["wakes"], n))
        for n in names:
            r = dict(pair=f"{n[0]} -> {n[1]}")
            for side, _ in sides:
                p = data[side][0].get(n)
                secs = data[side][1]
                r[side] = None if not p else dict(
                    wakes_per_s=p["wakes"] / secs, paired_share=p["paired"] / p["wakes"],
                    p2c=sum(v for (wy, _), v in p["flips"].items() if wy[0] == "p") / secs,
                    c2p=sum(v for (wy, _), v in p["flips"].items() if wy[0] == "c") / secs)
            per_pair.append(r)
    if as_json:
        print(json.dumps(dict(summary=summary, kinds=[
            dict(way=k[0], by=k[1], **{s: kinds[k].get(s, 0.0) for s, _ in sides})
            for k in sorted(kinds)], changes=[
            dict(way=k[0], by=k[1], **{s: rows[k].get(s, 0.0) for s, _ in sides})
            for k in order], pairs=per_pair), indent=1))
        return 0
    for side, paths in sides:
        s = summary[side]
        print(f"{side}: {len(paths)} traces, {s['seconds']:.1f} s, {s['pairs']} pairs of "
              f"{minimum}+ wake-ups a trace, {s['wakes_per_s']:.1f} wake-ups/s, "
              f"{100.0 * s['paired_share']:.0f}% paired; changes/s: paired -> crossed "
              f"{s['paired -> crossed']:.2f}, crossed -> paired {s['crossed -> paired']:.2f}")
    print("changes per second by the kind of event (wake: a wake-up placement; own: the pair's "
          "own wake-up moving the wakee)")
    print(f"{'change':18} {'event':30} {'real/s':>7}" + (f" {'model/s':>7}" if model else ""))
    for k in sorted(kinds):
        print(f"{k[0]:18} {k[1]:30} {kinds[k].get('real', 0.0):7.2f}" +
              (f" {kinds[k].get('model', 0.0):7.2f}" if model else ""))
    print("changes per second, by the last event that moved the waker or the wakee")
    print(f"{'change':18} {'event':56} {'real/s':>7}" + (f" {'model/s':>7}" if model else ""))
    for k in order:
        print(f"{k[0]:18} {k[1]:56} {rows[k].get('real', 0.0):7.2f}" +
              (f" {rows[k].get('model', 0.0):7.2f}" if model else ""))
    print("the pairs' own wake-ups by state and situation: placed away (paired) or joined "
          "(crossed), per 1000")
    for k in summary["real"]["placements"]:
        s = f"  {k:42}"
        for side, _ in sides:
            n, m = summary[side]["placements"][k]
            s += f" {side} {m:5d} of {n:5d}" + (f" ({m * 1000 // n:4d})" if n else " (   -)")
        print(s)
    if by:
        print(f"{'pair':40} " + " ".join(f"{side + ' wk/s paired% p>c/s c>p/s':>30}"
                                         for side, _ in sides))
        for r in per_pair:
            s = f"{r['pair'][:40]:40} "
            for side, _ in sides:
                v = r[side]
                s += (f"{'-':>30}" if not v else
                      f"{v['wakes_per_s']:13.1f} {100.0 * v['paired_share']:6.0f} "
                      f"{v['p2c']:4.2f} {v['c2p']:4.2f}") + " "
            print(s.rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
