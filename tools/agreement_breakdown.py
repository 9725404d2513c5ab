#!/usr/bin/env python3
"""Where the model disagrees with repeated real rt-app recordings, and in which direction.

Issue 28 (docs/validate.md, "The disagreements, broken down"): tools/validate_agreement.sh
counts the figures (run mean, period mean, wake-up latency p50 and p95, switches/s) on which
the model agrees with each recording; this says which ones it misses, over several seeds:

  1. per figure: the model's misses per seed (mean), how many of them are model-high and
     model-low, the median model-real of the misses, beside the floor's misses (every ordered
     pair of recordings, scaled to the model's count);
  2. per file and figure: the same misses, model-high/model-low;
  3. per thread kind: a thread's kind is how its wake-ups reach it in the real traces, the
     class holding 60% or more of them (else "mixed"; "rare" under 2 wake-ups/s):
       timer-idle   its own idle vCPU's interrupt wakes it (a timer, a sleep's end)
       remote-idle  a task on the other vCPU wakes it onto an idle vCPU (IPI to a halted vCPU)
       waker-cpu    a task wakes it onto the task's own vCPU (it waits for or preempts the
                    waker)
       busy         it is woken onto a vCPU that runs another task
  4. the wake-up latency per class (p50, p95 in us, and wake-ups/s), real (all recordings)
     beside the model (its own trace, validate --sim-out: seed 1), per file: why p50/p95 miss;
  5. per task, its wake-ups per second and the share of each class, real beside the model:
     where the model sends the task's wake-ups elsewhere than the kernel does;
  6. the cells missed most often: file, task, figure, the real values and the model's;
  7. the model's own spread (two seeds or more): each seed against each other one, beside
     the model against the recordings and the floor, per figure; then the figures whose
     seeds disagree more often than the recordings do (noisier than the machine).

Usage: agreement_breakdown.py -c CALDIR -R SETDIR [-S 1-10] [-s schedlab] NAME...
       agreement_breakdown.py --from VERBOSE... -R SETDIR [--sim SIMDIR] [NAME...]
  NAME...  the files to break down (e.g. the calibration half); -S the seeds (N or N-M);
  the first runs `sh tools/validate_agreement.sh -v` once per seed (the first seed keeps the
  model's traces, -K); --from takes such -v outputs saved earlier (one per seed), --sim a -K directory.
Exit 2 on bad input (a missing set, a file without recordings), 1 if the script it runs fails.
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile

from ftrace_lines import IRQ_ENTRY, IRQ_FLAGS, WAKE, opener, parse, uncommented

KINDS = ["run_mean", "period_mean", "wakeup_p50", "wakeup_p95", "switches"]
CLASSES = ["timer-idle", "remote-idle", "waker-cpu", "busy"]
NOISY = 50  # section 7 lists the figures whose seeds miss each other this much more (per 1000)
SW = re.compile(r"prev_comm=(.*) prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(.*) "
                r"next_pid=(\d+)")


def die(msg, code=2):
    sys.stderr.write("agreement_breakdown.py: %s\n" % msg)
    sys.exit(code)


def agree(kind, real, x):
    """validate_agreement.sh's tolerances (issue 21)."""
    d = abs(x - real)
    if kind == "run_mean":
        return d <= 0.15 * abs(real)
    if kind == "period_mean":
        return d <= 0.10 * abs(real)
    if kind == "switches":
        return d <= 0.25 * abs(real)
    return d <= 0.5 * abs(real) or d <= 20


def read_verbose(path):
    """rows (file, task, kind, rep, real, model) of one `validate_agreement.sh -v -R` output"""
    rows = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) == 8 and p[5] == "model" and p[2] in KINDS:
                rows.append((p[0], p[1], p[2], p[3], float(p[4]), float(p[6])))
    if not rows:
        die("%s: no figure lines (the output of validate_agreement.sh -v -R)" % path)
    return rows


