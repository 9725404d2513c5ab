"""The ftrace text lines the wake-up tools read (tools/wake_pack.py, wake_irq.py,
wake_preempt_pairs.py), in one place: a line's columns, sched_switch's and sched_waking's
fields, and a trace opened as text whether it is plain or .xz.

LINE groups: comm, pid, cpu, flags, timestamp (s.frac), event, the event's fields.
SW groups: prev_pid, prev_state, next_comm, next_pid.
WAKE groups: comm, pid, prio, target_cpu.
"""
import lzma
import re

LINE = re.compile(r"^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+(\d+\.\d+):\s+(\w+):\s(.*)$")
SW = re.compile(r"prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(.*) next_pid=(\d+)")
WAKE = re.compile(r"comm=(.*) pid=(\d+) prio=(\d+) target_cpu=(\d+)")


def opener(path):
    """the trace at path as text lines, undecodable bytes replaced"""
    return lzma.open(path, "rt", errors="replace") if path.endswith(".xz") else open(
        path, errors="replace")
