#!/bin/sh
# tools/wake_cold.py (a woken task's cold start, wake_cold's measurement) on a trace written by
# hand (docs/validate.md, "Step 20"). f.json: W (10) resumes V and sleeps on a timer (after its
# sleep a wake-up: read); V (11) suspends and runs (after its sleep a run: not read); X (13) is
# no task of the file. real.trace, CPU 0 (times in s):
#   1.000000 W sleeps, CPU 0 idle; 1.001000 W switched in from idle (idle 1 ms, slept 1 ms),
#            wakes V at 1.001020: idle row, 20 us
#   1.011030 W in from idle (10 ms), wakes V 28 us later: idle row, 28 us
#   1.111060 W in from idle (100 ms), wakes V 36 us later: idle row, 36 us
#   1.121105 W in from X (busy, slept 10 ms); its own line flagged h at 1.121107 (an interrupt's,
#            not W's); W wakes V at 1.121115: busy row, 10 us
#   1.121500 W in after 0.38 ms asleep: not read (under --sleep's 1 ms)
#   1.131520 W in from X (busy, slept 10 ms), wakes V 20 us later: busy row, 20 us
#   1.141550 W in from idle and asleep again with no wake-up: not read; 1.141800 W in after
#            0.24 ms asleep wakes V: not read (nor by the switch-in before it)
# CPU 1: V in from 50 ms of idle wakes W 10 us later: not read (V's next action is a run).
# By hand, with -c (ctx_switch 2000 + cache_refill 500 = base 2500 ns): busy median 15 us,
# wake_cold = 15000 - 2500 = 12500 ns; the idle rows less base and wake_cold, 5000, 13000,
# 21000 ns at log10(idle ms) 0, 1, 2: the line 5000 + 8000 x (its deviations 0):
# wake_cold_idle=5000ns, wake_cold_idle_decade=8000ns. The bins: busy 2 (median 15.0), idle
# 0.3-3 ms 1 (20.0), 3 ms and more 2 (32.0). Without -c the base is 0: wake_cold=15000ns, and
# the idle rows less it are the same 5000, 13000, 21000 ns (the same line). --sleep 50: the one
# row after 100 ms (no busy row: wake_cold=0ns, no idle line from one row). Each rule stubbed
# moves these: V read (an idle row of 10 us), the h line read (a busy row of 2 us), the short
# sleep read (a busy row of 10 us), the wake-up-less switch-in kept (its row taken by the next
# waking, 1.1 ms later, on no line: none).
# Errors (exit 2): a directory without a JSON, one without a trace, no row, a bad option, -c
# without machine.conf.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
D=$T/set/r1/f
mkdir -p "$D" "$T/cal"
cat >"$D/f.json" <<'J'
{ "tasks" : {
	"W" : { "loop" : -1, "resume" : "V", "timer" : { "ref" : "t", "period" : 10000 } },
	"V" : { "loop" : -1, "suspend" : "V", "run" : 100 } } }
J
{
	printf '# tracer: nop\n#\n'
	sw 0 0.900000 swapper/0 0 R W 10
	sw 1 0.900000 swapper/1 0 R V 11
	sw 0 1.000000 W 10 S swapper/0 0
	sw 1 1.000000 V 11 S swapper/1 0
	sw 0 1.001000 swapper/0 0 R W 10
	wl 0 1.001020 W 10 d..3. sched_waking V 11 0
	sw 0 1.001030 W 10 S swapper/0 0
	sw 0 1.011030 swapper/0 0 R W 10
	wl 0 1.011058 W 10 d..3. sched_waking V 11 0
	sw 0 1.011060 W 10 S swapper/0 0
	sw 1 1.050000 swapper/1 0 R V 11
	wl 1 1.050010 V 11 d..3. sched_waking W 10 1
	sw 1 1.050020 V 11 S swapper/1 0
	sw 0 1.111060 swapper/0 0 R W 10
	wl 0 1.111096 W 10 d..3. sched_waking V 11 0
	sw 0 1.111100 W 10 S X 13
	wl 0 1.121100 X 13 d.h3. sched_waking W 10 0
	sw 0 1.121105 X 13 R+ W 10
	wl 0 1.121107 W 10 d.h3. sched_waking V 11 0
	wl 0 1.121115 W 10 d..3. sched_waking V 11 0
	sw 0 1.121120 W 10 S X 13
	sw 0 1.121500 X 13 R+ W 10
	wl 0 1.121510 W 10 d..3. sched_waking V 11 0
	sw 0 1.121520 W 10 S X 13
	sw 0 1.131520 X 13 S W 10
	wl 0 1.131540 W 10 d..3. sched_waking V 11 0
	sw 0 1.131550 W 10 S swapper/0 0
	sw 0 1.141550 swapper/0 0 R W 10
	sw 0 1.141560 W 10 S swapper/0 0
	sw 0 1.141800 swapper/0 0 R W 10
	wl 0 1.141810 W 10 d..3. sched_waking V 11 0
	sw 0 1.141820 W 10 S swapper/0 0
} >"$D/real.trace"
printf 'cpus 2\nparam ctx_switch=2000ns\nparam cache_refill=500ns\nparam wake_tail=13000ns\n' >"$T/cal/machine.conf"

