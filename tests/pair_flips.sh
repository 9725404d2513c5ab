#!/bin/sh
# tools/pair_flips.py on traces written by hand (docs/validate.md, "Pairs made and unmade").
# P (11), Z (13) and W (10) run on CPU 0 first, Y (12) on CPU 1; then W wakes P four times:
# 1.000: P last on W's CPU 0: paired; it stays there (CPU 1 busy with Y, W alone on CPU 0).
# 1.001: paired again; the wake-up itself moves P to CPU 1 (a migration between its waking and
#        its wakeup, W's context): "own wake task away, other busy, waker alone".
# 1.002: P last on CPU 1, W on CPU 0: crossed (the change paired -> crossed, by that move).
# 1.003: an interrupt on CPU 0 (the h flag) wakes Z, which preempts W (R+); at 1.0031 CPU 1
#        takes W (a migration written on CPU 1 in Y's context) and Y blocks there 10 us later:
#        W's newidle pull.
# 1.004: W on CPU 1 wakes P, last on CPU 1: paired (crossed -> paired, by "waker: newidle").
# By hand, with --min 2 (the pair has 4 wake-ups; the interrupt's is no pair's): one pair, 4
# wake-ups over the span 1.000-1.004 (4 ms): 1000 wake-ups/s, 3 of 4 paired (75%), one change
# each way: 250 per second each. The pair's own wake-ups: paired with CPU 1 busy and W alone 3
# (1 placed away: 333 per 1000), crossed with the other busy, W alone 1 (0 joined). The model's
# trace is the same run written in schedlab's order (the wake-up's migration before its waking,
# at the same time, on the target CPU in the idle task's context): the same counts. With
# --min 5 no pair is followed: exit 2; so on a trace of three CPUs and a missing file.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
ev() { # ev CTX_COMM CTX_PID CPU FLAGS TIME EVENT FIELDS
	printf '%16s-%-7s [00%s] %s     %s: %s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7"
}
P='comm=P pid=11 prio=120'
head() {
	printf '# tracer: nop\n#\n'
	sw 0 0.900000 swapper/0 0 R P 11
	sw 1 0.900000 swapper/1 0 R Y 12
	sw 0 0.900100 P 11 S Z 13
	sw 0 0.900200 Z 13 S W 10
	ev W 10 0 d..3. 1.000000 sched_waking "$P target_cpu=000"
	ev W 10 0 d..4. 1.000001 sched_wakeup "$P target_cpu=000"
	sw 0 1.000010 W 10 R+ P 11
	sw 0 1.000020 P 11 S W 10
}
tail() {
	sw 1 1.001020 Y 12 R+ P 11
	sw 1 1.001030 P 11 S Y 12
	ev W 10 0 d..3. 1.002000 sched_waking "$P target_cpu=001"
	ev W 10 0 d..4. 1.002001 sched_wakeup "$P target_cpu=001"
	sw 1 1.002020 Y 12 R+ P 11
	sw 1 1.002030 P 11 S Y 12
	ev W 10 0 d.h2. 1.003000 sched_waking "comm=Z pid=13 prio=120 target_cpu=000"
	ev W 10 0 dNh3. 1.003001 sched_wakeup "comm=Z pid=13 prio=120 target_cpu=000"
	sw 0 1.003010 W 10 R+ Z 13
	ev Y 12 1 d..2. 1.003100 sched_migrate_task "comm=W pid=10 prio=120 orig_cpu=0 dest_cpu=1"
	sw 1 1.003110 Y 12 S W 10
	ev W 10 1 d..3. 1.004000 sched_waking "$P target_cpu=001"
	ev W 10 1 d..4. 1.004001 sched_wakeup "$P target_cpu=001"
	sw 1 1.004010 W 10 R+ P 11
}
{
	head
	ev W 10 0 d..3. 1.001000 sched_waking "$P target_cpu=000"
	ev W 10 0 d..3. 1.001001 sched_migrate_task "$P orig_cpu=0 dest_cpu=1"
	ev W 10 0 d..4. 1.001002 sched_wakeup "$P target_cpu=001"
	tail
} >"$T/real.trace"
{
	head
	ev '<idle>' 0 1 d..4. 1.001000 sched_migrate_task "$P orig_cpu=0 dest_cpu=1"
	ev W 10 0 d..3. 1.001000 sched_waking "$P target_cpu=001"
	ev W 10 0 d..4. 1.001000 sched_wakeup "$P target_cpu=001"
	tail
} >"$T/model.trace"

