#!/bin/sh
# tools/wake_tail.py (the waker's tail, wake_tail's measurement) on traces written by hand
# (docs/validate.md, "The waker's tail, a tool (issue 28, step 17)"). two_cpu_head: CPU 0 runs
# W (10), CPU 1 Y (12); X (11), Z (13), Q (14) asleep. real.trace, times in us after 1 s:
#   a   0  W wakes X onto CPU 0 (own; sched_wakeup at 1); W's next event is b: tail 4
#   b   4  W wakes Z onto CPU 1, which runs Y (busy other; sched_wakeup at 16, on CPU 0); W is
#          preempted by X at 20 (R+) before its next event: not counted (else tail 16 if the
#          switch-out ended it, 30 if W's next event, p, did)
#   p  34  W, running again since 30, wakes P (15) onto CPU 1, which runs Z (busy other;
#          sched_wakeup at 45, on CPU 0); W sleeps at 40: tail 6
#   g  50  on CPU 1 (Z running since 22) an hrtimer_expire_entry and, at the same timestamp, a
#          sched_waking of W with no interrupt flag: the timer's, not Z's (not counted; else
#          Z -> W onto the idle CPU 0, tail 10, ended by i)
#   i  60  Z wakes Q onto CPU 1 (own); Z sleeps at 68: tail 8
#   k  70  on CPU 0 (W running since 54) a sched_waking of X flagged h: an interrupt's (not
#          counted; else W -> X, own, tail 10, ended by l)
#   l  80  W wakes Z onto CPU 1, which runs Y (busy other); W sleeps at 100: tail 20
#   o 120  X wakes Y onto CPU 1, idle since 115 (idle other; its sched_wakeup at 150 on CPU 1);
#          X sleeps at 139: tail 19
#   q 160  Y wakes Z and has no next event before the trace ends: not counted
# model.trace (the model's, the same reading): the pairs W -> X, W -> Z, W -> P, Z -> W, X -> Y
# make their next step at once (tail 0), Z -> Q 5 us later: selected, the five others.
# By hand, selected (a, p, l, o: 4, 6, 20, 19 us): n 4, sorted 4 6 19 20, p25 (element 1) 6,
# median 12.5, p75 (element 3) 20; own 1 (4); busy other 2 (6, 20: p25 6, median 13, p75 20);
# idle other 1 (19); param wake_tail=13000ns (12.5 us, half up). --all (i too): n 5, 4 6 8 19 20,
# p25 6, median 8, p75 19, own 2 (4, 8: median 6), param 8000ns. Each rule stubbed moves these
# (n 5): b counted (its tail through the preemption, or ended by it), the h flag or the
# interrupt entry line ignored, no selection.
# -c: a stand-in SCHEDLAB (a script) writes model.trace to --sim-out and keeps the machine.conf
# it was given: the copy has no wake_tail, wake_tail_unlock nor wake_ipi line and keeps the
# others; one run per file name (r1/f and r2/f: once). Errors (exit 2): a missing file, a
# directory without its trace, a third CPU, no selection given, model traces with no pair at 0.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
{
	two_cpu_head
	wl 0 1.000000 W 10 d..3. sched_waking X 11 0
	wl 0 1.000001 W 10 d..4. sched_wakeup X 11 0
	wl 0 1.000004 W 10 d..3. sched_waking Z 13 1
	wl 0 1.000016 W 10 d..4. sched_wakeup Z 13 1
	sw 0 1.000020 W 10 R+ X 11
	sw 1 1.000022 Y 12 R+ Z 13
	sw 0 1.000030 X 11 S W 10
	wl 0 1.000034 W 10 d..3. sched_waking P 15 1
	sw 0 1.000040 W 10 S swapper/0 0
	wl 0 1.000045 '<idle>' 0 d.h2. sched_wakeup P 15 1
	printf '%16s-%-7s [001] d.h1.     1.000050: hrtimer_expire_entry: hrtimer=000000000000000a function=hrtimer_wakeup now=1000050000\n' Z 13
	wl 1 1.000050 Z 13 d..3. sched_waking W 10 0
	wl 0 1.000052 '<idle>' 0 d.h2. sched_wakeup W 10 0
	sw 0 1.000054 swapper/0 0 R W 10
	wl 1 1.000060 Z 13 d..3. sched_waking Q 14 1
	wl 1 1.000061 Z 13 d..4. sched_wakeup Q 14 1
	sw 1 1.000068 Z 13 S Y 12
	wl 0 1.000070 W 10 d.h2. sched_waking X 11 0
	wl 0 1.000071 W 10 d.h3. sched_wakeup X 11 0
	wl 0 1.000080 W 10 d..3. sched_waking Z 13 1
	wl 0 1.000092 W 10 d..4. sched_wakeup Z 13 1
	sw 0 1.000100 W 10 S X 11
	sw 1 1.000105 Y 12 S Z 13
	sw 1 1.000110 Z 13 S Q 14
	sw 1 1.000115 Q 14 S swapper/1 0
	wl 0 1.000120 X 11 d..3. sched_waking Y 12 1
	sw 0 1.000139 X 11 S swapper/0 0
	wl 1 1.000150 '<idle>' 0 d.h2. sched_wakeup Y 12 1
	sw 1 1.000155 swapper/1 0 R Y 12
	wl 1 1.000160 Y 12 d..3. sched_waking Z 13 1
	wl 1 1.000161 Y 12 d..4. sched_wakeup Z 13 1
} >"$T/real.trace"
{
	two_cpu_head
	wl 0 1.000000 W 10 d..3. sched_waking X 11 0
	wl 0 1.000000 W 10 d..4. sched_wakeup X 11 0
	wl 0 1.000000 W 10 d..3. sched_waking Z 13 1
	wl 0 1.000000 W 10 d..4. sched_wakeup Z 13 1
	wl 0 1.000000 W 10 d..3. sched_waking P 15 1
	wl 0 1.000000 W 10 d..4. sched_wakeup P 15 1
	sw 0 1.000000 W 10 S X 11
	sw 1 1.000010 Y 12 S Z 13
	wl 1 1.000020 Z 13 d..3. sched_waking W 10 0
	wl 1 1.000020 Z 13 d..4. sched_wakeup W 10 0
	wl 1 1.000020 Z 13 d..3. sched_waking Q 14 1
	wl 1 1.000020 Z 13 d..4. sched_wakeup Q 14 1
	sw 1 1.000025 Z 13 S Q 14
	wl 0 1.000030 X 11 d..3. sched_waking Y 12 1
	wl 0 1.000030 X 11 d..4. sched_wakeup Y 12 1
	sw 0 1.000030 X 11 S W 10
} >"$T/model.trace"
# row OUT TARGET N P25 MEDIAN P75: the table's line
row() {
	grep -q "^$2  *$3  *$4  *$5  *$6\$" "$1" || fail "$2 $3 $4 $5 $6 expected: $(cat "$1")"
}
"$PY" "$TOOLPY" "$T/real.trace" --model "$T/model.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
row "$T/out" all 4 6.0 12.5 20.0
row "$T/out" own 1 4.0 4.0 4.0
row "$T/out" "busy other" 2 6.0 13.0 20.0
row "$T/out" "idle other" 1 19.0 19.0 19.0
row "$T/out" "no sched_wakeup" 0 None None None
grep -q '^5 of the model.s 6 (waker, wakee) pairs' "$T/out" || fail "pairs: $(cat "$T/out")"
grep -q '^param wake_tail=13000ns$' "$T/out" || fail "param: $(cat "$T/out")"
"$PY" "$TOOLPY" --all "$T/real.trace" >"$T/out" || fail "--all: exit $? ($(cat "$T/out"))"
row "$T/out" all 5 6.0 8.0 19.0
row "$T/out" own 2 4.0 6.0 8.0
grep -q '^param wake_tail=8000ns$' "$T/out" || fail "--all param: $(cat "$T/out")"
"$PY" "$TOOLPY" --json --pairs "$T/real.trace" --model "$T/model.trace" >"$T/out" ||
	fail "--json: exit $?"
