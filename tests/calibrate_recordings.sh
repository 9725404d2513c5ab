#!/bin/sh
# calibrate --recordings: the idle-length dependence of a timer wake-up of an idle CPU, read
# from real traces (src/validate/wake_idle.c), on a trace made here with hand-set values.
set -eu
. "$(dirname "$0")/lib.sh"

# CPU 0 goes idle, and its own timer wakes task t (pid 10) after 1 ms of idle 20 times, 20 us
# from the wake-up to the switch, and after 10 ms 20 times, 30 us. Noise the measure must leave
# out: a wake-up of t from CPU 1 onto idle CPU 0 (remote), and one on CPU 1 while it runs.
awk 'BEGIN {
	print "# tracer: nop"
	print "#"
	t = 100.0
	for (k = 0; k < 40; k++) {
		idle = k < 20 ? 0.001 : 0.010
		lat = k < 20 ? 0.000020 : 0.000030
		printf "          <idle>-0       [000] d..1. %13.6f: cpu_idle: state=1 cpu_id=0\n", t
		t += idle
		printf "          <idle>-0       [000] d.h3. %13.6f: sched_waking: comm=t pid=10 prio=120 target_cpu=000\n", t
		printf "          <idle>-0       [000] dN.1. %13.6f: cpu_idle: state=4294967295 cpu_id=0\n", t + 0.000005
		t += lat
		printf "          <idle>-0       [000] d..2. %13.6f: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=t next_pid=10 next_prio=120\n", t
		t += 0.000100
		printf "               t-10      [000] d..2. %13.6f: sched_switch: prev_comm=t prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n", t
	}
	printf "          <idle>-0       [000] d..1. %13.6f: cpu_idle: state=1 cpu_id=0\n", t
	t += 0.005
	printf "               u-11      [001] d..2. %13.6f: sched_waking: comm=t pid=10 prio=120 target_cpu=000\n", t
	printf "          <idle>-0       [000] d..2. %13.6f: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=t next_pid=10 next_prio=120\n", t + 0.001
	printf "               u-11      [001] d..2. %13.6f: sched_waking: comm=v pid=12 prio=120 target_cpu=001\n", t + 0.002
	printf "               u-11      [001] d..2. %13.6f: sched_switch: prev_comm=u prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=v next_pid=12 next_prio=120\n", t + 0.003
}' >"$T/real.trace"
mkdir "$T/rec"
xz -c "$T/real.trace" >"$T/rec/real.trace.xz"

# medians 20 us at 1 ms (log10 0) and 30 us at 10 ms (log10 1): wake_local 20 us at 1 ms,
# 10 us more per tenfold idle, no spread around the line
"$SL" calibrate --recordings "$T/rec" >"$T/out" 2>"$T/err" || fail "calibrate --recordings: $(cat "$T/err")"
grep -qx 'param wake_local=20000ns' "$T/out" || fail "wake_local: $(cat "$T/out")"
grep -qx 'param wake_local_sd=0ns' "$T/out" || fail "wake_local_sd: $(cat "$T/out")"
grep -qx 'param wake_local_decade=10000ns' "$T/out" || fail "wake_local_decade: $(cat "$T/out")"
grep -q '^# calibrate --recordings: 40 timer wake-ups of an idle CPU in 1 trace' "$T/out" ||
	fail "the count (the remote and the busy-CPU wake-ups left out): $(cat "$T/out")"
# its lines are machine.conf lines: a calibration with them is taken by validate's reader
# (the same file as a trace, not a directory)
"$SL" calibrate --recordings "$T/real.trace" | grep -qx 'param wake_local_decade=10000ns' ||
	fail "a trace file given as such"

