#!/bin/sh
# tools/newidle_split.py on a trace written by hand (docs/validate.md, "The newidle pulls, rule
# by rule against 6.18"). C (12) runs on CPU 1 for 1 ms from 0, then B (11) runs there to the
# end; A (10) runs on CPU 0 and sleeps at 10 ms. At 30 ms B wakes C onto CPU 1 (it waits: slept
# 29 ms since 1 ms) and an interrupt wakes A on CPU 0. A sleeps at 32 ms with C waiting on CPU 1:
# moment 1, not pulled (A comes back at 40 ms). A sleeps again at 41.005 ms after CPU 0 took C
# (migrated at 41 ms): moment 2, pulled. By hand, CPU 1 over the 32 ms before each moment: busy
# all of it (C, then B); runnable one task but two from 30 ms: moment 1 (30 x 1 + 2 x 2) / 32 =
# 1.0625, moment 2 (21.005 x 1 + 11 x 2) / 32 = 1.3439. One waiter, C: last run 1 ms, last ran
# 31 and 40.005 ms before, slept 29 ms, cold. So: busy >=85.4 2.0 at 50%; runnable 1-1.17 1.0 at
# 0% and 1.17-1.5 1.0 at 100%; run 0.5-2 ms, since >=8, sleep >=8, cold and task C: 2.0 at 50%;
# pulled tasks C 1.0. --cold keeps both; --skip B,C none (exit 2). A trace with no moment, a
# file that does not exist and an unknown option: exit 2.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
{
	printf '# tracer: nop\n#\n'
	sw 1 0.000000 swapper/1 0 R C 12
	sw 0 0.000000 swapper/0 0 R A 10
	sw 1 0.001000 C 12 S B 11
	sw 0 0.010000 A 10 S swapper/0 0
} >"$T/head"
{
	cat "$T/head"
	cat <<'TR'
               B-11      [001] d..3.     0.030000: sched_waking: comm=C pid=12 prio=120 target_cpu=001
               B-11      [001] d..4.     0.030001: sched_wakeup: comm=C pid=12 prio=120 target_cpu=001
          <idle>-0       [000] d.h2.     0.030002: sched_waking: comm=A pid=10 prio=120 target_cpu=000
          <idle>-0       [000] dNh2.     0.030003: sched_wakeup: comm=A pid=10 prio=120 target_cpu=000
TR
	sw 0 0.030010 swapper/0 0 R A 10
	sw 0 0.032000 A 10 S swapper/0 0
	cat <<'TR'
          <idle>-0       [000] d.h2.     0.039999: sched_waking: comm=A pid=10 prio=120 target_cpu=000
          <idle>-0       [000] dNh2.     0.040000: sched_wakeup: comm=A pid=10 prio=120 target_cpu=000
TR
	sw 0 0.040000 swapper/0 0 R A 10
	cat <<'TR'
               A-10      [000] d..4.     0.041000: sched_migrate_task: comm=C pid=12 prio=120 orig_cpu=1 dest_cpu=0
TR
	sw 0 0.041005 A 10 S C 12
	sw 0 0.042000 C 12 S swapper/0 0
	sw 1 0.050000 B 11 S swapper/1 0
} >"$T/two.trace"
"$PY" "$TOOLPY" "$T/two.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
grep -q '^ *>=85\.4  *2\.0  *50$' "$T/out" &&
	grep -q '^ *1-1\.17  *1\.0  *0$' "$T/out" &&
	grep -q '^ *1\.17-1\.5  *1\.0  *100$' "$T/out" &&
	grep -q '^ *0\.5-2  *2\.0  *50$' "$T/out" &&
	[ "$(grep -c '^ *>=8  *2\.0  *50$' "$T/out")" -eq 2 ] &&
	grep -q '^ *cold  *2\.0  *50$' "$T/out" &&
	grep -q '^ *C  *2\.0  *50$' "$T/out" &&
	grep -q '^pulled tasks per trace, real: C 1\.0$' "$T/out" || fail "$(cat "$T/out")"
"$PY" "$TOOLPY" --json "$T/two.trace" --model "$T/two.trace" "$T/two.trace" >"$T/out" ||
	fail "--json: exit $?"
"$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))
run = {x["cls"]: x for x in r["splits"]["runnable"]}
assert r["model_traces"] == 2 and run["1.17-1.5"]["model_n"] == 1.0, r
assert run["1.17-1.5"]["real_pulled"] == 1.0 and run[">=2"]["real_pulled"] is None, run
assert r["pulled_tasks"] == {"real": {"C": 1.0}, "model": {"C": 1.0}}, r["pulled_tasks"]
' "$T/out" || fail "--json: $(cat "$T/out")"
# --cold keeps both (C is cold); --skip C leaves none: exit 2
"$PY" "$TOOLPY" --cold "$T/two.trace" >"$T/out" || fail "--cold: exit $?"
grep -q '^ *>=85\.4  *2\.0  *50$' "$T/out" || fail "--cold: $(cat "$T/out")"
rc=0
"$PY" "$TOOLPY" --skip B,C "$T/two.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'of those kept' "$T/err" || fail "--skip: exit $rc $(cat "$T/err")"
tool_error "$T/head" 'no CPU went idle'
tool_error "$T/none.trace" none.trace
rc=0
"$PY" "$TOOLPY" --by x "$T/two.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'unknown option' "$T/err" || fail "--by: exit $rc"
echo "newidle_split.sh: ok"
