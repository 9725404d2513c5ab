#!/bin/sh
# tools/wake_preempt_pairs.py on a trace written by hand (docs/validate.md, "The switch price
# re-measured, and the wake-up preemption by pair"). A (pid 10, named "rt-app" in the lines'
# headers as before a thread names itself) is switched in on CPU 0 at 1.000000 and wakes, onto
# CPU 0: B at 1.000050 with need_resched (A has run 50 us, B asleep since 0.900: 100.05 ms),
# D from a hard interrupt (left out), C at 1.000300 without (A 300 us, C asleep 20.3 ms), F
# asleep only 0.9 ms (left out), G onto CPU 1 (left out), E at 1.001500 (A past its 1.4 ms:
# left out). So: 2 counted, 1 with need_resched (500 per 1000); the pairs A -> B 1/1 (1000)
# and A -> C 1/0 (0); by run, 40-160 us 1/1 and 160-640 us 1/0; by sleep, 10-30 ms 1/0 and
# 30 ms and more 1/1. With --min 2 both pairs are summed in one line. With --short only F
# (asleep 0.9 ms, woken with need_resched after A's 400 us) counts: 1, 1000 per 1000, by sleep
# 0-3 ms. A missing file, a trace with nothing counted and a bad option: exit 2.
set -eu
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PY=${PYTHON:-python3}
W="$(cd "$(dirname "$0")/.." && pwd)/tools/wake_preempt_pairs.py"
fail() {
	echo "wake_preempt_pairs.sh: FAIL: $*" >&2
	exit 1
}
cat >"$T/t.trace" <<'TR'
# tracer: nop
#
          <idle>-0       [001] d..2.     0.500000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=D next_pid=13 next_prio=120
               D-13      [001] d..2.     0.500100: sched_switch: prev_comm=D prev_pid=13 prev_prio=120 prev_state=S ==> next_comm=E next_pid=15 next_prio=120
               E-15      [001] d..2.     0.500200: sched_switch: prev_comm=E prev_pid=15 prev_prio=120 prev_state=S ==> next_comm=G next_pid=16 next_prio=120
               G-16      [001] d..2.     0.500300: sched_switch: prev_comm=G prev_pid=16 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
          <idle>-0       [000] d..2.     0.850000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=B next_pid=11 next_prio=120
               B-11      [000] d..2.     0.900000: sched_switch: prev_comm=B prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=C next_pid=12 next_prio=120
               C-12      [000] d..2.     0.980000: sched_switch: prev_comm=C prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=F next_pid=14 next_prio=120
               F-14      [000] d..2.     0.999500: sched_switch: prev_comm=F prev_pid=14 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0       [000] d..2.     1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=A next_pid=10 next_prio=120
          rt-app-10      [000] dN.3.     1.000050: sched_wakeup: comm=B pid=11 prio=120 target_cpu=000
          rt-app-10      [000] dNh3.     1.000100: sched_wakeup: comm=D pid=13 prio=120 target_cpu=000
          rt-app-10      [000] d..3.     1.000300: sched_wakeup: comm=C pid=12 prio=120 target_cpu=000
          rt-app-10      [000] dN.3.     1.000400: sched_wakeup: comm=F pid=14 prio=120 target_cpu=000
          rt-app-10      [000] dN.3.     1.000450: sched_wakeup: comm=G pid=16 prio=120 target_cpu=001
          rt-app-10      [000] dN.3.     1.001500: sched_wakeup: comm=E pid=15 prio=120 target_cpu=000
TR
"$PY" "$W" --min 1 "$T/t.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
grep -q '^2 counted wake-ups in 1 trace(s); need_resched set in 1 (500 per 1000)$' "$T/out" ||
	fail "count: $(head -1 "$T/out")"
