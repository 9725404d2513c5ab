#!/bin/sh
# tools/run_stretch.py on a recording written by hand: threads a (pid 101, rows A1-A3, 100 us
# asked of 1000 loops each) and b (pid 102, row B1, 250 us of 2000 loops), a task bg (200). The
# logs' clock is the trace's minus 1 ms (each row's end is its thread's sleep 1 ms later in the
# trace: the offset found). By hand, a row's on-CPU time in its window over c_duration:
#   A1 on CPU 0 10.001380-10.001500: 120 us, 1.2, 120 ns a loop; CPU 1 idle: other=idle
#   A2 on CPU 0 10.003400-450 and 500-600 (bg in between): 150 us, 1.5, 150 ns; CPU 1 runs b
#      all that time: other=rt-app
#   A3 on CPU 1 10.005690-800 (moved: last on CPU 0): 110 us, 1.1, 110 ns; CPU 0 idle 10 us,
#      bg 100 us (busy 0.909): other=else; an interrupt's sched_waking on CPU 1: irq=1+
#   B1 on CPU 1 10.003350-650: 300 us, 1.2, 150 ns; CPU 0 idle 100, a 150, bg 50 us (busy
#      0.667): other=part
# Relative costs (over the thread's median, a's 120 ns): A1 1, A2 1.25, A3 0.9167, B1 1.
# irq=0 (A1 A2 B1): stretch median 1.2, mean 1.3, wall (run/c_duration: 120, 200, 300 us run)
# mean 1.4667, cost median 150, relative mean 1.0833, its standard error sd/sqrt(3) = 0.0833.
# Least squares of relative cost on busy share, (0, 1) (1, 1.25) (0.909, 0.9167) (0.667, 1):
# slope 0.1093, intercept 0.9713: +112.5 per mille. --taken: a was runnable off its CPU 50 us
# inside A2's window, bg running there: bg 0.05 ms; b never.
set -eu
. "$(dirname "$0")/pytool.sh"
D="$T/video-x"
mkdir "$D"
echo '{ "global" : { "log_basename" : "x" } }' >"$D/x.json"
H='#idx perf run period start end rel_st slack c_duration c_period wu_lat'
{
	echo "$H"
	echo "0 1000 120 500 10000000 10000500 0 0 100 0 0"
	echo "0 1000 200 600 10002000 10002600 0 0 100 0 0"
	echo "0 1000 110 700 10004100 10004800 0 0 100 0 0"
} >"$D/x-a-0.log"
{
	echo "$H"
	echo "1 2000 300 350 10002300 10002650 0 0 250 0 0"
} >"$D/x-b-1.log"
sw() { # sw CPU TIME PREV_COMM PREV_PID STATE NEXT_COMM NEXT_PID
	echo "  $3-$4 [00$1] d..2. $2: sched_switch: prev_comm=$3 prev_pid=$4 prev_prio=120" \
		"prev_state=$5 ==> next_comm=$6 next_pid=$7 next_prio=120"
}
{
	echo "# tracer: nop"
	sw 0 10.001380 swapper/0 0 R a 101
	sw 0 10.001500 a 101 S swapper/0 0
	sw 1 10.003350 swapper/1 0 R b 102
	sw 0 10.003400 swapper/0 0 R a 101
	sw 0 10.003450 a 101 R bg 200
	sw 0 10.003500 bg 200 S a 101
	sw 0 10.003600 a 101 S swapper/0 0
	sw 1 10.003650 b 102 S swapper/1 0
	sw 1 10.005690 swapper/1 0 R a 101
	sw 0 10.005700 swapper/0 0 R bg 200
	echo "  a-101 [001] d.h2. 10.005750: sched_waking: comm=bg pid=200 prio=120 target_cpu=000"
	sw 1 10.005800 a 101 S swapper/1 0
	sw 0 10.006000 bg 200 S swapper/0 0
} >"$D/real.trace"
"$PY" "$TOOLPY" --threads "$D" >"$T/out" || fail "exit $?: $(cat "$T/out")"
has() { grep -q -e "$1" "$T/out" || fail "no '$1' in: $(cat "$T/out")"; }
has "video-x: log clock + 1.000 ms = trace clock (100% of the rows end at a sleep); 0 rows left out"
has "^video-x: 4 rows$"
has "other=idle  *1  *1.200  *1.200  *1.200  *120.00  *1.000  *0.000$"
has "other=part  *1  *1.200  *1.200  *1.200  *150.00  *1.000  *0.000$"
has "other=rt-app  *1  *1.500  *1.500  *2.000  *150.00  *1.250  *0.000$"
has "other=else  *1  *1.100  *1.100  *1.100  *110.00  *0.917  *0.000$"
has "irq=0  *3  *1.200  *1.300  *1.467  *150.00  *1.083  *0.083$"
has "irq=1+  *1  *1.100  *1.100  *1.100  *110.00  *0.917  *0.000$"
has "moved=no  *3  *1.200 "
has "moved=yes  *1  *1.100 "
has "thread a  *3  *1.200  *1.267 "
has "busy slope +112.5 per mille"
# --taken: A2's thread left runnable at 10.003450 and back at 10.003500, bg on CPU 0 meanwhile
"$PY" "$TOOLPY" --taken "$D" >"$T/out" || fail "exit $?: $(cat "$T/out")"
has "^  a  *taken by bg 0.05 ms$"
has "^  b  *taken by -$"
# A2 moved 1 ms later in the log: the offset stays 1 ms (A1, A3, B1 end at their sleeps), A2's
# window now holds none of its thread's time and is left out, counted
sed 's/^0 1000 200 600 10002000 10002600/0 1000 200 600 10003000 10003600/' "$D/x-a-0.log" >"$T/l"
cp "$T/l" "$D/x-a-0.log"
"$PY" "$TOOLPY" "$D" >"$T/out" || fail "exit $?"
has "log clock + 1.000 ms = trace clock (75% of the rows end at a sleep); 1 rows left out"
has "^video-x: 3 rows$"
# the loop's cost: directory video-y, thread c (pid 103), 8 rows of 1000 us asked, 100000
# loops, runs of 1400, 1410, ... 1470 us, each on CPU 1 from 100 us after its start to its end,
# not preempted: 14.0 to 14.7 ns a loop, mean 14.35; nearest rank p25 14.2, p75 14.6: spread
# 0.4 / 1.349 = 0.2965. video-x has none (under 8): the medians are video-y's.
Y="$T/video-y"
mkdir "$Y"
cp "$D/x.json" "$Y/"
echo "$H" >"$Y/x-c-0.log"
echo "# tracer: nop" >"$Y/real.trace"
for k in 0 1 2 3 4 5 6 7; do
	s=$((20000000 + k * 10000))
	echo "0 100000 $((1400 + 10 * k)) 2000 $s $((s + 2000)) 0 0 1000 0 0" >>"$Y/x-c-0.log"
	sw 1 "20.0${k}1100" swapper/1 0 R c 103 >>"$Y/real.trace"
	sw 1 "20.0${k}3000" c 103 S swapper/1 0 >>"$Y/real.trace"
