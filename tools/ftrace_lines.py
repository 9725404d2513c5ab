"""The ftrace text lines the tools read (tools/wake_*.py, pair_flips.py, idle_kick.py,
sis_util.py, run_stretch.py, ...), in one place: a line's columns, sched_switch's and
sched_waking's fields, a trace opened as text whether it is plain or .xz, its lines parsed
(parse, uncommented, records, numbered, switch; sched_lines, a trace loop's lines with the
interrupt entries marked and the switches read), whether a waking comes from a task or an
interrupt (task_waking), the tasks whose later lines were lost (last_named), and an error's
text without the file's path (reason) for a tool's message that names the file itself.

records(path) is the reader: each line's fields, its time in ns, the 2-CPU check. A tool that
reports "PATH:N:" errors reads numbered(path), or parse(lines) over lines it read itself, with
uncommented() where it skips ftrace's "#" lines.

LINE groups: comm, pid, cpu, flags, timestamp (s.frac), event, the event's fields.
SW groups: prev_pid, prev_state, next_comm, next_pid.
WAKE groups: comm, pid, prio, target_cpu.
"""
import lzma
import os
import re

LINE = re.compile(r"^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+(\d+\.\d+):\s+(\w+):\s(.*)$")
SW = re.compile(r"prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(.*) next_pid=(\d+)")
WAKE = re.compile(r"comm=(.*) pid=(\d+) prio=(\d+) target_cpu=(\d+)")


class _Xz:
    """an .xz trace's lines; a cut or corrupt stream is an OSError naming the file (every tool
    catches OSError and exits 2), not lzma's EOFError or LZMAError without the path"""

    def __init__(self, path):
        self.path, self.f = path, lzma.open(path, "rt", errors="replace")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()
        return False

    def __iter__(self):
        try:
            yield from self.f
        except (EOFError, lzma.LZMAError) as e:
            raise OSError(f"{self.path}: a cut or corrupt .xz file ({e})") from None

    def read(self, *n):
        try:
            return self.f.read(*n)
        except (EOFError, lzma.LZMAError) as e:
            raise OSError(f"{self.path}: a cut or corrupt .xz file ({e})") from None

    def close(self):
        self.f.close()


def reason(path, e):
    """what the error e says of the file at path, without the path: a tool's "PATH: ..." or
    "PATH: cannot read: ..." message then names it once, whether e is the opener's own (a cut
    .xz file: "PATH: a cut or corrupt .xz file (...)") or Python's"""
    msg = str(e)
    return msg[len(path) + 2:] if msg.startswith(f"{path}: ") else msg


def opener(path):
    """the trace at path as text lines, undecodable bytes replaced"""
    return _Xz(path) if path.endswith(".xz") else open(path, errors="replace")


PIDS = re.compile(r"pid=(\d+)")

# a line written in interrupt context: the flags' third column (hardirq, both, softirq)
IRQ_FLAGS = ("h", "H", "s")
# the lines that open an interrupt's handling on a CPU (a timer's or a device's)
IRQ_ENTRY = ("hrtimer_expire_entry", "irq_handler_entry")


class WideTrace(ValueError):
    """a line of a CPU above a tool's max_cpu; column: its CPU as the line writes it ("002")"""

    def __init__(self, message, column):
        super().__init__(message)
        self.column = column


def parse(lines, max_cpu=None, where=""):
    """(n, record) of each of the text lines that LINE reads, n the line's number from 1 and
    record as records() gives it. With max_cpu, a line of a higher CPU is a ValueError
    (a WideTrace: where, then "CPU N: the tool reads 2-CPU traces" for max_cpu 1)."""
    for n, line in enumerate(lines, 1):
        m = LINE.match(line)
        if not m:
            continue
        comm, pid, column, flags, ts, event, rest = m.groups()
        cpu = int(column)
        if max_cpu is not None and cpu > max_cpu:
            raise WideTrace(f"{where}CPU {cpu}: the tool reads {max_cpu + 1}-CPU traces", column)
        yield n, (comm, int(pid), cpu, flags, ts, stamp(ts), event, rest)


