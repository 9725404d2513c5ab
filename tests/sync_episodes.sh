#!/bin/sh
# tools/sync_episodes.py (rt-app's sync hand-off, episode by episode) on a trace written by
# hand: BrowserDisplay (10) the syncer, Binder-dummy (11) its partner, Z (12) another task.
# Binder-dummy last ran on CPU 1. Three episodes, values by hand:
# A (0.901000, the syncer 1 ms into its run on CPU 0): its wake-up of the partner places it on
#   CPU 1 (the other; its previous CPU: no move); the syncer sleeps; the partner runs 280 us
#   there and wakes the syncer: slept.
# B (0.903000, the syncer 1.72 ms into its run: after 1.4 ms): the partner (last on CPU 1) is
#   placed on CPU 0 (a move onto the syncer's CPU) and runs first (R+), sleeps 5 us later on the
#   mutex; the syncer's second wake-up of it (the release) lets it run first again: not slept.
# C (0.904000, 0.688 ms into the syncer's run: inside): placed on CPU 0 (its previous CPU), first
#   (R+), bounces; at the second wake-up the syncer sleeps first (S); the partner wakes it 200
#   us later: slept.
# Pooled: 3 episodes, slept 2; w1 on the other CPU 1; w1 own with the partner first 2 of 2
# (inside 1 of 1, after 1 of 1); w2 first 1 of 2; moves off the syncer's CPU 0 of 1 (C's
# partner was last on it), onto it 1 of 2 (A's and B's were last on CPU 1; B's moved).
# With --gap 300 the partner's 280 us in A do not open B: B's wake-ups belong to A (its first
# two wake-ups are A's), 2 episodes. Errors: a missing file, an unknown option, a trace without
# the pair's wake-ups, --gap without a value: exit 2, saying so.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
# wk CPU TIME LINE_COMM LINE_PID WAKEE WAKEE_PID TARGET EVENT
wk() {
	printf '%16s-%-7s [00%s] d..3.     %s: %s: comm=%s pid=%s prio=120 target_cpu=00%s\n' \
		"$3" "$4" "$1" "$2" "$8" "$5" "$6" "$7"
}
B=BrowserDisplay
d=Binder-dummy
{
	printf '# tracer: nop\n#\n'
	sw 0 0.900000 swapper/0 0 R $B 10
	sw 1 0.900000 swapper/1 0 R $d 11
	sw 1 0.900100 $d 11 S Z 12
	# A
	wk 0 0.901000 $B 10 $d 11 1 sched_waking
	wk 1 0.901001 Z 12 $d 11 1 sched_wakeup
	sw 0 0.901010 $B 10 S swapper/0 0
	sw 1 0.901020 Z 12 R+ $d 11
	wk 1 0.901270 $d 11 $B 10 0 sched_waking
	wk 0 0.901271 '<idle>' 0 $B 10 0 sched_wakeup
	sw 0 0.901280 swapper/0 0 R $B 10
	sw 1 0.901300 $d 11 S Z 12
	# B
	wk 0 0.903000 $B 10 $d 11 1 sched_waking
	wk 0 0.903001 $B 10 $d 11 0 sched_wakeup
	sw 0 0.903005 $B 10 R+ $d 11
	sw 0 0.903010 $d 11 S $B 10
	wk 0 0.903011 $B 10 $d 11 0 sched_waking
	wk 0 0.903011 $B 10 $d 11 0 sched_wakeup
	sw 0 0.903012 $B 10 R+ $d 11
	sw 0 0.903312 $d 11 S $B 10
	# C
	wk 0 0.904000 $B 10 $d 11 0 sched_waking
	wk 0 0.904001 $B 10 $d 11 0 sched_wakeup
	sw 0 0.904004 $B 10 R+ $d 11
	sw 0 0.904009 $d 11 S $B 10
	wk 0 0.904010 $B 10 $d 11 0 sched_waking
	wk 0 0.904010 $B 10 $d 11 0 sched_wakeup
	sw 0 0.904011 $B 10 S $d 11
	wk 0 0.904211 $d 11 $B 10 0 sched_waking
	wk 0 0.904211 $d 11 $B 10 0 sched_wakeup
	sw 0 0.904250 $d 11 S $B 10
} >"$T/s.trace"
"$PY" "$TOOLPY" "$T/s.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
want="$T/s.trace: 3 episodes; slept 2/3 (667); w1 on the other CPU 1/3 (333); w1 own, \
partner first 2/2 (1000) (syncer ran inside 1.4 ms 1/1 (1000), after 1/1 (1000)); w2 partner \
first 1/2 (500); moves: off the syncer's CPU 0/1 (0), onto it 1/2 (500)"
[ "$(cat "$T/out")" = "$want" ] || fail "got '$(cat "$T/out")', expected '$want'"
# two files: each line, then the pooled one
"$PY" "$TOOLPY" "$T/s.trace" "$T/s.trace" >"$T/out" || fail "two: exit $?"
grep -q "^all 2: 6 episodes; slept 4/6 (667);" "$T/out" || fail "two: $(cat "$T/out")"
"$PY" "$TOOLPY" --gap 300 "$T/s.trace" >"$T/out" || fail "gap: exit $?"
grep -q ": 2 episodes; slept 2/2 (1000);" "$T/out" || fail "gap: $(cat "$T/out")"
# the pair named: Z and the partner are no such pair
tool_error "$T/none.trace" none.trace
tool_cut_xz "$T/s.trace"
printf '# tracer: nop\n' >"$T/empty.trace"
tool_error "$T/empty.trace" "no wake-up of Binder-dummy by BrowserDisplay"
rc=0
"$PY" "$TOOLPY" --bogus "$T/s.trace" >/dev/null 2>"$T/err" || rc=$?
if [ "$rc" -ne 2 ] || ! grep -q "unknown option --bogus" "$T/err"; then
	fail "--bogus: exit $rc ($(cat "$T/err"))"
fi
rc=0
"$PY" "$TOOLPY" "$T/s.trace" --gap >/dev/null 2>"$T/err" || rc=$?
if [ "$rc" -ne 2 ] || ! grep -q "gap needs a value" "$T/err"; then
	fail "--gap: exit $rc ($(cat "$T/err"))"
fi
rc=0
"$PY" "$TOOLPY" --syncer Z "$T/s.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] || fail "--syncer Z: exit $rc, expected 2 (no such wake-ups)"
echo "sync_episodes: ok"