grep -Eq '^A -> B +1 +1 +1000$' "$T/out" || fail "pair A -> B: $(cat "$T/out")"
grep -Eq '^A -> C +1 +0 +0$' "$T/out" || fail "pair A -> C: $(cat "$T/out")"
# How the waker got its CPU (the machine's wake_preempt split, docs/validate.md step 20): in
# t.trace A came from idle (2 counted, 1 with need_resched). entry.trace: on CPU 0 K (30) slept
# and P (31) ran next: P wakes Q (32, asleep 10 ms) with need_resched at 2.000050: after a
# sleeper 1/1 (neither size); on CPU 1 L (33) was preempted (R+) by R (34): R wakes S (35,
# asleep 10 ms) without at 2.000060: from a task it preempted 1/0. So: preempted 1 0 0, slept 1
# 1 1000, otherwise all sizes 1 0 0. Swapping the two classes, or reading the switch's next
# task's state instead of the previous one's, moves these rows.
grep -Eq '^from idle +2 +1 +500$' "$T/out" || fail "entry, from idle: $(cat "$T/out")"
grep -Eq '^otherwise: all sizes +2 +1 +500$' "$T/out" || fail "otherwise: $(cat "$T/out")"
grep -q '^after a sleeper' "$T/out" && fail "after a sleeper with none: $(cat "$T/out")"
cat >"$T/entry.trace" <<'TR'
# tracer: nop
#
               Q-32      [000] d..2.     1.990000: sched_switch: prev_comm=Q prev_pid=32 prev_prio=120 prev_state=S ==> next_comm=K next_pid=30 next_prio=120
               S-35      [001] d..2.     1.990000: sched_switch: prev_comm=S prev_pid=35 prev_prio=120 prev_state=S ==> next_comm=L next_pid=33 next_prio=120
               K-30      [000] d..2.     2.000000: sched_switch: prev_comm=K prev_pid=30 prev_prio=120 prev_state=S ==> next_comm=P next_pid=31 next_prio=120
               L-33      [001] d..2.     2.000000: sched_switch: prev_comm=L prev_pid=33 prev_prio=120 prev_state=R+ ==> next_comm=R next_pid=34 next_prio=120
               P-31      [000] dN.3.     2.000050: sched_wakeup: comm=Q pid=32 prio=120 target_cpu=000
               R-34      [001] d..3.     2.000060: sched_wakeup: comm=S pid=35 prio=120 target_cpu=001
TR
"$PY" "$W" --min 1 "$T/entry.trace" >"$T/outE" || fail "entry: exit $? ($(cat "$T/outE"))"
grep -Eq '^from a task it preempted \(left runnable\) +1 +0 +0$' "$T/outE" ||
	fail "entry, preempted: $(cat "$T/outE")"
grep -Eq '^from a task that slept +1 +1 +1000$' "$T/outE" || fail "entry, slept: $(cat "$T/outE")"
grep -Eq '^after a sleeper: all sizes +1 +1 +1000$' "$T/outE" || fail "sleeper: $(cat "$T/outE")"
grep -Eq '^after a sleeper: neither +1 +1 +1000$' "$T/outE" || fail "neither: $(cat "$T/outE")"
grep -Eq '^otherwise: all sizes +1 +0 +0$' "$T/outE" || fail "otherwise E: $(cat "$T/outE")"
grep -Eq '^40 to 160 us +1 +1 +1000$' "$T/out" || fail "by run, 40-160: $(cat "$T/out")"
grep -Eq '^160 to 640 us +1 +0 +0$' "$T/out" || fail "by run, 160-640: $(cat "$T/out")"
grep -Eq '^10 to 30 ms +1 +0 +0$' "$T/out" || fail "by sleep, 10-30: $(cat "$T/out")"
grep -Eq '^30 and more \(ms\) +1 +1 +1000$' "$T/out" || fail "by sleep, 30-: $(cat "$T/out")"
# by size: A's utilization at 1.000050, 50 us into its first run, is 1024 (1 - 2^(-0.05/32.768))
# = 1.08 (1 + 1 = 2); B ran 50 ms from 0.850 (668.3) and slept 100.05 ms (x 2^(-3.053): 80.5,
# so 81): the wakee's 8 times the waker's. At 1.000300 A's is 6.48 (7), C's 835.3 after its 80
# ms, x 2^(-0.620) after 20.3 ms asleep: 543.6 (544), 8 times A's too: both in that row, 1 of
# 2 with need_resched. With --ratio 100 neither reaches it (81 < 200, 544 < 700).
grep -Eq "^wakee's 8 times the waker's or more +2 +1 +500$" "$T/out" ||
	fail "by size: $(cat "$T/out")"
"$PY" "$W" --min 1 --ratio 100 "$T/t.trace" >"$T/outr" || fail "--ratio 100: exit $?"
grep -Eq '^neither +2 +1 +500$' "$T/outr" || fail "--ratio 100: $(cat "$T/outr")"
"$PY" "$W" --min 2 "$T/t.trace" >"$T/out2" || fail "--min 2: exit $?"
grep -Eq '^\(pairs under 2\) +2 +1 +500$' "$T/out2" || fail "--min 2: $(cat "$T/out2")"
"$PY" "$W" --min 1 --short "$T/t.trace" >"$T/out3" || fail "--short: exit $?"
grep -q '^1 counted wake-ups in 1 trace(s); need_resched set in 1 (1000 per 1000)$' "$T/out3" ||
	fail "--short: $(head -1 "$T/out3")"