def uncommented(lines):
    """the text lines with each "#" comment line (ftrace's header) blanked: parse() then reads
    none of them and numbers the others as in the file"""
    return ("" if line.startswith("#") else line for line in lines)


def records(path, max_cpu=None, where=""):
    """each line of the trace at path that LINE reads, as (comm, pid, cpu, flags, ts, t, event,
    fields): pid and cpu ints, ts the timestamp's text, t the same in ns. With max_cpu, a line
    of a higher CPU is a ValueError ("CPU N: the tool reads 2-CPU traces" for max_cpu 1, after
    where: a tool's own prefix, as "PATH: ")."""
    with opener(path) as f:
        for _, rec in parse(f, max_cpu, where):
            yield rec


def numbered(path, max_cpu=None, where=""):
    """records(path) with each line's number: (n, record), for a tool's "PATH:N: ..." errors"""
    with opener(path) as f:
        yield from parse(f, max_cpu, where)


def switch(fields):
    """sched_switch's fields as (prev_pid, prev_state, next_comm, next_pid), or None"""
    s = SW.search(fields)
    return (int(s.group(1)), s.group(2), s.group(3), int(s.group(4))) if s else None


def sched_lines(recs, mark):
    """(record, sw) of each of recs (records()' tuples) a tool's trace loop reads, sw a
    sched_switch line's switch() (None on any other line): an interrupt's entry line (IRQ_ENTRY)
    is not given but marks its CPU (mark: cpu -> its timestamp text, task_waking's), and a
    sched_switch line whose fields do not read is passed over"""
    for rec in recs:
        ev = rec[6]
        if ev in IRQ_ENTRY:
            mark[rec[2]] = rec[4]
        elif ev != "sched_switch":
            yield rec, None
        else:
            s = switch(rec[7])
            if s:
                yield rec, s


class NoTrace(ValueError):
    """a directory given for a trace holds none of the names looked for"""


def trace_of(arg, names):
    """the trace file of an argument: the argument itself, or the first of names (e.g.
    real.trace.xz, real.trace; sim.trace) in it when it is a directory (a `validate --out` or
    `--sim-out` one); NoTrace naming the directory when it holds none of them"""
    if not os.path.isdir(arg):
        return arg
    for n in names:
        p = os.path.join(arg, n)
        if os.path.isfile(p):
            return p
    raise NoTrace(f"{arg}: a directory without {' or '.join(names)}")


def task_waking(flags, ts, pid, cpu, mark, curr):
    """whether a sched_waking line (its flags, timestamp text, writing task, CPU) comes from the
    running task of its CPU in task context, not from an interrupt: no interrupt flag, no
    interrupt entry line on that CPU at the same timestamp (mark: cpu -> the timestamp text of
    its last IRQ_ENTRY line), not the idle task, and the CPU's running task (curr: cpu -> pid)"""
    return not (flags[2:3] in IRQ_FLAGS or mark.get(cpu) == ts or pid == 0 or
                curr.get(cpu) != pid)


def stamp(ts):
    """an ftrace timestamp (s.frac) in ns, exactly"""
    sec, frac = ts.split(".")
    return int(sec) * 1000000000 + int((frac + "000000000")[:9])


def last_named(path):
    """{pid: the time (ns) of the last line of the trace at path that names it, as the task of
    the line or in a field}. The recordings hold tasks of the recording harness (bash, python3,
    grep) that are preempted once and never named again for 0.3-3.5 s: their later lines were
    lost (docs/validate.md, issue 28, "Lost lines"). A reader that keeps such a task waiting
    (runnable, not running) counts every later wake-up on its CPU as one with others waiting,
    and the CPU as busy; a task is waiting at t only while last_named(path)[pid] > t."""
    seen_to = {}
    for _, pid, _, _, _, t, _, rest in records(path):
        seen_to[pid] = t
        for q in PIDS.findall(rest):
            seen_to[int(q)] = t
    return seen_to
