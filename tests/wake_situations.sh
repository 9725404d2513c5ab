#!/bin/sh
# tools/wake_situations.py on traces written by hand (docs/validate.md, "The wake-up situations,
# real against model"). X (11), Z (13) and Q (14) each run on both CPUs first; then CPU 0 runs
# W (10) and CPU 1 runs Y (12), with X last on CPU 0, Z and Q last on CPU 1. At 1.0000 W wakes X
# (task; last A; A alone; B busy): X stays on CPU 0 and runs. At 1.0001 W wakes Z (last B):
# Z goes to CPU 1 and preempts Y (R+) at 1.000124: 24 us from its waking. W sleeps at 1.00025;
# at 1.0003 an interrupt on CPU 1 (the h flag) wakes Q (irq; last A; A busy with Y; B idle):
# Q goes to CPU 0 and runs. At 1.0004 Q wakes Z again (last B, B busy): Z goes to CPU 1, where
# Y sleeps (S) before Z runs: no preemption. By hand: three situations, of 1, 2 and 1 wake-ups
# (one trace), onto A 100%, 0%, 0%; one remote preemption of 24 us: param ipi_busy=24000ns.
# The model's trace has only W's wake-up of Z, Z joining W on CPU 0: that row is real 2.0 at
# 0%, model 1.0 at 100%, +100 points, moved +1.0, listed first. With -t X only X's row. A trace with no counted wake-up,
# one of three CPUs, a file that does not exist and a bad --by: exit 2, saying so.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
two_cpu_head >"$T/head"
{
	cat "$T/head"
	cat <<'TR'
               W-10      [000] d..3.     1.000000: sched_waking: comm=X pid=11 prio=120 target_cpu=000
               W-10      [000] d..4.     1.000001: sched_wakeup: comm=X pid=11 prio=120 target_cpu=000
TR
	sw 0 1.000010 W 10 R+ X 11
	sw 0 1.000020 X 11 S W 10
	cat <<'TR'
               W-10      [000] d..3.     1.000100: sched_waking: comm=Z pid=13 prio=120 target_cpu=001
               W-10      [000] d..4.     1.000115: sched_wakeup: comm=Z pid=13 prio=120 target_cpu=001
TR
	sw 1 1.000124 Y 12 R+ Z 13
	sw 1 1.000200 Z 13 S Y 12
	sw 0 1.000250 W 10 S swapper/0 0
	cat <<'TR'
               Y-12      [001] d.h2.     1.000300: sched_waking: comm=Q pid=14 prio=120 target_cpu=001
          <idle>-0       [000] dNh2.     1.000320: sched_wakeup: comm=Q pid=14 prio=120 target_cpu=000
TR
	sw 0 1.000330 swapper/0 0 R Q 14
	cat <<'TR'
               Q-14      [000] d..3.     1.000400: sched_waking: comm=Z pid=13 prio=120 target_cpu=001
               Q-14      [000] d..4.     1.000410: sched_wakeup: comm=Z pid=13 prio=120 target_cpu=001
TR
	sw 1 1.000500 Y 12 S Z 13
} >"$T/real.trace"
{
	cat "$T/head"
	cat <<'TR'
               W-10      [000] d..3.     1.000100: sched_waking: comm=Z pid=13 prio=120 target_cpu=000
               W-10      [000] d..4.     1.000100: sched_wakeup: comm=Z pid=13 prio=120 target_cpu=000
TR
} >"$T/model.trace"

"$PY" "$TOOLPY" "$T/real.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
grep -q '^task last A A alone  B busy  *1\.0  *100$' "$T/out" || fail "X: $(cat "$T/out")"
grep -q '^task last B A alone  B busy  *2\.0  *0$' "$T/out" || fail "Z: $(cat "$T/out")"
grep -q '^irq  last A A busy   B idle  *1\.0  *0$' "$T/out" || fail "Q: $(cat "$T/out")"
[ "$(grep -c '^task\|^irq' "$T/out")" -eq 3 ] || fail "rows: $(cat "$T/out")"
grep -q '^  real       1 wake-ups  p10 24\.0  median 24\.0  p90 24\.0$' "$T/out" &&
	grep -q '^param ipi_busy=24000ns$' "$T/out" || fail "remote: $(cat "$T/out")"

