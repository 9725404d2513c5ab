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
. "$(dirname "$0")/trace_fixture.sh"
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
# others queued stayed (vcpu_pack_queued 1000; D runs at last at 1.0002, so it waits), the
# other lines as above; without a size
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
               A-10      [000] d..2.     1.000200: sched_switch: prev_comm=A prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=D next_pid=15 next_prio=120
TR
"$PY" "$TOOLPY" --fit "$T/t.trace" "$T/q.trace" >"$T/fitq" || fail "--fit (2) exit $?"
grep -q '^param vcpu_pack_waker=1000$' "$T/fitq" && grep -q '^param vcpu_pack_queued=1000$' "$T/fitq" &&
	grep -q '^# 1 wake-ups of a task last on the waker.s CPU, others queued there, 1 stayed$' \
		"$T/fitq" &&
	grep -q 'where 1 went (100.0%): vcpu_pack_room=300 vcpu_pack_small=1024 vcpu_pack_prio=100$' \
		"$T/fitq" || fail "--fit (2): $(cat "$T/fitq")"
# --sum: the room on util_sum_a. Here CPU 0's attached tasks at 1.0001 are B (asleep, 231.6)
# and A (running, 2.2): the busy time's 233.8, so the same lines, and the flag's line
"$PY" "$TOOLPY" --fit --sum "$T/t.trace" "$T/q.trace" >"$T/fits" || fail "--fit --sum exit $?"
! grep -q '^param vcpu_pack_room_sum=' "$T/fitq" || fail "--fit without --sum: the sum's line"
grep -q '^param vcpu_pack_room_sum=1$' "$T/fits" &&
	grep -q 'where 1 went (100.0%): vcpu_pack_room=300 vcpu_pack_small=1024 vcpu_pack_prio=100$' \
		"$T/fits" || fail "--fit --sum: $(cat "$T/fits")"
"$PY" "$TOOLPY" --rows "$T/t.trace" >"$T/rows" || fail "--rows exit $?"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$(c["wakee"]) == "C" { printf "%.1f %.1f\n", $(c["util_p"]), $(c["util_a"]) }' "$T/rows" \
	>"$T/u"
[ "$(cat "$T/u")" = "2.6 233.8" ] || fail "C's and CPU 0's utilization: $(cat "$T/u")"

# Lost lines and a busy idle CPU (lost.trace; docs/validate.md, "Lost lines, and the rates
# measured again"). W (10) runs on CPU 0; X, Y, V, U (11, 12, 15, 16) last ran there, Z (13)
# on CPU 1, which idles. e1: W wakes Y (last on A, A alone): Y goes to CPU 1. e2: W wakes Z
# (last on B): Z goes to CPU 1. Then bash (20) takes CPU 0 from W and W takes it back: bash
# waits there, and no later line names it (its lines were lost). e3: W wakes X (last on A):
# X stays. e4: W wakes Z onto CPU 1, which runs its idle task until 1.0203; e5, meanwhile: W
# wakes X, which stays (CPU 1 is not idle: Z waits there). An interrupt wakes V onto CPU 0, V
# runs and W takes CPU 0 back: V waits there (it runs at 1.05). e6: W wakes X (last on A, V
# waiting): X stays; e7: W wakes U (last on A, V and X waiting): U goes to CPU 1.
# By hand, bash not waiting after its last line and e5 left out: alone e1 e3, 1 of 2 stayed
# (vcpu_pack_waker 500); last on B e2 e4, none joined; queued e6 e7, 1 of 2 (vcpu_pack_queued
# 500). Read as before (bash waiting, CPU 1 idle while Z waits there): alone e1 only (0), last
# on B e2 (e4 had bash queued on A), queued e3 e5 e6 e7, 3 of 4 (750).
wk() { # wk CPU TIME WAKEE PID TARGET [FLAGS]: W's waking and the wake-up onto TARGET
	printf '%16s-%-7s [00%s] %s     %s: sched_waking: comm=%s pid=%s prio=120 target_cpu=00%s\n' \
		W 10 "$1" "${6:-d..3.}" "$2" "$3" "$4" "$1"
	printf '%16s-%-7s [00%s] %s     %s1: sched_wakeup: comm=%s pid=%s prio=120 target_cpu=00%s\n' \
		W 10 "$1" "${6:-d..4.}" "$2" "$3" "$4" "$5"
}
{
	printf '# tracer: nop\n#\n'
	sw 0 0.900000 swapper/0 0 R X 11
	sw 1 0.900000 swapper/1 0 R Z 13
	sw 0 0.900010 X 11 S Y 12
	sw 0 0.900020 Y 12 S V 15
	sw 0 0.900030 V 15 S U 16
	sw 0 0.900040 U 16 S W 10
	sw 1 0.900050 Z 13 S swapper/1 0
	wk 0 0.92000 Y 12 1
	sw 1 0.920010 swapper/1 0 R Y 12
	sw 1 0.920020 Y 12 S swapper/1 0
	wk 0 0.93000 Z 13 1
	sw 1 0.930010 swapper/1 0 R Z 13
	sw 1 0.930020 Z 13 S swapper/1 0
	sw 0 0.950000 W 10 R+ bash 20
	sw 0 0.950010 bash 20 R+ W 10
	wk 0 1.00000 X 11 0
	sw 0 1.000010 W 10 R+ X 11
	sw 0 1.000020 X 11 S W 10
	wk 0 1.02000 Z 13 1
	wk 0 1.02010 X 11 0
	sw 0 1.020110 W 10 R+ X 11
	sw 0 1.020120 X 11 S W 10
	sw 1 1.020300 swapper/1 0 R Z 13
	sw 1 1.020310 Z 13 S swapper/1 0
	wk 0 1.03000 V 15 0 d.h3. d.h4.
	sw 0 1.030010 W 10 R+ V 15
	sw 0 1.030020 V 15 R+ W 10
	wk 0 1.04000 X 11 0
	wk 0 1.04010 U 16 1
	sw 1 1.040110 swapper/1 0 R U 16
	sw 1 1.040120 U 16 S swapper/1 0
	sw 0 1.050000 W 10 S V 15
	sw 0 1.050010 V 15 S X 11
	sw 0 1.050020 X 11 S swapper/0 0
} >"$T/lost.trace"
"$PY" "$TOOLPY" --fit "$T/lost.trace" >"$T/fitl" || fail "lost: exit $? ($(cat "$T/fitl"))"
grep -q "^# wake_pack.py --fit: 2 wake-ups of a task last on the waker's CPU, the waker alone there, 1 stayed;$" "$T/fitl" &&
	grep -q '^param vcpu_pack_waker=500$' "$T/fitl" &&
	grep -q '^# of the 2 last on the idle CPU, 0 joined the waker$' "$T/fitl" &&
	grep -q "^# 2 wake-ups of a task last on the waker's CPU, others queued there, 1 stayed$" "$T/fitl" &&
	grep -q '^param vcpu_pack_queued=500$' "$T/fitl" || fail "lost: $(cat "$T/fitl")"
"$PY" "$TOOLPY" "$T/lost.trace" >"$T/outl" || fail "lost (table): exit $?"
grep -q '^6 wake-ups by a running task with the other CPU idle; 2 ran on the waker' "$T/outl" ||
	fail "lost (table): $(head -1 "$T/outl")"
tool_error "$T/none.trace" none.trace
echo "wake_pack.sh: ok"
