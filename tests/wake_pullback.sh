#!/bin/sh
# tools/wake_pullback.py on a trace written by hand (docs/validate.md, "The just-woken wakee pulled
# back"). two_cpu_head: CPU 0 runs W (10), CPU 1 Y (12); Z (13) and Q (14) last ran on CPU 1, X
# (11) on CPU 0. Five wake-ups by W or Z on CPU 0 onto CPU 1 while it runs a task, each
# sched_wakeup 1 us after its sched_waking (times below from the waking):
#  1. W wakes Z at 1.000000, blocks at 1.00001 and CPU 0 pulls Z (migrated 2 us before):
#     queued, idle, cold (Z last ran 99.6 ms before), pulled; Z ran on A first: pulled back;
#     to the sleep 10 us.
#  2. W (woken by an interrupt) wakes Q at 1.0003; Q preempts Y at 1.00032, W blocks at
#     1.00033: ran; 30 us and 20 us.
#  3. W wakes Q again at 1.0006, 0.2 ms after Q last ran on CPU 1, and blocks at 1.00061 with Q
#     waiting: queued, idle, hot, not pulled; Q runs on CPU 1 at 1.0009: 10 us and 300 us.
#  4. An interrupt wakes Z onto CPU 0 while W runs; W wakes X at 1.00101 and is preempted by Z
#     at 1.00102: queued, waker preempted; X runs on CPU 1 at 1.0011: 10 us and 90 us.
#  5. Z wakes Q at 1.0012 and blocks at 1.00121, CPU 0 switching to the waiting W: queued, A
#     busy; Q runs on CPU 1 at 1.0013: 10 us and 100 us.
# By hand: 5 wake-ups, 1 pulled back, one of each class; medians 1 us to the wakeup, 10 us (10,
# 30, 10, 10, 10) to the switch-out, 95 us (20, 300, 90, 100) to the run on B.
# wake_situations.py --newidle's moments: W's sleeps at 1.00001 (Z cold, pulled), 1.00033 (Y
# waiting, preempted 10 us before: hot) and 1.00061 (Q hot): one cold moment, pulled: share 1,
# ratio 1024 - 2 = 1022; the tool's own cold wake-up the same. Two copies pooled give the same
# per trace. A file that does not exist, a trace of three CPUs, a trace with no such wake-up
# and no argument: exit 2.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
waking() { # CPU TIME COMM PID FLAGS WAKEE WPID TARGET: a sched_waking and its sched_wakeup 1 us on
	printf '%16s-%-7s [00%s] %s     %s: sched_waking: comm=%s pid=%s prio=120 target_cpu=00%s\n' \
		"$3" "$4" "$1" "$5" "$2" "$6" "$7" "$8"
	printf '%16s-%-7s [00%s] %s     %s: sched_wakeup: comm=%s pid=%s prio=120 target_cpu=00%s\n' \
		"$3" "$4" "$1" "$5" "$(echo "$2" | awk '{printf "%.6f", $1 + 0.000001}')" "$6" "$7" "$8"
}
{
	two_cpu_head
	waking 0 1.000000 W 10 d..3. Z 13 1
	printf '%16s-%-7s [000] d..4.     1.000008: sched_migrate_task: comm=Z pid=13 prio=120 orig_cpu=1 dest_cpu=0\n' W 10
	sw 0 1.000010 W 10 S Z 13
	sw 0 1.000100 Z 13 S swapper/0 0
	waking 0 1.000199 '<idle>' 0 d.h2. W 10 0
	sw 0 1.000200 swapper/0 0 R W 10
	waking 0 1.000300 W 10 d..3. Q 14 1
	sw 1 1.000320 Y 12 R+ Q 14
	sw 0 1.000330 W 10 S swapper/0 0
	sw 1 1.000400 Q 14 S Y 12
	waking 0 1.000499 '<idle>' 0 d.h2. W 10 0
	sw 0 1.000500 swapper/0 0 R W 10
	waking 0 1.000600 W 10 d..3. Q 14 1
	sw 0 1.000610 W 10 S swapper/0 0
	sw 1 1.000900 Y 12 S Q 14
	waking 0 1.000999 '<idle>' 0 d.h2. W 10 0
	sw 0 1.001000 swapper/0 0 R W 10
	waking 0 1.001005 W 10 d.h3. Z 13 0
	waking 0 1.001010 W 10 d..3. X 11 1
	sw 0 1.001020 W 10 R+ Z 13
	sw 1 1.001100 Q 14 S X 11
	waking 0 1.001200 Z 13 d..3. Q 14 1
	sw 0 1.001210 Z 13 S W 10
	sw 1 1.001300 X 11 S Q 14
	sw 0 1.001400 W 10 S swapper/0 0
	sw 1 1.001500 Q 14 S swapper/1 0
} >"$T/pull.trace"
cp "$T/pull.trace" "$T/pull2.trace"
"$PY" "$TOOLPY" "$T/pull.trace" "$T/pull2.trace" --model "$T/pull.trace" >"$T/out" ||
	fail "exit $? ($(cat "$T/out"))"
