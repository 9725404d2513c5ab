#!/bin/sh
# tools/wake_first.py (whether a task's wakee runs before it, inside and after the waker's first
# 1.4 ms) on a trace written by hand. X (11) and Y (12) were last seen switched out on CPU 1 at
# 0.8995 and 0.9; W (10) runs on CPU 0 from 1.0. Values by hand:
# 1. 1.000500: W (0.5 ms into its run) wakes X (asleep 100.5 ms) onto CPU 0; W's next switch
#    is a preemption to X: inside the window, first. X sleeps at 1.0006 and W runs again.
# 2. 1.002100: W (1.5 ms since 1.0006) wakes Y onto CPU 0 and sleeps (S) to it: after, kept.
# 3. 1.002500: W (0.2 ms since 1.0023) wakes Y, asleep 0.2 ms: not counted (under 1 ms); Y
#    preempts W.
# 4. 1.004100: W (1.5 ms since 1.0026) wakes X (out at 1.0006, 3.5 ms) onto CPU 0, preempted
#    by it: after, first.
# 5. An interrupt (the idle task's line) wakes Z onto CPU 1: not a task's wake-up.
# 6. W wakes Z onto CPU 1 (another CPU): not counted.
# 7. Two interrupts' wake-ups of Y onto CPU 0 while W runs there, written in W's name: one with
#    the hardirq flag (d.h3.), one at the timestamp of an hrtimer_expire_entry line on CPU 0 (as
#    the model writes a timer's): neither is W's (ftrace_lines.task_waking); counted, case 2
#    would find one pending and W's sleep to Y would be kept here, not at case 2.
# So inside 1 of 1 (1000), after 1 of 2 (500). --window 2000: cases 2 and 4 are inside: 2 of 3
# (667), none after. --sleep 100: case 3 counts (inside, Y first): inside 2 of 2.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
# wk CPU TIME LINE_COMM LINE_PID WAKEE WAKEE_PID TARGET: a sched_wakeup line
wk() {
	printf '%16s-%-7s [00%s] d..3.     %s: sched_wakeup: comm=%s pid=%s prio=120 target_cpu=00%s\n' \
		"$3" "$4" "$1" "$2" "$5" "$6" "$7"
}
{
	printf '# tracer: nop\n#\n'
	sw 1 0.899000 swapper/1 0 R X 11
	sw 1 0.899500 X 11 S Y 12
	sw 1 0.900000 Y 12 S swapper/1 0
	sw 0 1.000000 swapper/0 0 R W 10
	wk 0 1.000500 W 10 X 11 0
	sw 0 1.000510 W 10 R+ X 11
	sw 0 1.000600 X 11 S W 10
	printf '%16s-%-7s [000] d.h3.     1.000700: sched_wakeup: comm=Y pid=12 prio=120 target_cpu=000\n' W 10
	printf '%16s-%-7s [000] d.h1.     1.000800: hrtimer_expire_entry: hrtimer=1 function=hrtimer_wakeup now=1\n' W 10
	wk 0 1.000800 W 10 Y 12 0
	wk 0 1.002100 W 10 Y 12 0
	sw 0 1.002200 W 10 S Y 12
	sw 0 1.002300 Y 12 S W 10
	wk 0 1.002500 W 10 Y 12 0
	sw 0 1.002510 W 10 R+ Y 12
	sw 0 1.002600 Y 12 S W 10
	wk 1 1.003000 '<idle>' 0 Z 13 1
	wk 0 1.003100 W 10 Z 13 1
	wk 0 1.004100 W 10 X 11 0
	sw 0 1.004110 W 10 R+ X 11
} >"$T/w.trace"
"$PY" "$TOOLPY" "$T/w.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
want="$T/w.trace: inside the window: wakee first 1 of 1 (1000 per 1000); after the window: \
wakee first 1 of 2 (500 per 1000)"
[ "$(cat "$T/out")" = "$want" ] || fail "got '$(cat "$T/out")', expected '$want'"
"$PY" "$TOOLPY" --window 2000 "$T/w.trace" >"$T/out" || fail "window: exit $?"
grep -q "inside the window: wakee first 2 of 3 (667 per 1000); after the window: wakee first 0 \
of 0 (- per 1000)$" "$T/out" || fail "window: $(cat "$T/out")"
"$PY" "$TOOLPY" --sleep 100 "$T/w.trace" >"$T/out" || fail "sleep: exit $?"
grep -q "inside the window: wakee first 2 of 2 (1000 per 1000)" "$T/out" ||
	fail "sleep: $(cat "$T/out")"
"$PY" "$TOOLPY" "$T/w.trace" "$T/w.trace" >"$T/out" || fail "two: exit $?"
grep -q "^all 2: inside the window: wakee first 2 of 2" "$T/out" || fail "two: $(cat "$T/out")"
# --pairs: inside the window, by pair: W -> X first 1 of 1 (case 1; case 4 is after); with
# --window 2000 case 4 is inside too (X first again: 2 of 2) and case 2 is W -> Y kept (0 of 1).
"$PY" "$TOOLPY" --pairs "$T/w.trace" >"$T/out" || fail "pairs: exit $?"
[ "$(sed -n '2,$p' "$T/out")" = "inside the window, by pair (all traces):
  W -> X: wakee first 1 of 1 (1000 per 1000)" ] || fail "pairs: $(cat "$T/out")"
"$PY" "$TOOLPY" --pairs --window 2000 "$T/w.trace" >"$T/out" || fail "pairs window: exit $?"
[ "$(sed -n '2,$p' "$T/out")" = "inside the window, by pair (all traces):
  W -> X: wakee first 2 of 2 (1000 per 1000)
  W -> Y: wakee first 0 of 1 (0 per 1000)" ] || fail "pairs window: $(cat "$T/out")"
tool_error "$T/none.trace" none.trace
tool_cut_xz "$T/w.trace"
printf '# tracer: nop\n' >"$T/empty.trace"
tool_error "$T/empty.trace" "no wake-up counted"
for bad in "--window -1" "--sleep abc" "--bogus" "--window"; do
	rc=0
	# shellcheck disable=SC2086
	"$PY" "$TOOLPY" $bad "$T/w.trace" >/dev/null 2>"$T/err" || rc=$?
	[ "$rc" -eq 2 ] || fail "$bad: exit $rc, expected 2"
done
echo "wake_first: ok"