"$PY" "$TOOLPY" "$T/real.trace" --model "$T/model.trace" >"$T/out" || fail "--model: exit $?"
sed -n 3p "$T/out" | grep -q '^task last B A alone  B busy  *2\.0  *0  *1\.0  *100  *+100  *+1\.0$' ||
	fail "--model: $(cat "$T/out")"
grep -q '^  model      0 wake-ups$' "$T/out" || fail "--model remote: $(cat "$T/out")"
grep -q '^  real  as high: 0 of 0  lower: 0 of 0  none: 0 of 1$' "$T/out" &&
	grep -q '^  model as high: 0 of 0  lower: 0 of 0  none: 0 of 0$' "$T/out" &&
	grep -q '^param vcpu_pack_wait_none=0$' "$T/out" &&
	! grep -q 'vcpu_pack_wait=\|vcpu_pack_wait_lower' "$T/out" || fail "--model wait: $(cat "$T/out")"

# vcpu_pack_wait_none's count (none.trace): after the same start W wakes X (last on CPU 0, CPU 1
# running Y, nothing waiting on CPU 0); X goes to CPU 1 and preempts Y. By hand: none 1 of 1
# moved: param vcpu_pack_wait_none=1000.
{
	cat "$T/head"
	cat <<'TR'
               W-10      [000] d..3.     1.000000: sched_waking: comm=X pid=11 prio=120 target_cpu=000
               W-10      [000] d..4.     1.000001: sched_wakeup: comm=X pid=11 prio=120 target_cpu=001
TR
	sw 1 1.000030 Y 12 R+ X 11
} >"$T/none.trace"
"$PY" "$TOOLPY" "$T/none.trace" >"$T/out" || fail "none: exit $?"
grep -q '^  real  as high: 0 of 0  lower: 0 of 0  none: 1 of 1$' "$T/out" &&
	grep -q '^param vcpu_pack_wait_none=1000$' "$T/out" || fail "none: $(cat "$T/out")"

"$PY" "$TOOLPY" -t X "$T/real.trace" >"$T/out" || fail "-t: exit $?"
[ "$(grep -c '^task\|^irq' "$T/out")" -eq 1 ] && grep -q '^task last A A alone' "$T/out" ||
	fail "-t X: $(cat "$T/out")"
"$PY" "$TOOLPY" --by pair "$T/real.trace" >"$T/out" || fail "--by pair: exit $?"
grep -q 'W -> Z' "$T/out" && grep -q '(irq) -> Q' "$T/out" || fail "--by pair: $(cat "$T/out")"
"$PY" "$TOOLPY" --json "$T/real.trace" --model "$T/model.trace" >"$T/out" || fail "--json: exit $?"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["remote_preempt"]["real"]["p50"] == 24.0 and d["situations"][0]["moved"] == 1.0' "$T/out" ||
	fail "--json: $(cat "$T/out")"

# vcpu_pack_irq's count (irqpend.trace, step 27): after the same start W and then Y sleep, both
# CPUs idle; an interrupt on CPU 0 wakes W (on CPU 0 only: not counted) and then X (last on
# CPU 0), which stays on CPU 0 behind W. By hand: stayed 1 of 1, param vcpu_pack_irq=1000.
{
	cat "$T/head"
	sw 0 1.000010 W 10 S swapper/0 0
	sw 1 1.000020 Y 12 S swapper/1 0
	cat <<'TR'
          <idle>-0       [000] d.h2.     1.000100: sched_waking: comm=W pid=10 prio=120 target_cpu=000
          <idle>-0       [000] dNh2.     1.000101: sched_wakeup: comm=W pid=10 prio=120 target_cpu=000
          <idle>-0       [000] dNh2.     1.000102: sched_waking: comm=X pid=11 prio=120 target_cpu=000
          <idle>-0       [000] dNh2.     1.000103: sched_wakeup: comm=X pid=11 prio=120 target_cpu=000
TR
	sw 0 1.000110 swapper/0 0 R W 10
	sw 0 1.000120 W 10 S X 11
} >"$T/irqpend.trace"
"$PY" "$TOOLPY" "$T/irqpend.trace" >"$T/out" || fail "irqpend: exit $?"
grep -A1 'by an interrupt on A, idle with a woken task' "$T/out" | grep -q '^  real  1 of 1 (1000 per mille)$' &&
	grep -q '^param vcpu_pack_irq=1000$' "$T/out" || fail "irqpend: $(cat "$T/out")"

