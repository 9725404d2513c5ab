#!/bin/sh
# tools/pipe_pair.py on a trace written by hand (docs/workloads.md, "Waking a halted vCPU").
# X (pid 10) and Y (pid 11) wake each other five times; CPU 1 idles in the halt from 0.9 s.
# 1: X on CPU 0 wakes Y (last on CPU 0): Y runs on CPU 0 (together, stays).
# 2: Y wakes X on CPU 0: the same.
# 3: X wakes Y: Y's sched_wakeup comes from CPU 1's idle task, 30 us later; Y runs there
#    32 us after the sched_waking (together -> apart).
# 4: Y on CPU 1 wakes X (last on CPU 0, idle 90 us, not halted): X runs on CPU 0 (apart, stays).
# 5: X on CPU 0 wakes Y (last on CPU 1, halted 89 us after 90 us idle): Y runs on CPU 0
#    (apart -> together).
# So by hand: 5 wake-ups, 2 onto the other CPU (3, 4); of the wakee last on the waker's CPU
# with the other idle and the waker alone, 2 of 3 stayed (666.7 per 1000); of the wakee last
# on the other, idle CPU, 1 of 2 joined (500.0). A missing file and a trace with no pair: exit 2.
set -eu
. "$(dirname "$0")/pytool.sh"
cat >"$T/t.trace" <<'TR'
# tracer: nop
#
# entries-in-buffer/entries-written: 27/27   #P:2
#
          <idle>-0       [001] d..2.     0.900000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=swapper/1 next_pid=0 next_prio=120
          <idle>-0       [001] d..1.     0.900001: cpu_idle: state=1 cpu_id=1
          <idle>-0       [000] d..2.     0.950000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=Y next_pid=11 next_prio=120
               Y-11      [000] d..2.     0.951000: sched_switch: prev_comm=Y prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0       [000] d..2.     1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=X next_pid=10 next_prio=120
               X-10      [000] d..3.     1.000100: sched_waking: comm=Y pid=11 prio=120 target_cpu=000
               X-10      [000] d..4.     1.000101: sched_wakeup: comm=Y pid=11 prio=120 target_cpu=000
               X-10      [000] d..2.     1.000102: sched_switch: prev_comm=X prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=Y next_pid=11 next_prio=120
               Y-11      [000] d..3.     1.000200: sched_waking: comm=X pid=10 prio=120 target_cpu=000
               Y-11      [000] d..4.     1.000200: sched_wakeup: comm=X pid=10 prio=120 target_cpu=000
               Y-11      [000] d..2.     1.000201: sched_switch: prev_comm=Y prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=X next_pid=10 next_prio=120
               X-10      [000] d..3.     1.000300: sched_waking: comm=Y pid=11 prio=120 target_cpu=000
               X-10      [000] d..2.     1.000310: sched_switch: prev_comm=X prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0       [001] dNh2.     1.000330: sched_wakeup: comm=Y pid=11 prio=120 target_cpu=001
          <idle>-0       [001] dN.1.     1.000331: cpu_idle: state=4294967295 cpu_id=1
          <idle>-0       [001] d..2.     1.000332: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=Y next_pid=11 next_prio=120
               Y-11      [001] d..3.     1.000400: sched_waking: comm=X pid=10 prio=120 target_cpu=000
               Y-11      [001] d..2.     1.000410: sched_switch: prev_comm=Y prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
          <idle>-0       [001] d..1.     1.000411: cpu_idle: state=1 cpu_id=1
          <idle>-0       [000] dNh2.     1.000430: sched_wakeup: comm=X pid=10 prio=120 target_cpu=000
          <idle>-0       [000] d..2.     1.000431: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=X next_pid=10 next_prio=120
               X-10      [000] d..3.     1.000500: sched_waking: comm=Y pid=11 prio=120 target_cpu=001
               X-10      [000] d..4.     1.000501: sched_wakeup: comm=Y pid=11 prio=120 target_cpu=000
               X-10      [000] d..2.     1.000502: sched_switch: prev_comm=X prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=Y next_pid=11 next_prio=120
TR
"$PY" "$TOOLPY" "$T/t.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
grep -q ': 5 wake-ups of one end by the other, 2 (40.0%) went to the other CPU$' "$T/out" ||
	fail "count: $(cat "$T/out")"
grep -q ': 2 of 3 stayed = 666.7 per 1000$' "$T/out" || fail "waker: $(cat "$T/out")"
grep -q ': 1 of 2 joined = 500.0 per 1000$' "$T/out" || fail "other: $(cat "$T/out")"
grep -q "^| ('B', 'idle<0100h') | 1 | 1 | 1000.0 |$" "$T/out" || fail "B halted: $(cat "$T/out")"
"$PY" "$TOOLPY" --rows "$T/t.trace" >"$T/rows" || fail "--rows: exit $?"
# t, A, prev, went, B, B's idle (us), others on A, need-resched, since, the waker's run, latency
grep -q ',1000300,0,A,B,idle>4000h,100300,0,0,2,99,32$' "$T/rows" || fail "row 3: $(cat "$T/rows")"
grep -q ',1000400,1,B,B,idle<0100,90,0,0,0,68,31$' "$T/rows" || fail "row 4: $(cat "$T/rows")"
grep -q ',1000500,0,B,A,idle<0100h,90,0,0,1,69,2$' "$T/rows" || fail "row 5: $(cat "$T/rows")"
# lost.trace: the same with bash (20) taking CPU 0 from X at 1.00005 and X taking it back at
# 1.00006: bash waits on CPU 0 and no later line names it (its lines were lost), so it does
# not wait: the same two rates (read as waiting, every wake-up on CPU 0 had "others" and
# neither rate counted one)
awk '/1.000000: sched_switch/ { print; print "               X-10      [000] d..2.     1.000050: sched_switch: prev_comm=X prev_pid=10 prev_prio=120 prev_state=R+ ==> next_comm=bash next_pid=20 next_prio=120"; print "            bash-20      [000] d..2.     1.000060: sched_switch: prev_comm=bash prev_pid=20 prev_prio=120 prev_state=R+ ==> next_comm=X next_pid=10 next_prio=120"; next } { print }' \
	"$T/t.trace" >"$T/lost.trace"
[ "$(grep -c bash "$T/lost.trace")" -eq 2 ] || fail "lost.trace: $(cat "$T/lost.trace")"
"$PY" "$TOOLPY" "$T/lost.trace" >"$T/out" || fail "lost: exit $? ($(cat "$T/out"))"
grep -q ': 2 of 3 stayed = 666.7 per 1000$' "$T/out" &&
	grep -q ': 1 of 2 joined = 500.0 per 1000$' "$T/out" || fail "lost: $(cat "$T/out")"
tool_error "$T/none.trace" none.trace
tool_cut_xz "$T/t.trace"
grep -v 'sched_waking' "$T/t.trace" >"$T/nopair.trace"
tool_error "$T/nopair.trace" 'no pair'
echo "pipe_pair.sh: ok"
