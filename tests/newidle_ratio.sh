#!/bin/sh
# tools/newidle_ratio.py on a trace written by hand (docs/validate.md, "The newidle balance, rule
# by rule"). X (11), Z (13) and Q (14) run on both CPUs first; then CPU 0 runs W (10) and CPU 1
# Y (12). Y wakes Z onto CPU 1, W blocks and CPU 0 pulls Z (migrated 5 us before the switch
# W -> Z): a newidle pull, no switch to idle. Z blocks: CPU 0 idles (1). Y wakes W onto it; W
# blocks (2); an interrupt wakes W; W blocks with Y waiting on CPU 1 (3) and CPU 0 pulls Y 20 us
# later. By hand: 3 idle entries, 2 pulls, 5 newidle calls at most: ratio 1024 x sqrt(2 / 5) =
# 647.6, `param newidle_ratio=648`; two copies pooled: 6 and 4, the same. A file that does not
# exist, a trace of three CPUs, a trace with no CPU going idle and no argument: exit 2.
set -eu
. "$(dirname "$0")/pytool.sh"
S='prev_prio=120 prev_state'
N='next_prio=120'
sw() { # sw CPU TIME PREV_COMM PREV_PID STATE NEXT_COMM NEXT_PID
	printf '%16s-%-7s [00%s] d..2.     %s: sched_switch: prev_comm=%s prev_pid=%s %s=%s ==> next_comm=%s next_pid=%s %s\n' \
		"$3" "$4" "$1" "$2" "$3" "$4" "$S" "$5" "$6" "$7" "$N"
}
{
	printf '# tracer: nop\n#\n'
	sw 0 0.900000 swapper/0 0 R X 11
	sw 1 0.900000 swapper/1 0 R Z 13
	sw 0 0.900100 X 11 S Q 14
	sw 1 0.900100 Z 13 S X 11
	sw 0 0.900200 Q 14 S Z 13
	sw 1 0.900200 X 11 S Q 14
	sw 0 0.900300 Z 13 S X 11
	sw 1 0.900300 Q 14 S Z 13
	sw 0 0.900400 X 11 S W 10
	sw 1 0.900400 Z 13 S Q 14
	sw 1 0.900500 Q 14 S Y 12
} >"$T/head"
{
	cat "$T/head"
	cat <<'TR'
               Y-12      [001] d..3.     1.000000: sched_waking: comm=Z pid=13 prio=120 target_cpu=001
               Y-12      [001] d..4.     1.000001: sched_wakeup: comm=Z pid=13 prio=120 target_cpu=001
               W-10      [000] d..4.     1.000005: sched_migrate_task: comm=Z pid=13 prio=120 orig_cpu=1 dest_cpu=0
TR
	sw 0 1.000010 W 10 S Z 13
	sw 0 1.000100 Z 13 S swapper/0 0
	cat <<'TR'
               Y-12      [001] d..3.     1.000260: sched_waking: comm=W pid=10 prio=120 target_cpu=000
               Y-12      [001] d..4.     1.000261: sched_wakeup: comm=W pid=10 prio=120 target_cpu=000
TR
	sw 0 1.000270 swapper/0 0 R W 10
	cat <<'TR'
               Y-12      [001] d..3.     1.000400: sched_waking: comm=X pid=11 prio=120 target_cpu=001
               Y-12      [001] d..4.     1.000401: sched_wakeup: comm=X pid=11 prio=120 target_cpu=001
TR
	sw 0 1.000500 W 10 S swapper/0 0
	sw 1 1.000700 Y 12 R+ X 11
	cat <<'TR'
          <idle>-0       [000] d.h2.     1.000999: sched_waking: comm=W pid=10 prio=120 target_cpu=000
          <idle>-0       [000] dNh2.     1.001000: sched_wakeup: comm=W pid=10 prio=120 target_cpu=000
TR
	sw 0 1.001010 swapper/0 0 R W 10
	sw 0 1.001100 W 10 S swapper/0 0
	cat <<'TR'
          <idle>-0       [000] d..4.     1.001120: sched_migrate_task: comm=Y pid=12 prio=120 orig_cpu=1 dest_cpu=0
TR
	sw 0 1.001125 swapper/0 0 R Y 12
} >"$T/idle.trace"
cp "$T/idle.trace" "$T/idle2.trace"
"$PY" "$TOOLPY" "$T/idle.trace" "$T/idle2.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
grep -q '^ *3  *2  *647\.6  .*idle\.trace$' "$T/out" &&
	grep -q '^ *6  *4  *647\.6  all 2 traces: param newidle_ratio=648$' "$T/out" ||
	fail "the table: $(cat "$T/out")"
"$PY" "$TOOLPY" --json "$T/idle.trace" >"$T/out" || fail "--json: exit $?"
"$PY" -c 'import json,sys; t=json.load(open(sys.argv[1]))["total"]; assert (t["idle_entries"], t["pulls"], round(t["ratio"], 1)) == (3, 2, 647.6), t' "$T/out" ||
	fail "--json: $(cat "$T/out")"
tool_error "$T/missing.trace" missing.trace
sed 's/\[001\]/[002]/' "$T/idle.trace" >"$T/three.trace"
tool_error "$T/three.trace" "2-CPU"
printf '# tracer: nop\n' >"$T/empty.trace"
tool_error "$T/empty.trace" "no CPU went idle"
rc=0
"$PY" "$TOOLPY" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'Usage' "$T/err" || fail "no argument: exit $rc ($(cat "$T/err"))"
echo "newidle_ratio.sh: ok"
