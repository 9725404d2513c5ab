#!/bin/sh
# tools/wake_irq.py on a trace written by hand. T (pid 13) runs on CPU 1 (0.900-0.901), then on
# CPU 0 (0.910-0.911), where W (12) runs after it; CPU 1 stays idle. At 1.0001 an interrupt on
# CPU 0 (the h flag) wakes T, last on CPU 0, busy with W, CPU 1 idle: it stays (target 000).
# T runs and sleeps; at 1.001 a sleep timer (schedlab's mark: hrtimer_expire_entry at the same
# time on that CPU, the waking line's flags without h) wakes T again in the same situation: it
# goes to CPU 1. P (14), seen on CPU 0 only (pinned), woken at 1.002 likewise: not counted. By
# hand: 2 wake-ups of the class, 1 stayed. T slept alone on CPU 0 at 0.911 (nothing runnable
# there) and beside W at 1.0003 (W preempted at 1.0002, runnable): one of each, the alone one
# stayed, so vcpu_pack_irq_busy (the alone row's) is 1000, where all of the class gave 500. A
# trace without the class, or a file that does not exist: exit 2, saying so.
set -eu
. "$(dirname "$0")/pytool.sh"
S='prev_prio=120 prev_state'
N='next_prio=120'
cat >"$T/t.trace" <<TR
# tracer: nop
#
          <idle>-0       [000] d..2.     0.890000: sched_switch: prev_comm=swapper/0 prev_pid=0 $S=R ==> next_comm=P next_pid=14 $N
               P-14      [000] d..2.     0.895000: sched_switch: prev_comm=P prev_pid=14 $S=S ==> next_comm=swapper/0 next_pid=0 $N
          <idle>-0       [001] d..2.     0.900000: sched_switch: prev_comm=swapper/1 prev_pid=0 $S=R ==> next_comm=T next_pid=13 $N
               T-13      [001] d..2.     0.901000: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=swapper/1 next_pid=0 $N
          <idle>-0       [000] d..2.     0.910000: sched_switch: prev_comm=swapper/0 prev_pid=0 $S=R ==> next_comm=T next_pid=13 $N
               T-13      [000] d..2.     0.911000: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=W next_pid=12 $N
               W-12      [000] d.h2.     1.000100: sched_waking: comm=T pid=13 prio=120 target_cpu=000
               W-12      [000] d.h3.     1.000100: sched_wakeup: comm=T pid=13 prio=120 target_cpu=000
               W-12      [000] d..2.     1.000200: sched_switch: prev_comm=W prev_pid=12 $S=R ==> next_comm=T next_pid=13 $N
               T-13      [000] d..2.     1.000300: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=W next_pid=12 $N
               W-12      [000] d.h1.     1.001000: hrtimer_expire_entry: hrtimer=000000000000000d function=hrtimer_wakeup now=1001000000
               W-12      [000] d..3.     1.001000: sched_waking: comm=T pid=13 prio=120 target_cpu=000
               W-12      [000] d..4.     1.001000: sched_wakeup: comm=T pid=13 prio=120 target_cpu=001
               W-12      [000] d.h2.     1.002000: sched_waking: comm=P pid=14 prio=120 target_cpu=000
               W-12      [000] d.h3.     1.002000: sched_wakeup: comm=P pid=14 prio=120 target_cpu=000
TR
"$PY" "$TOOLPY" "$T/t.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
grep -q '^busy  *idle  *2  *1  *1  *1$' "$T/out" || fail "class: $(cat "$T/out")"
grep -q '^# 1 of 2 stayed' "$T/out" && grep -q '^param vcpu_pack_irq_busy=1000$' "$T/out" ||
	fail "param: $(cat "$T/out")"
# what waits on CPU 0 at each of the two wakings: nothing (W runs; W's preemption at 1.0002 ended
# with its switch-in at 1.0003), so vcpu_pack_irq_alone is the class's 1 of 2
grep -q '^# by what waits on the busy CPU at the waking: nothing 1 of 2 stayed; others 0 of 0$' \
	"$T/out" && grep -q '^param vcpu_pack_irq_alone=500$' "$T/out" || fail "alone: $(cat "$T/out")"
