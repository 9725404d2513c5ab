#!/usr/bin/env python3
"""Does a fresh running task keep an interrupt's wakee out? The wake-up preemption of a wake-up
onto a busy CPU, split by what EEVDF's slice protection and lag read.

Issue 28 (docs/validate.md, "A fresh task's protection, against the recordings"): EEVDF 6.18
protects a freshly picked task (RUN_TO_PARITY: vprot = its deadline) unless the wakee comes back
with positive lag (inflated by (W + w) / W at its placement: a heavier wakee's small lag makes
the running task ineligible) or the running task is no longer eligible. What the recordings'
wake-ups had of that is read off what a trace shows; every row a dimension of --by:

  run     the running task's time since its switch-in (us)
  woke    the running task's time since its own last waking (us)
  queue   A's queue at the waking: "alone" (no other thread of the file runnable on A) or
          "others" (the running task may be ineligible: then it has no protection)
  slept   the wakee's queue when it last went to sleep: "alone" (its lag was 0: V was its own
          vruntime) or "others" (the task switched in after it or another was queued: a lag)
  in      how the running task got A: "idle", "block" (its predecessor slept), "preempt"
  sleep   the wakee's sleep length (ms)
  nice    the wakee's priority against the running task's: "heavier" (a lower prio value, a
          shorter virtual slice), "same", "lighter"
  pair    the wakee's and the running task's names

Only the file's threads count (those named by an rt-app log beside the trace, and threads
rt-app left named "rt-app"): they share one autogroup, so only they meet in the wakee's group
runqueue. A recording leaves out the switches of the tasks outside the file (bash, mandb, ...),
so the task running on a CPU is taken from every line of that CPU, not only from its switches
(a wake-up onto a CPU that really went idle after such a task is not counted as one onto a busy
CPU). --from (default irq) takes the wake-ups from an interrupt on the wakee's last CPU A, from
the task running on A (own) or from a task on the other CPU (other), while A runs a file
thread; names starting with one of --skip's comma-separated prefixes (default kworker) are
left out, and with --named the threads rt-app left unnamed in a recording ("rt-app", whose
switch-ins and timer wake-ups the recordings lack). Each is moved (its first
switch-in is on another CPU) or kept; of the kept, "now" (A's task switched out runnable for it
within --prompt us, default 100) or "late" (its switch-in, the next on A, later, A's task
runnable). Printed per row of --by DIM[,DIM...] (default run,queue,slept): n, moved, kept,
now, late, and now per 1000 kept; with --vs, each group of traces after it beside the first.

Usage: irq_protect.py [--from irq|own|other] [--by DIM,...] [--prompt US]
                      [--skip PREFIX,...] [--named] TRACE... [--vs TRACE...]...
  TRACE: an ftrace text file (plain or .xz) in the directory of its run's rt-app logs: a
  recording's real.trace.xz or the model's sim.trace (validate --sim-out).
Exit 2 on bad input (an unreadable trace, a malformed sched line, an unknown dimension or
source, a trace without a sched_switch).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ftrace_lines import IRQ_FLAGS, SW, WAKE, opener, parse, reason, uncommented  # noqa: E402

NEXT_PRIO = re.compile(r"next_prio=(\d+)")
MIGRATE = re.compile(r"pid=(\d+) .*orig_cpu=(\d+) dest_cpu=(\d+)")
IRQ_LINES = ("hrtimer_expire_entry", "irq_handler_entry", "softirq_entry")
RUN_BINS = (250, 500, 1500, 4000)
SLEEP_BINS = (1, 4, 16)
DIMS = ("run", "woke", "queue", "slept", "in", "sleep", "nice", "pair")


def die(msg, code=2):
    sys.stderr.write("irq_protect.py: %s\n" % msg)
    sys.exit(code)


def binned(x, bins, unit):
    lo = 0
    for b in bins:
        if x < b:
            return "%s-%s %s" % (lo, b, unit)
        lo = b
    return "%s+ %s" % (lo, unit)


def file_names(path):
    """the log names of the rt-app threads beside a trace (rt-app writes BASE-NAME-N.log for
    each; validate keeps them in both the real run's and the simulated side's directory)"""
    d = os.path.dirname(path) or "."
    try:
        return [re.sub(r"-\d+\.log$", "", f) for f in os.listdir(d) if f.endswith(".log")]
    except OSError as e:
        die("%s: cannot list: %s" % (d, e))


def is_file_task(name, logs):
    """a thread of the rt-app file (named by its log, or "rt-app": one rt-app did not name); a
    name of 15 characters may be a longer one cut to the kernel's TASK_COMM_LEN"""
    if name == "rt-app":
        return True
    for x in logs:
        for i, ch in enumerate(x):
            if ch == "-" and (x[i + 1:] == name or len(name) == 15 and
                              x[i + 1:i + 16] == name):
                return True
    return False


