#!/bin/sh
# tools/wake_wait.py on a trace written by hand. W (pid 12) runs on CPU 0 from 0.901, after T
# (13) ran there 0.900-0.901; U (14) ran on CPU 1, idle after. Four interrupt wake-ups of T on
# CPU 0 (the h flag, or schedlab's mark: an hrtimer line at the waking's instant), W running
# there and CPU 1 idle each time:
#   1.000000  W preempted at 1.000010: first, at once, 10 us
#   1.002000  W blocks at 1.002500, then T: waited behind W, 500 us
#   1.004000  W preempted at 1.005000: first, late, 1000 us
#   1.006000  T runs on CPU 1 at 1.006050: moved, 50 us
# then a wake-up of U by W on CPU 0 written as the model writes it (the move to CPU 0 first, the
# waking naming CPU 0): U last ran on CPU 1, idle, so it is a wake-up from the other CPU onto an
# idle one, moved (it ran on CPU 0 after W's preemption), 0 us.
# By hand: T's latencies 10 50 500 1000, p50 (the 3rd of 4) 500, p95 (the 4th) 1000; the slow
# one is irq->W first. Its situation: first 2 (10, 1000: p50 and p95 1000), moved 1, waited 1.
# --count irq: 4, at once 1, late 1, moved 1, waited 1; kept 3 of 4 (750 per 1000), at once 1
# of 3 (333). W ran 0.901-1.000 (99 ms): utilization 1024 (1 - 2^(-99/32.768)) = 898, T's 1 ms
# 21.4 decayed 99 ms to 2.6 (3 with the 1 added): W's is 8 times T's or more (runner's 8x).
# --by-run: W's run since its switch-in at each: 99 ms (from 0.901), 1900 us (from 1.000100),
# 1000 us (from 1.003), 900 us (from 1.005100): the bins 4000+, 1500-2000, 1000-1500, 500-1000.
# Errors: no task and no --count, a missing trace, a trace without a switch, --kept without
# --count or with an unknown dimension: exit 2.
set -eu
. "$(dirname "$0")/pytool.sh"
S='prev_prio=120 prev_state'
N='next_prio=120'
cat >"$T/t.trace" <<TR
# tracer: nop
#
          <idle>-0       [001] d..2.     0.890000: sched_switch: prev_comm=swapper/1 prev_pid=0 $S=R ==> next_comm=U next_pid=14 $N
               U-14      [001] d..2.     0.895000: sched_switch: prev_comm=U prev_pid=14 $S=S ==> next_comm=swapper/1 next_pid=0 $N
          <idle>-0       [000] d..2.     0.900000: sched_switch: prev_comm=swapper/0 prev_pid=0 $S=R ==> next_comm=T next_pid=13 $N
               T-13      [000] d..2.     0.901000: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=W next_pid=12 $N
               W-12      [000] d.h2.     1.000000: sched_waking: comm=T pid=13 prio=120 target_cpu=000
               W-12      [000] d..2.     1.000010: sched_switch: prev_comm=W prev_pid=12 $S=R ==> next_comm=T next_pid=13 $N
               T-13      [000] d..2.     1.000100: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=W next_pid=12 $N
               W-12      [000] d.h2.     1.002000: sched_waking: comm=T pid=13 prio=120 target_cpu=000
               W-12      [000] d..2.     1.002500: sched_switch: prev_comm=W prev_pid=12 $S=S ==> next_comm=T next_pid=13 $N
               T-13      [000] d..2.     1.002600: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=swapper/0 next_pid=0 $N
          <idle>-0       [000] d..2.     1.003000: sched_switch: prev_comm=swapper/0 prev_pid=0 $S=R ==> next_comm=W next_pid=12 $N
               W-12      [000] d.h1.     1.004000: hrtimer_expire_entry: hrtimer=000000000000000d function=hrtimer_wakeup now=1004000000
               W-12      [000] d..3.     1.004000: sched_waking: comm=T pid=13 prio=120 target_cpu=000
               W-12      [000] d..2.     1.005000: sched_switch: prev_comm=W prev_pid=12 $S=R+ ==> next_comm=T next_pid=13 $N
               T-13      [000] d..2.     1.005100: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=W next_pid=12 $N
               W-12      [000] d.h2.     1.006000: sched_waking: comm=T pid=13 prio=120 target_cpu=000
          <idle>-0       [001] d..2.     1.006050: sched_switch: prev_comm=swapper/1 prev_pid=0 $S=R ==> next_comm=T next_pid=13 $N
               T-13      [001] d..2.     1.006100: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=swapper/1 next_pid=0 $N
               W-12      [000] d..4.     1.007000: sched_migrate_task: comm=U pid=14 prio=120 orig_cpu=1 dest_cpu=0
               W-12      [000] d..3.     1.007000: sched_waking: comm=U pid=14 prio=120 target_cpu=000
               W-12      [000] d..2.     1.007000: sched_switch: prev_comm=W prev_pid=12 $S=R+ ==> next_comm=U next_pid=14 $N