def wake_classes(path, tasks):
    """{comm: {class: [latency us...]}} of the tasks named (comms, 15 characters) in one
    trace, and the time (s) from their first wake-up or switch to their last

    A wake-up is sched_waking of a task not pending already, to its next switch-in; its class
    comes from what runs on the target CPU at the waking (the switches, not cpu_idle, so that
    the model's traces, which write the idle exit before the timer's waking, read as the real
    ones) and from where the waking runs."""
    curr, pend, comm, out, irq = {}, {}, {}, {}, {}
    t0 = t1 = None
    for _, (_, tpid, cpu, flags, ts, _, ev, args) in parse(uncommented(opener(path))):
        t = float(ts) * 1e6
        if ev in IRQ_ENTRY:
            irq[cpu] = ts  # the model's traces: the interrupt's line, then its waking
        elif ev == "sched_switch":
            s = SW.search(args)
            if not s:
                continue
            prev, pcomm, nxt = int(s.group(2)), s.group(1), int(s.group(5))
            if prev and pcomm != "rt-app":
                comm[prev] = pcomm
            curr[cpu] = nxt
            if comm.get(prev) in tasks or comm.get(nxt) in tasks:
                t0 = t if t0 is None else t0
                t1 = t
            w = pend.pop(nxt, None)
            if w and comm.get(nxt) in tasks:
                out.setdefault(comm[nxt], {}).setdefault(w[1], []).append(t - w[0])
        elif ev == "sched_waking":
            w = WAKE.search(args)
            if not w:
                continue
            pid, target = int(w.group(2)), int(w.group(4))
            comm[pid] = w.group(1)
            if comm[pid] in tasks:
                t0 = t if t0 is None else t0
                t1 = t
            if pid in pend or target not in curr or cpu not in curr or pid in curr.values():
                continue
            if curr[target] == 0:
                cls = "timer-idle" if cpu == target else "remote-idle"
            elif (cpu == target and tpid and curr[cpu] == tpid and
                  flags[2:3] not in IRQ_FLAGS and irq.get(cpu) != ts):
                cls = "waker-cpu"
            else:
                cls = "busy"
            pend[pid] = (t, cls)
    return out, ((t1 - t0) / 1e6 if t0 is not None else 0.0)


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q / 100.0 * len(v)))] if v else float("nan")


def merge(dst, src):
    for c, d in src.items():
        for k, v in d.items():
            dst.setdefault(c, {}).setdefault(k, []).extend(v)


def thread_kind(classes, secs):
    n = sum(len(v) for v in classes.values())
    if secs <= 0 or n / secs < 2:
        return "rare"
    for c in CLASSES:
        if len(classes.get(c, [])) >= 0.6 * n:
            return c
    return "mixed"


def real_traces(setdir, name):
    tr = []
    for r in sorted(os.listdir(setdir)):
        d = os.path.join(setdir, r, name)
        if r.startswith("r") and os.path.isfile(os.path.join(d, "uptime")):
            for f in sorted(os.listdir(d)):
                if f.endswith((".trace", ".trace.xz")):
                    tr.append(os.path.join(d, f))
                    break
    return tr