# The remote row: task r (pid 20) woken by u on CPU 1 onto idle CPU 0, 21 times after 1 ms of
# idle (30, 40, 50 us to the switch, 7 times each: median 40 us) and 21 times after 10 ms
# (60 us). Left out: a wake-up of r from CPU 1 onto CPU 0 while CPU 0 runs (900 us), one onto
# idle CPU 0 that CPU 1 runs first (pulled; CPU 0 runs r 2 ms later), and 5 timer wake-ups on
# CPU 0 (too few for a local line).
awk 'BEGIN {
	print "# tracer: nop"
	print "#"
	t = 200.0
	for (k = 0; k < 47; k++) {
		idle = k < 21 ? 0.001 : 0.010
		lat = k < 21 ? 0.000030 + (k % 3) * 0.000010 : 0.000060
		waker = k < 42 ? "               u-11      [001]" : "          <idle>-0       [000]"
		cpu = k < 42 ? "001" : "000"
		printf "          <idle>-0       [000] d..1. %13.6f: cpu_idle: state=1 cpu_id=0\n", t
		t += idle
		printf "%s d..2. %13.6f: sched_waking: comm=r pid=20 prio=120 target_cpu=000\n", waker, t
		printf "          <idle>-0       [000] dN.1. %13.6f: cpu_idle: state=4294967295 cpu_id=0\n", t + 0.000005
		t += lat
		printf "          <idle>-0       [000] d..2. %13.6f: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=r next_pid=20 next_prio=120\n", t
		t += 0.000100
		if (k == 0) {
			printf "               u-11      [001] d..2. %13.6f: sched_waking: comm=r pid=20 prio=120 target_cpu=000\n", t
			t += 0.000900
			printf "               w-30      [000] d..2. %13.6f: sched_switch: prev_comm=w prev_pid=30 prev_prio=120 prev_state=S ==> next_comm=r next_pid=20 next_prio=120\n", t
		}
		printf "               r-20      [000] d..2. %13.6f: sched_switch: prev_comm=r prev_pid=20 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n", t
	}
	printf "          <idle>-0       [000] d..1. %13.6f: cpu_idle: state=1 cpu_id=0\n", t
	printf "               u-11      [001] d..2. %13.6f: sched_waking: comm=r pid=20 prio=120 target_cpu=000\n", t + 0.005
	printf "               u-11      [001] d..2. %13.6f: sched_switch: prev_comm=u prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=r next_pid=20 next_prio=120\n", t + 0.00501
	printf "          <idle>-0       [000] d..2. %13.6f: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=r next_pid=20 next_prio=120\n", t + 0.007
}' >"$T/remote.trace"
# medians 40 us at 1 ms and 60 us at 10 ms: 40 us at 1 ms, 20 us more per tenfold idle; the
# residuals -10 (7), 0 (28), +10 us (7): their 16th and 84th percentiles -10 and +10, sd 10 us;
# --remote-known 7818 (an IPI of 1000 ns and fc-2vcpu-r28's HLT exit of 6818 ns) taken off
"$SL" calibrate --recordings --remote-known 7818 "$T/remote.trace" >"$T/out" 2>"$T/err" ||
	fail "calibrate --recordings, remote: $(cat "$T/err")"
grep -qx 'param wake_remote=32182ns' "$T/out" || fail "wake_remote: $(cat "$T/out")"
grep -qx 'param wake_remote_sd=10000ns' "$T/out" || fail "wake_remote_sd: $(cat "$T/out")"
grep -qx 'param wake_remote_decade=20000ns' "$T/out" || fail "wake_remote_decade: $(cat "$T/out")"
grep -q '^# calibrate --recordings: 42 wake-ups of an idle CPU from another CPU in 1 trace' \
	"$T/out" || fail "the remote count (the busy-CPU and the pulled one left out): $(cat "$T/out")"
grep -q '^# calibrate --recordings: 5 timer wake-ups of an idle CPU in 1 trace' "$T/out" ||
	fail "the local count: $(cat "$T/out")"
grep -q 'no wake_local lines' "$T/out" || fail "too few local wake-ups: $(cat "$T/out")"
if grep -q '^param wake_local' "$T/out"; then fail "wake_local lines without a fit"; fi
# without --remote-known the whole path; --json gives the same figures
"$SL" calibrate --recordings "$T/remote.trace" | grep -qx 'param wake_remote=40000ns' ||
	fail "wake_remote without --remote-known"
"$SL" calibrate --recordings --json --remote-known 7818 "$T/remote.trace" >"$T/json" ||
	fail "--json"
grep -q '"wake_remote_ns": 32182, "wake_remote_sd_ns": 10000, "wake_remote_decade_ns": 20000' \
	"$T/json" || fail "--json: $(cat "$T/json")"
# the options after the traces, or before --recordings, are the same options (--json after the
# trace was read as a trace named --json; before --recordings it was refused)
"$SL" calibrate --recordings --remote-known 7818 "$T/remote.trace" --json >"$T/json2" ||
	fail "--json after the trace"
cmp -s "$T/json" "$T/json2" || fail "--json after the trace: $(cat "$T/json2")"
"$SL" calibrate --json --remote-known 7818 --recordings "$T/remote.trace" >"$T/json2" ||
	fail "--json before --recordings"
