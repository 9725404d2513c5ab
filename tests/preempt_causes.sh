#!/bin/sh
# tools/preempt_causes.py on a trace written by hand. CPU 1 runs E (14) from 0.999. CPU 0 runs
# A (10) from 1.000, which is switched out runnable six times, each by another path:
#   1.000100 A wakes B (11) there from task context; 50 us later A R -> B:          own
#   1.001000 an interrupt on CPU 0 (h) wakes C (12); 10 us later A R -> C:          irq
#   1.002000 E wakes D (13) from CPU 1 onto CPU 0; 20 us later A R -> D:            remote
#   1.003000 an interrupt wakes F (15); 500 us later (over the 100 us window) A R -> F: later
#   1.004000 an interrupt wakes G (16); A sleeps at 1.004200 and G runs:  no preemption
#   1.005000 a sleep timer the model's way (hrtimer_expire_entry at the same instant on CPU 0,
#            the waking line without h) wakes H (17); A R+ -> H at once:            irq
# and on CPU 1 at 1.006000 X (20), whose switch-in the trace lacks (the recordings' unnamed
# rt-app threads), wakes Y (21) there and is switched out to it 10 us later: own. By hand, the
# times off the CPU of the preempted: 150, 90, 180, 100, 50 and 90 us (median, the fourth of
# six sorted: 100). The wake-ups onto a busy CPU: own 2 now; irq 4: now 2 (C, H), later 1 (F),
# after 1 (G); remote 1 now. With --window 600, F's is irq and now.
set -eu
. "$(dirname "$0")/pytool.sh"
S='prev_prio=120 prev_state'
N='next_prio=120'
cat >"$T/t.trace" <<TR
# tracer: nop
#
          <idle>-0       [001] d..2.     0.999000: sched_switch: prev_comm=swapper/1 prev_pid=0 $S=R ==> next_comm=E next_pid=14 $N
          <idle>-0       [000] d..2.     1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 $S=R ==> next_comm=A next_pid=10 $N
               A-10      [000] d..2.     1.000100: sched_waking: comm=B pid=11 prio=120 target_cpu=000
               A-10      [000] d..3.     1.000100: sched_wakeup: comm=B pid=11 prio=120 target_cpu=000
               A-10      [000] d..2.     1.000150: sched_switch: prev_comm=A prev_pid=10 $S=R ==> next_comm=B next_pid=11 $N
               B-11      [000] d..2.     1.000300: sched_switch: prev_comm=B prev_pid=11 $S=S ==> next_comm=A next_pid=10 $N
               A-10      [000] d.h2.     1.001000: sched_waking: comm=C pid=12 prio=120 target_cpu=000
               A-10      [000] dNh3.     1.001000: sched_wakeup: comm=C pid=12 prio=120 target_cpu=000
               A-10      [000] d..2.     1.001010: sched_switch: prev_comm=A prev_pid=10 $S=R ==> next_comm=C next_pid=12 $N
               C-12      [000] d..2.     1.001100: sched_switch: prev_comm=C prev_pid=12 $S=S ==> next_comm=A next_pid=10 $N
               E-14      [001] d..2.     1.002000: sched_waking: comm=D pid=13 prio=120 target_cpu=000
               E-14      [001] d..3.     1.002001: sched_wakeup: comm=D pid=13 prio=120 target_cpu=000
               A-10      [000] d..2.     1.002020: sched_switch: prev_comm=A prev_pid=10 $S=R ==> next_comm=D next_pid=13 $N
               D-13      [000] d..2.     1.002200: sched_switch: prev_comm=D prev_pid=13 $S=S ==> next_comm=A next_pid=10 $N
               A-10      [000] d.h2.     1.003000: sched_waking: comm=F pid=15 prio=120 target_cpu=000
               A-10      [000] d.h3.     1.003000: sched_wakeup: comm=F pid=15 prio=120 target_cpu=000
               A-10      [000] d..2.     1.003500: sched_switch: prev_comm=A prev_pid=10 $S=R ==> next_comm=F next_pid=15 $N
               F-15      [000] d..2.     1.003600: sched_switch: prev_comm=F prev_pid=15 $S=S ==> next_comm=A next_pid=10 $N
               A-10      [000] d.h2.     1.004000: sched_waking: comm=G pid=16 prio=120 target_cpu=000
               A-10      [000] d.h3.     1.004000: sched_wakeup: comm=G pid=16 prio=120 target_cpu=000
               A-10      [000] d..2.     1.004200: sched_switch: prev_comm=A prev_pid=10 $S=S ==> next_comm=G next_pid=16 $N
               G-16      [000] d..2.     1.004300: sched_switch: prev_comm=G prev_pid=16 $S=S ==> next_comm=A next_pid=10 $N
               A-10      [000] d.h1.     1.005000: hrtimer_expire_entry: hrtimer=0000000000000011 function=hrtimer_wakeup now=1005000000
               A-10      [000] d..3.     1.005000: sched_waking: comm=H pid=17 prio=120 target_cpu=000
               A-10      [000] d..4.     1.005000: sched_wakeup: comm=H pid=17 prio=120 target_cpu=000
               A-10      [000] d..2.     1.005000: sched_switch: prev_comm=A prev_pid=10 $S=R+ ==> next_comm=H next_pid=17 $N
               H-17      [000] d..2.     1.005050: sched_switch: prev_comm=H prev_pid=17 $S=S ==> next_comm=A next_pid=10 $N
               X-20      [001] d..2.     1.006000: sched_waking: comm=Y pid=21 prio=120 target_cpu=001
               X-20      [001] d..3.     1.006000: sched_wakeup: comm=Y pid=21 prio=120 target_cpu=001
               X-20      [001] d..2.     1.006010: sched_switch: prev_comm=X prev_pid=20 $S=R ==> next_comm=Y next_pid=21 $N
               Y-21      [001] d..2.     1.006100: sched_switch: prev_comm=Y prev_pid=21 $S=S ==> next_comm=X next_pid=20 $N
