#!/usr/bin/env python3
"""The machine's background in ftrace text, split in two (docs/validate.md, "The background,
interrupts against tasks (issue 28, step 14)"), per CPU:

- interrupt-only idle exits: a cpu_idle exit (state=4294967295) followed by the CPU's next
  cpu_idle entry with no sched_switch on that CPU in between (a timer, an IPI, a virtio
  completion handled in interrupt context, nothing to run). An exit for a task's wake-up is
  followed by a switch and does not count. Counted per second of the CPU's idle time (closed
  idle periods: entry to exit), as only an idle CPU shows them; their length is exit to the
  next entry (the guest's time out of idle for the interrupt). Those whose exit line has
  need_resched set (flags dN) are counted apart as well. In a recording of
  tools/validate_record_set.sh these are mostly not interrupts: the recordings keep only
  cpu_idle and the lines naming the file's threads, so a foreign task that ran on the idle
  CPU and switched back to idle leaves no line (docs/validate.md, "The background's shape
  (issue 28, step 16)": the exits without the flag, 2.6 us each, are the interrupt-only ones;
  tools/foreign_runs.py reads such traces as kept). On a full trace (calibrate's) the split
  holds as described.
- background task switch-ins: switches to a task of the machine's own, per second of the
  trace, and each one's run (switch-in to its switch-out on that CPU).
  The machine's own tasks are kernel threads (a name with a '/': kworker/1:1, ksoftirqd/0,
  migration/0; or rcu_*, kcompactd*, kdamond*, kswapd*, khugepaged, ksmd, oom_reaper) and the
  guest agent's tokio-rt-worker threads. The workload's (the rt-app JSON's task names, rt-app
  itself), the idle task, the recording harness's commands (bash, python3, grep, rm, sleep,
  trace-cmd, the agent process memfd:sealed-* that runs them...) and other people's work on
  the machine (apt-get, dpkg, mandb...) are not background: the model's background is the
  machine's steady activity, present in every run. The others are listed by name.

The recordings hold cpu_idle lines for 4-20 s before the sched_ lines start (the harness
turns the events on one by one): without sched_switch there, every exit would look
interrupt-only. The window read is the first sched_ line to the last line; an idle period or
an exit is counted only when it starts inside it.

Usage: irq_background.py [--json] [--workload FILE.json | --tasks NAME,...] TRACE...
  TRACE        ftrace text (plain or .xz); the workload's task names come from the one *.json
               beside it unless --workload or --tasks gives them
  --json       one JSON object instead of the table

The pooled figures (counts over all traces per CPU, then the mean of the CPUs: a rate over
those that idle, a length over those that have one) are printed as machine.conf lines: param irq_bg_rate / irq_bg_run, background_rate / background_run.
Exit status 2 on bad input (a file that cannot be read, no cpu_idle line, no workload JSON).
"""
import glob
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ftrace_lines import LINE, SW, opener, reason, stamp  # noqa: E402
from rtapp_json import BadInput, NamesOption, is_thread, task_names  # noqa: E402

IDLE_EXIT = 4294967295
STATE = re.compile(r"state=(\d+)")
KTHREAD = re.compile(r"^(kworker|rcu_|kcompactd|kdamond|kswapd|khugepaged|ksmd|oom_reaper|kauditd)")
AGENT = {"tokio-rt-worker"}


def is_background(comm):
    return "/" in comm and not comm.startswith("swapper/") or bool(
        KTHREAD.match(comm)) or comm in AGENT