# vcpu_pack_wait_hot's count (hot.trace, step 28): after the same start CPU 1 has been busy
# since 0.9000. At 1.0000 W wakes X (last on CPU 0, W alone there, Y alone on CPU 1): CPU 1's
# busy time is 1024 x (1 - 2^(-100/32.768)) = 896 >= 768, a hot case; X goes to CPU 1 and
# preempts Y, sleeps, runs on CPU 0 again (W preempted), sleeps. Y sleeps at 1.0010 and CPU 1
# idles until 1.2000 (the signal falls to 896 x 2^(-199/32.768), about 13), then Y runs; at
# 1.2001 W wakes X again (last on CPU 0): CPU 1's busy time is about 15, not hot, and X stays.
# By hand: moved 1 of 1, param vcpu_pack_wait_hot=1000; on the first trace (real.trace), whose
# one such wake-up (W wakes X at 1.0000) stayed: 0 of 1, param vcpu_pack_wait_hot=0.
{
	cat "$T/head"
	wl 0 1.000000 W 10 d..3. sched_waking X 11 0
	wl 0 1.000001 W 10 d..4. sched_wakeup X 11 1
	sw 1 1.000020 Y 12 R+ X 11
	sw 1 1.000100 X 11 S Y 12
	sw 0 1.000200 W 10 R+ X 11
	sw 0 1.000300 X 11 S W 10
	sw 1 1.001000 Y 12 S swapper/1 0
	sw 1 1.200000 swapper/1 0 R Y 12
	wl 0 1.200100 W 10 d..3. sched_waking X 11 0
	wl 0 1.200101 W 10 d..4. sched_wakeup X 11 0
	sw 0 1.200110 W 10 R+ X 11
} >"$T/hot.trace"
"$PY" "$TOOLPY" "$T/hot.trace" >"$T/out" || fail "hot: exit $?"
grep -A1 "B's busy time 768 of 1024 or more: moved to B" "$T/out" | grep -q '^  real  1 of 1 (1000 per mille)$' &&
	grep -q '^param vcpu_pack_wait_hot=1000$' "$T/out" || fail "hot: $(cat "$T/out")"
"$PY" "$TOOLPY" "$T/real.trace" >"$T/out" || fail "hot (real.trace): exit $?"
grep -A1 "B's busy time 768 of 1024 or more: moved to B" "$T/out" | grep -q '^  real  0 of 1 (0 per mille)$' &&
	grep -q '^param vcpu_pack_wait_hot=0$' "$T/out" || fail "hot (real.trace): $(cat "$T/out")"

# vcpu_pack_wait's count (wait.trace): after the same start Q (prio 120) runs on CPU 0 and is
# preempted by W, so it waits there. W wakes X (last on CPU 0, CPU 1 running Y) at prio 110:
# Q is of a lower priority ("lower"); X stays and runs. W wakes X again at prio 120: Q is as
# important ("as high"); X goes to CPU 1. By hand: as high 1 of 1 moved, lower 0 of 1, none 0
# of 0: param vcpu_pack_wait=1000. (Q runs at last at 1.0002: a task no later line names does
# not wait.)
{
	cat "$T/head"
	sw 0 0.950000 W 10 R+ Q 14
	sw 0 0.950100 Q 14 R+ W 10
	cat <<'TR'
               W-10      [000] d..3.     1.000000: sched_waking: comm=X pid=11 prio=110 target_cpu=000
               W-10      [000] d..4.     1.000001: sched_wakeup: comm=X pid=11 prio=110 target_cpu=000
TR
	sw 0 1.000010 W 10 R+ X 11
	sw 0 1.000020 X 11 S W 10
	cat <<'TR'
               W-10      [000] d..3.     1.000100: sched_waking: comm=X pid=11 prio=120 target_cpu=000
               W-10      [000] d..4.     1.000101: sched_wakeup: comm=X pid=11 prio=120 target_cpu=001
TR
	sw 1 1.000130 Y 12 R+ X 11
	sw 0 1.000200 W 10 S Q 14
} >"$T/wait.trace"
"$PY" "$TOOLPY" "$T/wait.trace" >"$T/out" || fail "wait: exit $?"
grep -q '^  real  as high: 1 of 1  lower: 0 of 1  none: 0 of 0$' "$T/out" &&
	grep -q '^param vcpu_pack_wait=1000$' "$T/out" || fail "wait: $(cat "$T/out")"

