#!/bin/sh
# tools/preempt_switch.py on a trace written by hand. Counted (a task's wake-up in task context,
# the first on its CPU since the last switch, the CPU's next switch from the waker left
# runnable to that wakee): A wakes B on CPU 0 and is switched out R to B 4 us later; E wakes F
# on CPU 1, R+ to F 9 us later; B wakes C and is switched out R to C 3 us later. Not counted:
# A's wake-up of D followed by A asleep (S) to D; an interrupt's (h flag) wake-up of D on
# CPU 0 followed by B (R) to D; E's wake-up of G (an hrtimer entry at the same instant: the
# timer's) before E (R) to G; E's wake-up of F after E's wake-up of H on the same CPU before the
# switch (only the first counts: H, and the switch goes to F); F's wake-up of G followed by F
# (R) to another task, I. By hand: 3 delays, 3, 4 and 9 us: p10 3.0 (nearest rank 1), p25 3.0,
# p50 4.0 (rank 2), p75 9.0, p90 9.0, task_preempt 4000 ns. Then the errors: no such
# preemption, a file that does not exist, a cut .xz, an option (exit 2).
set -eu
. "$(dirname "$0")/pytool.sh"
sw() { # CPU TIME PREV PREVPID STATE NEXT NEXTPID
	printf '%16s-%-7d [%03d] d..2. %s: sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> next_comm=%s next_pid=%d next_prio=120\n' \
		"$3" "$4" "$1" "$2" "$3" "$4" "$5" "$6" "$7"
}
wk() { # CPU TIME CTX CTXPID FLAGS WAKEE PID
	printf '%16s-%-7d [%03d] %s %s: sched_waking: comm=%s pid=%d prio=120 target_cpu=%03d\n' \
		"$3" "$4" "$1" "$5" "$2" "$6" "$7" "$1"
}
{
	echo '# tracer: nop'
	sw 0 100.000000 swapper/0 0 R A 11
	sw 1 100.000000 swapper/1 0 R E 15
	wk 0 100.000010 A 11 d..3. B 12
	sw 0 100.000014 A 11 R B 12
	wk 0 100.000020 B 12 d..3. C 13
	sw 0 100.000023 B 12 R C 13
	sw 0 100.000030 C 13 S A 11
	wk 0 100.000040 A 11 d..3. D 14
	sw 0 100.000041 A 11 S D 14
	sw 0 100.000050 D 14 S B 12
	wk 0 100.000060 B 12 d.h3. D 14
	sw 0 100.000062 B 12 R D 14
	wk 1 100.000100 E 15 d..3. F 16
	sw 1 100.000109 E 15 R+ F 16
	sw 1 100.000120 F 16 S E 15
	echo '               E-15      [001] d.h1. 100.000130: hrtimer_expire_entry: hrtimer=0000000000000001 function=hrtimer_wakeup now=100000130000'
	wk 1 100.000130 E 15 d..3. G 17
	sw 1 100.000132 E 15 R G 17
	sw 1 100.000140 G 17 S E 15
	wk 1 100.000150 E 15 d..3. H 18
	wk 1 100.000151 E 15 d..3. F 16
	sw 1 100.000155 E 15 R F 16
	wk 1 100.000160 F 16 d..3. G 17
	sw 1 100.000165 F 16 R I 19
} >"$T/p.trace"
"$PY" "$TOOLPY" "$T/p.trace" >"$T/out" 2>"$T/err" || fail "exit $?: $(cat "$T/err")"
grep -q '^3 wake-ups preempting their waker on its own CPU; from the sched_waking to the switch (us): p10 3.0, p25 3.0, p50 4.0, p75 9.0, p90 9.0$' "$T/out" ||
	fail "delays: $(cat "$T/out")"
grep -q '^param task_preempt=4000ns$' "$T/out" || fail "param: $(cat "$T/out")"
# a directory holding the trace as real.trace is read the same way
mkdir "$T/d"
cp "$T/p.trace" "$T/d/real.trace"
"$PY" "$TOOLPY" "$T/d" | cmp -s - "$T/out" || fail "directory: $("$PY" "$TOOLPY" "$T/d")"
# errors
# the three counted switches with their waker asleep (S) instead: none left
sed -e '/ 100\.000\(014\|023\|109\): sched_switch/s/prev_state=R+* /prev_state=S /' "$T/p.trace" >"$T/none.trace"
[ "$(grep -c 'prev_state=S ' "$T/none.trace")" -eq 8 ] || fail "making none.trace: $(cat "$T/none.trace")"
tool_error "$T/none.trace" 'no task preempted by its own wakee'
tool_error "$T/missing.trace" 'missing.trace'
tool_cut_xz "$T/p.trace"
tool_error "$T/p.trace" Usage --x
echo "preempt_switch: ok"