grep -Eq '^A -> F +1 +1 +1000$' "$T/out3" || fail "--short: pair A -> F: $(cat "$T/out3")"
grep -Eq '^0 to 3 ms +1 +1 +1000$' "$T/out3" || fail "--short: by sleep: $(cat "$T/out3")"
# --again (the second halves of the hand-offs): on CPU 0, H (pid 20) wakes K, which takes the
# CPU from it (R+), runs 3 us and sleeps: H's next wake-up of K (need_resched set) counts. K
# takes the CPU again and runs 94 us before it sleeps: H's wake-up of K after that is no
# second half. M takes the CPU from H, runs 8 us and sleeps: H's wake-up of M (without
# need_resched) counts. So 2 counted, 1 with need_resched: H -> K 1/1, H -> M 1/0.
cat >"$T/a.trace" <<'TR'
# tracer: nop
#
          <idle>-0       [000] d..2.     2.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=H next_pid=20 next_prio=120
               H-20      [000] dN.3.     2.000100: sched_wakeup: comm=K pid=21 prio=120 target_cpu=000
               H-20      [000] d..2.     2.000101: sched_switch: prev_comm=H prev_pid=20 prev_prio=120 prev_state=R+ ==> next_comm=K next_pid=21 next_prio=120
               K-21      [000] d..2.     2.000104: sched_switch: prev_comm=K prev_pid=21 prev_prio=120 prev_state=S ==> next_comm=H next_pid=20 next_prio=120
               H-20      [000] dN.3.     2.000105: sched_wakeup: comm=K pid=21 prio=120 target_cpu=000
               H-20      [000] d..2.     2.000106: sched_switch: prev_comm=H prev_pid=20 prev_prio=120 prev_state=R+ ==> next_comm=K next_pid=21 next_prio=120
               K-21      [000] d..2.     2.000200: sched_switch: prev_comm=K prev_pid=21 prev_prio=120 prev_state=S ==> next_comm=H next_pid=20 next_prio=120
               H-20      [000] d..3.     2.000300: sched_wakeup: comm=K pid=21 prio=120 target_cpu=000
               H-20      [000] dN.3.     2.000400: sched_wakeup: comm=M pid=22 prio=120 target_cpu=000
               H-20      [000] d..2.     2.000401: sched_switch: prev_comm=H prev_pid=20 prev_prio=120 prev_state=R+ ==> next_comm=M next_pid=22 next_prio=120
               M-22      [000] d..2.     2.000409: sched_switch: prev_comm=M prev_pid=22 prev_prio=120 prev_state=S ==> next_comm=H next_pid=20 next_prio=120
               H-20      [000] d..3.     2.000410: sched_wakeup: comm=M pid=22 prio=120 target_cpu=000
TR
"$PY" "$W" --min 1 --again "$T/a.trace" >"$T/out4" || fail "--again: exit $?"
grep -q '^2 counted wake-ups in 1 trace(s); need_resched set in 1 (500 per 1000)$' "$T/out4" ||
	fail "--again: $(head -1 "$T/out4")"
grep -Eq '^H -> K +1 +1 +1000$' "$T/out4" || fail "--again: pair H -> K: $(cat "$T/out4")"
grep -Eq '^H -> M +1 +0 +0$' "$T/out4" || fail "--again: pair H -> M: $(cat "$T/out4")"
"$PY" "$W" --min 1 --again "$T/t.trace" >/dev/null 2>&1 && fail "--again on t.trace: exit 0"
for bad in "$T/none.trace" "--min x $T/t.trace" "--bogus $T/t.trace" "--short --again $T/a.trace"; do
	# shellcheck disable=SC2086
	if "$PY" "$W" $bad >/dev/null 2>"$T/err"; then
		fail "$bad: exit 0"
	else
		[ $? -eq 2 ] || fail "$bad: not exit 2"
	fi
done
"$PY" "$W" "$T/none.trace" 2>&1 | grep -q 'none.trace' || fail "a missing file is not named"
# a cut .xz: exit 2, the file named once ("PATH: cannot read: a cut or corrupt .xz file")
xz -c "$T/t.trace" | head -c 100 >"$T/cut.trace.xz"
rc=0
"$PY" "$W" "$T/cut.trace.xz" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'cut.trace.xz: cannot read: a cut or corrupt' "$T/err" &&
	[ "$(grep -o 'cut\.trace\.xz' "$T/err" | wc -l)" -eq 1 ] || fail "cut .xz: exit $rc ($(cat "$T/err"))"
head -3 "$T/t.trace" >"$T/empty.trace"
if "$PY" "$W" "$T/empty.trace" >/dev/null 2>"$T/err"; then
	fail "nothing counted: exit 0"
else
	[ $? -eq 2 ] || fail "nothing counted: not exit 2"
