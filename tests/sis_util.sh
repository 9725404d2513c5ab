#!/bin/sh
# tools/sis_util.py (the kernel's PELT utilization and SIS_UTIL budget from a trace) on traces
# written by hand. Values by hand from pelt.c's arithmetic (1024 ns units, 1024-unit periods,
# y^32 = 1/2, runnable_avg_yN_inv[1] = 0xfa83b2da, LOAD_AVG_MAX 47742, the divider
# 47742 - 1024 + period_contrib) and update_idle_cpu_scan's formula on 2 CPUs:
#
# one.trace: T (10) runs on CPU 0 from 1.048576000 s (a period boundary: 1000 x 1048576 ns) for
# 1 ms and sleeps. 1 ms is 976 units (576 ns carried): no period ends, so util_avg stays 0 and
# util_sum is 976 x 1024 = 999424, period_contrib 976. At 1.050000000 an interrupt on CPU 1
# wakes U (11): 424576 ns later, 414 units, 414 + 976 = 1390 crosses one period (366 left):
# util_sum = 999424 x 0xfa83b2da >> 32 = 978008, util_avg = 978008 / (46718 + 366) = 20.
# CPU 0's cpu_util_cfs is 20 (T's util_est is 0: it was 0 when T slept), CPU 1's 0, x = 10,
# budget 2 (x <= 27: 10^2 x 117^2 / 10240000 = 0).
#
# busy.trace: V (20) runs on CPU 1 from 1.0 s and never stops; at 3.0 s an interrupt on CPU 0
# wakes U. No idle exit, so no tick is known and V's PELT is brought up to date once, over
# 1907 periods: the decayed parts are 0 (47742 >> 59 and 1024 >> 59), the sum is
# (47742 - 1024 + d3) x 1024 over the divider 46718 + d3: util_avg 1024 exactly, the fixed
# point of a task always running (with the kernel's divider; the old divider of 47742 made it
# oscillate between 1002 and 1024). x = (1024 + 0) / 2 = 512, budget 1.
#
# bal.trace: CPU 0's idle task exits every 4 ms from 0.900 to 0.996 s (the tick's phase is 0;
# an idle CPU whose tick runs balances at each tick: the budget there is 2, nothing runs). At
# 0.99999 W (21) starts on CPU 0 and V on CPU 1, and both run on. CPU 1 never balanced (its tick
# was not seen), so it balances at once at the 1.000 tick: x = 0, budget 2; then each balances
# 15 jiffies (60 ms) after its last: CPU 0 at 1.056 (its last was 0.996), CPU 1 at 1.060. At
# 1.056 each task has run 56 ms, 53 periods: util ~ 1024 (1 - 2^(-53/32)) ~ 700 > 619: budget 0.
# Wake-ups (interrupts on CPU 0 waking U) at 1.050: x ~ 1024 (1 - 2^(-48/32)) ~ 660, budget 0
# at the wake-up, but the last balance (1.000) wrote 2; at 1.058 the last balance (1.056) wrote 0.
# (Without the balances' intervals, a budget read at the wake-up, the first would be 0.)
#
# --budget: 619 -> 1 (619^2 x 13689 / 10240000 = 512.2 -> 512, y = 512, 2 x 512 / 1024 = 1),
# 620 -> 0 (513.9 -> 513, y = 511), 27 -> 2, 28 -> 1. Errors: a missing file, a sched_switch
# without its prios (file and line named), a third CPU, --budget 1025: exit 2, saying so.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
wk() { # wk CPU TIME LINE_COMM LINE_PID: an interrupt there wakes U (11)
	printf '%16s-%-7s [00%s] d.h2.     %s: sched_waking: comm=U pid=11 prio=120 target_cpu=00%s\n' \
		"$3" "$4" "$1" "$2" "$1"
}
{
	printf '# tracer: nop\n#\n'
	sw 0 1.048576000 swapper/0 0 R T 10
	sw 0 1.049576000 T 10 S swapper/0 0
	wk 1 1.050000000 '<idle>' 0
} >"$T/one.trace"
"$PY" "$TOOLPY" --rows --all "$T/one.trace" >"$T/out" || fail "one: exit $? ($(cat "$T/out"))"
grep -q ',1050000000,11,U,1,20,0,10,2,,,$' "$T/out" || fail "one: $(cat "$T/out")"

