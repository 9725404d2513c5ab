#!/bin/sh
# tools/rtapp_event_cost.py on a recording written by hand, --kloop 10000 (10 ns a loop) and
# --tail 1000. The JSON (log_basename x): task a, one phase of two runs (10 + 20 us: c_duration
# 30) and a sleep; task b, a suspend and one run of 50 us. Logs: a 2 rows of 1000 loops (c 30),
# b 4 rows of 2000 loops (c 50). Trace: a (pid 101) on CPU 0 for 34 us with 2 sched_waking
# lines, b (pid 102) 100 us. By hand: a: (34000 - 2000 x 10 - 2 x 1000) / 2 rows = 6000 ns a
# row, 2 runs a row; b: (100000 - 8000 x 10) / 4 = 5000 ns, 1 run a row. Weights rows over CPU
# per row: a 2 / 17000, b 4 / 25000. Through the origin: (2/17000 x 2 x 6000 + 4/25000 x 5000)
# / (2/17000 x 4 + 4/25000) = 2.2117647 / 0.00063059 = 3507.5 -> 3507 ns. The line through
# both points: 1000 ns a run + 4000 ns a loop. Errors: a directory without a JSON, a
# sched_switch without prev_pid: exit 2 naming the file (and line).
set -eu
. "$(dirname "$0")/pytool.sh"
D="$T/rec"
mkdir "$D"
cat >"$D/x.json" <<'J'
{
	"tasks" : {
		"a" : { "loop" : -1, "run" : 10, "run" : 20, "sleep" : 1000 },
		"b" : { "loop" : -1, "phases" : { "p1" : { "suspend", "run" : 50, } } }
	},
	"global" : { "log_basename" : "x", "ftrace" : false }
}
J
H='#idx perf run period start end rel_st slack c_duration c_period wu_lat'
{
	echo "$H"
	echo "1 1000 31 100 0 0 0 0 30 0 0"
	echo "2 1000 31 100 0 0 0 0 30 0 0"
} >"$D/x-a-0.log"
{
	echo "$H"
	for i in 1 2 3 4; do echo "$i 2000 51 100 0 0 0 0 50 0 0"; done
} >"$D/x-b-1.log"
cat >"$D/real.trace" <<'R'
          <idle>-0       [000] d..2.     1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=101 next_prio=120
               a-101     [000] d..3.     1.000010: sched_waking: comm=b pid=102 prio=120 target_cpu=000
               a-101     [000] d..3.     1.000020: sched_waking: comm=b pid=102 prio=120 target_cpu=000
               a-101     [000] d..2.     1.000034: sched_switch: prev_comm=a prev_pid=101 prev_prio=120 prev_state=S ==> next_comm=b next_pid=102 next_prio=120
               b-102     [000] d..2.     1.000134: sched_switch: prev_comm=b prev_pid=102 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
R
"$PY" "$TOOLPY" --kloop 10000 --tail 1000 "$D" >"$T/out" || fail "exit $?: $(cat "$T/out")"
grep -q '^threads 2, rows 6 (0 matched no phase), runs 8, wakes 2;' "$T/out" ||
	fail "counts: $(cat "$T/out")"
grep -q 'origin): 3507 ns; with an intercept: 1000 ns a run + 4000 ns a loop$' "$T/out" ||
	fail "fit: $(cat "$T/out")"
grep -q '^param rtapp_cold=3507ns$' "$T/out" || fail "param: $(cat "$T/out")"
mkdir "$T/nojson"
tool_error "$T/nojson" "nojson: expected one rt-app JSON"
sed -i 's/prev_pid=102/prev_pd=102/' "$D/real.trace"
tool_error "$D" "real.trace:5: expected prev_pid"
echo "rtapp_event_cost: ok"
