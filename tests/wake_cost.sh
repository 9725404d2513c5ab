#!/bin/sh
# tools/wake_cost.py on a trace written by hand (docs/validate.md, "The wake-up's time in the
# waker"). two_cpu_head: CPU 0 runs W (10), CPU 1 Y (12); X (11) last ran on CPU 0, Z (13) and
# Q (14) on CPU 1. Then:
#  1. own: W wakes X onto CPU 0 at 1.000000, sched_wakeup 1 us later; W's next event is its
#     next wake-up, 3 us after the waking (2 after the sched_wakeup).
#  2. busy other: W wakes Z onto CPU 1 (Y running) at 1.000003, sched_wakeup on CPU 0 12 us
#     later; W blocks (switching to X) 17 us after the waking (5 after the sched_wakeup); Z
#     preempts Y at 1.000024: 9 us after the sched_wakeup, 21 after the waking.
#  3. idle other: Z blocks (CPU 1 to the waiting Y), Y blocks (CPU 1 idle); X wakes Q onto CPU
#     1 at 1.0002, its sched_wakeup written on CPU 1 30 us later; X blocks 10 us after the
#     waking, before the sched_wakeup (no "after"); Q runs on CPU 1, not a preemption.
#  4. Q's wake-up of Z from a hard interrupt (flags h): not counted.
# With an interrupt's entry line on CPU 0 at 1.000000 (W's first waking then the interrupt's):
# own 0, busy other and idle other as before.
# By hand: one wake-up a class; own: enqueue 1.0 us, on A 1.0, next 3.0, after 2.0; busy
# other: 12.0, 1.0, 17.0, 5.0, preempt 9.0, from the waking 21.0, 1 preemption; idle other:
# 30.0, 0.0, 10.0, no after. Two copies pooled: the same medians, twice the counts. A file
# that does not exist, a trace of three CPUs, a trace with no such wake-up and no argument:
# exit 2.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
{
	two_cpu_head
	wl 0 1.000000 W 10 d..3. sched_waking X 11 0
	wl 0 1.000001 W 10 d..4. sched_wakeup X 11 0
	wl 0 1.000003 W 10 d..3. sched_waking Z 13 1
	wl 0 1.000015 W 10 d..4. sched_wakeup Z 13 1
	sw 0 1.000020 W 10 S X 11
	sw 1 1.000024 Y 12 R+ Z 13
	sw 1 1.000100 Z 13 S Y 12
	sw 1 1.000150 Y 12 S swapper/1 0
	wl 0 1.000200 X 11 d..3. sched_waking Q 14 1
	sw 0 1.000210 X 11 S swapper/0 0
	wl 1 1.000230 '<idle>' 0 d.h2. sched_wakeup Q 14 1
	sw 1 1.000240 swapper/1 0 R Q 14
	wl 1 1.000300 Q 14 d.h3. sched_waking Z 13 1
	wl 1 1.000301 Q 14 d.h4. sched_wakeup Z 13 1
	sw 1 1.000400 Q 14 S Z 13
} >"$T/cost.trace"
cp "$T/cost.trace" "$T/cost2.trace"
"$PY" "$TOOLPY" "$T/cost.trace" "$T/cost2.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
grep -q '^own  *2  *1\.0  *1\.0  *3\.0  *2\.0  *None  *None  *0$' "$T/out" &&
	grep -q '^busy other  *2  *12\.0  *1\.0  *17\.0  *5\.0  *9\.0  *21\.0  *2$' "$T/out" &&
	grep -q '^idle other  *2  *30\.0  *0\.0  *10\.0  *None  *None  *None  *0$' "$T/out" ||
	fail "the table: $(cat "$T/out")"
"$PY" "$TOOLPY" --json "$T/cost.trace" >"$T/out" || fail "--json: exit $?"
"$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))
b = r["busy other"]
assert (b["n"], b["enqueue"], b["on_a"], b["next"], b["after"]) == (1, 12.0, 1.0, 17.0, 5.0), b
assert (b["preempt"], b["preempt_call"], b["n_preempt"]) == (9.0, 21.0, 1), b
assert (r["own"]["n"], r["own"]["enqueue"], r["idle other"]["enqueue"]) == (1, 1.0, 30.0), r
assert r["idle other"]["after"] is None, r
' "$T/out" || fail "--json: $(cat "$T/out")"
# an interrupt's entry line on CPU 0 at the time of W's first waking, which has no h flag: that
# waking is the interrupt's (ftrace_lines.sched_lines marks the CPU), not W's: own 0, the rest
# as before
awk '/ 1\.000000: sched_waking/ { printf "%16s-%-7s [000] d.h1. 1.000000: hrtimer_expire_entry: hrtimer=0 function=tick_nohz_handler now=1000000000\n", "W", "10" } { print }' \
	"$T/cost.trace" >"$T/irq.trace"
"$PY" "$TOOLPY" --json "$T/irq.trace" >"$T/out" || fail "irq: exit $?"
"$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["own"]["n"] == 0 and r["busy other"]["n"] == 1 and r["idle other"]["n"] == 1, r
assert (r["busy other"]["enqueue"], r["busy other"]["next"]) == (12.0, 17.0), r
' "$T/out" || fail "irq: $(cat "$T/out")"
tool_error "$T/missing.trace" missing.trace
sed 's/\[001\]/[002]/' "$T/cost.trace" >"$T/three.trace"
tool_error "$T/three.trace" "2-CPU"
two_cpu_head >"$T/none.trace"
tool_error "$T/none.trace" "no wake-up"
rc=0
"$PY" "$TOOLPY" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'Usage' "$T/err" || fail "no argument: exit $rc ($(cat "$T/err"))"
echo "wake_cost.sh: ok"