TR
"$PY" "$TOOLPY" -t T -t U "$T/t.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
grep -q '^  1  *4 wake-ups, p50 500 us, p95 1000 us; 1 at or above it' "$T/out" ||
	fail "T's latencies: $(cat "$T/out")"
grep -q '^ *1  irq->W, other idle  *first  *-$' "$T/out" || fail "T's slow one: $(cat "$T/out")"
grep -q '^ *1  *4; first 2 (1000/1000); moved 1 (50/50); waited 1 (500/500)$' "$T/out" ||
	fail "T's situation: $(cat "$T/out")"
grep -q '^ *1  other->idle, other busy  *moved  *-$' "$T/out" ||
	fail "U's wake-up, the model's order: $(cat "$T/out")"
"$PY" "$TOOLPY" --count irq "$T/t.trace" >"$T/count" || fail "--count: exit $?"
grep -q '^T  *W  *4  *1  *1  *1  *1$' "$T/count" || fail "--count pair: $(cat "$T/count")"
grep -q '^traces 1: 4 wake-ups, at once 1, late 1, moved 1, waited 1; kept on the CPU 750 per 1000, of those run at once 333 per 1000$' "$T/count" ||
	fail "--count total: $(cat "$T/count")"
"$PY" "$TOOLPY" --count irq --by-size 8 "$T/t.trace" --vs "$T/t.trace" >"$T/size" ||
	fail "--by-size: exit $?"
grep -q "^sizes  *runner's 8x  *4  *1  *1  *1  *1  *4  *1  *1  *1  *1\$" "$T/size" ||
	fail "--by-size: $(cat "$T/size")"
"$PY" "$TOOLPY" --count irq --by-run "$T/t.trace" >"$T/run" || fail "--by-run: exit $?"
grep -q '^runner ran  *4000+ us  *1  *1  *0  *0  *0$' "$T/run" &&
	grep -q '^runner ran  *1500-2000 us  *1  *0  *0  *0  *1$' "$T/run" &&
	grep -q '^runner ran  *1000-1500 us  *1  *0  *1  *0  *0$' "$T/run" &&
	grep -q '^runner ran  *500-1000 us  *1  *0  *0  *1  *0$' "$T/run" || fail "--by-run: $(cat "$T/run")"
# --kept: T's four wake-ups, CPU 1 idle: moved 1 (at once there), kept 3: now 1, late 1, after 1
# (W blocked, T next), queued 0; 333 per 1000 each; late 1 of the 2 not run at once (500);
# the p50 of after 500 us, of late 1000; wake_hold = 1000 - 500; the longest after 500 us.
"$PY" "$TOOLPY" --count any --kept other "$T/t.trace" >"$T/kept" || fail "--kept: exit $?"
grep -q '^1  *B idle  *4  *1  *0  *3  *1  *1  *1  *0  *333  *333  *333  *500  *500  *1000$' "$T/kept" ||
	fail "--kept: $(cat "$T/kept")"
grep -q "^traces 1: wake_hold=500 (of 2 kept and not run at once, 1 preempted in later), wake_hold_max=500000ns" "$T/kept" ||
	fail "--kept's parameters: $(cat "$T/kept")"
grep -q '^traces 1: wake_move_preempt=0 (of 0 moved onto a busy B, 0 ran there at once)$' "$T/kept" ||
	fail "--kept's move: $(cat "$T/kept")"