grep -q '^wake-ups  *5\.0  *5\.0$' "$T/out" &&
	grep -q '^pulled back  *1\.0  *1\.0$' "$T/out" &&
	grep -q '^ran  *1\.0  *1\.0$' "$T/out" &&
	grep -q '^queued, idle, hot  *1\.0  *0\.0  *0\.0  *1\.0  *0\.0  *0\.0$' "$T/out" &&
	grep -q '^queued, idle, cold  *1\.0  *1\.0  *0\.0  *1\.0  *1\.0  *0\.0$' "$T/out" &&
	grep -q '^queued, A busy  *1\.0  *1\.0$' "$T/out" &&
	grep -q '^queued, waker preempted  *1\.0  *1\.0$' "$T/out" &&
	grep -q '^moved  *0\.0  *0\.0$' "$T/out" &&
	grep -q "^to the sched_wakeup, us (median)  *1\.0  *1\.0$" "$T/out" &&
	grep -q "^to the waker's switch-out, us (median)  *10\.0  *10\.0$" "$T/out" &&
	grep -q "^to the wakee's run on B, us (median)  *95\.0  *95\.0$" "$T/out" &&
	grep -q '^real, cold newidle moments: 2, pulled 2 (100\.0%): param newidle_ratio=1022$' "$T/out" &&
	grep -q '^real, queued, idle, cold wake-ups: 2, pulled 2 (100\.0%): param newidle_ratio=1022$' "$T/out" &&
	grep -q '^model, cold newidle moments: 1, pulled 1' "$T/out" || fail "the table: $(cat "$T/out")"
"$PY" "$TOOLPY" --json "$T/pull.trace" >"$T/out" || fail "--json: exit $?"
"$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))["real"]
c = r["classes"]
assert (r["wakeups"], r["back"], r["woken_us"], r["to_sleep_us"], r["to_run_us"]) == (5, 1, 1.0, 10.0, 95.0), r
assert c["queued, idle, cold"] == dict(per_trace=1, pulled=1, another=0), c
assert (c["queued, idle, hot"]["pulled"], r["newidle_ratio"], r["newidle_ratio_own"]) == (0, 1022, 1022), r
' "$T/out" || fail "--json: $(cat "$T/out")"
tool_error "$T/missing.trace" missing.trace
sed 's/\[001\]/[002]/' "$T/pull.trace" >"$T/three.trace"
tool_error "$T/three.trace" "2-CPU"
two_cpu_head >"$T/none.trace"
tool_error "$T/none.trace" "no wake-up"
rc=0
"$PY" "$TOOLPY" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'Usage' "$T/err" || fail "no argument: exit $rc ($(cat "$T/err"))"
echo "wake_pullback.sh: ok"
