#!/bin/sh
# tools/lost_resumes.py on a run written by hand: W's loops each end with a resume of E, E's
# with a resume of F. The logs' clock is the trace's less 1 ms, and each delivered resume is
# 10 us before its loop's end: the offset found is 990 us.
#   W ends 10000, 30000, 50000 us (trace 10.990, 30.990, 50.990 ms after the offset): it wakes
#   E at 10.990 and 30.990 ms; at 50.990 nobody (X's wake-up of E at 50.995 is not W's): 1/3
#   E ends 11200, 31300, 51400 us (trace 12.190, 32.290, 52.390): it wakes F at the first
#   two; at 52.390 nobody: 1/3
# The lost resume of F comes 1.400 ms after the lost one of E: one double loss within the
# default 2000 us, none within --double 1000.
set -eu
. "$(dirname "$0")/pytool.sh"
D="$T/run-x"
mkdir "$D"
H='#idx perf run period start end rel_st slack c_duration c_period wu_lat'
printf '%s\n' "$H" "0 1 100 200 9800 10000 0 0 100 0 0" "0 1 100 200 29800 30000 0 0 100 0 0" \
	"0 1 100 200 49800 50000 0 0 100 0 0" >"$D/x-W-0.log"
printf '%s\n' "$H" "1 1 50 200 11000 11200 0 0 50 0 0" "1 1 50 200 31100 31300 0 0 50 0 0" \
	"1 1 50 200 51200 51400 0 0 50 0 0" >"$D/x-E-1.log"
wk() { # wk TIME WAKER PID WAKEE WPID
	echo "  $2-$3 [000] d..2. $1: sched_waking: comm=$4 pid=$5 prio=120 target_cpu=000"
}
{
	echo "# tracer: nop"
	wk 0.010990 W 101 E 102
	wk 0.012190 E 102 F 103
	wk 0.030990 W 101 E 102
	wk 0.032290 E 102 F 103
	wk 0.050995 X 104 E 102
} >"$D/sim.trace"
"$PY" "$TOOLPY" --pair 'W>E' --pair 'E>F' "$D" >"$T/out" || fail "exit $?: $(cat "$T/out")"
has() { grep -q -e "$1" "$T/out" || fail "no '$1' in: $(cat "$T/out")"; }
has "run-x  *1/3  *1/3  *1$"
has "^total  *1/3 (33.33%)  *1/3 (33.33%)  *1$"
"$PY" "$TOOLPY" --pair 'W>E' --pair 'E>F' --double 1000 "$D" >"$T/out" || fail "exit $?"
has "^total  *1/3 (33.33%)  *1/3 (33.33%)  *0$"
# the resume of E at 30.990 ms delivered up to 2 ms late: still counted (the offset's case)
sed 's/^  W-101 \[000\] d..2. 0.030990:/  W-101 [000] d..2. 0.032900:/' "$D/sim.trace" >"$T/t"
cp "$T/t" "$D/sim.trace"
"$PY" "$TOOLPY" --pair 'W>E' --pair 'E>F' "$D" >"$T/out" || fail "exit $?"
has "^total  *1/3 (33.33%)  *1/3 (33.33%)  *1$"
# errors: a task without a log, a pair without '>', a directory without a trace
rc=0
"$PY" "$TOOLPY" --pair 'Q>E' "$D" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "expected one log of task Q" "$T/err" ||
	fail "Q: exit $rc $(cat "$T/err")"
rc=0
"$PY" "$TOOLPY" --pair 'WE' "$D" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "expected WAKER>WAKEE" "$T/err" || fail "WE: exit $rc $(cat "$T/err")"
mkdir "$T/empty"
tool_error "$T/empty" "no real.trace.xz or sim.trace"
echo "lost_resumes: ok"