"$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["wake_tail_ns"] == 13000 and r["pairs_selected"] == 5 and r["pairs_model"] == 6, r
assert r["tails"]["all"] == {"n": 4, "p25": 6.0, "median": 12.5, "p75": 20.0}, r["tails"]
p = {(x["waker"], x["wakee"]): (x["n"], x["median"], x["model_n"]) for x in r["pairs"]}
assert p == {("W", "Z"): (1, 20.0, 1), ("W", "X"): (1, 4.0, 1), ("X", "Y"): (1, 19.0, 1),
             ("W", "P"): (1, 6.0, 1)}, p
' "$T/out" || fail "--json: $(cat "$T/out")"

# -c with a stand-in schedlab: validate F.json --real D --calibration C --seed N --sim-out O
mkdir -p "$T/cal" "$T/set/r1/f" "$T/set/r2/f"
printf 'cpus 2\nparam ctx_switch=999ns\nparam wake_tail=11000ns\nparam wake_tail_unlock=1\nparam wake_ipi=5000ns\nparam wake_preempt=393\n' >"$T/cal/machine.conf"
echo 'idle profile' >"$T/cal/machine.profile"
for r in r1 r2; do
	echo '{}' >"$T/set/$r/f/f.json"
	cp "$T/real.trace" "$T/set/$r/f/real.trace"
