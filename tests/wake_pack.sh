#!/bin/sh
# tools/wake_pack.py on a trace written by hand (docs/validate.md, "Placement, from the
# recordings"). CPU 0 runs B (pid 11) from 0.900 to 0.950 s, idles, runs A (pid 10) from 1.000;
# CPU 1 runs C (pid 12) from 0.900 to 0.901 and idles. At 1.0001 A wakes C (last on CPU 1):
# C goes to CPU 1; at 1.0002 A wakes B (last on CPU 0): B stays on CPU 0. By hand, with a
# 32.768 ms half-life: C's utilization is 1024 x (1 - 2^(-1/32.768)) = 21.4 after its 1 ms,
# x 2^(-99.1/32.768) = 2.6 at 1.0001; CPU 0's 1024 x (1 - 2^(-50/32.768)) = 668.4 after
# B's 50 ms, x 2^(-50/32.768) = 232.1 after the idle, + (1024 - 232.1) x (1 - 2^(-0.1/32.768))
# = 233.8 at 1.0001: 2.6 < 28 and 236.4 < 675, A alone on CPU 0 (C is queued on CPU 1):
# "small, room", yet on CPU 1. So: 2 wake-ups, 1 on the waker's CPU; the rule right about 1
# of 2; a file that does not exist: exit 2 naming it.
set -eu
. "$(dirname "$0")/pytool.sh"
cat >"$T/t.trace" <<'TR'
# tracer: nop
#
# entries-in-buffer/entries-written: 12/12   #P:2
#
          <idle>-0       [000] d..2.     0.900000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=B next_pid=11 next_prio=120
          <idle>-0       [001] d..2.     0.900000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=C next_pid=12 next_prio=120
               C-12      [001] d..2.     0.901000: sched_switch: prev_comm=C prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
               B-11      [000] d..2.     0.950000: sched_switch: prev_comm=B prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0       [000] d..2.     1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=A next_pid=10 next_prio=120
               A-10      [000] d..3.     1.000100: sched_waking: comm=C pid=12 prio=120 target_cpu=001
          <idle>-0       [001] dNh2.     1.000110: sched_wakeup: comm=C pid=12 prio=120 target_cpu=001
               A-10      [000] d..3.     1.000200: sched_waking: comm=B pid=11 prio=120 target_cpu=000
               A-10      [000] d..4.     1.000200: sched_wakeup: comm=B pid=11 prio=120 target_cpu=000
TR
"$PY" "$TOOLPY" "$T/t.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
grep -q '^2 wake-ups by a running task with the other CPU idle; 1 ran on the waker' "$T/out" ||
	fail "count: $(head -1 "$T/out")"
grep -q 'last on A, waker alone *1 *1 100.0%' "$T/out" || fail "class A: $(cat "$T/out")"
grep -q 'last on B, small, room *1 *0   0.0%' "$T/out" || fail "class B: $(cat "$T/out")"
grep -q 'the rule says where 1 of 2 went (50.0%)' "$T/out" || fail "rule: $(tail -1 "$T/out")"
# --fit: B's wake-up (last on A, A alone) stayed: vcpu_pack_waker 1000 of 1000; C's (last on
# B, A alone) did not join A: vcpu_pack_other 0 of 1
"$PY" "$TOOLPY" --fit "$T/t.trace" >"$T/fit" || fail "--fit exit $?"
grep -q '^param vcpu_pack_waker=1000$' "$T/fit" && grep -q '^param vcpu_pack_other=0$' "$T/fit" &&
	grep -q '^# of the 1 last on the idle CPU, 0 joined the waker$' "$T/fit" ||
	fail "--fit: $(cat "$T/fit")"
# with a second trace: CPU 1 runs F until 0.9005 and idles; CPU 0 runs E (pid 14) until
# 0.901, then D (15) until 0.902, switched out runnable for A (10), which wakes E (last on
# CPU 0) at 1.0001 while D waits on CPU 0: E stays on CPU 0. So 1 of 1 such wake-ups with
# others queued stayed (vcpu_pack_queued 1000), the other lines as above; without a size
# bound every room of the grid (300 to 1024) packs C (2.6 + 233.8 < 300), wrongly, so the
# first, 300; then the first prio bound that leaves C's 120 out, 100: where 1 of 1 went
cat >"$T/q.trace" <<'TR'
# tracer: nop
#
# entries-in-buffer/entries-written: 6/6   #P:2
#
          <idle>-0       [000] d..2.     0.900000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=E next_pid=14 next_prio=120
          <idle>-0       [001] d..2.     0.900000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=F next_pid=13 next_prio=120
               F-13      [001] d..2.     0.900500: sched_switch: prev_comm=F prev_pid=13 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
               E-14      [000] d..2.     0.901000: sched_switch: prev_comm=E prev_pid=14 prev_prio=120 prev_state=S ==> next_comm=D next_pid=15 next_prio=120
               D-15      [000] d..2.     0.902000: sched_switch: prev_comm=D prev_pid=15 prev_prio=120 prev_state=R ==> next_comm=A next_pid=10 next_prio=120
               A-10      [000] d..3.     1.000100: sched_waking: comm=E pid=14 prio=120 target_cpu=000
               A-10      [000] d..4.     1.000100: sched_wakeup: comm=E pid=14 prio=120 target_cpu=000
TR
"$PY" "$TOOLPY" --fit "$T/t.trace" "$T/q.trace" >"$T/fitq" || fail "--fit (2) exit $?"
grep -q '^param vcpu_pack_waker=1000$' "$T/fitq" && grep -q '^param vcpu_pack_queued=1000$' "$T/fitq" &&
	grep -q '^# 1 wake-ups of a task last on the waker.s CPU, others queued there, 1 stayed$' \
		"$T/fitq" &&
	grep -q 'where 1 went (100.0%): vcpu_pack_room=300 vcpu_pack_small=1024 vcpu_pack_prio=100$' \
		"$T/fitq" || fail "--fit (2): $(cat "$T/fitq")"
"$PY" "$TOOLPY" --rows "$T/t.trace" >"$T/rows" || fail "--rows exit $?"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$(c["wakee"]) == "C" { printf "%.1f %.1f\n", $(c["util_p"]), $(c["util_a"]) }' "$T/rows" \
	>"$T/u"
[ "$(cat "$T/u")" = "2.6 233.8" ] || fail "C's and CPU 0's utilization: $(cat "$T/u")"
tool_error "$T/none.trace" none.trace
echo "wake_pack.sh: ok"