done
"$PY" "$TOOLPY" "$D" "$Y" >"$T/out" || fail "exit $?: $(cat "$T/out")"
has "video-y: log clock + 1.000 ms = trace clock (100% of the rows end at a sleep); 0 rows"
has "video-y: .*; unpreempted: 8 rows, 14.35 ns a loop, spread 0.30$"
has "unpreempted: 0 rows$"
has "^# the medians over 1 directories"
has "^param rtapp_kloop=14350ns$"
has "^param rtapp_kloop_sd=297ns$"
# errors: a thread the trace lacks, a short row, a word for a number, no trace, no directory
mkdir "$T/e"
cp "$D/x.json" "$D/x-a-0.log" "$D/real.trace" "$T/e/"
echo "$H" >"$T/e/x-zz-2.log"
tool_error "$T/e" "thread zz (instance 2) not found"
rm "$T/e/x-zz-2.log"
echo "0 1000 120" >>"$T/e/x-a-0.log"
tool_error "$T/e" "x-a-0.log:5: expected 11 columns"
sed '$d' "$T/e/x-a-0.log" >"$T/l" && echo "0 1000 x 500 1 2 0 0 100 0 0" >>"$T/l"
cp "$T/l" "$T/e/x-a-0.log"
tool_error "$T/e" "x-a-0.log:5: expected integers"
rm "$T/e/real.trace"
tool_error "$T/e" "no real.trace"
tool_error "$T/none" "none: not a directory"
echo "run_stretch: ok"
