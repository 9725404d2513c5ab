#!/bin/sh
# tools/agreement_pooled.sh: sets pooled, each with its machine. The set is validate_agreement.sh's
# test's: one recording of template.json (one thread, 5 figures) given twice, as r1 and r2.
set -eu
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case $SL in /*) ;; *) SL=$PWD/$SL ;; esac
for r in r1 r2; do
	mkdir -p "$T/set/$r"
	cp -r "$ROOT/tests/data/validate-rep/r1/template" "$T/set/$r/"
done
M=$ROOT/machines/fc-2vcpu
pooled() {
	sh "$ROOT/tools/agreement_pooled.sh" -s "$SL" "$@" >"$T/out" 2>"$T/err"
}
# By hand (tests/validate_agreement.sh): against fc-2vcpu's model 3 of 5 figures agree per
# recording, 6 of 10 for r1 and r2; the floor 10 of 10. The set given twice pools to 12 of 20
# and 20 of 20; the model's count is the same for seeds 1 and 2 (every figure but the wake-up
# latencies agrees, and those are 0 simulated against 26 and 54 us real), so the mean is 6.
pooled -S '1 2' "$T/set=$M" "$T/set=$M" || fail "two sets: $(cat "$T/err")"
[ "$(grep -c "^$T/set  *$M  *6.00/10 (60.00%)  *10/10 (100.00%)$" "$T/out")" -eq 2 ] ||
	fail "per set: $(cat "$T/out")"
grep -q '^pooled  *12.00/20 (60.00%)  *20/20 (100.00%)$' "$T/out" || fail "pooled: $(cat "$T/out")"
grep -q '^half: all; model: the mean over seeds 1 2$' "$T/out" || fail "half: $(cat "$T/out")"
grep -q '^model - floor per set: mean -40.00 points, standard error 0.00 (2 sets)$' "$T/out" ||
	fail "difference, equal sets: $(cat "$T/out")"
# A third recording whose rt-app logged no run (tests/validate_agreement.sh: r3, 7 of 15 and 22
# of 30 when counted). Left out by default: set3 is set again. With -A: the differences are
# 60 - 100 = -40 and 46.67 - 73.33 = -26.67, mean -33.33; their standard deviation 13.33 / root
# 2 = 9.43, over root 2 sets: 6.67. Pooled 13 of 25 and 32 of 40.
for r in r1 r2 r3; do
	mkdir -p "$T/set3/$r"
	cp -r "$ROOT/tests/data/validate-rep/r1/template" "$T/set3/$r/"
done
grep '^#' "$T/set3/r1/template/rt-app2-thread0-0.log" >"$T/set3/r3/template/rt-app2-thread0-0.log"
pooled "$T/set=$M" "$T/set3=$M" || fail "set3: $(cat "$T/err")"
grep -q '^pooled  *12.00/20 (60.00%)  *20/20 (100.00%)$' "$T/out" || fail "set3 left out: $(cat "$T/out")"
pooled -A "$T/set=$M" "$T/set3=$M" || fail "-A: $(cat "$T/err")"
grep -q '^pooled  *13.00/25 (52.00%)  *32/40 (80.00%)$' "$T/out" || fail "-A, pooled: $(cat "$T/out")"
grep -q '^model - floor per set: mean -33.33 points, standard error 6.67 (2 sets)$' "$T/out" ||
	fail "-A, difference: $(cat "$T/out")"
# one set has no spread: the difference without a standard error, null in the JSON
pooled "$T/set=$M" || fail "one set: $(cat "$T/err")"
grep -q '^model - floor: -40.00 points (one set: no standard error)$' "$T/out" ||
	fail "one set: $(cat "$T/out")"
pooled -j "$T/set=$M" || fail "one set, -j: $(cat "$T/err")"
grep -q '"set_difference":{"mean":-40.00,"standard_error":null,"sets":1}' "$T/out" ||
	fail "one set, -j: $(cat "$T/out")"
pooled -j "$T/set=$M" "$T/set=$M" || fail "-j: $(cat "$T/err")"
python3 - "$T/out" <<'PY' || fail "-j: $(cat "$T/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["half"] == "all" and d["seeds"] == [1], d
assert len(d["sets"]) == 2 and d["sets"][0]["model"] == 6 and d["sets"][0]["floor_of"] == 10, d
assert d["pooled"] == {"model": 12, "model_of": 20, "floor": 20, "floor_of": 20}, d
assert d["set_difference"] == {"mean": -40, "standard_error": 0, "sets": 2}, d
PY
# bad input: exit 2 naming what was expected, nothing on stdout
bad() {
	want=$1
	shift
	rc=0
	pooled "$@" || rc=$?
	[ "$rc" -eq 2 ] || fail "$*: exit $rc, expected 2 ($(cat "$T/err"))"
	grep -qF -e "$want" "$T/err" || fail "$*: stderr does not say '$want': $(cat "$T/err")"
	[ ! -s "$T/out" ] || fail "$*: stdout not empty"
}
bad "expected SET=MACHINE_DIR" "$T/set"
bad "holds no r1" "$T/nothing=$M"
bad "is not a machine directory" "$T/set=$T/nothing"
bad "is not a seed" -S '1 x' "$T/set=$M"
bad "no reported file" -C template "$T/set=$M"
bad "usage:"
# -F: the file's figures pooled over the two sets, as the totals (one file): 12 of 20 against
# 20 of 20, 40 points under; the table file written whole
pooled -F "$T/perfile" -S '1 2' "$T/set=$M" "$T/set=$M" || fail "-F: $(cat "$T/err")"
grep -q '^template  *12.00/20 (60.00%)  *20/20 (100.00%)  *-40.00$' "$T/perfile" ||
	fail "-F: $(cat "$T/perfile")"
rc=0
pooled -F "$T/no/such/dir/perfile" -S 1 "$T/set=$M" || rc=$?
[ "$rc" -eq 1 ] && grep -q 'cannot write' "$T/err" || fail "-F unwritable: exit $rc $(cat "$T/err")"