def measure(path, names):
    """{cpu: dict(idle_ns, exits=[ns...], bg=[run ns...])}, the trace's length (ns) and
    {other task name: switch-ins}"""
    cpus = {}
    others = {}
    first = last = None
    try:
        for line in opener(path):
            m = LINE.match(line)
            if m and m.group(6).startswith("sched_"):
                first = stamp(m.group(5))
                break
        if first is None:
            raise BadInput(f"{path}: expected sched_switch lines, found no sched_ line")
        for line in opener(path):
            m = LINE.match(line)
            if not m:
                continue
            cpu, t, ev, rest = int(m.group(3)), stamp(m.group(5)), m.group(6), m.group(7)
            if t < first:
                continue
            last = t
            c = cpus.setdefault(cpu, dict(idle_ns=0, exits=[], resched=[], bg=[], entry=None,
                                          exit=None, exit_n=False, bg_in=None))
            if ev == "cpu_idle":
                s = STATE.search(rest)
                if not s:
                    raise BadInput(f"{path}: line '{line.strip()}': expected state=N")
                if int(s.group(1)) == IDLE_EXIT:
                    if c["entry"] is not None:
                        c["idle_ns"] += t - c["entry"]
                        c["exit"] = t
                        c["exit_n"] = "N" in m.group(4)
                    c["entry"] = None
                else:
                    if c["exit"] is not None:
                        c["exits"].append(t - c["exit"])
                        if c["exit_n"]:
                            c["resched"].append(t - c["exit"])
                    c["exit"] = None
                    c["entry"] = t
            elif ev == "sched_switch":
                w = SW.search(rest)
                if not w:
                    raise BadInput(f"{path}: line '{line.strip()}': expected sched_switch's "
                                   "prev_pid, prev_state, next_comm, next_pid")
                c["exit"] = None
                if c["bg_in"] is not None and int(w.group(1)) == c["bg_in"][0]:
                    c["bg"].append(t - c["bg_in"][1])
                c["bg_in"] = None
                comm = w.group(3)
                if comm.startswith("swapper/") or is_thread(comm, names):
                    continue
                if is_background(comm):
                    c["bg_in"] = (int(w.group(4)), t)
                else:
                    others[comm] = others.get(comm, 0) + 1
    except OSError as e:
        raise BadInput(f"{path}: cannot read: {e.strerror or reason(path, e)}")
    except EOFError:
        raise BadInput(f"{path}: truncated")
    if not any(c["idle_ns"] for c in cpus.values()):
        raise BadInput(f"{path}: expected cpu_idle lines (entry and exit), found no idle period")
    # a switch-in still running at the end counts as a switch-in (its run is open)
    for c in cpus.values():
        if c["bg_in"] is not None:
            c["bg"].append(None)
    return cpus, last - first, others


def summary(exits, idle_ns, bg, span_ns, resched):
    runs = [r for r in bg if r is not None]
    return dict(
        resched_exits=len(resched),
        resched_median_us=statistics.median(resched) / 1e3 if resched else 0.0,
        resched_mean_us=statistics.mean(resched) / 1e3 if resched else 0.0,
        idle_s=idle_ns / 1e9, irq_exits=len(exits),
        irq_per_idle_s=len(exits) / (idle_ns / 1e9) if idle_ns else 0.0,
        irq_median_us=statistics.median(exits) / 1e3 if exits else 0.0,
        irq_mean_us=statistics.mean(exits) / 1e3 if exits else 0.0,
        trace_s=span_ns / 1e9, bg_switch_ins=len(bg),
        bg_per_s=len(bg) / (span_ns / 1e9) if span_ns else 0.0,
        bg_median_us=statistics.median(runs) / 1e3 if runs else 0.0,
        bg_mean_us=statistics.mean(runs) / 1e3 if runs else 0.0)