done
cat >"$T/sl" <<EOF
#!/bin/sh
[ "\$1 \$3 \$5 \$7 \$9" = "validate --real --calibration --seed --sim-out" ] || exit 3
echo "\$2 \$4 \$8" >>"$T/calls"
cp "\$6/machine.conf" "$T/given.conf"
cp "\$6/machine.profile" "$T/given.profile"
cp "$T/model.trace" "\${10}/sim.trace"
EOF
chmod +x "$T/sl"
"$PY" "$TOOLPY" -c "$T/cal" -s "$T/sl" --seed 7 "$T/set/r1/f" "$T/set/r2/f" >"$T/out" ||
	fail "-c: exit $? ($(cat "$T/out"))"
row "$T/out" all 8 6.0 12.5 20.0
grep -q '^param wake_tail=13000ns$' "$T/out" || fail "-c param: $(cat "$T/out")"
[ "$(cat "$T/calls")" = "$T/set/r1/f/f.json $T/set/r1/f 7" ] || fail "-c calls: $(cat "$T/calls")"
[ "$(cat "$T/given.conf")" = "$(printf 'cpus 2\nparam ctx_switch=999ns\nparam wake_preempt=393')" ] ||
	fail "-c machine.conf: $(cat "$T/given.conf")"
grep -q 'idle profile' "$T/given.profile" || fail "-c: machine.profile not copied"
grep -q 'without: param wake_tail=11000ns, param wake_tail_unlock=1, param wake_ipi=5000ns' \
	"$T/out" || fail "-c: the lines left out not said: $(cat "$T/out")"

rc=0
"$PY" "$TOOLPY" --all "$T/missing.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'missing.trace' "$T/err" || fail "a missing file: exit $rc ($(cat "$T/err"))"
rc=0
"$PY" "$TOOLPY" "$T/set/r1" --all >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'without real.trace' "$T/err" || fail "a directory: exit $rc ($(cat "$T/err"))"
sed 's/\[001\]/[002]/' "$T/real.trace" >"$T/three.trace"
rc=0
"$PY" "$TOOLPY" --all "$T/three.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q '2-CPU' "$T/err" || fail "three CPUs: exit $rc ($(cat "$T/err"))"
rc=0
"$PY" "$TOOLPY" "$T/real.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'Usage' "$T/err" || fail "no selection: exit $rc ($(cat "$T/err"))"
rc=0
"$PY" "$TOOLPY" "$T/real.trace" --model "$T/real.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'no wake-up' "$T/err" || fail "no pair at 0: exit $rc ($(cat "$T/err"))"
echo "wake_tail.sh: ok"