"$PY" "$TOOLPY" --min 2 "$T/real.trace" --model "$T/model.trace" >"$T/out" ||
	fail "exit $? ($(cat "$T/out"))"
for side in real model; do
	grep -q "^$side: 1 traces, 0\.0 s, 1 pairs of 2+ wake-ups a trace, 1000\.0 wake-ups/s, 75% paired; changes/s: paired -> crossed 250\.00, crossed -> paired 250\.00$" "$T/out" ||
		fail "$side: $(cat "$T/out")"
done
grep -q '^crossed -> paired  balance (newidle)  *250\.00  *250\.00$' "$T/out" &&
	grep -q '^paired -> crossed  own wake-up  *250\.00  *250\.00$' "$T/out" ||
	fail "kinds: $(cat "$T/out")"
grep -q '^crossed -> paired  waker: newidle  *250\.00  *250\.00$' "$T/out" &&
	grep -q '^paired -> crossed  wakee: own wake task away, other busy, waker alone  *250\.00  *250\.00$' "$T/out" ||
	fail "events: $(cat "$T/out")"
[ "$(grep -c '^paired -> crossed\|^crossed -> paired' "$T/out")" -eq 4 ] || fail "rows: $(cat "$T/out")"
grep -q '^  paired, other busy, waker alone: away  *real  *1 of  *3 ( 333) model  *1 of  *3 ( 333)$' "$T/out" &&
	grep -q '^  crossed, other busy, waker alone: join  *real  *0 of  *1 (   0) model  *0 of  *1 (   0)$' "$T/out" ||
	fail "placements: $(cat "$T/out")"
"$PY" "$TOOLPY" --min 2 --by pair "$T/real.trace" >"$T/out" || fail "--by pair: exit $?"
grep -q '^W -> P  *1000\.0  *75 250\.00 250\.00$' "$T/out" || fail "--by pair: $(cat "$T/out")"
# two pairs of the same wake-ups (the same trace with W and P renamed X and Q, a second file):
# ordered by name whatever the interpreter's hash seed (a set's order changed with it)
sed 's/W-10/X-10/; s/comm=W /comm=X /g; s/comm=P /comm=Q /g; s/prev_comm=W /prev_comm=X /g; s/next_comm=W /next_comm=X /g; s/next_comm=P /next_comm=Q /g; s/prev_comm=P /prev_comm=Q /g' \
	"$T/real.trace" >"$T/renamed.trace"
for h in 0 1 2 3 4 5; do
	PYTHONHASHSEED=$h "$PY" "$TOOLPY" --min 2 --by pair "$T/real.trace" "$T/renamed.trace" >"$T/out" ||
		fail "--by pair, two files: exit $?"
	[ "$(grep -o '^[WX] -> [PQ]' "$T/out" | tr '\n' ' ')" = "W -> P X -> Q " ] ||
		fail "--by pair, hash seed $h: $(cat "$T/out")"
done
"$PY" "$TOOLPY" --min 2 --json "$T/real.trace" >"$T/out" || fail "--json: exit $?"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d["summary"]["real"]; assert s["paired_share"] == 0.75 and abs(s["paired -> crossed"] - 250) < 1e-6, s' "$T/out" ||
	fail "--json: $(cat "$T/out")"

rc=0
"$PY" "$TOOLPY" --min 5 "$T/real.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'no pair with 5 wake-ups' "$T/err" || fail "--min 5: exit $rc"
sed 's/\[001\]/[002]/' "$T/real.trace" >"$T/three.trace"
tool_error "$T/three.trace" "2-CPU"
tool_error "$T/missing.trace" missing.trace
# a cut .xz: exit 2 naming the file once (ftrace_lines' opener), not lzma's EOFError
tool_cut_xz "$T/real.trace"
rc=0
"$PY" "$TOOLPY" --min x "$T/real.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'expected a count' "$T/err" || fail "--min x: exit $rc"