TR
"$PY" "$TOOLPY" --min 1 "$T/t.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
want() { # a row of the output, its numbers as words
	grep -q "^$1  *$2\$" "$T/out" || fail "no row '$1 $2': $(cat "$T/out")"
}
grep -q '^6 preemptions in 1 trace' "$T/out" || fail "count: $(cat "$T/out")"
want all '6.0 *2.0 *2.0 *1.0 *1.0 *100'
want 'A -> B' '1.0 *1.0 *0.0 *0.0 *0.0 *150'
want 'A -> C' '1.0 *0.0 *1.0 *0.0 *0.0 *90'
want 'A -> D' '1.0 *0.0 *0.0 *1.0 *0.0 *180'
want 'A -> F' '1.0 *0.0 *0.0 *0.0 *1.0 *100'
want 'A -> H' '1.0 *0.0 *1.0 *0.0 *0.0 *50'
want 'X -> Y' '1.0 *1.0 *0.0 *0.0 *0.0 *90'
want 'all (own)' '2.0 *2.0 *0.0 *0.0 *0.0'
want 'all (irq)' '4.0 *2.0 *1.0 *1.0 *0.0'
want 'all (remote)' '1.0 *1.0 *0.0 *0.0 *0.0'
want 'A <- G (irq)' '1.0 *0.0 *0.0 *1.0 *0.0'
"$PY" "$TOOLPY" --window 600 "$T/t.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
want all '6.0 *2.0 *3.0 *1.0 *0.0 *100'
want 'all (irq)' '4.0 *3.0 *0.0 *1.0 *0.0'
# --task: only the rows naming the task
"$PY" "$TOOLPY" --min 1 --task X "$T/t.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
want 'X -> Y' '1.0 *1.0 *0.0 *0.0 *0.0 *90'
! grep -q '^A -> ' "$T/out" || fail "--task X: $(cat "$T/out")"
# the first 4 lines: nobody switched out runnable
head -4 "$T/t.trace" >"$T/none.trace"
tool_error "$T/none.trace" "no task switched out runnable"
tool_error "$T/missing.trace" missing.trace
tool_cut_xz "$T/t.trace"
rc=0
"$PY" "$TOOLPY" --window x "$T/t.trace" >/dev/null 2>"$T/err" || rc=$?
if [ "$rc" -ne 2 ] || ! grep -q 'expected a count' "$T/err"; then
	fail "--window x: exit $rc $(cat "$T/err")"
fi