# move.trace: t.trace, then U (17) runs alone on CPU 1 from 1.0025, W wakes Q (15) onto CPU 0 at
# 1.0026, where it waits, and at 1.003 an interrupt on CPU 0 (busy with W, Q waiting) wakes T
# (last on CPU 0) onto CPU 1 (busy with U, nothing waiting): "busy busy" 1, moved; the move split
# 1 of 1, vcpu_pack_irq_move 1000 (P, woken at 1.002 and never seen again, waits no more)
{
	cat "$T/t.trace"
	cat <<TR
          <idle>-0       [001] d..2.     1.002500: sched_switch: prev_comm=swapper/1 prev_pid=0 $S=R ==> next_comm=U next_pid=17 $N
               W-12      [000] d..3.     1.002600: sched_waking: comm=Q pid=15 prio=120 target_cpu=000
               W-12      [000] d..4.     1.002600: sched_wakeup: comm=Q pid=15 prio=120 target_cpu=000
               W-12      [000] d.h2.     1.003000: sched_waking: comm=T pid=13 prio=120 target_cpu=000
               W-12      [000] d.h3.     1.003000: sched_wakeup: comm=T pid=13 prio=120 target_cpu=001
               W-12      [000] d..2.     1.004000: sched_switch: prev_comm=W prev_pid=12 $S=R ==> next_comm=Q next_pid=15 $N
               U-17      [001] d..2.     1.004000: sched_switch: prev_comm=U prev_pid=17 $S=R ==> next_comm=T next_pid=13 $N
TR
} >"$T/move.trace"
"$PY" "$TOOLPY" "$T/move.trace" >"$T/out" || fail "move: exit $? ($(cat "$T/out"))"
grep -q '^busy  *busy  *1  *0 ' "$T/out" &&
	grep -q '^# both CPUs busy, others waiting on X and nothing on O: 1 of 1 moved to O; the rest of the class 0 of 0$' "$T/out" &&
	grep -q '^param vcpu_pack_irq_move=1000$' "$T/out" || fail "move: $(cat "$T/out")"
# wait.trace: as t.trace to 0.911 (T on both CPUs, asleep on CPU 0 under W); at 0.950 W wakes Q
# (15) onto CPU 0, where it waits (runnable, W running); at 1.0001 an interrupt wakes T, which
# stays, with Q waiting: one of the class, stayed; no wake-up with nothing waiting, so no
# vcpu_pack_irq_alone line (with Q's wait missed it read "nothing 1 of 1" and printed 1000)
{
	sed -n 1,8p "$T/t.trace"
	cat <<TR
               W-12      [000] d..3.     0.950000: sched_waking: comm=Q pid=15 prio=120 target_cpu=000
               W-12      [000] d..4.     0.950000: sched_wakeup: comm=Q pid=15 prio=120 target_cpu=000
               W-12      [000] d.h2.     1.000100: sched_waking: comm=T pid=13 prio=120 target_cpu=000
               W-12      [000] d.h3.     1.000100: sched_wakeup: comm=T pid=13 prio=120 target_cpu=000
               W-12      [000] d..2.     1.000200: sched_switch: prev_comm=W prev_pid=12 $S=R ==> next_comm=Q next_pid=15 $N
               Q-15      [000] d..2.     1.000300: sched_switch: prev_comm=Q prev_pid=15 $S=S ==> next_comm=T next_pid=13 $N
TR
} >"$T/wait.trace"
"$PY" "$TOOLPY" "$T/wait.trace" >"$T/out" || fail "wait: exit $? ($(cat "$T/out"))"
grep -q '^busy  *idle  *1  *1  *1  *1$' "$T/out" && ! grep -q 'vcpu_pack_irq_alone' "$T/out" ||
	fail "wait: $(cat "$T/out")"