def wakeups(path, skip):
    """[(features dict, kept, now, late)] of one trace's interrupt wake-ups onto a busy A"""
    logs = file_names(path)
    curr, since, inby, prio, woke = {}, {}, {}, {}, {}
    filep = set()  # the pids of the file's threads
    queued = {}  # cpu: set of runnable pids not running
    comm = {0: "idle"}
    slept = {}  # pid: (time it slept, its queue then)
    irq, migr, pend, out = {}, {}, {}, []
    seen = False
    try:
        lines = list(opener(path))
    except (OSError, EOFError, ValueError) as e:
        die("%s: cannot read: %s" % (path, reason(path, e)))
    for n, (_, tpid, cpu, flags, ts, _, ev, args) in parse(uncommented(lines)):
        t = float(ts) * 1e6
        if ev != "sched_switch" and curr.get(cpu, tpid) != tpid:
            # a recording leaves out some switches of tasks outside the file: the line's
            # task is the one running there, since an unknown time
            curr[cpu], since[cpu], inby[cpu] = tpid, None, "?"
            for qq in queued.values():
                qq.discard(tpid)
        if ev in IRQ_LINES:
            irq[cpu] = ts
        elif ev == "sched_migrate_task":
            g = MIGRATE.search(args)
            if not g:
                die("%s:%d: a sched_migrate_task without pid/orig_cpu/dest_cpu" % (path, n))
            pid, a, b = int(g.group(1)), int(g.group(2)), int(g.group(3))
            migr[pid] = (ts, a, b)
            if pid in queued.get(a, ()):
                queued[a].discard(pid)
                queued.setdefault(b, set()).add(pid)
        elif ev == "sched_wakeup":
            w = WAKE.search(args)
            if not w:
                die("%s:%d: a sched_wakeup without comm/pid/prio/target_cpu" % (path, n))
            pid, tgt = int(w.group(2)), int(w.group(4))
            if is_file_task(w.group(1), logs):
                filep.add(pid)
            if curr.get(tgt) != pid and pid in filep:
                for q in queued.values():
                    q.discard(pid)
                queued.setdefault(tgt, set()).add(pid)
        elif ev == "sched_switch":
            s = SW.search(args)
            if not s:
                die("%s:%d: a sched_switch without prev_pid/prev_state/next_comm/next_pid" %
                    (path, n))
            seen = True
            prev, state, ncomm, nxt = int(s.group(1)), s.group(2), s.group(3), int(s.group(4))
            np = NEXT_PRIO.search(args)
            if np and nxt:
                prio[nxt] = int(np.group(1))
            if nxt and ncomm != "rt-app":
                comm[nxt] = ncomm
            if nxt and is_file_task(ncomm, logs):
                filep.add(nxt)
            # only the file's threads share the wakee's group runqueue (one autogroup): a
            # task outside it neither moves the group's V nor competes at that level
            q = queued.setdefault(cpu, set())
            if prev:
                if state.startswith("R"):
                    if prev in filep:
                        q.add(prev)
                else:
                    q.discard(prev)
                    # its lag is 0 if it left alone (V was its own vruntime); the task being
                    # switched in was queued beside it
                    slept[prev] = (t, "alone" if not q else "others")
            for qq in queued.values():
                qq.discard(nxt)
            inby[cpu] = ("idle" if not prev else
                         "preempt" if state.startswith("R") else "block")
            curr[cpu], since[cpu] = nxt, t
            for pid, w in list(pend.items()):
                if pid == nxt:
                    kept = cpu == w["a"]
                    now = kept and prev == w["curr"] and state.startswith("R") and \
                        t - w["t"] <= w["prompt"]
                    late = kept and not now and state.startswith("R") and \
                        not w["switched"]
                    out.append((w["f"], kept, now, late))
                    del pend[pid]
                elif cpu == w["a"]:
                    w["switched"] = True
        elif ev == "sched_waking":
            w = WAKE.search(args)
            if not w:
                die("%s:%d: a sched_waking without comm/pid/prio/target_cpu" % (path, n))
            pid, target = int(w.group(2)), int(w.group(4))
            mig = migr.get(pid)
            if mig and mig[0] == ts and mig[2] == target:
                target = mig[1]  # the model's trace: the move, then the waking on the new CPU
            if w.group(1) != "rt-app":
                comm[pid] = w.group(1)
            if is_file_task(w.group(1), logs):
                filep.add(pid)
            prio[pid] = int(w.group(3))
            woke[pid] = t
            if pid in pend or pid in curr.values() or target not in curr:
                continue
            isirq = flags[2:3] in IRQ_FLAGS or tpid == 0 or irq.get(cpu) == ts
            frm = ("irq" if cpu == target else "irq-other") if isirq else (
                "own" if cpu == target else "other")
            if frm != FROM[0] or not curr[target]:
                continue
            c = curr[target]
            name, cname = comm.get(pid, str(pid)), comm.get(c, str(c))
            if any(x and (name.startswith(x) or cname.startswith(x)) for x in skip):
                continue
            if NAMED[0] and not (comm.get(pid) and comm.get(c)):
                continue
            if pid not in filep or c not in filep:
                continue
            others = queued.get(target, set()) - {pid, c}
            sl = slept.get(pid)
            st = since.get(target)
            cw = woke.get(c)
            f = {"run": binned(t - st, RUN_BINS, "us") if st is not None else "?",
                 "woke": binned(t - cw, RUN_BINS, "us") if cw is not None else "?",
                 "queue": "alone" if not others else "others",
                 "slept": sl[1] if sl else "?",
                 "in": inby.get(target, "?"),
                 "sleep": binned((t - sl[0]) / 1000, SLEEP_BINS, "ms") if sl else "?",
                 "pair": "%s on %s" % (name, cname),
                 "nice": ("?" if c not in prio else "heavier" if prio[pid] < prio[c] else
                          "same" if prio[pid] == prio[c] else "lighter")}
            pend[pid] = {"t": t, "a": target, "curr": c, "f": f, "switched": False,
                         "prompt": PROMPT[0]}
    if not seen:
        die("%s: no sched_switch line (an ftrace text trace with sched_switch and "
            "sched_waking expected)" % path)
    return out