cmp -s "$T/json" "$T/json2" || fail "--json before --recordings: $(cat "$T/json2")"
# -o with --recordings (nothing measured, no machine.conf written) and --json with the measuring
# are refused by name
usage_error "calibrate --recordings: -o does not apply" calibrate --recordings "$T/remote.trace" -o "$T/x"
usage_error "calibrate: --json applies with --recordings only" calibrate --json -o "$T/x"
[ ! -e "$T/x" ] || fail "a refused calibrate made its -o directory"
# the local row of the first trace is not moved by its one remote wake-up, and has no remote line
"$SL" calibrate --recordings "$T/real.trace" >"$T/out"
grep -q 'no wake_remote lines' "$T/out" || fail "one remote wake-up: $(cat "$T/out")"
rc=0
"$SL" calibrate --recordings --remote-known 7us "$T/remote.trace" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] || fail "--remote-known 7us: exit $rc, expected 2"
grep -q "remote-known" "$T/err" || fail "--remote-known 7us: $(cat "$T/err")"

# one idle length only: no line to fit, a clear error (exit 2); a missing trace likewise
head -60 "$T/real.trace" >"$T/short.trace"
rc=0
"$SL" calibrate --recordings "$T/short.trace" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] || fail "one idle length: exit $rc, expected 2"
grep -q 'fewer than two idle lengths with 20 or more' "$T/err" || fail "one idle length: $(cat "$T/err")"
rc=0
"$SL" calibrate --recordings "$T/none" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] || fail "no such trace: exit $rc, expected 2"
grep -q "$T/none" "$T/err" || fail "no such trace: the error does not name it: $(cat "$T/err")"
rc=0
"$SL" calibrate --recordings >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] || fail "no directory: exit $rc, expected 2"

# The wake-up preemption of a waker (wake_preempt_rec.c): on CPU 1, which never idles here, task
# a (pid 30) runs 200 us and wakes b (pid 31), asleep 4.6 ms, onto CPU 1, 30 times; 12 of the
# sched_wakeup lines have need_resched set (dN.3.): wake_preempt = 12 x 1000 / 30 = 400. Left
# out: a wake-up from an interrupt (d.h3.), one by a that has run 2 ms (past its 1.4 ms slice),
# one of b asleep 0.5 ms, and one onto CPU 0, all with N set. The two idle rows are as above.
awk 'BEGIN {
	t = 300.0
	sw = "          <idle>-0       [001] d..2. %13.6f: sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> next_comm=%s next_pid=%d next_prio=120\n"
	wk = "               a-30      [001] %s %13.6f: sched_wakeup: comm=b pid=31 prio=120 target_cpu=%s\n"
	printf sw, t, "swapper/1", 0, "R", "b", 31
	printf sw, t + 0.0001, "b", 31, "S", "swapper/1", 0
	t += 0.005
	for (k = 0; k < 30; k++) {
		printf sw, t, "swapper/1", 0, "R", "a", 30
		if (k == 0)
			printf wk, "dNh3.", t + 0.0001, "001"
		if (k == 1)
			printf wk, "dN.3.", t + 0.0001, "000"
		printf wk, k < 12 ? "dN.3." : "d..3.", t + 0.0002, "001"
		printf sw, t + 0.0003, "a", 30, k < 12 ? "R" : "S", "b", 31
		printf sw, t + 0.0004, "b", 31, "S", "swapper/1", 0
		t += 0.005
	}
	printf sw, t, "swapper/1", 0, "R", "a", 30
	printf wk, "dN.3.", t + 0.002, "001"
	printf sw, t + 0.0021, "a", 30, "R", "b", 31
	printf sw, t + 0.0022, "b", 31, "S", "a", 30
	printf wk, "dN.3.", t + 0.0027, "001"
}' >"$T/preempt.part"
cat "$T/real.trace" "$T/preempt.part" >"$T/preempt.trace"
"$SL" calibrate --recordings "$T/preempt.trace" >"$T/out" 2>"$T/err" ||
	fail "calibrate --recordings, preemption: $(cat "$T/err")"
grep -qx 'param wake_preempt=400' "$T/out" || fail "wake_preempt: $(cat "$T/out")"
grep -q '^# calibrate --recordings: 30 wake-ups by a running task, in its first 1400 us, .* 12 set need_resched' \
	"$T/out" || fail "wake_preempt's count: $(cat "$T/out")"
grep -qx 'param wake_local_decade=10000ns' "$T/out" || fail "the local row moved: $(cat "$T/out")"
"$SL" calibrate --recordings --json "$T/preempt.trace" >"$T/json" || fail "--json, preemption"
grep -q '"wake_preempt": {"wakeups": 30, "need_resched": 12, "wake_preempt": 400}' "$T/json" ||
	fail "--json, preemption: $(cat "$T/json")"
