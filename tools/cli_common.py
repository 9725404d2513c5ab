"""What the command-line tools (tools/loop_other.py, run_stretch.py, preempt_causes.py,
rtapp_loop_cost.py, wake_preempt_pairs.py, wake_tail.py, busy_preempt.py) share around their
main(): the leading flags (flags, for the tools whose flags come first; wake_tail.py and
busy_preempt.py take theirs anywhere in their own argument loops) and the exit (run): main's
status, or 1 when the output could not be written.
"""
import os
import sys


def flags(argv, names):
    """(the set of the names argv starts with, in any order and number, the rest of argv)"""
    seen = set()
    while argv and argv[0] in names:
        seen.add(argv[0])
        argv = argv[1:]
    return seen, argv


def run(main):
    """exit with main(sys.argv[1:])'s status; when the reader went away (| head) and the output
    could not be written, with 1, stdout then pointed at /dev/null so that Python's own flush
    at exit does not fail again"""
    try:
        status = main(sys.argv[1:])
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 1
    sys.exit(status)