def main(argv):
    cal = "machines/fc-2vcpu-r28"
    setdir = sl = simdir = None
    seeds, frm, names = [1], [], []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-c", "-R", "-S", "-s", "--sim") and i + 1 < len(argv):
            v = argv[i + 1]
            i += 2
            if a == "-c":
                cal = v
            elif a == "-R":
                setdir = v
            elif a == "-s":
                sl = v
            elif a == "--sim":
                simdir = v
            else:
                m = re.fullmatch(r"(\d+)(?:-(\d+))?", v)
                if not m:
                    die("-S %s: expected N or N-M" % v)
                seeds = list(range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1))
            continue
        if a == "--from":
            i += 1
            while i < len(argv) and not argv[i].startswith("-"):
                frm.append(argv[i])
                i += 1
            continue
        if a.startswith("-"):
            die("unknown option %s (see the usage in the script's first lines)" % a)
        names.append(a)
        i += 1
    if not setdir or not os.path.isdir(os.path.join(setdir, "r1")):
        die("-R SETDIR: give a set of repeated recordings (SETDIR/r1, r2, ...)")
    tmp = None
    frm_given = bool(frm)
    if not frm:
        if not names:
            die("give the files to break down (NAME...)")
        tmp = tempfile.mkdtemp(prefix="agreement-breakdown-")
        simdir = os.path.join(tmp, "sim")
        here = os.path.dirname(os.path.abspath(__file__))
        for s in seeds:
            cmd = ["sh", os.path.join(here, "validate_agreement.sh"), "-v", "-S", str(s),
                   "-c", cal, "-R", setdir]
            if sl:
                cmd += ["-s", sl]
            if s == seeds[0]:
                cmd += ["-K", simdir]
            out = os.path.join(tmp, "seed%d" % s)
            with open(out, "w") as f:
                if subprocess.call(cmd + names, stdout=f) != 0:
                    die("%s failed" % " ".join(cmd + names), 1)
            frm.append(out)
    per_seed = [read_verbose(p) for p in frm]
    if names:
        per_seed = [[r for r in rows if r[0] in names] for rows in per_seed]
        if not all(per_seed):
            die("none of %s in the figures given" % " ".join(names))
    files = sorted({r[0] for r in per_seed[0]})
    ns = float(len(per_seed))

    # thread kinds and per-class latencies from the real traces
    ftasks = {}
    for f, task, _, _, _, _ in per_seed[0]:
        ftasks.setdefault(f, set()).add(task[:15])
    kind, real_lat, secs_real = {}, {}, {}
    for f in files:
        tr = real_traces(setdir, f)
        if not tr:
            die("%s: no recording of %s" % (setdir, f))
        acc, secs = {}, 0.0
        for p in tr:
            o, s = wake_classes(p, ftasks[f])
            merge(acc, o)
            secs += s
        real_lat[f], secs_real[f] = acc, secs
        for c, d in acc.items():
            kind[(f, c[:15])] = thread_kind(d, secs)
    sim_lat = {}
    if simdir:
        for f in files:
            p = os.path.join(simdir, f, "sim.trace")
            if os.path.isfile(p):
                sim_lat[f] = wake_classes(p, ftasks[f])

    def tkind(f, task):
        return kind.get((f, task[:15]), "rare")

    # misses: (file, task, kind, rep) -> per seed (real, model, ok)
    miss = {}
    for rows in per_seed:
        for f, task, k, rep, real, model in rows:
            miss.setdefault((f, task, k, rep), []).append((real, model, agree(k, real, model)))
    # the floor: every ordered pair of recordings of a figure
    reals = {}
    for f, task, k, rep, real, _ in per_seed[0]:
        reals.setdefault((f, task, k), {})[rep] = real
    floor_n, floor_a = {}, {}
    for (f, task, k), rv in reals.items():
        for a in rv:
            for b in rv:
                if a != b:
                    for key in (k, (f, k), ("tk", tkind(f, task), k)):
                        floor_n[key] = floor_n.get(key, 0) + 1
                        floor_a[key] = floor_a.get(key, 0) + agree(k, rv[a], rv[b])

    def tally(sel):
        n = off = hi = 0
        diffs = []
        for key, v in miss.items():
            if not sel(key):
                continue
            for real, model, ok in v:
                n += 1
                if not ok:
                    off += 1
                    hi += model > real
                    diffs.append(model - real)
        return n / ns, off / ns, hi / ns, (off - hi) / ns, diffs

    def floor_off(key, n):
        if not floor_n.get(key):
            return float("nan")
        return n * (1 - floor_a[key] / floor_n[key])

    unit = {"run_mean": "us", "period_mean": "us", "wakeup_p50": "us", "wakeup_p95": "us",
            "switches": "/s"}
    print("Disagreements of the model (mean per seed over %d seed(s)) on: %s" %
          (len(per_seed), " ".join(files)))
    print()
    print("1. per figure")
    print("%-12s %7s %7s %7s %7s %7s %12s %12s" % ("figure", "of", "off", "high", "low",
                                                  "floor", "med high", "med low"))
    tot = [0.0, 0.0, 0.0]
    for k in KINDS:
        n, off, hi, lo, d = tally(lambda key, k=k: key[2] == k)
        dh = [x for x in d if x > 0]
        dl = [x for x in d if x < 0]
        print("%-12s %7.1f %7.1f %7.1f %7.1f %7.1f %9.0f %-2s %9.0f %-2s" % (
            k, n, off, hi, lo, floor_off(k, n), statistics.median(dh) if dh else 0, unit[k],
            statistics.median(dl) if dl else 0, unit[k]))
        tot[0] += n
        tot[1] += off
        tot[2] += floor_off(k, n)
    print("%-12s %7.1f %7.1f %23.1f" % ("all", tot[0], tot[1], tot[2]))
    print("(off: figures missed; high/low: the model above/below the recording; floor: the "
          "misses of one recording against another, scaled to the same count; med: the "
          "median model - real of the misses)")
    print()
    print("2. per file: misses per figure, model-high/model-low (floor's misses)")
    print("%-14s" % "file" + "".join("%-19s" % k for k in KINDS) + "all")
    for f in files:
        s = "%-14s" % f
        a = 0.0
        for k in KINDS:
            n, off, hi, lo, _ = tally(lambda key, f=f, k=k: key[0] == f and key[2] == k)
            s += "%-19s" % ("%.1f=%.1f/%.1f (%.1f)" % (off, hi, lo, floor_off((f, k), n)))
            a += off
        print(s + "%.1f" % a)
    print()
    print("3. per thread kind (its wake-ups in the real traces): misses per figure, "
          "model-high/model-low (floor's)")
    kinds_seen = sorted({tkind(f, t) for f, t, _, _ in miss})
    print("%-12s %6s " % ("kind", "tasks") + "".join("%-19s" % k for k in KINDS) + "all")
    for tk in kinds_seen:
        tasks = {(f, t) for f, t, _, _ in miss if tkind(f, t) == tk}
        s = "%-12s %6d " % (tk, len(tasks))
        a = 0.0
        for k in KINDS:
            n, off, hi, lo, _ = tally(lambda key, tk=tk, k=k: tkind(key[0], key[1]) == tk and
                                      key[2] == k)
            s += "%-19s" % ("%.1f=%.1f/%.1f (%.1f)" % (off, hi, lo,
                                                      floor_off(("tk", tk, k), n)))
            a += off
        print(s + "%.1f" % a)
    for tk in kinds_seen:
        print("  %-11s %s" % (tk, " ".join(sorted("%s:%s" % (f, t) for f, t in {
            (f, t) for f, t, _, _ in miss if tkind(f, t) == tk}))))
    print()
    print("4. wake-up latency by class: wake-ups/s, p50, p95 (us); real (%s) / model%s" %
          ("all recordings", " (seed %d, its own trace)" % seeds[0] if sim_lat and not frm_given
                                           else " (its own trace)" if sim_lat
                                           else ": not run"))
    print("%-14s %-12s %24s %24s %24s" % ("file", "class", "per s real/model",
                                         "p50 real/model", "p95 real/model"))
    for f in files:
        for c in CLASSES:
            rv = [x for d in real_lat[f].values() for x in d.get(c, [])]
            mv, msecs = [], 0.0
            if f in sim_lat:
                mv = [x for d in sim_lat[f][0].values() for x in d.get(c, [])]
                msecs = sim_lat[f][1]
            if not rv and not mv:
                continue
            print("%-14s %-12s %11.1f / %-10.1f %11.0f / %-10.0f %11.0f / %-10.0f" % (
                f, c, len(rv) / secs_real[f] if secs_real[f] else 0,
                len(mv) / msecs if msecs else 0, pct(rv, 50), pct(mv, 50), pct(rv, 95),
                pct(mv, 95)))
    print()
    print("5. per task: wake-ups/s and the share of each class (%s), real / model" %
          " ".join(CLASSES))
    for f in files:
        for c in sorted(ftasks[f]):
            rd = real_lat[f].get(c, {})
            md = sim_lat[f][0].get(c, {}) if f in sim_lat else {}
            rn = sum(len(v) for v in rd.values())
            mn = sum(len(v) for v in md.values())
            if not rn and not mn:
                continue
            print("%-14s %-16s %7.1f / %-7.1f %s / %s" % (
                f, c, rn / secs_real[f] if secs_real[f] else 0,
                mn / sim_lat[f][1] if f in sim_lat and sim_lat[f][1] else 0,
                " ".join("%3.0f" % (100.0 * len(rd.get(k, [])) / rn if rn else 0)
                         for k in CLASSES),
                " ".join("%3.0f" % (100.0 * len(md.get(k, [])) / mn if mn else 0)
                         for k in CLASSES)))
    print()
    print("6. the figures missed most often (of %d seed(s) x recordings)" % len(per_seed))
    cell = {}
    for (f, task, k, rep), v in miss.items():
        c = cell.setdefault((f, task, k), [0, 0, {}, []])
        c[0] += sum(1 for x in v if not x[2])
        c[1] += len(v)
        c[2][rep] = v[0][0]
        c[3].extend(x[1] for x in v)
    top = sorted(cell.items(), key=lambda kv: (-kv[1][0], kv[0]))
    print("%-14s %-18s %-12s %-6s %-11s %-26s %s" % ("file", "task", "figure", "off", "kind",
                                                     "real (each recording)", "model (median)"))
    for (f, task, k), (off, n, rv, mv) in top:
        if off == 0 or off * 4 < n:
            continue
        print("%-14s %-18s %-12s %2d/%-3d %-11s %-26s %.1f" % (
            f, task, k, off, n, tkind(f, task),
            " ".join("%.1f" % rv[r] for r in sorted(rv)), statistics.median(mv)))
    print()
    spread(per_seed, reals, miss)
    if tmp:
        subprocess.call(["rm", "-rf", tmp])
    return 0