# the first trace has none: no line
"$SL" calibrate --recordings "$T/real.trace" >"$T/out"
grep -q 'fewer than 20: no wake_preempt line' "$T/out" || fail "no wake-ups: $(cat "$T/out")"
# The tail (wake_local_tail, wake_local_tail_mean): task t (pid 10) woken by idle CPU 0's own
# timer 1000 times after 1 ms of idle and 1000 times after 10 ms; in each, 900 at 20 us (30 us
# after 10 ms) and 100 later by round(13 us x ln(100 / j)), j = 100..1: the quantiles of a share
# of 100 per 1000 waiting an extra exponential of mean 13 us (no normal spread: the 16th and 84th
# percentiles are on the line). Their residuals' 90th, 95th, 97.5th, 99th percentiles: 0, 9
# (13 ln 2 = 9.01), 18 (13 ln 4), 30 us (13 ln 10 = 29.93), where share 100 and mean 13 us give
# the distribution function 0.9, 0.94996, 0.97496, 0.99005: wake_local_tail=100,
# wake_local_tail_mean=13000ns. Left out of the tail, not of the line: 100 wake-ups after 1 ms
# whose CPU runs task u (pid 11) first, 400 us, then t (at 420 us).
awk 'BEGIN {
	print "# tracer: nop"
	print "#"
	t = 100000000
	for (k = 0; k < 2100; k++) {
		b = k < 1000 ? 0 : k < 2000 ? 1 : 0
		i = k % 1000
		lat = b ? 30 : 20
		if (k < 2000 && i >= 900)
			lat += int(13 * log(100 / (1000 - i)) + 0.5)
		printf "          <idle>-0       [000] d..1. %13.6f: cpu_idle: state=1 cpu_id=0\n", t / 1e6
		t += b ? 10000 : 1000
		printf "          <idle>-0       [000] d.h3. %13.6f: sched_waking: comm=t pid=10 prio=120 target_cpu=000\n", t / 1e6
		printf "          <idle>-0       [000] dN.1. %13.6f: cpu_idle: state=4294967295 cpu_id=0\n", (t + 5) / 1e6
		if (k >= 2000) {
			printf "          <idle>-0       [000] d..2. %13.6f: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=u next_pid=11 next_prio=120\n", (t + 20) / 1e6
			printf "               u-11      [000] d..2. %13.6f: sched_switch: prev_comm=u prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=t next_pid=10 next_prio=120\n", (t + 420) / 1e6
			t += 420
		} else {
			t += lat
			printf "          <idle>-0       [000] d..2. %13.6f: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=t next_pid=10 next_prio=120\n", t / 1e6
		}
		t += 100
		printf "               t-10      [000] d..2. %13.6f: sched_switch: prev_comm=t prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n", t / 1e6
	}
}' >"$T/tail.trace"
"$SL" calibrate --recordings "$T/tail.trace" >"$T/out" 2>"$T/err" ||
	fail "calibrate --recordings, tail: $(cat "$T/err")"
grep -qx 'param wake_local=20000ns' "$T/out" || fail "tail: wake_local: $(cat "$T/out")"
grep -qx 'param wake_local_sd=0ns' "$T/out" || fail "tail: wake_local_sd: $(cat "$T/out")"
grep -q '^# calibrate --recordings: 2100 timer wake-ups' "$T/out" || fail "tail: count: $(cat "$T/out")"
grep -q '^# the tail: 2000 wake-ups ran first on their CPU; above the line their 90th, 95th, 97.5th, 99th percentiles 0.0 9.0 18.0 30.0 us' \
	"$T/out" || fail "tail: the percentiles (the 100 run second left out): $(cat "$T/out")"
grep -q '^# 100 ran second, behind another woken task (median 420.0 us): left out of the tail' \
	"$T/out" || fail "tail: the wake-ups run second: $(cat "$T/out")"
grep -qx 'param wake_local_tail=100' "$T/out" || fail "wake_local_tail: $(cat "$T/out")"
grep -qx 'param wake_local_tail_mean=13000ns' "$T/out" || fail "wake_local_tail_mean: $(cat "$T/out")"
"$SL" calibrate --recordings --json "$T/tail.trace" | grep -q '"ran_first": 2000, "wake_local_tail": 100, "wake_local_tail_mean_ns": 13000' ||
	fail "tail: --json"
# the first trace: 40, too few for a tail; none in its lines
"$SL" calibrate --recordings "$T/real.trace" >"$T/out"
grep -q '40 wake-ups ran first on their CPU, fewer than 100: no wake_local_tail lines' "$T/out" ||
	fail "tail: too few: $(cat "$T/out")"
if grep -q '^param wake_local_tail' "$T/out"; then fail "a tail from 40 wake-ups"; fi
echo "calibrate_recordings: ok"