# lost.trace: V (16) ran on CPU 1, then on CPU 0, before the rest; T's wake-up at 1.001 onto
# CPU 1 is the last line that names T (lost: it never runs). At 1.003 an interrupt on CPU 0,
# busy with W, wakes V (last on CPU 0): CPU 1 runs its idle task and T, whose lines were lost,
# is not on its way there: O idle; V stays. By hand: 3 of the class, 2 stayed (read with T on
# its way: 2, 1 stayed, and V's "busy busy"); V slept alone (CPU 0 went idle): 2 alone, both
# stayed, 1000.
{
	sed -n 1,2p "$T/t.trace"
	cat <<TR
          <idle>-0       [001] d..2.     0.880000: sched_switch: prev_comm=swapper/1 prev_pid=0 $S=R ==> next_comm=V next_pid=16 $N
               V-16      [001] d..2.     0.881000: sched_switch: prev_comm=V prev_pid=16 $S=S ==> next_comm=swapper/1 next_pid=0 $N
          <idle>-0       [000] d..2.     0.882000: sched_switch: prev_comm=swapper/0 prev_pid=0 $S=R ==> next_comm=V next_pid=16 $N
               V-16      [000] d..2.     0.883000: sched_switch: prev_comm=V prev_pid=16 $S=S ==> next_comm=swapper/0 next_pid=0 $N
TR
	sed -n '3,$p' "$T/t.trace"
	cat <<TR
               W-12      [000] d.h2.     1.003000: sched_waking: comm=V pid=16 prio=120 target_cpu=000
               W-12      [000] d.h3.     1.003000: sched_wakeup: comm=V pid=16 prio=120 target_cpu=000
TR
} >"$T/lost.trace"
"$PY" "$TOOLPY" "$T/lost.trace" >"$T/out" || fail "lost: exit $? ($(cat "$T/out"))"
grep -q '^busy  *idle  *3  *2  *2  *2$' "$T/out" && grep -q '^busy  *busy  *0  *0  *0  *0$' "$T/out" &&
	grep -q '^param vcpu_pack_irq_busy=1000$' "$T/out" || fail "lost: $(cat "$T/out")"
# idle.trace: T runs on CPU 1, then on CPU 0, and sleeps there switching to bash (20, outside
# the file), whose switch to idle the recording left out; CPU 0's idle task then logs a
# cpu_idle line and, at 1.0001, T's interrupt wake-up. CPU 0 is idle, not busy with bash (the
# running task from every line of a CPU): no wake-up of the class, exit 2 (taken from the
# switches alone, it read "busy idle 1 1" and printed 1000).
{
	sed -n 1,2p "$T/t.trace"
	cat <<TR
          <idle>-0       [001] d..2.     0.900000: sched_switch: prev_comm=swapper/1 prev_pid=0 $S=R ==> next_comm=T next_pid=13 $N
               T-13      [001] d..2.     0.901000: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=swapper/1 next_pid=0 $N
          <idle>-0       [000] d..2.     0.910000: sched_switch: prev_comm=swapper/0 prev_pid=0 $S=R ==> next_comm=T next_pid=13 $N
               T-13      [000] d..2.     0.911000: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=bash next_pid=20 $N
          <idle>-0       [000] d..1.     0.950000: cpu_idle: state=1 cpu_id=0
          <idle>-0       [000] d.h2.     1.000100: sched_waking: comm=T pid=13 prio=120 target_cpu=000
          <idle>-0       [000] d.h3.     1.000100: sched_wakeup: comm=T pid=13 prio=120 target_cpu=000
TR
} >"$T/idle.trace"
tool_error "$T/idle.trace" "no interrupt wake-up on a busy CPU"
# the first 6 lines: no interrupt wake-up at all
head -8 "$T/t.trace" >"$T/none.trace"
tool_error "$T/none.trace" "no interrupt wake-up on a busy CPU"
tool_error "$T/missing.trace" missing.trace
