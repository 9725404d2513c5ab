#!/bin/sh
# tools/idle_kick.py on a trace written by hand (docs/validate.md, "The idle vCPU's balances").
# A runs on CPU 0 throughout; CPU 1 is idle from the start (0.9 s).
# 1.000000  A wakes B onto CPU 0: B waits there, CPU 1 idle: a wait starts.
# 1.002600  CPU 1 leaves idle; 50 us later B is moved to it in its idle task's context (no
#           wake-up): an idle balance's move, the exit's outcome "pull"; B waited 2650 us.
# 1.006600  CPU 1 leaves idle and goes back 10 us later: "nothing".
# 1.007300  A wakes B onto CPU 1, which leaves idle for it: "wake".
# 1.008000  A wakes W onto CPU 0 (CPU 1 idle): a wait, ended at 1.008500 by W run on CPU 0
#           ("ran", 500 us).
# The exits' phases modulo 4 ms: 2.6 ms twice, 3.3 ms once: the tick's phase is 2.6 ms (the
# densest 100 us bin), so the first two are the tick's and the third is not; CPU 0 is busy at
# all three. With --min 2 the span is from B's first switch-in to its last (it is the one task
# switched in twice), 1.002660-1.007310 (4.65 ms): one event of each kind is 1 / 0.00465 =
# 215.05 per second.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
ev() { # ev CTX_COMM CTX_PID CPU FLAGS TIME EVENT FIELDS
	printf '%16s-%-7s [00%s] %s     %s: %s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7"
}
idle() { # idle CPU TIME STATE
	ev '<idle>' 0 "$1" d..1. "$2" cpu_idle "state=$3 cpu_id=$1"
}
B='comm=B pid=12 prio=120'
{
	printf '# tracer: nop\n#\n'
	sw 0 0.900000 swapper/0 0 R A 11
	idle 1 0.900000 1
	ev A 11 0 d..3. 1.000000 sched_waking "$B target_cpu=000"
	ev A 11 0 d..4. 1.000000 sched_wakeup "$B target_cpu=000"
	idle 1 1.002600 4294967295
	ev '<idle>' 0 1 d..2. 1.002650 sched_migrate_task "$B orig_cpu=0 dest_cpu=1"
	sw 1 1.002660 swapper/1 0 R B 12
	sw 1 1.002700 B 12 S swapper/1 0
	idle 1 1.002700 1
	idle 1 1.006600 4294967295
	idle 1 1.006610 1
	ev A 11 0 d..3. 1.007290 sched_waking "$B target_cpu=001"
	ev '<idle>' 0 1 dNh2. 1.007300 sched_wakeup "$B target_cpu=001"
	idle 1 1.007300 4294967295
	sw 1 1.007310 swapper/1 0 R B 12
	sw 1 1.007400 B 12 S swapper/1 0
	idle 1 1.007400 1
	ev A 11 0 d..3. 1.008000 sched_waking "comm=W pid=10 prio=120 target_cpu=000"
	ev A 11 0 d..4. 1.008000 sched_wakeup "comm=W pid=10 prio=120 target_cpu=000"
	sw 0 1.008500 A 11 S W 10
	sw 0 1.008600 W 10 S swapper/0 0
} >"$T/real.trace"

"$PY" "$TOOLPY" --min 2 --json "$T/real.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
"$PY" - "$T/out" "$T/real.trace" <<'PYEOF' || fail "values: $(cat "$T/out")"
import json, sys
s = json.load(open(sys.argv[1]))[sys.argv[2]]
want = {"span_s": 0.005, "idle_moves_per_s": 215.05, "newidle_moves_per_s": 0.0,
        "busy_moves_per_s": 0.0, "tick_exits_other_busy_pull_per_s": 215.05,
        "tick_exits_other_busy_nothing_per_s": 215.05, "tick_exits_other_idle_nothing_per_s": 0.0,
        "tick_exits_wake_per_s": 0.0, "off_exits_nothing_per_s": 0.0, "off_exits_pull_per_s": 0.0,
        "waits_pulled": 1, "waits_ran": 1, "waits_taken": 0, "pulled_wait_p50_us": 2650.0,
        "pulled_wait_p90_us": 2650.0}
bad = {k: (s.get(k), v) for k, v in want.items() if s.get(k) != v}
assert not bad, bad
PYEOF
"$PY" "$TOOLPY" --min 2 "$T/real.trace" >"$T/out" || fail "table: exit $?"
grep -q '215\.05	0\.0	0\.0	215\.05	215\.05	0\.0	0\.0	0\.0	0\.0	1	1	0	2650\.0	2650\.0$' "$T/out" ||
	fail "table: $(cat "$T/out")"
sed 's/\[001\]/[002]/' "$T/real.trace" >"$T/three.trace"
tool_error "$T/three.trace" "2-CPU"
tool_error "$T/missing.trace" missing.trace
tool_cut_xz "$T/real.trace"
rc=0
"$PY" "$TOOLPY" --min x "$T/real.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'expected a count' "$T/err" || fail "--min x: exit $rc"
