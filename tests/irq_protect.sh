#!/bin/sh
# tools/irq_protect.py on a trace written by hand, beside the rt-app logs of its two threads W
# (pid 12) and T (13); bash (20, 21) is outside the file. T's interrupt wake-ups on CPU 0:
#   1.000100  W in from idle at 1.000000 (ran 100 us); T last slept alone (0.901, CPU empty);
#             W preempted at 1.000110: now. T sleeps at 1.000200 with W queued (slept others)
#   1.001000  W back at 1.000200 after T blocked (800 us); W blocks at 1.001500, T next: kept,
#             neither now nor late. T sleeps alone at 1.001600
#   1.002500  onto bash (its switch lines left out, as a recording leaves them: the line's task
#             is the running one): not a file thread, not counted; bash is switched out
#             runnable for T but is not queued in the file's group, so T sleeps alone at 1.002600
#   1.004000  (the model's mark: an hrtimer line at the waking's instant) W in from idle at
#             1.003600 (400 us); W switched out runnable at 1.004500: late (500 us > 100)
#   1.006000  W back at 1.004600 after T blocked (1400 us); T runs on CPU 1: moved
# and at 1.007000 an interrupt wakes a thread rt-app left unnamed (pid 30) onto W (2400 us):
# now, at 1.007010; --named leaves it out.
# By hand, --by run: 0-250 us 1 0 1 1 0 (1000 per 1000 kept), 250-500 us 1 0 1 0 1 (0), 500-1500
# us 2 1 1 0 0 (0), 1500-4000 us 1 0 1 1 0 (1000); all 5 1 4 2 1 (500), with --named 4 1 3 1 1
# (333). With --named, --by slept: alone 2 0 2 1 1 (500), others 2 1 1 0 0 (0); --by in: block
# 2 1 1 0 0, idle 2 0 2 1 1. Errors (exit 2): no trace, a missing trace, an unknown dimension,
# --from other than irq, own, other.
set -eu
. "$(dirname "$0")/pytool.sh"
S='prev_prio=120 prev_state'
N='next_prio=120'
mkdir -p "$T/rec"
: >"$T/rec/x-W-0.log"
: >"$T/rec/x-T-1.log"
cat >"$T/rec/real.trace" <<TR
# tracer: nop
#
          <idle>-0       [000] d..2.     0.890000: sched_switch: prev_comm=swapper/0 prev_pid=0 $S=R ==> next_comm=T next_pid=13 $N
               T-13      [000] d..2.     0.901000: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=swapper/0 next_pid=0 $N
          <idle>-0       [000] d..2.     1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 $S=R ==> next_comm=W next_pid=12 $N
               W-12      [000] d.h2.     1.000100: sched_waking: comm=T pid=13 prio=120 target_cpu=000
               W-12      [000] dNh3.     1.000100: sched_wakeup: comm=T pid=13 prio=120 target_cpu=000
               W-12      [000] d..2.     1.000110: sched_switch: prev_comm=W prev_pid=12 $S=R ==> next_comm=T next_pid=13 $N
               T-13      [000] d..2.     1.000200: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=W next_pid=12 $N
               W-12      [000] d.h2.     1.001000: sched_waking: comm=T pid=13 prio=120 target_cpu=000
               W-12      [000] d.h3.     1.001000: sched_wakeup: comm=T pid=13 prio=120 target_cpu=000
               W-12      [000] d..2.     1.001500: sched_switch: prev_comm=W prev_pid=12 $S=S ==> next_comm=T next_pid=13 $N
               T-13      [000] d..2.     1.001600: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=swapper/0 next_pid=0 $N
            bash-20      [000] d..2.     1.002000: sched_waking: comm=bash pid=21 prio=120 target_cpu=001
            bash-20      [000] d.h2.     1.002500: sched_waking: comm=T pid=13 prio=120 target_cpu=000
            bash-20      [000] dNh3.     1.002500: sched_wakeup: comm=T pid=13 prio=120 target_cpu=000
            bash-20      [000] d..2.     1.002510: sched_switch: prev_comm=bash prev_pid=20 $S=R ==> next_comm=T next_pid=13 $N
               T-13      [000] d..2.     1.002600: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=swapper/0 next_pid=0 $N
          <idle>-0       [000] d..2.     1.003600: sched_switch: prev_comm=swapper/0 prev_pid=0 $S=R ==> next_comm=W next_pid=12 $N
               W-12      [000] d.h1.     1.004000: hrtimer_expire_entry: hrtimer=000000000000000d function=hrtimer_wakeup now=1004000000
               W-12      [000] d..3.     1.004000: sched_waking: comm=T pid=13 prio=120 target_cpu=000
               W-12      [000] d..3.     1.004000: sched_wakeup: comm=T pid=13 prio=120 target_cpu=000
               W-12      [000] d..2.     1.004500: sched_switch: prev_comm=W prev_pid=12 $S=R+ ==> next_comm=T next_pid=13 $N
               T-13      [000] d..2.     1.004600: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=W next_pid=12 $N
               W-12      [000] d.h2.     1.006000: sched_waking: comm=T pid=13 prio=120 target_cpu=000
               W-12      [000] d.h3.     1.006000: sched_wakeup: comm=T pid=13 prio=120 target_cpu=001
          <idle>-0       [001] d..2.     1.006050: sched_switch: prev_comm=swapper/1 prev_pid=0 $S=R ==> next_comm=T next_pid=13 $N
               W-12      [000] d.h2.     1.007000: sched_waking: comm=rt-app pid=30 prio=120 target_cpu=000
               W-12      [000] d..2.     1.007010: sched_switch: prev_comm=W prev_pid=12 $S=R ==> next_comm=rt-app next_pid=30 $N
