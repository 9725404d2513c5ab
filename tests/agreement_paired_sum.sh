#!/bin/sh
# tools/agreement_paired_sum.sh: the per-seed sums of two sets' paired differences, by hand.
set -eu
. "$(dirname "$0")/base.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
S=$ROOT/tools/agreement_paired_sum.sh
cat >"$T/a" <<'X'
seed   fc-2vcpu fc-2vcpu-c      diff
1           100        103     +3
2           100         99     -1
3           100        104     +4
mean      100.0      102.0   +2.0  (standard error 1.5, 3 seeds)
X
cat >"$T/b" <<'X'
seed   m1 m2 diff
3           50         51     +1  deadlock: first [] second [x]
1           50         49     -1
2           50         55     +5
mean      50.0      51.7   +1.7  (standard error 1.8, 3 seeds)
without the seeds deadlocked on one side only: +2.0  (standard error 3.0, 2 seeds)
X
# sums per seed: 1: 3 - 1 = 2; 2: -1 + 5 = 4; 3: 4 + 1 = 5. Mean 11/3 = 3.67 -> +3.7; the
# deviations -1.67, 0.33, 1.33: squares 2.78 + 0.11 + 1.78 = 4.67, / 2 = 2.33, root 1.53,
# / root 3 = 0.88 -> 0.9; 3.67 / 0.88 = 4.2 standard errors
sh "$S" "$T/a" "$T/b" >"$T/out" || fail "exit $?: $(cat "$T/out")"
grep -q '^1  *+3  *-1  *+2$' "$T/out" || fail "seed 1: $(cat "$T/out")"
grep -q '^3  *+4  *+1  *+5$' "$T/out" || fail "seed 3: $(cat "$T/out")"
grep -q '^sum over 2 sets: mean +3.7, standard error 0.9, 3 seeds (4.2 standard errors)$' \
	"$T/out" || fail "summary: $(cat "$T/out")"
# a seed missing from one file, a malformed row, no file, an empty file: exit 2 with a message
head -n 3 "$T/b" >"$T/short"
for bad in "$T/short" "$T/nofile"; do
	rc=0
	sh "$S" "$T/a" "$bad" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 2 ] || fail "$bad: exit $rc"
	[ -s "$T/err" ] || fail "$bad: no message"
done
sh "$S" "$T/a" "$T/short" 2>&1 | grep -q 'short: seed 2 missing' || fail "missing seed not named"
printf 'seed a b diff\n1 2 3 x\n' >"$T/mal"
sh "$S" "$T/mal" 2>&1 | grep -q 'mal:2: expected a row SEED FIRST SECOND DIFF' ||
	fail "malformed row not named"
: >"$T/empty"
rc=0
sh "$S" "$T/empty" 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'no seed rows' "$T/err" || fail "empty file: exit $rc $(cat "$T/err")"
rc=0
sh "$S" 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] || fail "no file: exit $rc"
echo "agreement_paired_sum: ok"