# bin OUT LABEL ROWS MEDIAN: the table's row
bin() {
	awk -v l="$2" -v n="$3" -v m="$4" 'substr($0, 1, length(l)) == l && $(NF - 3) == n && $(NF - 1) == m { ok = 1 }
		END { exit !ok }' "$1" || fail "$2: $3 rows, median $4 expected: $(cat "$1")"
}
"$PY" "$TOOLPY" -c "$T/cal" "$D" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
grep -q '^5 rows in 1 trace(s), threads: W$' "$T/out" || fail "rows: $(cat "$T/out")"
bin "$T/out" "busy" 2 15.0
bin "$T/out" "idle 0.3-3 ms" 1 20.0
bin "$T/out" "idle 3-inf ms" 2 32.0
grep -q 'idle 0-0.3 ms' "$T/out" && fail "an empty bin printed: $(cat "$T/out")"
grep -q '^the model.s switch cost (ctx_switch + cache_refill): 2500 ns$' "$T/out" ||
	fail "base: $(cat "$T/out")"
grep -q '^param wake_cold=12500ns$' "$T/out" || fail "wake_cold: $(cat "$T/out")"
grep -q '^param wake_cold_idle=5000ns$' "$T/out" || fail "wake_cold_idle: $(cat "$T/out")"
grep -q '^param wake_cold_idle_decade=8000ns$' "$T/out" || fail "decade: $(cat "$T/out")"
"$PY" "$TOOLPY" "$D" >"$T/out" || fail "no -c: exit $? ($(cat "$T/out"))"
grep -q '^param wake_cold=15000ns$' "$T/out" || fail "no -c: $(cat "$T/out")"
grep -q '^param wake_cold_idle=5000ns$' "$T/out" || fail "no -c idle: $(cat "$T/out")"
"$PY" "$TOOLPY" --rows -c "$T/cal" "$D" >"$T/out" || fail "--rows: exit $?"
[ "$(wc -l <"$T/out")" -eq 5 ] || fail "--rows: $(cat "$T/out")"
grep -q ' W idle 100.000 100.000 36.0$' "$T/out" || fail "--rows: $(cat "$T/out")"
grep -q ' W busy 10.005 - 10.0$' "$T/out" || fail "--rows busy: $(cat "$T/out")"
"$PY" "$TOOLPY" --sleep 50 -c "$T/cal" "$D" >"$T/out" || fail "--sleep: exit $?"
grep -q '^1 rows in 1 trace' "$T/out" || fail "--sleep: $(cat "$T/out")"
grep -q '^param wake_cold=0ns$' "$T/out" || fail "--sleep: $(cat "$T/out")"
grep -q 'wake_cold_idle' "$T/out" && fail "--sleep: an idle line from one row: $(cat "$T/out")"

# errors
err() { # WANT ARG...: exit 2 and WANT on stderr
	want=$1
	shift
	rc=0
	"$PY" "$TOOLPY" "$@" >/dev/null 2>"$T/err" || rc=$?
	[ "$rc" -eq 2 ] || fail "$*: exit $rc, expected 2 ($(cat "$T/err"))"
	grep -q -e "$want" "$T/err" || fail "$*: stderr does not say '$want': $(cat "$T/err")"
}
mkdir -p "$T/nojson" "$T/notrace" "$T/none"
cp "$D/real.trace" "$T/nojson/"
cp "$D/f.json" "$T/notrace/"
err "nojson: expected one rt-app" "$T/nojson"
err "notrace: a directory without" "$T/notrace"
sed 's/"timer" : { "ref" : "t", "period" : 10000 }/"run" : 10/' "$D/f.json" >"$T/none/f.json"
cp "$D/real.trace" "$T/none/"
err "no switch-in after a sleep" "$T/none"
err "unknown option --bad" --bad "$D"
err "sleep: expected ms" --sleep x "$D"
err "cannot read" -c "$T/nojson" "$D"
err "usage" -c "$T/cal"
echo "wake_cold.py: ok"
