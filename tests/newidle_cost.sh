#!/bin/sh
# tools/newidle_cost.py on a trace written by hand (docs/validate.md, "The newidle balance's own
# time"). two_cpu_head: CPU 0 runs W (10), CPU 1 Y (12). On CPU 0, times from the sched_wakeup
# the blocking task writes there:
#  1. W wakes Z onto CPU 1 (wakeup 1.000001), pulls Q (its sched_migrate_task to CPU 0 written
#     by W at 1.000011) and switches to Q at 1.000014: pulled, 13 us, migrate 10 us, tail 3 us.
#  2. Q wakes X onto CPU 1 (wakeup 1.000101; Y writes a migrate of X to CPU 0 on CPU 1: not
#     CPU 0's pull) and blocks at 1.000106 to idle: idle, 5 us.
#  3. An interrupt wakes W; W wakes Q onto CPU 0 (1.000301) and blocks at 1.000305 to Q: busy,
#     4 us. 4. Q wakes W (1.000401) and blocks at 1.000407 to W: busy, 6 us.
#  5. W's wake-up from an interrupt (d.h4. flags) and W's block 9 us later: not counted.
#  6. W wakes X (1.000601) and blocks 299 us later (past the 200 us window): not counted.
# By hand: pulled 1 (13, 10, 3), busy 2 (median 5.0), idle 1 (5.0); newidle_cost = 10 - 5 =
# 5000 ns, newidle_tail 3000 ns. With the interrupt filter stubbed idle's median is 7.0, with
# the window stubbed 152.0, with the busy baseline stubbed newidle_cost 10000 ns: each fails
# (checked on throw-away copies). Two copies pooled: the same medians. A
# file that does not exist, a trace of three CPUs, a trace with no pull and no argument: exit 2.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
line() { # CPU TIME COMM PID FLAGS EVENT FIELDS
	printf '%16s-%-7s [00%s] %s     %s: %s: %s\n' "$3" "$4" "$1" "$5" "$2" "$6" "$7"
}
wk() { # CPU TIME COMM PID FLAGS WAKEE WPID TARGET: a sched_waking, its sched_wakeup 1 us on
	line "$1" "$2" "$3" "$4" "$5" sched_waking "comm=$6 pid=$7 prio=120 target_cpu=00$8"
	line "$1" "$(echo "$2" | awk '{printf "%.6f", $1 + 0.000001}')" "$3" "$4" "$5" \
		sched_wakeup "comm=$6 pid=$7 prio=120 target_cpu=00$8"
}
{
	two_cpu_head
	wk 0 1.000000 W 10 d..3. Z 13 1
	line 0 1.000011 W 10 d..4. sched_migrate_task "comm=Q pid=14 prio=120 orig_cpu=1 dest_cpu=0"
	sw 0 1.000014 W 10 S Q 14
	wk 0 1.000100 Q 14 d..3. X 11 1
	line 1 1.000103 Y 12 d..4. sched_migrate_task "comm=X pid=11 prio=120 orig_cpu=1 dest_cpu=0"
	sw 0 1.000106 Q 14 S swapper/0 0
	wk 0 1.000199 '<idle>' 0 d.h2. W 10 0
	sw 0 1.000200 swapper/0 0 R W 10
	wk 0 1.000300 W 10 d..3. Q 14 0
	sw 0 1.000305 W 10 S Q 14
	wk 0 1.000400 Q 14 d..3. W 10 0
	sw 0 1.000407 Q 14 S W 10
	wk 0 1.000500 W 10 d.h3. Z 13 1
	sw 0 1.000510 W 10 S swapper/0 0
	wk 0 1.000598 '<idle>' 0 d.h2. W 10 0
	sw 0 1.000599 swapper/0 0 R W 10
	wk 0 1.000600 W 10 d..3. X 11 1
	sw 0 1.000900 W 10 S swapper/0 0
} >"$T/pull.trace"
cp "$T/pull.trace" "$T/pull2.trace"
"$PY" "$TOOLPY" "$T/pull.trace" "$T/pull2.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
grep -q '^  pulled       2  to the switch-out 13\.0  to the sched_migrate_task 10\.0, from it to the switch 3\.0$' "$T/out" &&
	grep -q '^  busy         4  to the switch-out 5\.0$' "$T/out" &&
	grep -q '^  idle         2  to the switch-out 5\.0$' "$T/out" &&
	grep -q '^newidle_cost=5000ns newidle_tail=3000ns$' "$T/out" || fail "the table: $(cat "$T/out")"
"$PY" "$TOOLPY" --json "$T/pull.trace" >"$T/out" || fail "--json: exit $?"
"$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["pulled"] == dict(n=1, to_switch_us=13.0, to_migrate_us=10.0, migrate_to_switch_us=3.0), r
assert (r["busy"], r["idle"]) == (dict(n=2, to_switch_us=5.0), dict(n=1, to_switch_us=5.0)), r
assert (r["newidle_cost_ns"], r["newidle_tail_ns"], r["traces"]) == (5000, 3000, 1), r
' "$T/out" || fail "--json: $(cat "$T/out")"
tool_error "$T/missing.trace" missing.trace
sed 's/\[001\]/[002]/' "$T/pull.trace" >"$T/three.trace"
tool_error "$T/three.trace" "2-CPU"
two_cpu_head >"$T/none.trace"
tool_error "$T/none.trace" "no newidle pull"
rc=0
"$PY" "$TOOLPY" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'Usage' "$T/err" || fail "no argument: exit $rc ($(cat "$T/err"))"
echo "newidle_cost.sh: ok"