def spread(per_seed, reals, miss):
    """7. the model against itself: each seed's figure against each other seed's, the first
    taken as the real one, as the floor takes one recording against another. A model whose
    seeds agree with each other less often than the recordings do is noisier than the
    machine; one that misses the recordings more often than both spreads allow is off it.
    miss: main's (file, task, figure, recording) -> [(real, model, agrees)], one a seed."""
    model = [{} for _ in per_seed]
    for i, rows in enumerate(per_seed):
        for f, task, k, _, _, m in rows:
            model[i].setdefault((f, task, k), m)
    keys = sorted(set(model[0]).intersection(*model[1:]))
    print("7. the model's own spread: each seed against each other seed (every ordered pair, "
          "the first as the real one), beside the model against the recordings and the "
          "floor; agreeing per cent")
    if len(per_seed) < 2:
        print("   (one seed: give two or more)")
        return
    mm, mr, rr = {}, {}, {}
    for key in keys:
        add_pairs(mm, key, [m[key] for m in model])
        add_pairs(rr, key, list(reals.get(key, {}).values()))
    for (f, task, k, _), v in miss.items():
        for _, _, ok in v:
            add(mr, (f, task, k), ok)
    print("%-12s %12s %12s %12s" % ("figure", "model/model", "model/real", "floor"))
    for k in KINDS + [None]:
        sel = [key for key in keys if k is None or key[2] == k]
        if sel:
            print("%-12s %12s %12s %12s" % (k or "all", rate(mm, sel), rate(mr, sel),
                                           rate(rr, sel)))
    noisy = []
    for key in keys:
        n, a = mm[key]
        fn, fa = rr.get(key, (0, 0))
        if fn:
            excess = 1000 * (n - a) // n - 1000 * (fn - fa) // fn
            if excess >= NOISY:
                noisy.append((excess, key))
    print("figures noisier in the model than on the machine: misses per 1000 ordered pairs of "
          "seeds and of recordings, the first %d or more above the second" % NOISY)
    print("%-14s %-18s %-12s %6s %6s %6s  %s | %s" % (
        "file", "task", "figure", "seeds", "recs", "excess", "model (each seed)",
        "real (each recording)"))
    for excess, key in sorted(noisy, key=lambda x: (-x[0], x[1])):
        n, a = mm[key]
        fn, fa = rr[key]
        print("%-14s %-18s %-12s %6d %6d %6d  %s | %s" % (
            key[0], key[1], key[2], 1000 * (n - a) // n, 1000 * (fn - fa) // fn, excess,
            " ".join("%.1f" % m[key] for m in model),
            " ".join("%.1f" % reals[key][r] for r in sorted(reals[key]))))


def add_pairs(tab, key, vals):
    """adds to tab[key] every ordered pair of vals, the first taken as the real one"""
    for a, x in enumerate(vals):
        for b, y in enumerate(vals):
            if a != b:
                add(tab, key, agree(key[2], x, y))


def add(tab, key, ok):
    n, a = tab.get(key, (0, 0))
    tab[key] = (n + 1, a + ok)


def rate(tab, keys):
    n = sum(tab[k][0] for k in keys if k in tab)
    a = sum(tab[k][1] for k in keys if k in tab)
    return "%.1f%%" % (100.0 * a / n) if n else "-"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