{
	printf '# tracer: nop\n#\n'
	sw 1 1.000000000 swapper/1 0 R V 20
	wk 0 3.000000000 '<idle>' 0
} >"$T/busy.trace"
"$PY" "$TOOLPY" --rows --all "$T/busy.trace" >"$T/out" || fail "busy: exit $? ($(cat "$T/out"))"
grep -q ',3000000000,11,U,0,0,1024,512,1,,,$' "$T/out" || fail "busy: $(cat "$T/out")"

{
	printf '# tracer: nop\n#\n'
	i=0
	while [ $i -lt 25 ]; do
		printf '          <idle>-0       [000] d..1.     0.%06d: cpu_idle: state=4294967295 cpu_id=0\n' $((900000 + 4000 * i))
		i=$((i + 1))
	done
	sw 0 0.999990 swapper/0 0 R W 21
	sw 1 0.999990 swapper/1 0 R V 20
	wk 0 1.050000 W 21
	wk 0 1.058000 W 21
} >"$T/bal.trace"
"$PY" "$TOOLPY" --rows --all "$T/bal.trace" >"$T/out" || fail "bal: exit $? ($(cat "$T/out"))"
grep -q ',1050000000,11,U,0,6[0-9][0-9],6[0-9][0-9],6[2-9][0-9],0,0,2,' "$T/out" ||
	fail "bal 1.050: $(cat "$T/out")"
grep -q ',1058000000,11,U,0,[67][0-9][0-9],[67][0-9][0-9],[67][0-9][0-9],0,[67][0-9][0-9],0,' "$T/out" ||
	fail "bal 1.058: $(cat "$T/out")"

# --tasks at the ticks of bal.trace: from its first switch (0.99999) to its last line (1.058),
# the ticks 1.000 ... 1.056, 15 (the 25 idle ticks before the first switch are not counted: 40
# ticks, 7.5%, if they were). W and V run from 0.99999, util ~ 1024 (1 - 2^(-n/32)) with n the
# whole periods: at 1.044 n = 41 (602), at 1.048 n = 45 (644): x > 619 at 1.048, 1.052 and 1.056,
# 3 of 15 (20.0%). Neither sleeps, so util_est is 0 and util_avg alone gives the same.
"$PY" "$TOOLPY" --tasks "$T/bal.trace" >"$T/out" || fail "bal --tasks: exit $?"
tr -s ' ' <"$T/out" >"$T/sq"
grep -q 'ticks 15: x [0-9]*, >619 20.0%, util_avg alone [0-9]*, >619 20.0%$' "$T/sq" ||
	fail "bal --tasks: $(cat "$T/out")"

for x in 619:1 620:0 27:2 28:1 1024:0 0:2; do
	got=$("$PY" "$TOOLPY" --budget "${x%:*}") || fail "--budget ${x%:*}: exit $?"
	[ "$got" = "${x#*:}" ] || fail "--budget ${x%:*}: $got, expected ${x#*:}"
done