# vcpu_pack_queued's count (queued.trace): after the same start Y sleeps, CPU 1 idles; Q is
# preempted by W on CPU 0 and waits there. W wakes X (last on CPU 0; B idle, nothing waiting on
# it): X stays on CPU 0 and runs, Q still waiting; W wakes X again: X goes to the idle CPU 1.
# Q runs at last at 1.0002. By hand: 1 of 2 stayed: param vcpu_pack_queued=500. Without Q's
# last line (stuck.trace) Q is never named after its preemption, a lost line: it does not wait,
# and both wake-ups are X's with W alone on CPU 0.
{
	cat "$T/head"
	sw 1 0.950000 Y 12 S swapper/1 0
	sw 0 0.950000 W 10 R+ Q 14
	sw 0 0.950100 Q 14 R+ W 10
	cat <<'TR'
               W-10      [000] d..3.     1.000000: sched_waking: comm=X pid=11 prio=120 target_cpu=000
               W-10      [000] d..4.     1.000001: sched_wakeup: comm=X pid=11 prio=120 target_cpu=000
TR
	sw 0 1.000010 W 10 R+ X 11
	sw 0 1.000020 X 11 S W 10
	cat <<'TR'
               W-10      [000] d..3.     1.000100: sched_waking: comm=X pid=11 prio=120 target_cpu=000
               W-10      [000] d..4.     1.000101: sched_wakeup: comm=X pid=11 prio=120 target_cpu=001
TR
	sw 1 1.000130 swapper/1 0 R X 11
	sw 0 1.000200 W 10 S Q 14
} >"$T/queued.trace"
"$PY" "$TOOLPY" "$T/queued.trace" >"$T/out" || fail "queued: exit $?"
grep -v ' 1.000200: ' "$T/queued.trace" >"$T/stuck.trace"
"$PY" "$TOOLPY" "$T/stuck.trace" >"$T/out2" || fail "stuck: exit $?"
grep -q '^task last A A alone  B idle  *2\.0  *50$' "$T/out2" && ! grep -q '^task last A A queued' "$T/out2" ||
	fail "stuck: $(cat "$T/out2")"
grep -q '^task last A A queued B idle  *2\.0  *50$' "$T/out" &&
	grep -q '^param vcpu_pack_queued=500$' "$T/out" || fail "queued: $(cat "$T/out")"

# The join count (join.trace): after the same start Q is preempted by Y on CPU 1 and waits
# there. W, alone on CPU 0, wakes Z (last on CPU 1, which runs Y with Q waiting): Z goes to CPU
# 0 (onto A) and runs. Q runs at last at 1.0002. By hand: 1 of 1 onto A (1000 per mille); the
# wait counts none (Z was last on B). In wait.trace nothing waits on B: its "(B alone)" line
# is its whole count, as high 1 of 1, lower 0 of 1; in queued.trace X's two wake-ups with Q
# (prio 120, as high as X) waiting on A: as high 1 of 2 stayed, lower 0 of 0.
{
	cat "$T/head"
	sw 1 0.950000 Y 12 R+ Q 14
	sw 1 0.950100 Q 14 R+ Y 12
	cat <<'TR'
               W-10      [000] d..3.     1.000000: sched_waking: comm=Z pid=13 prio=120 target_cpu=001
               W-10      [000] d..4.     1.000001: sched_wakeup: comm=Z pid=13 prio=120 target_cpu=000
TR
	sw 0 1.000010 W 10 R+ Z 13
	sw 1 1.000200 Y 12 S Q 14
} >"$T/join.trace"
"$PY" "$TOOLPY" "$T/join.trace" >"$T/out" || fail "join: exit $?"
grep -q '^  real  1 of 1 (1000 per mille)$' "$T/out" &&
	grep -q '^param vcpu_pack_join=1000$' "$T/out" && ! grep -q '^param vcpu_pack_stay=' "$T/out" &&
	grep -q '^  real  as high: 0 of 0  lower: 0 of 0  none: 0 of 0$' "$T/out" || fail "join: $(cat "$T/out")"