def main(argv):
    as_json, given, traces = False, NamesOption(), []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--json":
            as_json = True
        elif a in NamesOption.FLAGS:
            i = given.take(argv, i)
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        elif a.startswith("-"):
            raise BadInput(f"unknown option '{a}' (valid: --json --workload --tasks)")
        else:
            traces.append(a)
        i += 1
    if not traces:
        raise BadInput("expected one or more traces (irq_background.py --help)")
    fixed = given.names()
    rows, pooled, others = [], {}, {}
    for path in traces:
        names = fixed
        if names is None:
            js = glob.glob(os.path.join(os.path.dirname(path) or ".", "*.json"))
            if len(js) != 1:
                raise BadInput(f"{path}: expected one rt-app *.json beside it (found "
                               f"{len(js)}); give --workload FILE.json or --tasks NAME,...")
            names = task_names(js[0])
        cpus, span, oth = measure(path, names)
        for k, v in oth.items():
            others[k] = others.get(k, 0) + v
        for cpu in sorted(cpus):
            c = cpus[cpu]
            rows.append(dict(trace=path, cpu=cpu, **summary(c["exits"], c["idle_ns"], c["bg"],
                                                            span, c["resched"])))
            p = pooled.setdefault(cpu, dict(exits=[], idle_ns=0, bg=[], span=0, resched=[]))
            p["exits"] += c["exits"]
            p["resched"] += c["resched"]
            p["idle_ns"] += c["idle_ns"]
            p["bg"] += c["bg"]
            p["span"] += span
    pool = [dict(cpu=cpu, **summary(p["exits"], p["idle_ns"], p["bg"], p["span"], p["resched"]))
            for cpu, p in sorted(pooled.items())]
    # a run's mean over the CPUs that have one (a CPU with no such exit has no length)
    def mean_of(key, count):
        have = [p[key] for p in pool if p[count]]
        return round(sum(have) / len(have) * 1e3) if have else 0

    idle = [p["irq_per_idle_s"] for p in pool if p["idle_s"]]
    conf = dict(irq_bg_rate=round(sum(idle) / len(idle)),
                irq_bg_run_ns=mean_of("irq_mean_us", "irq_exits"),
                background_rate=round(sum(p["bg_per_s"] for p in pool) / len(pool)),
                background_run_ns=mean_of("bg_mean_us", "bg_switch_ins"))
    if as_json:
        print(json.dumps(dict(traces=rows, pooled=pool, machine_conf=conf, others=others),
                         indent=1, sort_keys=True))
        return 0
    print("interrupt-only idle exits (per second of idle) and background task switch-ins "
          "(per second of trace)")
    print(f"{'trace':40} {'cpu':>3} {'idle s':>7} {'irq/s':>7} {'med us':>7} {'mean us':>7} "
          f"{'bg/s':>6} {'med us':>7} {'mean us':>7}")
    for r in rows + [dict(trace="pooled", **p) for p in pool]:
        name = r["trace"] if len(r["trace"]) <= 40 else "..." + r["trace"][-37:]
        print(f"{name:40} {r['cpu']:>3} {r['idle_s']:7.2f} {r['irq_per_idle_s']:7.1f} "
              f"{r['irq_median_us']:7.1f} {r['irq_mean_us']:7.1f} {r['bg_per_s']:6.2f} "
              f"{r['bg_median_us']:7.1f} {r['bg_mean_us']:7.1f}")
    for p in pool:
        print(f"cpu {p['cpu']}: of {p['irq_exits']} interrupt-only exits {p['resched_exits']} had "
              f"need_resched set (N: the idle task scheduled and picked itself again), median "
              f"{p['resched_median_us']:.1f} us, mean {p['resched_mean_us']:.1f} us")
    if others:
        print("not background (workload's harness, others' work), switch-ins: " + ", ".join(
            f"{k} {v}" for k, v in sorted(others.items(), key=lambda kv: (-kv[1], kv[0]))))
    print("machine.conf (the mean of the CPUs' pooled figures):")
    print(f"param irq_bg_rate={conf['irq_bg_rate']}")
    print(f"param irq_bg_run={conf['irq_bg_run_ns']}ns")
    print(f"background_rate {conf['background_rate']}")
    print(f"background_run {conf['background_run_ns']}ns")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BadInput as e:
        print(f"irq_background.py: {e}", file=sys.stderr)
        sys.exit(2)
    except BrokenPipeError:
        sys.exit(1)