"$PY" "$TOOLPY" --count irq --kept other,run "$T/t.trace" >"$T/kept" || fail "--kept run: exit $?"
grep -q '^1  *B idle | 500-1000 us  *1  *1  *0  *0 ' "$T/kept" &&
	grep -q '^1  *B idle | 1500-2000 us  *1  *0  *0  *1  *0  *0  *1  *0 ' "$T/kept" ||
	fail "--kept run: $(cat "$T/kept")"
# A second trace: X runs on CPU 1 throughout, W on CPU 0; an interrupt wakes T on CPU 0 at 2.000,
# V runs before it (W preempted, V blocks): queued, 200 us; at 2.001 (W's run 700 us) T runs on
# CPU 1 once X blocks: moved, waited there. B busy both times: n 2, moved 1 (1 waited there),
# kept 1, queued 1; none late of the one not run at once: wake_hold 1000.
{
	head -2 "$T/t.trace"
	cat <<TR
          <idle>-0       [001] d..2.     0.900000: sched_switch: prev_comm=swapper/1 prev_pid=0 $S=R ==> next_comm=X next_pid=15 $N
          <idle>-0       [000] d..2.     0.900000: sched_switch: prev_comm=swapper/0 prev_pid=0 $S=R ==> next_comm=T next_pid=13 $N
               T-13      [000] d..2.     0.901000: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=W next_pid=12 $N
               W-12      [000] d.h2.     2.000000: sched_waking: comm=T pid=13 prio=120 target_cpu=000
               W-12      [000] d..2.     2.000100: sched_switch: prev_comm=W prev_pid=12 $S=R+ ==> next_comm=V next_pid=16 $N
               V-16      [000] d..2.     2.000200: sched_switch: prev_comm=V prev_pid=16 $S=S ==> next_comm=T next_pid=13 $N
               T-13      [000] d..2.     2.000300: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=W next_pid=12 $N
               W-12      [000] d.h2.     2.001000: sched_waking: comm=T pid=13 prio=120 target_cpu=000
               X-15      [001] d..2.     2.001500: sched_switch: prev_comm=X prev_pid=15 $S=S ==> next_comm=T next_pid=13 $N
               T-13      [001] d..2.     2.001600: sched_switch: prev_comm=T prev_pid=13 $S=S ==> next_comm=X next_pid=15 $N
TR
} >"$T/t2.trace"
"$PY" "$TOOLPY" --count irq --kept other,run "$T/t2.trace" >"$T/kept2" || fail "--kept 2: exit $?"
grep -q '^1  *B busy | 500-1000 us  *1  *1  *1  *0  *0  *0  *0  *0  *-  *-  *-  *-  *-  *-$' "$T/kept2" &&
	grep -q '^1  *B busy | 4000+ us  *1  *0  *0  *1  *0  *0  *0  *1  *0  *0  *0  *0  *-  *-$' "$T/kept2" &&
	grep -q '^traces 1: wake_hold=1000 (of 1 kept and not run at once, 0 preempted in later), wake_hold_max=0ns' "$T/kept2" &&
	grep -q '^traces 1: wake_move_preempt=0 (of 1 moved onto a busy B, 0 ran there at once)$' "$T/kept2" ||
	fail "--kept 2: $(cat "$T/kept2")"
# the errors
rc=0
"$PY" "$TOOLPY" "$T/t.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'no task named' "$T/err" || fail "no task: exit $rc ($(cat "$T/err"))"
rc=0
"$PY" "$TOOLPY" -t T "$T/missing.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'missing.trace: no such file' "$T/err" || fail "missing: exit $rc"
tool_cut_xz "$T/t.trace" -t T
head -2 "$T/t.trace" >"$T/none.trace"
rc=0
"$PY" "$TOOLPY" -t T "$T/none.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'none.trace: no sched_switch' "$T/err" ||
	fail "no switch: exit $rc ($(cat "$T/err"))"
rc=0
"$PY" "$TOOLPY" --kept other "$T/t.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q -e '--kept needs --count' "$T/err" || fail "--kept alone: exit $rc"
rc=0
"$PY" "$TOOLPY" --count irq --kept other,cpu "$T/t.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "'other,cpu' is not a comma-separated list" "$T/err" ||
	fail "--kept cpu: exit $rc ($(cat "$T/err"))"