# The stay count (stay.trace, step 27): after the same start W, alone on CPU 0, wakes Z (last on
# CPU 1, which runs Y alone); Z stays on CPU 1 and preempts Y. By hand: stayed 1 of 1
# (param vcpu_pack_stay=1000), the join count 0 of 0 (no line).
{
	cat "$T/head"
	cat <<'TR'
               W-10      [000] d..3.     1.000000: sched_waking: comm=Z pid=13 prio=120 target_cpu=001
               W-10      [000] d..4.     1.000001: sched_wakeup: comm=Z pid=13 prio=120 target_cpu=001
TR
	sw 1 1.000030 Y 12 R+ Z 13
} >"$T/stay.trace"
"$PY" "$TOOLPY" "$T/stay.trace" >"$T/out" || fail "stay: exit $?"
grep -A1 "B's task alone there: stayed on B" "$T/out" | grep -q '^  real  1 of 1 (1000 per mille)$' &&
	grep -q '^param vcpu_pack_stay=1000$' "$T/out" && ! grep -q '^param vcpu_pack_join=' "$T/out" ||
	fail "stay: $(cat "$T/out")"
grep -v ' 1.000200: ' "$T/join.trace" >"$T/join2.trace"
"$PY" "$TOOLPY" "$T/join2.trace" >"$T/out" || fail "join2: exit $?"
grep -q '^  real  0 of 0$' "$T/out" || fail "join, Q lost: $(cat "$T/out")"
"$PY" "$TOOLPY" "$T/wait.trace" >"$T/out" || fail "wait alone: exit $?"
grep -q '^  real  (B alone) as high: 1 of 1  lower: 0 of 1  none: 0 of 0$' "$T/out" &&
	grep -q '^param vcpu_pack_wait_alone=1000$' "$T/out" &&
	grep -q '^param vcpu_pack_wait_lower_alone=0$' "$T/out" && ! grep -q '_crowded=' "$T/out" ||
	fail "wait alone: $(cat "$T/out")"
# waitb.trace: wait.trace with V (15) waiting on B too (preempted by Y before either wake-up,
# named again at the end): the same counts, as high 1 of 1 moved, lower 0 of 1, and none in
# the "(B alone)" line
{
	sw 1 0.950000 Y 12 R+ V 15
	sw 1 0.950100 V 15 R+ Y 12
} >"$T/vlines"
sed '/ 0\.950100: sched_switch/r '"$T/vlines" "$T/wait.trace" >"$T/waitb.trace"
sw 1 1.000300 X 11 S V 15 >>"$T/waitb.trace"
"$PY" "$TOOLPY" "$T/waitb.trace" >"$T/out" || fail "waitb: exit $?"
grep -q '^  real  as high: 1 of 1  lower: 0 of 1  none: 0 of 0$' "$T/out" &&
	grep -q '^  real  (B alone) as high: 0 of 0  lower: 0 of 0  none: 0 of 0$' "$T/out" &&
	grep -q '^param vcpu_pack_wait_crowded=1000$' "$T/out" &&
	grep -q '^param vcpu_pack_wait_lower_crowded=0$' "$T/out" && ! grep -q '_alone=' "$T/out" ||
	fail "waitb: $(cat "$T/out")"
"$PY" "$TOOLPY" "$T/queued.trace" >"$T/out" || fail "queued by: exit $?"
grep -q '^  real  (A queued, B idle) as high: 1 of 2  lower: 0 of 0$' "$T/out" ||
	fail "queued by: $(cat "$T/out")"
"$PY" "$TOOLPY" --json "$T/join.trace" >"$T/out" || fail "join --json: exit $?"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["join"]["real"] == [1, 1] and d["queued"]["real"]["as high"] == [0, 0], d' "$T/out" ||
	fail "join --json: $(cat "$T/out")"

tool_error "$T/head" "no wake-up"
sed 's/\[001\]/[002]/' "$T/real.trace" >"$T/three.trace"
tool_error "$T/three.trace" "2-CPU"
tool_error "$T/missing.trace" missing.trace
rc=0
"$PY" "$TOOLPY" --by cpu "$T/real.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'expected wakee or pair' "$T/err" || fail "--by cpu: exit $rc"