fi
grep -q 'empty.trace: no wake-up' "$T/err" || fail "nothing counted: $(cat "$T/err")"
# --no-again with --short on the same trace: of H's wake-ups of a task asleep under 1 ms that
# slept before (K at 2.000105 with need_resched, K at 2.000300 and M at 2.000410 without),
# the second halves (K at 2.000105, M at 2.000410) are left out: 1 counted, none with
# need_resched; without --no-again 3, 1 with (333 per 1000).
"$PY" "$W" --min 1 --short --no-again "$T/a.trace" >"$T/out5" || fail "--no-again: exit $?"
grep -q '^1 counted wake-ups in 1 trace(s); need_resched set in 0 (0 per 1000)$' "$T/out5" ||
	fail "--no-again: $(head -1 "$T/out5")"
"$PY" "$W" --min 1 --short "$T/a.trace" >"$T/out6" || fail "--short (a): exit $?"
grep -q '^3 counted wake-ups in 1 trace(s); need_resched set in 1 (333 per 1000)$' "$T/out6" ||
	fail "--short (a): $(head -1 "$T/out6")"
# --short's split by the waker's run at 160 us (wake_preempt_short_late, step 23): a.trace's
# three are by a waker that ran under 160 us (H: 0-10 us twice, 40-160 once; 1 of 3 with
# need_resched: 333), t.trace's F by A 400 us into its run (1 of 1: 1000). Both traces
# together give the line; a.trace alone (nothing from 160 us) and a run without --short none.
"$PY" "$W" --min 1 --short "$T/a.trace" "$T/t.trace" >"$T/out7" || fail "--short (a, t): exit $?"
grep -q '^param wake_preempt_short=333 wake_preempt_short_late=1000 wake_preempt_short_run=160000ns$' \
	"$T/out7" || fail "--short split: $(cat "$T/out7")"
grep -q '^param wake_preempt_short' "$T/out6" && fail "--short split without a late waker: $(cat "$T/out6")"
"$PY" "$W" --min 1 "$T/a.trace" "$T/t.trace" | grep -q '^param ' && fail "a split without --short"
"$PY" "$W" --again --no-again "$T/a.trace" >/dev/null 2>&1 && fail "--again --no-again: exit 0"
"$PY" "$W" --ratio 0 "$T/a.trace" >/dev/null 2>&1 && fail "--ratio 0: exit 0"
# --no-foreign (tools/foreign_runs.py's Near): t.trace beside a JSON naming A to F, so G is
# foreign: on CPU 1, E sleeps and G switches in at 0.500200, its switch to idle not kept (as
# the recordings keep lines), so its run lasts to the file's last switch-out, F's at 0.999500.
# With a margin of 600 us the foreign moments end at 1.000100: B's wake-up (1.000050) is left
# out, C's (1.000300, without need_resched) counted; with 0 none is left out; with the default
# 1 ms both are, and nothing is counted (exit 2).
mkdir "$T/nf"
cp "$T/t.trace" "$T/nf/t.trace"
printf '{ "tasks" : { "A" : {}, "B" : {}, "C" : {}, "D" : {}, "E" : {}, "F" : {} } }\n' >"$T/nf/w.json"
"$PY" "$W" --min 1 --no-foreign=600 "$T/nf/t.trace" >"$T/out7" || fail "--no-foreign=600: exit $?"
grep -q '^--no-foreign: 1 of 2 wake-ups left out' "$T/out7" || fail "--no-foreign=600: $(cat "$T/out7")"
grep -q '^1 counted wake-ups in 1 trace(s); need_resched set in 0 (0 per 1000)$' "$T/out7" ||
	fail "--no-foreign=600: $(cat "$T/out7")"
grep -Eq '^A -> C +1 +0 +0$' "$T/out7" || fail "--no-foreign=600: pair A -> C: $(cat "$T/out7")"
"$PY" "$W" --min 1 --no-foreign=0 "$T/nf/t.trace" >"$T/out8" || fail "--no-foreign=0: exit $?"
grep -q '^--no-foreign: 0 of 2 wake-ups left out' "$T/out8" || fail "--no-foreign=0: $(cat "$T/out8")"
grep -q '^2 counted wake-ups in 1 trace(s); need_resched set in 1 (500 per 1000)$' "$T/out8" ||
	fail "--no-foreign=0: $(cat "$T/out8")"
for bad in "--no-foreign $T/nf/t.trace" "--no-foreign=x $T/nf/t.trace" "--no-foreign=0 $T/t.trace"; do
	# shellcheck disable=SC2086
	if "$PY" "$W" $bad >/dev/null 2>"$T/err"; then
		fail "$bad: exit 0"
	else
		[ $? -eq 2 ] || fail "$bad: not exit 2 ($(cat "$T/err"))"
	fi
done
grep -q 'one rt-app \*.json beside it' "$T/err" || fail "no JSON: $(cat "$T/err")"
echo "wake_preempt_pairs.sh: ok"