PROMPT = [100.0]
FROM = ["irq"]
NAMED = [False]


def order(x):
    """sort key of a row part: bins by their lower bound, then names"""
    m = re.match(r"(\d+)", x)
    return (0, int(m.group(1)), x) if m else (1, 0, x)


def main(argv):
    dims, skip, groups, cur = ["run", "queue", "slept"], ["kworker"], [], None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--by", "--prompt", "--skip", "--from"):
            if i + 1 >= len(argv):
                die("%s needs a value" % a)
            v = argv[i + 1]
            if a == "--by":
                dims = v.split(",")
                for d in dims:
                    if d not in DIMS:
                        die("--by: %r is not one of %s" % (d, ", ".join(DIMS)))
            elif a == "--prompt":
                try:
                    PROMPT[0] = float(v)
                except ValueError:
                    die("--prompt: %r is not a number of us" % v)
            elif a == "--from":
                if v not in ("irq", "own", "other"):
                    die("--from: %r is not irq, own or other" % v)
                FROM[0] = v
            else:
                skip = v.split(",")
            i += 2
            continue
        if a == "--named":
            NAMED[0] = True
        elif a == "--vs":
            cur = None
        elif a.startswith("-"):
            die("unknown option %r (usage: irq_protect.py [--by DIM,...] [--prompt US] "
                "[--skip PREFIX,...] [--named] TRACE... [--vs TRACE...]...)" % a)
        else:
            if cur is None:
                cur = []
                groups.append(cur)
            cur.append(a)
        i += 1
    if not groups:
        die("no trace given")
    tabs = []
    for g in groups:
        d = {}
        for p in g:
            for f, kept, now, late in wakeups(p, skip):
                e = d.setdefault(tuple(f[x] for x in dims), [0, 0, 0, 0, 0])
                e[0] += 1
                e[1] += not kept
                e[2] += kept
                e[3] += now
                e[4] += late
        tabs.append(d)
    keys = sorted(set().union(*tabs), key=lambda k: [order(x) for x in k])
    print("wake-ups from %s onto a busy A, by %s: n moved kept now late, now per 1000 kept "
          "(groups of traces side by side)" % (FROM[0], ",".join(dims)))
    for k in keys + ["all"]:
        cells = []
        for d in tabs:
            e = ([sum(x[j] for x in d.values()) for j in range(5)] if k == "all" else
                 d.get(k, [0] * 5))
            cells.append("%5d %4d %5d %5d %4d %5s" % (
                e[0], e[1], e[2], e[3], e[4], ("%d" % (1000 * e[3] // e[2])) if e[2] else "-"))
        label = "all" if k == "all" else " | ".join(k)
        print("%-40s %s" % (label[:40], "   ".join(cells)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