TR
tr=$T/rec/real.trace
"$PY" "$TOOLPY" --by run "$tr" >"$T/out" || fail "--by run: exit $? ($(cat "$T/out"))"
grep -q '^0-250 us  *1  *0  *1  *1  *0  *1000$' "$T/out" || fail "0-250 us: $(cat "$T/out")"
grep -q '^250-500 us  *1  *0  *1  *0  *1  *0$' "$T/out" || fail "250-500 us: $(cat "$T/out")"
grep -q '^500-1500 us  *2  *1  *1  *0  *0  *0$' "$T/out" || fail "500-1500 us: $(cat "$T/out")"
grep -q '^1500-4000 us  *1  *0  *1  *1  *0  *1000$' "$T/out" || fail "1500-4000: $(cat "$T/out")"
grep -q '^all  *5  *1  *4  *2  *1  *500$' "$T/out" || fail "all: $(cat "$T/out")"
"$PY" "$TOOLPY" --named --by run "$tr" >"$T/out" || fail "--named: exit $?"
grep -q '^all  *4  *1  *3  *1  *1  *333$' "$T/out" || fail "--named all: $(cat "$T/out")"
"$PY" "$TOOLPY" --named --by slept "$tr" >"$T/out" || fail "--by slept: exit $?"
grep -q '^alone  *2  *0  *2  *1  *1  *500$' "$T/out" || fail "slept alone: $(cat "$T/out")"
grep -q '^others  *2  *1  *1  *0  *0  *0$' "$T/out" || fail "slept others: $(cat "$T/out")"
"$PY" "$TOOLPY" --named --by in "$tr" >"$T/out" || fail "--by in: exit $?"
grep -q '^block  *2  *1  *1  *0  *0  *0$' "$T/out" || fail "in block: $(cat "$T/out")"
grep -q '^idle  *2  *0  *2  *1  *1  *500$' "$T/out" || fail "in idle: $(cat "$T/out")"
# two groups side by side: the same trace twice
"$PY" "$TOOLPY" --named --by run "$tr" --vs "$tr" >"$T/out" || fail "--vs: exit $?"
grep -q '^all  *4  *1  *3  *1  *1  *333  *4  *1  *3  *1  *1  *333$' "$T/out" ||
	fail "--vs: $(cat "$T/out")"
tool_error "$T/none.trace" none.trace
tool_cut_xz "$tr"
rc=0
"$PY" "$TOOLPY" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "no trace: exit $rc"
rc=0
"$PY" "$TOOLPY" --by colour "$tr" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q colour "$T/err" || fail "--by colour: exit $rc ($(cat "$T/err"))"
rc=0
"$PY" "$TOOLPY" --from tick "$tr" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q tick "$T/err" || fail "--from tick: exit $rc ($(cat "$T/err"))"
echo "irq_protect.sh: ok"