# --newidle (idle.trace): W (10) runs on CPU 0, Y (12) on CPU 1. Y wakes Z (13) onto CPU 1;
# W blocks and CPU 0 pulls Z (migrate 5 us before the switch W -> Z): a moment at avg_idle
# 1000 us (the start), pulled. Z blocks, CPU 0 idles from 1.000100; Y wakes W onto it at
# 1.000260: avg_idle 1000000 + (160000 - 1000000) / 8 = 895000 ns. Y wakes X (11) onto CPU 1;
# W blocks at 1.000500 with X waiting on CPU 1: a moment at 895 us; X runs on CPU 1 (Y
# preempted, R+), CPU 0 stays idle until an interrupt wakes W at 1.001000: not pulled, avg_idle
# 895000 + (500000 - 895000) / 8 = 845625 ns (floored). W blocks at 1.001100 with Y waiting on
# CPU 1: a moment at 845.6 us; the idle CPU 0 pulls Y 20 us later and runs it: pulled. By hand:
# 900-1000 us: 1 moment, 100% pulled; 800-900 us: 2 moments, 50%; no other class. By the
# waiters: Z and X woken, last run at 0.9004 (cold: 0.5 ms ago or more): 2, 50%; Y preempted at
# 1.0007, 400 us before its moment (hot): 1, 100%.
newidle_trace >"$T/idle.trace"
"$PY" "$TOOLPY" --newidle "$T/idle.trace" --model "$T/idle.trace" >"$T/out" ||
	fail "--newidle: exit $? ($(cat "$T/out"))"
grep -q '^ *900-1000  *1\.0  *100  *1\.0  *100$' "$T/out" &&
	grep -q '^ *800-900  *2\.0  *50  *2\.0  *50$' "$T/out" &&
	[ "$(grep -c '^ *[0-9]*-[0-9]* *0\.0  *-  *0\.0  *-$' "$T/out")" -eq 5 ] &&
	grep -q '^ *cold woken  *2\.0  *50  *2\.0  *50$' "$T/out" &&
	grep -q '^ *hot preempted  *1\.0  *100  *1\.0  *100$' "$T/out" &&
	[ "$(grep -c '^ *[a-z]* [a-z]*  *0\.0  *-  *0\.0  *-$' "$T/out")" -eq 4 ] ||
	fail "--newidle: $(cat "$T/out")"
"$PY" "$TOOLPY" --newidle --json "$T/idle.trace" >"$T/out" || fail "--newidle --json: exit $?"
"$PY" -c 'import json,sys; r=json.load(open(sys.argv[1]))["avg_idle"]; assert r[5] == dict(avg_idle_us=[800, 900], real_n=2.0, real_pulled=0.5), r' "$T/out" ||
	fail "--newidle --json: $(cat "$T/out")"
# the pull of Y 60 us after CPU 0 went idle is not its newidle pull: 800-900 us, 0%
sed 's/1\.001120: sched_migrate/1.001160: sched_migrate/; s/1\.001125: sched_switch/1.001165: sched_switch/' \
	"$T/idle.trace" >"$T/late.trace"
"$PY" "$TOOLPY" --newidle "$T/late.trace" >"$T/out" || fail "--newidle late: exit $?"
grep -q '^ *800-900  *2\.0  *0$' "$T/out" || fail "--newidle late: $(cat "$T/out")"
rc=0
"$PY" "$TOOLPY" --newidle "$T/head" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'no CPU went idle' "$T/err" || fail "--newidle on head: exit $rc"
# a task the trace never shows again does not wait (stale.trace): V (15) runs on CPU 1 and is
# preempted by Y, its last line; W blocks on CPU 0 and is woken later: no moment, exit 2
{
	cat "$T/head"
	sw 1 1.000000 Y 12 R+ V 15
	sw 1 1.000010 V 15 R+ Y 12
	sw 0 1.000100 W 10 S swapper/0 0
	cat <<'TR'
          <idle>-0       [000] d.h2.     1.000999: sched_waking: comm=W pid=10 prio=120 target_cpu=000
          <idle>-0       [000] dNh2.     1.001000: sched_wakeup: comm=W pid=10 prio=120 target_cpu=000
TR
	sw 0 1.001010 swapper/0 0 R W 10
} >"$T/stale.trace"
rc=0
"$PY" "$TOOLPY" --newidle "$T/stale.trace" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'no CPU went idle' "$T/err" || fail "--newidle stale: exit $rc $(cat "$T/out")"

