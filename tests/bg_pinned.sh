#!/bin/sh
# tools/bg_pinned.py on a trace written by hand beside its rt-app JSON (tasks A and B). The
# switches to: A, B, rt-app (the file's: not counted), swapper (idle: not counted),
# kworker/0:1, ksoftirqd/1, kworker/1:2H (bound: 3), kworker/u8:3, rcu_preempt, bash, bash
# (free: 4). By hand: bound 3, free 4, background_pinned 3 * 1000 / 7 = 429 (rounded). Then the
# errors: a trace without its JSON, two JSONs beside it, no foreign switch, a file that does
# not exist, a cut .xz, an option (exit 2, named).
set -eu
. "$(dirname "$0")/pytool.sh"
S='prev_prio=120 prev_state'
N='next_prio=120'
mkdir -p "$T/d"
cat >"$T/d/f.json" <<'J'
{ "tasks" : { "A" : { "loop" : -1, "run" : 100 }, "B" : { "loop" : -1, "run" : 100 } } }
J
sw() { # CPU TIME NEXT_COMM NEXT_PID
	echo "          <idle>-0       [00$1] d..2.     $2: sched_switch: prev_comm=X prev_pid=99 $S=R ==> next_comm=$3 next_pid=$4 $N"
}
{
	echo "# tracer: nop"
	sw 0 1.000000 A 11
	sw 1 1.000100 B 12
	sw 0 1.000200 rt-app 10
	sw 0 1.000300 swapper/0 0
	sw 0 1.000400 kworker/0:1 21
	sw 1 1.000500 ksoftirqd/1 22
	sw 1 1.000600 kworker/1:2H 23
	sw 0 1.000700 kworker/u8:3 24
	sw 1 1.000800 rcu_preempt 25
	sw 0 1.000900 bash 26
	sw 1 1.001000 bash 26
} >"$T/d/real.trace"
"$PY" "$TOOLPY" "$T/d/real.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
grep -q "^total  *3  *4$" "$T/out" || fail "counts: $(cat "$T/out")"
grep -q '^# bound: .*kworker/1:2H 1' "$T/out" && grep -q '^# free: bash 2' "$T/out" ||
	fail "commonest: $(cat "$T/out")"
grep -q '^background_pinned 429$' "$T/out" || fail "share: $(cat "$T/out")"
# errors
mkdir -p "$T/nojson" "$T/two" "$T/none"
cp "$T/d/real.trace" "$T/nojson/real.trace"
cp "$T/d/real.trace" "$T/two/real.trace"
cp "$T/d/f.json" "$T/two/f.json"
cp "$T/d/f.json" "$T/two/g.json"
tool_error "$T/nojson/real.trace" "nojson/real.trace: expected one rt-app \*.json beside it (found 0)"
tool_error "$T/two/real.trace" "expected one rt-app \*.json beside it (found 2)"
cp "$T/d/f.json" "$T/none/f.json"
{
	echo "# tracer: nop"
	sw 0 1.000000 A 11
	sw 0 1.000300 swapper/0 0
} >"$T/none/real.trace"
tool_error "$T/none/real.trace" "no switch to a foreign task"
tool_error "$T/d/missing.trace" "missing.trace"
tool_cut_xz "$T/d/real.trace"
tool_error "$T/d/real.trace" Usage --json
exit 0