tool_error "$T/none.trace" none.trace
sed 's/ next_prio=120//' "$T/one.trace" >"$T/noprio.trace"
tool_error "$T/noprio.trace" 'noprio.trace:3: a sched_switch without'
sed 's/\[001\]/[002]/' "$T/one.trace" >"$T/three.trace"
tool_error "$T/three.trace" 'three.trace:5: CPU 2'
rc=0
"$PY" "$TOOLPY" --budget 1025 >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'expected 0..1024' "$T/err" || fail "--budget 1025: exit $rc $(cat "$T/err")"
printf '# tracer: nop\n' >"$T/empty.trace"
tool_error "$T/empty.trace" 'no sched_switch or sched_waking'
# --tasks (tasks.trace, 2 CPUs, times in s): CPU 0: A (10) runs 1.048576-1.049576 and sleeps; an
# interrupt wakes it at 1.050000 (its util_avg then is one.trace's T's: 20); it runs
# 1.051576-1.052576, is preempted by kworker/0:1 (30), which runs 1 ms and sleeps; A runs
# 1.053576-1.054576 and sleeps. CPU 1: B (12) runs from 1.048576 to the last line, 1.058576 (B
# wakes U, 11, which never runs). Span 10 ms. A: 3 ms, 3 slices, 2 bursts (1 ms, then 2 ms) ->
# 300 ms/s, 300 slices/s of 1000 us, 200 bursts/s of 1500 us, util 20 at its 1 waking;
# kworker/0:1 (bg): 100 ms/s, 1 slice and 1 burst of 1000 us; B: 1000 ms/s, 1 slice of 10000 us
# still open at the end (no burst); U: no time, 1 waking, util 0, not the JSON's (other). CPU 0
# idle 2 + 4 of 10 ms (60%), CPU 1 0%; wl (3 + 10) / 20 = 65%, bg 1 / 20 = 5%. rt-app's logs:
# web-A-0.log 2 rows of 1000 us asked -> loops 2, cpu/asked 3000 / 2000 = 1.500; web-X-A-1.log is
# not A's (5 rows). --until 5: the lines to 1.053576 (t0 + 5 ms): A 2 ms of 5 (400 ms/s), CPU 0
# idle 2 of 5 ms (40%), no cpu/asked.
mkdir -p "$T/tasks"
{
	printf '# tracer: nop\n#\n'
	sw 0 1.048576000 swapper/0 0 R A 10
	sw 1 1.048576000 swapper/1 0 R B 12
	sw 0 1.049576000 A 10 S swapper/0 0
	printf '          <idle>-0       [000] d.h2.     1.050000000: sched_waking: comm=A pid=10 prio=120 target_cpu=000\n'
	sw 0 1.051576000 swapper/0 0 R A 10
	sw 0 1.052576000 A 10 R kworker/0:1 30
	sw 0 1.053576000 kworker/0:1 30 S A 10
	sw 0 1.054576000 A 10 S swapper/0 0
	wk 1 1.058576000 B 12
} >"$T/tasks/tasks.trace"
printf '{ "tasks" : { "A" : { "run" : 1000 }, "B" : { "run" : 1000 } } }\n' >"$T/tasks/t.json"
row() { printf '   %s   1  0  0  0  0  0 0  1000 0 0\n' "$1"; }
{ printf '#idx perf run period start end rel_st slack c_duration c_period wu_lat\n'; row 0; row 0; } >"$T/tasks/web-A-0.log"
{ row 1; row 1; row 1; row 1; row 1; } >"$T/tasks/web-X-A-1.log"
"$PY" "$TOOLPY" --tasks "$T/tasks/tasks.trace" >"$T/out" || fail "tasks: exit $? ($(cat "$T/out"))"
tr -s ' ' <"$T/out" >"$T/sq"
grep -q 'tasks.trace 0.01 idle0 60.0% idle1 0.0% wl 65.0% bg 5.0% other 0.0% ' "$T/sq" ||
	fail "tasks, per trace: $(cat "$T/out")"
grep -q '^A wl 300.0 300.0 1000.0 200.0 1500.0 20 1 2 1.500 -$' "$T/sq" || fail "tasks, A: $(cat "$T/out")"
grep -q '^kworker/0:1 bg 100.0 100.0 1000.0 100.0 1000.0 - 0 0 - -$' "$T/sq" ||
	fail "tasks, kworker: $(cat "$T/out")"
grep -q '^B wl 1000.0 100.0 10000.0 0.0 0.0 - 0 0 - -$' "$T/sq" || fail "tasks, B: $(cat "$T/out")"
grep -q '^U other 0.0 0.0 0.0 0.0 0.0 0 1 0 - -$' "$T/sq" || fail "tasks, U: $(cat "$T/out")"
"$PY" "$TOOLPY" --tasks --until 5 "$T/tasks/tasks.trace" >"$T/out" || fail "tasks --until: exit $?"
tr -s ' ' <"$T/out" >"$T/sq"
grep -q 'idle0 40.0% idle1 0.0% ' "$T/sq" || fail "tasks --until 5, idle: $(cat "$T/out")"
grep -q '^A wl 400.0 .* 0 - -$' "$T/sq" || fail "tasks --until 5, A: $(cat "$T/out")"
echo "sis_util: ok"