# vcpu_pack_stay_queued's count (stayq.trace, step 29): after the same start W wakes X (last on
# CPU 0), which waits there behind W; then W wakes Z (last on CPU 1, which runs Y): others wait
# on A, B busy. Z goes to CPU 1 and preempts Y; X runs when W sleeps. By hand: stayed on B 1 of
# 1, param vcpu_pack_stay_queued=1000; with Z sent to CPU 0 instead, 0 of 1, 0.
for z in 1 0; do
	{
		cat "$T/head"
		cat <<TR
               W-10      [000] d..3.     1.000000: sched_waking: comm=X pid=11 prio=120 target_cpu=000
               W-10      [000] d..4.     1.000001: sched_wakeup: comm=X pid=11 prio=120 target_cpu=000
               W-10      [000] d..3.     1.000100: sched_waking: comm=Z pid=13 prio=120 target_cpu=001
               W-10      [000] d..4.     1.000115: sched_wakeup: comm=Z pid=13 prio=120 target_cpu=00$z
TR
		[ "$z" = 1 ] && sw 1 1.000124 Y 12 R+ Z 13
		sw 0 1.000200 W 10 S X 11
	} >"$T/stayq.trace"
	"$PY" "$TOOLPY" "$T/stayq.trace" >"$T/out" || fail "stayq $z: exit $?"
	grep -A1 'with others waiting on A, of a task last on B' "$T/out" |
		grep -q "^  real  $z of 1 ($((z * 1000)) per mille)$" &&
		grep -q "^param vcpu_pack_stay_queued=$((z * 1000))$" "$T/out" ||
		fail "stayq $z: $(cat "$T/out")"
done

# --budget (step 30): a wake-up is kept by --budget=pos when the last balance's SIS_UTIL budget
# (tools/sis_util.py's "bal") was > 0, by --budget=zero when it was 0, and by neither before the
# first balance. Checked wake-up by wake-up on a recording against sis_util.py --rows --all;
# then the situations' counts of pos and zero add up to those of every wake-up less the ones
# before the first balance, and a bad value is refused (exit 2).
REC="$(cd "$(dirname "$0")/.." && pwd)/tests/data/validate-v1300e/r1/browser-long/real.trace.xz"
"$PY" "$(dirname "$TOOLPY")/sis_util.py" --rows --all "$REC" >"$T/sis.csv" || fail "sis_util: exit $?"
"$PY" - "$(dirname "$TOOLPY")" "$REC" "$T/sis.csv" <<'PY' || fail "--budget: the skips"
import csv, sys
sys.path.insert(0, sys.argv[1])
import wake_situations as ws
pos, zero = ws.budget_skip(sys.argv[2], "pos"), ws.budget_skip(sys.argv[2], "zero")
n = {"pos": 0, "zero": 0, "none": 0}
for r in csv.DictReader(open(sys.argv[3])):
    t = int(r["t_ns"])
    if r["budget_bal"] == "":
        assert pos(t) and zero(t), r
        n["none"] += 1
    elif int(r["budget_bal"]) > 0:
        assert not pos(t) and zero(t), r
        n["pos"] += 1
    else:
        assert pos(t) and not zero(t), r
        n["zero"] += 1
assert n["pos"] > 0 and n["zero"] > 0 and n["none"] > 0, n
PY
for b in all pos zero; do
	if [ $b = all ]; then set --; else set -- --budget=$b; fi
	"$PY" "$TOOLPY" "$@" --json "$REC" | "$PY" -c '
import json, sys
print(sum(s["real_n"] for s in json.load(sys.stdin)["situations"]))' >"$T/n.$b" ||
		fail "--budget=$b: exit $?"
done
[ "$(cat "$T/n.pos")" != 0.0 ] && [ "$(cat "$T/n.zero")" != 0.0 ] &&
	awk -v a="$(cat "$T/n.all")" -v p="$(cat "$T/n.pos")" -v z="$(cat "$T/n.zero")" \
		'BEGIN { exit !(p + z <= a && p + z >= a - 20) }' ||
	fail "--budget: all $(cat "$T/n.all"), pos $(cat "$T/n.pos"), zero $(cat "$T/n.zero")"
tool_error "$REC" 'expected --budget=pos or --budget=zero' --budget=half
