#!/bin/sh
# tools/irq_background.py on a trace written by hand (docs/validate.md, "The background,
# interrupts against tasks (issue 28, step 14)"). The cpu_idle lines before the first sched_
# line (0.1 ms) are not read. The window is 1 ms to 21 ms: 20 ms. CPU 0 idles from 2 ms:
# exits at 4, 6, 8, 10, 12 ms; back to idle 10 us, 30 us and 50 us after those at 4, 6 and
# 12 ms with no switch (interrupt-only; the one at 6 ms with need_resched set); at 8 ms
# kworker/0:1 runs 100 us (background), at 10 ms bash (the harness: not background). CPU 0's
# idle time: 2 + 1.99 + 1.97 + 1.89 + 1.94 = 9.79 ms, so 3 / 9.79 ms = 306.4 exits/s, median
# and mean 30 us; 1 background switch-in in 20 ms = 50/s, 100 us. CPU 1 runs thread0 (the
# workload's), rcu_preempt for 20 us at 15 ms (50/s), idles 17-19 ms and wakes for thread0: no
# interrupt-only exit. machine.conf lines: rate (306.4 + 0) / 2 = 153, run 30 us (CPU 1 has
# none), background (50 + 50) / 2 = 50, run (100 + 20) / 2 = 60 us. Errors: no file, no
# cpu_idle, no JSON beside, an unknown option.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
idle() { # idle CPU TIME STATE FLAGS
	printf '          <idle>-0       [00%s] %s     %s: cpu_idle: state=%s cpu_id=%s\n' "$1" "$4" "$2" "$3" "$1"
}
X=4294967295
mkdir -p "$T/rec"
printf '{ "tasks" : { "thread0" : { "loop" : -1, "run" : 1000, "sleep" : 1000, }, }, /* lax */ }\n' >"$T/rec/w.json"
{
	printf '# tracer: nop\n#\n'
	idle 0 0.000100 $X d..1.
	idle 0 0.000150 1 d..1.
	sw 1 0.001000 swapper/1 0 R thread0 10
	idle 0 0.002000 1 d..1.
	idle 0 0.004000 $X d..1.
	idle 0 0.004010 1 d..1.
	idle 0 0.006000 $X dN.1.
	idle 0 0.006030 1 d..1.
	idle 0 0.008000 $X dN.1.
	sw 0 0.008005 swapper/0 0 R kworker/0:1 20
	sw 0 0.008105 kworker/0:1 20 I swapper/0 0
	idle 0 0.008110 1 d..1.
	idle 0 0.010000 $X dN.1.
	sw 0 0.010002 swapper/0 0 R bash 30
	sw 0 0.010050 bash 30 S swapper/0 0
	idle 0 0.010060 1 d..1.
	idle 0 0.012000 $X d..1.
	idle 0 0.012050 1 d..1.
	sw 1 0.015000 thread0 10 R rcu_preempt 16
	sw 1 0.015020 rcu_preempt 16 I thread0 10
	sw 1 0.016990 thread0 10 S swapper/1 0
	idle 1 0.017000 1 d..1.
	idle 1 0.019000 $X dN.1.
	sw 1 0.019010 swapper/1 0 R thread0 10
	sw 1 0.021000 thread0 10 S swapper/1 0
} >"$T/rec/real.trace"
"$PY" "$TOOLPY" "$T/rec/real.trace" >"$T/out" 2>&1 || fail "exit $? ($(cat "$T/out"))"
grep -q 'real.trace  *0  *0\.01  *306\.4  *30\.0  *30\.0  *50\.00  *100\.0  *100\.0$' "$T/out" &&
	grep -q 'real.trace  *1  *0\.00  *0\.0  *0\.0  *0\.0  *50\.00  *20\.0  *20\.0$' "$T/out" &&
	grep -q '^not background.*: bash 1$' "$T/out" &&
	grep -q '^cpu 0: of 3 interrupt-only exits 1 had need_resched set .*median 30\.0 us, mean 30\.0 us$' "$T/out" &&
	grep -q '^param irq_bg_rate=153$' "$T/out" &&
	grep -q '^param irq_bg_run=30000ns$' "$T/out" &&
	grep -q '^background_rate 50$' "$T/out" &&
	grep -q '^background_run 60000ns$' "$T/out" || fail "$(cat "$T/out")"
"$PY" "$TOOLPY" --json --tasks thread0 "$T/rec/real.trace" >"$T/out" || fail "--json: exit $?"
"$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
c0 = d["pooled"][0]
assert c0["irq_exits"] == 3 and abs(c0["idle_s"] - 0.00979) < 1e-9, c0
assert d["machine_conf"]["irq_bg_run_ns"] == 30000, d["machine_conf"]' "$T/out" || fail "--json: $(cat "$T/out")"
tool_error "$T/none.trace" none.trace
tool_cut_xz "$T/rec/real.trace"
grep -v cpu_idle "$T/rec/real.trace" >"$T/rec/noidle.trace"
tool_error "$T/rec/noidle.trace" "no idle period"
mkdir -p "$T/bare"
cp "$T/rec/real.trace" "$T/bare/real.trace"
tool_error "$T/bare/real.trace" "expected one rt-app \*.json beside it"
rc=0
"$PY" "$TOOLPY" --bogus "$T/rec/real.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "unknown option '--bogus'" "$T/err" || fail "--bogus: exit $rc"
echo "irq_background: ok"
